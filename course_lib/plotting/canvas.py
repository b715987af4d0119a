"""The Agg canvas the live demos draw on: the same pixels as matplotlib's, with the texts'
glyphs rasterized once instead of at every frame.

Agg draws a text glyph by glyph: FreeType lays the string out (kerning, fallback fonts), then
rasterizes each glyph at its position, to 1/64 of a pixel. A demo's frame redraws the same
tick labels, axis labels and titles as the frame before, and the rasterizing is most of a
frame's text cost. A glyph's bitmap depends on its font, size, resolution, transform and on
where it falls inside a pixel (the position modulo 1 pixel), not on which pixel: moved by a
whole pixel, a glyph's outline gives the same bitmap one pixel over. So `GlyphCacheRenderer`
keeps each bitmap under that key and draws it again at its new whole-pixel place, and keeps the
layout of each string it has drawn and each font's line height (which matplotlib reads from
the font's tables for every text it places); everything else (and the boxes of math text) is
Agg's own.
`GlyphCacheCanvas` is a FigureCanvasAgg whose renderer is one of these.

The glyph path uses matplotlib's Agg text internals (3.10-3.11); with a matplotlib that lacks
them the canvas is plain Agg (`GLYPH_CACHE` is then False).
"""

import math

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg, get_hinting_flag
from matplotlib.font_manager import fontManager, get_font
from matplotlib.ft2font import FT2Font, RenderMode

GLYPH_CACHE = all(hasattr(FT2Font, name) for name in ("_layout", "_render_glyph", "_set_transform")) \
    and hasattr(RendererAgg, "_draw_text_glyphs_and_boxes")
MAX_GLYPHS = 50_000  # bitmaps kept (a 12 pt glyph at 192 dpi is about 1 kB)
MAX_LAYOUTS = 5_000  # strings whose layout is kept

_glyphs = {}  # (font, size, dpi, glyph, matrix, x and y within the pixel, flags, antialiased) -> bitmap
_layouts = {}  # (string, font properties, dpi, features, language, flags) -> [(font, glyph, dx, dy)]
_heights = {}  # (font properties, dpi) -> (ascent, descent, line gap) in pixels


def _frozen(value):
    return tuple(_frozen(v) for v in value) if isinstance(value, (list, tuple)) else value


def _font_key(prop):
    """What of a FontProperties decides the font, its size and the layout (a hashable tuple)."""
    return (tuple(prop.get_family()), prop.get_style(), prop.get_variant(), prop.get_weight(),
            prop.get_stretch(), prop.get_size_in_points(), prop.get_file(), prop.get_math_fontfamily())


class GlyphCacheRenderer(RendererAgg):
    """RendererAgg drawing each glyph from a bitmap rasterized once (see the module)."""

    def _get_font_height_metrics(self, prop):
        """The font's ascent, descent and line gap in pixels at this resolution (Text asks
        its renderer first): from the OS/2 table's typographic values, else from the hhea
        table's, scaled from font units to pixels; (None, None, None) without either."""
        key = (_font_key(prop), self.dpi)
        if key not in _heights:
            font = get_font(fontManager._find_fonts_by_props(prop))
            _heights[key] = (None, None, None)
            for table_name, gap, ascent, descent in (("OS/2", "sTypoLineGap", "sTypoAscender", "sTypoDescender"),
                                                     ("hhea", "lineGap", "ascent", "descent")):
                table = font.get_sfnt_table(table_name)
                if table is not None:
                    scale = 1 / font.get_sfnt_table("head")["unitsPerEm"] * prop.get_size_in_points() * self.dpi / 72
                    _heights[key] = (table[ascent] * scale, -table[descent] * scale, table[gap] * scale)
                    break
        return _heights[key]

    def draw_text(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
        if ismath:  # math text: parsed (matplotlib keeps the parse), its glyphs drawn below
            return super().draw_text(gc, x, y, s, prop, angle, ismath, mtext)
        flags = get_hinting_flag()
        features = _frozen(mtext.get_fontfeatures()) if mtext is not None else None
        language = _frozen(mtext.get_language()) if mtext is not None else None
        key = (s, _font_key(prop), self.dpi, features, language, flags)
        items = _layouts.get(key)
        if items is None:
            font = self._prepare_font(prop)
            items = [(item.ft_object, item.glyph_index, item.x, item.y)
                     for item in font._layout(s, flags=flags, features=features, language=language)]
            if len(_layouts) >= MAX_LAYOUTS:
                _layouts.clear()
            _layouts[key] = items
        size = prop.get_size_in_points()
        self._draw_text_glyphs_and_boxes(
            gc, x, y, angle, ((font, size, glyph, 0, 1, dx, dy) for font, glyph, dx, dy in items), ())

    def _draw_text_glyphs_and_boxes(self, gc, x, y, angle, glyphs, boxes):
        """Each glyph (font, size, index, slant, extend, dx, dy; dy upwards, from the text's
        origin x, y, y downwards) from its kept bitmap; the boxes by Agg."""
        cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        flags, antialiased = get_hinting_flag(), bool(gc.get_antialiased())
        for font, size, index, slant, extend, dx, dy in glyphs:
            # The glyph's origin in FreeType's 1/64 pixels, y upwards: whole pixels and the rest.
            gx = round(64 * (x + dx * cos - dy * sin))
            gy = round(64 * (self.height - y + dx * sin + dy * cos))
            matrix = (round(0x10000 * cos * extend), round(0x10000 * (cos * extend * slant - sin)),
                      round(0x10000 * sin * extend), round(0x10000 * (sin * extend * slant + cos)))
            key = (font, size, self.dpi, index, matrix, gx & 63, gy & 63, flags, antialiased)
            bitmap = _glyphs.get(key)
            if bitmap is None:
                bitmap = _glyphs[key] = self._rasterize(font, size, index, matrix, gx & 63, gy & 63,
                                                        flags, antialiased)
                if len(_glyphs) > MAX_GLYPHS:
                    _glyphs.clear()
                    _glyphs[key] = bitmap
            buffer, left, top = bitmap
            # draw_text_image takes the bitmap's left side and its bottom side, y downwards.
            self._renderer.draw_text_image(
                buffer, left + (gx >> 6), int(self.height) - top - (gy >> 6) + buffer.shape[0], 0, gc)
        if boxes:
            super()._draw_text_glyphs_and_boxes(gc, x, y, angle, (), boxes)

    def _rasterize(self, font, size, index, matrix, fx, fy, flags, antialiased):
        """The glyph's bitmap with its origin at (fx, fy) / 64 pixel: (buffer, left, top)."""
        font.set_size(size, self.dpi)
        font._set_transform([[matrix[0], matrix[1]], [matrix[2], matrix[3]]], [fx, fy])
        bitmap = font._render_glyph(index, flags, RenderMode.NORMAL if antialiased else RenderMode.MONO)
        buffer = np.array(bitmap.buffer)  # a copy: FreeType reuses its glyph slot
        if not antialiased:
            buffer *= 0xff
        return buffer, bitmap.left, bitmap.top


class GlyphCacheCanvas(FigureCanvasAgg):
    """A FigureCanvasAgg drawing through one GlyphCacheRenderer (a new one only when the
    figure's size in pixels or its resolution changes)."""

    def get_renderer(self):
        if not GLYPH_CACHE:
            return super().get_renderer()
        width, height = self.get_width_height(physical=True)
        key = (width, height, self.figure.dpi)
        if getattr(self, "_glyph_renderer_key", None) != key:
            self.renderer = GlyphCacheRenderer(width, height, self.figure.dpi)
            self._glyph_renderer_key = key
        return self.renderer
