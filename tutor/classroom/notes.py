"""What a lesson tells the teacher, from its notebook's metadata (``metadata.tutor``), the same in every language:

- ``minutes``: about how long the lesson takes a class;
- ``quiz_titles``: a short title for each of its quizzes, in the order of ``quizzes`` ("Which lane?");
- ``quiz_answers``: the answer to each quiz's first position, in the same order, in a few words.

Titles and answers are English messages of the catalog (``rules-tutor languages`` extracts them from the English
lessons), shown translated: the teacher's grid names its quiz columns by the titles, and the teachers' page
(``teacher_plan``) lists every lesson with its minutes, what it teaches (its summary), its quizzes and their
answers, and a plan for a 50-minute class of each game.

This module imports nothing from the widget libraries: the teachers' page is rendered without a board.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tutor.i18n import _, ngettext

CLASS_MINUTES = 50
"""The length of the class the teachers' page plans."""
PLAN_OPENING_MINUTES = 5
"""Minutes the plan keeps at the start of a class (names, the lesson's address) and for the closing talk."""
PLAN_CSS = """<style>
.tutor-teacher-plan table { border-collapse: collapse; margin: .5em 0 1.5em; font-size: 15px; }
/* doubled class: above JupyterLab's right-aligned output tables */
.tutor-teacher-plan.tutor-teacher-plan table th, .tutor-teacher-plan.tutor-teacher-plan table td {
  border: 1px solid #c4c7c5;
  padding: .3em .5em; text-align: left; vertical-align: top; }
.tutor-teacher-plan thead th { background: #f1f3f4; }
.tutor-teacher-plan td:nth-child(2) { white-space: nowrap; }
</style>"""


@dataclass(frozen=True)
class LessonNotes:
    path: Path
    title: str
    summary: str
    minutes: int
    quizzes: tuple[str, ...]
    quiz_titles: tuple[str, ...]
    quiz_answers: tuple[str, ...]


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(str(item) for item in value) if isinstance(value, list) else ()


def lesson_notes(path: Path) -> LessonNotes:
    """The teacher's notes of the lesson at ``path`` (its title and summary as ``tutor.ui.lessons`` reads them)."""
    from tutor.ui.lessons import lesson_info

    info = lesson_info(path)
    tutor = json.loads(Path(path).read_text(encoding="utf-8")).get("metadata", {}).get("tutor", {})
    tutor = tutor if isinstance(tutor, dict) else {}
    minutes = tutor.get("minutes", 0)
    return LessonNotes(
        Path(path),
        info.title,
        info.summary,
        minutes if isinstance(minutes, int) else 0,
        info.quiz_ids,
        _strings(tutor.get("quiz_titles")),
        _strings(tutor.get("quiz_answers")),
    )


def quiz_titles(path: Path) -> tuple[str, ...]:
    """The short titles of the quizzes of the lesson at ``path`` (English), in the order of its quizzes."""
    return lesson_notes(path).quiz_titles


def _plan(lessons: list[LessonNotes], minutes: int = CLASS_MINUTES) -> tuple[list[LessonNotes], int]:
    """The lessons that fit a class of ``minutes`` in order, after the start and before the closing talk; and the
    minutes they take."""
    left, chosen = minutes - 2 * PLAN_OPENING_MINUTES, list[LessonNotes]()
    for lesson in lessons:
        if not lesson.minutes or lesson.minutes > left:
            if chosen:
                break
            continue
        chosen.append(lesson)
        left -= lesson.minutes
    return chosen, sum(lesson.minutes for lesson in chosen)


def _minutes(count: int) -> str:
    return ngettext("{count} minute", "{count} minutes", count).format(count=count)


def teacher_plan_html(folder: Path, link_to: str = "") -> str:
    """The teachers' page's list of the lessons in ``folder`` (one game, in the lesson's language), with a plan
    for a 50-minute class first; each lesson links to ``link_to`` + its file name."""
    lessons = [
        lesson_notes(path) for path in sorted(Path(folder).glob("*.ipynb")) if not path.name.startswith((".", "_"))
    ]
    timed = [lesson for lesson in lessons if lesson.minutes]
    chosen, used = _plan(timed)
    steps = [
        _("Start ({minutes}): learners open the lessons' address and type a name.").format(
            minutes=_minutes(PLAN_OPENING_MINUTES)
        )
    ]
    steps += [
        _("{lesson} ({minutes})").format(lesson=lesson.title, minutes=_minutes(lesson.minutes)) for lesson in chosen
    ]
    steps.append(
        _("End ({minutes}): put the grid on the screen and talk about the question most got wrong.").format(
            minutes=_minutes(CLASS_MINUTES - used - PLAN_OPENING_MINUTES)
        )
    )
    plan = "".join(f"<li>{html.escape(step)}</li>" for step in steps)
    rows = []
    for lesson in timed:
        quizzes = []
        for number, _quiz in enumerate(lesson.quizzes):
            title = _(lesson.quiz_titles[number]) if number < len(lesson.quiz_titles) else ""
            answer = _(lesson.quiz_answers[number]) if number < len(lesson.quiz_answers) else ""
            quizzes.append(f"<b>{html.escape(title)}</b> " + html.escape(_("Answer: {answer}").format(answer=answer)))
        link = f"<a href='{html.escape(link_to + lesson.path.name)}'>{html.escape(lesson.title)}</a>"
        said = "<br>".join(quizzes) or html.escape(_("No question."))
        rows.append(
            f"<tr><th scope='row'>{link}</th><td>{html.escape(_minutes(lesson.minutes))}</td>"
            f"<td>{html.escape(lesson.summary)}</td><td>{said}</td></tr>"
        )
    head = "".join(
        f"<th scope='col'>{html.escape(word)}</th>"
        for word in (_("Lesson"), _("Time"), _("What it teaches"), _("Questions and answers"))
    )
    title = _("A 50-minute class")
    return (
        f"<div class='tutor-teacher-plan'><p><b>{html.escape(title)}</b></p><ol>{plan}</ol>"
        f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


@dataclass(frozen=True)
class TeacherPlan:
    """What a notebook cell shows: ``teacher_plan(folder)`` as its last line."""

    body: str

    def _repr_html_(self) -> str:
        return self.body


def teacher_plan(*folders: str | Path) -> TeacherPlan:
    """For each game's lesson folder (relative to the page, which links to each lesson): its name, then
    ``teacher_plan_html`` (the teachers' page)."""
    from tutor.core.games import GAMES

    titles = {game.lessons: game.title for game in GAMES.values()}
    parts = [PLAN_CSS]
    for folder in map(Path, folders):
        title = titles.get(folder.name, folder.name)
        parts += [f"<h3>{html.escape(title)}</h3>", teacher_plan_html(folder, folder.as_posix().rstrip("/") + "/")]
    return TeacherPlan("".join(parts))
