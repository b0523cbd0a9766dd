"""The positional rules as pure functions (``tutor/flamme_rouge/rules.py``), one rule per test."""

from __future__ import annotations

import pytest

from tutor.flamme_rouge import Track, rules


def T(spec: str, finish=None) -> Track:
    return Track.parse(spec, finish=finish)


FLAT = T(" ".join(["2"] * 20))
# squares 0-7 flat, 8-13 ascent, 14-15 descent, 16-19 flat
HILL = T(" ".join(["2"] * 8 + ["2u"] * 6 + ["2d"] * 2 + ["2"] * 4))


# ----- movement order ---------------------------------------------------------------------------------------


def test_movement_order_frontmost_first_right_lane_ahead():
    """RULES.md 1, Movement: "frontmost = on the square closest to the finish; on the same square the right
    lane is ahead"."""
    positions = {"a": (3, 1), "b": (3, 0), "c": (7, 1), "d": (0, 0), "e": (7, 0)}
    assert rules.movement_order(positions) == ["e", "c", "b", "a", "d"]


def test_ahead_by_lane_names_the_riders_the_right_hand_lane_alone_puts_behind():
    positions = {"a": (3, 1), "b": (3, 0), "c": (7, 1), "d": (0, 0), "e": (7, 0), "f": (3, 2)}
    assert rules.ahead_by_lane(positions, "b") == ["a", "f"] and rules.ahead_by_lane(positions, "a") == ["f"]
    assert rules.ahead_by_lane(positions, "f") == [] and rules.ahead_by_lane(positions, "d") == []
    order = rules.movement_order(positions)
    for rid in positions:
        assert all(order.index(rid) < order.index(other) for other in rules.ahead_by_lane(positions, rid))


# ----- move distance: terrain -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "square, value, expected",
    [
        (0, 2, 2),
        (0, 5, 5),  # flat, far from the climb: exact value
        (0, 9, 8 - 1),  # 8 squares to the climb: max(5, 8 - 1) = 7
        (1, 9, 6),  # max(5, 7 - 1) = 6
        (2, 9, 5),  # max(5, 6 - 1) = 5
        (3, 9, 5),  # max(5, 4) = 5: ends on the first ascent square
        (1, 6, 6),  # 6 stays under the limit max(5, 6): moves 6, up to square 7
        (2, 6, 5),  # limit max(5, 5) = 5
        (9, 9, 5),
        (9, 7, 5),  # starting on the ascent: at most 5
        (9, 3, 3),  # ... a low card is not raised
    ],
)
def test_move_distance_ascent(square, value, expected):
    """RULES.md 1, Mountains: on or into an ascent at most 5; limit `max(5, distance_to_first_ascent - 1)`."""
    distance, rule = rules.move_distance(HILL, square, value)
    assert distance == expected
    assert (rule == rules.ASCENT) == (expected < value)


@pytest.mark.parametrize(
    "square, value, expected",
    [
        (14, 2, 5),
        (14, 4, 5),
        (15, 3, 5),  # starting on a descent: at least 5
        (14, 5, 5),
        (15, 7, 7),  # a higher card is not changed
        (12, 2, 2),  # starting on the ascent, going into the descent: no minimum
    ],
)
def test_move_distance_descent(square, value, expected):
    """RULES.md 1, Mountains: "a rider that starts the round on a descent square moves at least 5"."""
    distance, rule = rules.move_distance(HILL, square, value)
    assert distance == expected
    assert (rule == rules.DESCENT) == (expected > value)


def test_move_distance_supply_zone():
    """RULES.md 2: "a rider that starts the round [in a supply zone] moves at least 4"."""
    track = T("2 3s 3s 2 2 2 2 2 2 2")
    assert rules.move_distance(track, 1, 2) == (4, rules.SUPPLY)
    assert rules.move_distance(track, 1, 3) == (4, rules.SUPPLY)
    assert rules.move_distance(track, 2, 4) == (4, None)
    assert rules.move_distance(track, 2, 6) == (6, None)
    assert rules.move_distance(track, 0, 2) == (2, None)


def test_move_distance_cobbles_do_not_change_movement():
    """RULES.md 2: cobblestones change slipstream, not movement."""
    track = T("2 1c 1c 1c 2 2 2 2 2 2 2 2")
    assert rules.move_distance(track, 1, 9) == (9, None)
    assert rules.move_distance(track, 0, 2) == (2, None)


# ----- destination ------------------------------------------------------------------------------------------


def test_destination_empty_square_right_lane():
    """RULES.md 1, Movement: "Landing on an empty square: right lane"."""
    assert rules.destination(FLAT, {}, 3, 4) == (7, 0, ())


def test_destination_passes_through_riders():
    """RULES.md 1, Movement: a rider "may pass through riders"."""
    occupied = {4: [0, 1], 5: [0, 1], 6: [0]}
    assert rules.destination(FLAT, occupied, 3, 5) == (8, 0, ())


def test_destination_takes_the_free_lane():
    """RULES.md 1, Movement: a rider "may not end in an occupied lane": it takes a free lane of the square."""
    assert rules.destination(FLAT, {7: [0]}, 3, 4) == (7, 1, ())
    assert rules.destination(T("2 2 2 3 2"), {3: [1]}, 0, 3) == (3, 0, ())
    assert rules.destination(T("2 2 2 3 2"), {3: [0, 1]}, 0, 3) == (3, 2, ())


def test_destination_full_square_chains_back():
    """RULES.md 1, Movement: "stop in the first square behind it that has a free lane (this may chain back over
    several full squares)"."""
    occupied = {9: [0, 1], 8: [1, 0], 7: [0]}
    assert rules.destination(FLAT, occupied, 2, 7) == (7, 1, (9, 8))


def test_destination_none_free_stays():
    """RULES.md 1, Movement: "if none is free before its own square, the rider stays where it was"."""
    occupied = {6: [0, 1], 5: [0, 1]}
    assert rules.destination(FLAT, occupied, 4, 2) == (4, None, (6, 5))


def test_destination_one_lane_square():
    """RULES.md 2: squares may have 1 lane; one rider fills it."""
    track = T("2 2 2 1 2")
    assert rules.destination(track, {3: [0]}, 0, 3) == (2, 0, (3,))


def test_destination_cut_to_last_square():
    """RULES.md 1, Finish (tutor decision): "a move past the last square is cut to the last square (then the
    full-square rule applies)"."""
    track = T("2 2 2 2 2")
    assert rules.destination(track, {}, 2, 9) == (4, 0, ())
    assert rules.destination(track, {4: [0, 1]}, 2, 9) == (3, 0, (4,))


# ----- packs and slipstream ---------------------------------------------------------------------------------


def test_packs_are_runs_of_occupied_squares():
    """RULES.md 1, End phase: "packs (runs of occupied squares with no empty square between them)"."""
    assert rules.packs([9, 2, 3, 3, 5, 6, 7, 12]) == [(2, 3), (5, 7), (9, 9), (12, 12)]
    assert rules.packs([]) == []


def test_slipstream_chain_and_lanes():
    """RULES.md 1, End phase (b): rearmost pack first; exactly one empty square; the merged pack is checked
    again; "riders keep their lanes"."""
    positions = {"a": (2, 1), "b": (4, 0), "c": (6, 0), "d": (6, 1), "e": (10, 0)}
    result = rules.slipstream(FLAT, positions)
    assert positions == {"a": (4, 1), "b": (5, 0), "c": (6, 0), "d": (6, 1), "e": (10, 0)}
    assert [pack for pack, _ in result] == [(2, 2), (3, 4)]
    assert result[0][1] == ("a",) and set(result[1][1]) == {"a", "b"}


def test_slipstream_gap_of_two_does_nothing():
    """RULES.md 1, End phase (b): only "exactly one empty square" gives slipstream."""
    positions = {"a": (2, 0), "b": (5, 0)}
    assert rules.slipstream(FLAT, positions) == []
    assert positions == {"a": (2, 0), "b": (5, 0)}


def test_slipstream_ascent_and_cobbles_rules():
    """RULES.md 1 Mountains / 2 Peloton: no slipstream to or from riders on ascent or cobblestone squares."""
    positions = {"a": (6, 0), "b": (8, 0)}  # b on the first ascent square of HILL
    result = rules.slipstream(HILL, positions)
    assert positions == {"a": (6, 0), "b": (8, 0)}
    assert result == [((6, 6), rules.NO_SLIPSTREAM_TERRAIN)]
    track = T("2 2 1c 2 2 2")
    positions = {"a": (2, 0), "b": (4, 0)}
    assert rules.slipstream(track, positions) == [((2, 2), rules.NO_SLIPSTREAM_TERRAIN)]
    assert positions == {"a": (2, 0), "b": (4, 0)}


def test_slipstream_descent_works():
    """RULES.md 1, Mountains: "Slipstream works normally on descents"."""
    positions = {"a": (14, 0), "b": (16, 0)}
    rules.slipstream(HILL, positions)
    assert positions == {"a": (15, 0), "b": (16, 0)}


def test_slipstream_needs_the_lane_on_the_square_ahead():
    """rules.py tutor decision: a pack whose lane does not exist on the square ahead gets no slipstream."""
    track = T("3 3 2 2 2")
    positions = {"a": (1, 2), "b": (3, 0)}
    result = rules.slipstream(track, positions)
    assert positions == {"a": (1, 2), "b": (3, 0)}
    assert result[0][1] is rules.NO_SLIPSTREAM_LANES


# ----- exhaustion and finish --------------------------------------------------------------------------------


def test_exhausted_empty_square_not_empty_lane():
    """RULES.md 1, End phase (c): "every rider with an empty square directly in front of it ... An empty lane
    in front does not count"."""
    positions = {"a": (3, 0), "b": (3, 1), "c": (4, 0), "d": (8, 1)}
    assert sorted(rules.exhausted(FLAT, positions)) == ["c", "d"]


def test_ranking_past_furthest_then_right_lane():
    """RULES.md 1, Finish: "the one furthest past the line wins, and on the same square the right lane wins"."""
    positions = {"a": (17, 1), "b": (17, 0), "c": (18, 1), "d": (15, 0), "e": (16, 0)}
    assert rules.ranking_past(16, positions) == ["c", "b", "a", "e"]
    assert rules.ranking_past(19, positions) == []


def test_the_engines_docstring_examples_run():
    """The examples in ``rules`` and ``breakaway`` (the merged pack, the breakaway's tie) are true."""
    import doctest

    from tutor.flamme_rouge import breakaway

    for module in (rules, breakaway):
        failures, tried = doctest.testmod(module)
        assert tried and not failures, module.__name__
