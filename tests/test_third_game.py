"""A third game plugs in from one folder and one registry line (README, "Adding a game").

Count to Ten (tests/third_game/: engine, cli, widgets, one lesson, its Catalan messages) is registered here with
``tutor.core.games.register``, as a game outside this package would be; then ``rules-tutor check`` and
``simulate --game``, the landing page, the class database's quiz counts and its lesson page (executed, with the
shared lesson screen) work with it, and the two games before it keep their options. Its widget is the lesson
shell's: Back with nothing to take back and an add the rules refuse are clicked and said; ``rules-tutor
languages`` reports its messages until each catalog translates them, and then it plays in Catalan.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from tests.third_game import ENTRY
from tutor.classroom.database import ClassDatabase
from tutor.classroom.handlers import lessons_of
from tutor.cli import main
from tutor.core.games import GAMES, register
from tutor.ui.landing import landing_html

REPO = Path(__file__).resolve().parents[1]
LESSON = REPO / "tests" / "third_game" / "lessons" / "01_count_to_ten.ipynb"


@pytest.fixture
def third_game():
    """Count to Ten in the registry for one test (then the registry as it was)."""
    register(ENTRY)
    try:
        yield ENTRY
    finally:
        del GAMES[ENTRY.id]


@pytest.fixture
def lessons_root(tmp_path, third_game):
    """A served lessons folder holding the real games' folders and the third game's (its lessons, linked)."""
    for game in GAMES.values():
        source = REPO / "lessons" / game.lessons if game is not third_game else LESSON.parent
        (tmp_path / game.lessons).symlink_to(source, target_is_directory=True)
    return tmp_path


def test_a_registered_id_cannot_be_taken_twice(third_game):
    with pytest.raises(ValueError, match="already registered"):
        register(third_game)


def test_check_reads_the_game_key_and_runs_the_third_games_check(third_game, tmp_path, capsys):
    scenario = {"game": "count-to-ten", "players": 2, "total": 7, "adds": [1, 2]}
    good = tmp_path / "good.json"
    good.write_text(json.dumps({**scenario, "expect": {"total": 10, "winner": 1}}))
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({**scenario, "expect": {"winner": 0}}))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**scenario, "adds": [3]}))
    assert main(["check", str(good)]) == 0
    assert capsys.readouterr().out.strip() == f"{good}: pass"
    assert main(["check", str(wrong)]) == 1
    assert "FAIL: winner: expected 0, got 1" in capsys.readouterr().out
    assert main(["check", str(bad)]) == 2
    assert "malformed: cannot add 3 to 7" in capsys.readouterr().err


def test_a_file_without_a_game_key_is_still_flamme_rouge(third_game, tmp_path, capsys):
    """docs/scenario_format.md has no "game" key: such a file stays a Flamme Rouge scenario with a third game."""
    path = tmp_path / "blocked.json"
    path.write_text((REPO / "lessons" / "flamme_rouge" / "scenarios" / "bots_never_tire_quiz.json").read_text())
    assert "game" not in json.loads(path.read_text())
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out.strip() == f"{path}: pass"


def test_simulate_plays_the_third_game_with_its_own_options(third_game, capsys):
    assert (
        main(["simulate", "--game", "count-to-ten", "--players", "3", "--games", "2", "--start", "5", "--seed", "4"])
        == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == ["seed 4", "seed 5"]
    assert all(line.endswith("says ten") for line in lines)
    assert main(["simulate", "--game", "count-to-ten", "--players", "5"]) == 2
    assert "2 to 4 players, not 5" in capsys.readouterr().err


def test_each_game_keeps_its_options_and_its_defaults(third_game, capsys):
    """--players is shared by In Flanders Field and Count to Ten, each with its own default; an option of
    another game is refused."""
    assert main(["simulate", "--game", "count-to-ten", "--stage", "sprint-20"]) == 2
    assert "--stage is not an option of Count to Ten (--game count-to-ten)" in capsys.readouterr().err
    assert main(["simulate", "--start", "3"]) == 2
    assert "--start is not an option of Flamme Rouge" in capsys.readouterr().err
    assert main(["simulate", "--game", "flanders", "--start", "3"]) == 2
    assert "--start is not an option of In Flanders Field" in capsys.readouterr().err
    assert main(["simulate", "--game", "flanders"]) == 0  # its default: 3 players
    assert "(troops: p1" in capsys.readouterr().out
    assert main(["simulate", "--game", "count-to-ten"]) == 0  # its default: 2 players, one game
    assert len(capsys.readouterr().out.splitlines()) == 1
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    assert "Count to Ten (--game count-to-ten)" in capsys.readouterr().out


def test_the_landing_page_lists_the_third_games_lesson(lessons_root):
    html = landing_html(lessons_root)
    assert "<h2>Count to Ten</h2>" in html and "whoever says ten wins" in html
    assert "href='count_to_ten/01_count_to_ten.ipynb'>1. Count to ten</a>" in html
    assert (
        html.index("<h2>Flamme Rouge</h2>")
        < html.index("<h2>In Flanders Field</h2>")
        < html.index("<h2>Count to Ten</h2>")
    )


def test_the_class_database_counts_the_third_games_quizzes(lessons_root, tmp_path):
    lessons = {lesson.key: lesson for lesson in lessons_of(lessons_root)}
    lesson = lessons["count_to_ten/01_count_to_ten.ipynb"]
    assert lesson.quizzes == ("84553e2990",)
    db = ClassDatabase(tmp_path / "class.sqlite3", list(lessons.values()))
    learner, _secret = db.join("Ada")
    assert db.answered(learner, lesson.key, "84553e2990", right=True, choice="9")
    assert not db.answered(learner, lesson.key, "not-its-quiz", right=True)
    assert db.progress(learner)[lesson.key] == {"finished": True, "quizzes": {"84553e2990": "right-first"}}


def test_its_lesson_page_renders_with_the_shared_lesson_screen(monkeypatch):
    """Executed as Voila executes it: the lesson's widgets are the shared screen's parts (live region, prompt
    row, secondary row, "For teachers") and the quiz shell, and its quiz declares the id the lesson names."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    nb = nbformat.read(LESSON, as_version=4)
    NotebookClient(
        nb,
        timeout=300,
        startup_timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(LESSON.parent)}},
    ).execute()
    outputs = [output for cell in nb.cells if cell.cell_type == "code" for output in cell.outputs]
    assert not [output for output in outputs if output.output_type == "error"]
    assert sum("application/vnd.jupyter.widget-view+json" in output.get("data", {}) for output in outputs) == 2
    models = nb.metadata.widgets["application/vnd.jupyter.widget-state+json"]["state"].values()
    classes = {name for model in models for name in model["state"].get("_dom_classes", ())}
    assert {
        "tutor-live",
        "tutor-prompt-row",
        "tutor-secondary",
        "tutor-teachers",
        "tutor-lesson",
        "tutor-quiz",
    } <= classes
    said = [
        model["state"].get("value", "") for model in models if "tutor-live" in model["state"].get("_dom_classes", ())
    ]
    assert any("The total is 0. Player 1: add 1 or 2 to reach 10." in text for text in said)
    assert nb.metadata.tutor.quizzes == ["84553e2990"]


def _tutor(monkeypatch, **kwargs):
    from tests.third_game.widgets import CountTutor

    monkeypatch.setattr(CountTutor, "debounce_s", 0)  # every click counts (the double-click rule: its own test)
    return CountTutor(**kwargs)


def test_back_with_nothing_to_take_back_warns_and_changes_nothing(monkeypatch):
    tutor = _tutor(monkeypatch)
    before = tutor.game.to_dict()
    tutor.back_button.click()
    assert tutor.game.to_dict() == before
    assert tutor.status.kind == "warning"
    assert tutor.status.text == "Nothing to undo: this is the starting position."
    tutor.add_buttons[1].click()
    assert tutor.game.total == 2 and tutor.status.text.startswith("The total is 2. Player 2")
    assert "Player 1 adds 2: the total is 2." in tutor.text_view.text  # the board in words cites the rule
    assert "Your turn: Add 1 or 2 to the total" in tutor.text_view.text
    tutor.back_button.click()
    assert tutor.game.total == 0 and tutor.status.kind == "info"
    assert tutor.status.text == "The total is 0. Player 1: add 1 or 2 to reach 10."
    tutor.back_button.click()  # back at the start again: nothing more to take back
    assert tutor.game.to_dict() == before and tutor.status.kind == "warning"


def test_an_add_the_rules_refuse_is_said_and_changes_nothing(monkeypatch):
    tutor = _tutor(monkeypatch)
    for amount in (2, 2, 2, 2, 1):
        tutor.add_buttons[amount - 1].click()
    assert tutor.game.total == 9 and tutor.game.turn == 1
    before = tutor.game.to_dict()
    tutor.add_buttons[1].click()  # 9 + 2 passes 10
    assert tutor.game.to_dict() == before
    assert tutor.status.kind == "warning"
    assert tutor.status.text == "Not allowed: cannot add 2 to 9: the total may not pass 10."
    tutor.add_buttons[0].click()
    assert tutor.game.winner == 1 and tutor.status.kind == "success"
    assert tutor.status.text == "Player 2 makes the total 10 and wins."
    assert tutor.focused is tutor.restart_button
    tutor.add_buttons[0].click()  # after the win
    assert tutor.game.total == 10 and tutor.status.text == (
        "Not allowed: the game is over: player 2 has made the total 10."
    )
    tutor.back_button.click()  # Back takes back the winning add, not the refused ones
    assert tutor.game.total == 9 and tutor.game.winner is None and tutor.game.turn == 1
    tutor.restart_button.click()
    assert tutor.game.total == 0 and tutor.status.text.startswith("The total is 0. Player 1")
    tutor.back_button.click()
    assert tutor.status.text == "Nothing to undo: this is the starting position."


def test_a_double_click_adds_once():
    """The shell's one click rule: a second click on the same button within ``debounce_s`` is dropped."""
    from tests.third_game.widgets import CountTutor

    tutor = CountTutor()
    tutor.add_buttons[0].click()
    tutor.add_buttons[0].click()
    assert tutor.game.total == 1


def test_the_language_check_reports_its_messages_until_every_catalog_translates_them(tmp_path, monkeypatch):
    """What a new game asks of translators: ``rules-tutor languages`` (``tutor.i18n.catalogs.check``, here pointed at
    the game's folder, as the game lives outside ``tutor/``) extracts its messages (engine, rules, widgets,
    lesson) and reports them as left in every catalog; once a catalog translates them it says "complete", and the
    game plays in that language with no message left in English."""
    from babel.messages.pofile import read_po

    from tutor import i18n
    from tutor.i18n import catalogs as languages

    game = REPO / "tests" / "third_game"
    codes = [code for code in i18n.language_codes() if code != i18n.SOURCE_LANGUAGE]
    assert codes == sorted(path.stem for path in (game / "locale").glob("*.po")), "a catalog per language"
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)  # copies of the catalogs: the repository's stay as they are
    for code in codes:
        copy = i18n.catalog_path(code)
        copy.parent.mkdir(parents=True)
        copy.write_bytes((REPO / "tutor" / "locale" / code / "LC_MESSAGES" / "tutor.po").read_bytes())
        with (game / "locale" / f"{code}.po").open("rb") as po:
            translated = {m.id: m.string for m in read_po(po, locale=code) if m.id}

        report = languages.check(code, source=game, lessons=LESSON.parent, write=False)
        assert not report.complete
        assert set(report.untranslated) == set(translated) - {m for m in translated if m in _catalog_ids(code)}
        assert {
            "Add {n}",
            "cannot add {amount} to {total}: the total may not pass {target}",
            "Your turn",
            "1. Count to ten",
        } <= set(report.untranslated)
        assert report.lines()[0].endswith("(2 of 2 lesson messages left); what is left is shown in English.")

        with copy.open("rb") as po:  # the translator's part: the game's messages added to the catalog
            catalog = read_po(po, locale=code)
        for message, text in translated.items():
            catalog.add(message, text)
        languages.write_catalog(catalog, copy)
        report = languages.check(code, source=game, lessons=LESSON.parent, write=False)
        assert report.complete and report.lines() == [f"{i18n.own_name(code)} ({code}): complete."]

    i18n.catalog_for.cache_clear()
    try:
        i18n.use_language("ca")
        i18n.clear_missed()
        tutor = _tutor(monkeypatch)
        tutor.back_button.click()
        assert tutor.status.text == _catalan("Nothing to undo: this is the starting position.")
        for amount in (2, 2, 2, 2, 1, 2):
            tutor.add_buttons[amount - 1].click()
        assert tutor.status.text == "No es pot: sumar 2 a 9 passa de 10."
        tutor.add_buttons[0].click()
        assert tutor.status.text == "El jugador 2 fa arribar el total a 10 i guanya."
        assert tutor.add_buttons[1].description == "Suma 2"
        assert i18n.missed() == []
    finally:
        i18n.use_language(i18n.SOURCE_LANGUAGE)
        i18n.clear_missed()
        monkeypatch.undo()
        i18n.catalog_for.cache_clear()


def _catalog_ids(code: str) -> set[str]:
    """The messages the repository's catalog for ``code`` already translates."""
    from babel.messages.pofile import read_po

    with (REPO / "tutor" / "locale" / code / "LC_MESSAGES" / "tutor.po").open("rb") as po:
        return {m.id for m in read_po(po, locale=code) if m.id and m.string}


def _catalan(message: str) -> str:
    from tutor.i18n import gettext_in

    return gettext_in("ca", message)
