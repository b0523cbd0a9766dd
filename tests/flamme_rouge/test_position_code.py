"""Position codes (``scenario.to_code`` / ``from_code``): every scenario file round-trips, random valid scenarios
round-trip, and a malformed code raises ``ScenarioError`` with a message that says what is wrong."""

from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.flamme_rouge import scenario as sc
from tutor.flamme_rouge.errors import ScenarioError
from tutor.flamme_rouge.race import TEAM_COLOURS

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted([*ROOT.glob("lessons/flamme_rouge/scenarios/*.json"), *ROOT.glob("tests/flamme_rouge/scenarios/*.json")])


def _code_of(payload: bytes) -> str:
    deflater = zlib.compressobj(9, zdict=sc._CODE_DICTIONARY)
    packed = deflater.compress(payload) + deflater.flush()
    return sc.CODE_PREFIX + base64.urlsafe_b64encode(packed).decode().rstrip("=")


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_scenario_file_round_trips(path: Path):
    data = sc.load(path)
    code = sc.to_code(data)
    assert code.startswith("FR1-")
    assert set(code[4:]) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert sc.from_code(code) == data
    assert sc.resolve_round(sc.from_code(code)) == sc.resolve_round(data)


def test_every_key_of_the_format_travels_and_the_code_is_short():
    data = {"name": "Blocked — «red»", "description": "Where does red end up?", "track": "2 2 2u 3s 1c 2 2 2",
            "finish": 6,
            "riders": [{"id": "red-S", "square": 1, "lane": 0, "team": "red", "kind": "sprinteur"},
                       {"id": "p1", "square": 0, "lane": 1, "team": "peloton", "exhaustion": False},
                       {"id": "p2", "square": 0, "lane": 0, "team": "peloton", "exhaustion": False}],
            "cards": {"red-S": 3, "p1": "attack", "p2": "attack"},
            "expect": {"winner": None}}
    code = sc.to_code(data)
    assert sc.from_code(code) == data
    assert len(sc.to_code({"track": " ".join(["2"] * 20), "riders": [{"id": "a", "square": 3, "lane": 0}],
                           "cards": {"a": 5}})) <= 60


@st.composite
def valid_scenarios(draw):
    length = draw(st.integers(3, 30))
    tokens = [draw(st.sampled_from(["1", "2", "3", "2u", "2d", "1c", "2c", "3s"])) for _ in range(length)]
    slots = [(s, lane) for s, t in enumerate(tokens) for lane in range(int(t[0]))]
    chosen = draw(st.lists(st.sampled_from(slots), min_size=1, max_size=min(9, len(slots)), unique=True))
    riders = []
    for i, (square, lane) in enumerate(chosen):
        rider: dict = {"id": draw(st.sampled_from(["", "red-", "é "])) + f"r{i}", "square": square, "lane": lane}
        if draw(st.booleans()):
            rider["team"] = draw(st.sampled_from(TEAM_COLOURS))
        if draw(st.booleans()):
            rider["kind"] = draw(st.sampled_from(["rouleur", "sprinteur"]))
        if draw(st.booleans()):
            rider["exhaustion"] = draw(st.booleans())
        riders.append(rider)
    data: dict = {"track": " ".join(tokens), "riders": riders}
    if draw(st.booleans()):
        data["name"] = draw(st.text(max_size=30))
        data["description"] = draw(st.text(max_size=60))
    if draw(st.booleans()):
        data["finish"] = draw(st.integers(max(s for s, _ in chosen) + 1, len(tokens))) if len(tokens) > 1 else None
        if data["finish"] is None or data["finish"] >= len(tokens):
            del data["finish"]
    if draw(st.booleans()):
        data["cards"] = {r["id"]: draw(st.sampled_from([2, 3, 4, 5, 6, 7, 9])) for r in riders}
    if draw(st.booleans()):
        data["expect"] = {"exhausted": [], "winner": None}
    return data


@settings(max_examples=80, deadline=None, database=None)
@given(data=valid_scenarios())
def test_random_valid_scenarios_round_trip(data):
    sc.build(data)
    assert sc.from_code(sc.to_code(data)) == data


def test_an_invalid_scenario_gets_no_code():
    with pytest.raises(ScenarioError, match="lane 2 does not exist"):
        sc.to_code({"track": "2 2", "riders": [{"id": "a", "square": 0, "lane": 2}]})


GOOD = sc.to_code({"track": "2 2 2 2 2 2", "riders": [{"id": "a", "square": 1, "lane": 0}], "cards": {"a": 3}})


@pytest.mark.parametrize("code, words", [
    ("", "empty"),
    ("   \n", "empty"),
    ("hello world", "starts with FR1-"),
    ('{"track": "2 2"}', "starts with FR1-"),
    ("FR4-" + GOOD[4:], "version 4"),  # FR2- and FR3- are the short codes (test_short_code.py)
    ("FR1-" + GOOD[4:12] + "!" + GOOD[12:], "contains '!'"),
    ("FR1-" + GOOD[4:12] + "=", "contains '='"),
    (GOOD[:-1], "damaged"),
    (GOOD[:len(GOOD) // 2], "damaged"),
    (GOOD[:10] + ("A" if GOOD[10] != "A" else "B") + GOOD[11:], "damaged"),
    ("FR1-AAAA", "damaged"),
    (GOOD + "AAAA", "damaged"),
    (_code_of(b"not json at all"), "not valid JSON"),
    (_code_of(b"\xff\xfe"), "not UTF-8"),
    (_code_of(b"[1, 2, 3]"), "a JSON object"),
    (_code_of(json.dumps({"track": "2 2", "riders": []}).encode()), "invalid scenario: key 'riders'"),
    (_code_of(json.dumps({"track": "2 2", "riders": [{"id": "a", "square": 0, "lane": 0}],
                          "colour": "red"}).encode()), "invalid scenario: unknown key 'colour'"),
])
def test_a_malformed_code_says_what_is_wrong(code, words):
    with pytest.raises(ScenarioError) as err:
        sc.from_code(code)
    assert words in str(err.value)


def test_white_space_in_a_pasted_code_is_ignored_and_non_text_is_refused():
    wrapped = GOOD[:20] + "\n  " + GOOD[20:] + " "
    assert sc.from_code(wrapped) == sc.from_code(GOOD)
    with pytest.raises(ScenarioError, match="is text"):
        sc.from_code(123)  # type: ignore[arg-type]


def test_a_decompression_bomb_is_refused():
    with pytest.raises(ScenarioError, match="more than a scenario"):
        sc.from_code(_code_of(b" " * (3 << 20)))
