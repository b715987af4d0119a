"""Self-check functions for the exercises at the end of each chapter: `check_*` functions tell
whether an answer is right and why. One module per chapter family."""


class Verdict:
    """The answer to a self-check: true when the answer is right; shows its reason in a notebook."""

    def __init__(self, correct, why):
        self.correct = bool(correct)
        self.why = why

    def __bool__(self):
        return self.correct

    def __repr__(self):
        return ("Right. " if self.correct else "Not yet. ") + self.why

    def _repr_markdown_(self):
        return ("✅ **Right.** " if self.correct else "❌ **Not yet.** ") + self.why
