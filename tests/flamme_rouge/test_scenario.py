"""``tutor.flamme_rouge.scenario``: the SCENARIOS.md contract.

``resolve_round`` never mutates its argument, returns exactly the documented shape, and a
malformed scenario raises ``ScenarioError`` (a ``ValueError``) naming the rider, square or key.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from tutor.flamme_rouge import ScenarioError
from tutor.flamme_rouge import scenario as sc

SCENARIO_DIR = Path(__file__).parent / "scenarios"
FILES = sorted(SCENARIO_DIR.glob("*.json"))


def base(**overrides) -> dict:
    """A valid scenario: two riders on a flat 2-lane track, with cards."""
    data = {
        "name": "base",
        "track": " ".join(["2"] * 12),
        "riders": [
            {"id": "a", "square": 3, "lane": 0, "team": "red"},
            {"id": "b", "square": 3, "lane": 1, "team": "red"},
        ],
        "cards": {"a": 4, "b": 2},
    }
    data.update(overrides)
    return data


# ----- no mutation ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_resolve_round_never_mutates_its_argument(path):
    """SCENARIOS.md, The call: resolve_round "never mutates its argument" (deep compare before/after)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    before = copy.deepcopy(data)
    sc.resolve_round(data)
    assert data == before
    sc.check(data)
    assert data == before


def test_resolve_round_result_is_not_aliased_to_the_input():
    """Changing the returned positions does not change the scenario (and a second call gives the same)."""
    data = base(cards=None)
    del data["cards"]
    first = sc.resolve_round(data)
    first["after_movement"]["a"][0] = 99
    first["after_slipstream"]["a"][0] = 99
    assert data["riders"][0]["square"] == 3
    assert sc.resolve_round(data)["after_movement"]["a"] == [3, 0]


# ----- output shape -----------------------------------------------------------------------------------------


def test_output_shape_is_exactly_the_documented_one():
    """SCENARIOS.md, Output: keys after_movement, after_slipstream, exhausted, winner; [square, lane] lists."""
    out = sc.resolve_round(base())
    assert set(out) == {"after_movement", "after_slipstream", "exhausted", "winner"}
    for key in ("after_movement", "after_slipstream"):
        assert set(out[key]) == {"a", "b"}
        for pos in out[key].values():
            assert type(pos) is list and len(pos) == 2 and all(type(v) is int for v in pos)
    assert type(out["exhausted"]) is list
    assert out["winner"] is None
    # JSON-ready: dumping and loading gives the same value (tuples would come back as lists).
    assert json.loads(json.dumps(out)) == out


def test_output_values_for_a_small_round():
    """RULES.md 1, Movement: a (right lane) moves first, 4 to the empty square 7; b moves 2 to 5.
    End phase: b is one empty square behind a and slipstreams to 6; a is exhausted."""
    out = sc.resolve_round(base())
    assert out == {
        "after_movement": {"a": [7, 0], "b": [5, 0]},
        "after_slipstream": {"a": [7, 0], "b": [6, 0]},
        "exhausted": ["a"],
        "winner": None,
    }


def test_exhausted_is_sorted():
    """SCENARIOS.md: `exhausted` is the sorted list of ids that took an exhaustion card."""
    data = {
        "track": " ".join(["2"] * 20),
        "riders": [
            {"id": rid, "square": sq, "lane": 0} for rid, sq in (("zed", 2), ("mid", 5), ("abe", 8), ("kay", 11))
        ],
    }
    out = sc.resolve_round(data)
    assert out["exhausted"] == ["abe", "kay", "mid", "zed"]


def test_winner_is_null_without_a_finish_in_view():
    """SCENARIOS.md: `finish` absent means no finish line; a rider reaching the end does not win."""
    data = base(cards={"a": 9, "b": 9})
    out = sc.resolve_round(data)
    assert out["winner"] is None
    assert out["after_movement"]["a"] == [11, 0]  # cut to the last square (tutor decision, RULES.md 1 Finish)


def test_no_cards_after_movement_is_the_input_position():
    """SCENARIOS.md: a scenario without `cards` starts at the end phase; after_movement = input positions."""
    data = base()
    del data["cards"]
    out = sc.resolve_round(data)
    assert out["after_movement"] == {"a": [3, 0], "b": [3, 1]}


def test_winner_round_skips_end_phase_in_output():
    """SCENARIOS.md / RULES.md 1 Finish: with a winner, after_slipstream == after_movement, exhausted empty."""
    out = sc.resolve_round(base(finish=6))
    assert out["winner"] == "a"
    assert out["after_slipstream"] == out["after_movement"] == {"a": [7, 0], "b": [5, 0]}
    assert out["exhausted"] == []


def test_finish_winner_is_among_riders_that_crossed_this_round():
    """RULES.md 1, Finish: "of the riders that crossed in that round, the one furthest past the line wins".

    `early` already stands past the line (square 12, finish 8) before the round; `crosser` crosses this
    round (6 + 3 = 9). The winner must be `crosser` - or the position must be rejected as malformed."""
    data = {
        "track": " ".join(["2"] * 14),
        "finish": 8,
        "riders": [{"id": "early", "square": 12, "lane": 0}, {"id": "crosser", "square": 6, "lane": 0}],
        "cards": {"early": 2, "crosser": 3},
    }
    try:
        out = sc.resolve_round(data)
    except ScenarioError as exc:  # rejecting the position is an acceptable fix too
        assert "early" in str(exc)
        return
    assert out["winner"] == "crosser"


# ----- check ------------------------------------------------------------------------------------------------


def test_check_reports_the_first_difference_with_rider_expected_and_got():
    """SCENARIOS.md: a file passes when every key of `expect` equals the output; else check names the diff."""
    data = base(expect={"after_movement": {"a": [7, 0], "b": [6, 1]}})
    diff = sc.check(data)
    assert diff is not None
    assert "after_movement" in diff and "b" in diff
    assert "[6, 1]" in diff and "[5, 0]" in diff
    assert diff.startswith("after_movement: b expected [6, 1], got [5, 0]")  # b, the first difference


def test_check_passes_on_a_partial_expect_block():
    """SCENARIOS.md: only the keys present in `expect` are compared."""
    assert sc.check(base(expect={"winner": None})) is None
    assert sc.check(base(expect={"exhausted": ["a"]})) is None
    assert "exhausted" in sc.check(base(expect={"exhausted": ["b"]}))


def test_check_reports_a_wrong_winner():
    """RULES.md 1 Finish: a wrong expected winner is reported with both values."""
    diff = sc.check(base(finish=6, expect={"winner": "b"}))
    assert diff is not None and "winner" in diff and '"b"' in diff and '"a"' in diff


@pytest.mark.parametrize(
    "expect, fragment",
    [
        (5, "key 'expect' must be an object"),
        ({"after_moves": {}}, "unknown key 'after_moves'"),
    ],
)
def test_check_rejects_a_malformed_expect_block(expect, fragment):
    """SCENARIOS.md: `expect` is an object in the output's shape."""
    with pytest.raises(ScenarioError) as err:
        sc.check(base(expect=expect))
    assert fragment in str(err.value)


def test_check_without_expect_is_an_error():
    """SCENARIOS.md: check compares an `expect` block; without one there is nothing to check."""
    with pytest.raises(ScenarioError, match="expect"):
        sc.check(base())


# ----- malformed scenarios ----------------------------------------------------------------------------------


def rider(rid, square, lane, **kw):
    return {"id": rid, "square": square, "lane": lane, **kw}


MALFORMED = {
    "bad_track_token": (base(track="2 2 4 2"), ["track", "square 2", "'4'"]),
    "bad_terrain_letter": (base(track="2 2 2x 2"), ["track", "square 2", "'2x'"]),
    "track_not_a_string": (base(track=["2", "2"]), ["track", "string"]),
    "missing_track": ({k: v for k, v in base().items() if k != "track"}, ["'track'"]),
    "unknown_top_level_key": (base(ridres=[]), ["unknown key 'ridres'"]),
    "unknown_rider_key": (
        base(riders=[rider("a", 3, 0, colour="red"), rider("b", 3, 1)]),
        ["'a'", "unknown key 'colour'"],
    ),
    "lane_the_square_lacks": (
        base(track="2 2 2 1 2 2 2 2", riders=[rider("a", 3, 1), rider("b", 4, 0)], cards={"a": 2, "b": 2}),
        ["'a'", "lane 1", "square 3", "1 lane"],
    ),
    "lane_2_on_two_lane_square": (base(riders=[rider("a", 3, 0), rider("b", 3, 2)]), ["'b'", "lane 2", "square 3"]),
    "negative_lane": (base(riders=[rider("a", 3, 0), rider("b", 4, -1)]), ["'b'", "lane -1"]),
    "two_riders_in_one_lane": (
        base(riders=[rider("a", 3, 0), rider("b", 3, 0)]),
        ["'b'", "square 3, lane 0", "taken by 'a'"],
    ),
    "duplicate_id": (base(riders=[rider("a", 3, 0), rider("a", 4, 0)], cards={"a": 2}), ["'a'", "used twice"]),
    "square_off_the_track": (
        base(riders=[rider("a", 3, 0), rider("b", 12, 0)]),
        ["'b'", "square 12", "not on the track"],
    ),
    "negative_square": (base(riders=[rider("a", 3, 0), rider("b", -1, 0)]), ["'b'", "square -1"]),
    "square_not_an_int": (base(riders=[rider("a", 3, 0), rider("b", "4", 0)]), ["'b'", "square '4'"]),
    "rider_without_id": (base(riders=[rider("a", 3, 0), {"square": 4, "lane": 0}]), ["riders[1]", "'id'"]),
    "no_riders": (base(riders=[]), ["'riders'", "non-empty"]),
    "exhaustion_not_bool": (base(riders=[rider("a", 3, 0, exhaustion="no"), rider("b", 3, 1)]), ["'a'", "exhaustion"]),
    "card_for_unknown_rider": (base(cards={"a": 4, "b": 2, "c": 3}), ["'c'", "not a rider"]),
    "missing_card": (base(cards={"a": 4}), ["'b'", "no card"]),
    "card_value_1": (base(cards={"a": 4, "b": 1}), ["'b'", "card 1"]),
    "card_value_bool": (base(cards={"a": True, "b": 2}), ["'a'", "card True"]),
    "card_value_string": (base(cards={"a": "5", "b": 2}), ["'a'", "card '5'"]),
    "card_value_float": (base(cards={"a": 5.0, "b": 2}), ["'a'", "card 5.0"]),
    "cards_not_an_object": (base(cards=[4, 2]), ["'cards'"]),
    "attack_without_teammate": (
        base(riders=[rider("p", 3, 0), rider("b", 3, 1)], cards={"p": "attack", "b": 3}),
        ["'p'", "attack"],
    ),
    "attack_teammate_plays_another_card": (
        base(
            riders=[rider("p1", 3, 0, team="peloton"), rider("p2", 3, 1, team="peloton")],
            cards={"p1": "attack", "p2": 4},
        ),
        ["'p1'", "attack", "team"],
    ),
    "attack_alone_in_its_team": (
        base(riders=[rider("p1", 3, 0, team="peloton"), rider("b", 3, 1, team="red")], cards={"p1": "attack", "b": 4}),
        ["'p1'", "attack"],
    ),
    "finish_not_an_int": (base(finish="8"), ["'finish'", "'8'"]),
    "finish_off_the_track": (base(finish=30), ["'finish': 30", "not strictly inside the track"]),
    "finish_at_the_start_edge": (base(finish=0), ["'finish': 0", "not strictly inside the track"]),
    "finish_at_the_end_edge": (base(finish=12), ["'finish': 12", "not strictly inside the track"]),
    "rider_kind_unknown": (
        base(riders=[{"id": "a", "square": 0, "lane": 0, "kind": "climber"}], cards={"a": 3}),
        ["rider 'a'", "'kind'", "'climber'"],
    ),
    "scenario_not_a_dict": (["track"], ["object"]),
}


@pytest.mark.parametrize("case", list(MALFORMED), ids=list(MALFORMED))
def test_malformed_scenario_raises_scenario_error_naming_the_culprit(case):
    """SCENARIOS.md: an invalid scenario raises ValueError (ScenarioError) whose message names the rider,
    square or key."""
    data, fragments = MALFORMED[case]
    with pytest.raises(ScenarioError) as err:
        sc.resolve_round(data)
    assert isinstance(err.value, ValueError)
    message = str(err.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"


def test_malformed_scenario_is_not_mutated_either():
    """SCENARIOS.md: resolve_round never mutates its argument, even when it rejects it."""
    data = base(cards={"a": 4, "b": 1})
    before = copy.deepcopy(data)
    with pytest.raises(ScenarioError):
        sc.resolve_round(data)
    assert data == before


def test_scenario_error_is_a_value_error():
    """SCENARIOS.md: "an invalid scenario raises ValueError (or a subclass)"."""
    assert issubclass(ScenarioError, ValueError)


def test_attack_with_a_teammate_is_accepted():
    """RULES.md 2, Peloton team: both riders of the team play Attack!; the front one moves 2, the back one 9."""
    data = base(
        riders=[
            rider("p1", 5, 0, team="peloton", exhaustion=False),
            rider("p2", 3, 0, team="peloton", exhaustion=False),
        ],
        cards={"p1": "attack", "p2": "attack"},
    )
    out = sc.resolve_round(data)
    # p1 (front) 5 + 2 = 7; p2 (back) 3 + 9 = 12 is cut to the last square, 11 (tutor decision, RULES.md 1)
    assert out["after_movement"] == {"p1": [7, 0], "p2": [11, 0]}
    assert out["exhausted"] == []


def test_a_team_kind_makes_a_scenario_team_a_bot_team_whatever_its_name():
    """The tutor's ``team_kind`` key: the team is the Peloton by its kind, not by being named "peloton"."""
    riders = [
        rider("p1", 5, 0, team="bots", team_kind="peloton"),
        rider("p2", 3, 0, team="bots", team_kind="peloton"),
        rider("m", 1, 0, team="strong", team_kind="muscle", kind="sprinteur"),
        rider("h", 0, 0, team="red"),
    ]
    data = base(track=" ".join(["2"] * 30), riders=riders, cards={"p1": "attack", "p2": "attack", "m": 3, "h": 2})
    race = sc.build(data)
    peloton, muscle = race.teams["bots"], race.teams["strong"]
    assert (peloton.kind.value, peloton.controller, peloton.colour) == ("peloton", "peloton", "silver")
    assert (muscle.kind.value, muscle.colour) == ("muscle", "gold")
    deck = race.riders["p1"].deck
    assert race.riders["p2"].deck is deck and sum(str(c) == "A" for c in deck.face_down) == 2
    assert "M5" in [str(c) for c in race.riders["m"].deck.face_down]
    assert [race.riders[r].takes_exhaustion for r in ("p1", "p2", "m", "h")] == [False, False, False, True]
    race.resolve()
    assert race.waiting_riders() == ["h"]  # the bot teams flip in the next round; only the player draws


def test_without_team_kind_a_team_named_peloton_is_a_player_team_as_before():
    """Files written before ``team_kind`` resolve exactly as SCENARIOS.md says (the name only picks the colour)."""
    data = base(
        riders=[
            rider("p1", 5, 0, team="peloton", exhaustion=False),
            rider("p2", 3, 0, team="peloton", exhaustion=False),
        ],
        cards={"p1": "attack", "p2": "attack"},
    )
    race = sc.build(data)
    assert race.teams["peloton"].kind.value == "player" and race.riders["p1"].colour == "silver"


@pytest.mark.parametrize(
    "riders, message",
    [
        ([rider("a", 1, 0, team_kind="robot")], "'team_kind' must be one of player, peloton, muscle, not 'robot'"),
        (
            [rider("a", 1, 0, team="t", team_kind="peloton"), rider("b", 2, 0, team="t")],
            "team 't': its riders have different 'team_kind's",
        ),
        (
            [rider(x, n, 0, team="t", team_kind="muscle") for n, x in enumerate("abc")],
            "team 't': a bot team has one or two riders, not 3",
        ),
    ],
)
def test_bad_team_kinds_are_refused_by_name(riders, message):
    with pytest.raises(ScenarioError, match=message.replace("(", r"\(")):
        sc.build(base(riders=riders, cards={r["id"]: 3 for r in riders}))


# ----- load -------------------------------------------------------------------------------------------------


def test_load_bad_json_names_file_and_line(tmp_path):
    """A scenario file that is not JSON raises ScenarioError with the file name and line number."""
    path = tmp_path / "broken.json"
    path.write_text('{\n "track": "2 2",\n "riders": [,]\n}\n', encoding="utf-8")
    with pytest.raises(ScenarioError) as err:
        sc.load(path)
    assert "broken.json" in str(err.value) and "line 3" in str(err.value)


def test_load_rejects_a_non_object(tmp_path):
    """A scenario is a JSON object."""
    path = tmp_path / "list.json"
    path.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(ScenarioError, match="JSON object, not a list"):
        sc.load(path)
