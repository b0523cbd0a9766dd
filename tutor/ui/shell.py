"""``LessonShell``: the one lesson screen every game's lesson widget composes, from small parts; ``ScreenShell``,
the part of it a screen with no state to step through (a quiz) has.

    class MyLesson(LessonShell, widgets.VBox):
        def __init__(self, state):
            super().__init__()
            self.state = state
            self.scene = LayeredScene(...)
            self.build_shell(lambda: self.state, [self.scene], on_next=self._on_next, on_finish=self._on_finish,
                             on_back=self._on_back, on_restart=self._on_restart, seed=0)
            self.roll_button = button("Roll the dice")
            self.on_click(self.roll_button, "roll", self._on_roll)       # one click rule for every control
            self.children = [widgets.HTML(CSS), self.header, board_frame(self.scene),
                             prompt_row(self.status, self.roll_button),
                             self.secondary_row(disclosures=[self.log.button]),
                             self.text_view.html, self.log.body, self.teachers.body]

        def next_control(self):                       # what the prompt names next: focus goes there
            return self.roll_button

The parts, each usable alone (``tutor.ui.screen``, ``controls``, ``stepper``, ``controller``, ``text_view``):

- ``status``: the ``StatusLine``, the widget's one live region (the prompt, warnings: ``warn``).
- ``stepper``: the ``PhaseStepper`` whose buttons the widget places (``next_button``, ``finish_button``,
  ``skip_button``, ``back_button``, ``restart_button``, ``seed``; and ``stepper.continue_button``, a pause's).
- ``control``: the ``UndoController``; Back is ``back_step`` (the state's own history, nothing else).
- ``clicks``: the ``ClickGuard``, the one double-click rule (``debounce_s``), through which every handler runs
  as a learner's action (``Focusing.learner_action``: focus follows play then).
- focus: ``next_control()`` (each game says which control its prompt names) and ``focus_next()``.
- ``motion``: "No animation" for the widget's scenes; ``text_view``: the board in words; ``teachers``: "For
  teachers" (the shuffle number first); ``position_code``: "Open a position code" (the game's
  ``position_box``, where a learner types the code the teacher reads out), in the secondary row, or None. The
  log is the game's own (its sections are its rounds or turns): it goes in ``secondary_row`` with the game's
  other disclosures.

A screen with no state to step through (a quiz, ``tutor.ui.quiz.RevealQuiz``) is a ``ScreenShell``: it makes only
``build_parts`` (status, clicks, the board in words, "No animation", "For teachers") and places ``shared_controls``
(the secondary row without Back and Restart). It has no Back, stepper or position code to call by mistake.
"""

from __future__ import annotations

import time
from typing import Callable, Sequence

import ipywidgets as widgets

from tutor.core.state import SeededState
from tutor.i18n import _

from .controller import UndoController
from .controls import StatusLine
from .scene import LayeredScene
from .screen import Disclosure, Focusing, MotionSetting, SecondaryRow, teacher_section
from .share import PositionBox
from .stepper import PhaseStepper
from .text_view import TextView

Handler = Callable[[], None]


def _nothing() -> None:
    """The handler of a control the widget does not place."""


class ClickGuard:
    """The one double-click rule: a click on the control clicked last is ignored when it comes less than
    ``delay()`` seconds after that click's handler ended (the second click of a double click, even one queued
    while a slow handler ran); a click on another control in between makes the next one count.

    ``run(handler)`` runs each handler that counts (a widget's ``learner_action``); ``before()`` runs first (a
    board that jumps a running animation to its end)."""

    def __init__(
        self, delay: Callable[[], float], *, run: Callable[[Handler], None] | None = None, before: Handler | None = None
    ) -> None:
        self._delay = delay
        self._run = run or (lambda handler: handler())
        self._before = before
        self._last: tuple[str, float] = ("", -1e9)

    def click(self, control: str, handler: Handler) -> bool:
        """Run ``handler`` for a click on ``control`` unless it repeats the last click; True when it ran."""
        last, ended = self._last
        if control == last and time.monotonic() - ended < self._delay():
            return False
        try:
            if self._before is not None:
                self._before()
            self._run(handler)
        finally:
            self._last = (control, time.monotonic())  # from the end: a double click's queued second click drops
        return True


class ScreenShell(Focusing):
    """What every lesson screen has, a quiz's included (with ``widgets.VBox``): the status, the click rule,
    focus, the board in words, "No animation" and "For teachers", built by ``build_parts``; and the secondary row's
    shared controls (``shared_controls``)."""

    debounce_s = 0.3
    """A click on the same control this soon after the last one ended is ignored (a double click)."""

    status: StatusLine
    text_view: TextView
    motion: MotionSetting
    clicks: ClickGuard
    teachers: Disclosure
    position_code: Disclosure | None = None

    def build_parts(
        self,
        scenes: Sequence[LayeredScene],
        *,
        teachers: Sequence[widgets.Widget] = (),
        before_click: Handler | None = None,
    ) -> None:
        """Make the parts that need no state to step through (``LessonShell.build_shell`` makes them too; a quiz,
        which has no Back, Restart or steps, makes only these): ``status``, ``clicks`` (``before_click`` first),
        ``text_view``, ``motion`` for ``scenes`` and ``teachers`` ("For teachers", holding ``teachers``)."""
        self.status = StatusLine()
        self.text_view = TextView()  # the board in words, on demand (the status says what each step changed)
        self.clicks = ClickGuard(lambda: self.debounce_s, run=self.learner_action, before=before_click)
        self.motion = MotionSetting(scenes)
        self.teachers = teacher_section(*teachers)

    # ----- clicks and focus ------------------------------------------------------------------------------

    def guard(self, control: str, handler: Handler) -> None:
        """Run ``handler`` as the learner's click on ``control`` (``ClickGuard``: a double click runs once)."""
        self.clicks.click(control, handler)

    def on_click(self, button: widgets.Button, control: str, handler: Handler) -> None:
        """``button`` runs ``handler`` through the click rule, as control ``control``."""
        button.on_click(lambda _button: self.guard(control, handler))

    def next_control(self) -> widgets.Widget | None:
        """The control the prompt names next (each game says which)."""
        raise NotImplementedError

    def focus_next(self) -> None:
        """Focus goes to ``next_control()`` (recorded in ``focused``)."""
        self.move_focus(self.next_control())

    def warn(self, text: str) -> None:
        """Say why a click did nothing (a warning in the live region)."""
        self.status.show(text, "warning")

    # ----- layout ----------------------------------------------------------------------------------------

    def shared_controls(
        self,
        *,
        pace: Sequence[widgets.Widget] = (),
        disclosures: Sequence[widgets.Widget] = (),
        motion: bool = True,
        in_words: bool = True,
    ) -> list[widgets.Widget]:
        """The secondary row after Back and Restart (a quiz's whole row): ``pace``, "No animation" (unless not
        ``motion``), the board in words (unless not ``in_words``), ``disclosures``, "Open a position code" and
        "For teachers" (when it holds something: an empty section would open onto nothing)."""
        code = [] if self.position_code is None else [self.position_code.button]
        teachers = [self.teachers.button] if self.teachers.body.children else []
        return [
            *pace,
            *([self.motion] if motion else []),
            *([self.text_view.toggle] if in_words else []),
            *disclosures,
            *code,
            *teachers,
        ]


class LessonShell(ScreenShell):
    """The screen of a game's lesson widget (with ``widgets.VBox``): the shared parts and a state to step
    through (the stepper's buttons, Back and Restart, "Open a position code"), built by ``build_shell``."""

    stepper: PhaseStepper
    control: UndoController

    def build_shell(
        self,
        state: Callable[[], SeededState | None],
        scenes: Sequence[LayeredScene],
        *,
        on_back: Handler,
        on_restart: Handler,
        on_next: Handler | None = None,
        on_finish: Handler | None = None,
        seed: int = 0,
        seed_enabled: bool = True,
        next_tooltip: str = "",
        finish_tooltip: str = "",
        teachers: Sequence[widgets.Widget] = (),
        before_click: Handler | None = None,
        position_box: widgets.Widget | None = None,
    ) -> None:
        """Make the shared parts for the state ``state()`` (replaced on Restart) drawn on ``scenes`` (the first
        one's animations get Skip); ``teachers`` go under the shuffle number in "For teachers"; ``position_box``
        (the game's "Open a position" box) opens from "Open a position code" in the secondary row. Without
        ``on_next`` and ``on_finish`` (a screen with no automatic steps) the widget does not place Next step and
        Finish round."""
        self.stepper = PhaseStepper(
            on_next=lambda: self.guard("next", on_next or _nothing),
            on_finish=lambda: self.guard("finish", on_finish or _nothing),
            on_back=lambda: self.guard("back", on_back),
            on_restart=lambda: self.guard("restart", on_restart),
            seed=seed,
            seed_enabled=seed_enabled,
            next_tooltip=next_tooltip or _("Resolve the next step"),
            finish_tooltip=finish_tooltip or _("Resolve every remaining step of this round"),
        )
        stepper = self.stepper
        self.next_button, self.finish_button = stepper.next_button, stepper.finish_button
        self.back_button, self.restart_button, self.seed = stepper.back_button, stepper.restart_button, stepper.seed
        self.skip_button = stepper.skip_button
        if scenes:
            stepper.follow(scenes[0])
        self.build_parts(scenes, teachers=(self.seed, *teachers), before_click=before_click)
        self.control = UndoController(state, self.warn)
        if position_box is not None:
            if isinstance(position_box, PositionBox):
                position_box.use_status(self.status)  # the widget's one live region says what a code did
            self.position_code = Disclosure(
                _("Open a position code"), [position_box], tooltip=_("Type the code your teacher reads out")
            )

    # ----- Back ------------------------------------------------------------------------------------------

    def back_step(self, nothing: str = "") -> bool:
        """Back: undo the learner's last step in the state's history; when there is none, warn ``nothing``."""
        return self.control.back(nothing or _("Nothing to undo: this is the starting position."))

    # ----- layout ----------------------------------------------------------------------------------------

    def code_body(self) -> list[widgets.Widget]:
        """What "Open a position code" opens (nothing without it): the widget places it with the other bodies."""
        return [] if self.position_code is None else [self.position_code.body]

    def secondary_row(
        self, pace: Sequence[widgets.Widget] = (), disclosures: Sequence[widgets.Widget] = ()
    ) -> SecondaryRow:
        """The one compact row: Back, Restart, the game's ``pace`` controls (speed, Skip), "No animation", the
        board in words, the game's ``disclosures`` (its log, key, ...), "Open a position code" and "For teachers".
        The widget places what they open (``self.teachers.body``, ``self.code_body()``) with the others."""
        return SecondaryRow(
            [self.back_button, self.restart_button, *self.shared_controls(pace=pace, disclosures=disclosures)]
        )
