"""Count to Ten's one lesson widget, built of the shared lesson screen's parts (``tutor.ui.screen``): its live
region, the prompt row beside its actions, the secondary row with Back, and "For teachers"; and a quiz on the
shared predict-then-reveal shell (``tutor.ui.quiz``)."""

from __future__ import annotations

import ipywidgets as widgets

from tutor.i18n import _
from tutor.ui.controller import UndoController
from tutor.ui.controls import StatusLine, button
from tutor.ui.quiz import RevealQuiz, Verdict
from tutor.ui.screen import Focusing, SecondaryRow, prompt_row, teacher_section

from .engine import TARGET, CountGame


class CountTutor(Focusing, widgets.VBox):
    def __init__(self, players: int = 2, seed: int = 0) -> None:
        super().__init__()
        self.game = CountGame(players=players, seed=seed)
        self.status = StatusLine()
        self.controller = UndoController(lambda: self.game, lambda text: self.status.show(text, "warn"))
        self.add_buttons = [button(_("Add {n}").format(n=n)) for n in (1, 2)]
        for n, add in zip((1, 2), self.add_buttons):
            add.on_click(lambda _b, n=n: self.learner_action(lambda: self._add(n)))
        self.back_button = button(_("Back"))
        self.back_button.on_click(lambda _b: self.learner_action(self._back))
        self.teachers = teacher_section(widgets.HTML(_("Shuffle number: {seed}").format(seed=seed)))
        self.children = [prompt_row(self.status, *self.add_buttons),
                         SecondaryRow([self.back_button, self.teachers.button]), self.teachers.body]
        self.add_class("tutor-lesson")
        self._say()

    def _add(self, amount: int) -> None:
        self.controller.act(lambda: self.game.add(amount))
        self._say()
        self.move_focus(self.add_buttons[0])

    def _back(self) -> None:
        self.controller.back(_("Nothing to take back yet."))
        self._say()

    def _say(self) -> None:
        if self.game.winner is not None:
            self.status.show(_("Player {n} says ten and wins.").format(n=self.game.winner + 1))
        else:
            self.status.show(_("The total is {total}. Player {n}: add 1 or 2 to reach {target}.").format(
                total=self.game.total, n=self.game.turn + 1, target=TARGET))
        for n, add in zip((1, 2), self.add_buttons):
            add.disabled = n not in self.game.legal_actions()


class TotalQuiz(RevealQuiz):
    """Predict, then reveal: the total after one add."""

    def __init__(self, total: int = 7, amount: int = 2) -> None:
        self.start, self.amount = total, amount
        self.choice = widgets.ToggleButtons(options=[str(n) for n in range(total + 1, total + 4)], value=None)
        super().__init__(question=_("The total is {total}. What is it after adding {n}?").format(total=total,
                                                                                                  n=amount),
                         board=widgets.HTML(), inputs=[self.choice], title=_("Count to Ten"))

    @property
    def answer(self) -> int:
        return int(self.choice.value)

    def missing_answer(self) -> str | None:
        return _("Choose a total first.") if self.choice.value is None else None

    def play_out(self, answer: int) -> Verdict:
        game = CountGame(total=self.start)
        game.add(self.amount)
        told = _("The total is {total}.").format(total=game.total)
        return Verdict(answer == game.total, told)

    def restart(self) -> None:
        self.choice.value = None

    def redraw(self, *, static: bool = False, animate: bool = False) -> None:
        """No board to draw."""
