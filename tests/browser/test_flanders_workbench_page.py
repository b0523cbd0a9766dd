"""Issue 30: the In Flanders Field teacher's workbench in a real browser: a position set with the page's inputs
(a card on a space, a pawn, a card in the hand), its code shared and opened again on another page (the same
board and code), and a puzzle file chosen in the page and checked there (Playwright's set_input_files)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from voila_page import canvas_fingerprint, error_outputs, open_lesson, wait_for_paint, wait_for_same_boards

from tutor.flanders import position_code
from tutor.flanders.widgets.workbench import START

pytestmark = pytest.mark.browser

WORKBENCH = "flanders/workbench.ipynb"
LESSONS = Path(__file__).resolve().parents[2] / "lessons" / "flanders" / "scenarios"


def _status(page):
    return page.locator(".tutor-workbench > .widget-html .tutor-status").first


def _choose(page, checker, file: dict) -> None:
    """Choose ``file`` with the Check a file button, as a teacher does (the file chooser's set_files)."""
    with page.expect_file_chooser() as chooser:
        checker.locator(".widget-upload").click()
    chooser.value.set_files(file)


def test_a_position_set_in_the_page_opens_from_its_code_and_a_chosen_file_is_checked(
    browser, voila_server, page_errors, tmp_path
):
    from playwright.sync_api import expect

    teacher = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
    teacher.on("pageerror", lambda error: page_errors.append(f"pageerror: {error}"))
    open_lesson(teacher, voila_server, WORKBENCH)
    wait_for_paint(teacher)
    code_box = teacher.locator(".tutor-workbench > .widget-hbox .tutor-position-code input")
    expect(code_box).to_have_value(re.compile(r"^IF1-"))
    first_code = code_box.input_value()
    first_board = canvas_fingerprint(teacher)

    space = teacher.locator(".iff-position-editor .widget-dropdown", has=teacher.locator("label", has_text="space 3"))
    space.locator("select").select_option("Tank")
    expect(_status(teacher)).to_contain_text("Space 3: Tank. The board below shows the new position.")
    pawn = (
        teacher.locator(
            ".iff-position-editor .widget-inline-hbox", has=teacher.locator("label", has_text="pawn on space")
        )
        .nth(1)
        .locator("input")
    )
    pawn.fill("5")
    pawn.press("Enter")
    hand_box = teacher.locator(".iff-position-editor .jupyter-widget-tagsinput").last
    hand = hand_box.locator("input.jupyter-widget-taginput")
    hand.fill("Infantry")
    hand.press("Enter")
    expect(code_box).not_to_have_value(first_code)
    expect(teacher.locator(".iff-workbench-play .tutor-header")).to_be_visible()

    wanted = position_code.to_code(
        {
            **START,
            "players": [{"id": "p1"}, {"id": "p2", "pawn": 5}, {"id": "p3"}],
            "spaces": {**START["spaces"], "3": "Tank"},
            "taken": ["Infantry"],
        }
    )
    expect(code_box).to_have_value(wanted)  # the three edits reached the kernel, in order
    assert wanted and len(wanted) <= 80
    code = code_box.input_value()
    teacher.screenshot(path=str(tmp_path / "flanders_workbench.png"), full_page=True)

    learner = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
    learner.on("pageerror", lambda error: page_errors.append(f"pageerror: {error}"))
    open_lesson(learner, voila_server, WORKBENCH)
    wait_for_paint(learner)
    box = learner.locator(".tutor-position-box")
    box.locator("input").fill(code.lower())  # read out and typed in small letters: the same code
    box.get_by_role("button", name="Open a position").click()
    expect(box.locator(".tutor-status")).to_contain_text("Opened the position")
    expect(learner.locator(".tutor-workbench > .widget-hbox .tutor-position-code input")).to_have_value(code)
    # both boards are made anew (the edited position, the opened code) and drawn a round trip later: compare them
    # as they are now, each read again until they agree
    learner_board, board = wait_for_same_boards(learner, teacher)
    assert learner_board == board != first_board, "the code does not show the same board"

    box.locator("input").fill(code[:-2])  # a damaged code: one line, nothing changes
    box.get_by_role("button", name="Open a position").click()
    expect(box.locator(".tutor-status")).to_contain_text("damaged")
    expect(learner.locator(".tutor-workbench > .widget-hbox .tutor-position-code input")).to_have_value(code)

    checker = learner.locator(".tutor-check-box")
    good = (LESSONS / "lines_a.json").read_bytes()
    _choose(learner, checker, {"name": "lines_a.json", "mimeType": "application/json", "buffer": good})
    expect(checker.locator(".tutor-status")).to_contain_text("lines_a.json passes")
    wrong = json.loads(good)
    wrong["expect"] = {"pawns": {"p1": 9}}
    _choose(
        learner, checker, {"name": "wrong.json", "mimeType": "application/json", "buffer": json.dumps(wrong).encode()}
    )
    expect(checker.locator(".tutor-status")).to_contain_text("wrong.json does not pass")
    learner.screenshot(path=str(tmp_path / "flanders_workbench_learner.png"), full_page=True)
    assert error_outputs(teacher) == error_outputs(learner) == [] and page_errors == []
