"""Issues 15 and 22 in a real browser: quizzes answered in a Flamme Rouge and an In Flanders Field lesson show up on
the landing page and on the game's welcome list as "k of n answered, m right first time" (a lesson opened but not
answered: "opened"), and the end of the lesson tells the same; the FR 03 "who moves first" quiz is answered by
clicking the rider on the board, the FR 02 energy quiz by choosing an answer."""

from __future__ import annotations

import pytest
from voila_page import LOAD_TIMEOUT_MS, error_outputs, open_lesson, wait_for_paint

from tutor.flamme_rouge import scenario
from tutor.flamme_rouge.render import Scene
from test_lessons import LESSONS

pytestmark = pytest.mark.browser


def test_quizzes_answered_in_both_games_show_on_the_landing_page_and_the_welcome_lists(
    page, page_errors, voila_server, tmp_path
):
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
    finish = page.locator(".tutor-finish")
    expect(finish).to_contain_text("What you learned: The frontmost rider moves first")
    expect(finish).to_contain_text(
        "Your questions: 1 of 2 answered, 1 right first time (the others are above).", timeout=LOAD_TIMEOUT_MS
    )
    expect(finish.get_by_role("link", name="4. Slipstream →")).to_have_attribute("href", "04_slipstream.ipynb")

    open_lesson(page, voila_server, "flamme_rouge/02_energy_phase.ipynb")
    energy = page.locator(".tutor-quiz").first
    expect(energy).to_contain_text("Where do the other three cards go?")
    assert "The answer is" not in energy.inner_text()  # nothing told before Reveal
    energy.get_by_role("button", name="back on top of its deck").click()
    energy.get_by_role("button", name="Reveal").click()
    expect(energy).to_contain_text("Not quite. The answer is: face up under its deck.")
    expect(energy.locator(".tutor-deck")).to_contain_text("5, 3, 2")  # Reveal did it on red-S's cards
    expect(page.locator(".tutor-finish")).to_contain_text("Your questions: 1 of 5 answered, 0 right first time")

    open_lesson(page, voila_server, "flanders/01_board_and_goal.ipynb")
    fl_quiz = page.locator(".tutor-quiz").first
    fl_quiz.locator(".widget-toggle-buttons button").first.click()
    fl_quiz.get_by_role("button", name="Reveal").click()
    expect(fl_quiz.locator(".tutor-quiz-result")).to_have_count(1)
    # The page records the answer a moment after the mark appears: wait until it says so before leaving.
    expect(page.locator(".tutor-finish")).to_contain_text("Your questions: 1 of 1 answered")

    open_lesson(page, voila_server, "index.ipynb", wait_for="a[href$='.ipynb']")
    fr03 = page.locator("[data-lesson='flamme_rouge/03_movement.ipynb']")
    expect(fr03).to_have_text("1 of 2 answered, 1 right first time", timeout=LOAD_TIMEOUT_MS)
    expect(page.locator("[data-lesson='flamme_rouge/02_energy_phase.ipynb']")).to_have_text(
        "1 of 5 answered, 0 right first time"
    )
    expect(page.locator("[data-lesson='flanders/01_board_and_goal.ipynb']")).to_contain_text("✓ 1 of 1 answered")
    expect(page.locator("[data-lesson='flamme_rouge/04_slipstream.ipynb']")).to_have_text("not started")
    assert "right first time" not in page.locator("[data-lesson='flamme_rouge/00_welcome.ipynb']").inner_text()
    assert page.locator("ol.tutor-lesson-list").count() == 0  # no list numbers beside the lesson numbers
    page.screenshot(path=str(tmp_path / "landing.png"), full_page=True)

    open_lesson(page, voila_server, "flanders/00_welcome.ipynb", wait_for=".tutor-lesson-list")
    expect(page.locator("[data-lesson='flanders/01_board_and_goal.ipynb']")).to_contain_text("✓ 1 of 1 answered")
    open_lesson(page, voila_server, "flamme_rouge/00_welcome.ipynb", wait_for=".tutor-lesson-list")
    expect(page.locator("[data-lesson='flamme_rouge/03_movement.ipynb']")).to_contain_text("1 of 2 answered")
    expect(page.locator("[data-lesson='flamme_rouge/00_welcome.ipynb']")).to_have_text("✓ opened")
    page.locator(".tutor-lesson-list a[href='04_slipstream.ipynb']").click()  # opened, no answer yet
    expect(page.locator(".tutor-finish")).to_contain_text("No question answered yet", timeout=LOAD_TIMEOUT_MS)
    open_lesson(page, voila_server, "flamme_rouge/00_welcome.ipynb", wait_for=".tutor-lesson-list")
    expect(page.locator("[data-lesson='flamme_rouge/04_slipstream.ipynb']")).to_have_text("opened")
    assert error_outputs(page) == [] and page_errors == []
