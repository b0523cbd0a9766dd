"""Golden playthroughs of whole In Flanders Field games: bots, fixed seeds, compared event by event.

A change in the rules, the shuffles, the bots or the event data shows up here as the
first differing event. After an intended change, regenerate with
``PYTHONPATH=$PWD python -m tests.flanders.test_golden`` and review the diff of
``tests/golden/flanders-*.json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tutor.core.events import Event
from tutor.flanders import Game, autoplay

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
GAMES = {
    "flanders-3p-cautious-bold-threshold-seed1": ("cautious", "bold", "threshold"),
    "flanders-2p-bold-threshold0.2-seed4": ("bold", "threshold:0.2"),
    "flanders-4p-mixed-seed7": ("cautious", "bold", "threshold", "threshold:1"),
}


def seed_of(name: str) -> int:
    return int(name.rsplit("seed", 1)[1])


def game_events(name: str) -> tuple[Game, list[Event]]:
    """The whole game: the deal, then every bot action to the end (``autoplay``)."""
    bots = GAMES[name]
    game = Game.new(len(bots), bots={f"p{i + 1}": bot for i, bot in enumerate(bots)}, seed=seed_of(name))
    events = list(game.setup_events) + autoplay(game)
    assert game.is_over
    return game, events


def playthrough(name: str) -> list[dict[str, Any]]:
    return [e.to_dict() for e in game_events(name)[1]]  # with the ids of the rules each event applied


@pytest.mark.parametrize("name", sorted(GAMES))
def test_seeded_game_replays_exactly(name):
    expected = json.loads((GOLDEN / f"{name}.json").read_text())
    actual = json.loads(json.dumps(playthrough(name)))
    for i, (want, got) in enumerate(zip(expected, actual)):
        assert got == want, f"event {i} differs"
    assert len(actual) == len(expected)
    assert actual[-1]["kind"] == "GameOver"


def test_the_golden_games_end_in_the_three_ways_and_their_events_are_immutable_values():
    endings = set()
    for name in GAMES:
        game, events = game_events(name)
        endings.add(game.end_reason)
        assert len({hash(e) for e in events}) > 1  # frozen, with tuple fields: hashable values
    assert endings == {"objective", "everyone-lost", "two-players"}


if __name__ == "__main__":
    for name in GAMES:
        lines = ",\n".join(json.dumps(event) for event in playthrough(name))
        (GOLDEN / f"{name}.json").write_text(f"[\n{lines}\n]\n")  # one event a line: readable diffs
        print("wrote", GOLDEN / f"{name}.json")
