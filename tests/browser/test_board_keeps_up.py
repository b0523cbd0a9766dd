"""The Flamme Rouge board in a real browser keeps up and keeps its results (issue 15).

A click never waits behind an animation: Back during a Finish round's ten seconds of animation, or Skip, shows
the engine's positions within a second. The end of a round stays on the board (exhaustion cards, slipstream
chips) until the learner moves on. Screenshots (the end of a round, the Peloton lesson, the board under a
deuteranopia filter) are saved in the test's tmp_path to look at.
"""

from __future__ import annotations

import time

import pytest
from test_lessons import lesson_widgets, mismatches, rider_pixels, wait_for_riders
from voila_page import (
    error_outputs,
    open_lesson,
    wait_for_all_painted,
    wait_for_canvases,
    wait_for_no_animation,
    wait_for_paint,
)

from tutor.flamme_rouge.render import style
from tutor.flamme_rouge.render.riders import rider_labels
from tutor.ui.drawing import hex_to_rgb

pytestmark = pytest.mark.browser

KEEP_UP_S = 5.0
"""The target is well under a second (0.2-0.5 s measured); the old board took the whole animation, ~10 s: 5 s
tells the two apart on a busy machine too."""
ANIMATION_TIMEOUT_MS = 30_000

# Deuteranopia (Machado et al. 2009, severity 1) as an SVG colour matrix applied to the whole page.
DEUTERANOPIA = """() => {
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('style', 'position:absolute;width:0;height:0');
    svg.innerHTML = `<filter id="deuteranopia"><feColorMatrix type="matrix" values="0.367 0.861 -0.228 0 0
        0.280 0.673 0.047 0 0  -0.012 0.043 0.969 0 0  0 0 0 1 0"/></filter>`;
    document.body.appendChild(svg);
    document.documentElement.style.filter = 'url(#deuteranopia)';
}"""


def both(page, race_box, button) -> None:
    """Click ``button`` (a Button of the Python twin) on the page and in Python."""
    # a card button is named by its tooltip ("Play 5 for red-S"), for a screen reader
    name = button.tooltip if "tutor-card-button" in button._dom_classes else button.description
    race_box.get_by_role("button", name=name, exact=True).first.click()
    button.click()


def wait_for_board_to_move_off(page, view, race, positions_race) -> None:
    """Wait until the board no longer shows ``positions_race``'s positions (an animation has started)."""
    deadline = time.monotonic() + ANIMATION_TIMEOUT_MS / 1000
    while not mismatches(rider_pixels(page, 0, view, positions_race)):
        assert time.monotonic() < deadline, "the animation never moved a rider"
        page.wait_for_timeout(50)


def test_back_and_skip_show_the_engine_positions_at_once_and_the_end_of_the_round_stays(
    page, page_errors, voila_server, tmp_path
):
    from playwright.sync_api import expect

    notebook = "flamme_rouge/02_energy_phase.ipynb"
    tutor = lesson_widgets(notebook)[0]
    tutor.debounce_s = 0  # the Python twin clicks at once: no click of it may count as a double click
    open_lesson(page, voila_server, notebook)
    wait_for_paint(page)
    box = page.locator(".tutor-race").first
    for rid in ("red-S", "red-R"):
        both(page, box, tutor.draw_buttons[rid])
        expect(box.locator(".tutor-card-button").first).to_be_enabled()
        both(page, box, tutor.card_buttons[0])
        expect(box.locator(".tutor-log")).to_contain_text(f"{rid} plays")
    view = tutor.scene.view
    assert wait_for_riders(page, 0, view, tutor.race) == {}
    movement = type(tutor.race).from_dict(tutor.race.to_dict())

    both(page, box, tutor.finish_button)  # about ten seconds of animation at Normal speed ...
    wait_for_board_to_move_off(page, view, tutor.race, movement)
    both(page, box, tutor.back_button)  # ... that Back does not wait for
    start = time.monotonic()
    assert wait_for_riders(page, 0, view, tutor.race, timeout_ms=int(KEEP_UP_S * 1000)) == {}, (
        "after Back the board still plays the old animation"
    )
    back_s = time.monotonic() - start

    both(page, box, tutor.finish_button)
    wait_for_board_to_move_off(page, view, tutor.race, movement)
    box.get_by_role("button", name="Skip animation").click()
    start = time.monotonic()
    assert wait_for_riders(page, 0, view, tutor.race, timeout_ms=int(KEEP_UP_S * 1000)) == {}, (
        "Skip did not show the end of the round at once"
    )
    skip_s = time.monotonic() - start
    print(f"board showed the engine's positions {back_s:.2f} s after Back, {skip_s:.2f} s after Skip")

    # The end of round 1 stays until 'Start round 2'.
    expect(box.get_by_role("button", name="Start round 2")).to_be_visible()
    expect(box.locator(".tutor-log")).not_to_contain_text("Round 2 begins")
    page.set_viewport_size({"width": 1366, "height": 900})
    box.screenshot(path=str(tmp_path / "fr02-end-of-round.png"))
    both(page, box, tutor.next_round_button)
    expect(box.locator(".tutor-log")).to_contain_text("Round 2 begins")

    # Quick clicks: each Next step lands while the step before is still sliding (about a second each).
    for rid in ("red-S", "red-R"):
        both(page, box, tutor.draw_buttons[rid])
        expect(box.locator(".tutor-card-button").first).to_be_enabled()
        both(page, box, tutor.card_buttons[0])
    log = box.locator(".tutor-log details[open]")
    for k in range(len(tutor.race.to_move) - 1):  # not the last: it wins, and the place tags cover the tokens
        mover = tutor.race.to_move[0]
        both(page, box, tutor.next_button)
        expect(log).to_contain_text(f"{mover} moves")
        page.wait_for_timeout(350)  # a person's quick click, not a double click (the tutor runs those once)
    start = time.monotonic()
    late = wait_for_riders(page, 0, view, tutor.race, timeout_ms=1500)
    if late:
        box.screenshot(path=str(tmp_path / "fr02-quick-clicks.png"))
    assert late == {}, f"after quick clicks the board lags behind the engine: {late}, events {tutor._events}"
    print(
        f"after {k + 1} quick Next steps the board showed the engine's positions {time.monotonic() - start:.2f} s "
        "after the last one was told"
    )
    assert error_outputs(page) == []
    assert page_errors == []


_PIXELS_JS = """([points]) => {
    const canvas = document.querySelectorAll('canvas')[0];
    const context = canvas.getContext('2d');
    const scale = canvas.width / %d;
    return points.map(([x, y]) =>
        Array.from(context.getImageData(Math.floor(x * scale), Math.floor(y * scale), 1, 1).data).slice(0, 3));
}"""


def close(pixel, colour: str) -> bool:
    return max(abs(a - b) for a, b in zip(pixel, hex_to_rgb(colour))) <= 12


def wait_for_chips(page, view, exhausted, gains, timeout_ms: int = ANIMATION_TIMEOUT_MS) -> list:
    """The pixels at ``exhausted`` then ``gains`` (the chips' points) once they show the exhaustion and slipstream
    colours, or the last ones read after ``timeout_ms``."""
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        pixels = page.evaluate(_PIXELS_JS % view.width, [exhausted + gains])
        shown = all(close(p, style.EXHAUSTION_FACE) for p in pixels[: len(exhausted)]) and all(
            close(p, style.SLIPSTREAM) for p in pixels[len(exhausted) :]
        )
        if shown or time.monotonic() > deadline:
            return pixels
        page.wait_for_timeout(50)


def test_the_end_phase_stays_on_the_board_with_its_exhaustion_cards_and_slipstream_chips(
    page, page_errors, voila_server, tmp_path
):
    notebook = "flamme_rouge/05_exhaustion.ipynb"
    tutor = lesson_widgets(notebook)[0]
    open_lesson(page, voila_server, notebook)
    wait_for_paint(page)
    box = page.locator(".tutor-race").first
    both(page, box, tutor.finish_button)
    box.get_by_role("button", name="Skip animation").click()
    view, marks = tutor.scene.view, tutor.highlights()
    assert marks.exhausted and marks.slipstreamed
    assert wait_for_riders(page, 0, view, tutor.race, timeout_ms=2000) == {}
    labels = rider_labels(view, marks, tutor.race.positions())  # where the renderer puts each chip, clear of others
    e2 = [(x + 2, y + 2) for label in labels if label.kind == "exhaustion" for x, y, _w, _h in [label.box]]
    gains = [(x + w / 2, y + 1.5) for label in labels if label.kind == "slipstream" for x, y, w, _h in [label.box]]
    assert len(e2) == len(marks.exhausted) and len(gains) == len(marks.slipstreamed)
    # the riders may stand on their squares before the end phase's chips are drawn (Skip's answer still to come)
    pixels = wait_for_chips(page, view, e2, gains)
    assert all(close(p, style.EXHAUSTION_FACE) for p in pixels[: len(e2)]), pixels
    assert all(close(p, style.SLIPSTREAM) for p in pixels[len(e2) :]), pixels
    wait_for_no_animation(page, box)  # still there once nothing is left to draw: nothing replaces the end of the round
    assert page.evaluate(_PIXELS_JS % view.width, [e2 + gains]) == pixels
    page.set_viewport_size({"width": 1366, "height": 900})
    box.screenshot(path=str(tmp_path / "fr05-end-phase.png"))
    page.evaluate(DEUTERANOPIA)
    box.screenshot(path=str(tmp_path / "fr05-deuteranopia.png"))
    assert error_outputs(page) == []
    assert page_errors == []


def test_screenshots_of_the_peloton_lesson_and_twelve_riders_under_deuteranopia(page, voila_server, tmp_path):
    for notebook, name in (
        ("flamme_rouge/11_peloton_and_muscle_teams.ipynb", "fr11"),
        ("flamme_rouge/12_twelve_single_riders.ipynb", "fr12"),
    ):
        page.set_viewport_size({"width": 1366, "height": 900})
        open_lesson(page, voila_server, notebook)
        wait_for_canvases(page)
        assert all(wait_for_all_painted(page)), f"{name}: a board is blank"
        width = page.evaluate("document.querySelectorAll('canvas')[0].getBoundingClientRect().width")
        print(f"{name}: board {width:.0f} CSS px wide at a 1366 px page")
        page.screenshot(path=str(tmp_path / f"{name}.png"), full_page=True)
        page.evaluate(DEUTERANOPIA)
        page.locator("canvas").first.screenshot(path=str(tmp_path / f"{name}-deuteranopia.png"))
