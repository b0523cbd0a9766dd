"""The lesson notebooks: each runs top to bottom, is committed clean, short, and uses valid scenario files."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from tutor.flamme_rouge import scenario

LESSONS = Path(__file__).resolve().parents[1] / "lessons" / "flamme_rouge"
NOTEBOOKS = sorted(LESSONS.glob("*.ipynb"))
LESSON_NOTEBOOKS = [p for p in NOTEBOOKS if p.name != "00_welcome.ipynb"]
SCENARIO_PATH = re.compile(r"""["'](scenarios/[^"']+\.json)["']""")
MAX_CODE_LINES = 4


def _read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def _code(nb) -> list[str]:
    return [cell.source for cell in nb.cells if cell.cell_type == "code"]


def _ids(paths):
    return [p.stem for p in paths]


def test_lessons_folder_is_populated():
    assert "00_welcome.ipynb" in [p.name for p in NOTEBOOKS] and len(LESSON_NOTEBOOKS) >= 7
    assert any(SCENARIO_PATH.search(source) for p in LESSON_NOTEBOOKS for source in _code(_read(p)))


@pytest.mark.notebook
@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_notebook_executes_without_errors(path: Path):
    nb = _read(path)
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(LESSONS)}}).execute()
    errors = [f"cell {i}: {out.get('ename', out.get('name'))}: {out.get('evalue', out.get('text', ''))}"
              for i, cell in enumerate(nb.cells) if cell.cell_type == "code"
              for out in cell.outputs
              if out.output_type == "error" or (out.output_type == "stream" and out.name == "stderr")]
    assert errors == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_notebook_is_committed_without_outputs(path: Path):
    dirty = [i for i, cell in enumerate(_read(path).cells)
             if cell.cell_type == "code" and (cell.outputs or cell.execution_count is not None)]
    assert dirty == [], f"{path.name}: cells {dirty} have outputs or execution counts"


@pytest.mark.parametrize("path", LESSON_NOTEBOOKS, ids=_ids(LESSON_NOTEBOOKS))
def test_lesson_explains_in_markdown_and_keeps_code_short(path: Path):
    nb = _read(path)
    assert any(cell.cell_type == "markdown" for cell in nb.cells)
    code = _code(nb)
    assert code, f"{path.name} has no code cell"
    long = [source for source in code if len(source.strip().splitlines()) > MAX_CODE_LINES]
    assert long == [], f"{path.name}: code cells over {MAX_CODE_LINES} lines"


@pytest.mark.parametrize("path", LESSON_NOTEBOOKS, ids=_ids(LESSON_NOTEBOOKS))
def test_lesson_scenarios_exist_and_pass(path: Path):
    for name in sorted({m for source in _code(_read(path)) for m in SCENARIO_PATH.findall(source)}):
        file = LESSONS / name
        assert file.is_file(), f"{path.name} uses {name}, which does not exist"
        assert scenario.check(scenario.load(file)) is None, name


def test_welcome_links_every_lesson():
    text = "\n".join(cell.source for cell in _read(LESSONS / "00_welcome.ipynb").cells if cell.cell_type == "markdown")
    links = re.findall(r"\]\(([^)\s]+\.ipynb)\)", text)
    assert [link for link in links if not (LESSONS / link).is_file()] == []
    assert {p.name for p in LESSON_NOTEBOOKS} <= set(links)
