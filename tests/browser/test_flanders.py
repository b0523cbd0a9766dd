"""In Flanders Field lessons in a real browser: every page paints what the engine says, the dice, the cards,
a bust, the live odds and a whole game answer real clicks.

Pixels are read where the renderer's own geometry (``tutor.flanders.render.Geometry``) puts the pawns, dice,
cards and odds bar, and compared with the engine's position, so a blank or misplaced board fails.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from voila_page import (
    ERROR_SELECTOR,
    LOAD_TIMEOUT_MS,
    canvas_fingerprint,
    error_outputs,
    open_lesson,
    wait_for_all_painted,
    wait_for_canvas_change,
    wait_for_canvases,
    wait_for_no_animation,
)

from tutor.flanders.render import PLAYER_COLOURS, Geometry
from tutor.flanders.render.geometry import BRITISH_FILL, LOST, SCALE
from tutor.ui.drawing import hex_to_rgb

pytestmark = pytest.mark.browser

LESSONS = Path(__file__).resolve().parents[2] / "lessons" / "flanders"
PAGES = sorted(p.name for p in LESSONS.glob("*.ipynb") if p.name != "workbench.ipynb")
"""The lessons, the welcome page and the rules summary (the workbench: test_flanders_workbench_page.py)."""
BOARDS = {  # the first board of each lesson: (players, p1's pawn)
    "01_board_and_goal.ipynb": (3, 2),
    "02_a_turn.ipynb": (2, 0),
    "03_push_your_luck.ipynb": (2, 1),
    "04_lines_tank_mines.ipynb": (2, 2),
    "05_troops_and_retain.ipynb": (2, 4),
    "06_end_of_game.ipynb": (3, 12),
    "07_full_game.ipynb": (4, 0),
}
TOLERANCE = 14
ALL_PAGES_MS = 4 * LOAD_TIMEOUT_MS
"""The nine pages opened at once start their kernels side by side: on a loaded machine each waits its turn."""

_PIXELS_JS = """([index, points]) => {
    const canvas = document.querySelectorAll('canvas')[index];
    const context = canvas.getContext('2d');
    return {width: canvas.width,
            pixels: points.map(([x, y]) => Array.from(context.getImageData(Math.floor(x), Math.floor(y), 1, 1).data))};
}"""


LAID_OUT_JS = """(index) => { const c = document.querySelectorAll('canvas')[index];
    const f = c && c.closest('.tutor-board-frame');
    return c && (!f || Math.abs(c.width / 2 - Math.max(360, Math.min(960, Math.floor(f.clientWidth)))) < 1); }"""
# Board ``index`` laid out for its frame's width (Board.fit_column: its canvas as many pixels wide as the frame).


def laid_out(page, players: int, index: int = 0) -> Geometry:
    """The geometry In Flanders Field board ``index`` was laid out with: for its column, which its canvas's pixel
    width tells (``Board.fit_column``), once the board has taken it."""
    page.wait_for_function(LAID_OUT_JS, arg=index, timeout=30_000)
    return Geometry(players).fit(page.evaluate(_PIXELS_JS, [index, []])["width"] / SCALE)


def pixels(page, index: int, geo: Geometry, points) -> list[tuple[int, int, int]]:
    """RGB of canvas ``index`` at CSS points (scaled to the canvas' pixels)."""
    scale = page.evaluate(_PIXELS_JS, [index, []])["width"] / geo.width
    found = page.evaluate(_PIXELS_JS, [index, [[x * scale, y * scale] for x, y in points]])["pixels"]
    return [tuple(p[:3]) for p in found]


def close(a, b) -> bool:
    return max(abs(x - y) for x, y in zip(a, b)) <= TOLERANCE


def wait_for_pixel(page, index, geo, point, colour, timeout_ms=10_000) -> tuple[int, int, int]:
    deadline = time.monotonic() + timeout_ms / 1000
    while not close(found := pixels(page, index, geo, [point])[0], hex_to_rgb(colour)) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    return found


def open_game(page, url: str, notebook: str):
    open_lesson(page, url, f"flanders/{notebook}")
    wait_for_canvases(page)
    wait_for_all_painted(page)
    return page.locator(".tutor-flanders").first


def set_shuffle_number(tutor, number: int) -> None:
    """Open "For teachers" and type the shuffle number Restart deals."""
    tutor.get_by_role("button", name="For teachers").click()
    tutor.locator("input[type=number]").first.fill(str(number))


def click_and_wait(page, control, log) -> None:
    """Click, then wait until the kernel's answer has changed the log (the log's HTML widget; the tutor updates
    its buttons before its log)."""
    box = log.element_handle()
    before = box.inner_html()
    control.click()
    page.wait_for_function("([el, before]) => el.innerHTML !== before", arg=[box, before], timeout=10_000)


def test_every_flanders_page_paints_its_boards_and_p1s_pawn_where_the_engine_puts_it(browser, voila_server):
    """All nine pages are opened at once (their kernels start side by side), then checked one by one."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    errors: dict[str, list[str]] = {}
    pages = {}
    try:
        for notebook in PAGES:
            page = context.new_page()
            errors[notebook] = []
            page.on("pageerror", lambda error, n=notebook: errors[n].append(f"pageerror: {error}"))
            page.goto(f"{voila_server}/voila/render/flanders/{notebook}", wait_until="commit")
            pages[notebook] = page
        for notebook, page in pages.items():
            page.wait_for_selector("#loading", state="hidden", timeout=ALL_PAGES_MS)
            if notebook not in BOARDS:  # the welcome page and the rules summary: text and links, no board
                page.wait_for_selector("a[href$='.ipynb']", timeout=ALL_PAGES_MS)
                assert page.locator("canvas").count() == 0
            else:
                page.wait_for_selector(f"canvas, {ERROR_SELECTOR}", timeout=ALL_PAGES_MS)
                boards = 1 if notebook == "07_full_game.ipynb" else 2
                page.wait_for_function(f"document.querySelectorAll('canvas').length >= {boards}", timeout=ALL_PAGES_MS)
                count = wait_for_canvases(page, timeout_ms=ALL_PAGES_MS)
                painted = wait_for_all_painted(page, timeout_ms=ALL_PAGES_MS)
                assert len(painted) == count >= boards and all(painted), (notebook, painted)
                players, pawn = BOARDS[notebook]
                geo = laid_out(page, players)
                x, y = geo.pawn_centre(0, pawn)
                # the board's first paint may still be on its way: wait for the pawn itself
                found = wait_for_pixel(page, 0, geo, (x - 9, y), PLAYER_COLOURS[0], timeout_ms=ALL_PAGES_MS)
                assert close(found, hex_to_rgb(PLAYER_COLOURS[0])), f"{notebook}: p1's pawn on {pawn}: pixel {found}"
            assert error_outputs(page) == [], notebook
            assert errors[notebook] == [], notebook
    finally:
        context.close()


def test_the_roll_changes_the_board_and_choosing_a_pair_takes_the_card(page, page_errors, voila_server):
    from playwright.sync_api import expect

    tutor = open_game(page, voila_server, "02_a_turn.ipynb")
    geo = laid_out(page, 2)
    log = tutor.locator(".iff-log")
    die = geo.die_rect(0)
    assert not close(pixels(page, 0, geo, [die.centre])[0], hex_to_rgb("#222222"))  # no pip before the roll
    before = canvas_fingerprint(page)
    click_and_wait(page, tutor.get_by_role("button", name="Roll the dice"), log)
    assert wait_for_canvas_change(page, before) != before
    # the loaded roll 1-2-4: die 0 shows one pip in its middle, die 1 a blank middle
    assert close(wait_for_pixel(page, 0, geo, die.centre, "#222222"), hex_to_rgb("#222222"))
    assert close(wait_for_pixel(page, 0, geo, geo.die_rect(1).centre, "#ffffff"), (255, 255, 255))
    expect(log).to_contain_text("p1 rolls 1-2-4")

    card = geo.space_rect(3)
    inside = (card.x + 14, card.y + card.h - 26)
    assert close(pixels(page, 0, geo, [inside])[0], hex_to_rgb(BRITISH_FILL))
    click_and_wait(page, tutor.get_by_role("button", name="1 + 2 = 3: take Infantry"), log)
    expect(log).to_contain_text("takes Infantry (British); space 3 stays empty this turn")
    assert close(wait_for_pixel(page, 0, geo, inside, "#fbfbfb"), hex_to_rgb("#fbfbfb")), "space 3 is not empty"
    assert error_outputs(page) == [] and page_errors == []


def test_the_odds_bar_matches_bust_probability_and_a_bust_resolves(page, page_errors, voila_server):
    from playwright.sync_api import expect

    from tutor.flanders.widgets import GameTutor

    cwd = os.getcwd()
    os.chdir(LESSONS)
    try:
        game = GameTutor.from_scenario("push_your_luck").game
    finally:
        os.chdir(cwd)
    p = game.bust_probability()
    tutor = open_game(page, voila_server, "03_push_your_luck.ipynb")
    geo = laid_out(page, 2)
    r = geo.odds_rect
    bar_x, bar_y, bar_w = r.x + 10, r.y + 68, r.w - 20
    end = bar_x + bar_w * float(p)
    red, grey = pixels(page, 0, geo, [(end - 3, bar_y), (end + 3, bar_y)])
    assert close(red, hex_to_rgb(LOST)) and close(grey, hex_to_rgb("#e0e0e0")), (red, grey, p)
    expect(tutor.locator(".tutor-status")).to_contain_text(f"bust chance {float(p) * 100:.1f}%")

    log = tutor.locator(".iff-log")
    set_shuffle_number(tutor, 1)  # shuffle 1: the next roll, 1-4-1, busts
    click_and_wait(page, tutor.get_by_role("button", name="Restart"), log)
    before = canvas_fingerprint(page)
    click_and_wait(page, tutor.get_by_role("button", name="Roll again"), log)
    expect(log).to_contain_text("Bust!")
    expect(log).to_contain_text("p1 loses 4 troop pieces for the 4 grey symbols")
    assert wait_for_canvas_change(page, before) != before
    # The bust stays on the board: p1's troop pieces 3 to 6 crossed out in red, until Continue.
    lost = geo.troop_rect(0, 4)
    assert close(wait_for_pixel(page, 0, geo, lost.centre, LOST, timeout_ms=15_000), hex_to_rgb(LOST))
    expect(log).not_to_contain_text("p2's turn")
    continue_button = tutor.get_by_role("button", name="Continue")
    expect(continue_button).to_be_visible()
    expect(tutor.get_by_role("button", name="Next step")).to_be_hidden()  # only Continue is offered
    wait_for_no_animation(page, tutor)  # nothing is left to draw: the bust stays until Continue
    assert close(pixels(page, 0, geo, [lost.centre])[0], hex_to_rgb(LOST))
    click_and_wait(page, continue_button, log)
    expect(log).to_contain_text("p2's turn")
    expect(continue_button).to_be_hidden()
    # then the turn passes: the lost pieces are hollow
    assert close(wait_for_pixel(page, 0, geo, lost.centre, "#fafafa", timeout_ms=15_000), hex_to_rgb("#fafafa"))
    assert error_outputs(page) == [] and page_errors == []


def test_a_game_is_played_to_its_end_by_clicking(page, page_errors, voila_server):
    """Lesson 6's last round, played by clicking (the learner's turns and the bots') until the results table.

    A whole game from the start is played by clicking in tests/flanders/test_widgets.py (headless, faster)."""
    from playwright.sync_api import expect

    tutor = open_game(page, voila_server, "06_end_of_game.ipynb")
    log = tutor.locator(".iff-log")
    tutor.get_by_label("No animation").check()  # each result at once: the bots' turns are not replayed here
    names = ("Bots play", "Continue", " = ", "Stop and carry out my cards", "Roll", "Play ", "End turn")
    for _ in range(400):
        if tutor.locator(".iff-results table").count():
            break
        shown = [b for b in tutor.locator(".iff-actions button:visible:enabled").all()]
        # the prompt names one step; its controls are the only ones on the page
        control = next(b for name in names for b in shown if name in b.inner_text())
        if "Play " in control.inner_text():
            control = [b for b in shown if "Play " in b.inner_text()][-1]
        click_and_wait(page, control, log)
    expect(tutor.locator(".iff-results")).to_contain_text("Results")
    expect(tutor.locator(".tutor-status")).to_contain_text("Game over")
    from test_flanders_board import shot

    tutor.scroll_into_view_if_needed()
    shot(page, "flanders_06_results")
    assert error_outputs(page) == [] and page_errors == []
