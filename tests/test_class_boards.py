"""Issue 37: the teacher's grid marks a learner whose lesson page loaded but whose board has not shown ("no
board"), so that the teacher sees who needs a reload; the page's events ("board", shown or not) drive it."""

from __future__ import annotations

from tutor.classroom.database import NO_BOARD_AFTER_S, ClassDatabase, Lesson

LESSONS = [Lesson("flamme_rouge/02_energy_phase.ipynb", "2. The energy phase", ("a3b1ea222a",))]
LESSON = LESSONS[0].key


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _lesson_cells(database: ClassDatabase) -> dict[str, dict]:
    report = database.report()
    return {learner["name"]: learner["cells"][0] for learner in report["learners"]}


def test_a_page_without_its_board_is_marked_for_the_teacher_once_it_has_waited(tmp_path):
    clock = Clock()
    database = ClassDatabase(tmp_path / "class.sqlite3", LESSONS, clock=clock)
    ana, _ = database.join("Ana")
    ben, _ = database.join("Ben")
    for learner in (ana, ben):
        database.opened(learner, LESSON, "")
        database.board(learner, LESSON, False, "")
    clock.now += 3
    database.board(ben, LESSON, True, "")  # Ben's board painted; Ana's never does
    assert _lesson_cells(database) == {"Ana": {"state": "opened"}, "Ben": {"state": "opened"}}  # not yet
    clock.now += NO_BOARD_AFTER_S
    assert _lesson_cells(database) == {"Ana": {"state": "opened", "no_board": True}, "Ben": {"state": "opened"}}
    database.board(ana, LESSON, False, "")  # Ana reloads: the wait starts again ...
    assert _lesson_cells(database)["Ana"] == {"state": "opened"}
    clock.now += 2
    database.board(ana, LESSON, True, "")  # ... and her board shows
    clock.now += NO_BOARD_AFTER_S
    assert _lesson_cells(database)["Ana"] == {"state": "opened"}
    assert database.board(ana, "no/such_lesson.ipynb", True, "") is False
