"""A Flamme Rouge race as JSON: ``to_dict`` and ``from_dict`` (with undo and copies) come from
``tutor.core.SeededState``, which calls the two methods here.
"""

from __future__ import annotations

from typing import Any, Self

from tutor.core.state import rng_state, set_rng_state

from .cards import Card, RiderKind
from .race_model import Deck, Phase, RaceModel, Rider, Team, _cards
from .track import Track


class RaceJson(RaceModel):
    """The race's state as plain data, and back."""

    def _state_dict(self) -> dict[str, Any]:
        decks = {r.deck.owner: r.deck for r in self.riders.values()}
        return {
            "track": self.track.to_dict(),
            "teams": [t.to_dict() for t in self.teams.values()],
            "decks": [d.to_dict() for d in decks.values()],
            "riders": [r.to_dict() for r in self.riders.values()],
            "phase": self.phase.value,
            "round": self.round,
            "to_move": list(self.to_move),
            "move_values": dict(self.move_values),
            "winner": self.winner,
            "ranking": list(self.ranking),
            "bot_rng": rng_state(self.bot_rng),
            "breakaway": self.breakaway,
        }

    @classmethod
    def _empty(cls, data: dict[str, Any]) -> Self:
        return cls(Track.from_dict(data["track"]), [Team.from_dict(t) for t in data["teams"]], [])

    def _load_state(self, data: dict[str, Any]) -> None:
        """Every part of the state ``_state_dict`` wrote (undo loads it into this race: the teams' bots too)."""
        if data["track"] != self.track.to_dict():
            self.track = Track.from_dict(data["track"])
        self.teams = {t.name: t for t in (Team.from_dict(d) for d in data["teams"])}
        decks = {d["owner"]: Deck.from_dict(d) for d in data["decks"]}
        self.riders = {}
        for d in data["riders"]:
            self.riders[d["id"]] = Rider(
                d["id"],
                d["team"],
                RiderKind(d["kind"]),
                d["colour"],
                decks[d["deck"]],
                d["square"],
                d["lane"],
                None if d["played"] is None else Card.parse(d["played"]),
                d["exhaustion"],
                d["takes_exhaustion"],
                d["handicap"],
                _cards(d["bids"]),
            )
        self._index_riders()
        self.phase = Phase(data["phase"])
        self.round = data["round"]
        self.to_move = list(data["to_move"])
        self.move_values = dict(data["move_values"])
        self.winner = data["winner"]
        self.ranking = list(data["ranking"])
        set_rng_state(self.bot_rng, data["bot_rng"])
        self.breakaway = data["breakaway"]
