"""Input limits in the real page (issue 16): a scenario file over the limit is refused by the page before
ipywidgets sends it (a 12 MB upload used to drop the websocket and leave the upload button dead), and a pasted
code far over the code limit is refused before it reaches the kernel. The page stays connected: a good file
loads right after."""

from __future__ import annotations

import json

import pytest
from voila_page import open_lesson, wait_for_paint

from tutor.core.schema import MAX_FILE_BYTES
from tutor.flamme_rouge.scenario import MAX_CODE_CHARS

pytestmark = pytest.mark.browser

WORKBENCH = "flamme_rouge/workbench.ipynb"
GOOD = {
    "name": "Uploaded after the refusal",
    "track": " ".join(["2"] * 16),
    "riders": [{"id": "blue-S", "square": 3, "lane": 0}, {"id": "red-R", "square": 5, "lane": 1}],
}


def _choose_file(page, name: str, content: bytes) -> None:
    with page.expect_file_chooser() as chooser:
        page.locator(".tutor-workbench .widget-upload:not(.tutor-check-file)").click()
    chooser.value.set_files({"name": name, "mimeType": "application/json", "buffer": content})


def test_a_file_over_the_limit_is_refused_in_the_page_and_the_upload_still_works(page, voila_server):
    from playwright.sync_api import expect

    open_lesson(page, voila_server, WORKBENCH)
    wait_for_paint(page)
    refused = page.locator(".tutor-input-refused")
    _choose_file(page, "huge.json", b" " * (12 << 20))
    expect(refused).to_have_text(
        "This file is too big to be a scenario (12.0 MB; a scenario file is at most "
        f"{MAX_FILE_BYTES // 1024} KB). Nothing was loaded."
    )
    _choose_file(page, "good.json", json.dumps(GOOD).encode())
    status = page.locator(".tutor-workbench > .widget-html .tutor-status").first
    expect(status).to_contain_text("Opened “Uploaded after the refusal”: 2 riders")
    expect(refused).to_be_hidden()


def test_a_pasted_code_far_over_the_limit_is_refused_in_the_page(page, voila_server):
    from playwright.sync_api import expect

    open_lesson(page, voila_server, WORKBENCH)
    box = page.locator(".tutor-workbench .tutor-position-box input").first
    box.focus()
    sent = box.evaluate(
        """(input, length) => {
        const data = new DataTransfer();
        data.setData('text/plain', 'FR3-' + 'A'.repeat(length));
        return input.dispatchEvent(new ClipboardEvent('paste', {clipboardData: data, bubbles: true,
                                                                cancelable: true}));
    }""",
        30 << 20,
    )
    assert sent is False, "the paste was not stopped"
    expect(page.locator(".tutor-position-box + .tutor-input-refused, .tutor-input-refused")).to_contain_text(
        f"a code has at most {MAX_CODE_CHARS:,}"
    )
    assert box.input_value() == ""
