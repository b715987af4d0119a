"""The language course_lib speaks: English (the source) or French, through Python's gettext.

    import course_lib
    course_lib.set_language("fr")     # or COURSE_LANG=fr in the environment before the import

User-facing strings of course_lib are written in English and wrapped: `_("Not yet: ...")` is
translated when it runs; `N_("...")` only marks a string kept in a module-level constant, which
`_` translates where it is shown. The catalog is `course_lib/locale/fr/LC_MESSAGES/course_lib.po`
(gettext, editable in Poedit or Weblate), compiled to the `.mo` next to it by `make french`
(`tools/french.py`); `tests/test_french.py` fails when the two differ.
Call `set_language` before importing the modules whose constants are shown (a new kernel).
Numbers printed for the reader go through `number(n)`: thousands grouped as the language writes them.
"""

import gettext
import numbers
import os
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "course_lib"
LANGUAGES = ("en", "fr")
# How each language separates the thousands (Unicode CLDR's group symbols): a comma in English, a
# narrow no-break space in French, where a comma is the decimal separator. The decimal point stays
# a point in both: the French edition writes numbers as the code prints them (tools/french.py).
THOUSANDS_SEPARATOR = {"en": ",", "fr": "\u202f"}

_translation = gettext.NullTranslations()
_language = "en"


def set_language(language):
    """Make course_lib's messages, figure labels and checks speak `language` ("en" or "fr")."""
    global _translation, _language
    if language not in LANGUAGES:
        raise ValueError(_("language must be one of {languages}, got {language!r}").format(
            languages=LANGUAGES, language=language))
    _translation = (gettext.NullTranslations() if language == "en"
                    else gettext.translation(DOMAIN, LOCALE_DIR, languages=[language]))
    _language = language


def get_language():
    """The language set by `set_language` (or COURSE_LANG), "en" by default."""
    return _language


def _(message):
    """`message` in the current language (itself in English or when it has no translation)."""
    return _translation.gettext(message) if message else message  # gettext("") is the header


def number(value, decimals=None):
    """`value` with its thousands grouped in the current language: 20,000 in English, 20 000 in
    French. decimals: the digits after the point (`f"{value:,.{decimals}f}"`); None writes `value`
    as `f"{value:,}"` does (an integer as it is)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(_("value must be a real number (an int or a float); got {value!r}.").format(value=value))
    if decimals is not None:
        message = _("decimals must be None or an integer >= 0 (the digits after the point); got {decimals!r}.")
        if isinstance(decimals, bool) or not isinstance(decimals, numbers.Integral):
            raise TypeError(message.format(decimals=decimals))
        if decimals < 0:
            raise ValueError(message.format(decimals=decimals))
    text = f"{value:,}" if decimals is None else f"{value:,.{decimals}f}"
    return text.replace(",", THOUSANDS_SEPARATOR[_language])


def N_(message):
    """Mark `message` for the catalog without translating it now (a module-level constant)."""
    return message


set_language(os.environ.get("COURSE_LANG", "en") or "en")
