"""Issue 37 in a real browser: a card drawn on the board's card panel (FR 02) is played by clicking it, on a wide
page and on a phone-wide one, where the canvas is CSS-scaled (the click goes through the renderer's geometry); and
FR 03's "Try another position" shows its second position on the board."""

from __future__ import annotations

import pytest
from voila_page import canvas_fingerprint, error_outputs, open_lesson, wait_for_canvas_change, wait_for_paint

from tutor.flamme_rouge import Race
from tutor.flamme_rouge.render import CardPanel, make_view
from tutor.flamme_rouge.render.geometry import WIDTH, narrowed
from tutor.flamme_rouge.render.scene import SCALE

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("width", [1280, 420], ids=["wide", "phone"])
def test_clicking_a_drawn_card_on_the_board_plays_it(page, page_errors, voila_server, width):
    from playwright.sync_api import expect

    page.set_viewport_size({"width": width, "height": 900})
    open_lesson(page, voila_server, "flamme_rouge/02_energy_phase.ipynb")
    wait_for_paint(page)
    race = page.locator(".tutor-race")
    narration = race.locator(".tutor-log")
    before = canvas_fingerprint(page)
    race.get_by_role("button", name="Draw 4 for red-S").click()
    expect(race.locator(".tutor-card-button").first).to_be_enabled()
    assert wait_for_canvas_change(page, before) != before, "the card panel never showed the drawn cards"
    # each card button is a widget of its own, updated one after the other: the third's card may come a moment
    # after the first is enabled (its name and its enabled state come together)
    third = race.locator(".tutor-card-button").nth(2)
    expect(third).to_be_enabled()
    played = third.inner_text().strip()
    # Where the panel draws red-S's third card: the board laid out for its column (as wide as its canvas, in CSS
    # pixels), the same geometry the kernel maps the click through
    board = race.locator("canvas").last
    board.scroll_into_view_if_needed()
    lesson_race = Race.new("sprint-20", ["red", "blue"])
    view = narrowed(make_view(lesson_race.track), board.evaluate("canvas => canvas.width") // SCALE)
    slots = {
        (rid, k): box for rid, k, box in CardPanel(("red-S", "red-R"), active="red-S").hand_slots(lesson_race, view)
    }
    x, y, w, h = slots[("red-S", 2)]
    box = board.bounding_box()
    assert box is not None
    scale = box["width"] / view.width
    assert width > 1000 or view.width < WIDTH, "the phone-wide page lays the board out for its column"
    page.mouse.click(box["x"] + (x + w / 2) * scale, box["y"] + (y + h / 2) * scale)
    expect(narration).to_contain_text(f"red-S plays {played}", timeout=30_000)
    expect(race.get_by_role("button", name="Draw 4 for red-R")).to_be_enabled()
    assert page_errors == []


def test_fr03_try_another_position_paints_the_second_position(page, page_errors, voila_server):
    from playwright.sync_api import expect

    open_lesson(page, voila_server, "flamme_rouge/03_movement.ipynb")
    wait_for_paint(page)
    race = page.locator(".tutor-race").first
    race.get_by_role("button", name="Finish round").click()
    another = race.get_by_role("button", name="Try another position ▸")
    expect(another).to_be_visible(timeout=30_000)
    before = canvas_fingerprint(page)
    another.click()
    expect(race.locator(".tutor-header")).to_contain_text("Falling back over two full squares", timeout=30_000)
    assert wait_for_canvas_change(page, before) != before, "the board still shows the first position"
    expect(race.get_by_role("button", name="Next step")).to_be_visible()
    race.get_by_role("button", name="Finish round").click()
    expect(another).to_be_visible(timeout=30_000)
    expect(race.locator(".tutor-log")).to_contain_text("red-S")
    assert error_outputs(page) == [] and page_errors == []
