"""Count to Ten's lesson widget, on the lesson shell every game's widget composes (``tutor.ui.shell``): the live
region, the prompt row beside its actions, the secondary row (Back, Restart, "No animation", the board in words,
"For teachers"), the one click rule and Back over the state's own history; and a quiz on the shared
predict-then-reveal shell (``tutor.ui.quiz``). Every word goes through gettext: ``rules-tutor languages`` extracts
them, and each catalog translates them (the test's catalogs: ``tests/third_game/locale/``)."""

from __future__ import annotations

from typing import Sequence

import ipywidgets as widgets

from tutor.core.events import Event
from tutor.i18n import _
from tutor.ui.controls import button
from tutor.ui.narration import Line
from tutor.ui.quiz import RevealQuiz, Verdict
from tutor.ui.screen import prompt_row
from tutor.ui.shell import LessonShell

from .engine import TARGET, Added, CountGame


class CountTutor(LessonShell, widgets.VBox):
    """Two to four learners in turn at one screen: "Add 1" and "Add 2". An add the rules refuse is said in the
    live region and changes nothing; Back takes back the last add (at the start it says there is nothing to take
    back); Restart starts again from 0."""

    def __init__(self, players: int = 2, seed: int = 0) -> None:
        super().__init__()
        self.players = players
        self.game = CountGame(players=players, seed=seed)
        self.build_shell(
            lambda: self.game, [], on_back=self._on_back, on_restart=self._on_restart, seed=seed, seed_enabled=False
        )
        self.add_buttons = [button(_("Add {n}").format(n=n)) for n in (1, 2)]
        for n, add in zip((1, 2), self.add_buttons):
            self.on_click(add, f"add-{n}", lambda n=n: self._on_add(n))
        self.children = [
            prompt_row(self.status, *self.add_buttons),
            self.secondary_row(),
            self.text_view.html,
            self.teachers.body,
        ]
        self.add_class("tutor-lesson")
        self._say()

    def next_control(self) -> widgets.Widget:
        return self.restart_button if self.game.winner is not None else self.add_buttons[0]

    def _on_add(self, amount: int) -> None:
        events = self.control.act(lambda: self.game.add(amount))  # refused: the shell warns, nothing changes
        if events is not None:
            self._say(events)
            self.focus_next()

    def _on_back(self) -> None:
        if self.back_step():  # nothing to take back: the shell's warning, and nothing changes
            self._say()
            self.focus_next()

    def _on_restart(self) -> None:
        self.game = CountGame(players=self.players, seed=self.seed.value)
        self._say()
        self.focus_next()

    def _say(self, events: Sequence[Event] = ()) -> None:
        game = self.game
        if game.winner is not None:
            self.status.show(
                _("Player {n} makes the total {target} and wins.").format(n=game.winner + 1, target=TARGET), "success"
            )
        else:
            self.status.show(
                _("The total is {total}. Player {n}: add 1 or 2 to reach {target}.").format(
                    total=game.total, n=game.turn + 1, target=TARGET
                )
            )
        happened = [
            Line(
                _("Player {n} adds {amount}: the total is {total}.").format(
                    n=event.player + 1, amount=event.amount, total=event.total
                ),
                event.rules,
            )
            for event in events
            if isinstance(event, Added)
        ]
        self.text_view.show([_("The total: {total} of {target}.").format(total=game.total, target=TARGET)], happened)


class TotalQuiz(RevealQuiz):
    """Predict, then reveal: the total after one add."""

    def __init__(self, total: int = 7, amount: int = 2) -> None:
        self.start, self.amount = total, amount
        self.choice = widgets.ToggleButtons(options=[str(n) for n in range(total + 1, total + 4)], value=None)
        super().__init__(
            question=_("The total is {total}. What is it after adding {n}?").format(total=total, n=amount),
            board=widgets.HTML(),
            inputs=[self.choice],
            title=_("Count to Ten"),
        )

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
