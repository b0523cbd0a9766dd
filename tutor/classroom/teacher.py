"""The teacher's endpoints (registered with the learners' by ``tutor.classroom.endpoints.routes``).

The teacher's secret token opens them. ``rules-tutor serve`` prints a link ``rules-tutor/teacher?token=...``;
the link works once: opening it exchanges the token for a session in an HttpOnly, SameSite=Strict cookie scoped to
``rules-tutor/teacher`` and redirects to the clean address, so that a projected view shows no secret, and the
data, the CSV and the actions go with the cookie; the link opened again (from a browser's history) says to open
the view from the printed link, and ``kill -USR1 <pid of rules-tutor serve>`` prints a new one
(``handlers.print_new_links_on_signal``). With the cookie, an action (Pause, Anonymize, Pace, new class, the CSV)
also needs the token of the view's page and an ``Origin`` of this server (CSRF). Scripts may send the
``X-Teacher-Token`` header instead (the session, or the link's token until the link is opened). Tokens are compared
in constant time; anything else gets 403 and one line.

- ``GET rules-tutor/teacher`` the view (one page, no outside resources); ``GET rules-tutor/teacher/data`` its JSON;
  ``GET rules-tutor/teacher/results.csv``;
- ``POST rules-tutor/teacher/action`` ``{action: "anonymize"|"pause"|"pace"|"new-class", on?, closed?}``.
"""

from __future__ import annotations

import html
import json
import os
import re
from pathlib import Path
from typing import Any

import tornado.web

from tutor.i18n import N_, SOURCE_LANGUAGE, gettext_in, language_codes, languages

from .guard import parse_body
from .handlers import MAX_BODY, ClassHandler

STATIC = Path(__file__).resolve().parent / "static"
TEACHER_COOKIE = "rules_tutor_teacher"
SHORT_PAGE = (
    "<!DOCTYPE html><html lang='{language}'><head><meta charset='utf-8'><title>{title}</title></head>"
    "<body><h1>{title}</h1><p>{text}</p></body></html>"
)
NOT_THE_TEACHER = N_(
    "This view needs the teacher's link that {command} printed when it started (a new start prints a new link)."
)
LINK_USED = N_(
    "This link has been used already (each link works once): open the class view from the link {command} "
    "printed again, or ask it for a new one ({signal})."
)
PAGE_TOKEN = "<!-- page token -->"
WORDS = re.compile(r"\[\[(.*?)\]\]", re.S)
"""A message in ``teacher.html``: ``[[Class view]]``, written in the teacher's language."""
PAGE_WORDS = (
    # teacher.html
    N_("Class view · Rules tutor"),
    N_("Language"),
    N_("Class view"),
    N_("Loading the class …"),
    N_("Class tools"),
    N_("Anonymize"),
    N_("Pause every screen"),
    N_("Pace: open lessons"),
    N_("Download CSV"),
    N_("Print report"),
    N_("Start a new class"),
    N_("Open lessons"),
    N_("Learners see “Not open yet” on a closed lesson. A lesson you open reaches a waiting learner within seconds."),
    N_("Open all"),
    N_("Close all"),
    N_(
        "Names are hidden: the CSV file has numbers instead of names too. Click Anonymize again to download it with "
        "the names."
    ),
    N_("No learner has joined yet. Learners open the lessons' address and type a name (or nothing)."),
    N_("Learners by lesson and question"),
    N_("Key:"),
    N_("not yet"),
    N_("opened"),
    N_("under a lesson: lesson finished"),
    N_("under a question:"),
    N_("right first time"),
    N_("right after 2 tries"),
    N_("wrong so far."),
    N_(
        "Under each question: the per cent of the learners who answered it who were right first time (in red below "
        "half)."
    ),
    # teacher.js
    N_("finished"),
    N_("right after {tries} tries"),
    N_("wrong so far (tries: {tries})"),
    N_("{verdict} · first answer: {choice}"),
    N_("no board"),
    N_("{verdict}, but the board has not shown on their screen"),
    N_("{column}: {verdict}"),
    N_("now"),
    N_("{n} s ago"),
    N_("{n} min ago"),
    N_("{n} h ago"),
    N_("Learner"),
    N_("Last active"),
    N_("Learner {number}"),
    N_("Right first time, %"),
    N_("{question}: {right} of the {answered} learners who answered were right first time"),
    N_("Resume every screen"),
    N_("Download CSV (numbers, no names)"),
    N_("Only {lesson} open"),
    N_("Only this lesson"),
    N_("Learners: {count}"),
    N_("class started {time}"),
    N_("screens paused"),
    N_("updated {time}"),
    N_(
        "This view needs the teacher's link: open it from the link rules-tutor serve printed (each link works once; "
        "it prints a new one on request)."
    ),
    N_("The server answered {status}."),
    N_("The server cannot be reached; trying again …"),
    N_("Start a new class? The current class is archived and its learners join again."),
)
"""Every message of the teacher's page (``teacher.html``'s ``[[...]]`` and ``teacher.js``'s ``_("...")``), here
for the catalog; ``tests/test_teacher_language.py`` checks that the page has no other."""


def teacher_language(handler: tornado.web.RequestHandler) -> str:
    """The teacher's language: ``?lang=`` when the tutor speaks it, else the first of the browser's
    ``Accept-Language`` it speaks (``ca-ES`` is ``ca``), else English."""
    codes = language_codes()
    asked = handler.get_query_argument("lang", "")[:10]
    if asked in codes:
        return asked
    ranked = []
    for n, part in enumerate(handler.request.headers.get("Accept-Language", "")[:500].split(",")):
        code, _, weight = part.strip().partition(";q=")
        try:
            q = float(weight) if weight else 1.0
        except ValueError:
            continue
        ranked.append((-q, n, code.strip().lower().replace("_", "-")))
    for _q, _n, code in sorted(ranked):
        for option in (code, code.split("-")[0]):
            if option in codes:
                return option
    return SOURCE_LANGUAGE


def in_language(report: dict[str, Any], language: str) -> dict[str, Any]:
    """The class's report with its lessons' and questions' titles in ``language`` (they are messages of the catalog:
    the lessons' headings and ``metadata.tutor.quiz_titles``)."""
    if language == SOURCE_LANGUAGE:
        return report
    for column in report.get("columns", []):
        for key in ("title", "label"):
            if isinstance(column.get(key), str):
                column[key] = gettext_in(language, column[key])
    for lesson in report.get("lessons", []):
        lesson["title"] = gettext_in(language, lesson["title"])
    return report


def short_page(language: str, message: str, **values: str) -> str:
    """A one-paragraph page in ``language`` (``values``: HTML, already escaped)."""
    text = html.escape(gettext_in(language, message)).format(**values)
    return SHORT_PAGE.format(language=language, title=html.escape(gettext_in(language, N_("Class view"))), text=text)


def teacher_page(language: str, page_token: str) -> str:
    """The teacher's view in ``language``: ``teacher.html`` with its style and script, its messages translated."""
    page = (STATIC / "teacher.html").read_text(encoding="utf-8")
    for name in ("teacher.css", "teacher.js"):
        page = page.replace(f"<!-- {name} -->", (STATIC / name).read_text(encoding="utf-8"))
    page = WORDS.sub(lambda m: html.escape(gettext_in(language, " ".join(m[1].split()))), page)
    words = {message: gettext_in(language, message) for message in PAGE_WORDS}
    script = json.dumps({k: v for k, v in words.items() if v != k}, ensure_ascii=False).replace("</", "<\\/")
    page = page.replace("<!-- words -->", script).replace("<!-- language -->", html.escape(language))
    names = json.dumps(languages(), ensure_ascii=False).replace("</", "<\\/")
    page = page.replace("<!-- languages -->", names)
    return page.replace(PAGE_TOKEN, html.escape(page_token))


class _TeacherHandler(ClassHandler):
    """A teacher's request: the teacher's session (cookie) or an ``X-Teacher-Token`` header; with the cookie, an
    action also needs the page's token (``X-Teacher-Page``, or ``?page=`` for the CSV) and, when the browser sends
    one, an ``Origin`` of this server (another site, or a page on another port of this machine, sends the cookie
    too: SameSite ignores ports)."""

    max_body = 16 * MAX_BODY
    checks_page = True

    def token(self) -> str | None:
        return self.request.headers.get("X-Teacher-Token") or self.get_cookie(TEACHER_COOKIE)

    def prepare(self) -> None:
        super().prepare()
        if not self.classroom.is_teacher(self.token()):
            return self.reply(403, {"error": "open the class view from the teacher's link"})
        if not self.checks_page or self.request.headers.get("X-Teacher-Token"):
            return None  # a script's header: no other site's page can send one (CORS)
        origin = self.request.headers.get("Origin")
        if origin is not None and origin != f"{self.request.protocol}://{self.request.host}":
            return self.reply(403, {"error": "not from the class view's page"})
        page = self.request.headers.get("X-Teacher-Page") or self.get_query_argument("page", "")
        if not self.classroom.valid_page_token(self.get_cookie(TEACHER_COOKIE) or "", page[:100]):
            return self.reply(403, {"error": "not from the class view's page: reload the view"})
        return None


class TeacherPageHandler(_TeacherHandler):
    def prepare(self) -> None:
        ClassHandler.prepare(self)
        token = self.get_query_argument("token", None)
        if token is not None:
            session = self.classroom.open_teacher_link(token[:100])
            if session is not None:
                # The link works once: it becomes a cookie for the teacher's pages only; the address bar shows none.
                self.set_cookie(
                    TEACHER_COOKIE, session, path=self.request.path.rstrip("/"), httponly=True, samesite="Strict"
                )
                self.redirect(self._clean_address(), status=303)
                return None
            if self.classroom.is_teacher(self.get_cookie(TEACHER_COOKIE)):
                self.redirect(self._clean_address(), status=303)  # the teacher's own browser, from its history
                return None
            self.set_status(403)
            self.set_header("Content-Type", "text/html; charset=UTF-8")
            self.finish(
                short_page(
                    teacher_language(self),
                    LINK_USED,
                    command="<code>rules-tutor serve</code>",
                    signal=f"<code>kill -USR1 {os.getppid()}</code>",
                )
            )  # used, replaced, or made up
            return None
        if not self.classroom.is_teacher(self.token()):
            self.set_status(403)
            self.set_header("Content-Type", "text/html; charset=UTF-8")
            self.finish(short_page(teacher_language(self), NOT_THE_TEACHER, command="<code>rules-tutor serve</code>"))
        return None

    def _clean_address(self) -> str:
        """The view's address without the token (with the language asked for, if any)."""
        language = teacher_language(self)
        return self.request.path + (f"?lang={language}" if self.get_query_argument("lang", "") == language else "")

    def get(self) -> None:
        page = teacher_page(teacher_language(self), self.classroom.page_token(self.get_cookie(TEACHER_COOKIE) or ""))
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.set_header(
            "Content-Security-Policy",
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
            "connect-src 'self'; img-src 'self' data:; form-action 'none'; frame-ancestors 'none'",
        )
        self.finish(page)


class TeacherDataHandler(_TeacherHandler):
    checks_page = False  # no action; another site's page cannot read the answer (no CORS), nor send the cookie

    def get(self) -> None:
        db = self.classroom.db
        report = db.report()
        report["archived"] = db.archived_classes()
        report["database"] = str(db.path)
        report["now"] = db.clock()
        self.reply(200, in_language(report, teacher_language(self)))


class TeacherCsvHandler(_TeacherHandler):
    def get(self) -> None:
        self.set_header("Content-Type", "text/csv; charset=UTF-8")
        self.set_header("Content-Disposition", 'attachment; filename="class-results.csv"')
        self.finish(self.classroom.db.csv())


class TeacherActionHandler(_TeacherHandler):
    def post(self) -> None:
        data, problem = parse_body(bytes(self.body))
        action = data.get("action") if data else None
        if data is None or not isinstance(action, str):
            return self.reply(400, {"error": problem or "not an action"})
        db = self.classroom.db
        if action in ("anonymize", "pause") and isinstance(data.get("on"), bool):
            (db.set_anonymized if action == "anonymize" else db.set_paused)(data["on"])
        elif (
            action == "pace"
            and isinstance(data.get("closed"), list)
            and all(isinstance(key, str) for key in data["closed"])
        ):
            db.set_closed(data["closed"])
            self.classroom.pace_changed()
        elif action == "new-class":
            db.new_class()
            self.classroom.pace_changed()
        else:
            return self.reply(400, {"error": "unknown action"})
        self.reply(200, db.settings())


def teacher_routes() -> dict[str, type[tornado.web.RequestHandler]]:
    paths: dict[str, Any] = {
        "teacher": TeacherPageHandler,
        "teacher/data": TeacherDataHandler,
        "teacher/results.csv": TeacherCsvHandler,
        "teacher/action": TeacherActionHandler,
    }
    return paths
