"""Golden playthroughs: seeded races stepped through the public API, compared event by event.

A change in the rules, the shuffles or the event data shows up here as the first
differing event. After an intended change, regenerate with
``python tests/flamme_rouge/test_golden.py`` and review the diff of ``tests/golden/``.
"""

import json
from pathlib import Path
from typing import Any

import pytest

from tutor.flamme_rouge import Race
from tutor.flamme_rouge.bots import autoplay

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
RACES: dict[str, tuple[str, str, int, dict[str, Any]]] = {
    "hill-24-heuristic-seed3": ("hill-24", "heuristic", 3, {}),
    "la-haute-montagne-random-seed1": ("la-haute-montagne", "random", 1, {}),
    # Peloton expansion: the breakaway bids, then the Peloton and a Muscle team flipping among three players,
    # on the tutor's stage with narrow roads, cobbles, a supply zone and a climb.
    "paves-du-nord-peloton-muscle-breakaway-seed5": (
        "paves-du-nord",
        "heuristic",
        5,
        {"peloton": True, "muscle": 1, "breakaway": True},
    ),
}


def playthrough(stage: str, bot: str, seed: int, options: dict[str, Any]) -> list[dict[str, Any]]:
    race = Race.new(
        stage, ("red", "blue", "green"), bots=dict.fromkeys(("red", "blue", "green"), bot), seed=seed, **options
    )
    events = autoplay(race)  # bots play every energy phase and every automatic step, to the finish
    assert race.is_over
    return [e.to_dict() for e in events]  # with the ids of the rules each event applied


@pytest.mark.parametrize("name", sorted(RACES))
def test_seeded_race_replays_exactly(name):
    expected = json.loads((GOLDEN / f"{name}.json").read_text())
    actual = json.loads(json.dumps(playthrough(*RACES[name])))
    for i, (want, got) in enumerate(zip(expected, actual)):
        assert got == want, f"event {i} differs"
    assert len(actual) == len(expected)
    assert actual[-1]["kind"] == "Finished"


def test_the_peloton_golden_race_plays_the_whole_expansion():
    """The Peloton golden file is not vacuous: bids, breakaway, both bot teams' flips, Attack! and bot exemptions."""
    events = json.loads((GOLDEN / "paves-du-nord-peloton-muscle-breakaway-seed5.json").read_text())
    kinds = {e["kind"] for e in events}
    assert {"BidsRevealed", "BreakawayDecided", "BotTeamsFlip", "CardsFlipped", "Finished"} <= kinds
    flipped = {e["team"] for e in events if e["kind"] == "CardsFlipped"}
    assert flipped == {"peloton", "muscle-1"}
    rules = {rule for e in events for rule in e["rules"]}
    assert {"fr.peloton.attack", "fr.peloton.bots-never-tire", "fr.peloton.supply"} <= rules


if __name__ == "__main__":
    for name, args in RACES.items():
        lines = ",\n".join(json.dumps(event) for event in playthrough(*args))
        (GOLDEN / f"{name}.json").write_text(f"[\n{lines}\n]\n")  # one event a line: readable diffs
        print("wrote", GOLDEN / f"{name}.json")
