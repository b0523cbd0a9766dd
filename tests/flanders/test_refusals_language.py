"""Issue 38: a malformed In Flanders Field scenario file or position code is refused in the teacher's language.

Each refusal is made as the workbench makes it (``scenario.check`` of a loaded file, ``position_code.from_code`` of
a pasted code). In the pseudo-language ``en_XA`` every letter of a message is accented, so a plain ASCII word left
in a refusal came from code that never went through gettext; only what the teacher typed (the file's keys and
values, card names, player ids) and the games' names may stay as they are. In Catalan every message looked up has
its translation.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tutor import i18n
from tutor.core.schema import parse_json
from tutor.flanders import ScenarioError, position_code, scenario
from tutor.flanders.battlefield import SpaceKind
from tutor.flanders.position_code import CARD_NAMES

BASE: dict[str, Any] = {"game": "flanders", "players": [{"id": "p1"}, {"id": "p2"}]}
SCENARIOS: list[dict[str, Any]] = [
    {"players": [{"id": "p1", "pawn": 40}, {"id": "p2"}]},
    {"players": [{"id": "p1", "troops": -1}, {"id": "p2"}]},
    {"players": [{"id": "p1"}, {"id": "p1"}]},
    {"players": [{"id": "p1", "hat": 1}, {"id": "p2"}]},
    {"players": [{"id": "p1", "retained": ["Infantry"]}, {"id": "p2"}]},
    {"spaces": {"9": "Tank"}},
    {"spaces": {"12": "Tank"}},
    {"spaces": {"3": "Zeppelin"}},
    {"taken": ["Tank"] * 4},
    {"current": "p9"},
    {"seed": 1.5},
    {"phase": "resolve", "actions": [{"play": "Tank", "spaces": 1}]},
    {"actions": ["jump"]},
    {"actions": [{"fly": 1}]},
    {"actions": [{"roll": [1, 2]}]},
    {"actions": ["stop"]},  # in the roll phase: the phases named in the learner's words, not the format's
    {"actions": [{"take": "x"}]},
    {"actions": [{"take": 5}]},
    {"actions": [{"end_turn": "Tank"}]},
    {"phase": "resolve", "actions": [{"play": "fixed", "spaces": "x"}]},
    {"phase": "resolve", "actions": [{"play": "fixed", "mines": "x"}]},
    {"expect": {"score": 3}},
    {"battlefield": {"spaces": [{"kind": "start"}, {"kind": "open"}]}},
    {"battlefield": {"spaces": [{"kind": "open"}, {"kind": "objective"}]}},
    {"battlefield": {"spaces": [{"kind": "start"}, {"kind": "lake"}, {"kind": "objective"}]}},
    {"battlefield": {"spaces": "none"}},
    {"game": None},
]
UPLOADS = ['{"a" 1}', '{"a": 1,}', "[1 2]", "[1] x", '"abc', '"a\tb"', '"\\q"', '"\\u12"', " ", '{"a": NaN}']
"""Files that are not JSON, as the workbench reads an uploaded file (``parse_json``)."""
UPLOADS += ["\udcff", "a\udcc3"]  # bytes that are not UTF-8 (surrogate-escaped here, sent as the bytes)
CODES = ["", "hello", "FR3-0MHSR031MV", "IF2-0000", "IF1-!!", "IF1-0", "IF1-0000000", "IF1-" + "7" * 300, 42]

TYPED = (
    {
        *scenario.SCENARIO_KEYS,
        *scenario.OUTPUT_KEYS,
        "id",
        "pawn",
        "troops",
        "retained",
        "roll",
        "take",
        "stop",
        "play",
        "mines",
        "end_turn",
        "fixed",
        "name",
        "kind",
        "description",
        "hat",
        "score",
        "jump",
        "fly",
        "lake",
        "none",
        "flanders",
        "Zeppelin",
        "hello",
        "true",
        "false",
        "null",
        "In",
        "Flanders",
        "Field",
        "Flamme",
        "Rouge",
        "json",
        "NaN",
    }
    | {k.value for k in SpaceKind}
    | {w for name in CARD_NAMES for w in name.split()}
)
"""What a refusal may show as it is: the keys and values the teacher typed, card names, the games' names."""
WORD = re.compile(r"(?<![\w'’-])[A-Za-z][a-z]*[A-Za-z](?:_[a-z]+)*(?![\w])")


def refusal(case: dict[str, Any] | str | int) -> str:
    """What the workbench says about a scenario file (``case`` a dict, or its text), or a pasted code."""
    with pytest.raises(ScenarioError) as caught:
        if case in UPLOADS:
            parse_json(str(case).encode("utf-8", "surrogateescape"), "p1.json", ScenarioError)
        elif isinstance(case, dict):
            data = {**BASE, **case, "expect": case.get("expect", {})}
            if data["game"] is None:
                del data["game"]
            scenario.check(data)
        else:
            position_code.from_code(case)
    return str(caught.value)


def english(text: str) -> list[str]:
    """The ASCII words of ``text`` that the teacher did not type (in the pseudo-language: English left over)."""
    plain = re.sub(r"\b(?:IF|FR)\d-[A-Z0-9]*", " ", text)
    return [w for w in WORD.findall(plain) if w not in TYPED]


@pytest.fixture
def language(request):
    i18n.use_language(request.param)
    i18n.clear_missed()
    yield request.param
    i18n.use_language(i18n.SOURCE_LANGUAGE)


CASES = [*SCENARIOS, *UPLOADS, *CODES]
IDS = [f"{n}-{json.dumps(c)[:40]}" for n, c in enumerate(CASES)]


@pytest.mark.parametrize("language", [i18n.PSEUDO], indirect=True)
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_refusal_in_the_pseudo_language_has_no_english_word(case, language):
    said = refusal(case)
    assert "⟦" in said and english(said) == [], said


@pytest.mark.parametrize("language", ["ca"], indirect=True)
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_refusal_in_catalan_is_all_translated(case, language):
    said = refusal(case)
    i18n.use_language(i18n.SOURCE_LANGUAGE)
    assert said != refusal(case)
    i18n.use_language("ca")
    assert i18n.missed() == [], said


def test_the_scan_finds_an_english_sentence():
    assert refusal({"seed": 1.5})  # English: the scan below must see its words
    assert english(refusal({"actions": [{"take": "x"}]}))
    assert english("players[0] (p1): 'x' ⟦ñöţ á çáŕð⟧ Tank «seed» IF1-0") == []
