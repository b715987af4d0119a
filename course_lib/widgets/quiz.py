"""`Quiz`: a concept question with its choices, a Check button and an explanation for every
choice, shown after the student checks.

    Quiz("Which points are support vectors?", [
        Choice("Every training point", False, "Only the points with alpha > 0 ..."),
        Choice("The points with alpha > 0", True, "They alone appear in w = sum alpha r x."),
    ])

Leave it as the last expression of a code cell tagged `quiz`. In JupyterLab and Voila it is a
widget (radio buttons, or tick boxes with `multiple=True`; Tab, arrow keys and Space/Enter work
it). Its output also carries a static HTML rendering of the question and its choices, without the
answer: a notebook opened before it runs shows that one (`tools/refresh_notebooks.py` keeps it),
and the student meets the answer only after pressing Check. The answer with every explanation,
folded in a `<details>`, travels under a type of its own (ANSWERS, which no notebook front end
renders and the saved notebooks drop) for the static site, a reading copy beside the worked
solutions (`tools/build_site.py` shows it there).
Texts may use `code`, **bold** and $math$ (TeX). The widget's choices are plain labels, which
no math renderer reaches: their $math$ is written there in Unicode (αᵗ, ‖w‖, ≤), as in the
figures' alt texts; the question and the explanations are typeset (HTMLMath, MathJax).
"""

import html
import re

import ipywidgets as widgets

from course_lib.exercises import Verdict
from course_lib.exercises.harness import Choice
from course_lib.i18n import N_, _
from course_lib.plotting.style import plain_text

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
ANSWERS = "application/vnd.course.quiz-answers+html"  # the static rendering with the answer: the site's
QUESTION, HINT, RIGHT, NOT_IT, A_HINT = N_("Question."), N_("<b>Hint.</b>"), N_("right"), N_("not it"), N_("A hint")
RUN_TO_CHECK = N_("(Run the notebook to check your answer.)")
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# Choices lettered A, B, ... as in the widget, also where a style sheet numbers lists.
LETTERED = "<ol type='A' style='list-style-type: upper-alpha'>"


def inline_html(text):
    """Escaped text with `code` and **bold** as HTML; $math$ is left to MathJax."""
    text = html.escape(str(text), quote=False)
    text = re.sub(r"`([^`]+)`", r"<code>\1</code>", text)
    return re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)


class Quiz(widgets.VBox):
    """A multiple-choice question; `check(selection)` gives the Verdict the Check button shows.

    choices: list of Choice(text, correct, explanation); exactly one right one unless
    multiple=True (tick boxes: the answer is the set of right choices).
    hint: optional text behind a "Show a hint" button (never the answer)."""

    def __init__(self, question, choices, *, multiple=False, hint=None):
        if not isinstance(question, str) or not question.strip():
            raise ValueError(_("question must be a non-empty string"))
        choices = list(choices)
        if len(choices) < 2 or not all(isinstance(c, Choice) for c in choices):
            raise ValueError(_("choices must be a list of at least two Choice(text, correct, "
                               "explanation)"))
        n_right = sum(c.correct for c in choices)
        if n_right == 0 or (not multiple and n_right != 1):
            raise ValueError(_("{n_right} right choices: a single-answer Quiz needs exactly one; "
                               "use multiple=True for several").format(n_right=n_right))
        if len(choices) > len(LETTERS):
            raise ValueError(_("at most {n_letters} choices").format(n_letters=len(LETTERS)))
        question, hint = _(question), _(hint)  # the texts in the language of course_lib
        choices = [Choice(_(c.text), c.correct, _(c.explanation)) for c in choices]
        self.question, self.choices, self.multiple, self.hint_text = question, choices, multiple, hint
        labels = [f"{LETTERS[i]}. {plain_text(c.text)}" for i, c in enumerate(choices)]
        if multiple:
            self.boxes = [widgets.Checkbox(value=False, description=label, indent=False,
                                           layout=widgets.Layout(width="auto")) for label in labels]
            picker = widgets.VBox(self.boxes)
        else:
            self.buttons = widgets.RadioButtons(options=labels, value=None, layout=widgets.Layout(width="auto"))
            picker = self.buttons
        self.check_button = widgets.Button(description=_("Check"), button_style="primary",
                                           tooltip=_("Check your answer"))
        self.check_button.on_click(lambda _: self._show(self.check(self.selection())))
        self.feedback = widgets.HTMLMath()
        row = [self.check_button]
        if hint:
            self.hint_button = widgets.Button(description=_("Show a hint"), tooltip=_("A hint, not the answer"))
            self.hint_button.on_click(lambda _: self._show_hint())
            row.append(self.hint_button)
        prompt = widgets.HTMLMath(f"<p><b>{_(QUESTION)}</b> {inline_html(question)}</p>")
        super().__init__([prompt, picker, widgets.HBox(row), self.feedback])
        self.add_class("course-quiz")

    def selection(self):
        """Indices of the chosen choices."""
        if self.multiple:
            return [i for i, box in enumerate(self.boxes) if box.value]
        return [] if self.buttons.index is None else [self.buttons.index]

    def check(self, selection):
        """The Verdict for chosen choices, given as an index, a letter, or a list of them."""
        chosen = self._indices(selection)
        if chosen is None:
            return Verdict(False, _("Pick choices by index (0 to {last}) or letter.").format(last=len(self.choices) - 1))
        if not chosen:
            return Verdict(False, _("Pick an answer first."))
        if not self.multiple and len(chosen) > 1:
            return Verdict(False, _("Only one choice is right here: pick one."))
        right = {i for i, c in enumerate(self.choices) if c.correct}
        wrong = sorted(set(chosen) - right)
        lines = [f"{LETTERS[i]}: {self.choices[i].explanation}" for i in (wrong or sorted(chosen))]
        if set(chosen) == right:
            return Verdict(True, " ".join(lines) if self.multiple else self.choices[chosen[0]].explanation)
        if not wrong:
            return Verdict(False, _("What you ticked is right, and at least one more choice is right too."))
        if not self.multiple:
            return Verdict(False, self.choices[wrong[0]].explanation)
        return Verdict(False, " ".join(lines))

    def _indices(self, selection):
        items = selection if isinstance(selection, (list, tuple, set)) else [selection]
        indices = []
        for item in items:
            if isinstance(item, str) and len(item.strip()) == 1 and item.strip().upper() in LETTERS:
                item = LETTERS.index(item.strip().upper())
            if isinstance(item, bool) or not isinstance(item, int) or not 0 <= item < len(self.choices):
                return None
            indices.append(item)
        return sorted(set(indices))

    def _show(self, verdict):
        mark = _("<b>Right.</b> ") if verdict.correct else _("<b>Not yet.</b> ")  # words: no emoji font needed
        self.feedback.value = f"<p>{mark}{inline_html(verdict.why)}</p>"

    def _show_hint(self):
        self.feedback.value = f"<p>{_(HINT)} {inline_html(self.hint_text)}</p>"

    def static_html(self, with_answer=False):
        """The question, its choices and its hint folded in a <details>; with_answer: the answer
        with every explanation too, folded in a <details> (the site's rendering), else a line
        saying where the answer is checked."""
        items = "".join(f"<li>{inline_html(c.text)}</li>" for c in self.choices)
        kind = _("Tick every right choice.") if self.multiple else _("One choice is right.")
        hint = (f"<details><summary>{_(A_HINT)}</summary><p>{inline_html(self.hint_text)}</p></details>"
                if self.hint_text else "")
        if with_answer:
            answers = "".join(
                f"<li><b>{_(RIGHT) if c.correct else _(NOT_IT)}</b>: {inline_html(c.explanation)}</li>"
                for c in self.choices)
            summary = _("The answer, with an explanation of every choice")
            ending = f"<details><summary>{summary}</summary>{LETTERED}{answers}</ol></details>"
        else:
            ending = f"<p><em>{inline_html(_(RUN_TO_CHECK))}</em></p>"
        return (f"<div class='course-quiz-static'><p><b>{_(QUESTION)}</b> {inline_html(self.question)} "
                f"<em>{kind}</em></p>{LETTERED}{items}</ol>{hint}{ending}</div>")

    def static_text(self):
        lines = [f"{_(QUESTION)} {self.question}"]
        lines += [f"  {LETTERS[i]}. {plain_text(c.text)}" for i, c in enumerate(self.choices)]
        return "\n".join(lines + [_(RUN_TO_CHECK)])

    def _repr_mimebundle_(self, **kwargs):
        """The widget view, with the static rendering beside it for pages without widgets (without
        the answer), and the site's rendering with the answer under ANSWERS."""
        bundle = super()._repr_mimebundle_(**kwargs) or {}
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        data["text/html"] = self.static_html()
        data["text/plain"] = self.static_text()
        data[ANSWERS] = self.static_html(with_answer=True)
        return bundle
