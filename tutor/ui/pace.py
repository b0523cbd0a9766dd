"""Pacing: an animation the learner did not ask to watch step by step lasts a few seconds, never a long wait.

    durations = fit([650, 70, 70, 650], budget_ms=1000, floor_ms=200)   # scaled down to the budget
    watch = WatchSetting()                        # "Watch each step": ticked, replays keep their slow pace
    hint = skip_hint(sum(durations))              # "Skip shows the end at once." when it runs long, else ""

``fit`` shortens a list of frame durations so they add up to at most ``budget_ms``: every frame keeps its
share, but none that shows something (over 0 ms) falls under ``floor_ms`` (each step stays visible), so a very
long replay may still run past its budget by the floors alone. The games decide the budgets: a bot's turn
(``BOT_TURN_MS``), a round of a race (``ROUND_MS``). ``LONG_MS``: past this, the prompt names Skip.

``FinishOffer`` is "Finish the race" and "Finish the game", once for both games: offered in a full game from round
``FINISH_FROM_ROUND``; once chosen, what the computer decides is done at once and the learner still plays their own
turns. Each game says when else it is offered (the learner's riders still racing, nothing being shown).
"""

from __future__ import annotations

from typing import Sequence

import ipywidgets as widgets

from tutor.i18n import N_, _

from .controls import button

BOT_TURN_MS = 2200
"""A bot's whole turn replays in about this long (In Flanders Field's "Bots play")."""
ROUND_MS = 4000
"""The rest of a round ("Finish round", Flamme Rouge) plays in about this long at normal speed."""
STEP_FLOOR_MS = 130
"""No step of a fitted replay shows for less than this (the eye can still follow it)."""
LONG_MS = 3000
"""An animation planned longer than this gets the sentence about Skip in the prompt."""
FINISH_FROM_ROUND = 3
"""A full game offers to finish it quickly ("Finish the race", "Finish the game") from this round on."""
SKIP_WORDS = N_("Skip shows the end at once.")
"""In English (a message id): ``skip_hint`` says it in the kernel's language."""


def fit(
    durations: Sequence[float], budget_ms: float, *, floor_ms: float | Sequence[float] = STEP_FLOOR_MS
) -> list[float]:
    """``durations`` scaled down to add up to at most ``budget_ms``, no shown frame under its floor (``floor_ms``,
    one for all or one per frame; a frame shorter than its floor keeps its length); unchanged when they fit."""
    total = sum(durations)
    if total <= budget_ms or total <= 0:
        return list(durations)
    floors = [floor_ms] * len(durations) if isinstance(floor_ms, (int, float)) else list(floor_ms)
    least = [min(d, f) for d, f in zip(durations, floors)]
    fixed: dict[int, float] = {}  # frames held at their floor
    while True:
        free = [k for k, d in enumerate(durations) if d > 0 and k not in fixed]
        room = budget_ms - sum(fixed.values())
        free_total = sum(durations[k] for k in free)
        scale = max(room, 0) / free_total if free_total else 0
        low = {k: least[k] for k in free if durations[k] * scale < least[k]}
        if not low:
            return [fixed.get(k, d * scale if k in free else d) for k, d in enumerate(durations)]
        fixed.update(low)


def skip_hint(total_ms: float) -> str:
    """The sentence the prompt adds while an animation of ``total_ms`` plays: Skip, when it runs long."""
    return _(SKIP_WORDS) if total_ms > LONG_MS else ""


class WatchSetting(widgets.Checkbox):
    """ "Watch each step": ticked, a replay plays every step at its slow pace (the dice tumbling, the pawn
    walking); unticked (the default), it is fitted to a few seconds."""

    def __init__(self, tooltip: str = N_("Replay the bots' turns slowly, every step of the dice and the pawns")):
        super().__init__(
            value=False,
            description=_("Watch each step"),
            indent=False,
            tooltip=_(tooltip),
            layout=widgets.Layout(width="auto"),
        )
        self.add_class("tutor-watch")


class FinishOffer:
    """ "Finish the race" or "Finish the game" (its ``button``, shown by ``show``): offered in a full game from round
    ``from_round`` (None, the default: never; a game's ``new_race`` or ``new_game`` sets ``FINISH_FROM_ROUND``)
    until chosen (``choose``: ``finishing``). What the computer just did at once is said once, before the prompt
    (``note``, then ``take_note``)."""

    def __init__(self, label: str, tooltip: str) -> None:
        self.from_round: int | None = None
        self.finishing = False
        self.note = ""
        self.button = button(label, tooltip)
        self.button.layout.display = "none"

    def reached(self, round_: int) -> bool:
        """Offered as far as the game's round goes: a full game, from ``from_round`` on, not finishing yet (the
        game adds its own conditions)."""
        return self.from_round is not None and round_ >= self.from_round and not self.finishing

    @property
    def first_round(self) -> int:
        """The round from which it is offered, for the sentence that says so."""
        return self.from_round or FINISH_FROM_ROUND

    def show(self, offered: bool) -> None:
        self.button.layout.display = None if offered else "none"

    def choose(self) -> None:
        self.finishing = True

    def take_note(self) -> str:
        """The note, now cleared ("" when there is none)."""
        note, self.note = self.note, ""
        return note
