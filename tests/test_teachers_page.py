"""Issue 30: the page for teachers (markdown only), linked from the landing page's "For teachers", and teacher notes
that need no terminal except the one command that starts a class."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat

LESSONS = Path(__file__).resolve().parents[1] / "lessons"
TEACHERS = LESSONS / "teachers.ipynb"


def _markdown(path: Path) -> str:
    return "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown")


def test_the_landing_page_links_the_teachers_page_in_its_for_teachers_section():
    text = _markdown(LESSONS / "index.ipynb")
    section = re.search(r"<details class=\"tutor-teachers\"><summary><b>For teachers</b></summary>(.*?)</details>",
                        text, re.S)
    assert section and "(teachers.ipynb)" in section.group(1)


def test_the_teachers_page_is_markdown_only_and_says_how_to_start_a_class_where_the_view_is_and_what_it_shows():
    nb = nbformat.read(TEACHERS, as_version=4)
    assert [c.cell_type for c in nb.cells] == ["markdown"] * len(nb.cells), "no kernel needed: no code cell"
    text = _markdown(TEACHERS)
    commands = re.findall(r"^rules-tutor .*$", text, re.M)
    assert commands == ["rules-tutor serve --ip 0.0.0.0 --class-size 25 --lesson flamme_rouge/02_energy_phase.ipynb"]
    assert "Teacher view (keep this link to yourself):" in text  # the line the server prints (tutor/server/command.py)
    for control in ("Anonymize", "Pause every screen", "Pace: open lessons", "Download CSV", "Start a new class"):
        assert control in text
    for link in ("flamme_rouge/workbench.ipynb", "flanders/workbench.ipynb", "index.ipynb"):
        assert f"]({link})" in text and (LESSONS / link).is_file()


def test_the_server_prints_the_teacher_view_line_the_page_names():
    serve = (Path(__file__).resolve().parents[1] / "tutor").rglob("*.py")
    assert any("Teacher view (keep this link to yourself)" in p.read_text() for p in serve)


def test_no_teacher_note_sends_the_teacher_to_a_terminal_to_check_a_file():
    for path in sorted(LESSONS.rglob("*.ipynb")):
        assert "rules-tutor check" not in _markdown(path), path.name
        if path not in (TEACHERS, LESSONS / "ca" / "teachers.ipynb"):  # the page for teachers, in Catalan too
            assert "rules-tutor" not in _markdown(path), f"{path.name}: only the teachers page names a command"
