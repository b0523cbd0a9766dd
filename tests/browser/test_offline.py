"""Offline: no lesson page asks for anything outside this machine (fonts and icons come from the Voila server).

Every request of the page is recorded before the page fixture aborts the non-local ones. The lesson pages share
one template, so a lesson with widgets, the landing page and the file tree stand for all in the browser;
every notebook is also checked for resources it would embed from elsewhere (images, frames, scripts, styles).
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import nbformat
import pytest
from voila_page import open_lesson, wait_for_paint

pytestmark = pytest.mark.browser

LESSONS = Path(__file__).resolve().parents[2] / "lessons"
LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}
PAGES = ["voila/render/flamme_rouge/02_energy_phase.ipynb", "voila/render/index.ipynb", ""]
# An embedded resource the browser would fetch by itself: markdown images, and src/href of img, iframe,
# script, source, link and CSS url(). Plain links (<a href>, [text](url)) are only followed on a click.
EMBEDDED = re.compile(
    r"""!\[[^\]]*\]\(\s*<?(https?:)?//|<(img|iframe|script|source|link|embed|video|audio)\b[^>]*"""
    r"""\b(src|href)\s*=\s*["']?(https?:)?//|url\(\s*["']?(https?:)?//""",
    re.IGNORECASE,
)


def _outside(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme not in ("data", "blob", "about") and parts.hostname not in LOOPBACK


@pytest.mark.parametrize("path", PAGES, ids=["lesson-with-widgets", "landing-page", "tree"])
def test_page_requests_only_this_machine(page, voila_server, path):
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.on("websocket", lambda socket: requested.append(socket.url))
    if path.startswith("voila/render/"):
        open_lesson(page, voila_server, path.removeprefix("voila/render/"), wait_for=None)
        if page.locator("canvas").count():
            wait_for_paint(page)
    else:
        page.goto(f"{voila_server}/{path}")
    page.wait_for_load_state("networkidle")
    assert requested, "no request recorded"
    assert [url for url in requested if _outside(url)] == []


def test_no_notebook_embeds_a_resource_from_elsewhere():
    notebooks = sorted(LESSONS.rglob("*.ipynb"))
    assert notebooks
    found = []
    for path in notebooks:
        for cell in nbformat.read(path, as_version=4).cells:
            texts = [cell.source] + [str(output.get("data", {})) for output in cell.get("outputs", [])]
            found += [f"{path.relative_to(LESSONS)}: {m.group(0)}" for t in texts for m in EMBEDDED.finditer(t)]
    assert found == []
