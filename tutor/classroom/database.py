"""``ClassDatabase``: the class's SQLite file, and the one object that reads and writes it.

Standard library ``sqlite3`` in WAL mode; every query is parameterised; writes go one at a time (a lock around each
write transaction). What it keeps, per class (the current one, and archived ones after "Start a new class"):

- learners: a number, a name (or none: "Learner 7" is shown), a hash of the learner's secret, joined and last
  activity (their last event);
- per learner and lesson: opened, finished, the number of quizzes the lesson has (its notebook's
  ``metadata.tutor.quizzes``, the ids its quiz widgets declare);
- per learner and quiz: the tries before the first right answer (or so far), whether it is right, the first and
  the last choice, when;
- the class's settings: paused, the closed lessons (Pace), anonymized.

- per learner: the ids of the events recorded last (``MAX_EVENT_IDS``), so that a page sending an event again
  (it did not hear the answer: a restart, a lost connection) records it once.

Everything is bounded (``MAX_LEARNERS``, text lengths, ``MAX_ARCHIVED_CLASSES``); a learner can record only the
lessons the server serves (``lessons``) and only their quizzes, so the teacher's data is bounded by the lessons.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tutor.i18n.lesson_languages import lesson_key

from .names import name_problem

MAX_LEARNERS = 300
"""Learners in one class; joins beyond it are refused."""
MAX_EVENT_IDS = 300
MAX_NAME = 40
MAX_CHOICE = 80
MAX_TRIES = 999
MAX_ARCHIVED_CLASSES = 50
NO_BOARD_AFTER_S = 20.0
"""A lesson page whose board has not shown this long after the page asked for it is marked "no board" for the
teacher (a lesson's board shows within a few seconds, 10 on a busy machine)."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS classes (
    id INTEGER PRIMARY KEY, started REAL NOT NULL, archived REAL,
    paused INTEGER NOT NULL DEFAULT 0, anonymized INTEGER NOT NULL DEFAULT 0, closed TEXT NOT NULL DEFAULT '[]');
CREATE TABLE IF NOT EXISTS learners (
    id INTEGER PRIMARY KEY, class_id INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
    number INTEGER NOT NULL, name TEXT, secret_hash TEXT NOT NULL UNIQUE, joined REAL NOT NULL, last_seen REAL NOT NULL,
    UNIQUE (class_id, number));
CREATE TABLE IF NOT EXISTS lessons (
    learner_id INTEGER NOT NULL REFERENCES learners(id) ON DELETE CASCADE, lesson TEXT NOT NULL,
    opened REAL NOT NULL, finished REAL, quizzes INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (learner_id, lesson));
CREATE TABLE IF NOT EXISTS answers (
    learner_id INTEGER NOT NULL REFERENCES learners(id) ON DELETE CASCADE, lesson TEXT NOT NULL, quiz TEXT NOT NULL,
    tries INTEGER NOT NULL, is_right INTEGER NOT NULL, first_choice TEXT, last_choice TEXT,
    first_answered REAL NOT NULL, answered REAL NOT NULL, PRIMARY KEY (learner_id, lesson, quiz));
CREATE TABLE IF NOT EXISTS boards (
    learner_id INTEGER NOT NULL REFERENCES learners(id) ON DELETE CASCADE, lesson TEXT NOT NULL,
    waiting REAL NOT NULL, shown REAL, PRIMARY KEY (learner_id, lesson));
CREATE TABLE IF NOT EXISTS events (
    learner_id INTEGER NOT NULL REFERENCES learners(id) ON DELETE CASCADE, event TEXT NOT NULL,
    PRIMARY KEY (learner_id, event));
"""


def default_path(environ: dict[str, str] | None = None) -> Path:
    """``$XDG_DATA_HOME/rules-tutor/class.sqlite3``, else ``~/.local/share/rules-tutor/class.sqlite3``."""
    environ = dict(os.environ) if environ is None else environ
    base = Path(environ["XDG_DATA_HOME"]) if environ.get("XDG_DATA_HOME") else Path.home() / ".local" / "share"
    return base / "rules-tutor" / "class.sqlite3"


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def clean_text(text: str, limit: int) -> str:
    """``text`` on one line without control characters, at most ``limit`` characters."""
    return " ".join("".join(ch for ch in text if ch.isprintable()).split())[:limit]


class NameRefused(ValueError):
    """A typed name that could pass for another learner (``str(error)``: why, one line)."""


@dataclass(frozen=True)
class Learner:
    id: int
    class_id: int
    number: int
    name: str | None

    @property
    def shown_name(self) -> str:
        return self.name or f"Learner {self.number}"


@dataclass(frozen=True)
class Lesson:
    key: str
    """The lesson's path below the served folder: ``flamme_rouge/03_movement.ipynb``."""
    title: str
    quizzes: tuple[str, ...] = ()
    """The ids of its quizzes (``tutor.ui.lessons.LessonInfo.quizzes``): the only ones recorded."""
    quiz_titles: tuple[str, ...] = ()
    """A short title of each quiz, in the order of ``quizzes`` (``metadata.tutor.quiz_titles``; English, the
    catalog's message): the teacher's grid names each quiz column by it."""
    group: str = ""
    """The game it teaches ("Flamme Rouge"; "" for the pages of no game): the grid's heading above its columns."""

    def quiz_title(self, quiz: str) -> str:
        """The quiz's short title; "Q2" for the second quiz of a lesson that gives none."""
        number = self.quizzes.index(quiz) if quiz in self.quizzes else len(self.quizzes)
        return self.quiz_titles[number] if number < len(self.quiz_titles) else f"Q{number + 1}"


class ClassDatabase:
    """The class's SQLite file at ``path`` (created with its folder when missing); ``lessons``: what may be
    recorded, in the teacher's order."""

    def __init__(self, path: Path | str, lessons: list[Lesson], clock: Callable[[], float] = time.time):
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if not self.path.exists():  # names of learners: readable by this user only (SQLite's -wal too)
                os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))
        self.lessons = list(lessons)
        self.lesson_keys = {lesson.key for lesson in lessons}
        self.quiz_ids = {lesson.key: frozenset(lesson.quizzes) for lesson in lessons}
        self.clock = clock
        self._write_lock = threading.Lock()
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")  # WAL: durable at checkpoints, consistent always
        self._db.execute("PRAGMA foreign_keys=ON")
        with self._writing():
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self._db.execute(statement)
            if self._db.execute("SELECT 1 FROM classes WHERE archived IS NULL").fetchone() is None:
                self._db.execute("INSERT INTO classes (started) VALUES (?)", (self.clock(),))
            self._db.execute(
                "INSERT OR IGNORE INTO meta (key, value) VALUES ('page_secret', ?)", (secrets.token_hex(32),)
            )

    def close(self) -> None:
        self._db.close()

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """One write transaction at a time."""
        with self._write_lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _one(self, query: str, *params: Any) -> sqlite3.Row | None:
        row: sqlite3.Row | None = self._db.execute(query, params).fetchone()
        return row

    # ----- the class ----------------------------------------------------------------------------------------

    @property
    def page_secret(self) -> bytes:
        """The key that signs page keys (kept, so that pages stay valid across a restart)."""
        row = self._one("SELECT value FROM meta WHERE key = 'page_secret'")
        assert row is not None
        return bytes.fromhex(row["value"])

    def current_class(self) -> sqlite3.Row:
        row = self._one("SELECT * FROM classes WHERE archived IS NULL ORDER BY id DESC LIMIT 1")
        assert row is not None
        return row

    def settings(self) -> dict[str, Any]:
        """The current class: ``id``, ``started``, ``paused``, ``anonymized``, ``closed`` (lesson keys)."""
        row = self.current_class()
        return {
            "id": row["id"],
            "started": row["started"],
            "paused": bool(row["paused"]),
            "anonymized": bool(row["anonymized"]),
            "closed": json.loads(row["closed"]),
        }

    def set_paused(self, paused: bool) -> None:
        with self._writing():
            self._db.execute("UPDATE classes SET paused = ? WHERE archived IS NULL", (int(paused),))

    def set_anonymized(self, anonymized: bool) -> None:
        with self._writing():
            self._db.execute("UPDATE classes SET anonymized = ? WHERE archived IS NULL", (int(anonymized),))

    def set_closed(self, closed: list[str]) -> None:
        """Pace: ``closed`` lessons say "Not open yet"; unknown keys are ignored."""
        keys = [lesson.key for lesson in self.lessons if lesson.key in {lesson_key(key) for key in closed}]
        with self._writing():
            self._db.execute("UPDATE classes SET closed = ? WHERE archived IS NULL", (json.dumps(keys),))

    def new_class(self) -> int:
        """Archive the current class and start an empty one (same settings: not paused, all lessons open);
        only the newest ``MAX_ARCHIVED_CLASSES`` archived classes are kept."""
        now = self.clock()
        with self._writing():
            self._db.execute("UPDATE classes SET archived = ? WHERE archived IS NULL", (now,))
            new_id = self._db.execute("INSERT INTO classes (started) VALUES (?)", (now,)).lastrowid
            self._db.execute(
                "DELETE FROM classes WHERE archived IS NOT NULL AND id NOT IN "
                "(SELECT id FROM classes WHERE archived IS NOT NULL ORDER BY id DESC LIMIT ?)",
                (MAX_ARCHIVED_CLASSES,),
            )
        assert new_id is not None
        return new_id

    def archived_classes(self) -> list[dict[str, Any]]:
        rows = self._db.execute(
            "SELECT c.id, c.started, c.archived, COUNT(l.id) AS learners FROM classes c "
            "LEFT JOIN learners l ON l.class_id = c.id WHERE c.archived IS NOT NULL "
            "GROUP BY c.id ORDER BY c.id DESC"
        ).fetchall()
        return [dict(row) for row in rows]

    # ----- learners -----------------------------------------------------------------------------------------

    def join(self, name: str = "") -> tuple[Learner, str] | None:
        """A new learner of the current class and their secret; None when the class has ``MAX_LEARNERS``.
        ``NameRefused`` for a name that looks like an unnamed learner's or like a classmate's without being it
        (``tutor.classroom.names``)."""
        name = clean_text(name, MAX_NAME)
        secret = secrets.token_urlsafe(18)
        now = self.clock()
        with self._writing():
            class_id = self.current_class()["id"]
            problem = self.name_problem(name)
            if problem:
                raise NameRefused(problem)
            row = self._one(
                "SELECT COUNT(*) AS n, COALESCE(MAX(number), 0) AS top FROM learners WHERE class_id = ?", class_id
            )
            assert row is not None
            if row["n"] >= MAX_LEARNERS:
                return None
            number = row["top"] + 1
            learner_id = self._db.execute(
                "INSERT INTO learners (class_id, number, name, secret_hash, joined, last_seen) VALUES (?,?,?,?,?,?)",
                (class_id, number, name or None, _hash(secret), now, now),
            ).lastrowid
        assert learner_id is not None
        return Learner(learner_id, class_id, number, name or None), secret

    def name_problem(self, name: str) -> str:
        """Why the current class refuses ``name`` (cleaned: ``clean_text``); "" when it takes it."""
        name = clean_text(name, MAX_NAME)
        if not name:
            return ""
        names = [
            row["name"]
            for row in self._db.execute(
                "SELECT name FROM learners WHERE class_id = ? AND name IS NOT NULL", (self.current_class()["id"],)
            )
        ]
        return name_problem(name, names)

    def learner(self, secret: str) -> Learner | None:
        """The current class's learner with this secret (None for an unknown one or a learner of an archived
        class)."""
        row = self._one(
            "SELECT l.* FROM learners l JOIN classes c ON c.id = l.class_id "
            "WHERE l.secret_hash = ? AND c.archived IS NULL",
            _hash(secret),
        )
        return None if row is None else Learner(row["id"], row["class_id"], row["number"], row["name"])

    def learner_count(self) -> int:
        row = self._one("SELECT COUNT(*) AS n FROM learners WHERE class_id = ?", self.current_class()["id"])
        return int(row["n"]) if row else 0

    # ----- events -------------------------------------------------------------------------------------------

    def opened(self, learner: Learner, lesson: str, event: str = "") -> bool:
        """``learner`` opened ``lesson``. False (nothing recorded) for a lesson this server does not serve;
        True for an ``event`` id recorded already (see ``_first_time``). A lesson in another language is the
        English lesson (``ca/flamme_rouge/02_...`` is ``flamme_rouge/02_...``)."""
        lesson = lesson_key(lesson)
        if lesson not in self.lesson_keys:
            return False
        now = self.clock()
        with self._writing():
            if not self._first_time(learner.id, event):
                return True
            self._db.execute(
                "INSERT INTO lessons (learner_id, lesson, opened, quizzes) VALUES (?,?,?,?) "
                "ON CONFLICT (learner_id, lesson) DO UPDATE SET quizzes = excluded.quizzes",
                (learner.id, lesson, now, len(self.quiz_ids[lesson])),
            )
            self._finish_when_all_answered(learner.id, lesson, now)
            self._seen(learner.id, now)
        return True

    def answered(
        self, learner: Learner, lesson: str, quiz: str, right: bool, choice: str = "", event: str = ""
    ) -> bool:
        """One Reveal of ``quiz`` in ``lesson``: a try until the first right answer (later answers change only
        the last choice). False (nothing recorded) for a lesson this server does not serve or a quiz that
        lesson does not have; True for an ``event`` id recorded already (see ``_first_time``). A quiz answered
        in another language's copy of the lesson is the same quiz."""
        lesson = lesson_key(lesson)
        if quiz not in self.quiz_ids.get(lesson, ()):
            return False
        choice = clean_text(choice, MAX_CHOICE)
        now = self.clock()
        with self._writing():
            if not self._first_time(learner.id, event):
                return True
            self._db.execute(
                "INSERT INTO lessons (learner_id, lesson, opened, quizzes) VALUES (?,?,?,?) ON CONFLICT DO NOTHING",
                (learner.id, lesson, now, len(self.quiz_ids[lesson])),
            )
            row = self._one(
                "SELECT tries, is_right FROM answers WHERE learner_id = ? AND lesson = ? AND quiz = ?",
                learner.id,
                lesson,
                quiz,
            )
            if row is None:
                self._db.execute(
                    "INSERT INTO answers (learner_id, lesson, quiz, tries, is_right, first_choice, last_choice, "
                    "first_answered, answered) VALUES (?,?,?,?,?,?,?,?,?)",
                    (learner.id, lesson, quiz, 1, int(right), choice, choice, now, now),
                )
            elif row["is_right"]:
                self._db.execute(
                    "UPDATE answers SET last_choice = ? WHERE learner_id = ? AND lesson = ? AND quiz = ?",
                    (choice, learner.id, lesson, quiz),
                )
            else:
                self._db.execute(
                    "UPDATE answers SET tries = MIN(tries + 1, ?), is_right = ?, last_choice = ?, "
                    "answered = ? WHERE learner_id = ? AND lesson = ? AND quiz = ?",
                    (MAX_TRIES, int(right), choice, now, learner.id, lesson, quiz),
                )
            self._finish_when_all_answered(learner.id, lesson, now)
            self._seen(learner.id, now)
        return True

    def board(self, learner: Learner, lesson: str, shown: bool, event: str = "") -> bool:
        """A lesson page of ``learner`` waits for its board (``shown`` False: the page has loaded) or shows it
        (True). False (nothing recorded) for a lesson this server does not serve."""
        lesson = lesson_key(lesson)
        if lesson not in self.lesson_keys:
            return False
        now = self.clock()
        with self._writing():
            if not self._first_time(learner.id, event):
                return True
            if shown:
                self._db.execute(
                    "INSERT INTO boards (learner_id, lesson, waiting, shown) VALUES (?,?,?,?) "
                    "ON CONFLICT (learner_id, lesson) DO UPDATE SET shown = excluded.shown",
                    (learner.id, lesson, now, now),
                )
            else:
                self._db.execute(
                    "INSERT INTO boards (learner_id, lesson, waiting) VALUES (?,?,?) "
                    "ON CONFLICT (learner_id, lesson) DO UPDATE SET waiting = excluded.waiting, "
                    "shown = NULL",
                    (learner.id, lesson, now),
                )
        return True

    def _no_board(self, class_id: int) -> set[tuple[int, str]]:
        """(learner id, lesson) of the pages still waiting for their board ``NO_BOARD_AFTER_S`` after loading."""
        rows = self._db.execute(
            "SELECT b.learner_id, b.lesson FROM boards b JOIN learners l ON l.id = b.learner_id "
            "WHERE l.class_id = ? AND b.shown IS NULL AND b.waiting <= ?",
            (class_id, self.clock() - NO_BOARD_AFTER_S),
        ).fetchall()
        return {(row["learner_id"], row["lesson"]) for row in rows}

    def _first_time(self, learner_id: int, event: str) -> bool:
        """Whether the event with this id (from the page; "" for none) is new: a page that did not hear the
        answer sends it again. The newest ``MAX_EVENT_IDS`` ids of a learner are kept."""
        if not event:
            return True
        if self._one("SELECT 1 FROM events WHERE learner_id = ? AND event = ?", learner_id, event) is not None:
            return False
        self._db.execute("INSERT INTO events (learner_id, event) VALUES (?, ?)", (learner_id, event))
        self._db.execute(
            "DELETE FROM events WHERE learner_id = ? AND rowid NOT IN (SELECT rowid FROM events "
            "WHERE learner_id = ? ORDER BY rowid DESC LIMIT ?)",
            (learner_id, learner_id, MAX_EVENT_IDS),
        )
        return True

    def _seen(self, learner_id: int, now: float) -> None:
        self._db.execute("UPDATE learners SET last_seen = ? WHERE id = ?", (now, learner_id))

    def _finish_when_all_answered(self, learner_id: int, lesson: str, now: float) -> None:
        """A lesson is finished once every quiz its page showed has an answer; a page without quizzes, once opened
        (a page whose quizzes show up later is unfinished again)."""
        self._db.execute(
            "UPDATE lessons SET finished = CASE WHEN (quizzes = 0 AND answered = 0) OR (quizzes > 0 AND "
            "quizzes <= answered) THEN COALESCE(finished, ?) END FROM (SELECT COUNT(*) AS answered FROM answers "
            "WHERE learner_id = ? AND lesson = ?) WHERE learner_id = ? AND lesson = ?",
            (now, learner_id, lesson, learner_id, lesson),
        )

    # ----- reading ------------------------------------------------------------------------------------------

    def progress(self, learner: Learner) -> dict[str, Any]:
        """One learner's own progress: ``{lesson: {"finished": bool, "quizzes": {quiz: state}}}``."""
        lessons: dict[str, dict[str, Any]] = {
            row["lesson"]: {"finished": row["finished"] is not None, "quizzes": {}}
            for row in self._db.execute("SELECT * FROM lessons WHERE learner_id = ?", (learner.id,))
        }
        for row in self._db.execute("SELECT * FROM answers WHERE learner_id = ?", (learner.id,)):
            entry = lessons.setdefault(row["lesson"], {"finished": False, "quizzes": {}})
            entry["quizzes"][row["quiz"]] = _answer_state(row)
        return lessons

    def report(self, class_id: int | None = None) -> dict[str, Any]:
        """The teacher's view of a class (default: the current one).

        ``columns``: for each lesson somebody opened (in the lessons' order), the lesson then its quizzes somebody
        answered (in the lesson's order), each with its ``label`` (the quiz's short title), ``answered`` and
        ``right_first`` counts and ``share``: the percentage right first time of the learners who answered it
        (not of the whole class); ``learners``: number, name
        (numbers only when anonymized), last seen, and one cell per column: a lesson's ``"not-yet"``, ``"opened"``
        or ``"finished"`` (with ``no_board`` when its page has waited ``NO_BOARD_AFTER_S`` for its board), a quiz's
        ``"not-yet"``, ``"opened"`` (lesson opened, no answer), ``"right-first"``, ``"right-after"`` or ``"wrong"``."""
        settings = self.settings() if class_id is None else None
        class_id = settings["id"] if settings else class_id
        learners = self._db.execute("SELECT * FROM learners WHERE class_id = ? ORDER BY number", (class_id,)).fetchall()
        lesson_rows = self._db.execute(
            "SELECT s.* FROM lessons s JOIN learners l ON l.id = s.learner_id WHERE l.class_id = ?", (class_id,)
        ).fetchall()
        answer_rows = self._db.execute(
            "SELECT a.* FROM answers a JOIN learners l ON l.id = a.learner_id "
            "WHERE l.class_id = ? ORDER BY a.first_answered",
            (class_id,),
        ).fetchall()
        opened = {(row["learner_id"], row["lesson"]): row for row in lesson_rows}
        no_board = self._no_board(int(class_id or 0))
        answers = {(row["learner_id"], row["lesson"], row["quiz"]): row for row in answer_rows}
        by_quiz: dict[tuple[str, str], list[sqlite3.Row]] = {}
        for row in answer_rows:
            by_quiz.setdefault((row["lesson"], row["quiz"]), []).append(row)
        used = {row["lesson"] for row in lesson_rows}
        columns: list[dict[str, Any]] = []
        for lesson in self.lessons:
            if lesson.key not in used:
                continue
            columns.append(
                {
                    "lesson": lesson.key,
                    "title": lesson.title,
                    "quiz": None,
                    "label": lesson.title,
                    "group": lesson.group,
                }
            )
            for quiz in lesson.quizzes:
                rows = by_quiz.get((lesson.key, quiz), [])
                if not rows:
                    continue
                right_first = sum(1 for row in rows if row["is_right"] and row["tries"] == 1)
                columns.append(
                    {
                        "lesson": lesson.key,
                        "title": lesson.title,
                        "quiz": quiz,
                        "group": lesson.group,
                        "label": lesson.quiz_title(quiz),
                        "answered": len(rows),
                        "right_first": right_first,
                        "share": round(100 * right_first / len(rows)),
                    }
                )
        anonymized = bool(settings and settings["anonymized"])
        shown_names = _told_apart([(row["number"], None if anonymized else row["name"]) for row in learners])
        people = []
        for learner in learners:
            cells = []
            for column in columns:
                lesson_row = opened.get((learner["id"], column["lesson"]))
                if column["quiz"] is None:
                    state = "not-yet" if lesson_row is None else "finished" if lesson_row["finished"] else "opened"
                    cells.append(
                        {
                            "state": state,
                            **(
                                {"no_board": True}
                                if lesson_row is not None and (learner["id"], column["lesson"]) in no_board
                                else {}
                            ),
                        }
                    )
                    continue
                answer = answers.get((learner["id"], column["lesson"], column["quiz"]))
                if answer is None:
                    cells.append({"state": "not-yet" if lesson_row is None else "opened"})
                else:
                    cells.append(
                        {
                            "state": _answer_state(answer),
                            "tries": answer["tries"],
                            "choice": answer["first_choice"] or "",
                        }
                    )
            people.append(
                {
                    "number": learner["number"],
                    "name": shown_names[learner["number"]],
                    "last_seen": learner["last_seen"],
                    "cells": cells,
                }
            )
        return {
            "class": settings,
            "columns": columns,
            "learners": people,
            "lessons": [{"key": lesson.key, "title": lesson.title} for lesson in self.lessons],
        }

    def csv(self, class_id: int | None = None) -> str:
        """The results as CSV, as the view shows them (names or numbers): one row per learner and lesson opened
        (finished or not), then one per quiz answered (result, tries, first choice)."""
        report = self.report(class_id)
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["learner", "name", "lesson", "quiz", "result", "tries", "first choice"])
        for learner in report["learners"]:
            name = _safe_cell(learner["name"])
            for column, cell in zip(report["columns"], learner["cells"]):
                if column["quiz"] is None and cell["state"] != "not-yet":
                    writer.writerow([learner["number"], name, column["title"], "", cell["state"], "", ""])
                elif column["quiz"] is not None and cell["state"] in RESULT_WORDS:
                    writer.writerow(
                        [
                            learner["number"],
                            name,
                            column["title"],
                            column["label"],
                            RESULT_WORDS[cell["state"]],
                            cell["tries"],
                            _safe_cell(cell["choice"]),
                        ]
                    )
        return out.getvalue()


def _told_apart(learners: list[tuple[int, str | None]]) -> dict[int, str]:
    """Number -> the name shown: "Learner 7" without a name; the second "Alice" (by number) "Alice (2)", and so
    on, skipping a name somebody already has ("Alice (2)" typed in)."""
    taken = {name for _, name in learners if name}
    shown: dict[int, str] = {}
    seen: dict[str, int] = {}
    for number, name in learners:
        if not name:
            shown[number] = f"Learner {number}"
            continue
        count = seen[name] = seen.get(name, 0) + 1
        label = name
        while count > 1 and (label == name or label in taken):
            label = f"{name} ({count})"
            count += 1
        if label != name:
            taken.add(label)
        shown[number] = label
    return shown


RESULT_WORDS = {"right-first": "right first time", "right-after": "right after tries", "wrong": "wrong"}


def _answer_state(row: sqlite3.Row) -> str:
    if not row["is_right"]:
        return "wrong"
    return "right-first" if row["tries"] == 1 else "right-after"


def _safe_cell(text: str) -> str:
    """A spreadsheet must not take a learner's name for a formula (CSV injection)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
