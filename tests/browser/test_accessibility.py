"""axe-core on the real pages: the landing page and every lesson have no serious or critical violation.

axe-core (bundled by the PyPI package axe-playwright-python) checks what it can see in the page as rendered by
Voila: names of controls, ARIA roles and live regions, colour contrast of every text (WCAG AA, 4.5:1), images
without a text alternative (the board canvases carry role="img" and an aria-label).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from test_lessons import _has_board
from voila_page import open_lesson, wait_for_all_painted, wait_for_canvases

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2] / "lessons"
PAGES = sorted(str(p.relative_to(ROOT)) for p in ROOT.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
BLOCKING = ("serious", "critical")


def axe_violations(page) -> list[dict]:
    """axe-core's violations on ``page`` as it is now (WCAG 2.x A and AA rules and axe's best practices)."""
    from axe_playwright_python.sync_playwright import Axe

    return list(Axe().run(page).response["violations"])


def describe(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        targets = ", ".join(" ".join(map(str, node["target"])) for node in v["nodes"][:3])
        lines.append(f"{v['id']} ({v['impact']}, {len(v['nodes'])} elements: {targets}): {v['help']}")
    return "\n".join(lines)


def by_rule(violations: list[dict]) -> Counter[str]:
    return Counter({f"{v['id']}/{v['impact']}": len(v["nodes"]) for v in violations})


@pytest.mark.parametrize("notebook", PAGES)
def test_no_serious_accessibility_violation(page, voila_server: str, notebook: str) -> None:
    pytest.importorskip("axe_playwright_python", reason="pip install -e '.[test]'")
    open_lesson(page, voila_server, notebook, wait_for=None)
    if _has_board(notebook):
        wait_for_canvases(page)
        wait_for_all_painted(page)
    violations = axe_violations(page)
    print(f"{notebook}: {dict(by_rule(violations))}")
    blocking = [v for v in violations if v["impact"] in BLOCKING]
    assert not blocking, f"{notebook}:\n{describe(blocking)}"
