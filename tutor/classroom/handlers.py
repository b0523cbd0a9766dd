"""The class's HTTP endpoints, registered by Voila's server in class mode only (``endpoints.routes``).

Learners (posts from a lesson page, JSON of at most ``MAX_BODY`` bytes, carrying the page's key and, once joined,
the learner's secret; see ``tutor.classroom.guard``):

- ``POST rules-tutor/class/join``  ``{page, name?, learner?}`` -> ``{learner, name}`` (the same learner again
  when ``learner`` is still one of the current class);
- ``POST rules-tutor/class/event`` ``{page, learner, id?, kind: "opened"|"answered"|"board", lesson, quiz?,
  right?, choice?, shown?}`` -> 204 (``board``: the page waits for its lesson's board, ``shown`` false, or shows
  it) (``id``: the page's name for the event; an event sent again with the same id is recorded
  once);
- ``POST rules-tutor/class/state`` ``{page, learner?}`` -> ``{joined, name, paused, closed, progress}``: the class's
  pause and closed lessons, and only this learner's own progress;
- ``POST rules-tutor/class/verdict`` ``{kernel, key, quiz, right, choice, id}`` -> 204 (202: kept until the page's
  learner joins): a quiz's verdict from the lesson's kernel (``tutor.ui.kernel_report``), signed with the key
  the server gave that kernel in its environment; recorded for the learner whose page holds the kernel. In a real
  server (``Classroom.kernel_verdicts``) this is what the class records: an ``answered`` event from a page (its
  ``right``) is a hint only, checked (400, 409) but not recorded;
- ``GET rules-tutor/class/open?lesson=...`` -> ``{open}``: what the "Not open yet" page (``tutor.classroom.pages``)
  asks while it waits, in place of the lesson that has no page key yet. It answers at once for an open lesson, and
  for a closed one when the teacher opens it (or after ``OPEN_WAIT_S``), so the lesson comes within a second or two
  of the teacher's click. One client (source address) waits with at most ``OPEN_WAITS_PER_CLIENT`` requests at once
  and asks at most ``OPEN_ASKS`` (a rate); beyond that, 429.

Every refusal is a status and one line of JSON, never a traceback: a malformed, nested, non-UTF-8 or oversized
post gets 400 (an oversized one before its body is read), a post without a page key this server signed for this
class in the last hours 403, too many from one page or one client (source address) 429, a join beyond
``JOINS_PER_CLIENT`` learners from one client 429, an answer while the class is paused or to a closed lesson 409,
a quiz the lesson does not have 400.

The teacher's endpoints are in ``tutor.classroom.teacher``. ``stamp_page(handler, classroom)`` gives a lesson page
its key (a cookie set with the page).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import re
import secrets
import signal
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tornado.web

from tutor.i18n.lesson_languages import lesson_key

from .database import ClassDatabase, Learner, Lesson, NameRefused
from tutor.ui.kernel_report import kernel_environment, kernel_key
from .guard import ClientCounts, PageKeys, RateLimit, device_of, parse_body

MAX_BODY = 2048
PAGE_COOKIE = "rules_tutor_page"
QUIZ_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
EVENT_ID = re.compile(r"[A-Za-z0-9_-]{8,40}")
OPEN_WAIT_S = 20.0
"""Longest a "Not open yet" page's question waits for the teacher to open its lesson before it is answered."""
OPEN_WAITS_PER_CLIENT = 8
"""Questions one client (source address) may have waiting at once: its learners' tabs on "Not open yet"."""
OPEN_RECHECK_S = 2.0
"""A waiting question also looks at the class's settings this often (a lesson opened by another path)."""
JOINS_PER_CLIENT = 4
"""Learners one device (source address) may join to a class: a reload after the browser closed, a shared laptop;
never the class."""
TEACHER_SESSIONS = 20
"""Teacher views kept open at once (each link opened in a browser is one)."""
NEW_LINK_SIGNAL = getattr(signal, "SIGUSR1", None)
"""``kill -USR1 <pid of rules-tutor serve>`` prints a new link for the teacher's view (POSIX only)."""
log = logging.getLogger("tutor.classroom")


def lessons_of(directory: Path) -> list[Lesson]:
    """The lessons served from ``directory``, with their titles, quiz ids and quiz titles: each registered game's
    lesson folder (``tutor.core.games``, in its order), then the pages at the top but the contents page
    (``index.ipynb``); keys relative to ``directory``; hidden and ``_`` files left out. A lesson in another language
    (``ca/flamme_rouge/02_energy_phase.ipynb``) is the same lesson as the English one, with the same key and
    quizzes (``tutor.i18n.lesson_languages``): it is not listed again."""
    from tutor.core.games import GAMES
    from tutor.ui.lessons import lesson_info

    directory = Path(directory).resolve()
    from .notes import quiz_titles

    folders = [(directory / game.lessons, game.title) for game in GAMES.values()] + [(directory, "")]
    paths = [
        (path, group)
        for folder, group in folders
        for path in sorted(folder.glob("*.ipynb"))
        if path != directory / "index.ipynb" and not path.name.startswith((".", "_"))
    ]
    infos = [(path, group, lesson_info(path)) for path, group in paths]
    return [
        Lesson(path.relative_to(directory).as_posix(), info.title, info.quiz_ids, quiz_titles(path), group)
        for path, group, info in infos
    ]


def new_teacher_token() -> str:
    return secrets.token_urlsafe(24)


MAX_KERNELS = 2000
"""Kernels (and their pages) the class remembers: many more than a class's places."""
MAX_WAITING_VERDICTS = 50
"""Verdicts a kernel may send before its page's learner has joined (kept until then)."""


@dataclass
class KernelPlace:
    """A lesson kernel handed to a page: its lesson, the page's key and, once the page has said so, the learner."""

    lesson: str
    page: str
    learner: Learner | None = None
    waiting: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Classroom:
    """Everything the endpoints share: the database, the teacher's token, page keys and the limits (per page key,
    per client address)."""

    db: ClassDatabase
    teacher_token: str
    """The token of the teacher's link: it opens the view once (``open_teacher_link``)."""
    teacher_address: str = ""
    """The teacher view's address without the token (``http://host:port/rules-tutor/teacher``): a new link is
    printed with it."""
    teacher_link_used: bool = False
    teacher_sessions: OrderedDict[str, None] = field(default_factory=OrderedDict)
    """The cookies' values the teacher's links were exchanged for (the newest ``TEACHER_SESSIONS``)."""
    keys: PageKeys = field(init=False)
    posts: RateLimit = field(default_factory=RateLimit)
    client_posts: RateLimit = field(default_factory=lambda: RateLimit(per_second=10.0, burst=60.0))
    joins: RateLimit = field(default_factory=lambda: RateLimit(per_second=1 / 15, burst=JOINS_PER_CLIENT))
    joined: ClientCounts = field(default_factory=lambda: ClientCounts(JOINS_PER_CLIENT))
    open_asks: RateLimit = field(default_factory=lambda: RateLimit(per_second=1.0, burst=2.0 * OPEN_WAITS_PER_CLIENT))
    waiting: dict[str, int] = field(default_factory=dict)
    """Client address -> its "Not open yet" questions waiting now."""
    _pace_changed: set[asyncio.Future[None]] = field(default_factory=set)
    kernel_verdicts: bool = False
    """Whether the lesson kernels post the quiz verdicts (``kernel_report``; the server gave them their keys): then
    a page's "answered" is only a hint, and the class records the kernel's verdict."""
    kernels: OrderedDict[str, KernelPlace] = field(default_factory=OrderedDict)
    """Kernel id -> its lesson, its page's key and the learner of that page (the newest ``MAX_KERNELS``)."""
    page_kernels: OrderedDict[str, str] = field(default_factory=OrderedDict)
    """Page key -> the kernel that page was served with."""
    verdicts: RateLimit = field(default_factory=lambda: RateLimit(per_second=2.0, burst=20.0))

    def __post_init__(self) -> None:
        self.keys = PageKeys(self.db.page_secret)

    def kernel_environment(self, kernel_id: str, url: str) -> dict[str, str]:
        """What a lesson kernel's environment gets at its start (``kernel_report``)."""
        return kernel_environment(self.db.page_secret, kernel_id, url)

    def valid_kernel_key(self, kernel_id: object, key: object) -> bool:
        return (
            isinstance(kernel_id, str)
            and isinstance(key, str)
            and kernel_id.isascii()
            and key.isascii()
            and 0 < len(kernel_id) <= 64
            and hmac.compare_digest(key, kernel_key(self.db.page_secret, kernel_id))
        )

    def page_served(self, page: str, kernel_id: str, lesson: str) -> None:
        """The lesson page with key ``page`` was served with the kernel ``kernel_id``."""
        self.kernels[kernel_id] = KernelPlace(lesson_key(lesson), page)
        self.page_kernels[page] = kernel_id
        for table in (self.kernels, self.page_kernels):
            while len(table) > MAX_KERNELS:
                table.popitem(last=False)

    def page_learner(self, page: str, learner: Learner) -> None:
        """The page with key ``page`` is ``learner``'s: its kernel's verdicts are theirs (and those it sent before
        the learner joined are recorded now)."""
        place = self.kernels.get(self.page_kernels.get(page, ""))
        if place is None or place.learner == learner:
            return
        place.learner = learner
        waiting, place.waiting = place.waiting, []
        for verdict in waiting:
            self.record_verdict(place, verdict)

    def record_verdict(self, place: KernelPlace, verdict: dict[str, Any]) -> str:
        """Record a kernel's verdict for its page's learner; why not ("" when recorded or kept until the learner
        joins)."""
        settings = self.db.settings()
        if place.lesson in settings["closed"]:
            return "this lesson is not open"
        if settings["paused"]:
            return "the class is paused"
        if place.learner is None:
            if len(place.waiting) < MAX_WAITING_VERDICTS:
                place.waiting.append(verdict)
            return ""
        self.db.answered(
            place.learner, place.lesson, verdict["quiz"], verdict["right"], verdict["choice"], verdict["id"]
        )
        return ""

    def pace_changed(self) -> None:
        """The teacher opened or closed lessons: the waiting "Not open yet" pages look again at once."""
        for waiter in self._pace_changed:
            if not waiter.done():
                waiter.set_result(None)
        self._pace_changed.clear()

    async def wait_for_pace(self, seconds: float) -> None:
        """Until the teacher changes the pace, or ``seconds``."""
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pace_changed.add(waiter)
        try:
            await asyncio.wait_for(asyncio.shield(waiter), seconds)
        except TimeoutError:
            pass
        finally:
            self._pace_changed.discard(waiter)

    def is_teacher(self, token: str | None) -> bool:
        """Whether ``token`` (an ``X-Teacher-Token`` header or the teacher's cookie) lets the teacher in: one of the
        sessions the teacher's link was exchanged for, or the link's token itself until it has been opened."""
        if not token or not str(token).isascii():
            return False
        token = str(token)
        if not self.teacher_link_used and hmac.compare_digest(token.encode(), self.teacher_token.encode()):
            return True
        return any(hmac.compare_digest(token.encode(), session.encode()) for session in self.teacher_sessions)

    def open_teacher_link(self, token: str) -> str | None:
        """The teacher's link opened with ``token``: a new session (the cookie's value) the first time; None for a
        link used already, an old one or a made-up one."""
        if (
            self.teacher_link_used
            or not token.isascii()
            or not hmac.compare_digest(token.encode(), self.teacher_token.encode())
        ):
            return None
        self.teacher_link_used = True
        session = secrets.token_urlsafe(24)
        self.teacher_sessions[session] = None
        while len(self.teacher_sessions) > TEACHER_SESSIONS:
            self.teacher_sessions.popitem(last=False)
        return session

    def new_teacher_link(self) -> str:
        """A new link for the teacher's view (the old one stops working; the views opened stay open)."""
        self.teacher_token, self.teacher_link_used = new_teacher_token(), False
        return teacher_link_at(self.teacher_address, self.teacher_token)

    def page_token(self, session: str) -> str:
        """A token for one teacher page of ``session``: the page's actions carry it (``X-Teacher-Page``), which a
        page of another site (or of another port of this machine) cannot read."""
        nonce = secrets.token_urlsafe(9)
        return f"{nonce}.{self._page_mac(session, nonce)}"

    def valid_page_token(self, session: str, token: object) -> bool:
        if not isinstance(token, str) or not token.isascii() or len(token) > 80 or token.count(".") != 1:
            return False
        nonce, mac = token.split(".")
        return hmac.compare_digest(mac, self._page_mac(session, nonce))

    def _page_mac(self, session: str, nonce: str) -> str:
        return hmac.new(self.db.page_secret, f"teacher.{session}.{nonce}".encode(), "sha256").hexdigest()[:32]

    def new_page_key(self) -> str:
        return self.keys.issue(self.db.current_class()["id"])


@tornado.web.stream_request_body
class ClassHandler(tornado.web.RequestHandler):
    """A class endpoint: a body of at most ``max_body`` bytes (a longer one is refused with 400 before it is read),
    no XSRF cookie, no caching, errors without a page and logged on one line."""

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
        """No XSRF cookie: a learner's post needs a page key and a teacher's the token (or its SameSite=Strict
        cookie), neither of which another site's page can send."""

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

    def _request_summary(self) -> str:
        """The request as the access log shows it: a teacher's token in the address never reaches the log."""
        uri = re.sub(r"(?i)((?:^|[?&])token=)[^&]*", r"\1…", self.request.uri or "")
        return f"{self.request.method} {uri[:300]} ({self.request.remote_ip})"

    def log_exception(self, typ: Any, value: Any, tb: Any) -> None:
        """One line, never a traceback (a learner's odd post must not fill the log)."""
        if isinstance(value, tornado.web.HTTPError):
            return
        log.warning("%s %s: %s", self.request.method, self.request.path, typ.__name__ if typ else "error")

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.finish()  # no traceback, no page: just the status


class _LearnerHandler(ClassHandler):
    """A learner's post: size, JSON, page key and rate limits checked before anything else."""

    limit_name = "posts"

    def post(self) -> None:
        data, problem = parse_body(bytes(self.body))
        if data is None:
            return self.reply(400, {"error": problem})
        page, client = data.get("page"), device_of(self.request.remote_ip)
        if not self.classroom.keys.valid(page, self.classroom.db.current_class()["id"]):
            return self.reply(403, {"error": "not a page of this class: reload the page"})
        assert isinstance(page, str)
        if not (
            self.classroom.client_posts.allow(client)
            and getattr(self.classroom, self.limit_name).allow(page if self.limit_name == "posts" else client)
        ):
            return self.reply(429, {"error": "too many"})
        self.handle(data)

    def learner(self, data: dict[str, Any]) -> Learner | None:
        secret = data.get("learner")
        if not isinstance(secret, str) or not 10 <= len(secret) <= 64:
            return None
        learner = self.classroom.db.learner(secret)
        if learner is not None:
            self.classroom.page_learner(data["page"], learner)  # this page's kernel answers for this learner
        return learner

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
        problem = self.classroom.db.name_problem(name)
        if problem:  # before the device's count of joins: a refused name does not use one up
            return self.reply(400, {"error": problem, "name": True})
        if not self.classroom.joined.add(device_of(self.request.remote_ip), self.classroom.db.current_class()["id"]):
            return self.reply(429, {"error": "this device has joined enough learners"})
        try:
            joined = self.classroom.db.join(name)
        except NameRefused as refused:
            return self.reply(400, {"error": str(refused), "name": True})
        if joined is None:
            return self.reply(429, {"error": "the class is full"})
        learner, secret = joined
        self.classroom.page_learner(data["page"], learner)
        self.reply(200, {"learner": secret, "name": learner.shown_name})


class EventHandler(_LearnerHandler):
    def handle(self, data: dict[str, Any]) -> None:
        learner = self.learner(data)
        if learner is None:
            return self.reply(403, {"error": "join first"})
        db = self.classroom.db
        kind, lesson, event = data.get("kind"), data.get("lesson"), data.get("id", "")
        if isinstance(lesson, str):
            lesson = lesson_key(lesson)  # a lesson in Catalan is the English lesson: one key, the same quizzes
        if not isinstance(lesson, str) or lesson not in db.lesson_keys:
            return self.reply(400, {"error": "unknown lesson"})
        if not isinstance(event, str) or (event and not EVENT_ID.fullmatch(event)):
            return self.reply(400, {"error": "bad event id"})
        settings = db.settings()
        if lesson in settings["closed"]:
            return self.reply(409, {"error": "this lesson is not open"})
        if kind == "opened":
            db.opened(learner, lesson, event)
        elif kind == "board":
            shown = data.get("shown")
            if not isinstance(shown, bool):
                return self.reply(400, {"error": "bad board"})
            db.board(learner, lesson, shown, event)
        elif kind == "answered":
            quiz, right, choice = data.get("quiz"), data.get("right"), data.get("choice", "")
            if not (
                isinstance(quiz, str)
                and QUIZ_ID.fullmatch(quiz)
                and isinstance(right, bool)
                and isinstance(choice, str)
            ):
                return self.reply(400, {"error": "bad answer"})
            if quiz not in db.quiz_ids[lesson]:
                return self.reply(400, {"error": "not a quiz of this lesson"})
            if settings["paused"]:
                return self.reply(409, {"error": "the class is paused"})
            if not self.classroom.kernel_verdicts:  # a server whose kernels do not post (tests, a bare Classroom)
                db.answered(learner, lesson, quiz, right, choice, event)
            # else a hint only: the lesson's kernel has posted (or posts) its own verdict (VerdictHandler)
        else:
            return self.reply(400, {"error": "unknown kind"})
        self.reply(204)


class VerdictHandler(ClassHandler):
    """``POST class/verdict`` ``{kernel, key, quiz, right, choice, id}`` from a lesson kernel (``kernel_report``):
    recorded for the learner whose page holds the kernel (204; 202 while that learner has not joined yet)."""

    def post(self) -> None:
        data, problem = parse_body(bytes(self.body))
        if data is None:
            return self.reply(400, {"error": problem})
        room, kernel = self.classroom, data.get("kernel")
        if not room.valid_kernel_key(kernel, data.get("key")):
            return self.reply(403, {"error": "not a lesson kernel of this server"})
        assert isinstance(kernel, str)
        if not room.verdicts.allow(kernel):
            return self.reply(429, {"error": "too many"})
        place = room.kernels.get(kernel)
        if place is None:
            return self.reply(409, {"error": "no page has this kernel"})  # a pooled kernel not handed out yet
        quiz, right, choice, event = (data.get(name) for name in ("quiz", "right", "choice", "id"))
        if not (
            isinstance(quiz, str)
            and QUIZ_ID.fullmatch(quiz)
            and isinstance(right, bool)
            and isinstance(choice, str)
            and isinstance(event, str)
            and EVENT_ID.fullmatch(event)
        ):
            return self.reply(400, {"error": "bad verdict"})
        if quiz not in room.db.quiz_ids.get(place.lesson, ()):
            return self.reply(400, {"error": "not a quiz of this lesson"})
        refused = room.record_verdict(place, {"quiz": quiz, "right": right, "choice": choice, "id": event})
        if refused:
            return self.reply(409, {"error": refused})
        self.reply(204 if place.learner is not None else 202)


class StateHandler(_LearnerHandler):
    def handle(self, data: dict[str, Any]) -> None:
        db = self.classroom.db
        settings = db.settings()
        learner = self.learner(data)
        state: dict[str, Any] = {
            "joined": learner is not None,
            "paused": settings["paused"],
            "closed": settings["closed"],
        }
        if learner is not None:
            state.update(name=learner.shown_name, progress=db.progress(learner))
        self.reply(200, state)


class OpenHandler(ClassHandler):
    """``GET class/open?lesson=...``: ``{"open": true}`` once the lesson is open (see the module's docstring)."""

    gone = False

    def on_connection_close(self) -> None:
        self.gone = True  # the page went away: its question stops at its next look (OPEN_RECHECK_S)

    async def get(self) -> None:
        room, client = self.classroom, device_of(self.request.remote_ip)
        lesson = lesson_key(self.get_query_argument("lesson", "")[:200])
        if lesson not in room.db.lesson_keys:
            return self.reply(400, {"error": "unknown lesson"})
        if room.waiting.get(client, 0) >= OPEN_WAITS_PER_CLIENT or not room.open_asks.allow(client):
            return self.reply(429, {"error": "too many"})
        room.waiting[client] = room.waiting.get(client, 0) + 1
        try:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + OPEN_WAIT_S
            while lesson in room.db.settings()["closed"] and loop.time() < deadline and not self.gone:
                await room.wait_for_pace(min(OPEN_RECHECK_S, deadline - loop.time()))
        finally:
            room.waiting[client] -= 1
            if not room.waiting[client]:
                del room.waiting[client]
        if not self.gone:
            self.reply(200, {"open": lesson not in room.db.settings()["closed"]})


def stamp_page(handler: tornado.web.RequestHandler, classroom: Classroom) -> str:
    """Give the lesson page ``handler`` is about to send its key (a session cookie that the page's script reads);
    the key."""
    key = classroom.new_page_key()
    handler.set_cookie(PAGE_COOKIE, key, path="/", samesite="Strict")
    return key


def verdicts_url(ip: str, port: int, base_url: str = "/") -> str:
    """Where the lesson kernels post their verdicts: the server on this machine (``ip``, the address it listens
    on; any address: the loopback one)."""
    host = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1", "localhost": "127.0.0.1"}.get(ip, ip)
    host = f"[{host}]" if ":" in host else host
    return f"http://{host}:{port}{base_url.rstrip('/')}/rules-tutor/class/verdict"


def class_mode_settings(
    settings: dict[str, Any], class_db: Path, teacher_token: str, address: str = ""
) -> dict[str, Any]:
    """``settings`` (voila.json's) with the class's database, the teacher's token and the teacher view's address
    (``teacher_address``) for ``ClassroomVoila``, and ``resources.rules_tutor_class`` that makes the template load
    the learners' class script."""
    settings = json.loads(json.dumps(settings))
    settings.setdefault("ClassroomVoila", {}).update(
        class_db=str(class_db), teacher_token=teacher_token, teacher_address=address
    )
    settings.setdefault("VoilaConfiguration", {}).setdefault("resources", {})["rules_tutor_class"] = True
    return settings


def teacher_address(host: str, port: int, base_url: str = "/") -> str:
    return f"http://{host}:{port}{base_url.rstrip('/')}/rules-tutor/teacher"


def teacher_link_at(address: str, teacher_token: str) -> str:
    return f"{address}?token={teacher_token}"


def teacher_link(host: str, port: int, teacher_token: str, base_url: str = "/") -> str:
    return teacher_link_at(teacher_address(host, port, base_url), teacher_token)


TEACHER_LINK_LINE = "Teacher view (keep this link to yourself): {link}"


def print_new_links_on_signal(classroom: Classroom) -> None:
    """On ``NEW_LINK_SIGNAL`` the server prints a new link for the teacher's view (the old one stops working)."""
    if NEW_LINK_SIGNAL is None:
        return

    def print_a_new_link(signum: int, frame: object) -> None:
        print(TEACHER_LINK_LINE.format(link=classroom.new_teacher_link()), flush=True)

    signal.signal(NEW_LINK_SIGNAL, print_a_new_link)
