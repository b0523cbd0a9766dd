"""The page scrolls over a board (issue 37): a mouse wheel or a finger swiping over a board moves the page, as
anywhere else on it (ipycanvas' canvas catches the wheel and every touch and cancels them; no board here reads a
wheel or a drag), while a click or a tap on a board still acts where it points.

Checked in FR 05 (its quiz's board: a click on a rider ticks that rider) with a mouse on a laptop, and with a
finger on a phone held upright (390x844, a touch screen): Chromium's own input (a wheel over the board; a swipe
of touch points sent through the DevTools protocol, ``Input.dispatchTouchEvent``, as a touch screen sends them).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from voila_page import open_lesson, wait_for_all_painted, wait_for_canvases

pytestmark = pytest.mark.browser

LESSONS = Path(__file__).resolve().parents[2] / "lessons"
LAPTOP = {"width": 1366, "height": 680}
PHONE = {"width": 390, "height": 844}
WAIT_S = 30
NOTEBOOK = "flamme_rouge/05_exhaustion.ipynb"
# The element that scrolls the lesson (Voila's lab template scrolls a panel, not the window), and how far.
SCROLLED_JS = """() => { const s = [...document.querySelectorAll('*')].find(e => e.scrollHeight > e.clientHeight + 5
    && ['auto', 'scroll'].includes(getComputedStyle(e).overflowY));
    return (s ? s.scrollTop : 0) + window.scrollY; }"""
# The board's top put a quarter of the way down the window (the page scrolled there at once).
BOARD_IN_VIEW_JS = """(canvas) => { canvas.scrollIntoView({block: 'start'});
    const s = [...document.querySelectorAll('*')].find(e => e.scrollHeight > e.clientHeight + 5
        && ['auto', 'scroll'].includes(getComputedStyle(e).overflowY)) || document.scrollingElement;
    s.scrollTop -= window.innerHeight / 4; }"""


@contextmanager
def lesson(browser, base_url: str, size: dict, **options) -> Iterator:
    context = browser.new_context(viewport=size, **options)
    try:
        page = context.new_page()
        open_lesson(page, base_url, NOTEBOOK)
        wait_for_canvases(page)
        wait_for_all_painted(page)
        yield page
    finally:
        context.close()


def wait_until(read, done, message: str, timeout_s: float = WAIT_S):
    deadline = time.monotonic() + timeout_s
    while not done(value := read()):
        if time.monotonic() > deadline:
            raise AssertionError(f"{message}; last: {value!r}")
        time.sleep(0.1)
    return value


def quiz_and_rider(column: float | None = None):
    """The lesson's quiz made here (the same seeded position), laid out for a ``column`` as wide as the page's
    board (``Scene.fit_column``, as the page tells it), and a rider it shows: its name and centre."""
    from tutor.flamme_rouge.widgets import PredictQuiz

    cwd = os.getcwd()
    os.chdir(LESSONS / "flamme_rouge")
    try:
        quiz = PredictQuiz(
            ["scenarios/exhaustion_quiz_a.json", "scenarios/exhaustion_quiz_b.json"],
            ask="exhausted",
            question="After slipstream, which riders take an exhaustion card?",
        )
    finally:
        os.chdir(cwd)
    if column is not None:
        quiz.scene.fit_column(round(column))
    view = quiz.scene.view
    rider, (square, lane) = next((r, p) for r, p in sorted(quiz.race.positions().items()) if view.shows(p[0]))
    return quiz, rider, view.centre(square, lane)


def board_on_screen(page):
    widget = page.locator(".tutor-quiz").first
    canvas = widget.locator("canvas").first
    canvas.evaluate(BOARD_IN_VIEW_JS)
    box = wait_until(canvas.bounding_box, lambda b: b is not None and b["y"] > 0, "the board is not in view")
    return widget, canvas, box


def settled_scroll(page) -> float:
    def twice():
        first = page.evaluate(SCROLLED_JS)
        time.sleep(0.3)
        return first, page.evaluate(SCROLLED_JS)

    return wait_until(twice, lambda pair: pair[0] == pair[1], "the page never stopped scrolling")[1]


def test_a_mouse_wheel_over_a_board_scrolls_the_page_and_a_click_still_picks(browser, voila_server):
    quiz, rider, (x, y) = quiz_and_rider()
    with lesson(browser, voila_server, LAPTOP) as page:
        widget, canvas, box = board_on_screen(page)
        before = settled_scroll(page)
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + min(box["height"], 200) / 2)
        page.mouse.wheel(0, 240)
        after = wait_until(
            lambda: page.evaluate(SCROLLED_JS),
            lambda now: now > before + 100,
            f"a wheel over the board did not scroll the page (at {before:.0f} px)",
        )
        print(f"wheel over the board: the page scrolled from {before:.0f} to {after:.0f} px")
        box = canvas.bounding_box()
        k = box["width"] / quiz.scene.width
        page.mouse.click(box["x"] + x * k, box["y"] + y * k)
        ticked = widget.locator(".widget-checkbox", has_text=rider).locator("input")
        wait_until(ticked.is_checked, bool, f"a click on {rider} did not tick it")


def swipe(page, x: float, y: float, dy: float, steps: int = 8) -> None:
    """A finger put down at (x, y), moved up by ``dy`` in ``steps`` moves, and lifted."""
    cdp = page.context.new_cdp_session(page)
    point = {"x": x, "y": y, "id": 1, "radiusX": 4, "radiusY": 4, "force": 1}
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    for step in range(1, steps + 1):
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{**point, "y": y - dy * step / steps}]}
        )
        page.wait_for_timeout(16)  # a finger's pace: one move a frame (not a fixed wait for a state)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_a_finger_swiping_over_a_board_scrolls_the_page_and_a_tap_still_picks(browser, voila_server):
    with lesson(browser, voila_server, PHONE, has_touch=True, is_mobile=True, device_scale_factor=2) as page:
        widget, canvas, box = board_on_screen(page)
        assert box["width"] <= PHONE["width"]
        # the board laid out for the phone's column (drawn at its own size)
        wait_until(
            lambda: canvas.evaluate("(c) => c.width"),
            lambda pixels: pixels < 2 * 960,
            "the board was not laid out for the phone",
        )
        box = canvas.bounding_box()
        quiz, rider, (x, y) = quiz_and_rider(box["width"])
        before = settled_scroll(page)
        swipe(page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, 150)
        after = wait_until(
            lambda: page.evaluate(SCROLLED_JS),
            lambda now: now > before + 50,
            f"a swipe over the board did not scroll the page (at {before:.0f} px)",
        )
        print(f"swipe over the board: the page scrolled from {before:.0f} to {after:.0f} px")
        settled_scroll(page)
        box = canvas.bounding_box()
        if box["y"] < 0 or box["y"] + box["height"] > PHONE["height"]:
            box = board_on_screen(page)[2]
        k = box["width"] / quiz.scene.width
        page.touchscreen.tap(box["x"] + x * k, box["y"] + y * k)
        ticked = widget.locator(".widget-checkbox", has_text=rider).locator("input")
        wait_until(ticked.is_checked, bool, f"a tap on {rider} did not tick it")
