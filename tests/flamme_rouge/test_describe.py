"""The Flamme Rouge board in words (``render.describe``): every number it states checked against the engine."""

from __future__ import annotations

import re

from tests.flamme_rouge.positions import SLIPSTREAM
from tutor.flamme_rouge import rules
from tutor.flamme_rouge import scenario as scenarios
from tutor.flamme_rouge.race import Phase
from tutor.flamme_rouge.render.describe import card_words, describe_race
from tutor.flamme_rouge.render.style import LANE_NAMES, TERRAIN_NAME

ROAD = {
    "track": "3 3 3 2 2 2u 2u 1 2 3 3 3 3 3 2c 3",
    "start": 3,
    "finish": 10,
    "riders": [
        {"id": "behind", "square": 1, "lane": 2},
        {"id": "on-start", "square": 3, "lane": 1},
        {"id": "climber", "square": 6, "lane": 1},
        {"id": "before-line", "square": 9, "lane": 0},
        {"id": "just-past", "square": 10, "lane": 1},
        {"id": "far-past", "square": 14, "lane": 1},
        {"id": "level", "square": 14, "lane": 0},
    ],
}
"""A road with a start area, an ascent, a narrow square and a finish line, riders on both sides of both lines."""

RIDER_LINE = re.compile(
    r"^(?P<id>[\w-]+) \((?P<kind>\w+), (?P<team>[\w-]+) team[^)]*\): square (?P<square>\d+), "
    r"(?P<lane>[\w ]+?) \((?P<lanes>\d+) lanes?, (?P<terrain>\w+)\)(?P<rest>.*)\.$"
)


def _rider_lines(lines: list[str]) -> dict[str, re.Match[str]]:
    found = {}
    for line in lines:
        match = RIDER_LINE.match(line)
        if match:
            found[match["id"]] = match
    return found


def test_each_riders_square_lane_and_road_are_the_engines():
    race = scenarios.build(ROAD)
    said = _rider_lines(describe_race(race))
    assert set(said) == set(race.riders)
    for rid, (square, lane) in race.positions().items():
        match = said[rid]
        road = race.track.squares[square]
        assert int(match["square"]) == square, match.string
        assert match["lane"] == LANE_NAMES[lane], match.string
        assert int(match["lanes"]) == road.lanes and match["terrain"] == TERRAIN_NAME[road.terrain], match.string


def test_the_start_and_finish_lines_are_told_where_the_track_puts_them():
    race = scenarios.build(ROAD)
    lines = describe_race(race)
    track = race.track
    assert (
        f"The road: squares 0 to {track.last}; the start line is before square {track.start}. "
        f"The finish line is before square {track.finish}."
    ) in lines[1]
    ascent = [i for i, s in enumerate(track.squares) if TERRAIN_NAME[s.terrain] == "ascent"]
    cobbles = [i for i, s in enumerate(track.squares) if TERRAIN_NAME[s.terrain] == "cobbles"]
    assert f"Ascent: squares {ascent[0]} to {ascent[-1]}." in lines[1] and ascent == [5, 6]
    assert f"Cobbles: square {cobbles[0]}." in lines[1] and len(cobbles) == 1


def test_riders_past_the_finish_line_are_told_how_many_squares_past_it():
    race = scenarios.build(ROAD)
    said = _rider_lines(describe_race(race))
    finish = race.track.finish
    assert finish is not None
    past = {rid for rid, (square, _) in race.positions().items() if square >= finish}
    assert past == set(rules.ranking_past(finish, race.positions())) == {"just-past", "far-past", "level"}
    for rid, (square, _) in race.positions().items():
        rest = said[rid]["rest"]
        crossed = len(range(finish, square + 1))  # the squares from the first one past the line to the rider's
        if rid in past:
            noun = "square" if crossed == 1 else "squares"
            assert f", {crossed} {noun} past the finish line" in rest, (rid, rest)
        else:
            assert "finish" not in rest, (rid, rest)
    assert "1 square past" in said["just-past"]["rest"] and "5 squares past" in said["far-past"]["rest"]


def test_only_riders_before_the_start_line_are_behind_it():
    race = scenarios.build(ROAD)
    said = _rider_lines(describe_race(race))
    for rid, (square, _) in race.positions().items():
        assert ("behind the start line" in said[rid]["rest"]) == (square < race.track.start), rid


def test_riders_are_told_in_the_engines_movement_order_and_in_the_scenarios_order_before_reveal():
    race = scenarios.build({**ROAD, "riders": ROAD["riders"][:4], "finish": 12})
    judged = describe_race(race)
    order = [m["id"] for m in _rider_lines(judged).values()]
    assert order == rules.movement_order(race.positions())
    assert judged[judged.index("Riders, from the front:") + 1].startswith(order[0])
    quiz = describe_race(race, judged=False)
    assert [m["id"] for m in _rider_lines(quiz).values()] == list(race.riders)
    assert not any("order" in line or "from the front" in line for line in quiz)


def test_the_cards_played_and_the_riders_still_to_move_follow_the_engine():
    race = scenarios.build(
        {
            **ROAD,
            "riders": ROAD["riders"][:4],
            "finish": 12,
            "cards": {"behind": 2, "on-start": 5, "climber": 9, "before-line": 3},
        }
    )
    assert race.phase is Phase.MOVEMENT
    lines = describe_race(race)
    to_move = list(race.to_move)
    assert f"Still to move, in this order: {', '.join(to_move[:-1])} and {to_move[-1]}." in lines
    [cards] = [line for line in lines if line.startswith("Cards played: ")]
    told = cards.removeprefix("Cards played: ").rstrip(".").split(", ")
    assert told == [f"{rid} {card_words(race.riders[rid].played)}" for rid in to_move]
    race.step()
    moved = describe_race(race)
    assert f"Still to move, in this order: {', '.join(race.to_move[:-1])} and {race.to_move[-1]}." in moved
    assert len(race.to_move) == len(to_move) - 1


def test_a_card_not_chosen_yet_and_a_secret_card_are_told_as_such():
    race = scenarios.build({**ROAD, "riders": ROAD["riders"][:3]})
    lines = describe_race(
        race, played=[("behind", ""), ("on-start", "E2"), ("climber", "7")], secret={"climber"}, judged=False
    )
    assert "Cards played: behind the card you choose, on-start exhaustion card 2, climber a card face down." in lines


def test_exhaustion_cards_taken_are_the_riders_count():
    race = scenarios.build(SLIPSTREAM)
    race.resolve()
    taken = {rid: r.exhaustion for rid, r in race.riders.items()}
    assert sorted(rid for rid, n in taken.items() if n) == sorted(rules.exhausted(race.track, race.positions()))
    assert 0 < sum(1 for n in taken.values() if n) < len(taken)
    said = _rider_lines(describe_race(race))
    for rid, count in taken.items():
        rest = said[rid]["rest"]
        if count:
            assert f"; {count} exhaustion card{'s' if count > 1 else ''} taken" in rest, (rid, rest)
        else:
            assert "exhaustion" not in rest, (rid, rest)


def test_the_packs_are_the_engines_runs_of_riders_and_hidden_before_reveal():
    race = scenarios.build(SLIPSTREAM)
    [packs] = [line for line in describe_race(race) if line.startswith("Packs")]
    squares = {rid: square for rid, (square, _) in race.positions().items()}
    runs = rules.packs(squares.values())
    told = packs.split(": ", 1)[1].rstrip(".").split("; ")
    assert len(told) == len(runs) == 4
    for words, (lo, hi) in zip(told, runs):
        members = sorted((r for r, s in squares.items() if lo <= s <= hi), key=list(race.riders).index)
        where = f"square {lo}" if lo == hi else f"squares {lo} to {hi}"
        assert words == f"{', '.join(members)} ({where})", words
        assert all(any(s == q for s in squares.values()) for q in range(lo, hi + 1))  # no empty square inside
    assert not any(line.startswith("Packs") for line in describe_race(race, judged=False))


def test_the_winner_and_the_ranking_are_the_engines():
    riders = [*ROAD["riders"][:4], {"id": "ten", "square": 10, "lane": 0}]
    race = scenarios.build(
        {
            **ROAD,
            "riders": riders,
            "finish": 12,
            "cards": {"behind": 2, "on-start": 5, "climber": 9, "before-line": 3, "ten": 2},
        }
    )
    race.resolve()
    assert race.phase is Phase.FINISHED and race.winner is not None
    last = describe_race(race)[-1]
    assert last.startswith(f"The race is over: {race.winner} wins")
    rest = race.ranking[1:]
    assert race.winner == "ten" and rest == ["before-line"]  # level on 12: the right-hand lane wins
    assert last.endswith(f"; then {rest[0]}.")
