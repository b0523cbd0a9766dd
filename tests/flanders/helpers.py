"""Positions for the In Flanders Field tests, written as scenario dicts (tutor.flanders.scenario)."""

from __future__ import annotations

from typing import Any

from tutor.flanders import Game, scenario
from tutor.flanders.game import CARD_SPACES

FULL_ROWS = {
    "3": "Infantry",
    "4": "Infantry",
    "5": "Reserves",
    "6": "Tank",
    "7": "Machine Gun",
    "8": "Artillery Barrage",
    "10": "Infantry",
    "11": "Gas Attack",
}


def position(players: int | list[dict[str, Any]] = 2, **keys: Any) -> Game:
    """A game at a hand-made position: ``players`` is a count (p1.. at the start, 6 troops) or scenario players."""
    if isinstance(players, int):
        players = [{"id": f"p{i + 1}"} for i in range(players)]
    data: dict[str, Any] = {"game": "flanders", "players": players, "spaces": FULL_ROWS}
    data.update(keys)
    return scenario.build(data, history=True)


def ids(game: Game, name: str) -> list[int]:
    """Ids of the cards called ``name`` that the current player holds (retained, then taken)."""
    return [c for c in game.held() if game.cards[c].name == name]


def all_cards(game: Game) -> list[int]:
    on_spaces = [game.spaces[s] for s in CARD_SPACES if game.spaces[s] is not None]
    return sorted(
        [c for c in on_spaces if c is not None]
        + game.draw
        + game.discard
        + game.taken
        + [c for p in game.players for c in p.retained]
    )
