"""The In Flanders Field lessons: each notebook runs top to bottom with no error output, and every scenario file
beside them passes ``rules-tutor check`` (``tests/test_lessons_execute.py`` checks the rest of every notebook)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from tutor.cli import main as rules_tutor
from tutor.flanders import scenario

LESSONS = Path(__file__).resolve().parents[2] / "lessons" / "flanders"
NOTEBOOKS = sorted(LESSONS.glob("*.ipynb"))
SCENARIOS = sorted((LESSONS / "scenarios").glob("*.json"))
NAMES = re.compile(r"""["']([a-z0-9_]+)["']""")


def test_there_are_eight_notebooks_and_the_scenarios_they_use():
    assert [p.stem[:2] for p in NOTEBOOKS] == ["00", "01", "02", "03", "04", "05", "06", "07"]
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


@pytest.mark.notebook
def test_every_flanders_notebook_executes(tmp_path):
    """One kernel runs every lesson in turn (as fast as one per notebook, without eight kernel starts)."""
    cells = []
    for path in NOTEBOOKS:
        cells += [nbformat.v4.new_code_cell(f"import os; os.chdir({str(LESSONS)!r})")]
        cells += [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
    nb = nbformat.v4.new_notebook(cells=cells)
    NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(LESSONS)}}).execute()
    errors = [f"cell {i}: {out.get('ename', out.get('name'))}: {out.get('evalue', out.get('text', ''))}"
              for i, cell in enumerate(nb.cells) for out in cell.outputs
              if out.output_type == "error" or (out.output_type == "stream" and out.name == "stderr")]
    assert errors == []
    shown = [c for c in nb.cells if any("application/vnd.jupyter.widget-view+json" in o.get("data", {})
                                        for o in c.outputs)]
    assert len(shown) == 14  # 7 boards and 7 quizzes (lesson 3 has two)
