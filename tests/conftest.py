"""Test order: the real-browser tests run last. Every test starts in English.

Playwright's sync API keeps its event loop running for the rest of the session once the browser has started, and
the headless tests that play paced animations under ``asyncio.run`` (as a kernel would pace them) cannot start a
loop while another one runs.

A test that builds a Catalan lesson's widgets here runs its ``use_language("ca")``, and the language is the
process's (as it is a kernel's): it is set back to English after each test, so that no later test reads Catalan labels.

The lessons in other languages (``lessons/ca/``) are made from the English lessons and the catalogs before the tests
are collected, as ``rules-tutor serve`` makes them before it serves (they are never committed).
"""

from __future__ import annotations

import pytest

from tutor import i18n


def pytest_configure(config: pytest.Config) -> None:
    from pathlib import Path

    from tutor.i18n.lesson_languages import build_languages

    build_languages(Path(__file__).resolve().parents[1] / "lessons")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)  # stable: file order otherwise


@pytest.fixture(autouse=True)
def _english_again_after_each_test():
    yield
    if i18n.language() != i18n.SOURCE_LANGUAGE:
        i18n.use_language(i18n.SOURCE_LANGUAGE)
