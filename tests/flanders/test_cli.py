"""``tutor.flanders.cli``: what ``rules-tutor simulate --game flanders`` and ``rules-tutor check`` call."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from tutor.flanders import scenario
from tutor.flanders.cli import check_file, simulate

SCENARIOS = Path(__file__).parent / "scenarios"


def args(**kw):
    return argparse.Namespace(**{"players": 3, "bots": None, "seed": 0, "games": 1, **kw})


def test_simulate_prints_one_line_per_game(capsys):
    assert simulate(args(games=3, seed=4)) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    for seed, line in zip((4, 5, 6), lines):
        assert re.fullmatch(
            rf"seed {seed}: (p\d wins|p\d( and p\d)+ share the win) after \d+ turns "
            r"\(troops: p1 \d+, p2 \d+, p3 \d+\)",
            line,
        ), line


def test_simulate_with_one_bot_per_player(capsys):
    assert simulate(args(players=2, bots="cautious,bold")) == 0
    assert capsys.readouterr().out.startswith("seed 0: ")


def test_simulate_rejects_bad_input_with_exit_2(capsys):
    for bad in (args(players=5), args(bots="cautious,bold"), args(bots="psychic"), args(games=0)):
        assert simulate(bad) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.startswith("rules-tutor simulate: ")


def test_check_file():
    data = scenario.load(SCENARIOS / "tank_through_defensive_line.json")
    assert check_file(data) is None
    assert check_file(dict(data, expect={"pawns": {"p1": 5}})) == "pawns: p1 expected 5, got 6"
    no_expect = {k: v for k, v in data.items() if k != "expect"}
    assert check_file(no_expect) is None
