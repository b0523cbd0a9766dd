"""Issue 38: the teacher's view of a class in the teacher's language (``?lang=ca``, else the browser's
``Accept-Language``), against a real ``rules-tutor serve --class-size``.

Every word of the page is a message of the catalog: the HTML's ``[[...]]`` are written in the teacher's language by
the server, and the script's ``_("...")`` are looked up in the dictionary of translated messages the server puts in
the page (``window.RULES_TUTOR_TEACHER_WORDS``); the browser test (tests/browser/test_teacher_grid.py) plays the
script in Catalan.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from babel.messages.extract import extract

import tests.test_classroom_serve as serve
from tests.test_classroom_serve import Server
from tests.test_teacher_link import _links, _open
from tutor.classroom import teacher
from tutor.i18n import gettext_in

site = serve.site  # the fixture: a tiny lesson
STATIC = Path(teacher.__file__).parent / "static"
WORDS_IN_PAGE = re.compile(r"window\.RULES_TUTOR_TEACHER_WORDS = (\{.*?\});\n", re.S)


def html_messages() -> set[str]:
    return {" ".join(m.split()) for m in teacher.WORDS.findall((STATIC / "teacher.html").read_text("utf-8"))}


def script_messages() -> set[str]:
    with (STATIC / "teacher.js").open("rb") as script:
        return {m[1] for m in extract("javascript", script, keywords={"_": None})}


def visible_text(page: str) -> str:
    """The page's words outside its style and script (attributes that are read aloud included)."""
    body = re.sub(r"<(style|script)\b.*?</\1>", " ", page, flags=re.S)
    labels = " ".join(re.findall(r'aria-label="([^"]*)"', body))
    return html.unescape(re.sub(r"<[^>]+>", " ", body) + " " + labels)


def test_every_word_of_the_page_is_a_message_with_its_catalan_translation():
    assert len(html_messages()) > 20 and len(script_messages()) > 30
    assert html_messages() | script_messages() == set(teacher.PAGE_WORDS)
    for message in teacher.PAGE_WORDS:
        if re.sub(r"\{\w+\}|[^A-Za-z]", "", message):
            assert gettext_in("ca", message) != message, message
    page = teacher.teacher_page("en", "token")
    assert "[[" not in page and "<!-- words -->" not in page and 'lang="en"' in page


def test_the_view_speaks_the_teachers_language(site: Path, tmp_path: Path) -> None:
    server = Server(site, tmp_path / "serve.log", "--class-size=2", f"--class-db={tmp_path / 'class.sqlite3'}")
    try:
        [link] = _links(server)
        status, _, headers = server.request(link.replace("?token=", "?lang=ca&token="))
        assert status == 303 and headers["Location"] == "/rules-tutor/teacher?lang=ca"  # the language kept, no token
        session = re.search(r"rules_tutor_teacher=([^;]+)", headers["Set-Cookie"])[1]
        cookie = {"Cookie": f"rules_tutor_teacher={session}"}

        status, body, _ = server.request("/rules-tutor/teacher?lang=ca", headers=cookie)
        page = body.decode()
        assert status == 200 and '<html lang="ca">' in page
        assert "<title>Vista de la classe · Tutor de regles</title>" in page
        shown = " ".join(visible_text(page).split())
        for message in html_messages():
            assert gettext_in("ca", message) in shown, message
            assert message not in shown or message == gettext_in("ca", message), message
        words = json.loads(WORDS_IN_PAGE.search(page)[1])
        assert all(words.get(m) == gettext_in("ca", m) for m in script_messages() if gettext_in("ca", m) != m)
        assert words["Resume every screen"] == "Reprèn totes les pantalles"

        for accepted, language in (
            ("ca-ES,ca;q=0.9,en;q=0.8", "ca"),
            ("fr-FR,fr;q=0.9,ca;q=0.5", "ca"),
            ("en-GB,ca;q=0.5", "en"),
            ("fr", "en"),
            ("", "en"),
            ("ca;q=x,,;", "en"),
        ):
            page = server.request("/rules-tutor/teacher", headers={**cookie, "Accept-Language": accepted})[1].decode()
            assert f'<html lang="{language}">' in page, accepted
        page = server.request("/rules-tutor/teacher?lang=xx", headers={**cookie, "Accept-Language": "ca"})[1]
        assert b'<html lang="ca">' in page  # a language the tutor does not speak: the browser's

        status, body, _ = _open(server, link.replace("?token=", "?lang=ca&token="))  # used: one line, in Catalan
        assert status == 403 and body.count(b"\n") == 0 and "ja s'ha fet servir" in html.unescape(body.decode())
        status, body, _ = server.request("/rules-tutor/teacher", headers={"Accept-Language": "ca"})  # no session
        assert status == 403 and "necessita l'enllaç del docent" in html.unescape(body.decode())
        assert "Traceback" not in server.log.read_text()
    finally:
        server.stop()
