"""Issue 30's attacks on the class endpoints, on a tornado test server: every malformed post gets 400 and one
line (no traceback in the log), made-up quiz ids are not stored, one client cannot fill the class, the teacher's
secret moves to a cookie, the server keeps pause and pace, an event sent again is recorded once, and learners
with the same name are told apart."""

from __future__ import annotations

import json
import re
import logging
from pathlib import Path

import tornado.web
from tornado.testing import AsyncHTTPTestCase

from tutor.classroom.database import ClassDatabase, Lesson
from tutor.classroom.endpoints import routes
from tutor.classroom.handlers import JOINS_PER_CLIENT, Classroom, stamp_page
from tutor.classroom.teacher import TEACHER_COOKIE

LESSON, CLOSED = "fr/01_a.ipynb", "fr/02_b.ipynb"
LESSONS = [Lesson(LESSON, "1. Track", ("q1", "q2")), Lesson(CLOSED, "2. Energy", ("e1",))]
TOKEN = "the-teacher-token-0123456789abcdef"


class _Page(tornado.web.RequestHandler):
    def initialize(self, classroom: Classroom) -> None:
        self.classroom = classroom

    def get(self) -> None:
        stamp_page(self, self.classroom)
        self.finish("a lesson")


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class Attacks(AsyncHTTPTestCase):
    def setUp(self) -> None:
        import tempfile

        self.folder = tempfile.TemporaryDirectory()
        self.db_path = Path(self.folder.name) / "class.sqlite3"
        self.classroom = Classroom(ClassDatabase(self.db_path, LESSONS), TOKEN)
        self.log = _Records()
        logging.getLogger().addHandler(self.log)
        super().setUp()

    def tearDown(self) -> None:
        logging.getLogger().removeHandler(self.log)
        super().tearDown()
        self.classroom.db.close()
        self.folder.cleanup()

    def get_app(self) -> tornado.web.Application:
        return tornado.web.Application([*routes(self.classroom), ("/page", _Page, {"classroom": self.classroom})])

    def page_key(self) -> str:
        return self.fetch("/page").headers["Set-Cookie"].split("=", 1)[1].split(";")[0]

    def post(self, path: str, body: object, client: str = "127.0.0.1", **headers: str):
        data = body if isinstance(body, (bytes, str)) else json.dumps(body)
        return self.fetch(path, method="POST", body=data, headers=headers, network_interface=client)

    def join(self, name: str, client: str = "127.0.0.1"):
        return self.post("/rules-tutor/class/join", {"page": self.page_key(), "name": name}, client)

    def event(self, learner: str, client: str = "127.0.0.1", **event: object):
        return self.post("/rules-tutor/class/event", {"page": self.page_key(), "learner": learner, **event}, client)

    def answers(self) -> int:
        return self.classroom.db._db.execute("SELECT COUNT(*) FROM answers").fetchone()[0]

    def test_malformed_posts_get_400_and_one_line_never_a_traceback(self):
        key = self.page_key()
        learner = json.loads(self.join("Ana").body)["learner"]
        surrogate = '"\\ud800"'
        bodies = [
            b"[" * 2000,
            b"{" * 2000,
            b'{"page": ' + b"[" * 1000 + b"]" * 1000 + b"}",
            ('{"page": %s, "learner": "x"}' % surrogate).encode(),
            ('{"page": "%s", "learner": %s, "kind": "opened", "lesson": "%s"}' % (key, surrogate, LESSON)).encode(),
            ('{"page": "%s", "name": %s}' % (key, surrogate)).encode(),
            (
                '{"page": "%s", "learner": "%s", "kind": "answered", "lesson": "%s", "quiz": "q1", "right": true, '
                '"choice": %s}' % (key, learner, LESSON, surrogate)
            ).encode(),
            b"\xed\xa0\x80",
            b"not json",
            b"",
            b"null",
            b"[]",
            b'"page"',
            b"1e999999",
            json.dumps({"page": key, "learner": learner, "kind": "opened", "lesson": [[[[[LESSON]]]]]}).encode(),
        ]
        for path in ("join", "event", "state"):
            for body in bodies:
                reply = self.post(f"/rules-tutor/class/{path}", body)
                assert reply.code == 400, (path, body[:40], reply.code)
                assert len(reply.body.splitlines()) == 1 and "error" in json.loads(reply.body), (path, body[:40])
        teacher = self.post("/rules-tutor/teacher/action", b"[" * 2000, **{"X-Teacher-Token": TOKEN})
        assert teacher.code == 400
        assert not [r for r in self.log.records if r.exc_info or "Traceback" in r.getMessage()]
        assert self.answers() == 0

    def test_made_up_quiz_ids_are_not_stored(self):
        learner = json.loads(self.join("Pupil").body)["learner"]
        codes = {
            self.event(learner, kind="answered", lesson=LESSON, quiz=f"made-up-{n}", right=True).code
            for n in range(300)
        }
        assert codes == {400} or codes == {400, 429}
        other = "127.0.0.9"  # the pupil's own address is rate-limited by now
        assert self.event(learner, other, kind="answered", lesson=LESSON, quiz="e1", right=True).code == 400
        assert self.answers() == 0
        assert self.event(learner, other, kind="answered", lesson=LESSON, quiz="q1", right=True).code == 204
        data = self.fetch("/rules-tutor/teacher/data", headers={"X-Teacher-Token": TOKEN})
        columns = json.loads(data.body)["columns"]
        assert [column["label"] for column in columns] == ["1. Track", "Q1"]

    def test_one_client_cannot_fill_the_class(self):
        pupil = [self.join(f"fake {n}", "127.0.0.2").code for n in range(200)]
        assert pupil.count(200) == JOINS_PER_CLIENT and set(pupil[JOINS_PER_CLIENT:]) == {429}
        assert self.join("Ana", "127.0.0.3").code == 200
        assert self.classroom.db.learner_count() == JOINS_PER_CLIENT + 1

    def test_the_teacher_link_sets_an_http_only_cookie_and_a_clean_address(self):
        reply = self.fetch(f"/rules-tutor/teacher?token={TOKEN}", follow_redirects=False, raise_error=False)
        assert reply.code == 303 and reply.headers["Location"] == "/rules-tutor/teacher"
        cookie = reply.headers["Set-Cookie"]
        session = cookie.split(";")[0].split("=", 1)[1]
        assert cookie.startswith(f"{TEACHER_COOKIE}=") and TOKEN not in cookie and "HttpOnly" in cookie
        assert "Path=/rules-tutor/teacher" in cookie and "SameSite=Strict" in cookie
        with_cookie = {"Cookie": f"{TEACHER_COOKIE}={session}"}
        page = self.fetch("/rules-tutor/teacher", headers=with_cookie).body.decode()
        page_token = re.search(r'name="rules-tutor-page" content="([^"]+)"', page)[1]
        for path in ("", "/data", f"/results.csv?page={page_token}"):
            assert self.fetch("/rules-tutor/teacher" + path, headers=with_cookie).code == 200
            assert self.fetch("/rules-tutor/teacher" + path, headers={"Cookie": f"{TEACHER_COOKIE}=x"}).code == 403
        assert TOKEN not in page and session not in page and "history.replaceState" in page
        assert 'base + "/results.csv?page="' in page
        assert self.fetch("/rules-tutor/teacher?token=wrong", follow_redirects=False).code == 403

    def test_the_server_refuses_answers_while_paused_or_to_a_closed_lesson(self):
        learner = json.loads(self.join("Ana").body)["learner"]
        self.classroom.db.set_paused(True)
        assert self.event(learner, kind="answered", lesson=LESSON, quiz="q1", right=True).code == 409
        self.classroom.db.set_paused(False)
        self.classroom.db.set_closed([CLOSED])
        assert self.event(learner, kind="answered", lesson=CLOSED, quiz="e1", right=True).code == 409
        assert self.event(learner, kind="opened", lesson=CLOSED).code == 409
        assert self.answers() == 0 and CLOSED not in self.classroom.db.progress(self.classroom.db.learner(learner))

    def test_an_event_sent_again_is_recorded_once(self):
        learner = json.loads(self.join("Ana").body)["learner"]
        wrong = {"kind": "answered", "lesson": LESSON, "quiz": "q1", "right": False, "id": "a1b2c3d4e5f6"}
        for _ in range(3):  # the page did not hear the answer: it sends the same event again
            assert self.event(learner, **wrong).code == 204
        assert self.event(learner, **{**wrong, "right": True, "id": "f6e5d4c3b2a1"}).code == 204
        row = self.classroom.db._db.execute("SELECT tries, is_right FROM answers").fetchone()
        assert (row["tries"], row["is_right"]) == (2, 1)  # one wrong try, then right

    def test_learners_with_the_same_name_are_told_apart(self):
        for name, client in (
            ("Alice", "127.0.0.2"),
            ("Alice", "127.0.0.3"),
            ("Bob", "127.0.0.4"),
            ("Alice", "127.0.0.5"),
            ("Alice (2)", "127.0.0.6"),
            ("", "127.0.0.7"),
        ):
            assert self.join(name, client).code == 200
        data = json.loads(self.fetch("/rules-tutor/teacher/data", headers={"X-Teacher-Token": TOKEN}).body)
        assert [learner["name"] for learner in data["learners"]] == [
            "Alice",
            "Alice (3)",
            "Bob",
            "Alice (4)",
            "Alice (2)",
            "Learner 6",
        ]
