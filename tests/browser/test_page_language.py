"""A lesson page speaks its notebook's language: ``<html lang>`` from ``metadata.tutor.language``, and the
template's own words (the connection banner and its Reload button) from that language's catalog."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import nbformat
import pytest
from voila_page import kernel_id, kernel_pid, open_lesson

pytestmark = pytest.mark.browser

SHOWN_WITHIN_MS = 30_000
SLOW_CELL_S = 4


def _notebook(path: Path, language: str | None, *more_cells: str) -> None:
    notebook = nbformat.v4.new_notebook()
    if language:
        notebook.metadata["tutor"] = {"language": language}
    notebook.cells = [
        nbformat.v4.new_code_cell(
            f"from tutor.i18n import _, use_language\nuse_language({language or 'en'!r})\n"
            "print(_('Round {round} begins.').format(round=2))"
        ),
        *map(nbformat.v4.new_code_cell, more_cells),
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, path)


@pytest.fixture(scope="module")
def lessons(tmp_path_factory, voila_factory) -> str:
    folder = tmp_path_factory.mktemp("languages") / "lessons"
    _notebook(folder / "ca" / "prova.ipynb", "ca")
    _notebook(folder / "english.ipynb", None)
    for language in ("ca", "en"):  # a lesson that takes its time: its loading text stays long enough to be read
        _notebook(folder / language / "slow.ipynb", language, f"import time\ntime.sleep({SLOW_CELL_S})")
    return voila_factory(folder)


def test_a_catalan_page_says_lang_ca_and_its_banner_is_catalan(page, lessons):
    from playwright.sync_api import expect

    open_lesson(page, lessons, "ca/prova.ipynb", wait_for=".jp-OutputArea-output")
    assert page.locator("html").get_attribute("lang") == "ca"
    expect(page.locator(".jp-OutputArea-output").first).to_contain_text("Comença la ronda 2.")
    pid = kernel_pid(kernel_id(page))
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    banner = page.locator("#tutor-connection-lost")
    expect(banner).to_be_visible(timeout=SHOWN_WITHIN_MS)
    expect(banner).to_contain_text("Aquesta lliçó s'ha aturat.")
    expect(banner.get_by_role("button", name="Torna a carregar")).to_be_focused()
    assert "lesson" not in banner.inner_text().lower()


def test_an_english_page_stays_english(page, lessons):
    open_lesson(page, lessons, "english.ipynb", wait_for=".jp-OutputArea-output")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.evaluate("window.rulesTutorMessage('Reload')") == "Reload"


@pytest.mark.parametrize(
    ("language", "words"),
    [("ca", "S'està preparant la lliçó: pas 2 de 2…"), ("en", "Getting the lesson ready: step 2 of 2…")],
)
def test_the_loading_text_is_in_the_pages_language_and_a_learners_words(page, lessons, language, words):
    """Voila's own "Running ..." and "Executing 2 of 2" would show on every page while its lesson runs."""
    from playwright.sync_api import expect

    page.goto(f"{lessons}/voila/render/{language}/slow.ipynb", wait_until="commit")
    expect(page.locator("#loading_text")).to_have_text(words, timeout=SHOWN_WITHIN_MS)
    assert page.locator("#loading svg").get_attribute("aria-hidden") == "true"  # not "spin", read out
    page.wait_for_selector("#loading", state="detached", timeout=SHOWN_WITHIN_MS + SLOW_CELL_S * 1000)
    assert page.locator("html").get_attribute("lang") == language
