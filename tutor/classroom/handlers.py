"""The class's HTTP endpoints, registered by Voila's server in class mode only (``routes``).

Learners (posts from a lesson page, JSON of at most ``MAX_BODY`` bytes, carrying the page's key and, once joined,
the learner's secret; see ``tutor.classroom.guard``):

- ``POST rules-tutor/class/join``  ``{page, name?, learner?}`` -> ``{learner, name}`` (the same learner again
  when ``learner`` is still one of the current class);
- ``POST rules-tutor/class/event`` ``{page, learner, kind: "opened"|"answered", lesson, quizzes?, quiz?, right?,
  choice?}`` -> 204;
- ``POST rules-tutor/class/state`` ``{page, learner?}`` -> ``{joined, name, paused, closed, progress}``: the class's
  pause and closed lessons, and only this learner's own progress.

Malformed or oversized posts get 400 (an oversized one before its body is read), posts without a page key this server signed 403, too many from one page 429.

The teacher (every request needs the secret token, as ``?token=`` or the ``X-Teacher-Token`` header, compared in
constant time; anything else gets 403 and no data):

- ``GET rules-tutor/teacher`` the view (one page, no outside resources); ``GET rules-tutor/teacher/data`` its JSON;
  ``GET rules-tutor/teacher/results.csv``;
- ``POST rules-tutor/teacher/action`` ``{action: "anonymize"|"pause"|"pace"|"new-class", on?, closed?}``.

``stamp_page(handler, classroom)`` gives a lesson page its key (a cookie set with the page).
"""

from __future__ import annotations

import hmac
import json
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tornado.web

from .database import ClassDatabase, Learner, Lesson
from .guard import PageKeys, RateLimit

MAX_BODY = 2048
PAGE_COOKIE = "rules_tutor_page"
STATIC = Path(__file__).resolve().parent / "static"
QUIZ_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")


def lessons_of(directory: Path) -> list[Lesson]:
    """The lessons served from ``directory``, with their titles: its notebooks (keys relative to it) but the
    contents page (the top ``index.ipynb``); hidden, ``_`` and checkpoint files left out."""
    from tutor.ui.lessons import lesson_info

    directory = Path(directory).resolve()
    paths = sorted(path for path in directory.rglob("*.ipynb") if path != directory / "index.ipynb"
                   and not any(part.startswith((".", "_")) for part in path.relative_to(directory).parts))
    infos = [(path, lesson_info(path)) for path in paths]
    return [Lesson(path.relative_to(directory).as_posix(), info.title, info.quizzes) for path, info in infos]


def new_teacher_token() -> str:
    return secrets.token_urlsafe(24)


@dataclass
class Classroom:
    """Everything the endpoints share: the database, the teacher's token, page keys and rate limits."""

    db: ClassDatabase
    teacher_token: str
    keys: PageKeys = field(init=False)
    posts: RateLimit = field(default_factory=RateLimit)
    joins: RateLimit = field(default_factory=lambda: RateLimit(per_second=0.05, burst=3))

    def __post_init__(self) -> None:
        self.keys = PageKeys(self.db.page_secret)

    def is_teacher(self, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(str(token).encode(), self.teacher_token.encode())


@tornado.web.stream_request_body
class _Handler(tornado.web.RequestHandler):
    """A class endpoint: a body of at most ``max_body`` bytes (a longer one is refused with 400 before it is read),
    no XSRF cookie, no caching, errors without a page."""

    classroom: Classroom
    max_body = MAX_BODY

    def initialize(self, classroom: Classroom) -> None:
        self.classroom = classroom
        self.body = bytearray()

    def prepare(self) -> None:
        limit = getattr(self.request.connection, "set_max_body_size", None)
        if limit is not None:
            limit(self.max_body)

    def data_received(self, chunk: bytes) -> None:
        self.body += chunk

    def check_xsrf_cookie(self) -> None:
        """No XSRF cookie: a learner's post needs a page key and a teacher's the token, neither of which another
        site's page can know."""

    def set_default_headers(self) -> None:
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Referrer-Policy", "no-referrer")

    def reply(self, status: int, data: Any = None) -> None:
        self.set_status(status)
        if data is not None:
            self.set_header("Content-Type", "application/json")
            self.write(json.dumps(data))
        self.finish()

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.finish()  # no traceback, no page: just the status


class _LearnerHandler(_Handler):
    """A learner's post: size, JSON, page key and rate limit checked before anything else."""

    limit_name = "posts"

    def post(self) -> None:
        try:
            data = json.loads(self.body)
        except (ValueError, UnicodeDecodeError):
            return self.reply(400, {"error": "not JSON"})
        if not isinstance(data, dict):
            return self.reply(400, {"error": "not an object"})
        page = data.get("page")
        if not self.classroom.keys.valid(page):
            return self.reply(403, {"error": "not a page of this server"})
        if not getattr(self.classroom, self.limit_name).allow(page):
            return self.reply(429, {"error": "too many"})
        self.handle(data)

    def learner(self, data: dict[str, Any]) -> Learner | None:
        secret = data.get("learner")
        if not isinstance(secret, str) or not 10 <= len(secret) <= 64:
            return None
        return self.classroom.db.learner(secret)

    def handle(self, data: dict[str, Any]) -> None:
        raise NotImplementedError


class JoinHandler(_LearnerHandler):
    limit_name = "joins"

    def handle(self, data: dict[str, Any]) -> None:
        known = self.learner(data)
        if known is not None:
            return self.reply(200, {"learner": data["learner"], "name": known.shown_name})
        name = data.get("name", "")
        if not isinstance(name, str):
            return self.reply(400, {"error": "bad name"})
        joined = self.classroom.db.join(name)
        if joined is None:
            return self.reply(429, {"error": "the class is full"})
        learner, secret = joined
        self.reply(200, {"learner": secret, "name": learner.shown_name})


class EventHandler(_LearnerHandler):
    def handle(self, data: dict[str, Any]) -> None:
        learner = self.learner(data)
        if learner is None:
            return self.reply(403, {"error": "join first"})
        kind, lesson = data.get("kind"), data.get("lesson")
        if not isinstance(lesson, str) or lesson not in self.classroom.db.lesson_keys:
            return self.reply(400, {"error": "unknown lesson"})
        if kind == "opened":
            quizzes = data.get("quizzes", 0)
            if not isinstance(quizzes, int) or isinstance(quizzes, bool) or quizzes < 0:
                return self.reply(400, {"error": "bad quizzes"})
            self.classroom.db.opened(learner, lesson, quizzes)
        elif kind == "answered":
            quiz, right, choice = data.get("quiz"), data.get("right"), data.get("choice", "")
            if not (isinstance(quiz, str) and QUIZ_ID.fullmatch(quiz) and isinstance(right, bool)
                    and isinstance(choice, str)):
                return self.reply(400, {"error": "bad answer"})
            if not self.classroom.db.answered(learner, lesson, quiz, right, choice):
                return self.reply(429, {"error": "too many quizzes"})
        else:
            return self.reply(400, {"error": "unknown kind"})
        self.reply(204)


class StateHandler(_LearnerHandler):
    def handle(self, data: dict[str, Any]) -> None:
        db = self.classroom.db
        settings = db.settings()
        learner = self.learner(data)
        state: dict[str, Any] = {"joined": learner is not None, "paused": settings["paused"],
                                 "closed": settings["closed"]}
        if learner is not None:
            state.update(name=learner.shown_name, progress=db.progress(learner))
        self.reply(200, state)


class _TeacherHandler(_Handler):
    max_body = 16 * MAX_BODY

    def prepare(self) -> None:
        super().prepare()
        token = self.request.headers.get("X-Teacher-Token") or self.get_query_argument("token", None)
        if not self.classroom.is_teacher(token):
            self.set_status(403)
            self.finish()


class TeacherPageHandler(_TeacherHandler):
    def get(self) -> None:
        page = (STATIC / "teacher.html").read_text(encoding="utf-8")
        for name in ("teacher.css", "teacher.js"):
            page = page.replace(f"<!-- {name} -->", (STATIC / name).read_text(encoding="utf-8"))
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.set_header("Content-Security-Policy",
                        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                        "connect-src 'self'; img-src 'self' data:; form-action 'none'; frame-ancestors 'none'")
        self.finish(page)


class TeacherDataHandler(_TeacherHandler):
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
        try:
            data = json.loads(self.body)
            action = data["action"]
        except (ValueError, UnicodeDecodeError, TypeError, KeyError):
            return self.reply(400, {"error": "not an action"})
        db = self.classroom.db
        if action in ("anonymize", "pause") and isinstance(data.get("on"), bool):
            (db.set_anonymized if action == "anonymize" else db.set_paused)(data["on"])
        elif action == "pace" and isinstance(data.get("closed"), list) and all(
                isinstance(key, str) for key in data["closed"]):
            db.set_closed(data["closed"])
        elif action == "new-class":
            db.new_class()
        else:
            return self.reply(400, {"error": "unknown action"})
        self.reply(200, db.settings())


def routes(classroom: Classroom, base_url: str = "/") -> list[tuple[str, type[tornado.web.RequestHandler],
                                                                   dict[str, Any]]]:
    """The class's endpoints below ``base_url`` (Voila's)."""
    base = base_url.rstrip("/") + "/rules-tutor/"
    paths = {"class/join": JoinHandler, "class/event": EventHandler, "class/state": StateHandler,
             "teacher": TeacherPageHandler, "teacher/data": TeacherDataHandler,
             "teacher/results.csv": TeacherCsvHandler, "teacher/action": TeacherActionHandler}
    return [(base + path, handler, {"classroom": classroom}) for path, handler in paths.items()]


def stamp_page(handler: tornado.web.RequestHandler, classroom: Classroom) -> None:
    """Give the lesson page ``handler`` is about to send its key (a session cookie that the page's script reads)."""
    handler.set_cookie(PAGE_COOKIE, classroom.keys.issue(), path="/", samesite="Strict")


def class_mode_settings(settings: dict[str, Any], class_db: Path, teacher_token: str) -> dict[str, Any]:
    """``settings`` (voila.json's) with the class's database and the teacher's token for ``ClassroomVoila``, and
    ``resources.rules_tutor_class`` that makes the template load the learners' class script."""
    settings = json.loads(json.dumps(settings))
    settings.setdefault("ClassroomVoila", {}).update(class_db=str(class_db), teacher_token=teacher_token)
    settings.setdefault("VoilaConfiguration", {}).setdefault("resources", {})["rules_tutor_class"] = True
    return settings


def teacher_link(host: str, port: int, teacher_token: str, base_url: str = "/") -> str:
    return f"http://{host}:{port}{base_url.rstrip('/')}/rules-tutor/teacher?token={teacher_token}"
