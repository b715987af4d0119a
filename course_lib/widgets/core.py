"""`Demo`: controls (sliders, dropdowns) above a matplotlib figure that is redrawn when they move.

The figure is rendered to PNG and shown in an `ipywidgets.Image`, so a redraw is one PNG
render (tens of milliseconds on the default data; the layout is solved once, at the first render), the same in JupyterLab, Voila and a
static HTML export, with no interactive matplotlib backend needed. Every redraw is timed:
`demo.seconds` holds the last duration and the label under the figure shows it.
"""

import time
import traceback

import ipywidgets as widgets

from course_lib.plotting.style import new_figure, png_bytes


def log_slider(name, value, low, high, step=0.1, continuous_update=True, description=None):
    """A slider over 10**low .. 10**high (for C, sigma, lambda, eta), named after its symbol."""
    return widgets.FloatLogSlider(
        value=value, base=10, min=low, max=high, step=step, description=description or name,
        continuous_update=continuous_update, readout_format=".3g",
        style={"description_width": "initial"}, layout=widgets.Layout(width="360px"),
    )


class Demo(widgets.VBox):
    """Controls above a figure; moving a control calls `draw(ax, **values)` on cleared axes
    and re-renders the figure.

    draw: function(ax, **values) drawing on `ax` (an Axes, or an array of Axes when
          ncols * nrows > 1).
    controls: dict name -> ipywidgets control; `values` are their `.value`s by name.
    """

    def __init__(self, draw, controls, ncols=1, nrows=1, width=5.5, height=4.5, dpi=72):
        self.draw = draw
        self.controls = dict(controls)
        self.dpi = dpi
        self.fig, self.ax = new_figure(ncols=ncols, nrows=nrows, width=width, height=height)
        self.image = widgets.Image(format="png")
        self.image.add_class("course-figure")
        self.status = widgets.HTML()
        self.status.add_class("course-status")
        self.seconds = None
        self._quiet = False
        for control in self.controls.values():
            control.observe(self._on_change, names="value")
        rows = [widgets.HBox(list(self.controls.values()), layout=widgets.Layout(flex_flow="row wrap"))]
        super().__init__(rows + [self.image, self.status])
        self.add_class("course-demo")
        self.update()
        # Keep the layout found by the first render and drop the engine: with any engine set
        # (even "none", a placeholder) savefig draws the figure twice.
        self.fig.set_layout_engine(None)

    @property
    def values(self):
        return {name: control.value for name, control in self.controls.items()}

    def update(self):
        """Clear the axes, draw with the current values, render; raises if drawing fails."""
        start = time.perf_counter()
        for ax in self.fig.axes[:]:
            if ax in getattr(self.ax, "flat", [self.ax]):
                ax.clear()
            else:  # colorbars and other axes added by a previous draw
                ax.remove()
        self.draw(self.ax, **self.values)
        self.image.value = png_bytes(self.fig, dpi=self.dpi)
        self.seconds = time.perf_counter() - start
        self.status.value = f"<small>redrawn in {1000 * self.seconds:.0f} ms</small>"
        return self.seconds

    def set(self, **values):
        """Set several controls at once, then redraw once; returns the redraw time in seconds."""
        self._quiet = True
        try:
            for name, value in values.items():
                if name not in self.controls:
                    raise KeyError(f"no control named {name!r}; controls are {sorted(self.controls)}")
                self.controls[name].value = value
        finally:
            self._quiet = False
        return self.update()

    def _on_change(self, change):
        if self._quiet:
            return
        try:
            self.update()
        except Exception:
            text = traceback.format_exc(limit=3).replace("&", "&amp;").replace("<", "&lt;")
            self.status.value = f"<pre class='course-demo-error'>{text}</pre>"
            self.status.add_class("course-demo-error")
        else:
            self.status.remove_class("course-demo-error")


def static_grid(draw, settings, ncols=3, width=4.2, height=3.6, title=None):
    """The same drawing at a few settings side by side: the printed stand-in for a Demo.

    settings: list of dicts of control values; each panel is titled with its values.
    """
    nrows = -(-len(settings) // ncols)
    fig, axes = new_figure(ncols=ncols, nrows=nrows, width=width, height=height)
    axes = getattr(axes, "flat", [axes])
    for ax, values in zip(axes, settings):
        draw(ax, **values)
        ax.set_title(", ".join(f"{k} = {_short(v)}" for k, v in values.items()), fontsize=11)
    for ax in list(axes)[len(settings):]:
        ax.set_visible(False)
    if title:
        fig.suptitle(title)
    return fig


def _short(value):
    return f"{value:.3g}" if isinstance(value, float) else str(value)
