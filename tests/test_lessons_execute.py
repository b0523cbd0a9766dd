"""The lesson notebooks of every game, and the landing page: each runs top to bottom, is committed clean, short,
uses valid scenario files, and every link leads to a notebook that exists. The lessons in other languages
(``lessons/ca/``, made from the English ones and the catalog: tests/test_lesson_languages.py) run, are clean, use valid
scenario files and link to notebooks that exist too."""

from __future__ import annotations

import re
from html import escape
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from tutor.core.games import GAMES
from tutor.flamme_rouge import scenario
from tutor.i18n.lesson_languages import english_notebooks, language_line, translations
from tutor.ui.landing import landing_html
from tutor.ui.lessons import lesson_info, lesson_list, lessons_in, nav_html

ROOT = Path(__file__).resolve().parents[1] / "lessons"
INDEX = ROOT / "index.ipynb"
NOTEBOOKS = [ROOT / path for path in english_notebooks(ROOT)]
"""The English notebooks; the same notebooks in each other language below."""
TRANSLATED = [
    ROOT / code / path for code in translations() for path in english_notebooks(ROOT) if (ROOT / code / path).is_file()
]
EVERY_LANGUAGE = NOTEBOOKS + TRANSLATED
WELCOMES = [p for p in NOTEBOOKS if p.name == "00_welcome.ipynb"]
EVERY_WELCOME = [p for p in EVERY_LANGUAGE if p.name == "00_welcome.ipynb"]
LESSON_NOTEBOOKS = [p for p in NOTEBOOKS if p.parent != ROOT and p.name != "00_welcome.ipynb"]
SCENARIO_PATH = re.compile(r"""["'](scenarios/[^"']+\.json)["']""")
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+\.ipynb)\)")
HTML_LINK = re.compile(r"""href=['"]([^'"]+\.ipynb)['"]""")
MAX_CODE_LINES = 4


def _read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def _code(nb) -> list[str]:
    return [cell.source for cell in nb.cells if cell.cell_type == "code"]


def _markdown(path: Path) -> str:
    return "\n".join(cell.source for cell in _read(path).cells if cell.cell_type == "markdown")


def _ids(paths):
    return [str(p.relative_to(ROOT).with_suffix("")) for p in paths]


def _execute(path: Path) -> nbformat.NotebookNode:
    nb = _read(path)
    NotebookClient(
        nb, timeout=300, startup_timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    return nb


def test_lessons_folder_is_populated():
    assert INDEX in NOTEBOOKS
    assert ROOT / "flamme_rouge" / "00_welcome.ipynb" in WELCOMES
    assert len([p for p in LESSON_NOTEBOOKS if p.parent.name == "flamme_rouge"]) >= 7
    assert any(SCENARIO_PATH.search(source) for p in LESSON_NOTEBOOKS for source in _code(_read(p)))
    folders = {game.lessons for game in GAMES.values()}
    assert {p.parent.name for p in LESSON_NOTEBOOKS} <= folders, "a lesson folder that no game in GAMES owns"


@pytest.mark.notebook
@pytest.mark.parametrize("path", EVERY_LANGUAGE, ids=_ids(EVERY_LANGUAGE))
def test_notebook_executes_without_errors(path: Path):
    nb = _execute(path)
    errors = [
        f"cell {i}: {out.get('ename', out.get('name'))}: {out.get('evalue', out.get('text', ''))}"
        for i, cell in enumerate(nb.cells)
        if cell.cell_type == "code"
        for out in cell.outputs
        if out.output_type == "error" or (out.output_type == "stream" and out.name == "stderr")
    ]
    assert errors == []


@pytest.mark.parametrize("path", EVERY_LANGUAGE, ids=_ids(EVERY_LANGUAGE))
def test_notebook_is_committed_without_outputs(path: Path):
    dirty = [
        i
        for i, cell in enumerate(_read(path).cells)
        if cell.cell_type == "code" and (cell.outputs or cell.execution_count is not None)
    ]
    assert dirty == [], f"{path.name}: cells {dirty} have outputs or execution counts"


@pytest.mark.parametrize("path", [INDEX, *LESSON_NOTEBOOKS], ids=_ids([INDEX, *LESSON_NOTEBOOKS]))
def test_lesson_explains_in_markdown_and_keeps_code_short(path: Path):
    nb = _read(path)
    assert any(cell.cell_type == "markdown" for cell in nb.cells)
    code = _code(nb)
    assert code, f"{path.name} has no code cell"
    long = [source for source in code if len(source.strip().splitlines()) > MAX_CODE_LINES]
    assert long == [], f"{path.name}: code cells over {MAX_CODE_LINES} lines"


TRANSLATED_LESSONS = [p for p in TRANSLATED if p.parent.parent != ROOT and p.name != "00_welcome.ipynb"]
EVERY_LESSON = LESSON_NOTEBOOKS + TRANSLATED_LESSONS


@pytest.mark.parametrize("path", EVERY_LESSON, ids=_ids(EVERY_LESSON))
def test_lesson_scenarios_exist_and_pass(path: Path):
    for name in sorted({m for source in _code(_read(path)) for m in SCENARIO_PATH.findall(source)}):
        file = path.parent / name
        assert file.is_file(), f"{path.name} uses {name}, which does not exist"
        assert scenario.check(scenario.load(file)) is None, name


@pytest.mark.parametrize("path", EVERY_LANGUAGE, ids=_ids(EVERY_LANGUAGE))
def test_every_markdown_link_leads_to_a_notebook(path: Path):
    links = MARKDOWN_LINK.findall(_markdown(path))
    assert [link for link in links if not (path.parent / link).is_file()] == []


@pytest.mark.parametrize("welcome", EVERY_WELCOME, ids=_ids(EVERY_WELCOME))
def test_welcome_links_every_lesson_of_its_game_and_back_to_the_landing_page(welcome: Path):
    links = MARKDOWN_LINK.findall(_markdown(welcome))
    lessons = {p.name for p in LESSON_NOTEBOOKS + TRANSLATED_LESSONS if p.parent == welcome.parent}
    if any("lesson_list()" in source for source in _code(_read(welcome))):  # the list is built from the folder
        links += HTML_LINK.findall(lesson_list(welcome.parent)._repr_html_())
    assert lessons <= set(links)
    assert "../index.ipynb" in links


FR = ROOT / "flamme_rouge"
FR_OWN = [
    FR / name
    for name in (
        "01_track_and_setup.ipynb",
        "02_energy_phase.ipynb",
        "03_movement.ipynb",
        "04_slipstream.ipynb",
        "05_exhaustion.ipynb",
        "06_mountains.ipynb",
        "07_full_race.ipynb",
        "rules_summary.ipynb",
    )
]
NAV = re.compile(r"""lesson_nav\(["']([^"']+)["']\)""")


@pytest.mark.parametrize("path", FR_OWN, ids=_ids(FR_OWN))
def test_a_lesson_page_has_a_real_title_and_links_to_the_previous_and_next_lesson_and_the_contents(path: Path):
    nb = _read(path)
    assert nb.metadata.get("title", "").startswith(lesson_info(path).title), "the browser tab shows the lesson's title"
    assert nb.metadata.get("tutor", {}).get("summary"), "the landing page shows a one-line summary"
    navs = [m for source in _code(nb) for m in NAV.findall(source)]
    assert navs == [path.name]
    html = nav_html(path.name, path.parent)
    names = [p.name for p in sorted(path.parent.glob("*.ipynb"))]
    k = names.index(path.name)
    assert "../index.ipynb" in html and f"href='{names[k - 1]}'" in html
    assert (k + 1 == len(names)) or f"href='{names[k + 1]}'" in html
    assert "target='_self'" in html and "localStorage" in html


FR_QUIZZES = sorted(FR.glob("[01][0-9]_*.ipynb"))[1:]


@pytest.mark.parametrize("path", FR_QUIZZES, ids=_ids(FR_QUIZZES))
def test_no_quiz_uses_the_position_of_a_board_above_it_and_every_quiz_has_another_position(path: Path):
    boards, quizzes = set(), []
    for source in _code(_read(path)):
        found = SCENARIO_PATH.findall(source)
        if "PredictQuiz(" in source:
            quizzes.append(found)
        elif "EnergyQuiz(" in source:
            quizzes.append([])  # its questions are built in, each with its own cards
        elif "RaceTutor" in source or "BreakawayBid" in source:
            boards |= set(found)
    assert quizzes, f"{path.name} has no quiz"
    for found in quizzes:
        assert not boards & set(found), f"{path.name}: a quiz reuses the board's position"
        assert not found or len(found) >= 2, f"{path.name}: Try again needs a second position"


@pytest.mark.parametrize("path", FR_QUIZZES, ids=_ids(FR_QUIZZES))
def test_a_lesson_offers_try_another_position_only_where_its_board_has_another_position(path: Path):
    nb = _read(path)
    text = " ".join(cell.source for cell in nb.cells if cell.cell_type == "markdown").lower()
    boards = [source for source in _code(nb) if "RaceTutor.from_scenario(" in source]
    if "try another position" in text:
        assert any(len(SCENARIO_PATH.findall(source)) >= 2 for source in boards), path.name


FR_MOVED_DECISIONS = sorted(FR.glob("0[1-7]_*.ipynb"))


@pytest.mark.parametrize("path", FR_MOVED_DECISIONS, ids=_ids(FR_MOVED_DECISIONS))
def test_lessons_1_to_7_leave_the_tutor_decisions_to_the_rules_summary(path: Path):
    """A closed "For teachers" note may name a decision (issue 28); the learner's text does not."""
    text = re.sub(r"<details class=.tutor-teachers.*?</details>", " ", _markdown(path), flags=re.S).lower()
    assert "tutor decision" not in text and "does not say" not in text
    assert "where the rulebook does not say, in this tutor" in _markdown(FR / "rules_summary.ipynb").lower()


def test_the_welcome_page_keeps_teacher_material_in_a_closed_section():
    text = _markdown(FR / "00_welcome.ipynb")
    learner = re.sub(r"<details\b.*?</details>", " ", text, flags=re.S)
    assert "<details" in text and "<details open" not in text and "For teachers" in text
    assert "rules-tutor" not in text and "scenarios/" not in text and "`" not in learner


def test_each_lesson_ends_with_what_it_taught_its_quizzes_and_the_next_lesson():
    html = nav_html("03_movement.ipynb", FR)
    finish = html[html.index("class='tutor-finish'") : html.index("</section>")]
    assert "What you learned:</b> The frontmost rider moves first" in finish
    assert "data-finish-quizzes='flamme_rouge/03_movement.ipynb'" in finish
    assert "<b>Next:</b> <a href='04_slipstream.ipynb' target='_self'>4. Slipstream →</a>" in finish
    assert html.index("<section class='tutor-finish'") < html.index("<nav class='tutor-nav'")  # finish, links
    last = nav_html("12_twelve_single_riders.ipynb", FR)
    assert "That was the last lesson" in last and "<b>Next:</b> <a href='rules_summary_peloton.ipynb'" in last
    assert "<section class='tutor-finish'" not in nav_html("rules_summary.ipynb", FR)
    assert "Your questions: {questions}." in html and "No question answered yet" in html  # filled in by the script


def test_the_progress_words_say_opened_or_how_many_were_answered_never_a_score_of_nothing():
    script = nav_html("03_movement.ipynb", FR)
    assert "{answered} of {total} answered, {right} right first time" in script
    assert '"opened": "opened"' in script and "/' + entry.total" not in script and "quiz ' + right" not in script


def test_the_rules_summary_has_a_glossary():
    text = _markdown(FR / "rules_summary.ipynb").lower()
    for word in ("sprinteur", "rouleur", "pack", "slipstream", "exhaustion", "ascent", "descent", "lane"):
        assert f"**{word}" in text, word


def test_the_landing_page_gives_each_lesson_a_summary_and_progress():
    html = landing_html(ROOT)
    assert "a rider alone on a square takes the right-hand lane" in html
    assert "data-lesson='flamme_rouge/03_movement.ipynb'" in html
    assert html.index("01_track_and_setup") < html.index("02_energy_phase") < html.index("07_full_race")
    assert "localStorage" in html and "scenarios" not in html


def test_the_landing_page_lists_every_game_and_links_each_lesson_by_title():
    html = landing_html(ROOT)
    for game in GAMES.values():
        assert f">{game.title}</h2>" in html
    links = HTML_LINK.findall(html)
    assert links and [link for link in links if not (ROOT / link).is_file()] == []
    expected = [p for p in NOTEBOOKS if p.parent != ROOT]
    assert sorted(links) == sorted(str(p.relative_to(ROOT)) for p in expected)
    for path in expected:
        assert f">{escape(lesson_info(path).title)}</a>" in html
    assert lesson_info(ROOT / "flamme_rouge" / "03_movement.ipynb").title == "3. Movement and blocking"


@pytest.mark.notebook
def test_the_landing_notebook_shows_the_links():
    outputs = [out for cell in _execute(INDEX).cells if cell.cell_type == "code" for out in cell.outputs]
    html = "".join(out.get("data", {}).get("text/html", "") for out in outputs)
    links = HTML_LINK.findall(html)
    assert "flamme_rouge/00_welcome.ipynb" in links and "flamme_rouge/07_full_race.ipynb" in links
    assert [link for link in links if not (ROOT / link).is_file()] == []


def test_every_landing_summary_is_a_whole_sentence_and_titles_carry_the_lesson_number():
    for game in GAMES.values():
        for lesson in lessons_in(ROOT / game.lessons):
            assert re.fullmatch(r"[A-Z][^\n]{20,}[.!?]", lesson.summary), (lesson.key, lesson.summary)
            assert not re.search(r"(^|\s)- |:\s*\d\.$", lesson.summary), (lesson.key, lesson.summary)
            number = re.match(r"(\d\d)_", lesson.path.name)
            if number and number.group(1) != "00":
                assert lesson.title.startswith(f"{int(number.group(1))}. "), (lesson.key, lesson.title)


def test_each_rules_summary_is_linked_from_the_lessons_it_sums_up():
    fr, flanders = ROOT / "flamme_rouge", ROOT / "flanders"
    assert "href='rules_summary_peloton.ipynb'" in nav_html("10_the_breakaway.ipynb", fr)
    assert "href='rules_summary.ipynb'" in nav_html("03_movement.ipynb", fr)
    assert "href='rules_summary.ipynb'" in nav_html("03_push_your_luck.ipynb", flanders)
    for summary in (fr / "rules_summary_peloton.ipynb", flanders / "rules_summary.ipynb"):
        text = _markdown(summary)
        assert "**Words**" in text and "Where the rulebook does not say, in this tutor" in text


def test_a_page_without_a_board_imports_no_widget_library():
    """The landing page, welcome pages and rules summaries only import ``tutor.ui.landing`` / ``lessons``: their
    kernel does not load ipywidgets, ipycanvas or numpy before it can show the text."""
    import subprocess
    import sys

    code = (
        "import sys; import tutor.ui.landing, tutor.ui.lessons; "
        "print(sorted(m for m in ('ipywidgets', 'ipycanvas', 'numpy', 'PIL') if m in sys.modules))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"
    languages = [language_line(code) for code in translations()]  # tutor.i18n: gettext, no widget library
    text_pages = [INDEX, *WELCOMES, *ROOT.glob("*/rules_summary*.ipynb")]
    translated = [
        ROOT / code / p.relative_to(ROOT)
        for code in translations()
        for p in text_pages
        if (ROOT / code / p.relative_to(ROOT)).is_file()
    ]
    assert len(translated) == len(text_pages) * len([code for code in translations() if (ROOT / code).is_dir()])
    for path in text_pages + translated:
        imports = [line for source in _code(_read(path)) for line in source.splitlines() if "import" in line]
        assert imports and all(line.startswith("from tutor.ui.l") or line in languages for line in imports), (
            path,
            imports,
        )


def _terrain(data: dict, square: int) -> str:
    return data["track"].split()[square].lstrip("0123456789")


def _left_one_gap_behind(data: dict) -> dict[str, str]:
    """Riders that end the round exactly one empty square behind another rider and did not slipstream: rider ->
    the terrain letters of its square and of the square beyond the gap ("" is flat)."""
    result = scenario.resolve_round(data)
    after = result["after_slipstream"]
    taken = {square for square, _ in after.values()}
    return {
        rid: _terrain(data, square) + "|" + _terrain(data, square + 2)
        for rid, (square, _) in after.items()
        if square + 1 not in taken and square + 2 in taken
    }


def test_fr08_shows_nobody_slipstreaming_onto_or_off_the_cobbles_as_its_text_promises():
    text = _markdown(FR / "08_narrow_roads_and_cobbles.ipynb")
    assert "nobody slipstreams onto or off the cobbles" in text
    left = _left_one_gap_behind(scenario.load(FR / "scenarios/narrow_cobbles_board.json"))
    assert "c|" in left.values(), "a rider on the cobbles that gets no slipstream"
    assert "|c" in left.values(), "a pack that gets none from a rider on the cobbles"


def test_fr06_shows_a_pack_on_the_climb_giving_no_slipstream():
    source = " ".join(_code(_read(FR / "06_mountains.ipynb")))
    assert "scenarios/mountain_no_slipstream_given.json" in source
    left = _left_one_gap_behind(scenario.load(FR / "scenarios/mountain_no_slipstream_given.json"))
    assert "|u" in left.values(), "a rider on the flat behind a pack on the climb stays"
    assert "gives no slipstream" in _markdown(FR / "06_mountains.ipynb")


def test_fr04_says_two_empty_squares_give_no_slipstream_and_fr10_matches_its_board():
    assert "**Two or more empty squares** in front give no slipstream" in _markdown(FR / "04_slipstream.ipynb")
    text = _markdown(FR / "10_the_breakaway.ipynb")
    assert "several squares" not in text and "a square or two" in text


def test_bot_teams_never_bidding_is_a_rule_everywhere_and_the_decision_is_who_counts():
    peloton = _markdown(FR / "rules_summary_peloton.ipynb")
    decisions = peloton[peloton.index("Where the rulebook does not say") :]
    assert "Only players bid" not in peloton and "never bid" in peloton[: peloton.index("Where the rulebook")]
    assert "counts the players who bid" in decisions
    assert "**Bot teams never bid**" in _markdown(FR / "11_peloton_and_muscle_teams.ipynb")


def test_a_lesson_knows_its_quizzes_before_they_are_drawn():
    """A lesson left before its quizzes are drawn is "opened", not finished: the page gets the count from the
    notebook (``metadata.tutor.quizzes``, the ids its quiz widgets declare), not from the quizzes found in the
    page so far."""
    counts = {lesson.path.name: lesson.quizzes for lesson in lessons_in(FR)}
    assert counts["03_movement.ipynb"] == 2 and counts["07_full_race.ipynb"] == 1
    assert counts["00_welcome.ipynb"] == 0 and counts["rules_summary.ipynb"] == 0
    assert "const quizzes = 2;" in nav_html("03_movement.ipynb", FR)
    assert "Math.max(entry.total || 0, quizzes," in nav_html("03_movement.ipynb", FR)
