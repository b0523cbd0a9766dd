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

from tutor.flamme_rouge.render.cards import MIN_TEXT
from tutor.flanders.render.geometry import MIN_TEXT as FLANDERS_MIN_TEXT

pytestmark = pytest.mark.browser

LESSONS = Path(__file__).resolve().parents[2] / "lessons"
TABLET, LAPTOP = {"width": 768, "height": 950}, {"width": 1366, "height": 680}
PHONE = {"width": 390, "height": 844}
"""A phone held upright."""
MIN_TEXT_PX = 12
"""No text a learner reads (the page's and the words painted on a board) is smaller, in CSS pixels."""
assert min(MIN_TEXT, FLANDERS_MIN_TEXT) >= MIN_TEXT_PX  # the renderers' own smallest text
MIN_BOARD_TEXT_PX = {"flanders/": FLANDERS_MIN_TEXT, "flamme_rouge/": MIN_TEXT}
"""No word painted on a board is smaller on the page: its renderer's smallest size (both games' ``MIN_TEXT``, 12
px); each board is laid out for its column and drawn at its own size on a phone and a tablet, and at most at its
own size above."""
MIN_TARGET_PX = 24
"""Every control is at least this wide and high (WCAG 2.5.8, target size)."""
WIDGETS = ".tutor-race, .tutor-quiz, .tutor-breakaway, .tutor-flanders"
GAME_LESSONS = [
    f"{game}/{p.name}"
    for game in ("flamme_rouge", "flanders")
    for p in sorted((LESSONS / game).glob("[01][0-9]_*.ipynb"))
    if not p.name.startswith("00_")
]
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
      return {css: r.width, pixels: c.width, height: c.height, ratio: (r.height / r.width) / (c.height / c.width),
              column: column.width};
    });
    const board = widget.querySelector('canvas') || widget;  // the energy quiz shows its cards as a table
    const next = [...widget.querySelectorAll('.tutor-prompt-row button')].find(b => !b.disabled && shown(b));
    const top = board.getBoundingClientRect().top, shownBoards = [...widget.querySelectorAll('canvas')].filter(shown);
    const lastTop = (shownBoards[shownBoards.length - 1] || board).getBoundingClientRect().top;
    return {kind: widget.className.match(/tutor-(race|quiz|breakaway|flanders)/)[1], past, sideways, boards,
            next: next ? next.innerText.trim().slice(0, 30) : null,
            span: next ? Math.round(next.getBoundingClientRect().bottom - top) : null,
            last_span: next ? Math.round(next.getBoundingClientRect().bottom - lastTop) : null};
  });
}"""
# What a learner reads and taps in each game widget (not one inside another): text smaller than MIN_TEXT_PX
# (getComputedStyle) and tap targets smaller than MIN_TARGET_PX either way (getBoundingClientRect; a tick box's
# target is its label, which ipywidgets wraps around it; a link inside a sentence is exempt, WCAG 2.5.8).
READ_AND_TAP_JS = """([selector, minText, minTarget]) => {
  const shown = e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden'
      && !e.closest('.tutor-sr-only');
  return [...document.querySelectorAll(selector)].filter(w => !w.parentElement.closest(selector)).map(widget => {
    const small = [...widget.querySelectorAll('*')].filter(e => shown(e) && [...e.childNodes].some(n =>
        n.nodeType === 3 && n.textContent.trim())).map(e => [e.innerText.trim().slice(0, 30),
        parseFloat(getComputedStyle(e).fontSize)]).filter(([text, size]) => text && size < minText - 0.01);
    const targets = [...widget.querySelectorAll('button, select, input:not([type=checkbox]):not([type=radio]),'
        + ' .widget-checkbox label, .widget-radio-box label, summary, a[href]')].filter(e => shown(e)
        && !(e.matches('a') && e.closest('p, li, td'))).map(e => { const r = e.getBoundingClientRect();
        return [(e.innerText || e.value || e.tagName).trim().slice(0, 30), Math.round(r.width), Math.round(r.height)];
      }).filter(([, w, h]) => w < minTarget - 0.5 || h < minTarget - 0.5);
    return {small, targets};
  });
}"""
# Every fillText of every canvas context (recorded from the page's start): its font size, the width it would take
# and the width it was squeezed to, the context's scale and its canvas' pixel width (a layer of a board has its
# board's pixel width: ipycanvas paints each layer on a canvas of its own and copies it onto the board's).
RECORD_TEXT_JS = """(() => {
  const original = CanvasRenderingContext2D.prototype.fillText;
  window.__texts = new Map();
  CanvasRenderingContext2D.prototype.fillText = function (text, x, y, maxWidth) {
    const size = parseFloat((this.font.match(/([\\d.]+)px/) || [0, 0])[1]), width = this.measureText(text).width;
    const squeeze = maxWidth > 0 && width > maxWidth ? maxWidth / width : 1;
    const key = `${text}|${this.canvas.width}`, shown = size * squeeze * this.getTransform().a;
    if (String(text).trim() && (!window.__texts.has(key) || window.__texts.get(key).shown > shown))
      window.__texts.set(key, {text: String(text), shown, pixels: this.canvas.width});
    return maxWidth === undefined ? original.call(this, text, x, y) : original.call(this, text, x, y, maxWidth);
  };
})();"""
# The smallest text painted on each board, in CSS pixels on the page: its size in canvas pixels times the board's
# CSS scale (its CSS width over its pixel width), with the texts painted since the board took its pixel width.
CANVAS_TEXT_JS = """(selector) => {
  const scale = new Map([...document.querySelectorAll('canvas')].filter(c => c.closest(selector)
      && c.getClientRects().length)
      .map(c => [c.width, c.getBoundingClientRect().width / c.width]));
  return [...window.__texts.values()].filter(t => scale.has(t.pixels)).map(t => [t.text.slice(0, 30),
      Math.round(t.shown * scale.get(t.pixels) * 10) / 10]).sort((a, b) => a[1] - b[1]);
}"""
PAGE_WIDTH_JS = "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
# The element that scrolls the lesson (Voila's lab template scrolls a panel, not the window).
SCROLLER_JS = """() => { const s = [...document.querySelectorAll('*')].find(e => e.scrollHeight > e.clientHeight + 5
    && ['auto', 'scroll'].includes(getComputedStyle(e).overflowY)); s.dataset.tutorScroller = ''; }"""


@contextmanager
def lesson(browser, base_url: str, notebook: str, size: dict) -> Iterator:
    context = browser.new_context(viewport=size)
    context.add_init_script(RECORD_TEXT_JS)
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
    print(
        notebook,
        size["width"],
        [(m["kind"], m["span"], m["next"], [round(b["css"]) for b in m["boards"]]) for m in measured],
    )
    if os.environ.get("TUTOR_SHOTS"):  # screenshots to look at: TUTOR_SHOTS=/tmp/phone-shots
        Path(os.environ["TUTOR_SHOTS"]).mkdir(parents=True, exist_ok=True)
        for k, widget in enumerate(page.locator(WIDGETS).all()[:3]):
            widget.screenshot(
                path=f"{os.environ['TUTOR_SHOTS']}/{notebook.replace('/', '-')[:-6]}-{size['width']}-{k}.png"
            )
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
            # (a phone shows a quiz's two boards one under the other: the second one and what comes next; and of
            # an In Flanders Field board, taller than a phone, what the learner acts on: from its card grid, with
            # the dice, the odds and the cards held under it, to what comes next)
            span = widget["last_span"] if size == PHONE else widget["span"]
            if size == PHONE and widget["kind"] in ("flanders", "quiz") and notebook.startswith("flanders/"):
                span -= flanders_grid_top(widget["boards"][-1])
            assert span <= size["height"], widget
    for widget in page.evaluate(READ_AND_TAP_JS, [WIDGETS, MIN_TEXT_PX, MIN_TARGET_PX]):
        assert widget["small"] == [], f"text smaller than {MIN_TEXT_PX} px: {widget['small'][:8]}"
        assert widget["targets"] == [], f"targets smaller than {MIN_TARGET_PX} px: {widget['targets'][:8]}"
    painted = page.evaluate(CANVAS_TEXT_JS, WIDGETS)
    print("smallest words on the boards:", painted[:3])
    least = next(px for game, px in MIN_BOARD_TEXT_PX.items() if notebook.startswith(game))
    small = [t for t in painted if t[1] < least - 0.05]
    assert small == [], f"words on a board smaller than {least} px: {small[:8]}"
    return measured


def flanders_geometry(board: dict):
    """The In Flanders Field ``Geometry`` a board was laid out with, found from its canvas's pixel size (None:
    a compact quiz board, whose grid is its top)."""
    from tutor.flanders.render import Geometry
    from tutor.flanders.render.geometry import SCALE

    return next(
        (
            g
            for g in (
                Geometry(players, odds=odds).fit(board["pixels"] / SCALE)
                for players in (2, 3, 4)
                for odds in (True, False)
            )
            if (g.width * SCALE, g.height * SCALE) == (board["pixels"], board["height"])
        ),
        None,
    )


def flanders_grid_top(board: dict) -> float:
    """How far below a Flanders board's top its card grid starts, in CSS px on the page."""
    geometry = flanders_geometry(board)
    return 0 if geometry is None else (geometry.grid_y - 24) * board["css"] / geometry.width


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


@pytest.mark.parametrize("notebook", GAME_LESSONS, ids=lambda n: n.replace(".ipynb", "")[:15])
def test_every_game_widget_fits_a_phone_held_upright(browser, voila_server, notebook):
    with lesson(browser, voila_server, notebook, PHONE) as page:
        check_fits(page, PHONE, notebook)
        assert error_outputs(page) == []


@pytest.mark.parametrize("size", [PHONE, TABLET, LAPTOP], ids=["390", "768", "1366"])
def test_a_flanders_card_chosen_at_the_bottom_edge_of_the_window_is_taken_and_the_page_stays(
    browser, voila_server, size
):
    from test_flanders_board import lesson_tutor

    from tutor.flanders.render import Geometry
    from tutor.flanders.render.geometry import SCALE

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

        def card_box() -> dict:
            board = canvas.bounding_box()
            # The board laid out for its column (its pixel width: Board.fit_column), drawn at its own size.
            geometry = Geometry(len(tutor.game.players)).fit(canvas.evaluate("(c) => c.width") / SCALE)
            k = board["width"] / geometry.width  # the board's CSS scale: the same one its clicks map through
            assert abs(k - 1) < 0.01, f"the board is not drawn at its own size: {board}, {geometry.width}"
            print(
                f"{size['width']} px: board laid out {geometry.width} px, card {space} at", geometry.space_rect(space)
            )
            r = geometry.space_rect(space)
            return {"x": board["x"] + r.x * k, "y": board["y"] + r.y * k, "w": r.w * k, "h": r.h * k}

        card = card_box()  # on a phone the card may be out of view: the page scrolled to show it (a child would)
        scroller.evaluate("(s, by) => { s.scrollTop += by; }", round(card["y"] + card["h"] - 500))
        card = card_box()  # the window made as tall as the card's bottom, and 6 px: the card at its edge
        height = round(card["y"] + card["h"] + 6)
        page.set_viewport_size({"width": size["width"], "height": height})
        page.wait_for_function("(h) => window.innerHeight === h", arg=height)
        card = card_box()
        assert height - 20 < card["y"] + card["h"] <= height, (card, height)
        assert canvas.bounding_box()["y"] + canvas.bounding_box()["height"] > height  # the board goes on below
        before = scroller.evaluate("(s) => s.scrollTop")
        page.evaluate(
            """(s) => { window.tutorScrolls = []; s.addEventListener('scroll',
            () => window.tutorScrolls.push(s.scrollTop)); }""",
            scroller.element_handle(),
        )
        page.mouse.click(card["x"] + card["w"] / 2, card["y"] + card["h"] - 10)
        told = wait_until(status.inner_text, lambda t: "takes" in t, "the card was not taken")
        assert f"= {space} and takes" in told, told
        widget.get_by_role("button", name="Stop and carry out my cards").wait_for()
        wait_until(
            lambda: page.evaluate("document.activeElement.innerText || ''"),
            lambda t: "Roll again" in t,
            "focus did not follow play to Roll again",
        )
        assert page.evaluate("window.tutorScrolls") == [], "the page moved under the pointer"
        assert scroller.evaluate("(s) => s.scrollTop") == before
        print(
            f"{size['width']}x{height}: space {space} taken at the window's bottom edge, page still at {before:.0f} px"
        )


def test_a_click_on_a_scaled_flamme_rouge_board_picks_the_rider_under_it(browser, voila_server):
    """FR 05's quiz at 768 px (its board laid out for its column, drawn at its own size): a click on a rider
    ticks that rider; each tick box sits by its own name, not halfway between two."""
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
    with lesson(browser, voila_server, "flamme_rouge/05_exhaustion.ipynb", TABLET) as page:
        widget = page.locator(".tutor-quiz").first
        widget.scroll_into_view_if_needed()
        canvas = widget.locator("canvas").first
        wait_until(
            lambda: canvas.evaluate("(c) => c.width"),
            lambda pixels: pixels < 2 * 960,
            "the board was not laid out for its column at 768 px",
        )
        board = canvas.bounding_box()
        quiz.scene.fit_column(round(board["width"]))  # the same layout here (the page told its board so)
        view = quiz.scene.view
        rider, (square, lane) = next((r, p) for r, p in sorted(quiz.race.positions().items()) if view.shows(p[0]))
        k = board["width"] / quiz.scene.width
        assert view.width < 960 and abs(k - 1) < 0.01, f"the board is not drawn at its own size: {board}"
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


# A results table as it reads: its width and the width its content takes on one line (max-content), the page's
# width, and the cells whose text is cut (wider than the cell).
RESULTS_JS = """(table) => {
  const shown = table.getBoundingClientRect().width, saved = table.style.width;
  table.style.width = 'max-content';
  const content = table.getBoundingClientRect().width;
  table.style.width = saved;
  const cut = [...table.querySelectorAll('th, td')].filter(c => c.scrollWidth > c.clientWidth + 1)
      .map(c => c.innerText.trim());
  return {shown, content, page: document.documentElement.clientWidth, cut,
          font: parseFloat(getComputedStyle(table.querySelector('td')).fontSize)};
}"""


PRESS_NEXT_JS = """(widget) => {
  const next = [...widget.querySelectorAll('.tutor-prompt-row button')]
    .find(b => !b.disabled && b.getClientRects().length > 0);
  if (next) next.click();
  return next ? next.innerText : null;
}"""
"""Press the first control shown and enabled in the prompt row; its words (null: there was none)."""


@pytest.mark.parametrize("size", [PHONE, TABLET, LAPTOP], ids=["390", "768", "1366"])
def test_the_flanders_results_table_reads_at_every_width(browser, voila_server, size):
    """Flanders 06 played to its end by pressing what the lesson names next (no animation): its results table
    is as wide as its content on one line when the page has the room (1366: it was squeezed into the panel
    beside the board), else as wide as the page with every word whole, its text at least 12 px."""
    from voila_page import KERNEL_ACTIVITY_JS, kernel_activity

    context = browser.new_context(viewport=size)
    context.add_init_script(KERNEL_ACTIVITY_JS)
    try:
        page = context.new_page()
        open_lesson(page, voila_server, "flanders/06_end_of_game.ipynb")
        wait_for_canvases(page)
        widget = page.locator(".tutor-flanders").first
        widget.locator(".tutor-motion input").check()
        table = widget.locator(".iff-results table")
        for presses in range(120):
            if table.count():
                break
            idle = kernel_activity(page)["idle"]
            # found and pressed in one step: the page may still be taking in the last answer, and a control found
            # first could be gone by the time it is clicked (a press that comes too late only gets a warning)
            assert widget.evaluate(PRESS_NEXT_JS), "nothing left to press, and no results"
            wait_until(
                lambda: kernel_activity(page),
                lambda k: k["idle"] > idle and k["state"] == "idle",
                "the kernel did not answer a press",
            )
        assert table.count(), "the game did not end"
        read = table.evaluate(RESULTS_JS)
        print(f"{size['width']} px: results after {presses} presses: {read}")
        assert read["cut"] == [], read
        assert read["shown"] <= read["page"], read
        assert read["shown"] >= min(read["content"], read["page"] - 40) - 1, read  # not squeezed narrower
        assert read["font"] >= MIN_TEXT_PX
        assert error_outputs(page) == []
    finally:
        context.close()
