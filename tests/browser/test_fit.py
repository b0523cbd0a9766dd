"""Boards that fit every screen (issue 28), checked in the real page at 768x950 (a tablet held upright) and at
1366x680 (a laptop, less the browser's bars):

- every game widget of every lesson: nothing past the page's sides, nothing scrolling sideways, the board as
  wide as its column at most (its pixels kept, its proportions kept), and from the top of its board to the
  bottom of the control it names next (its prompt row's first action) within the window's height;
- a click on a scaled board lands where the renderer's geometry says (both games' clickable boards), and a
  quiz's tick boxes sit by their own names;
- a Flanders card chosen at the bottom edge of the window is taken, and the page does not move under the
  pointer.
"""

from __future__ import annotations

import os
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest
from voila_page import error_outputs, open_lesson, wait_for_all_painted, wait_for_canvases

pytestmark = pytest.mark.browser

LESSONS = Path(__file__).resolve().parents[2] / "lessons"
TABLET, LAPTOP = {"width": 768, "height": 950}, {"width": 1366, "height": 680}
WIDGETS = ".tutor-race, .tutor-quiz, .tutor-breakaway, .tutor-flanders"
GAME_LESSONS = [f"{game}/{p.name}" for game in ("flamme_rouge", "flanders")
                for p in sorted((LESSONS / game).glob("[01][0-9]_*.ipynb")) if not p.name.startswith("00_")]
WAIT_S = 30

# For each game widget (not one inside another): what is past the page's sides or scrolls sideways, its boards'
# sizes, and the span from its board's top to the bottom of the first enabled action of its prompt row.
MEASURE_JS = """(selector) => {
  const width = document.documentElement.clientWidth, shown = e => e.getClientRects().length > 0
      && getComputedStyle(e).visibility !== 'hidden';
  return [...document.querySelectorAll(selector)].filter(w => !w.parentElement.closest(selector)).map(widget => {
    const past = [...widget.querySelectorAll('button, input, select, label, canvas, .widget-html-content')]
      .filter(e => shown(e) && !e.closest('.tutor-sr-only')).filter(e => {
        const r = e.getBoundingClientRect(); return r.width > 2 && (r.left < -1 || r.right > width + 1); })
      .map(e => (e.innerText || e.value || e.tagName).trim().slice(0, 30));
    const sideways = [widget, ...widget.querySelectorAll('*')].filter(e => e.scrollWidth > e.clientWidth + 1
      && ['auto', 'scroll'].includes(getComputedStyle(e).overflowX)).map(e => e.className.slice(0, 40));
    const boards = [...widget.querySelectorAll('canvas')].filter(shown).map(c => {
      const r = c.getBoundingClientRect(), column = c.parentElement.closest('.widget-box, .widget-vbox,'
        + ' .widget-hbox, .jp-OutputArea-output').getBoundingClientRect();
      return {css: r.width, pixels: c.width, ratio: (r.height / r.width) / (c.height / c.width),
              column: column.width};
    });
    const board = widget.querySelector('canvas') || widget;  // the energy quiz shows its cards as a table
    const next = [...widget.querySelectorAll('.tutor-prompt-row button')].find(b => !b.disabled && shown(b));
    const top = board.getBoundingClientRect().top;
    return {kind: widget.className.match(/tutor-(race|quiz|breakaway|flanders)/)[1], past, sideways, boards,
            next: next ? next.innerText.trim().slice(0, 30) : null,
            span: next ? Math.round(next.getBoundingClientRect().bottom - top) : null};
  });
}"""
PAGE_WIDTH_JS = "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
# The element that scrolls the lesson (Voila's lab template scrolls a panel, not the window).
SCROLLER_JS = """() => { const s = [...document.querySelectorAll('*')].find(e => e.scrollHeight > e.clientHeight + 5
    && ['auto', 'scroll'].includes(getComputedStyle(e).overflowY)); s.dataset.tutorScroller = ''; }"""


@contextmanager
def lesson(browser, base_url: str, notebook: str, size: dict) -> Iterator:
    context = browser.new_context(viewport=size)
    try:
        page = context.new_page()
        open_lesson(page, base_url, notebook)
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


def settled_measure(page) -> list[dict]:
    """The widgets measured once their layout has settled (Lumino lays the page out again after a resize)."""
    def twice() -> tuple[list[dict], list[dict]]:
        first = page.evaluate(MEASURE_JS, WIDGETS)
        time.sleep(0.3)
        return first, page.evaluate(MEASURE_JS, WIDGETS)
    return wait_until(twice, lambda pair: pair[0] == pair[1], "the layout never settled")[1]


def check_fits(page, size: dict, notebook: str) -> list[dict]:
    measured = settled_measure(page)
    print(notebook, size["width"], [(m["kind"], m["span"], m["next"], [round(b["css"]) for b in m["boards"]])
                                    for m in measured])
    scroll_width, client_width = page.evaluate(PAGE_WIDTH_JS)
    assert scroll_width <= client_width, f"the page scrolls sideways: {scroll_width} > {client_width}"
    assert measured, "no game widget"
    for widget in measured:
        assert widget["past"] == [], f"{widget['kind']}: past the page's sides: {widget['past']}"
        assert widget["sideways"] == [], f"{widget['kind']}: scrolls sideways: {widget['sideways']}"
        for board in widget["boards"]:
            assert board["css"] <= board["column"] + 1, board  # as wide as its column at most
            assert board["css"] <= board["pixels"] / 2 + 1, board  # never blown up past its own size
            assert abs(board["ratio"] - 1) < 0.02, board  # its proportions kept
        if widget["span"] is not None:  # the board and the control it names next on one screen
            assert widget["span"] <= size["height"], widget
    return measured


@pytest.mark.parametrize("notebook", GAME_LESSONS, ids=lambda n: n.replace(".ipynb", "")[:15])
def test_every_game_widget_fits_a_tablet_and_a_laptop(browser, voila_server, notebook):
    """One page per lesson, measured at 768x950 and again at 1366x680 (the page resized)."""
    with lesson(browser, voila_server, notebook, TABLET) as page:
        tablet = check_fits(page, TABLET, notebook)
        page.set_viewport_size(LAPTOP)
        page.wait_for_function("(w) => document.documentElement.clientWidth === w", arg=LAPTOP["width"])
        laptop = check_fits(page, LAPTOP, notebook)
        # The boards follow the column: narrower on the tablet, at their own size (or nearly) on the laptop.
        for small, large in zip(tablet, laptop):
            for a, b in zip(small["boards"], large["boards"]):
                assert a["css"] <= b["css"] and a["css"] >= TABLET["width"] * 0.4, (a, b)
        assert error_outputs(page) == []


@pytest.mark.parametrize("size", [TABLET, LAPTOP], ids=["768", "1366"])
def test_a_flanders_card_chosen_at_the_bottom_edge_of_the_window_is_taken_and_the_page_stays(
        browser, voila_server, size):
    from test_flanders_board import lesson_tutor

    from tutor.flanders.render import Geometry

    tutor = lesson_tutor("03_push_your_luck.ipynb")
    tutor.roll_button.click()  # the browser's game is dealt and rolled the same way (a seeded game)
    space = tutor.game.offered()[-1]
    with lesson(browser, voila_server, "flanders/03_push_your_luck.ipynb", size) as page:
        widget = page.locator(".tutor-flanders").first
        status = widget.locator(".tutor-live-status")
        widget.get_by_role("button", name="Roll again").click()
        wait_until(status.inner_text, lambda t: "rolls" in t, "the roll was not told")
        page.evaluate(SCROLLER_JS)
        scroller = page.locator("[data-tutor-scroller]")
        canvas = widget.locator("canvas").first
        geometry = Geometry(len(tutor.game.players))

        def card_box() -> dict:
            board = canvas.bounding_box()
            k = board["width"] / geometry.width  # the board's CSS scale: the same one its clicks map through
            r = geometry.space_rect(space)
            return {"x": board["x"] + r.x * k, "y": board["y"] + r.y * k, "w": r.w * k, "h": r.h * k}

        card = card_box()  # the window made as tall as the card's bottom, and 6 px: the card at its edge
        height = round(card["y"] + card["h"] + 6)
        page.set_viewport_size({"width": size["width"], "height": height})
        page.wait_for_function("(h) => window.innerHeight === h", arg=height)
        card = card_box()
        assert height - 20 < card["y"] + card["h"] <= height, (card, height)
        assert canvas.bounding_box()["y"] + canvas.bounding_box()["height"] > height  # the board goes on below
        before = scroller.evaluate("(s) => s.scrollTop")
        page.evaluate("""(s) => { window.tutorScrolls = []; s.addEventListener('scroll',
            () => window.tutorScrolls.push(s.scrollTop)); }""", scroller.element_handle())
        page.mouse.click(card["x"] + card["w"] / 2, card["y"] + card["h"] - 10)
        told = wait_until(status.inner_text, lambda t: "takes" in t, "the card was not taken")
        assert f"= {space} and takes" in told, told
        widget.get_by_role("button", name="Stop and carry out my cards").wait_for()
        wait_until(lambda: page.evaluate("document.activeElement.innerText || ''"), lambda t: "Roll again" in t,
                   "focus did not follow play to Roll again")
        assert page.evaluate("window.tutorScrolls") == [], "the page moved under the pointer"
        assert scroller.evaluate("(s) => s.scrollTop") == before
        print(f"{size['width']}x{height}: space {space} taken at the window's bottom edge, page still at "
              f"{before:.0f} px")


def test_a_click_on_a_scaled_flamme_rouge_board_picks_the_rider_under_it(browser, voila_server):
    """FR 05's quiz at 768 px (its board about 0.78 of its size): a click on a rider ticks that rider; each tick
    box sits by its own name, not halfway between two."""
    from tutor.flamme_rouge.widgets import PredictQuiz

    cwd = os.getcwd()
    os.chdir(LESSONS / "flamme_rouge")
    try:
        quiz = PredictQuiz(["scenarios/exhaustion_quiz_a.json", "scenarios/exhaustion_quiz_b.json"],
                           ask="exhausted", question="After slipstream, which riders take an exhaustion card?")
    finally:
        os.chdir(cwd)
    view = quiz.scene.view
    rider, (square, lane) = next((r, p) for r, p in sorted(quiz.race.positions().items()) if view.shows(p[0]))
    with lesson(browser, voila_server, "flamme_rouge/05_exhaustion.ipynb", TABLET) as page:
        widget = page.locator(".tutor-quiz").first
        widget.scroll_into_view_if_needed()
        board = widget.locator("canvas").first.bounding_box()
        k = board["width"] / quiz.scene.width
        assert k < 0.9, f"the board is not scaled down at 768 px: {board}"
        x, y = view.centre(square, lane)
        page.mouse.click(board["x"] + x * k, board["y"] + y * k)
        box = widget.locator(".widget-checkbox", has_text=rider).locator("input")
        wait_until(box.is_checked, bool, f"a click on {rider} did not tick it")
        others = widget.locator(".widget-checkbox input:checked")
        assert others.count() == 1
        # Each tick box sits by its own name: the gap to it is less than half the gap to the name before it.
        gaps = widget.evaluate("""(w) => [...w.querySelectorAll('.widget-checkbox')].map(c => {
            const box = c.querySelector('input').getBoundingClientRect(), name = c.querySelector('span')
            .getBoundingClientRect(); return [box.left, box.right, name.left, name.right]; })""")
        pairs = [(b, a) for b, a in zip(gaps, gaps[1:]) if a[0] > b[3]]  # on one line (not wrapped)
        assert pairs
        for (_, _, _, before_right), (left, right, name_left, _) in pairs:
            assert name_left - right < (left - before_right) / 2, gaps
