"""The In Flanders Field board in a real browser: it keeps up with quick clicks, every text on it is readable
(at least 11 CSS px at 1366 px, never squeezed), on a narrow page it shrinks to its column (nothing scrolls
sideways), and it draws at device pixel ratio 2.

Positions are checked with pixels read where the renderer's geometry puts the pawns and troop pieces, against
the same clicks replayed on the engine in this process (the lessons are seeded, so both games are the same).
Screenshots of the pages go to $FLANDERS_SCREENSHOTS when it names a folder (to look at them).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from test_flanders import LESSONS, close, laid_out, open_game, pixels, set_shuffle_number
from voila_page import error_outputs

from tests.lesson_cells import cell_widget

from tutor.flanders.widgets import GameTutor
from tutor.flanders.render import PLAYER_COLOURS, Geometry
from tutor.flanders.render.geometry import MIN_TEXT, NARROWEST, SCALE, WIDTH
from tutor.ui.drawing import hex_to_rgb

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("FLANDERS_SCREENSHOTS")

# Every fillText of every canvas context: the font size, the text's natural width, the max width it was given,
# the context's scale (2 on this board) and its canvas' pixel width.
RECORD_TEXT_JS = """
(() => {
  const original = CanvasRenderingContext2D.prototype.fillText;
  window.__texts = [];
  CanvasRenderingContext2D.prototype.fillText = function (text, x, y, maxWidth) {
    const size = parseFloat((this.font.match(/([\\d.]+)px/) || [0, 0])[1]);
    window.__texts.push({text: String(text), size: size, width: this.measureText(text).width,
                         max: (maxWidth === undefined || maxWidth === null) ? null : maxWidth,
                         scale: this.getTransform().a, pixels: this.canvas.width});
    return maxWidth === undefined ? original.call(this, text, x, y) : original.call(this, text, x, y, maxWidth);
  };
})();
"""


def shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


def board_box(page, index: int = 0) -> dict:
    return page.evaluate(
        """(i) => { const c = document.querySelectorAll('canvas')[i];
        const r = c.getBoundingClientRect(); return {x: r.x, width: r.width, pixels: c.width}; }""",
        index,
    )


def test_every_text_on_the_board_is_at_least_12_css_px_at_1366_px(browser, voila_server):
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    context.add_init_script(RECORD_TEXT_JS)
    page = context.new_page()
    try:
        tutor = open_game(page, voila_server, "03_push_your_luck.ipynb")
        tutor.get_by_role("button", name="Roll again").click()
        page.wait_for_function("() => window.__texts.some(t => t.text.startsWith('Step'))", timeout=15_000)
        texts = page.evaluate("window.__texts")
        box = board_box(page)
        assert box["width"] == WIDTH and box["pixels"] == WIDTH * SCALE  # full width, device pixel ratio 2
        # CSS px per canvas pixel of each board (a layer has its board's pixel width)
        css = {
            c["pixels"]: c["width"] / c["pixels"]
            for c in page.evaluate(
                "() => [...document.querySelectorAll('canvas')].map(c => ({pixels: c.width, "
                "width: c.getBoundingClientRect().width}))"
            )
        }
        shown = []
        for t in texts:
            if not t["text"].strip() or t["size"] == 0:
                continue
            squeeze = min(1.0, t["max"] / t["width"]) if t["max"] and t["width"] else 1.0
            shown.append((t["size"] * squeeze * t["scale"] * css[t["pixels"]], t["text"]))
        assert len(shown) > 150
        small = sorted(s for s in shown if s[0] < MIN_TEXT - 0.05)
        assert small == [], small[:10]
    finally:
        context.close()


@pytest.mark.parametrize("width", [800, 360])
def test_on_a_narrow_page_the_board_is_laid_out_for_its_column_and_nothing_scrolls_sideways(
    browser, voila_server, width
):
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        open_game(page, voila_server, "06_end_of_game.ipynb")
        geo = laid_out(page, 3)
        box = board_box(page)
        assert geo.width < Geometry(3).width and box["width"] < width  # laid out narrower for its column
        # drawn at its own size (its text at its size) down to the narrowest layout; a narrower column shrinks it
        assert box["pixels"] == geo.width * SCALE
        assert abs(box["width"] - geo.width) < 1 if geo.width > NARROWEST else box["width"] < geo.width, (box, geo)
        frame = page.evaluate("""() => { const f = document.querySelector('.tutor-flanders .tutor-board-frame');
            const r = f.getBoundingClientRect();
            return {left: r.x, right: r.x + r.width, scroll: f.scrollWidth, client: f.clientWidth}; }""")
        assert frame["left"] >= 0 and frame["right"] <= width and frame["scroll"] <= frame["client"], frame
        page_width = page.evaluate("() => document.scrollingElement.scrollWidth")
        assert page_width <= width, f"the page itself scrolls sideways ({page_width} px)"
        cut = page.evaluate("""() => [...document.querySelectorAll('.tutor-flanders button')]
            .filter(b => b.offsetWidth && (b.scrollWidth > b.clientWidth + 1
                                           || b.getBoundingClientRect().right > window.innerWidth))
            .map(b => b.innerText)""")
        assert cut == [], f"buttons cut or off the page: {cut}"  # controls wrap instead
        page.locator("canvas").first.scroll_into_view_if_needed()
        shot(page, f"flanders_board_{width}px")
        assert error_outputs(page) == []
    finally:
        context.close()


def lesson_tutor(notebook: str) -> GameTutor:
    """The lesson's first game widget, built as its notebook builds it."""
    tutor = cell_widget(LESSONS / notebook, "GameTutor")
    tutor.debounce_s = 0
    return tutor


def _replayed_game(notebook: str, clicks: list[str]):
    """The lesson's first board after ``clicks`` (button labels), played on the engine here."""
    tutor = lesson_tutor(notebook)
    buttons = {
        "Roll the dice": tutor.roll_button,
        "Roll again": tutor.roll_button,
        "Bots play ▸▸": tutor.finish_button,
        "Stop and carry out my cards": tutor.stop_button,
        "End turn": tutor.end_button,
        "Continue ▸": tutor.continue_button,
    }
    for label in clicks:
        target = buttons.get(label) or next(
            b for b in tutor.pair_buttons + tutor.play_buttons if b.description == label
        )
        target.click()
    return tutor.game


def test_after_quick_clicks_and_bots_play_the_board_matches_the_engine_within_a_second(page, page_errors, voila_server):
    """Lesson 2: the learner's whole turn clicked without waiting for any animation, then Bots play."""
    from playwright.sync_api import expect

    clicks = [
        "Roll the dice",
        "1 + 2 = 3: take Infantry",
        "Roll again",
        "1 + 6 = 7: take Machine Gun",
        "Stop and carry out my cards",
        "Play Infantry: move 1",
        "End turn",
        "Bots play ▸▸",
    ]
    game = _replayed_game("02_a_turn.ipynb", clicks)
    tutor = open_game(page, voila_server, "02_a_turn.ipynb")
    for label in clicks:  # Playwright clicks as soon as the button is enabled: no wait for the board
        if label == "Roll again":  # the roll button again: a second click within debounce_s is a double click
            page.wait_for_timeout(GameTutor.debounce_s * 1000 + 50)
        tutor.get_by_role("button", name=label, exact=True).first.click()
    # the bots' turns are replayed step by step: the prompt says "Your turn" when the replay ends
    expect(tutor.locator(".tutor-status")).to_contain_text("Your turn", timeout=90_000)
    answered = time.monotonic()
    geo = laid_out(page, len(game.players))
    points = [geo.pawn_centre(i, p.pawn) for i, p in enumerate(game.players)]
    points = [(x - 9, y) for x, y in points]  # left of the number, inside the pawn
    want = [hex_to_rgb(PLAYER_COLOURS[i]) for i in range(len(game.players))]
    while not all(close(a, b) for a, b in zip(pixels(page, 0, geo, points), want)) and time.monotonic() < answered + 5:
        page.wait_for_timeout(50)
    lag = time.monotonic() - answered
    found = pixels(page, 0, geo, points)
    assert all(close(a, b) for a, b in zip(found, want)), (found, [p.pawn for p in game.players])
    assert lag < 1.0, f"the board matched the engine {lag:.2f} s after the last answer"
    troops = [(i, k) for i, p in enumerate(game.players) for k in range(p.troops)]
    filled = pixels(page, 0, geo, [geo.troop_rect(i, k).centre for i, k in troops])
    assert all(close(f, hex_to_rgb("#222222")) for f in filled)
    print(
        f"board matched the engine {lag:.2f} s after the last click was answered; pawns "
        f"{[p.pawn for p in game.players]}"
    )
    assert error_outputs(page) == [] and page_errors == []


def test_screenshots_of_the_lesson_2_quiz_and_lesson_3_before_and_after_a_bust(page, voila_server):
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 1366, "height": 1000})
    open_game(page, voila_server, "02_a_turn.ipynb")
    quiz = page.locator(".tutor-quiz").first
    quiz.locator("canvas").scroll_into_view_if_needed()
    expect(quiz).not_to_contain_text("empty space")
    shot(page, "flanders_02_quiz")
    tutor = open_game(page, voila_server, "03_push_your_luck.ipynb")
    set_shuffle_number(tutor, 1)
    tutor.get_by_role("button", name="Restart").click()
    expect(tutor.locator(".iff-log")).to_contain_text("starting position")
    tutor.locator("canvas").scroll_into_view_if_needed()
    shot(page, "flanders_03_before_bust")
    tutor.get_by_role("button", name="Roll again").click()
    expect(tutor.get_by_role("button", name="Continue")).to_be_visible()
    geo = laid_out(page, 2)
    lost = geo.troop_rect(0, 4).centre
    deadline = time.monotonic() + 15
    while not close(pixels(page, 0, geo, [lost])[0], (198, 40, 40)) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    shot(page, "flanders_03_after_bust")
    assert error_outputs(page) == []
