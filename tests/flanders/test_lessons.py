"""The In Flanders Field lessons: the scenario files beside them pass ``rules-tutor check`` and the notebooks use
them (``tests/test_lessons_execute.py`` executes every notebook under lessons/, these included)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest

from tutor.cli import main as rules_tutor
from tutor.flanders import scenario

LESSONS = Path(__file__).resolve().parents[2] / "lessons" / "flanders"
NOTEBOOKS = sorted(LESSONS.glob("*.ipynb"))
SCENARIOS = sorted((LESSONS / "scenarios").glob("*.json"))
NAMES = re.compile(r"""["']([a-z0-9_]+)["']""")


def test_there_are_eight_notebooks_and_the_scenarios_they_use():
    assert [p.stem[:2] for p in NOTEBOOKS if p.stem[0].isdigit()] == ["00", "01", "02", "03", "04", "05", "06", "07"]
    names = {p.stem for p in SCENARIOS}
    used = set()
    for path in NOTEBOOKS:
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "code":
                used |= {n for n in NAMES.findall(cell.source) if n in names}
    assert used and used <= names
    assert len(used) >= 20, sorted(names - used)


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_file_passes_rules_tutor_check(path: Path, capsys):
    data = json.loads(path.read_text())
    assert data["game"] == "flanders" and data.get("description")
    assert rules_tutor(["check", str(path)]) == 0, capsys.readouterr().out
    if "actions" in data:
        assert "expect" in data and scenario.check(data) is None
