"""Count to Ten's engine: players in turn add 1 or 2 to a total that starts at 0; whoever makes it 10 wins.

Pure, as every engine here: a seeded ``random.Random`` in the state (the bots' choices), every action returns its
events, an illegal action raises ``IllegalAdd`` (its reason through gettext, as every engine's) and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tutor.core.errors import RuleError
from tutor.core.events import Event, Rule
from tutor.core.state import SeededState
from tutor.i18n import N_, _

TARGET = 10
ADD = Rule("ct.add", N_("Your turn"), N_("Add 1 or 2 to the total; it may not pass 10."))
TEN = Rule("ct.ten", N_("Winning"), N_("Whoever makes the total 10 wins."))


class IllegalAdd(RuleError):
    """An amount that is not 1 or 2, past the target, or after the game is over."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Added(Event):
    player: int
    amount: int
    total: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Won(Event):
    player: int


class CountGame(SeededState):
    def __init__(self, players: int = 2, total: int = 0, seed: int = 0, history: bool = True) -> None:
        super().__init__(seed, history)
        if not 2 <= players <= 4:
            raise ValueError(f"Count to Ten is for 2 to 4 players, not {players}")
        if not 0 <= total < TARGET:
            raise ValueError(f"the total starts from 0 to {TARGET - 1}, not {total}")
        self.players, self.total, self.turn, self.winner = players, total, 0, None

    def legal_actions(self) -> list[int]:
        return [] if self.winner is not None else [n for n in (1, 2) if self.total + n <= TARGET]

    def add(self, amount: int) -> list[Event]:
        if amount not in self.legal_actions():
            raise IllegalAdd(self.why_not(amount))
        self._save()
        player = self.turn
        self.total += amount
        events: list[Event] = [Added(player=player, amount=amount, total=self.total, rules=(ADD,))]
        if self.total == TARGET:
            self.winner = player
            events.append(Won(player=player, rules=(TEN,), automatic=True))
        else:
            self.turn = (self.turn + 1) % self.players
        return events

    def why_not(self, amount: int) -> str:
        """Why adding ``amount`` is refused now (the same cases as ``legal_actions``)."""
        if self.winner is not None:
            return _("the game is over: player {n} has made the total {target}").format(
                n=self.winner + 1, target=TARGET
            )
        if amount not in (1, 2):
            return _("cannot add {amount} to {total}: add 1 or 2").format(amount=amount, total=self.total)
        return _("cannot add {amount} to {total}: the total may not pass {target}").format(
            amount=amount, total=self.total, target=TARGET
        )

    def bot_add(self) -> list[Event]:
        return self.add(self.rng.choice(self.legal_actions()))

    def _state_dict(self) -> dict[str, Any]:
        return {"players": self.players, "total": self.total, "turn": self.turn, "winner": self.winner}

    def _load_state(self, data: dict[str, Any]) -> None:
        self.players, self.total, self.turn, self.winner = data["players"], data["total"], data["turn"], data["winner"]

    @classmethod
    def _empty(cls, data: dict[str, Any]) -> CountGame:
        return cls(players=data["players"], history=False)
