"""The lessons in a real browser: each page runs cleanly and paints its boards; a race and a quiz answer clicks."""

from __future__ import annotations

import ast
import os
import re
import time
from pathlib import Path

import nbformat
import pytest
from voila_page import (
    LOAD_TIMEOUT_MS,
    canvas_fingerprint,
    error_outputs,
    open_lesson,
    wait_for_all_painted,
    wait_for_canvas_change,
    wait_for_canvases,
    wait_for_paint,
)

from tutor.flamme_rouge.render import style
from tutor.ui.drawing import hex_to_rgb

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2] / "lessons"
LESSONS = ROOT / "flamme_rouge"
NOTEBOOKS = sorted(str(p.relative_to(ROOT)) for p in ROOT.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


BOARD = re.compile(r"from tutor\.\w+\.widgets import")


def _has_board(notebook: str) -> bool:
    """Whether the page shows a board (its code builds a game widget); text pages only list and link lessons."""
    return any(
        cell.cell_type == "code" and BOARD.search(cell.source)
        for cell in nbformat.read(ROOT / notebook, as_version=4).cells
    )


# For each point: its RGBA on canvas ``index`` (points in canvas pixels), and the canvas' width in pixels.
_PIXELS_JS = """([index, points]) => {
    const canvas = document.querySelectorAll('canvas')[index];
    const context = canvas.getContext('2d');
    return {width: canvas.width,
            pixels: points.map(([x, y]) => Array.from(context.getImageData(Math.floor(x), Math.floor(y), 1, 1).data))};
}"""
COLOUR_TOLERANCE = 12
"""Largest difference per channel between a token's pixel and its team colour (no anti-aliasing inside a disc)."""


def lesson_widgets(notebook: str) -> list:
    """The widgets a lesson's code cells show, built in Python as on the page (same seeds), in page order."""
    path = ROOT / notebook
    namespace: dict = {}
    shown = []
    cwd = os.getcwd()
    os.chdir(path.parent)  # scenario paths are relative to the notebook, as in Voila
    try:
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type != "code":
                continue
            body = ast.parse(cell.source).body
            last = body.pop() if body and isinstance(body[-1], ast.Expr) else None
            exec(compile(ast.Module(body, []), notebook, "exec"), namespace)
            if last is not None:
                shown.append(eval(compile(ast.Expression(last.value), notebook, "eval"), namespace))
    finally:
        os.chdir(cwd)
    return shown


def lesson_boards(notebook: str) -> list:
    """Every board of a lesson: one (view, race) per canvas, in page order, i.e. the renderer's own geometry and
    the engine's positions."""
    widgets = [getattr(shown, "tutor", shown) for shown in lesson_widgets(notebook)]  # a RaceChooser: its tutor
    return [(widget.scene.view, widget.race) for widget in widgets if hasattr(widget, "scene")]


def rider_pixels(page, index: int, view, race) -> dict[str, tuple[list[tuple[int, int, int]], tuple[int, int, int]]]:
    """For every rider on the road window: (the pixels inside its token on canvas ``index``, its team colour)."""
    shown = {rid: pos for rid, pos in race.positions().items() if view.shows(pos[0])}
    points = {rid: view.token_fill_points(*pos) for rid, pos in shown.items()}
    scale = view.device_scale(page.evaluate(_PIXELS_JS, [index, []])["width"])
    flat = [[x * scale, y * scale] for rid in shown for x, y in points[rid]]
    pixels = iter(page.evaluate(_PIXELS_JS, [index, flat])["pixels"])
    return {
        rid: ([tuple(next(pixels)[:3]) for _ in points[rid]], hex_to_rgb(style.token_colour(race.riders[rid].colour)))
        for rid in shown
    }


def mismatches(found) -> dict[str, str]:
    return {
        rid: f"pixels {pixels}, team colour {colour}"
        for rid, (pixels, colour) in found.items()
        if any(max(abs(a - b) for a, b in zip(pixel, colour)) > COLOUR_TOLERANCE for pixel in pixels)
    }


def wait_for_riders(page, index: int, view, race, timeout_ms: int = 30_000) -> dict[str, str]:
    """Riders whose token does not show its team colour where the renderer puts it (empty once all do)."""
    deadline = time.monotonic() + timeout_ms / 1000
    while (bad := mismatches(rider_pixels(page, index, view, race))) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    return bad


def open_race(page, base_url: str, notebook: str):
    """Open a lesson and return its (painted) RaceTutor."""
    open_lesson(page, base_url, notebook)
    wait_for_paint(page)
    return page.locator(".tutor-race")


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[n.removesuffix(".ipynb") for n in NOTEBOOKS])
def test_lesson_loads_and_paints_every_canvas(page, page_errors, voila_server, notebook):
    if not _has_board(notebook):  # the landing, welcome and summary pages: text and links
        open_lesson(page, voila_server, notebook, wait_for="a[href$='.ipynb']")
        assert page.locator("canvas").count() == 0
    else:
        open_lesson(page, voila_server, notebook)
        canvases = wait_for_canvases(page)
        painted = wait_for_all_painted(page)
        assert len(painted) == canvases and all(painted), f"painted pixels per canvas: {painted}"
        if notebook.startswith("flamme_rouge/"):
            # Painted is not enough (the road alone paints): every rider shows in its team colour on its lane.
            boards = lesson_boards(notebook)
            assert len(boards) == canvases
            for index, (view, race) in enumerate(boards):
                assert race.positions(), f"board {index} has no rider to look for"
                assert wait_for_riders(page, index, view, race) == {}, (
                    f"board {index}: riders not drawn as the engine says"
                )
    assert error_outputs(page) == []
    assert page_errors == []


def test_energy_phase_race_answers_draws_cards_and_steps(page, page_errors, voila_server):
    from playwright.sync_api import expect

    race = open_race(page, voila_server, "flamme_rouge/02_energy_phase.ipynb")
    narration = race.locator(".tutor-log")
    first_card = race.locator(".tutor-card-button").first

    for rider in ("red-S", "red-R"):
        race.get_by_role("button", name=f"Draw 4 for {rider}").click()
        expect(first_card).to_be_enabled()
        expect(narration).to_contain_text(f"{rider} draws")
        before = canvas_fingerprint(page)
        first_card.click()
        expect(narration).to_contain_text(f"{rider} plays")
        assert wait_for_canvas_change(page, before) != before, f"playing {rider}'s card did not redraw the canvas"

    told = narration.inner_text()
    for _ in range(2):
        before = canvas_fingerprint(page)
        page.wait_for_timeout(400)  # two clicks closer than that are a double click, which runs once
        race.get_by_role("button", name="Next step").click()
        assert wait_for_canvas_change(page, before) != before, "Next step did not redraw the canvas"
    expect(narration).to_contain_text(re.compile(r"moves \d+ squares? .* square \d+"))
    assert narration.inner_text() != told

    before = canvas_fingerprint(page)
    race.get_by_role("button", name="Finish round").click()
    assert wait_for_canvas_change(page, before) != before, "Finish round did not redraw the canvas"
    race.get_by_role("button", name="Start round 2").click()  # the end of round 1 stays until then
    expect(narration).to_contain_text("Round 2 begins")
    assert error_outputs(page) == []
    assert page_errors == []


def test_movement_quiz_reveals_the_right_answer_and_the_rule(page, page_errors, voila_server):
    from playwright.sync_api import expect

    open_lesson(page, voila_server, "flamme_rouge/03_movement.ipynb")
    quiz = page.locator(".tutor-quiz").nth(1)
    wait_for_paint(page, index=2)
    before = canvas_fingerprint(page)
    quiz.locator("select").select_option(label="square 12")  # scenarios/movement_fall_back_twice.json: red-R ends on 12
    quiz.get_by_role("button", name="Reveal").click()

    feedback = quiz.locator(".widget-html", has_text="The rule that decided it")
    expect(feedback).to_contain_text("Right! red-R ends on square 12")
    expect(feedback).to_contain_text(re.compile("full|free lane"))
    assert wait_for_canvas_change(page, before) != before, "Reveal did not redraw the canvas"
    assert error_outputs(page) == []
    assert page_errors == []


def test_a_learner_can_play_with_the_keyboard_alone(page, page_errors, voila_server):
    """Issue 3: every control works with the keyboard (Tab to a button, Enter or Space presses it)."""
    from playwright.sync_api import expect

    race = open_race(page, voila_server, "flamme_rouge/02_energy_phase.ipynb")
    narration = race.locator(".tutor-log")
    draw = race.get_by_role("button", name="Draw 4 for red-S")
    draw.focus()
    page.keyboard.press("Enter")
    expect(narration).to_contain_text("red-S draws")
    expect(race.locator(".tutor-card-button").first).to_be_enabled()
    before = canvas_fingerprint(page)
    page.keyboard.press("Tab")  # focus moves on through the controls ...
    for _ in range(8):
        focused = page.evaluate("document.activeElement.classList.contains('tutor-card-button')")
        if focused:
            break
        page.keyboard.press("Tab")
    assert focused, "Tab never reached a card button"
    page.keyboard.press("Space")  # ... and Space plays the focused card
    expect(narration).to_contain_text("red-S plays")
    assert wait_for_canvas_change(page, before) != before
    assert page_errors == []


def test_a_click_on_the_board_places_the_learners_rider(page, page_errors, voila_server):
    """Setup lesson: the canvas itself is a control; a click on a lane behind the start line places a rider."""
    from playwright.sync_api import expect

    from tutor.flamme_rouge.widgets import RaceTutor

    race = open_race(page, voila_server, "flamme_rouge/01_track_and_setup.ipynb")
    expect(race.locator(".tutor-log")).to_contain_text("blue-R starts on square 4")
    # The lesson's own widget, built the same way, tells where square 3's right lane is drawn.
    view = RaceTutor.new_race(
        stage="avenue-corso-paseo",
        teams=("blue", "red", "green", "black"),
        place="manual",
        seed=1,
        stop_after="setup",
        cards=False,
    ).scene.view
    box = race.locator("canvas").first.bounding_box()
    before = canvas_fingerprint(page)
    page.mouse.click(box["x"] + view.cx(3), box["y"] + view.cy(0))
    expect(race.locator(".tutor-log")).to_contain_text("red-S starts on square 3, right lane")
    assert wait_for_canvas_change(page, before) != before
    assert page_errors == []


def test_the_landing_page_leads_to_a_lesson_and_back(page, page_errors, voila_server):
    """The landing page's links open in the same tab (an app, not a file list), and the way back."""
    from playwright.sync_api import expect

    open_lesson(page, voila_server, "index.ipynb", wait_for="a[href$='.ipynb']")
    page.get_by_role("link", name="Flamme Rouge, step by step").click()
    # Voila shows the page once it has run the notebook: wait for the content, not for "#loading" (absent at first).
    expect(page.get_by_role("heading", name="Flamme Rouge, step by step")).to_be_visible(timeout=LOAD_TIMEOUT_MS)
    assert page.url.endswith("/voila/render/flamme_rouge/00_welcome.ipynb")
    page.get_by_role("link", name="All games").click()
    expect(page.get_by_role("link", name="3. Movement and blocking")).to_be_visible(timeout=LOAD_TIMEOUT_MS)
    assert page.url.endswith("/voila/render/index.ipynb")
    assert error_outputs(page) == []
    assert page_errors == []
