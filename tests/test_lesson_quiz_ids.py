"""Each lesson declares its quizzes' ids (``metadata.tutor.quizzes``): a class server records answers to these
quizzes only, and the lesson's progress counts them. Executed for real, the quiz widgets a lesson builds declare
exactly those ids, in that order."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from tutor.classroom.handlers import QUIZ_ID
from tutor.ui.lessons import lesson_info

ROOT = Path(__file__).resolve().parents[1] / "lessons"
LESSONS = sorted(p for p in ROOT.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts and p.parent != ROOT)
PROBE = (
    "import json as _json\nfrom ipywidgets.widgets import widget as _widget\n"
    "from tutor.ui.quiz import RevealQuiz as _Quiz\n"
    "print(_json.dumps([i for w in list(_widget._instances.values()) if isinstance(w, _Quiz) for i in w.ids]))"
)


def _ids(paths: list[Path]) -> list[str]:
    return [str(p.relative_to(ROOT).with_suffix("")) for p in paths]


def test_declared_quiz_ids_are_well_formed_and_unique_in_their_lesson():
    declared = {path: lesson_info(path).quiz_ids for path in LESSONS}
    assert sum(map(len, declared.values())) >= 20  # the lessons have quizzes
    for path, ids in declared.items():
        assert all(QUIZ_ID.fullmatch(quiz) for quiz in ids), path
        assert len(set(ids)) == len(ids), path


@pytest.mark.notebook
@pytest.mark.parametrize("path", LESSONS, ids=_ids(LESSONS))
def test_a_lessons_quiz_widgets_declare_the_ids_of_its_metadata(path: Path):
    notebook = nbformat.read(path, as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell(PROBE))
    NotebookClient(
        notebook,
        timeout=300,
        startup_timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()
    printed = "".join(out.get("text", "") for out in notebook.cells[-1].outputs if out.output_type == "stream")
    built = json.loads(printed.strip().splitlines()[-1])
    assert built == list(lesson_info(path).quiz_ids), f"{path.name}: set metadata.tutor.quizzes to {built}"
