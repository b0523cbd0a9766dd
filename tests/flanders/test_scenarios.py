"""Scenario files (docs/flanders_scenarios.md): the shipped examples pass; malformed ones name the key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tutor.flanders import Phase, ScenarioError, scenario

FILES = sorted((Path(__file__).parent / "scenarios").glob("*.json"))
BASE = {"game": "flanders", "players": [{"id": "p1"}, {"id": "p2"}]}


def test_at_least_three_example_files():
    assert len(FILES) >= 3


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_example_scenarios_pass(path):
    data = scenario.load(path)
    assert data["game"] == "flanders" and data["description"]
    assert scenario.check(data) is None


def test_check_reports_the_first_difference():
    data = scenario.load(FILES[0])
    wrong = dict(data, expect={"pawns": {"p1": 9}})
    assert scenario.check(wrong) == f"pawns: p1 expected 9, got {scenario.resolve(data)['pawns']['p1']}"


def test_build_returns_the_position_and_never_mutates_its_argument():
    data = {**BASE, "spaces": {"3": "Tank"}, "taken": ["Infantry"], "on_nine": True}
    frozen = json.dumps(data)
    game = scenario.build(data)
    assert game.phase is Phase.AGAIN and game.on_nine and game.cards[game.spaces[3]].name == "Tank"
    assert game.card_count() == len(game.cards)
    scenario.resolve(data)
    assert json.dumps(data) == frozen


def test_resolve_reports_the_odds_of_the_next_roll():
    result = scenario.resolve({**BASE, "spaces": {"7": "Infantry"}, "on_nine": True})
    assert result["bust_probability"] == "7/12"  # 126 of 216 rolls have no pair making 7


@pytest.mark.parametrize(
    "change, message",
    [
        ({"game": None}, "missing key 'game'"),
        ({"game": "flamme-rouge"}, "key 'game': 'flamme-rouge' is not 'flanders'"),
        ({"colour": "red"}, "unknown key 'colour'"),
        ({"players": [{"id": "p1"}]}, "key 'players' must be a list of 2 to 4 players"),
        ({"players": [{"id": "p1", "pawn": 40}, {"id": "p2"}]}, r"players\[0\] \(p1\): pawn 40 is not a battlefield"),
        ({"players": [{"id": "p1", "troops": -1}, {"id": "p2"}]}, r"players\[0\] \(p1\): troops -1"),
        ({"players": [{"id": "p1", "hat": 1}, {"id": "p2"}]}, r"players\[0\]: unknown key 'hat'"),
        ({"players": [{"id": "p1", "retained": ["Infantry"]}, {"id": "p2"}]}, 'is not a "May Retain" card'),
        ({"spaces": {"9": "Tank"}}, "space 9 holds the fixed card"),
        ({"spaces": {"12": "Tank"}}, "'12' is not a card space"),
        ({"spaces": {"3": "Zeppelin"}}, r"spaces\['3'\]: unknown card Zeppelin"),
        ({"taken": ["Tank"] * 4}, r"taken\[3\]: no copy of Tank is left"),
        ({"current": "p9"}, "key 'current': 'p9' is not a player"),
        (
            {"phase": "resolve", "actions": [{"play": "Tank", "spaces": 1}]},
            r"actions\[0\].play: p1 holds no unused 'Tank'",
        ),
        ({"actions": [{"take": 5}]}, r"actions\[0\] \(\{\"take\": 5\}\): taking a card belongs to the choose phase"),
        ({"actions": ["jump"]}, r"actions\[0\]: 'jump' is not an action"),
        ({"expect": {"score": 3}}, "expect: unknown key 'score'"),
    ],
)
def test_malformed_scenarios_name_the_key(change, message):
    data = {**BASE, **change, "expect": change.get("expect", {})}
    if change.get("game", 0) is None:
        del data["game"]
    with pytest.raises(ScenarioError, match=message):
        scenario.check(data)


def test_load_names_the_file(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"broken\.json: not valid JSON"):
        scenario.load(path)
