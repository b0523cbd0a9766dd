"""The tutor in Catalan: a complete catalog, whole games told with no English message, and the teacher's check.

``tutor.i18n`` records every message looked up that the kernel's catalog does not translate (``missed()``):
a Catalan game that misses none was told in Catalan throughout. A word list catches English text that never
went through gettext.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from tutor import i18n
from tutor.i18n import catalogs
from tutor.flamme_rouge import Race
from tutor.flamme_rouge.bots import autoplay
from tutor.flamme_rouge.render.describe import describe_race
from tutor.flamme_rouge.widgets.narration import computer_plays, narrate
from tutor.flanders import Game
from tutor.flanders import autoplay as flanders_autoplay
from tutor.flanders.render import frames_for, picture_of
from tutor.flanders.render.describe import describe_picture
from tutor.flanders.widgets.narration import captions
from tutor.flanders.widgets.narration import narrate as flanders_narrate
from tutor.ui.narration import cite

ENGLISH = re.compile(
    r"\b(the|and|square|squares|rider|riders|card|cards|moves|pack|lane|round|takes|from|with|"
    r"space|spaces|troop|pawn|wins|rolls|bust|phase|deck|behind)\b",
    re.IGNORECASE,
)
"""Words a Catalan sentence never has: a sentence with one was left in English."""


@pytest.fixture
def catalan():
    i18n.use_language("ca")
    i18n.clear_missed()
    yield  # conftest sets English back
    i18n.clear_missed()


def _catalog():
    with i18n.catalog_path("ca").open("rb") as po:
        return read_po(po, locale="ca")


def test_the_catalan_catalog_has_no_missing_empty_or_fuzzy_message_and_keeps_every_placeholder():
    catalog = _catalog()
    report = catalogs.Report("ca")
    catalogs.check_catalog(catalog, report)
    assert report.untranslated == [] and report.fuzzy == [] and report.placeholders == []
    assert catalog.num_plurals == 2
    for message in catalog:
        if message.pluralizable:
            assert len(message.string) == 2 and all(message.string), message.id


def test_every_message_of_the_code_is_in_the_catalan_catalog():
    extracted = {m.id if isinstance(m.id, str) else tuple(m.id) for m in catalogs.extract() if m.id}
    translated = {m.id if isinstance(m.id, str) else tuple(m.id) for m in _catalog() if m.id}
    assert sorted(map(str, extracted - translated)) == []


def test_a_lost_placeholder_is_reported():
    catalog = _catalog()
    catalog["{rider} plays a card face down."].string = "{corredor} juga una carta cap per avall."
    report = catalogs.Report("ca")
    catalogs.check_catalog(catalog, report)
    assert report.placeholders == ["{rider} plays a card face down.  →  {corredor} juga una carta cap per avall."]


def _said_in_catalan(texts: list[str]) -> None:
    english = [t for t in texts if ENGLISH.search(t)]
    assert english == [], english[:5]
    assert i18n.missed() == []


def test_a_whole_catalan_race_with_the_peloton_expansion_is_told_with_no_english_message(catalan):
    race = Race.new(
        "avenue-corso-paseo",
        4,
        bots=dict.fromkeys(("red", "blue", "green", "black"), "heuristic"),
        seed=3,
        peloton=True,
        muscle=1,
        breakaway=True,
    )
    told = describe_race(race)
    events = autoplay(race)
    lines = narrate(events) + computer_plays(events)
    told += [line.text for line in lines] + [cite(line.rules) for line in lines] + describe_race(race)
    assert race.winner and len(lines) > 100
    assert any("lliscament aerodinàmic" in t for t in told) and any("escapada" in t for t in told)
    assert any("esgotament" in t for t in told) and any("Pelotó" in t for t in told)
    _said_in_catalan(told)


def test_a_whole_catalan_game_of_in_flanders_field_is_told_with_no_english_message(catalan):
    game = Game.new(3, bots={"p1": "cautious", "p2": "bold", "p3": "threshold"}, seed=1)
    before = picture_of(game)
    told = describe_picture(before, game.cards, game.battlefield)
    events = flanders_autoplay(game)
    lines = flanders_narrate(events, game.cards)
    said = captions(events, game.cards)
    told += [line.text for line in lines] + [cite(line.rules) for line in lines] + [s for pair in said for s in pair]
    for picture, _ in frames_for(before, events, said, picture_of(game))[::7]:
        told += describe_picture(picture, game.cards, game.battlefield)
    assert game.winners and len(lines) > 50
    assert any("Fallada" in t for t in told) and any("peces de tropa" in t for t in told)
    _said_in_catalan([t for t in told if t])


def test_a_message_missing_from_the_catalog_falls_back_to_english_and_is_recorded(catalan):
    assert i18n._("A message no catalog has.") == "A message no catalog has."
    assert i18n.ngettext("{n} rider", "{n} riders", 2) == "{n} riders"
    assert i18n.missed() == ["A message no catalog has.", ("{n} rider", "{n} riders")]
    assert i18n._("Round {round} begins.") == "Comença la ronda {round}."
    assert i18n.ngettext("{n} exhaustion card", "{n} exhaustion cards", 1) == "{n} carta d'esgotament"
    assert i18n.missed() == ["A message no catalog has.", ("{n} rider", "{n} riders")]


def test_lists_numbers_and_percentages_follow_the_language(catalan):
    assert i18n.and_list(["a", "b", "c"]) == "a, b i c"
    assert i18n.and_list([]) == "ningú"
    assert i18n.percent(0.255, 1) == "25,5\u00a0%"  # a (no-break) space before the sign, as Catalan writes it
    i18n.use_language("en")
    assert i18n.and_list(["a", "b", "c"]) == "a, b and c"
    assert i18n.percent(0.255, 1) == f"{0.255 * 100:.1f}%"


def test_the_english_rules_are_unchanged_and_translated_only_when_read(catalan):
    from tutor.flamme_rouge import rules

    assert rules.MOVE.text_message == "a rider moves exactly the value of its card and may pass through other riders"
    assert rules.MOVE.text.startswith("un corredor avança exactament")
    assert rules.MOVE.section == "Fase de moviment"
    i18n.use_language("en")
    assert str(rules.MOVE) == (
        "Movement phase: a rider moves exactly the value of its card and may pass through other riders"
    )


def test_the_language_check_reports_an_untranslated_message_and_a_lesson_paragraph(tmp_path: Path):
    source = tmp_path / "tutor"
    source.mkdir()
    (source / "made_up.py").write_text('from tutor.i18n import _\n\nSAID = _("A made-up message for the check.")\n')
    lessons = tmp_path / "lessons"
    (lessons / "flamme_rouge").mkdir(parents=True)
    lesson = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": "# A made-up lesson\n\n- Its one item."}]}
    (lessons / "flamme_rouge" / "01_a.ipynb").write_text(json.dumps(lesson))
    report = catalogs.check("ca", source=source, lessons=lessons, write=False)
    assert report.untranslated == ["A made-up message for the check.", "A made-up lesson", "Its one item."]
    assert report.lesson_messages == {"A made-up lesson", "Its one item."} and report.total == 3
    assert not report.complete
    said = "\n".join(report.lines())
    assert said.startswith("Català (ca): 0 of 3 messages translated (2 of 2 lesson messages left)")
    assert "A made-up message for the check." in said and "Its one item." in said


def test_the_command_line_check_exits_1_when_something_is_left(capsys):
    from tutor.cli import main

    status = main(["languages", "--no-write", "ca"])
    out = capsys.readouterr().out
    assert out.startswith("Català (ca):")
    assert status == (0 if out.strip().endswith("complete.") else 1)


def test_the_lesson_pages_carry_the_catalan_messages_of_their_scripts():
    """messages/ca.json (put in each Catalan page by the template) is the catalog's translation of every message the
    page scripts (connection banner, class overlays, labels) say; the template names the page's language."""
    written = json.loads((catalogs.PAGE_MESSAGES / "ca.json").read_text(encoding="utf-8"))
    assert written == catalogs.page_messages(_catalog())
    assert written["This lesson has stopped."] == "Aquesta lliçó s'ha aturat."
    assert written["Reload"] == "Torna a carregar" and written["Eyes on your teacher"]
    template = (catalogs.PAGE_SCRIPTS / "index.html.j2").read_text()
    assert "resources.update({'language_code': tutor_language})" in template
    assert "'messages/' ~ resources.language_code ~ '.json'" in template


def test_the_class_pages_speak_the_lessons_language():
    from tutor.classroom.pages import DEVICE_FULL_PAGE, device_full_page, not_open_page

    catalan = not_open_page("/voila/render/ca/index.ipynb", "ca/flamme_rouge/03_movement.ipynb")
    assert '<html lang="ca">' in catalan and "Encara no és oberta" in catalan and "Totes les lliçons" in catalan
    assert device_full_page("flamme_rouge/03_movement.ipynb") == DEVICE_FULL_PAGE
    assert '<html lang="en">' in DEVICE_FULL_PAGE and "Too many lessons open" in DEVICE_FULL_PAGE


def test_a_refused_action_is_told_in_catalan_and_changes_nothing(catalan):
    from tutor.core.errors import RuleError

    race = Race.new("avenue-corso-paseo", 2, seed=1)
    before = race.to_dict()
    with pytest.raises(RuleError, match="^ara no es pot col·locar corredors: és la fase d'energia$"):
        race.place(next(iter(race.riders)), 9, 0)
    assert race.to_dict() == before
    assert i18n.missed() == []


def _widget_words(widget) -> list[str]:
    """Every text a widget tree shows: HTML values, descriptions, tooltips, option labels."""
    import ipywidgets as widgets

    said, todo = [], [widget]
    while todo:
        w = todo.pop()
        for name in ("value", "description", "tooltip", "placeholder"):
            value = getattr(w, name, None)
            if isinstance(value, str) and not isinstance(w, (widgets.Text, widgets.Textarea)):
                value = re.sub(r"<(style|script)[^>]*>.*?</\1>", " ", value, flags=re.S)
                said.append(re.sub(r"<[^>]+>", " ", value))
        said += [str(label) for label in getattr(w, "_options_labels", ()) or ()]
        todo += [c for c in getattr(w, "children", ()) if isinstance(c, widgets.Widget)]
    return [s for s in said if s.strip()]


def test_a_catalan_race_tutor_plays_two_rounds_with_no_english_message(catalan, monkeypatch):
    from tutor.flamme_rouge.widgets import RaceTutor

    monkeypatch.setattr(RaceTutor, "debounce_s", 0)
    tutor = RaceTutor.new_race(
        "avenue-corso-paseo", teams=("red", "blue"), bots={"blue": "heuristic"}, seed=0, human_teams=("red",)
    )
    said = _widget_words(tutor)
    for _round in range(2):
        tutor.draw_buttons["red-S"].click()
        tutor.card_buttons[0].click()
        tutor.draw_buttons["red-R"].click()
        tutor.card_buttons[0].click()
        said += _widget_words(tutor)
        tutor.finish_button.click()
        if tutor.paused:
            tutor.next_round_button.click()
        said += _widget_words(tutor)
    assert tutor.race.round == 3
    assert i18n.missed() == []
    english = [
        m.group(0) + ": " + t[max(0, m.start() - 40) : m.end() + 40]
        for t in said
        if (m := ENGLISH.search(re.sub(r"\b[a-z]+-[SR]\b", "", t)))
    ]
    assert english == [], english[:5]


def test_a_catalan_game_tutor_rolls_and_takes_a_card_with_no_english_message(catalan):
    from tutor.flanders.widgets import GameTutor

    tutor = GameTutor(Game.new(2, bots={"p2": "bold"}, seed=1))
    said = _widget_words(tutor)
    tutor.roll_button.click()
    said += _widget_words(tutor)
    enabled = [b for b in tutor.pair_buttons if not b.disabled]
    if enabled:
        enabled[0].click()
        said += _widget_words(tutor)
    assert i18n.missed() == []
    english = [t for t in said if ENGLISH.search(t)]
    assert english == [], english[:5]


def test_a_language_is_added_by_its_catalog_alone(tmp_path: Path, monkeypatch):
    """A catalog in locale/<code>/ is all it takes: the tutor speaks it, the pages name it in itself."""
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    for code, said in (("ca", "Hola"), ("es", "Hola en castellano")):
        folder = tmp_path / code / "LC_MESSAGES"
        folder.mkdir(parents=True)
        (folder / "tutor.po").write_text(
            f'msgid ""\nmsgstr ""\n"Language: {code}\\n"\n\nmsgid "Hello"\nmsgstr "{said}"\n', encoding="utf-8"
        )
    i18n.catalog_for.cache_clear()
    try:
        assert i18n.languages() == {"en": "English", "ca": "Català", "es": "Español"}
        assert i18n.gettext_in("es", "Hello") == "Hola en castellano"
        with pytest.raises(ValueError, match="unknown language 'xx'"):
            i18n.catalog_for("xx")
    finally:
        i18n.catalog_for.cache_clear()


def test_a_catalan_lesson_built_in_the_test_process_speaks_catalan_until_the_test_ends():
    from tutor.i18n.lesson_languages import language_line

    exec(language_line("ca"), {})  # as a browser test does when it builds a Catalan lesson's widgets here
    assert i18n.language() == "ca"


def test_the_next_test_speaks_english_again():
    """The previous test left Catalan on; conftest sets English back, or every later label would be Catalan."""
    assert i18n.language() == "en" and i18n._("Next step") == "Next step"


@pytest.mark.parametrize(
    "spec, words",
    [
        ("2 3c 2", "casella 1: les llambordes tenen 1 o 2 carrils, no 3"),
        ("2 9 2", "casella 1: codi incorrecte '9'"),
        ("", "un recorregut necessita com a mínim una casella"),
    ],
)
def test_a_bad_track_a_teacher_types_is_refused_in_catalan(catalan, spec, words):
    """Issue 38: the Flamme Rouge workbench shows a track's refusal (``key 'track': ...``) in the page's language."""
    from tutor.flamme_rouge.errors import TrackError
    from tutor.flamme_rouge.track import Track

    with pytest.raises(TrackError) as refused:
        Track.parse(spec)
    assert str(refused.value).startswith(words) and not ENGLISH.search(str(refused.value)), str(refused.value)
