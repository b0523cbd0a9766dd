"""Issue 38: every page's browser tab is titled with the lesson's title in the page's language, never a file name.

A real ``rules-tutor serve`` serves the repository's lessons (the Catalan ones made from the English lessons and the
catalog); each page's head is read as it streams (its ``<title>`` comes before any cell runs), then the request is
dropped, so a lesson's kernel starts but runs nothing.
"""

from __future__ import annotations

import html
import json
import re
import urllib.request

from tutor import i18n
from tutor.i18n.lesson_languages import english_notebooks

from tests.test_text_pages import LESSONS, START_TIMEOUT_S, _rules_tutor_serve

TITLE = re.compile(rb"<title>(.*?)</title>", re.S)
PAGES = [path.as_posix() for path in english_notebooks(LESSONS)]


def tab_title(url: str) -> str:
    """The ``<title>`` of the page at ``url``, read from the start of its stream."""
    with urllib.request.urlopen(url, timeout=START_TIMEOUT_S) as reply:
        assert reply.status == 200, url
        head = b""
        while not TITLE.search(head):
            chunk = reply.read1(1 << 16)
            assert chunk, f"{url}: no <title> in {head[:300]!r}"
            head += chunk
    return html.unescape(TITLE.search(head)[1].decode().strip())


def catalan(message: str) -> str:
    i18n.use_language("ca")
    try:
        i18n.clear_missed()
        said = i18n._(message)
        assert i18n.missed() == [], f"no Catalan title for {message!r}"
        return said
    finally:
        i18n.use_language(i18n.SOURCE_LANGUAGE)


def test_every_lesson_has_a_title_that_is_not_its_file_name():
    assert len(PAGES) >= 28
    for page in PAGES:
        title = json.loads((LESSONS / page).read_text("utf-8"))["metadata"].get("title")
        assert isinstance(title, str) and title.strip(), f"{page}: no title, its tab would show its file name"
        stem = page.rsplit("/", 1)[-1].removesuffix(".ipynb")
        assert title != stem and "_" not in title and ".ipynb" not in title, f"{page}: {title!r}"


def test_every_page_is_served_with_its_lesson_title_in_its_language(tmp_path):
    server = _rules_tutor_serve(tmp_path)
    try:
        for page in PAGES:
            english = json.loads((LESSONS / page).read_text("utf-8"))["metadata"]["title"]
            assert tab_title(f"{server.url}/voila/render/{page}") == english, page
            title = tab_title(f"{server.url}/voila/render/ca/{page}")
            assert title == catalan(english) and title != english, f"ca/{page}: {title!r}"
    finally:
        server.stop()
