"""Issue 37 in a real browser: a learner alone (``rules-tutor serve``) who follows "Next" gets the lesson a kernel
has already run while they read the one before (``tutor.server.next_lesson``): its board paints, with no error,
from that kernel, and plays."""

from __future__ import annotations

import json

import pytest
from conftest import LESSONS
from test_classroom_serve import Server, wait_for
from voila_page import LOAD_TIMEOUT_MS, error_outputs, wait_for_paint

pytestmark = pytest.mark.browser


@pytest.fixture
def alone(tmp_path):
    server = Server(LESSONS, tmp_path / "serve.log")
    yield server
    server.stop()


def test_next_opens_the_prepared_lesson_with_its_board(browser, alone):
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(alone.url("/voila/render/flamme_rouge/02_energy_phase.ipynb"), timeout=LOAD_TIMEOUT_MS)
        expect(page.locator(".tutor-lesson canvas").first).to_be_visible(timeout=LOAD_TIMEOUT_MS)
        assert wait_for_paint(page) > 0
        wait_for(
            lambda: (
                "Kernel pool of flamme_rouge/03_movement.ipynb is filled"
                in alone.log.read_text().split("Preparing the next lesson: flamme_rouge/03_movement")[-1]
            ),
            "lesson 3 prepared while lesson 2 is read",
            180,
        )
        page.locator(".tutor-nav").get_by_role("link", name="3. Movement and blocking →").click()
        expect(page.locator(".tutor-lesson canvas").first).to_be_visible(timeout=LOAD_TIMEOUT_MS)
        assert wait_for_paint(page) > 0, "the prepared lesson's board stays blank"
        kernel = json.loads(page.locator("#jupyter-config-data").text_content())["kernelId"]
        assert f"Using pre-heated kernel: {kernel} for flamme_rouge/03_movement.ipynb" in alone.log.read_text()
        race = page.locator(".tutor-race").first
        race.get_by_role("button", name="Finish round").click()
        expect(race.locator(".tutor-log")).to_contain_text("red-R (card 5) would reach square 8")  # it plays
        assert error_outputs(page) == [] and errors == []
    finally:
        context.close()
