"""``RevealQuiz``: the predict-then-reveal shell every game's quiz builds on.

A board, a question, an area where the learner answers, Reveal and Try again,
a status line, the feedback (right or wrong, the answer, the rules that decided
it, an explanation) and the narration of what happened. The game's subclass
supplies the answer inputs and plays the position out:

    class MyQuiz(RevealQuiz):
        def __init__(self, ...):
            super().__init__(question=..., board=board_frame(self.scene), inputs=[...], title=..., explain=...,
                             scenes=[self.scene], in_words=True, disclosures=[self.key])
        @property
        def answer(self): ...                       # what the learner chose
        def missing_answer(self) -> str | None: ... # a warning when the answer is incomplete
        def play_out(self, answer) -> Verdict: ...  # resolve the position; say what happened
        def restart(self) -> None: ...              # back to the starting position, inputs cleared
        def redraw(self, *, static=False, animate=False) -> None: ...

The quiz is a ``tutor.ui.shell.ScreenShell``, the lesson shell without a state to step through: it makes only the
shell's parts that need none (``build_parts``), so Reveal, Try again and Next question go through the lessons' one
click rule (``clicks``: a double click is one press), and the board in words (``text_view``, ``in_words=True``), "No
animation" (``motion``, for the ``scenes`` that animate) and "For teachers" (``teachers``, only when given
something to hold) are the lessons' own, in the lessons' order (``shared_controls``).

Attributes: ``status`` (the quiz's one live region: the prompt, warnings and the verdict, each read
once), ``feedback``, ``narration``, ``reveal_button``, ``retry_button``, ``secondary`` (the row
of small controls under the prompt, with the subclass's ``disclosures``), ``below`` (what they open),
``is_right`` (None before Reveal), ``id`` (names the quiz in the learner's progress), ``focused``
(where focus went last: ``next_control()``, Try again or Next question after Reveal, the first answer control
after Try again). Each
Reveal leaves a hidden ``tutor-quiz-result`` mark in the feedback (``data-quiz``, ``data-right``,
``data-choice``) that the lesson page records (``tutor.ui.lessons``). ``show_question(question)`` shows
a new question (a new position).

"Try again" asks the same question again. A quiz of several questions (``more_questions``) also offers
"Next question" after Reveal (``next_button``, the subclass's ``next_question``); each of its questions has its own
id (``ids``: every id, the lesson's ``metadata.tutor.quizzes``), so the lesson's progress counts every question
answered, and each one's first answer.
"""

from __future__ import annotations

import hashlib
import html
from dataclasses import dataclass, field
from typing import Any, Sequence

import ipywidgets as widgets

from tutor.ui.kernel_report import report
from tutor.core.events import Rule
from tutor.i18n import N_, _

from .controls import CSS, button, header
from .narration import Line, to_html
from .scene import LayeredScene
from .screen import Disclosure, SecondaryRow, changed_words, prompt_row
from .shell import ScreenShell


def quiz_id(question: str) -> str:
    """The id a question's answers are recorded under (its English words, the same in every language)."""
    return hashlib.sha1(question.encode()).hexdigest()[:10]


@dataclass(frozen=True)
class Verdict:
    """What Reveal found."""

    right: bool
    told: str
    """The correct answer in words (and the learner's, when wrong)."""
    why: Sequence[Line] = ()
    """The lines that decided the answer, with their rules."""
    story: Sequence[Line] = field(default_factory=tuple)
    """Everything that happened, step by step."""


class RevealQuiz(ScreenShell, widgets.VBox):
    prompt = N_("Make your prediction, then choose Reveal.")
    """What the status line asks before Reveal."""

    def __init__(
        self,
        *,
        question: str,
        board: widgets.Widget,
        inputs: Sequence[widgets.Widget],
        title: str = "",
        explain: str = "",
        scenes: Sequence[LayeredScene] = (),
        in_words: bool = False,
        disclosures: Sequence[Disclosure] = (),
        teachers: Sequence[widgets.Widget] = (),
    ):
        """``scenes``: the boards whose Reveal animates ("No animation" in the secondary row, for them; none: no
        such setting); ``in_words``: the board in words (``text_view``, which ``redraw`` fills) in the secondary
        row; ``disclosures``: the game's own (a key, ...) after them; ``teachers``: "For teachers" (none: no such
        section). The parts are the lesson shell's (``ScreenShell.build_parts``), every button goes through its
        one click rule."""
        super().__init__()
        self.question, self.explain = question, explain
        self.id = quiz_id(question)
        self.is_right: bool | None = None
        self.inputs = list(inputs)
        self.build_parts(scenes, teachers=teachers)
        self.feedback = widgets.HTML()
        self.narration = widgets.HTML()
        self.reveal_button = button(_("Reveal"), _("Play it out and check your answer"), style="primary")
        self.retry_button = button(_("Try again"), _("Reset the position and answer again"))
        self.on_click(self.reveal_button, "reveal", self._on_reveal)
        self.next_button = button(_("Next question ▸"), _("The next question"), style="primary")
        self.next_button.layout.display = "none"  # after Reveal, in a quiz of several questions
        self.on_click(self.retry_button, "retry", self._on_retry)
        self.on_click(self.next_button, "next-question", self._on_next_question)
        self.question_html = widgets.HTML(self._question_html(question))
        self.secondary = SecondaryRow(
            self.shared_controls(disclosures=[d.button for d in disclosures], motion=bool(scenes), in_words=in_words)
        )
        self.below = widgets.VBox(
            [
                *([self.text_view.html] if in_words else []),
                *(d.body for d in disclosures),
                *([self.teachers.body] if teachers else []),
            ]
        )
        self.children = [
            widgets.HTML(CSS),
            header(f"<b>{html.escape(title)}</b>" if title else ""),
            board,
            self.question_html,
            widgets.HBox(self.inputs, layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            prompt_row(self.status, self.reveal_button, self.retry_button, self.next_button),
            self.secondary,
            self.feedback,
            self.below,
            self.narration,
        ]
        self.add_class("tutor-quiz")
        self.add_class("tutor-lesson")  # the template's rules for every lesson widget (a11y.css)

    @staticmethod
    def _question_html(question: str) -> str:
        said = _("Question: {question}").format(question=f"<b>{html.escape(_(question))}</b>")
        return f"<div class='tutor-header'>{said}</div>"

    def show_question(self, question: str) -> None:
        """Show ``question`` in place of the one asked (the quiz keeps its ``id``)."""
        self.question = question
        self.question_html.value = self._question_html(question)

    # ----- for subclasses -----------------------------------------------------------------------------------

    @property
    def answer(self) -> Any:
        raise NotImplementedError

    def missing_answer(self) -> str | None:
        """A warning when the answer is not complete yet; None when Reveal may go ahead."""
        return None

    def play_out(self, answer: Any) -> Verdict:
        raise NotImplementedError

    def restart(self) -> None:
        """Back to the question's starting position, inputs cleared (the same question)."""
        raise NotImplementedError

    @property
    def more_questions(self) -> bool:
        """The quiz has other questions ("Next question")."""
        return False

    def next_question(self) -> None:
        """Show the next question (and set ``id`` to its own), inputs cleared."""
        raise NotImplementedError

    @property
    def ids(self) -> tuple[str, ...]:
        """The ids of every question the quiz asks (one, unless it has several questions)."""
        return (self.id,)

    def redraw(self, *, static: bool = False, animate: bool = False) -> None:
        raise NotImplementedError

    def answer_widgets(self) -> list[widgets.Widget]:
        """The controls disabled after Reveal (default: the ``inputs``)."""
        return list(self.inputs)

    # ----- the shell --------------------------------------------------------------------------------------

    def _on_reveal(self) -> None:
        if self.is_right is not None:
            self.status.show(
                _("Already revealed: choose '{retry}' to answer again.").format(retry=self.retry_button.description),
                "warning",
            )
            self.move_focus(self.retry_button)
            return
        problem = self.missing_answer()
        if problem:
            self.status.show(problem, "warning")
            return
        answer = self.answer
        verdict = self.play_out(answer)
        self.is_right = verdict.right
        report(self.id, verdict.right, str(answer)[:80])  # to the class's server, from the kernel (class mode)
        cited: set[Rule] = set()  # each rule is cited once: under the verdict, or else in the story
        self.feedback.value = self._feedback_html(verdict, cited) + (
            f"<span class='tutor-quiz-result' data-quiz='{self.id}' data-right='{int(verdict.right)}' "
            f"data-choice='{html.escape(str(answer)[:80], quote=True)}' hidden></span>"
        )
        self.narration.value = (
            ("<b>" + html.escape(_("What happened, step by step:")) + "</b>" + to_html(verdict.story, cited=cited))
            if verdict.story
            else ""
        )
        self._set_inputs_disabled(True)
        self.redraw(animate=True)
        if self.more_questions:
            said = (
                _("Right! Choose '{next}' for the next question, or '{retry}' to answer this one again.")
                if verdict.right
                else _("Not quite. Choose '{retry}' to answer this question again, or '{next}' for the next one.")
            )
            self.next_button.layout.display = None
        else:
            said = (
                _("Right! Choose '{retry}' to answer again.")
                if verdict.right
                else _("Not quite. Choose '{retry}' to answer again.")
            )
        self.status.show(
            said.format(retry=self.retry_button.description, next=self.next_button.description),
            "success" if verdict.right else "warning",
            aside=" ".join([verdict.told, changed_words(verdict.why, limit=len(verdict.why))]).strip(),
        )
        self.focus_next()  # Reveal has disabled itself: focus goes on

    def _on_retry(self) -> None:
        self.restart()
        self.reset()
        self.focus_next()

    def _on_next_question(self) -> None:
        self.next_question()
        self.reset()
        self.focus_next()

    def next_control(self) -> widgets.Widget | None:
        """The control the prompt names: the first answer control before Reveal; after it, "Next question"
        when the answer was right and there are more, else "Try again"."""
        if self.is_right is None:
            return self.first_input()
        return self.next_button if self.more_questions and self.is_right else self.retry_button

    def first_input(self) -> widgets.Widget | None:
        """The control that takes the answer first (focus goes there after Try again)."""
        return next((w for w in self.answer_widgets() if getattr(w, "disabled", True) is False), None)  # no label

    def reset(self) -> None:
        """Clear the feedback and ask again (the subclass has reset the position and inputs)."""
        self.is_right = None
        self.next_button.layout.display = "none"
        self.redraw()  # the board first: it is what the learner looks at
        self.feedback.value = self.narration.value = ""
        self._set_inputs_disabled(False)
        self.status.show(self.prompt_text())

    def prompt_text(self) -> str:
        """What the quiz asks the learner to do, in the kernel's language."""
        return _(self.prompt)

    def _feedback_html(self, verdict: Verdict, cited: set[Rule] | None = None) -> str:
        """The verdict on screen, the rules that decided it (added to ``cited``) and the explanation (``status``
        reads them out)."""
        mark, kind = (_("✓ Right!"), "success") if verdict.right else (_("✗ Not quite."), "warning")
        explain = f"<p>{html.escape(_(self.explain))}</p>" if self.explain else ""
        decided = html.escape(_("The rule that decided it:"))
        why = f"<p><b>{decided}</b></p>{to_html(verdict.why, cited=cited)}" if verdict.why else ""
        return (
            f"<div class='tutor-status tutor-status-{kind}'><b>{mark}</b> {html.escape(verdict.told)}</div>"
            f"{why}{explain}"
        )

    def _set_inputs_disabled(self, disabled: bool) -> None:
        for w in self.answer_widgets():
            if hasattr(w, "disabled"):
                w.disabled = disabled
        self.reveal_button.disabled = disabled
