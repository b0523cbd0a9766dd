"""Issue 15 in a real browser: quizzes answered in a Flamme Rouge and an In Flanders Field lesson show up, with
their scores, on the landing page and on the game's welcome list; the FR 03 "who moves first" quiz is answered
by clicking the rider on the board."""

from __future__ import annotations

import pytest
from voila_page import LOAD_TIMEOUT_MS, error_outputs, open_lesson, wait_for_paint

from tutor.flamme_rouge import scenario
from tutor.flamme_rouge.render import Scene
from test_lessons import LESSONS

pytestmark = pytest.mark.browser


def test_quizzes_answered_in_both_games_show_on_the_landing_page_and_the_welcome_lists(page, page_errors,
                                                                                       voila_server, tmp_path):
    from playwright.sync_api import expect

    open_lesson(page, voila_server, "flamme_rouge/03_movement.ipynb")
    quiz = page.locator(".tutor-quiz").first
    wait_for_paint(page, index=1)
    data = scenario.load(LESSONS / "scenarios/movement_who_first_a.json")
    view = Scene(scenario.build(data).track).view
    first = next(r for r in data["riders"] if r["id"] == "red-S")  # frontmost: the right answer
    canvas = quiz.locator("canvas")
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    scale = box["width"] / view.width
    page.mouse.click(box["x"] + view.cx(first["square"]) * scale, box["y"] + view.cy(first["lane"]) * scale)
    expect(quiz.locator(".tutor-status").first).to_contain_text("Your answer: red-S")
    page.screenshot(path=str(tmp_path / "fr03_quiz.png"))
    quiz.get_by_role("button", name="Reveal").click()
    expect(quiz).to_contain_text("Right! red-S moves first")

    open_lesson(page, voila_server, "flanders/01_board_and_goal.ipynb")
    fl_quiz = page.locator(".tutor-quiz").first
    fl_quiz.locator(".widget-toggle-buttons button").first.click()
    fl_quiz.get_by_role("button", name="Reveal").click()
    expect(fl_quiz.locator(".tutor-quiz-result")).to_have_count(1)

    open_lesson(page, voila_server, "index.ipynb", wait_for="a[href$='.ipynb']")
    fr03 = page.locator("[data-lesson='flamme_rouge/03_movement.ipynb']")
    expect(fr03).to_have_text("started · quiz 1/2 right first time", timeout=LOAD_TIMEOUT_MS)
    expect(page.locator("[data-lesson='flanders/01_board_and_goal.ipynb']")).to_contain_text("✓ finished · quiz")
    expect(page.locator("[data-lesson='flamme_rouge/04_slipstream.ipynb']")).to_have_text("not started")
    assert page.locator("ol.tutor-lesson-list").count() == 0  # no list numbers beside the lesson numbers
    page.screenshot(path=str(tmp_path / "landing.png"), full_page=True)

    open_lesson(page, voila_server, "flanders/00_welcome.ipynb", wait_for=".tutor-lesson-list")
    expect(page.locator("[data-lesson='flanders/01_board_and_goal.ipynb']")).to_contain_text("✓ finished")
    open_lesson(page, voila_server, "flamme_rouge/00_welcome.ipynb", wait_for=".tutor-lesson-list")
    expect(page.locator("[data-lesson='flamme_rouge/03_movement.ipynb']")).to_contain_text("quiz 1/2")
    expect(page.locator("[data-lesson='flamme_rouge/00_welcome.ipynb']")).to_contain_text("✓ finished")
    assert error_outputs(page) == [] and page_errors == []
