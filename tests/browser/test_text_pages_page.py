"""Issue 30 in a real browser: the landing page and a welcome page, rendered once and served without a kernel
(tutor.server.text_pages), still fill their progress badges from what the learner did in a lesson, lead to each other,
open no kernel connection, and never show the "lesson has stopped" banner."""

from __future__ import annotations

import json
import time

import pytest
from voila_page import LOAD_TIMEOUT_MS, error_outputs, open_lesson

from tutor.server.voila_adapter import NO_KERNEL_ID

pytestmark = pytest.mark.browser


def _page_kernel(page) -> str:
    return json.loads(page.locator("#jupyter-config-data").text_content())["kernelId"]


def test_the_landing_page_without_a_kernel_shows_the_progress_of_a_lesson(
    page, page_errors, voila_server, voila_factory, tmp_path
):
    from playwright.sync_api import expect

    def log() -> str:
        return voila_factory.log(voila_server)

    deadline = time.monotonic() + LOAD_TIMEOUT_MS / 1000  # the server renders them in the background at start
    while "Pages without a board ready" not in log():
        assert time.monotonic() < deadline, "the pages without a board were not rendered"
        page.wait_for_timeout(200)

    sockets: list[str] = []
    page.on("websocket", lambda socket: sockets.append(socket.url))
    open_lesson(page, voila_server, "flamme_rouge/02_energy_phase.ipynb")
    energy = page.locator(".tutor-quiz").first
    energy.get_by_role("button", name="back on top of its deck").click()
    energy.get_by_role("button", name="Reveal").click()
    expect(page.locator(".tutor-finish")).to_contain_text("Your questions: 1 of 5 answered, 0 right first time")
    assert sockets, "the lesson with a board has its kernel connection"
    kernels_started = log().count("Kernel started")

    sockets.clear()
    open_lesson(page, voila_server, "index.ipynb", wait_for="a[href$='.ipynb']")
    assert _page_kernel(page) == NO_KERNEL_ID
    expect(page.locator("[data-lesson='flamme_rouge/02_energy_phase.ipynb']")).to_have_text(
        "1 of 5 answered, 0 right first time", timeout=LOAD_TIMEOUT_MS
    )
    expect(page.locator("[data-lesson='flamme_rouge/04_slipstream.ipynb']")).to_have_text("not started")
    page.screenshot(path=str(tmp_path / "landing.png"), full_page=True)

    page.get_by_role("link", name="Flamme Rouge, step by step").click()
    expect(page.get_by_role("heading", name="Flamme Rouge, step by step")).to_be_visible(timeout=LOAD_TIMEOUT_MS)
    assert _page_kernel(page) == NO_KERNEL_ID
    expect(page.locator("[data-lesson='flamme_rouge/02_energy_phase.ipynb']")).to_contain_text("1 of 5 answered")
    expect(page.locator("[data-lesson='flamme_rouge/00_welcome.ipynb']")).to_have_text("✓ opened")
    page.get_by_role("link", name="All games").click()
    expect(page.locator("[data-lesson='flamme_rouge/00_welcome.ipynb']")).to_have_text(
        "✓ opened", timeout=LOAD_TIMEOUT_MS
    )
    assert page.url.endswith("/voila/render/index.ipynb")

    # No kernel: none started for these pages, no connection opened, nothing the connection banner could watch.
    assert log().count("Kernel started") == kernels_started
    assert sockets == []
    assert page.evaluate("Object.keys(window.tutorConnection.kernels).length") == 0
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # the banner's own re-check
    expect(page.locator("#tutor-connection-lost")).to_have_count(0)
    assert error_outputs(page) == [] and page_errors == []
