"""Self-check functions for the exercises at the end of each chapter: `check_*` functions tell
whether an answer is right and why. One module per chapter family; `harness` holds the
generic checks (`check_function`, `check_number`) and the concept questions (`Quiz`, `Choice`)."""

from course_lib.i18n import _


class Hint:
    """A hint shown on request (`verdict.hint()`), never the solution."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return _("Hint: ") + self.text

    def _repr_markdown_(self):
        return _("**Hint.** ") + self.text


class Verdict:
    """The answer to a self-check: true when the answer is right; shows its reason in a notebook.

    hint: optional text offered after a wrong answer; `verdict.hint()` shows it."""

    def __init__(self, correct, why, hint=None):
        self.correct = bool(correct)
        self.why = why
        self._hint = hint

    def __bool__(self):
        return self.correct

    def hint(self):
        """The hint of this check (add `.hint()` after the check call)."""
        return Hint(_(self._hint) if self._hint else _("no hint for this one: reread the question and the section above it."))

    def _offer(self):
        if self.correct or not self._hint:
            return ""
        return _(" Stuck? Add `.hint()` at the end of the check call for a hint.")

    def __repr__(self):
        return (_("Right. ") if self.correct else _("Not yet. ")) + _(self.why) + self._offer()

    def _repr_markdown_(self):
        # Words, not emoji: a check mark drawn from an emoji font is an empty box without one.
        return (_("**Right.** ") if self.correct else _("**Not yet.** ")) + _(self.why) + self._offer()
