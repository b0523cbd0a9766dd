"""Issue 37, a board within 3 s for a learner alone: while a lesson is open, ``rules-tutor serve`` (no class) has one
kernel run the next numbered lesson of its folder (``tutor.server.next_lesson``), "Next" takes that kernel, and
opening another lesson stops the one prepared for the old "next": never more than one kernel beyond the pages."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from tests.test_classroom_serve import REPO, Server, kernel_of, wait_for
from tutor.server.next_lesson import next_lesson

LESSONS = REPO / "lessons"


def test_the_next_lesson_is_the_next_numbered_one_in_the_same_folder(tmp_path: Path) -> None:
    assert next_lesson(LESSONS, "flamme_rouge/02_energy_phase.ipynb") == "flamme_rouge/03_movement.ipynb"
    assert next_lesson(LESSONS, "/flamme_rouge/00_welcome.ipynb") == "flamme_rouge/01_track_and_setup.ipynb"
    last = sorted((LESSONS / "flanders").glob("[0-9][0-9]_*.ipynb"))[-1]
    assert next_lesson(LESSONS, f"flanders/{last.name}") is None
    for page in ("index.ipynb", "flamme_rouge/rules_summary.ipynb", "flamme_rouge/99_none.ipynb", "../x/01_a.ipynb"):
        assert next_lesson(LESSONS, page) is None, page
    (tmp_path / "ca" / "game").mkdir(parents=True)
    for name in ("01_a.ipynb", "02_b.ipynb"):
        (tmp_path / "ca" / "game" / name).write_text("{}")
    assert next_lesson(tmp_path, "ca/game/01_a.ipynb") == "ca/game/02_b.ipynb"  # the learner's language


@pytest.fixture
def three_lessons(tmp_path: Path) -> Path:
    lessons = tmp_path / "lessons"
    (lessons / "game").mkdir(parents=True)
    for n, name in enumerate(("01_first", "02_second", "03_third"), 1):
        notebook = nbformat.v4.new_notebook(
            cells=[
                nbformat.v4.new_markdown_cell(f"# Lesson {n}"),
                nbformat.v4.new_code_cell(f"print('lesson {n} ran')"),
            ]
        )
        notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        nbformat.write(notebook, lessons / "game" / f"{name}.ipynb")
    (tmp_path / "voila.json").write_text((REPO / "voila.json").read_text())
    return lessons


def _kernels(server: Server) -> set[str]:
    """The kernels running now, from the server's log (started and not shut down)."""
    log = server.log.read_text()
    return set(re.findall(r"Kernel started: (\S+)", log)) - set(re.findall(r"Kernel shutdown: (\S+)", log))


def test_next_takes_the_prepared_kernel_and_only_one_lesson_is_prepared(three_lessons: Path, tmp_path: Path) -> None:
    server = Server(three_lessons, tmp_path / "serve.log")
    try:
        status, first, _ = server.request("/voila/render/game/01_first.ipynb")
        assert status == 200 and b"lesson 1 ran" in first
        wait_for(
            lambda: "Kernel pool of game/02_second.ipynb is filled" in server.log.read_text(),
            "lesson 2 prepared while lesson 1 is open",
        )
        prepared = _kernels(server) - {kernel_of(first)}
        assert len(prepared) == 1, server.log.read_text()

        status, second, _ = server.request("/voila/render/game/02_second.ipynb")  # "Next"
        assert status == 200 and b"lesson 2 ran" in second
        assert kernel_of(second) in prepared, "Next took the kernel that had already run lesson 2"
        assert f"Using pre-heated kernel: {kernel_of(second)} for game/02_second.ipynb" in server.log.read_text()
        wait_for(lambda: "Preparing the next lesson: game/03_third.ipynb" in server.log.read_text(), "lesson 3")

        status, again, _ = server.request("/voila/render/game/01_first.ipynb")  # back to lesson 1: 2 is next again
        assert status == 200
        wait_for(
            lambda: (
                "Kernel pool of game/02_second.ipynb is filled with 1"
                in server.log.read_text().split("Preparing the next lesson: game/02_second.ipynb")[-1]
            ),
            "lesson 2 prepared again",
        )
        pages = {kernel_of(first), kernel_of(second), kernel_of(again)}
        wait_for(lambda: len(_kernels(server) - pages) == 1, "the kernel prepared for lesson 3 stopped")
    finally:
        server.stop()
