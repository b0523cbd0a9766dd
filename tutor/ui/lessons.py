"""Lessons as an app: the list of a game's lessons with one-line summaries, the links between lesson pages, and
the learner's progress kept in the browser (``localStorage``; nothing is sent anywhere).

    from tutor.ui.lessons import lesson_nav, lesson_list
    lesson_nav("03_movement.ipynb")     # at a lesson's end: its finish (what it taught, how its questions went,
                                         # the next lesson), ← previous · Contents · Rules summary · next →, and
                                         # progress recording
    lesson_list()                        # in a game's welcome page: every lesson of its folder, with progress

A lesson's title is its first Markdown heading; its quizzes are ``metadata.tutor.quizzes`` (their ids);
its summary is ``metadata.tutor.summary`` or else the first sentence of its first paragraph. Lessons are the
folder's notebooks in file-name order, so a new lesson file appears everywhere by itself.

Progress: the page script (``PROGRESS_JS``) marks a lesson visited, records each
quiz's first answer (right or wrong) when a ``tutor-quiz-result`` mark appears in
the page, and a lesson is finished when every quiz on its page has an answer (a
lesson without quiz: when visited). Lists fill in their ``data-lesson`` badges from
the same store: "not started", "opened" (no question answered yet), or "2 of 3 answered, 1 right first time"
(with ✓ once every question has an answer). Scripts in HTML outputs run in Voila (the outputs are trusted).
This module imports nothing from the widget libraries, so a page without a board starts quickly.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tutor.i18n import _

STORE_KEY = "rules-tutor-progress"


@dataclass(frozen=True)
class LessonInfo:
    path: Path
    title: str
    summary: str
    quiz_ids: tuple[str, ...] = ()
    """The ids of the quiz widgets the lesson shows (``metadata.tutor.quizzes``, checked against the widgets the
    lesson builds by tests/test_lesson_quiz_ids.py): the page knows them before they draw, and a class server
    records only these."""

    @property
    def quizzes(self) -> int:
        return len(self.quiz_ids)

    @property
    def key(self) -> str:
        """``flamme_rouge/03_movement.ipynb``: the lesson's name in the progress store and the class's data, the
        same in every language (``ca/flamme_rouge/03_movement.ipynb`` too: ``tutor.i18n.lesson_languages.lesson_key``),
        so that a quiz answered in Catalan counts as the same quiz."""
        return f"{self.path.parent.name}/{self.path.name}"


def _cells(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return data.get("metadata", {}), data.get("cells", [])


def _source(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return source if isinstance(source, str) else "".join(source)


def lesson_info(path: Path) -> LessonInfo:
    """Title: the notebook's first Markdown heading (else the file name); summary: ``metadata.tutor.summary``,
    else the first sentence of the text after that heading; quiz ids: ``metadata.tutor.quizzes``."""
    metadata, cells = _cells(path)
    declared = metadata.get("tutor", {}).get("quizzes", [])
    quiz_ids = tuple(str(quiz) for quiz in declared) if isinstance(declared, list) else ()
    title, summary = "", metadata.get("tutor", {}).get("summary", "")
    text: list[str] = []
    for cell in cells:
        if cell.get("cell_type") != "markdown":
            continue
        for line in _source(cell).splitlines():
            if line.startswith("#"):
                if title:
                    break
                title = line.lstrip("#").strip()
            elif title and (line.strip() or text):
                if not line.strip():
                    break
                text.append(line.strip())
        if title and text:
            break
    return LessonInfo(path, title or path.stem, summary or (_first_sentence(" ".join(text)) if text else ""), quiz_ids)


def _first_sentence(text: str) -> str:
    plain = re.sub(r"[*_`]|<[^>]+>", "", re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)).replace("\n", " ")
    match = re.match(r"(.+?[.!?])(\s|$)", plain.strip())
    return (match.group(1) if match else plain.strip())[:200]


def lessons_in(folder: Path) -> list[LessonInfo]:
    folder = Path(folder).resolve()  # the key names the folder: "." would give "/01_....ipynb"
    return [lesson_info(p) for p in sorted(folder.glob("*.ipynb")) if not p.name.startswith(("_", "."))]


PROGRESS_JS = r"""<script>
(function () {
  // One store per server: behind JupyterHub each learner's server has its own base URL (/user/alice/).
  const KEY = (function (base) { return base === '/' ? '%(key)s' : '%(key)s ' + base; })(
    (document.body.dataset.baseUrl || '/voila/').replace(/voila[/]$/, ''));
  const load = () => { try { return JSON.parse(localStorage.getItem(KEY) || '{}'); } catch (e) { return {}; } };
  const save = (store) => { try { localStorage.setItem(KEY, JSON.stringify(store)); } catch (e) {} };
  const lesson = '%(lesson)s';
  const quizzes = %(quizzes)d;  // the lesson's quizzes, known before they are drawn
  const M = %(messages)s;  // the page's words, in the lesson's language (tutor.i18n)
  const fill = (text, values) => text.replace(/[{](\w+)[}]/g, (whole, name) => name in values ? values[name] : whole);
  function finished(entry) {
    if (!entry || !entry.visited) return false;
    const total = entry.total || 0, answered = Object.keys(entry.quizzes || {}).length;
    return answered >= total;
  }
  // "2 of 3 answered, 1 right first time"; "" when no quiz of the lesson has an answer yet.
  function quizWords(entry) {
    const results = entry && entry.quizzes ? Object.values(entry.quizzes) : [];
    if (!entry || !entry.total || !results.length) return '';
    return fill(M.answered, {answered: results.length, total: entry.total, right: results.filter(Boolean).length});
  }
  function badges() {
    const store = load();
    document.querySelectorAll('[data-lesson]').forEach(function (el) {
      const entry = store[el.dataset.lesson];
      let text = M.notStarted, cls = 'tutor-todo';
      if (entry && entry.visited) {
        text = quizWords(entry) || M.opened; cls = finished(entry) ? 'tutor-done' : 'tutor-started';
        if (finished(entry)) text = '✓ ' + text;
      }
      // Only real changes: each one wakes the page's observer, which would run this again.
      if (el.textContent !== text) el.textContent = text;
      if (el.className !== 'tutor-progress ' + cls) el.className = 'tutor-progress ' + cls;
    });
    document.querySelectorAll('[data-finish-quizzes]').forEach(function (el) {
      const entry = store[el.dataset.finishQuizzes];
      const words = quizWords(entry);
      const text = !entry || !entry.total ? M.noQuestions
        : !words ? M.noAnswer
        : fill(finished(entry) ? M.yourQuestions : M.yourQuestionsMore, {questions: words});
      if (el.textContent !== text) el.textContent = text;
    });
  }
  function record() {
    if (!lesson) { badges(); return; }
    const store = load();
    const entry = store[lesson] || {quizzes: {}};
    entry.visited = entry.visited || Date.now();
    entry.total = Math.max(entry.total || 0, quizzes, document.querySelectorAll('.tutor-quiz').length);
    document.querySelectorAll('.tutor-quiz-result').forEach(function (el) {
      if (!(el.dataset.quiz in entry.quizzes)) entry.quizzes[el.dataset.quiz] = el.dataset.right === '1';
    });
    store[lesson] = entry; save(store); badges();
  }
  record();
  // A list's script may run before the list is in the page: fill the badges as soon as it is there.
  let tries = 0;
  (function fill() {
    if (document.querySelector('[data-lesson], [data-finish-quizzes]')) badges();
    else if (tries++ < 100) setTimeout(fill, 100);
  })();
  new MutationObserver(function () {
    clearTimeout(window.__tutorProgress); window.__tutorProgress = setTimeout(record, 200);
  }).observe(document.body, {childList: true, subtree: true});
})();
</script>"""

CSS = """<style>
.tutor-nav { display: flex; gap: 18px; flex-wrap: wrap; font-size: 15px; margin: 8px 0; }
.tutor-nav a { text-decoration: none; color: #0b57d0; font-weight: bold; }
.tutor-lesson-list { list-style: none; padding-left: 0; }
.tutor-lesson-list li { margin: 6px 0; line-height: 1.35; }
.tutor-lesson-list a { font-weight: bold; color: #0b57d0; }
.tutor-lesson-list .tutor-summary { color: #3c4043; }
.tutor-progress { font-size: 12.5px; border-radius: 9px; padding: 0 7px; margin-left: 6px; white-space: nowrap; }
.tutor-todo { background: #f1f3f4; color: #5f6368; }
.tutor-started { background: #fff4e5; color: #663c00; }
.tutor-done { background: #e6f4ea; color: #0d652d; }
.tutor-finish { border-top: 2px solid #dadce0; margin-top: 24px; padding-top: 4px; font-size: 15px; }
.tutor-finish h3 { margin: 8px 0 4px; }
.tutor-finish a { color: #0b57d0; font-weight: bold; }
</style>"""


def progress_script(lesson: str = "", quizzes: int = 0) -> str:
    """The page script: records ``lesson``'s visit and its ``quizzes`` answers (when given) and fills progress
    badges."""
    return PROGRESS_JS % {
        "key": STORE_KEY,
        "lesson": html.escape(lesson, quote=True).replace("'", ""),
        "quizzes": quizzes,
        "messages": _script_json(progress_messages()),
    }


def progress_messages() -> dict[str, str]:
    """The words the page script writes, in the kernel's language."""
    return {
        "answered": _("{answered} of {total} answered, {right} right first time"),
        "notStarted": _("not started"),
        "opened": _("opened"),
        "noQuestions": _("This lesson has no questions."),
        "noAnswer": _("No question answered yet: the questions above are waiting for you."),
        "yourQuestions": _("Your questions: {questions}."),
        "yourQuestionsMore": _("Your questions: {questions} (the others are above)."),
    }


def _script_json(value: object) -> str:
    """``value`` as JSON that is safe inside a ``<script>`` (no ``</script>``, no ``%`` for the template)."""
    return json.dumps(value, ensure_ascii=False).replace("<", "\\u003c").replace("%", "%%")


def list_html(lessons: list[LessonInfo], link_prefix: str = "") -> str:
    """Each lesson: its title as a link, its summary, its progress badge (filled in by the page script)."""
    not_started = _("not started")
    items = "".join(
        f"<li><a target='_self' href='{html.escape(link_prefix + lesson.path.name)}'>{html.escape(lesson.title)}</a>"
        f"<span class='tutor-progress tutor-todo' data-lesson='{html.escape(lesson.key)}'>"
        f"{html.escape(not_started)}</span>"
        + (f"<br><span class='tutor-summary'>{html.escape(lesson.summary)}</span>" if lesson.summary else "")
        + "</li>"
        for lesson in lessons
    )
    # No list numbers: the titles carry the lesson numbers (the welcome page is lesson 0).
    return f"<ul class='tutor-lesson-list' style='list-style: none; padding-left: 0'>{items}</ul>"


@dataclass(frozen=True)
class _Html:
    body: str

    def _repr_html_(self) -> str:
        return self.body


def lesson_list(folder: str | Path = ".", current: str = "00_welcome.ipynb") -> _Html:
    """The lessons of ``folder`` (a game's lesson folder), in order, with summaries and the learner's progress;
    the page ``current`` (the game's welcome page) is recorded as visited."""
    folder = Path(folder)
    return _Html(CSS + list_html(lessons_in(folder)) + progress_script(f"{folder.resolve().name}/{current}"))


def nav_html(current: str, folder: str | Path = ".", contents: str = "../index.ipynb") -> str:
    """A lesson's last lines: its finish (for a numbered lesson: what it taught, how its questions went, the next
    lesson), then the links to the previous lesson, all lessons, the rules summary and the next lesson."""
    folder = Path(folder)
    lessons = lessons_in(folder)
    names = [lesson.path.name for lesson in lessons]
    if current not in names:
        raise ValueError(f"{current} is not a lesson of {folder.resolve()} ({', '.join(names)})")
    k = names.index(current)
    links = []
    if k > 0:
        links.append(
            f"<a href='{html.escape(names[k - 1])}' target='_self' rel='prev'>← {html.escape(lessons[k - 1].title)}</a>"
        )
    all_lessons, rules_summary, lessons_label = _("All lessons"), _("Rules summary"), _("Lessons")
    links.append(f"<a href='{html.escape(contents)}' target='_self'>☰ {html.escape(all_lessons)}</a>")
    summary = _rules_summary(folder / current)
    if summary:
        links.append(f"<a href='{html.escape(summary)}' target='_self'>{html.escape(rules_summary)}</a>")
    if k + 1 < len(lessons):
        links.append(
            f"<a href='{html.escape(names[k + 1])}' target='_self' rel='next'>{html.escape(lessons[k + 1].title)} →</a>"
        )
    finish = _finish_html(lessons[k], lessons[k + 1 :], summary) if _numbered(lessons[k]) else ""
    return (
        CSS
        + finish
        + f"<nav class='tutor-nav' aria-label='{html.escape(lessons_label)}'>{''.join(links)}</nav>"
        + progress_script(lessons[k].key, lessons[k].quizzes)
    )


def _numbered(lesson: LessonInfo) -> bool:
    """A lesson proper (``03_movement.ipynb``), not the welcome page, a rules summary or a workbench."""
    return lesson.path.name[:2].isdigit() and not lesson.path.name.startswith("00")


def _finish_html(lesson: LessonInfo, later: list[LessonInfo], summary: str | None) -> str:
    """The end of a lesson: what it taught (its summary), how its questions went (filled in by the page script
    from the progress it records), and the one next step: the next lesson, or after the last one the rules
    summary."""
    following = next((other for other in later if _numbered(other)), None)
    if following is not None:
        step = _("<b>Next:</b> {link}").format(
            link=f"<a href='{html.escape(following.path.name)}' target='_self'>{html.escape(following.title)} →</a>"
        )
    elif summary:
        whole_game = _("the whole game on one page")
        step = _("That was the last lesson. <b>Next:</b> {link}").format(
            link=f"<a href='{html.escape(summary)}' target='_self'>{html.escape(whole_game)} →</a>"
        )
    else:
        step = html.escape(_("That was the last lesson."))
    learned = (
        "<p>" + _("<b>What you learned:</b> {summary}").format(summary=html.escape(lesson.summary)) + "</p>"
        if lesson.summary
        else ""
    )
    end = html.escape(_("End of the lesson"))
    return (
        f"<section class='tutor-finish' aria-label='{end}'><h3>{end}</h3>{learned}"
        f"<p data-finish-quizzes='{html.escape(lesson.key)}'></p><p>{step}</p></section>"
    )


def _rules_summary(path: Path) -> str | None:
    """The rules summary a lesson links to: ``metadata.tutor.rules_summary``, else the folder's
    ``rules_summary.ipynb``; none on a summary page itself."""
    if path.name.startswith("rules_summary"):
        return None
    metadata, _ = _cells(path)
    name = metadata.get("tutor", {}).get("rules_summary", "rules_summary.ipynb")
    return name if (path.parent / name).is_file() else None


def lesson_nav(current: str, folder: str | Path = ".", contents: str = "../index.ipynb") -> _Html:
    """Links to the previous lesson, all lessons and the next lesson; records the learner's progress here."""
    return _Html(nav_html(current, folder, contents))
