"""The Peloton expansion's lessons in a real browser: a bid is clicked through, bot teams flip, and after each
step the riders are drawn where the engine says (the same widget, built and clicked in Python, gives the
renderer's geometry and the engine's positions).

Every page of lessons 8-12 is also opened, painted and checked rider by rider by ``test_lessons.py``.
"""

from __future__ import annotations

import pytest
from test_lessons import lesson_widgets, wait_for_riders
from voila_page import canvas_fingerprint, error_outputs, open_lesson, wait_for_canvas_change, wait_for_paint

pytestmark = pytest.mark.browser


def click(page, widget, locator, button) -> None:
    """Click ``button`` (a Python Button of ``widget``) on the page and in Python; wait for the canvas to change."""
    before = canvas_fingerprint(page)
    # a card button is named by its tooltip ("Play 5 for red-S"), for a screen reader
    name = button.tooltip if "tutor-card-button" in button._dom_classes else button.description
    locator.get_by_role("button", name=name, exact=True).first.click()
    button.click()
    wait_for_canvas_change(page, before)


def test_a_breakaway_bid_is_clicked_through_and_the_winners_start_past_the_line(page, page_errors, voila_server):
    from playwright.sync_api import expect

    notebook = "flamme_rouge/10_the_breakaway.ipynb"
    bid = lesson_widgets(notebook)[0]
    open_lesson(page, voila_server, notebook)
    wait_for_paint(page)
    box = page.locator(".tutor-breakaway")
    for round_ in (1, 2):
        click(page, bid, box, bid.draw_buttons["red-R"])
        expect(box.locator(".tutor-card-button").first).to_be_enabled()
        click(page, bid, box, bid.card_buttons[0])
        expect(box.locator(".tutor-narration")).to_contain_text(f"Bid {round_} is revealed")
    expect(box.locator(".tutor-bids")).to_contain_text("total")
    click(page, bid, box, bid.decide_button)
    winners = bid.decision.winners
    narration = box.locator(".tutor-narration")
    expect(narration).to_contain_text("Bid totals, best first")
    expect(narration).to_contain_text(f"{winners[0]} rides in the breakaway")
    expect(box.locator(".tutor-bids")).to_contain_text("takes 2 exhaustion cards")
    start = bid.race.track.start
    assert all(bid.race.riders[rid].square == start for rid in winners)
    assert wait_for_riders(page, 0, bid.scene.view, bid.race) == {}, "riders not drawn where the engine says"
    assert error_outputs(page) == []
    assert page_errors == []


def test_twelve_single_riders_bid_step_the_breakaway_then_the_bots_flip_and_move(page, page_errors, voila_server):
    from playwright.sync_api import expect

    notebook = "flamme_rouge/12_twelve_single_riders.ipynb"
    tutor = lesson_widgets(notebook)[0]
    open_lesson(page, voila_server, notebook)
    wait_for_paint(page)
    race = page.locator(".tutor-race").first
    narration = race  # the narration (a log of rounds) is part of the race widget
    for _ in range(2):
        click(page, tutor, race, tutor.draw_buttons["red-S"])
        click(page, tutor, race, tutor.card_buttons[0])
    expect(narration).to_contain_text("Bid 2 is revealed")
    click(page, tutor, race, tutor.next_button)  # the breakaway
    expect(narration).to_contain_text("join the breakaway")
    assert wait_for_riders(page, 0, tutor.scene.view, tutor.race) == {}, "breakaway riders not where the engine says"
    race.get_by_role("button", name="Start round 1").click()  # the breakaway's result stays until then
    tutor.next_round_button.click()
    click(page, tutor, race, tutor.draw_buttons["red-S"])
    click(page, tutor, race, tutor.card_buttons[0])
    click(page, tutor, race, tutor.finish_button)
    race.get_by_role("button", name="Start round 2").click()
    tutor.next_round_button.click()
    expect(narration).to_contain_text("Round 2 begins")
    assert tutor.race.round == 2
    # Finish round plays every rider's move and the end phase with pauses (one message, played out in the browser):
    # with sixteen riders the board settles only after its last frame.
    assert wait_for_riders(page, 0, tutor.scene.view, tutor.race, timeout_ms=45_000) == {}, (
        "riders not where the engine says"
    )
    assert error_outputs(page) == []
    assert page_errors == []


def test_the_peloton_and_muscle_flip_is_a_step_the_learner_watches(page, page_errors, voila_server):
    from playwright.sync_api import expect

    notebook = "flamme_rouge/11_peloton_and_muscle_teams.ipynb"
    tutor = lesson_widgets(notebook)[0]
    open_lesson(page, voila_server, notebook)
    wait_for_paint(page)
    race = page.locator(".tutor-race").first
    for rid in ("red-S", "red-R"):
        click(page, tutor, race, tutor.draw_buttons[rid])
        click(page, tutor, race, tutor.card_buttons[0])
    click(page, tutor, race, tutor.next_button)  # the flip
    narration = race  # the narration (a log of rounds) is part of the race widget
    expect(narration).to_contain_text("peloton flips")
    expect(narration).to_contain_text("muscle-1 flips one card for each rider")
    expect(narration).to_contain_text("never takes exhaustion")
    click(page, tutor, race, tutor.finish_button)
    assert wait_for_riders(page, 0, tutor.scene.view, tutor.race, timeout_ms=45_000) == {}, (
        "riders not where the engine says"
    )
    assert error_outputs(page) == []
    assert page_errors == []
