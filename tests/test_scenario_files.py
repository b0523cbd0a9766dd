"""Every rule scenario file passes: ``scenario.check(data) is None``.

The files in ``tests/scenarios/`` are one rule or edge case each (RULES.md section 1-2, in the
SCENARIOS.md format); their ``expect`` blocks were worked out by hand from the rules text.
The two rulebook examples in ``../shared/scenarios/`` are checked too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tutor.flamme_rouge import scenario

HERE = Path(__file__).parent / "scenarios"
SHARED = Path(__file__).parents[2] / "shared" / "scenarios"

LOCAL_FILES = sorted(HERE.glob("*.json"))
SHARED_FILES = sorted(SHARED.glob("*.json")) if SHARED.is_dir() else []


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


@pytest.mark.skipif(not SHARED.is_dir(), reason=f"shared scenario folder {SHARED} is absent in this checkout")
@pytest.mark.parametrize("path", SHARED_FILES, ids=[p.stem for p in SHARED_FILES])
def test_shared_scenario(path: Path):
    """The shared rulebook examples (blocked rider, slipstream chain) pass."""
    data = _load(path)
    assert "expect" in data
    assert scenario.check(data) is None
