"""``tutor.flamme_rouge.cli``: the game's part of ``rules-tutor simulate`` and ``check``, as In Flanders Field has."""

from __future__ import annotations

import argparse

import pytest

from tests.flamme_rouge.positions import BLOCKED
from tutor.core.games import game
from tutor.flamme_rouge import scenario
from tutor.flamme_rouge.cli import check_file, simulate
from tutor.flamme_rouge.errors import ScenarioError


def test_the_registry_finds_the_flamme_rouge_cli_module():
    assert game("flamme-rouge").module("cli").check_file is check_file


def test_check_file_compares_the_expect_block_and_validates_a_scenario_without_one():
    result = scenario.resolve_round(BLOCKED)
    assert check_file(BLOCKED) is None
    assert check_file({**BLOCKED, "expect": {k: result[k] for k in ("exhausted", "winner")}}) is None
    wrong = {**BLOCKED, "expect": {"winner": "red-R"}}
    assert check_file(wrong) is not None and "winner" in check_file(wrong)
    with pytest.raises(ScenarioError):
        check_file({**BLOCKED, "track": "2 9"})


def test_simulate_prints_a_line_per_race_and_refuses_bad_input(capsys):
    args = argparse.Namespace(
        stage="avenue-corso-paseo",
        teams=2,
        bot="random",
        races=2,
        seed=3,
        single_riders=False,
        peloton=False,
        muscle=0,
        breakaway=False,
    )
    assert simulate(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == ["seed 3", "seed 4"]
    assert all("wins after" in line for line in lines)
    assert simulate(argparse.Namespace(**{**vars(args), "teams": 9})) == 2
    assert "rules-tutor simulate:" in capsys.readouterr().err
