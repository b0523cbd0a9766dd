"""The teacher's workbench in a real browser: riders placed by clicking the real canvas, a card chosen, the
position exported as a code, and the code pasted into another page's "Open a position" box shows the same board."""

from __future__ import annotations

import re
import pytest
from voila_page import (
    canvas_fingerprint,
    error_outputs,
    open_lesson,
    wait_for_canvas_change,
    wait_for_fingerprint,
    wait_for_paint,
)

from tutor.flamme_rouge import scenario
from tutor.flamme_rouge.render import Scene
from tutor.flamme_rouge.track import stage

pytestmark = pytest.mark.browser

WORKBENCH = "flamme_rouge/workbench.ipynb"


def _click_cell(page, square: int, lane: int) -> None:
    view = Scene(stage("sprint-20"), cards=False).view
    canvas = page.locator(".tutor-workbench canvas").first
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    scale = box["width"] / view.width
    page.mouse.click(box["x"] + view.cx(square) * scale, box["y"] + view.cy(lane) * scale)


def _dropdown(page, label: str):
    return page.locator(
        ".tutor-workbench .widget-dropdown", has=page.locator("label", has_text=re.compile(f"^{re.escape(label)}$"))
    ).locator("select")


def test_a_position_set_up_by_clicking_the_board_opens_from_its_code_on_another_page(
    browser, voila_server, page_errors, tmp_path
):
    from playwright.sync_api import expect

    teacher = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
    teacher.on("pageerror", lambda error: page_errors.append(f"pageerror: {error}"))
    open_lesson(teacher, voila_server, WORKBENCH)
    wait_for_paint(teacher)
    status = teacher.locator(".tutor-workbench > .widget-html .tutor-status").first
    # the page opens with an example on a track of its own: the track chooser names it (issue 37)
    track = _dropdown(teacher, "Track")
    expect(track.locator("option:checked")).to_have_text("This position's track (16 squares)")
    track.select_option(label="Sprint (20 flat squares)")
    expect(status).to_contain_text("Choose 'Start from the empty track' to put Sprint (20 flat squares) on the board")
    teacher.get_by_role("button", name="Start from the empty track").click()
    expect(status).to_contain_text("Sprint (20 flat squares), empty: pick a team and kind")

    before = canvas_fingerprint(teacher)
    _click_cell(teacher, 6, 0)
    expect(status).to_contain_text("red-R added: square 6, right lane")
    assert wait_for_canvas_change(teacher, before) != before, "the new rider is not drawn"
    _dropdown(teacher, "team").select_option("blue")
    _click_cell(teacher, 6, 1)
    expect(status).to_contain_text("blue-R added: square 6, left lane")
    _click_cell(teacher, 6, 0)  # pick red-R ...
    expect(status).to_contain_text("red-R picked")
    _click_cell(teacher, 4, 0)  # ... and move it
    expect(status).to_contain_text("red-R moved: square 4")
    _dropdown(teacher, "red-R").select_option("5")
    _dropdown(teacher, "blue-R").select_option("3")
    expect(teacher.locator(".tutor-header")).to_contain_text("Movement")
    # the header comes before the code in the kernel's answer, the status after it: the code holds both cards
    expect(status).to_contain_text("blue-R plays 3.")
    code_box = teacher.locator(".tutor-position-code input")
    expect(code_box).to_have_value(re.compile(r"^FR3-"))
    code = code_box.input_value()
    data = scenario.from_code(code)
    assert [(r["id"], r["square"], r["lane"]) for r in data["riders"]] == [("red-R", 4, 0), ("blue-R", 6, 1)]
    assert data["cards"] == {"red-R": 5, "blue-R": 3}
    assert teacher.locator("a.tutor-download[download='position.json']").count() == 1
    before = canvas_fingerprint(teacher)
    # "+ new rider": no rider picked, as on a page just opened
    _dropdown(teacher, "Rider").select_option(label="+ new rider")
    board = wait_for_canvas_change(teacher, before)
    assert board != before
    teacher.screenshot(path=str(tmp_path / "workbench.png"), full_page=True)  # to look at when it fails

    learner = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
    learner.on("pageerror", lambda error: page_errors.append(f"pageerror: {error}"))
    open_lesson(learner, voila_server, WORKBENCH)
    wait_for_paint(learner)
    box = learner.locator(".tutor-position-box")
    box.locator("input").fill(code)
    box.get_by_role("button", name="Open a position").click()
    expect(box.locator(".tutor-status")).to_contain_text("Opened the position")
    assert wait_for_fingerprint(learner, board) == board, "the pasted code does not show the same board"

    box.locator("input").fill(code[:-3])  # a damaged code: a clear message, the board unchanged
    box.get_by_role("button", name="Open a position").click()
    expect(box.locator(".tutor-status")).to_contain_text("damaged")
    assert canvas_fingerprint(learner) == board
    assert error_outputs(teacher) == error_outputs(learner) == [] and page_errors == []
