"""The class database (tutor.classroom.database) and the class endpoints (tutor.classroom.handlers) on a tornado
test server: joining, events, the learner's own state, the teacher's token, CSV contents, bounds and floods."""

from __future__ import annotations

import asyncio
import csv
import html
import io
import json
import re
import sqlite3
import time
from pathlib import Path

import pytest
import tornado.web
from tornado.testing import AsyncHTTPTestCase

from tutor.classroom.database import MAX_LEARNERS, ClassDatabase, Lesson, default_path
from tutor.classroom.guard import PageKeys, RateLimit
from tutor.classroom.endpoints import routes
from tutor.classroom.handlers import MAX_BODY, PAGE_COOKIE, Classroom, lessons_of, stamp_page

REPO = Path(__file__).resolve().parent.parent
LESSONS = [
    Lesson("index.ipynb", "Rules tutor"),
    Lesson("fr/01_a.ipynb", "1. Track", ("q1", "q2", "q3")),
    Lesson("fr/02_b.ipynb", "2. Energy", ("a", "b")),
]
ONE, TWO = "fr/01_a.ipynb", "fr/02_b.ipynb"


def _rows(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as db:
        return {
            table: db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
            for table in ("classes", "learners", "lessons", "answers", "meta")
        }


@pytest.fixture
def db(tmp_path: Path) -> ClassDatabase:
    database = ClassDatabase(tmp_path / "class.sqlite3", LESSONS)
    yield database
    database.close()


# ----- the database ------------------------------------------------------------------------------------------


def test_the_file_is_in_wal_mode_under_the_data_folder(tmp_path):
    assert default_path({"XDG_DATA_HOME": "/x/data"}) == Path("/x/data/rules-tutor/class.sqlite3")
    assert default_path({"HOME": "/h"}).parts[-3:] == ("share", "rules-tutor", "class.sqlite3")
    database = ClassDatabase(tmp_path / "deep" / "folder" / "class.sqlite3", LESSONS)
    assert database._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert (tmp_path / "deep" / "folder" / "class.sqlite3").stat().st_mode & 0o777 == 0o600  # learners' names


def test_learners_get_numbers_and_clean_names(db):
    ana, ana_secret = db.join("  Ana\n\x00 ")
    nobody, _ = db.join("")
    long, _ = db.join("x" * 500)
    assert (ana.number, ana.name, ana.shown_name) == (1, "Ana", "Ana")
    assert (nobody.number, nobody.name, nobody.shown_name) == (2, None, "Learner 2")
    assert len(long.name) == 40
    assert db.learner(ana_secret) == ana
    assert db.learner("not a secret") is None


def test_a_name_is_data_never_sql(db):
    learner, secret = db.join("Robert'); DROP TABLE learners;--")
    assert db.learner(secret).name == "Robert'); DROP TABLE learners;--"
    assert db.report()["learners"][0]["name"] == "Robert'); DROP TABLE learners;--"


def test_answers_count_tries_until_the_first_right_one(db):
    ana, _ = db.join("Ana")
    db.opened(ana, ONE)
    db.answered(ana, ONE, "q1", True, "square 7")
    db.answered(ana, ONE, "q2", False, "red")
    db.answered(ana, ONE, "q2", False, "blue")
    db.answered(ana, ONE, "q2", True, "green")
    db.answered(ana, ONE, "q2", False, "red")  # after the first right answer: the result stays
    db.answered(ana, ONE, "q3", False, "4")
    progress = db.progress(ana)[ONE]
    assert progress["quizzes"] == {"q1": "right-first", "q2": "right-after", "q3": "wrong"}
    assert progress["finished"] is True  # every quiz of the page has an answer
    cells = db.report()["learners"][0]["cells"]
    assert [(cell["state"], cell.get("tries"), cell.get("choice")) for cell in cells] == [
        ("finished", None, None),
        ("right-first", 1, "square 7"),
        ("right-after", 3, "red"),
        ("wrong", 1, "4"),
    ]


def test_a_lesson_is_finished_when_every_quiz_it_declares_is_answered(db):
    """The lesson's own quizzes (``Lesson.quizzes``, its notebook's metadata) count: a page left before its
    quizzes draw is not finished; a lesson without quizzes is, once opened."""
    ana, _ = db.join("Ana")
    db.opened(ana, "index.ipynb")
    assert db.progress(ana)["index.ipynb"]["finished"] is True  # no quiz
    db.opened(ana, TWO)
    assert db.progress(ana)[TWO]["finished"] is False
    db.answered(ana, TWO, "a", False)
    assert db.progress(ana)[TWO]["finished"] is False
    db.answered(ana, TWO, "b", True)
    assert db.progress(ana)[TWO]["finished"] is True
    quizzes = {lesson.key: lesson.quizzes for lesson in lessons_of(REPO / "lessons")}
    assert len(quizzes["flamme_rouge/03_movement.ipynb"]) == 2 and quizzes["flanders/07_full_game.ipynb"] == ()


def test_a_learner_sees_only_their_own_progress(db):
    ana, _ = db.join("Ana")
    ben, _ = db.join("Ben")
    db.answered(ana, ONE, "q1", True)
    db.answered(ben, TWO, "b", False)
    assert set(db.progress(ana)) == {ONE} and set(db.progress(ben)) == {TWO}


def test_unknown_lessons_and_made_up_quizzes_are_not_recorded(db):
    ana, _ = db.join("Ana")
    assert not db.opened(ana, "../../etc/passwd")
    assert not db.answered(ana, "nope.ipynb", "q", True)
    assert not any(db.answered(ana, ONE, f"made-up-{n}", True) for n in range(1000))
    assert not db.answered(ana, ONE, "a", True)  # a quiz of another lesson
    assert db.answered(ana, ONE, "q1", False)
    assert _rows(db.path)["answers"] == 1


def test_a_class_holds_at_most_max_learners(db):
    for _ in range(MAX_LEARNERS):
        assert db.join("x") is not None
    assert db.join("one too many") is None
    assert db.learner_count() == MAX_LEARNERS


def test_report_columns_and_share_right_first_time(db):
    ana, _ = db.join("Ana")
    ben, _ = db.join("Ben")
    cyd, _ = db.join("")
    db.opened(ana, TWO)
    db.answered(ana, TWO, "a", True)
    db.answered(ana, TWO, "b", True)
    db.answered(ben, TWO, "a", False)
    db.answered(ben, TWO, "a", True)
    report = db.report()
    assert [(c["label"], c.get("answered"), c.get("right_first")) for c in report["columns"]] == [
        ("2. Energy", None, None),
        ("Q1", 2, 1),
        ("Q2", 1, 1),
    ]
    assert [(p["name"], [c["state"] for c in p["cells"]]) for p in report["learners"]] == [
        ("Ana", ["finished", "right-first", "right-first"]),
        ("Ben", ["opened", "right-after", "opened"]),
        ("Learner 3", ["not-yet", "not-yet", "not-yet"]),
    ]


def test_the_share_right_first_time_counts_the_learners_who_answered_and_columns_name_their_question(tmp_path):
    titled = [Lesson(TWO, "2. Energy", ("a", "b"), ("Where do the cards go?", "How many cards?"))]
    db = ClassDatabase(tmp_path / "class.sqlite3", titled)
    ana, _ = db.join("Ana")
    for name in ("Ben", "Cy", "Dee"):
        db.join(name)  # in the class, no answer yet
    db.answered(ana, TWO, "b", True)
    columns = db.report()["columns"]
    assert [(c["label"], c.get("answered"), c.get("share")) for c in columns] == [
        ("2. Energy", None, None),
        ("How many cards?", 1, 100),
    ]  # one right of one: 100 %, not 25 %
    assert list(csv.reader(io.StringIO(db.csv())))[2][3] == "How many cards?"
    db.close()


def test_pause_pace_and_anonymize_are_the_class_settings(db):
    db.join("Ana")
    db.set_paused(True)
    db.set_closed([TWO, "unknown.ipynb"])
    db.set_anonymized(True)
    assert db.settings() | {"id": 0, "started": 0} == {
        "id": 0,
        "started": 0,
        "paused": True,
        "anonymized": True,
        "closed": [TWO],
    }
    assert [learner["name"] for learner in db.report()["learners"]] == ["Learner 1"]


def test_a_new_class_archives_the_old_one(db):
    ana, secret = db.join("Ana")
    db.answered(ana, ONE, "q1", True)
    db.set_paused(True)
    old = db.settings()["id"]
    db.new_class()
    assert db.learner(secret) is None  # Ana joins again
    assert db.settings()["paused"] is False and db.report()["learners"] == []
    assert [(c["id"], c["learners"]) for c in db.archived_classes()] == [(old, 1)]
    assert db.report(old)["learners"][0]["name"] == "Ana"


def test_the_same_results_after_a_restart(tmp_path):
    path = tmp_path / "class.sqlite3"
    first = ClassDatabase(path, LESSONS)
    ana, secret = first.join("Ana")
    first.answered(ana, ONE, "q1", False, "3")
    first.answered(ana, ONE, "q1", True, "4")
    first.set_closed([TWO])
    key = PageKeys(first.page_secret).issue(first.settings()["id"])
    before, csv_before = first.report(), first.csv()
    first.close()
    second = ClassDatabase(path, LESSONS)
    assert second.report() == before and second.csv() == csv_before
    assert second.learner(secret) == ana
    assert PageKeys(second.page_secret).valid(key, second.settings()["id"])  # pages served before still count


def test_csv_contents(db):
    ana, _ = db.join("Ana")
    eve, _ = db.join('=HYPERLINK("http://x")')
    db.opened(ana, TWO)
    db.answered(ana, TWO, "a", False, "red")
    db.answered(ana, TWO, "a", True, "blue")
    db.answered(ana, TWO, "b", False, "-1+1")
    db.opened(eve, "index.ipynb")
    rows = list(csv.reader(io.StringIO(db.csv())))
    assert rows == [
        ["learner", "name", "lesson", "quiz", "result", "tries", "first choice"],
        ["1", "Ana", "2. Energy", "", "finished", "", ""],
        ["1", "Ana", "2. Energy", "Q1", "right after tries", "2", "red"],
        ["1", "Ana", "2. Energy", "Q2", "wrong", "1", "'-1+1"],
        ["2", '\'=HYPERLINK("http://x")', "Rules tutor", "", "finished", "", ""],
    ]
    db.set_anonymized(True)
    assert [row[1] for row in csv.reader(io.StringIO(db.csv()))][1:] == ["Learner 1"] * 3 + ["Learner 2"]


def test_lessons_of_the_repository():
    lessons = lessons_of(REPO / "lessons")
    keys = [lesson.key for lesson in lessons]
    movement = next(lesson for lesson in lessons if lesson.key == "flamme_rouge/03_movement.ipynb")
    assert movement.quiz_titles == ("Who moves first?", "Where does a blocked rider end?")
    assert movement.group == "Flamme Rouge"
    assert all(len(lesson.quiz_titles) == len(lesson.quizzes) for lesson in lessons)  # every quiz has a title
    assert keys[0] == "flamme_rouge/00_welcome.ipynb" and "index.ipynb" not in keys  # the contents page is none
    assert "flamme_rouge/03_movement.ipynb" in keys and "flanders/02_a_turn.ipynb" in keys
    assert not any("checkpoint" in key for key in keys)


def test_a_lesson_opened_and_answered_in_catalan_is_the_english_lesson(db):
    """Issue 32: ``ca/fr/01_a.ipynb`` is ``fr/01_a.ipynb``: one key, the same quizzes, the same progress."""
    ana, _ = db.join("Ana")
    assert db.opened(ana, "ca/" + ONE)
    assert db.answered(ana, "ca/" + ONE, "q1", True) and db.answered(ana, ONE, "q2", False)
    assert db.answered(ana, "ca/" + ONE, "q2", True)  # the same quiz: a second try
    assert not db.answered(ana, "ca/" + ONE, "made-up", True)
    assert db.progress(ana) == {ONE: {"finished": False, "quizzes": {"q1": "right-first", "q2": "right-after"}}}
    db.answered(ana, "ca/" + ONE, "q3", True)
    assert db.progress(ana)[ONE]["finished"] is True
    report = db.report()
    assert [column["lesson"] for column in report["columns"]] == [ONE] * 4  # the lesson, then its three quizzes
    db.set_closed(["ca/" + TWO])
    assert db.settings()["closed"] == [TWO]


def test_lessons_of_the_repository_list_each_lesson_once_in_every_language():
    keys = [lesson.key for lesson in lessons_of(REPO / "lessons")]
    assert (REPO / "lessons" / "ca" / "flamme_rouge" / "02_energy_phase.ipynb").is_file()
    assert not any(key.startswith("ca/") for key in keys) and len(keys) == len(set(keys))
    assert "flamme_rouge/02_energy_phase.ipynb" in keys and "teachers.ipynb" in keys
    catalan = {lesson.key: lesson.quizzes for lesson in lessons_of(REPO / "lessons" / "ca")}
    english = {lesson.key: lesson.quizzes for lesson in lessons_of(REPO / "lessons")}
    assert catalan == english  # lessons/ca served alone: the same lessons and quizzes


def test_page_keys_and_rate_limit():
    now = [1_000_000.0]
    keys = PageKeys(b"k" * 32, clock=lambda: now[0], ttl_s=3600)
    key = keys.issue(1)
    assert keys.valid(key, 1) and keys.valid(keys.issue(1), 1)
    assert not PageKeys(b"other" * 8).valid(key, 1)
    assert not keys.valid(key, 2)  # a key of the class before "Start a new class"
    assert not any(
        keys.valid(bad, 1)
        for bad in (None, 7, "", key[:-1] + ("0" if key[-1] != "0" else "1"), key + "x", "a.b", "a.b.c", "\ud800.1.2")
    )
    now[0] += 3601
    assert not keys.valid(key, 1)  # keys expire
    now = [0.0]
    now = [0.0]
    limit = RateLimit(per_second=1, burst=3, max_keys=2, clock=lambda: now[0])
    assert [limit.allow("a") for _ in range(4)] == [True, True, True, False]
    now[0] += 1.0
    assert limit.allow("a") and not limit.allow("a")


# ----- the endpoints -----------------------------------------------------------------------------------------

TOKEN = "the-teacher-token-0123456789abcdef"


class _Page(tornado.web.RequestHandler):
    """Stands for a lesson page: it gets a page key."""

    def initialize(self, classroom: Classroom) -> None:
        self.classroom = classroom

    def get(self) -> None:
        stamp_page(self, self.classroom)
        self.finish("<html>a lesson</html>")


class ClassroomEndpoints(AsyncHTTPTestCase):
    def setUp(self) -> None:
        import tempfile

        self.folder = tempfile.TemporaryDirectory()
        self.db_path = Path(self.folder.name) / "class.sqlite3"
        self.classroom = Classroom(ClassDatabase(self.db_path, LESSONS), TOKEN)
        super().setUp()

    def tearDown(self) -> None:
        super().tearDown()
        self.classroom.db.close()
        self.folder.cleanup()

    def get_app(self) -> tornado.web.Application:
        return tornado.web.Application(
            [*routes(self.classroom), ("/page", _Page, {"classroom": self.classroom})], xsrf_cookies=True
        )

    # helpers
    def page_key(self) -> str:
        reply = self.fetch("/page")
        cookie = reply.headers["Set-Cookie"]
        assert cookie.startswith(PAGE_COOKIE + "=") and "SameSite=Strict" in cookie
        return cookie.split("=", 1)[1].split(";")[0]

    def post(self, path: str, body: object, **headers: str):
        data = body if isinstance(body, (bytes, str)) else json.dumps(body)
        return self.fetch(path, method="POST", body=data, headers=headers)

    def join(self, name: str = "", key: str | None = None) -> tuple[str, str]:
        key = key or self.page_key()
        reply = self.post("/rules-tutor/class/join", {"page": key, "name": name})
        assert reply.code == 200, reply.code
        return key, json.loads(reply.body)["learner"]

    def event(self, key: str, learner: str, **event: object):
        return self.post("/rules-tutor/class/event", {"page": key, "learner": learner, **event})

    def teacher(self, path: str = "/data", token: str | None = TOKEN, **kwargs: object):
        headers = {} if token is None else {"X-Teacher-Token": token}
        return self.fetch("/rules-tutor/teacher" + path, headers=headers, **kwargs)

    # tests
    def test_join_events_and_the_learners_own_state(self):
        key, ana = self.join("Ana")
        _, ben = self.join("")
        assert self.event(key, ana, kind="opened", lesson=TWO).code == 204
        assert self.event(key, ana, kind="answered", lesson=TWO, quiz="a", right=True, choice="7").code == 204
        state = json.loads(self.post("/rules-tutor/class/state", {"page": key, "learner": ana}).body)
        assert state == {
            "joined": True,
            "name": "Ana",
            "paused": False,
            "closed": [],
            "progress": {TWO: {"finished": False, "quizzes": {"a": "right-first"}}},
        }
        other = json.loads(self.post("/rules-tutor/class/state", {"page": key, "learner": ben}).body)
        assert other["name"] == "Learner 2" and other["progress"] == {}
        stranger = json.loads(self.post("/rules-tutor/class/state", {"page": key}).body)
        assert stranger == {"joined": False, "paused": False, "closed": []}
        # the same learner again (a new page of the same browser)
        again = self.post("/rules-tutor/class/join", {"page": self.page_key(), "learner": ana, "name": "Zed"})
        assert json.loads(again.body) == {"learner": ana, "name": "Ana"}

    def test_an_answer_from_the_catalan_page_counts_for_the_same_lesson_and_quiz(self):
        key, ana = self.join("Ana")
        assert self.event(key, ana, kind="opened", lesson="ca/" + TWO).code == 204
        assert self.event(key, ana, kind="answered", lesson="ca/" + TWO, quiz="a", right=False).code == 204
        assert self.event(key, ana, kind="answered", lesson=TWO, quiz="a", right=True).code == 204
        assert self.event(key, ana, kind="answered", lesson="ca/" + TWO, quiz="zz", right=True).code == 400
        assert self.event(key, ana, kind="opened", lesson="ca/fr/99_none.ipynb").code == 400
        state = json.loads(self.post("/rules-tutor/class/state", {"page": key, "learner": ana}).body)
        assert state["progress"] == {TWO: {"finished": False, "quizzes": {"a": "right-after"}}}
        self.classroom.db.set_closed([ONE])
        assert self.event(key, ana, kind="opened", lesson="ca/" + ONE).code == 409  # closed in every language

    def test_teacher_endpoints_need_the_token(self):
        for path in ("", "/data", "/results.csv"):
            for token in (None, "", "wrong", TOKEN[:-1], TOKEN + "x", TOKEN.upper(), "\u00e9" * 5):
                reply = self.teacher(path, token)
                assert reply.code == 403 and TOKEN.encode() not in reply.body, (path, token)
            reply = self.fetch(f"/rules-tutor/teacher{path}?token=nope", follow_redirects=False)
            assert reply.code == 403 and "Set-Cookie" not in reply.headers
            assert self.teacher(path).code == 200
        assert self.fetch(f"/rules-tutor/teacher/data?token={TOKEN}").code == 403  # the data: header or cookie
        action = self.post("/rules-tutor/teacher/action", {"action": "pause", "on": True}, **{"X-Teacher-Token": "x"})
        assert action.code == 403 and action.body.count(b"\n") == 0 and b"error" in action.body
        assert self.classroom.db.settings()["paused"] is False

    def test_the_teacher_page_is_whole_and_offline(self):
        page = self.teacher("").body.decode()
        assert "<!-- teacher.js -->" not in page and "setInterval(refresh" in page and "@media print" in page
        assert "http://" not in page and "https://" not in page
        assert TOKEN not in page  # the token is in an HttpOnly cookie, never in the page

    def test_teacher_actions(self):
        key, ana = self.join("Ana")

        def act(**body: object) -> dict:
            reply = self.post("/rules-tutor/teacher/action", body, **{"X-Teacher-Token": TOKEN})
            assert reply.code == 200, reply.body
            return json.loads(reply.body)

        assert act(action="pause", on=True)["paused"] is True
        assert json.loads(self.post("/rules-tutor/class/state", {"page": key, "learner": ana}).body)["paused"]
        assert act(action="pace", closed=[TWO])["closed"] == [TWO]
        assert json.loads(self.post("/rules-tutor/class/state", {"page": key}).body)["closed"] == [TWO]
        assert act(action="anonymize", on=True)["anonymized"] is True
        assert json.loads(self.teacher().body)["learners"][0]["name"] == "Learner 1"
        old = act(action="new-class")
        assert old["paused"] is False and old["closed"] == []
        old_key = self.post("/rules-tutor/class/state", {"page": key, "learner": ana})
        assert old_key.code == 403  # a page key of the class before
        fresh = self.post("/rules-tutor/class/state", {"page": self.page_key(), "learner": ana})
        assert json.loads(fresh.body)["joined"] is False
        for bad in ({"action": "pause"}, {"action": "pace", "closed": "all"}, {"action": "explode"}, [], "x"):
            assert self.post("/rules-tutor/teacher/action", bad, **{"X-Teacher-Token": TOKEN}).code == 400

    def test_a_waiting_not_open_page_hears_at_once_when_the_teacher_opens_its_lesson(self):
        """Issue 37: the "Not open yet" page asks ``class/open``; the answer waits for the teacher's click."""
        from tornado.httpclient import AsyncHTTPClient

        from tutor.classroom.handlers import OPEN_WAIT_S
        from tutor.classroom.pages import not_open_page

        assert json.loads(self.fetch(f"/rules-tutor/class/open?lesson={ONE}").body) == {"open": True}
        assert self.fetch("/rules-tutor/class/open?lesson=nope.ipynb").code == 400
        self.classroom.db.set_closed([ONE])
        page = not_open_page("/voila/render/index.ipynb", "ca/" + ONE)
        assert '"/rules-tutor/class/open?lesson=ca/fr/01_a.ipynb"' in page and "location.reload()" in page

        async def wait_then_open() -> tuple[dict, float, float]:
            client = AsyncHTTPClient()
            asked = time.monotonic()
            waiting = client.fetch(self.get_url(f"/rules-tutor/class/open?lesson=ca/{ONE}"), request_timeout=60)
            while not self.classroom.waiting:  # the question waits on the server
                await asyncio.sleep(0.01)
            opened = time.monotonic()
            await client.fetch(
                self.get_url("/rules-tutor/teacher/action"),
                method="POST",
                body=json.dumps({"action": "pace", "closed": []}),
                headers={"X-Teacher-Token": TOKEN},
            )
            reply = await waiting
            return json.loads(reply.body), time.monotonic() - opened, opened - asked

        answer, after_the_click, waited = self.io_loop.run_sync(wait_then_open, timeout=OPEN_WAIT_S + 30)
        print(f"waited {waited:.2f} s on the server; answered {after_the_click:.2f} s after the teacher's click")
        assert answer == {"open": True} and after_the_click < OPEN_WAIT_S
        assert self.classroom.waiting == {}

    def test_a_client_waits_with_a_bounded_number_of_questions(self):
        from tutor.classroom.handlers import OPEN_WAITS_PER_CLIENT

        self.classroom.waiting["127.0.0.1"] = OPEN_WAITS_PER_CLIENT  # its tabs already wait
        assert self.fetch(f"/rules-tutor/class/open?lesson={ONE}").code == 429
        self.classroom.waiting.clear()
        codes = [self.fetch(f"/rules-tutor/class/open?lesson={ONE}").code for _ in range(40)]  # asked in a loop
        assert codes[0] == 200 and codes[-1] == 429

    def test_csv_download(self):
        key, ana = self.join("Ana")
        self.event(key, ana, kind="answered", lesson=ONE, quiz="q1", right=False, choice="2")  # q1 of 3
        reply = self.teacher("/results.csv")
        assert reply.headers["Content-Type"].startswith("text/csv")
        assert "attachment" in reply.headers["Content-Disposition"]
        assert list(csv.reader(io.StringIO(reply.body.decode())))[2] == [
            "1",
            "Ana",
            "1. Track",
            "Q1",
            "wrong",
            "1",
            "2",
        ]

    def test_malformed_and_oversized_posts_are_refused(self):
        key, ana = self.join("Ana")
        before = _rows(self.db_path)
        bad_bodies = [b"", b"not json", b"[1,2]", b"\xff\xfe", b"null", json.dumps({"page": key}).encode()[:-1]]
        for body in bad_bodies:
            assert self.post("/rules-tutor/class/event", body).code == 400, body
        assert (
            self.post(
                "/rules-tutor/class/event",
                {
                    "page": key,
                    "learner": ana,
                    "kind": "answered",
                    "lesson": ONE,
                    "quiz": "q",
                    "right": True,
                    "choice": "x" * MAX_BODY,
                },
            ).code
            == 400
        )
        huge = self.post("/rules-tutor/class/event", b"{" + b" " * 5_000_000 + b"}")  # refused unread
        assert huge.code in (400, 599), huge.code  # 599: the server closed the connection while it was sent
        for event in (
            {"kind": "opened", "lesson": "nope.ipynb"},
            {"kind": "opened", "lesson": ONE, "id": 3},
            {"kind": "opened", "lesson": ONE, "id": "<x>" * 4},
            {"kind": "answered", "lesson": ONE, "quiz": "q1", "right": "yes"},
            {"kind": "answered", "lesson": ONE, "quiz": "made-up", "right": True},
            {"kind": "answered", "lesson": ONE, "quiz": "<script>", "right": True},
            {"kind": "answered", "lesson": ONE, "quiz": "q1", "right": True, "choice": 3},
            {"kind": "dance", "lesson": ONE},
            {"lesson": ONE},
            {"kind": "opened", "lesson": ["x"]},
        ):
            assert self.event(key, ana, **event).code == 400, event
        assert self.event(key, "not-a-learner-secret", kind="opened", lesson=ONE).code == 403
        assert self.post("/rules-tutor/class/join", {"page": key, "name": 7}).code == 400
        assert _rows(self.db_path) == before

    def test_posts_without_a_page_key_of_this_server_are_refused(self):
        key, ana = self.join("Ana")
        forged = PageKeys(b"another server" * 3).issue(self.classroom.db.settings()["id"])
        for page in (None, "", forged, key[:-2], 12):
            body = {"page": page, "learner": ana, "kind": "opened", "lesson": ONE}
            assert self.post("/rules-tutor/class/event", body).code == 403
            assert self.post("/rules-tutor/class/join", {"page": page}).code == 403
        assert _rows(self.db_path)["lessons"] == 0

    def test_too_frequent_posts_get_429(self):
        key, ana = self.join("Ana")
        codes = [self.event(key, ana, kind="opened", lesson=ONE).code for _ in range(40)]
        assert codes[0] == 204 and codes[-1] == 429
        joins = [self.post("/rules-tutor/class/join", {"page": key}).code for _ in range(5)]
        assert joins[-1] == 429  # one page cannot fill the class
        assert self.event(self.page_key(), ana, kind="opened", lesson=ONE).code == 204  # another page may

    def test_a_flood_of_10000_bogus_posts_adds_nothing(self):
        key, ana = self.join("Ana")
        self.event(key, ana, kind="opened", lesson=ONE)
        before, size = _rows(self.db_path), self.db_path.stat().st_size
        report = json.loads(self.teacher().body)
        forged = PageKeys(b"x" * 32)
        kinds = [
            lambda n: b"{" * (n % 50 + 1),  # malformed
            lambda n: json.dumps({"page": forged.issue(1), "learner": ana, "kind": "opened", "lesson": TWO}),
            lambda n: json.dumps({"page": key, "learner": "f" * 24, "kind": "opened", "lesson": TWO}),
            lambda n: json.dumps({"page": key, "learner": ana, "kind": "opened", "lesson": f"x{n}.ipynb"}),
            lambda n: b"x" * (MAX_BODY + 1 + n),
        ]
        codes: dict[int, int] = {}
        started = time.monotonic()
        for n in range(10_000):
            code = self.post("/rules-tutor/class/event", kinds[n % len(kinds)](n)).code
            codes[code] = codes.get(code, 0) + 1
        assert set(codes) <= {400, 403, 429}, codes
        assert _rows(self.db_path) == before and self.db_path.stat().st_size == size
        after = json.loads(self.teacher().body)
        assert after["learners"] == report["learners"] and after["columns"] == report["columns"]
        print(f"10,000 bogus posts: {codes} in {time.monotonic() - started:.1f} s")


def test_a_quiz_mark_carries_the_learners_choice_escaped():
    """The class script sends ``data-choice`` of the mark a Reveal leaves (tutor.ui.quiz)."""
    import ipywidgets as widgets

    from tutor.ui.quiz import RevealQuiz, Verdict

    class Quiz(RevealQuiz):
        answer = "<b>7</b> 'x'" + "y" * 200

        def play_out(self, answer: object) -> Verdict:
            return Verdict(right=False, told="no")

        def redraw(self, *, static: bool = False, animate: bool = False) -> None:
            pass

    quiz = Quiz(question="Which?", board=widgets.HTML(), inputs=[])
    quiz.reveal_button.click()
    mark = re.search(r"<span class='tutor-quiz-result'[^>]*>", quiz.feedback.value).group(0)
    choice = html.unescape(re.search(r"data-choice='([^']*)'", mark).group(1))
    assert choice == ("<b>7</b> 'x'" + "y" * 200)[:80] and "<b>" not in mark
