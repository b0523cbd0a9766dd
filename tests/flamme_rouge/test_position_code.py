"""Position codes (``scenario.to_code`` / ``from_code``, ``FR3-``, the only version the tutor reads): every scenario
file's position round-trips, random valid positions round-trip, a malformed code raises ``ScenarioError`` with a
message that says what is wrong, and a code of an older tutor (``FR1-``, ``FR2-``) or a newer one raises
``CodeVersionError``, one sentence saying what to do."""

from __future__ import annotations

import base64
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.core import errors as core_errors
from tutor.flamme_rouge import position_code
from tutor.flamme_rouge import scenario as sc
from tutor.flamme_rouge.errors import CodeVersionError, ScenarioError
from tutor.flamme_rouge.race import TEAM_COLOURS
from tutor.flanders import position_code as flanders_code
from tutor.flanders.errors import CodeVersionError as FlandersCodeVersionError

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted([*ROOT.glob("lessons/flamme_rouge/scenarios/*.json"), *ROOT.glob("tests/flamme_rouge/scenarios/*.json")])
POSITION_KEYS = ("track", "finish", "start", "riders", "cards")


def position(data: dict) -> dict:
    """The keys a code carries, riders in board order (the order a code gives them back)."""
    found = {k: data[k] for k in POSITION_KEYS if k in data}
    found["riders"] = sorted(found["riders"], key=lambda r: (r["square"], r["lane"]))
    return found


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_scenario_file_round_trips(path: Path):
    """Every lesson position has a code; a test file whose riders are named otherwise (``a``, ``b``) has none."""
    data = sc.load(path)
    code = sc.to_code(data)
    if code is None and "tests" in path.parts:
        assert any(r["id"].split("-")[0] not in (r.get("team"), None) or "team" not in r for r in data["riders"])
        return
    assert code is not None and code.startswith("FR3-")
    assert set(code[4:]) <= set("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    assert position(sc.from_code(code)) == position(data)
    assert sc.resolve_round(sc.from_code(code)) == sc.resolve_round(data)


def test_name_description_and_expect_stay_in_the_file_and_the_code_is_short():
    data = {
        "name": "Blocked — «red»",
        "description": "Where does red end up?",
        "track": "2 2 2u 3s 1c 2 2 2",
        "finish": 6,
        "riders": [
            {"id": "red-S", "square": 1, "lane": 0, "team": "red", "kind": "sprinteur"},
            {
                "id": "peloton-R",
                "square": 0,
                "lane": 1,
                "team": "peloton",
                "exhaustion": False,
                "team_kind": "peloton",
                "kind": "rouleur",
            },
            {
                "id": "peloton-R2",
                "square": 0,
                "lane": 0,
                "team": "peloton",
                "exhaustion": False,
                "team_kind": "peloton",
                "kind": "rouleur",
            },
        ],
        "cards": {"red-S": 3, "peloton-R": "attack", "peloton-R2": "attack"},
        "expect": {"winner": None},
    }
    code = sc.to_code(data)
    assert code is not None and len(code) <= 40
    back = sc.from_code(code)
    assert position(back) == position(data) and not {"name", "description", "expect"} & set(back)


def test_a_position_with_riders_named_otherwise_has_no_code():
    assert sc.to_code({"track": "2 2 2", "riders": [{"id": "Alice", "square": 0, "lane": 0, "team": "red"}]}) is None
    assert sc.to_code({"track": "2 2 2", "riders": [{"id": "a", "square": 0, "lane": 0, "team": "mauve"}]}) is None


def test_the_largest_position_a_scenario_may_hold_has_a_code_under_the_limit():
    """300 squares of changing terrain and 30 riders with names, cards and states a code must write out."""
    tokens = (["1u", "2c", "3", "1d", "3s", "3u", "1c"] * 43)[: sc.MAX_TRACK_SQUARES]
    riders = [
        {
            "id": f"{team}-{4000 + i}",
            "team": team,
            "kind": "sprinteur",
            "square": i * 9 + 1,
            "lane": 0,
            "exhaustion": False,
            "team_kind": "player",
        }
        for i, team in enumerate(TEAM_COLOURS[i % len(TEAM_COLOURS)] for i in range(sc.MAX_RIDERS))
    ]
    data = {
        "track": " ".join(tokens),
        "finish": 290,
        "start": 5,
        "riders": riders,
        "cards": {r["id"]: 99 if i % 2 else 7 for i, r in enumerate(riders)},
    }
    code = sc.to_code(data)
    assert code is not None and len(code) < sc.MAX_CODE_CHARS
    assert position(sc.from_code(code)) == position(data)


@st.composite
def valid_scenarios(draw):
    length = draw(st.integers(3, 30))
    tokens = [draw(st.sampled_from(["1", "2", "3", "2u", "2d", "1c", "2c", "3s"])) for _ in range(length)]
    slots = [(s, lane) for s, t in enumerate(tokens) for lane in range(int(t[0]))]
    chosen = draw(st.lists(st.sampled_from(slots), min_size=1, max_size=min(9, len(slots)), unique=True))
    riders = []
    for i, (square, lane) in enumerate(chosen):
        team = draw(st.sampled_from(TEAM_COLOURS))
        rider: dict = {
            "id": f"{team}-{i + 1}",
            "team": team,
            "square": square,
            "lane": lane,
            "kind": draw(st.sampled_from(["rouleur", "sprinteur"])),
        }
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
    code = sc.to_code(data)
    assert code is not None and position(sc.from_code(code)) == position(data)


def test_an_invalid_scenario_gets_no_code():
    with pytest.raises(ScenarioError, match="lane 2 does not exist"):
        sc.to_code({"track": "2 2", "riders": [{"id": "a", "square": 0, "lane": 2}]})


GOOD = sc.to_code(
    {
        "track": "2 2 2 2 2 2",
        "riders": [{"id": "red-R", "team": "red", "kind": "rouleur", "square": 1, "lane": 0}],
        "cards": {"red-R": 3},
    }
)
assert GOOD is not None
LONE_ATTACK = position_code.encode_position(
    {
        "track": "2 2 2",
        "riders": [{"id": "red-R", "team": "red", "kind": "rouleur", "square": 0, "lane": 0}],
        "cards": {"red-R": "attack"},
    }
)
assert LONE_ATTACK is not None


@pytest.mark.parametrize(
    "code, words",
    [
        ("", "empty"),
        ("   \n", "empty"),
        ("hello world", "starts with FR3-"),
        ('{"track": "2 2"}', "starts with FR3-"),
        ("FR3-" + GOOD[4:8] + "!" + GOOD[8:], "contains '!'"),
        (GOOD[:-1], "damaged"),
        (GOOD[:5], "too short"),
        (GOOD[:6] + ("A" if GOOD[6] != "A" else "B") + GOOD[7:], "damaged"),
        (GOOD + "AAAA", "damaged"),
        ("FR3-" + "7" * (sc.MAX_CODE_CHARS - 3), "far too long"),
        (LONE_ATTACK, "invalid position"),
        ("IF1-84210QCHSHH34", "In Flanders Field position code"),
    ],
)
def test_a_malformed_code_says_what_is_wrong(code, words):
    with pytest.raises(ScenarioError) as err:
        sc.from_code(code)
    assert words in str(err.value) and "\n" not in str(err.value)
    assert not isinstance(err.value, CodeVersionError)


def test_white_space_dashes_and_small_letters_in_a_pasted_code_are_ignored_and_non_text_is_refused():
    wrapped = GOOD[:8] + "\n  " + GOOD[8:].lower() + " "
    assert sc.from_code(wrapped) == sc.from_code(GOOD) == sc.from_code("FR3" + GOOD[4:])
    with pytest.raises(ScenarioError, match="is text"):
        sc.from_code(123)  # type: ignore[arg-type]


# ----- codes of other versions: one sentence that says what to do ------------------------------------------

FR1_CODE = (
    "FR1-ePmapb5ClZPNDoIwEIRfZeJJEzSg8f8ZPGi8EQ-iayBKMVA06MvbWkpLUKInyqb9prudeWrjrfPosUCQ8AyMbpSCRymhO-w1"
    "HLkNCas8O1wIyjEgdkQmlggK9U0Y1IvDc3GPeIg9A8VXXuh6xHBKE8YdBDmXspDjrLT3Z4JxwBJcaIqZakHTIvIrAgqFe-SeWOgc"
    "1WmWMIEQ0pQO_stQp5mE-N1u37Ndo2ufAmAMP7FC893SFX_Txjfh0PTxT3Sd4_bQGuqootYQmy-I5rWGBmCHwpqi9LvVtGykjEy5"
    "krV2v9dwvuc67q7OlDVvV4H92XtHCfen4u9zZP4Gz2vgmQK3pu4FcAEXPA"
)
"""The version 1 code (JSON, zlib, base64url) of the first lesson position, as the tutor wrote it until issue 40."""
FR2_CODE = "FR2-09FN-2015-M1H4-DGA9-801G-A108-2GA"
"""The version 2 code of the same position."""
OLDER = "an older kind of position code ({code}-...) that this version of the tutor no longer reads; ask for a new code"


def _bomb() -> str:
    deflater = zlib.compressobj(9)
    packed = deflater.compress(b" " * (3 << 20)) + deflater.flush()
    return "FR1-" + base64.urlsafe_b64encode(packed).decode().rstrip("=")


@pytest.mark.parametrize(
    "code, version",
    [
        (FR1_CODE, "FR1"),
        (FR2_CODE, "FR2"),
        (FR2_CODE.lower().replace("-", " "), "FR2"),
        ("FR1-AAAA", "FR1"),
        (_bomb(), "FR1"),  # an old code is refused before its body is read, a zip bomb too
    ],
)
def test_a_code_of_an_older_tutor_is_refused_with_one_sentence_saying_to_ask_for_a_new_one(code, version):
    with pytest.raises(CodeVersionError) as err:
        sc.from_code(code)
    said = str(err.value)
    assert OLDER.format(code=version) in said and "workbench" in said
    assert "\n" not in said and said.count(".") <= 3  # the three dots of the prefix: one sentence
    assert isinstance(err.value, ScenarioError) and isinstance(err.value, core_errors.CodeVersionError)


def test_a_code_of_a_newer_tutor_says_to_update():
    with pytest.raises(
        CodeVersionError,
        match=r"\(FR4-\.\.\.\) comes from a newer version of the tutor than "
        r"this one \(which reads FR3-\.\.\.\); update the tutor",
    ):
        sc.from_code("FR4-" + GOOD[4:])


def test_both_games_refuse_another_version_in_the_same_words():
    """In Flanders Field's ``IF1-`` and Flamme Rouge's ``FR3-`` share ``tutor.core.bits.refuse_other_version``."""
    with pytest.raises(FlandersCodeVersionError) as flanders:
        flanders_code.from_code("IF0-1234")
    with pytest.raises(CodeVersionError) as flamme_rouge:
        sc.from_code("FR2-1234")
    assert str(flanders.value) == str(flamme_rouge.value).replace("FR2-", "IF0-")
    with pytest.raises(FlandersCodeVersionError) as flanders:
        flanders_code.from_code("IF2-1234")
    with pytest.raises(CodeVersionError) as flamme_rouge:
        sc.from_code("FR4-1234")
    assert str(flanders.value) == str(flamme_rouge.value).replace("FR4-", "IF2-").replace("FR3-", "IF1-")
