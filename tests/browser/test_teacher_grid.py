"""Issue 37 in a real browser: the teacher's grid with a whole class (25 learners, every lesson of the repository
opened), on a 1366 px laptop; Pace's "Only this lesson" and "Close all"; the CSV while names are hidden.

The class's endpoints run on a tornado server in a thread (no Voila: the teacher's page needs none). Screenshots go
to ``$RULES_TUTOR_SCREENSHOTS`` (else the test's temporary folder)."""

from __future__ import annotations

import asyncio
import os
import random
import threading
from pathlib import Path

import pytest
from conftest import LESSONS, NOT_LOCAL, _free_port

from tutor.classroom.database import ClassDatabase
from tutor.classroom.endpoints import routes
from tutor.classroom.handlers import Classroom, lessons_of

pytestmark = pytest.mark.browser
TOKEN = "teacher-token-for-the-grid-test-0123"


@pytest.fixture
def classroom(tmp_path):
    import tornado.web

    room = Classroom(ClassDatabase(tmp_path / "class.sqlite3", lessons_of(LESSONS)), TOKEN)
    port, ready, loop_box = _free_port(), threading.Event(), []

    def serve() -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        tornado.web.Application(routes(room)).listen(port, "127.0.0.1")
        loop_box.append(loop)
        ready.set()
        loop.run_forever()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert ready.wait(30)
    yield room, f"http://127.0.0.1:{port}"
    loop_box[0].call_soon_threadsafe(loop_box[0].stop)
    thread.join(10)
    room.db.close()


def _whole_class(db: ClassDatabase, learners: int = 25) -> None:
    """``learners`` learners; each opened every lesson and answered every quiz, some right first time."""
    chance = random.Random(37)
    for number in range(learners):
        learner, _ = db.join(f"Learner name {number + 1}" if number % 3 else "")
        for lesson in db.lessons:
            db.opened(learner, lesson.key)
            for quiz in lesson.quizzes:
                for _try in range(chance.choice((1, 1, 2, 3))):
                    db.answered(learner, lesson.key, quiz, chance.random() < 0.6, "square 7")


def _open_view(browser, url: str, width: int = 1366):
    context = browser.new_context(viewport={"width": width, "height": 768})
    context.route(NOT_LOCAL, lambda route: route.abort())
    page = context.new_page()
    page.goto(url + f"/rules-tutor/teacher?token={TOKEN}")
    return context, page


def test_the_share_counts_only_the_learners_who_answered(browser, classroom):
    from playwright.sync_api import expect

    room, url = classroom
    lesson = next(lesson for lesson in room.db.lessons if lesson.quizzes)
    one, _ = room.db.join("Ana")
    for name in ("Ben", "Cy", "Dee"):
        room.db.join(name)  # in the class, not on this question
    room.db.opened(one, lesson.key)
    room.db.answered(one, lesson.key, lesson.quizzes[0], True, "7")
    context, page = _open_view(browser, url)
    try:
        share = page.locator("#grid tfoot td.share").first
        expect(share).to_have_text("100")  # per cent: one right of the one who answered, not 25 of four
        expect(share).not_to_have_class("share share-low")
        heading = page.locator("#grid thead th.up").nth(1)
        expect(heading).to_have_text(lesson.quiz_titles[0])  # the question's title, not "Q1"
    finally:
        context.close()


def test_a_whole_class_with_every_lesson_open_fits_a_laptop(browser, classroom, tmp_path):
    from playwright.sync_api import expect

    room, url = classroom
    _whole_class(room.db)
    shots = Path(os.environ.get("RULES_TUTOR_SCREENSHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    context, page = _open_view(browser, url)
    try:
        expect(page.locator("#grid tbody tr")).to_have_count(25)
        quizzes = sum(len(lesson.quizzes) for lesson in room.db.lessons)
        expect(page.locator("#grid thead th.up")).to_have_count(len(room.db.lessons) + quizzes)
        page.screenshot(path=str(shots / "teacher_grid_1366.png"), full_page=True)
        sizes = page.evaluate("""() => {
            const table = document.getElementById('grid').getBoundingClientRect();
            const cells = Array.from(document.querySelectorAll('#grid tbody td'));
            return {table: table.right, window: document.documentElement.clientWidth,
                    scroll: document.documentElement.scrollWidth,
                    narrowest: Math.min(...cells.map((c) => c.getBoundingClientRect().width)),
                    font: Math.min(...cells.map((c) => parseFloat(getComputedStyle(c).fontSize)))};
        }""")
        print(sizes)
        assert sizes["table"] <= sizes["window"], "the grid is wider than a 1366 px laptop"
        assert sizes["scroll"] <= sizes["window"], "the page scrolls sideways"
        assert sizes["narrowest"] >= 16 and sizes["font"] >= 11  # readable: no squeezed column, no tiny text
        # every question's column is named in full (its tooltip) and its title is on screen
        for heading in page.locator("#grid thead th.up").all()[:5]:
            assert heading.get_attribute("title") == heading.inner_text()
    finally:
        context.close()


def test_pace_only_this_lesson_and_close_all(browser, classroom):
    from playwright.sync_api import expect

    room, url = classroom
    room.db.join("Ana")
    keys = [lesson.key for lesson in room.db.lessons]
    context, page = _open_view(browser, url)
    try:
        page.get_by_role("button", name="Pace: open lessons").click()
        target = room.db.lessons[2]
        page.get_by_role("button", name=f"Only {target.title} open").click()
        expect(page.locator("#pace-list input:checked")).to_have_count(1)
        expect(page.locator(f"#pace-list input[value='{target.key}']")).to_be_checked()
        _wait(lambda: room.db.settings()["closed"] == [key for key in keys if key != target.key])
        page.get_by_role("button", name="Close all").click()
        expect(page.locator("#pace-list input:checked")).to_have_count(0)
        _wait(lambda: room.db.settings()["closed"] == keys)
        page.get_by_role("button", name="Open all").click()
        expect(page.locator("#pace-list input:checked")).to_have_count(len(keys))
        _wait(lambda: room.db.settings()["closed"] == [])
    finally:
        context.close()


def test_the_csv_keeps_names_hidden_and_the_page_says_so(browser, classroom):
    from playwright.sync_api import expect

    room, url = classroom
    ana, _ = room.db.join("Ana")
    lesson = next(lesson for lesson in room.db.lessons if lesson.quizzes)
    room.db.answered(ana, lesson.key, lesson.quizzes[0], True, "7")
    context, page = _open_view(browser, url)
    try:
        expect(page.locator("#csv")).to_have_text("Download CSV")
        expect(page.locator("#csv-note")).to_be_hidden()
        page.get_by_role("button", name="Anonymize").click()
        expect(page.locator("#csv")).to_have_text("Download CSV (numbers, no names)")
        expect(page.locator("#csv-note")).to_be_visible()
        expect(page.locator("#csv-note")).to_contain_text("numbers instead of names")
        with page.expect_download() as download:
            page.locator("#csv").click()
        text = Path(download.value.path()).read_text(encoding="utf-8")
        assert "Ana" not in text and "Learner 1" in text
    finally:
        context.close()


def _wait(condition, timeout_s: float = 30.0) -> None:
    import time

    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "the server never got the teacher's action"
        time.sleep(0.05)


def test_the_view_in_catalan_has_no_english_word(browser, classroom):
    """Issue 38: ``?lang=ca`` (or a Catalan browser): every heading, button, verdict, tooltip and lesson title in
    Catalan; no word of the page's English messages is left on screen or in a tooltip."""
    import re

    from playwright.sync_api import expect

    from tutor.classroom.teacher import PAGE_WORDS
    from tutor.i18n import gettext_in

    room, url = classroom
    lesson = next(lesson for lesson in room.db.lessons if lesson.quizzes)
    ana, _ = room.db.join("Ana")
    other, _ = room.db.join("")
    for learner in (ana, other):
        room.db.opened(learner, lesson.key)
    room.db.answered(ana, lesson.key, lesson.quizzes[0], False, "7")
    room.db.answered(ana, lesson.key, lesson.quizzes[0], True, "8")
    room.db.answered(other, lesson.key, lesson.quizzes[0], False, "3")
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="ca-ES")
    context.route(NOT_LOCAL, lambda route: route.abort())
    page = context.new_page()
    try:
        page.goto(url + f"/rules-tutor/teacher?lang=ca&token={TOKEN}")
        expect(page).to_have_title("Vista de la classe · Tutor de regles")
        expect(page.locator("#summary")).to_contain_text("Alumnes: 2")
        expect(page.locator("#grid tbody th")).to_have_text(["1 · Ana", "Alumne 2"])
        quiz = gettext_in("ca", lesson.quiz_titles[0])
        assert quiz != lesson.quiz_titles[0]
        expect(page.locator("#grid thead th.up").nth(1)).to_have_text(quiz)
        expect(page.locator("#grid thead th.up").first).to_have_text(gettext_in("ca", lesson.title))
        expect(page.locator("#grid tbody tr").first.locator("td").nth(2)).to_have_attribute(
            "title", re.compile("encertada després de 2 intents · primera resposta: 7")
        )
        expect(page.locator("#grid tfoot th")).to_have_text("Encertada a la primera, %")
        page.get_by_role("button", name="Atura totes les pantalles").click()
        expect(page.get_by_role("button", name="Reprèn totes les pantalles")).to_be_visible()
        page.get_by_role("button", name="Ritme: lliçons obertes").click()
        expect(page.locator("#pace")).to_be_visible()
        # the lessons' keys beside their titles in Pace are file names ("flanders/01_board_and_goal"): left out
        page.evaluate("() => document.querySelectorAll('#pace-list small').forEach((key) => key.remove())")
        shown = page.evaluate("""() => document.body.innerText + ' ' + Array.from(document.querySelectorAll(
            '[title], [aria-label]')).map((e) => (e.title || '') + ' ' + (e.getAttribute('aria-label') || '')).join(' ')
            + ' ' + document.title""")
        catalan = " ".join(gettext_in("ca", m) for m in PAGE_WORDS)
        english = {w for m in PAGE_WORDS for w in re.findall(r"[A-Za-z]{3,}", re.sub(r"\{\w+\}", "", m))}
        english -= set(re.findall(r"[A-Za-z]{3,}", catalan)) | {"CSV", "rules", "tutor", "serve"}
        assert len(english) > 50
        left = sorted({w for w in re.findall(r"[A-Za-z]{3,}", shown) if w in english})
        assert left == [], left

        # the other language is one link away, and the choice is kept (as the lesson pages keep it)
        page.get_by_role("link", name="English").click()
        expect(page.get_by_role("button", name="Pace: open lessons")).to_be_visible()
        page.goto(url + "/rules-tutor/teacher")  # a Catalan browser, the choice English
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page).to_have_title("Class view · Rules tutor")
        page.evaluate("() => localStorage.removeItem('rules-tutor-language')")
        page.goto(url + "/rules-tutor/teacher")  # no choice: the browser's language
        expect(page).to_have_title("Vista de la classe · Tutor de regles")
    finally:
        context.close()
