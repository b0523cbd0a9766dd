"""Test order: the real-browser tests run last.

Playwright's sync API keeps its event loop running for the rest of the session once the browser has started, and
the headless tests that play paced animations under ``asyncio.run`` (as a kernel would pace them) cannot start a
loop while another one runs.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)  # stable: file order otherwise
