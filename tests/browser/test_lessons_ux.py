"""Issue 7 in a real browser: the lessons as an app, a quiz answered on the board, the log after a double click,
and the board at 800 px and on a 2x screen."""

from __future__ import annotations

import re

import pytest
from voila_page import (
    KERNEL_ACTIVITY_JS,
    LOAD_TIMEOUT_MS,
    canvas_fingerprint,
    error_outputs,
    kernel_activity,
    open_lesson,
    wait_for_canvas_change,
    wait_for_paint,
)

from tutor.flamme_rouge import scenario
from tutor.flamme_rouge.render import Scene
from tutor.ui.lessons import lessons_in
from tutor.ui.shell import LessonShell
from test_lessons import LESSONS, open_race

pytestmark = pytest.mark.browser

QUIZ_LESSON = "flamme_rouge/03_movement.ipynb"
"""Its second quiz asks where red-R ends (scenarios/movement_fall_back_twice.json): square 12."""


def test_the_landing_page_lists_every_lesson_by_title_in_order_with_summaries_and_progress(
    page, page_errors, voila_server
):
    from playwright.sync_api import expect

    open_lesson(page, voila_server, "index.ipynb", wait_for="a[href$='.ipynb']")
    expected = [lesson.title for lesson in lessons_in(LESSONS)]
    titles = page.locator(".tutor-lesson-list a[href^='flamme_rouge/']").all_inner_texts()
    assert titles == expected
    assert page.locator("a[href*='scenarios']").count() == 0
    lesson_list = page.locator(".tutor-lesson-list").first.inner_text()
    assert "a rider alone on a square takes the right-hand lane" in lesson_list
    badge = page.locator("[data-lesson='flamme_rouge/01_track_and_setup.ipynb']")
    expect(badge).to_have_text("not started")  # filled in by the page's script from localStorage
    assert page.title() == "Rules tutor: lessons"
    # A lesson visited, its questions not answered yet, is "opened" on the landing page, in the same browser.
    page.get_by_role("link", name="5. Exhaustion").click()
    expect(page.locator(".tutor-nav").first).to_be_visible(timeout=LOAD_TIMEOUT_MS)
    assert page.title().startswith("5. Exhaustion")
    nav = page.locator(".tutor-nav")
    assert nav.get_by_role("link", name=re.compile("4. Slipstream")).count() == 1
    assert nav.get_by_role("link", name=re.compile("6. Mountains")).count() == 1
    # The page counts its quizzes once they are drawn (left sooner, lessons.py would count none: "finished").
    expect(page.locator(".tutor-quiz").first).to_be_visible(timeout=LOAD_TIMEOUT_MS)
    page.wait_for_function(  # the page's progress script has recorded the visit and the lesson's quizzes
        "() => { const s = JSON.parse(localStorage.getItem('rules-tutor-progress') || '{}');"
        " const e = s['flamme_rouge/05_exhaustion.ipynb']; return !!(e && e.visited && e.total > 0); }",
        timeout=30_000,
    )
    nav.get_by_role("link", name=re.compile("All lessons")).click()
    expect(page.locator("[data-lesson='flamme_rouge/05_exhaustion.ipynb']")).to_contain_text(
        "opened", timeout=LOAD_TIMEOUT_MS
    )
    assert error_outputs(page) == [] and page_errors == []


def test_a_quiz_is_answered_by_clicking_the_board_and_scored_in_the_browser(page, page_errors, voila_server):
    from playwright.sync_api import expect

    open_lesson(page, voila_server, QUIZ_LESSON)
    quiz = page.locator(".tutor-quiz").nth(1)
    wait_for_paint(page, index=2)
    canvas = quiz.locator("canvas")
    canvas.scroll_into_view_if_needed()
    view = Scene(scenario.build(scenario.load(LESSONS / "scenarios/movement_fall_back_twice.json")).track).view
    box = canvas.bounding_box()
    scale = box["width"] / view.width  # the board may be drawn narrower than its full width
    before = canvas_fingerprint(page)
    page.mouse.click(box["x"] + view.cx(12) * scale, box["y"] + view.cy(0) * scale)
    expect(quiz.locator("select")).to_have_value(re.compile(r"\d+"))
    expect(quiz.locator(".tutor-status")).to_contain_text("Your answer: square 12")
    assert wait_for_canvas_change(page, before) != before, "the guess is not outlined on the board"
    quiz.get_by_role("button", name="Reveal").click()
    expect(quiz.locator(".widget-html", has_text="The rule that decided it")).to_contain_text(
        "Right! red-R ends on square 12"
    )
    stored = page.wait_for_function(
        "() => { const s = JSON.parse(localStorage.getItem('rules-tutor-progress') || '{}');"
        " const e = s['flamme_rouge/03_movement.ipynb']; return e && Object.keys(e.quizzes).length ? e : null; }",
        timeout=30_000,
    ).json_value()
    assert list(stored["quizzes"].values()) == [True] and stored["total"] == 2
    assert error_outputs(page) == [] and page_errors == []


def test_a_double_click_runs_one_step_and_the_log_keeps_every_step(page, page_errors, voila_server):
    from playwright.sync_api import expect

    page.add_init_script(KERNEL_ACTIVITY_JS)  # counts the kernel's busy and idle messages
    race = open_race(page, voila_server, "flamme_rouge/03_movement.ipynb")
    log = race.locator(".tutor-log")
    page.wait_for_function("() => window.tutorWalkKernel.state === 'idle'", timeout=30_000)  # the page has loaded
    busy = kernel_activity(page)["busy"]
    race.get_by_role("button", name="Next step").dblclick()
    expect(log).to_contain_text("green-S moves 2 squares")
    # The kernel has handled both clicks (a busy and an idle around each) before the log is read again.
    page.wait_for_function(
        "(n) => window.tutorWalkKernel.busy >= n + 2 && window.tutorWalkKernel.state === 'idle'",
        arg=busy,
        timeout=30_000,
    )
    assert "blue-S moves" not in log.inner_text(), "a double click ran two steps"
    # A person's next click: a click within debounce_s of the last one's end would be the same double click.
    page.wait_for_timeout(LessonShell.debounce_s * 1000 + 50)
    race.get_by_role("button", name="Next step").click()
    expect(log).to_contain_text("blue-S moves 5 squares")
    text = log.inner_text()
    assert "green-S moves 2 squares" in text  # the first step is still in the log
    assert text.count("a rider moves exactly the value of its card") == 1  # each rule once in a round
    assert error_outputs(page) == [] and page_errors == []


@pytest.mark.parametrize("width, ratio", [(800, 1), (1280, 2)], ids=["800px", "dpr2"])
def test_the_board_fits_the_page_and_is_drawn_at_the_screens_pixel_ratio(browser, voila_server, width, ratio):
    context = browser.new_context(viewport={"width": width, "height": 800}, device_scale_factor=ratio)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        race = open_race(page, voila_server, "flamme_rouge/02_energy_phase.ipynb")
        canvas = race.locator("canvas").first
        box = canvas.bounding_box()
        size = page.evaluate(
            "(c) => [c.width, c.height, document.documentElement.scrollWidth]", canvas.element_handle()
        )
        frame = race.locator(".tutor-board-frame").first.bounding_box()
        # Issue 28: the board is as wide as its column (never wider), scaled down as a whole, with nothing to
        # scroll sideways (tests/browser/test_fit.py checks its text size and where clicks land).
        assert frame["x"] >= 0 and frame["x"] + frame["width"] <= width, "the board's frame overflows the page"
        assert abs(box["width"] - frame["width"]) <= 2, "the board does not follow its column"
        assert size[2] <= width, "the page scrolls sideways"
        # The canvas holds at least as many pixels as the screen shows: sharp on a 2x screen.
        assert size[0] >= box["width"] * ratio - 1 and size[1] >= box["height"] * ratio - 1
        assert abs(size[0] / size[1] - box["width"] / box["height"]) < 0.02, "the board is stretched"
        assert error_outputs(page) == [] and errors == []
    finally:
        context.close()


def test_the_top_of_the_site_opens_the_landing_page_not_a_file_list(page, page_errors, voila_server):
    """The served folder's root redirects to lessons/index.ipynb (the Voila template), so no learner sees the raw
    file tree with its scenarios folder."""
    page.goto(voila_server + "/", timeout=LOAD_TIMEOUT_MS)
    page.wait_for_url(re.compile(r".*/voila/render/index\.ipynb\??$"), timeout=LOAD_TIMEOUT_MS)
    page.wait_for_selector(".tutor-lesson-list", timeout=LOAD_TIMEOUT_MS)
    assert page.title() == "Rules tutor: lessons"
    assert page_errors == []
