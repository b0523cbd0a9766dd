"""Issue 30: the page for teachers (markdown only), linked from the landing page's "For teachers", and teacher notes
that need no terminal except the one command that starts a class."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import nbformat
import pytest

LESSONS = Path(__file__).resolve().parents[1] / "lessons"
TEACHERS = LESSONS / "teachers.ipynb"


def _markdown(path: Path) -> str:
    return "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown")


def test_the_landing_page_links_the_teachers_page_in_its_for_teachers_section():
    text = _markdown(LESSONS / "index.ipynb")
    section = re.search(
        r"<details class=\"tutor-teachers\"><summary><b>For teachers</b></summary>(.*?)</details>", text, re.S
    )
    assert section and "(teachers.ipynb)" in section.group(1)


PLAN_CELLS = ['from tutor.classroom.notes import teacher_plan\nteacher_plan("flamme_rouge", "flanders")']


def test_the_teachers_page_is_text_and_lesson_lists_and_says_how_to_start_a_class_and_what_the_view_shows():
    nb = nbformat.read(TEACHERS, as_version=4)
    assert nb.metadata["tutor"]["kernel"] is False  # a page without a board: rendered once, no kernel per visit
    assert [c.source for c in nb.cells if c.cell_type == "code"] == PLAN_CELLS  # only the lists of the lessons
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


# ----- issue 37: each lesson's length, what it teaches, its answers, a plan for a 50-minute class ---------------


def _lessons(game: str) -> list[Path]:
    return sorted((LESSONS / game).glob("[0-9]*.ipynb"))


@pytest.mark.parametrize("game", ["flamme_rouge", "flanders"])
def test_every_lesson_gives_its_minutes_and_a_title_and_an_answer_for_each_quiz(game):
    from tutor.classroom.notes import lesson_notes

    for path in _lessons(game):
        notes = lesson_notes(path)
        assert 0 < notes.minutes <= 30, path.name
        assert len(notes.quiz_titles) == len(notes.quiz_answers) == len(notes.quizzes), path.name
        assert all(0 < len(title) <= 45 for title in notes.quiz_titles), path.name  # a column's heading


@pytest.mark.parametrize("game, language", [("flamme_rouge", "en"), ("flanders", "en"), ("flamme_rouge", "ca")])
def test_the_page_lists_every_lesson_with_its_minutes_summary_questions_and_answers_and_a_50_minute_plan(
    game, language
):
    from tutor.classroom.notes import CLASS_MINUTES, lesson_notes, teacher_plan_html
    from tutor.i18n import gettext_in, use_language

    folder = LESSONS / game if language == "en" else LESSONS / language / game
    use_language(language)
    try:
        page = html.unescape(teacher_plan_html(folder))
    finally:
        use_language("en")
    plan = re.search(r"<ol>(.*?)</ol>", page).group(1)
    minutes = [int(m) for m in re.findall(r"\((\d+) minut", plan)]
    assert sum(minutes) == CLASS_MINUTES and len(minutes) >= 4  # start, lessons, end: 50 minutes
    for path in _lessons(game):
        notes = lesson_notes(folder / path.name)
        assert notes.title in page and notes.summary in page
        assert re.search(re.escape(notes.title) + r"</a></th><td>" + str(notes.minutes), page), notes.title
        for title, answer in zip(notes.quiz_titles, notes.quiz_answers):
            assert gettext_in(language, title) in page and gettext_in(language, answer) in page
            if language == "ca":
                assert gettext_in(language, title) != title  # through the catalog


def test_the_list_comes_from_the_lessons_metadata(tmp_path):
    from tutor.classroom.notes import teacher_plan_html

    source = LESSONS / "flanders" / "01_board_and_goal.ipynb"
    copy = json.loads(source.read_text(encoding="utf-8"))
    copy["metadata"]["tutor"].update(minutes=17, quiz_titles=["A made-up question?"], quiz_answers=["Space 99."])
    (tmp_path / source.name).write_text(json.dumps(copy), encoding="utf-8")
    page = teacher_plan_html(tmp_path)
    assert "17 minutes" in page and "A made-up question?" in page and "Answer: Space 99." in page


def test_the_page_says_what_to_do_without_a_terminal():
    text = _markdown(TEACHERS)
    section = text.split("## Without a terminal", 1)[1]
    for tool in ("Pace: open lessons", "Open a position code", "Check a file", "Download CSV", "Start a new class"):
        assert tool in section
