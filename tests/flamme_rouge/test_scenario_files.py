"""Every rule scenario file passes: ``scenario.check(data) is None``.

The files in ``tests/flamme_rouge/scenarios/`` are one rule or edge case each (RULES.md section 1-2, in the
SCENARIOS.md format); their ``expect`` blocks were worked out by hand from the rules text.
The two rulebook examples of ``../shared/scenarios/`` are copied here (``rulebook_p*.json``), so a clean
clone checks them too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tutor.flamme_rouge import scenario

HERE = Path(__file__).parent / "scenarios"

LOCAL_FILES = sorted(HERE.glob("*.json"))


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_local_scenario_folder_is_populated():
    """The rule scenarios exist (a glob that finds nothing would make the parametrized test vacuous)."""
    assert len(LOCAL_FILES) >= 25


@pytest.mark.parametrize("path", LOCAL_FILES, ids=[p.stem for p in LOCAL_FILES])
def test_rule_scenario(path: Path):
    """The engine resolves the scenario exactly as its hand-computed ``expect`` block says."""
    data = _load(path)
    assert scenario.check(data) is None


@pytest.mark.parametrize("path", LOCAL_FILES, ids=[p.stem for p in LOCAL_FILES])
def test_rule_scenario_is_documented(path: Path):
    """Each file names its rule, explains it, and has a full expect block (SCENARIOS.md)."""
    data = _load(path)
    assert isinstance(data.get("name"), str)
    assert "RULES.md" in data["name"] or "SCENARIOS.md" in data["name"]
    assert isinstance(data.get("description"), str) and len(data["description"]) > 40
    assert set(data["expect"]) == {"after_movement", "after_slipstream", "exhausted", "winner"}


def test_the_rulebook_examples_are_here():
    """The shared rulebook examples live in the repository, not only beside it."""
    assert {"rulebook_p1_blocked_rider", "rulebook_p2_slipstream_chain"} <= {p.stem for p in LOCAL_FILES}
