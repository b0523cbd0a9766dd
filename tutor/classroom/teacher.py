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
import os
from pathlib import Path
from typing import Any

import tornado.web

from .guard import parse_body
from .handlers import MAX_BODY, ClassHandler

STATIC = Path(__file__).resolve().parent / "static"
TEACHER_COOKIE = "rules_tutor_teacher"
NOT_THE_TEACHER = ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>Class view</title></head>"
                   "<body><h1>Class view</h1><p>This view needs the teacher's link that <code>rules-tutor serve"
                   "</code> printed when it started (a new start prints a new link).</p></body></html>")


LINK_USED = ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>Class view</title></head>"
             "<body><p>This link has been used already (each link works once): open the class view from the link "
             "<code>rules-tutor serve</code> printed again, or ask it for a new one (<code>kill -USR1 {pid}</code>)."
             "</p></body></html>")
PAGE_TOKEN = "<!-- page token -->"


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
                self.set_cookie(TEACHER_COOKIE, session, path=self.request.path.rstrip("/"), httponly=True,
                                samesite="Strict")
                self.redirect(self.request.path, status=303)
                return None
            if self.classroom.is_teacher(self.get_cookie(TEACHER_COOKIE)):
                self.redirect(self.request.path, status=303)  # the teacher's own browser, from its history
                return None
            self.set_status(403)
            self.set_header("Content-Type", "text/html; charset=UTF-8")
            self.finish(LINK_USED.format(pid=os.getppid()))  # used, replaced by a new one, or made up
            return None
        if not self.classroom.is_teacher(self.token()):
            self.set_status(403)
            self.set_header("Content-Type", "text/html; charset=UTF-8")
            self.finish(NOT_THE_TEACHER)
        return None

    def get(self) -> None:
        page = (STATIC / "teacher.html").read_text(encoding="utf-8")
        for name in ("teacher.css", "teacher.js"):
            page = page.replace(f"<!-- {name} -->", (STATIC / name).read_text(encoding="utf-8"))
        page = page.replace(PAGE_TOKEN, html.escape(self.classroom.page_token(self.get_cookie(TEACHER_COOKIE) or "")))
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.set_header("Content-Security-Policy",
                        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                        "connect-src 'self'; img-src 'self' data:; form-action 'none'; frame-ancestors 'none'")
        self.finish(page)


class TeacherDataHandler(_TeacherHandler):
    checks_page = False  # no action; another site's page cannot read the answer (no CORS), nor send the cookie
    def get(self) -> None:
        db = self.classroom.db
        report = db.report()
        report["archived"] = db.archived_classes()
        report["database"] = str(db.path)
        report["now"] = db.clock()
        self.reply(200, report)


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
        elif action == "pace" and isinstance(data.get("closed"), list) and all(
                isinstance(key, str) for key in data["closed"]):
            db.set_closed(data["closed"])
            self.classroom.pace_changed()
        elif action == "new-class":
            db.new_class()
            self.classroom.pace_changed()
        else:
            return self.reply(400, {"error": "unknown action"})
        self.reply(200, db.settings())


def teacher_routes() -> dict[str, type[tornado.web.RequestHandler]]:
    paths: dict[str, Any] = {"teacher": TeacherPageHandler, "teacher/data": TeacherDataHandler,
                             "teacher/results.csv": TeacherCsvHandler, "teacher/action": TeacherActionHandler}
    return paths
