"""FR 06's first quiz: after Reveal the board numbers the squares the climb rule counts (from the engine's
``Track.ceiling``), and the feedback says how many flat squares there are before the climb."""

from __future__ import annotations

import html
from pathlib import Path

from tutor.flamme_rouge import rules
from tutor.flamme_rouge.render.climb import CLIMB_COUNTED, FLAT_COUNTED
from tutor.flamme_rouge.widgets import PredictQuiz
from tutor.ui.testing import recorded_commands

SCENARIOS = Path(__file__).resolve().parents[2] / "lessons" / "flamme_rouge" / "scenarios"


def climb_quiz() -> PredictQuiz:
    return PredictQuiz(
        [str(SCENARIOS / "mountain_climb_quiz_a.json"), str(SCENARIOS / "mountain_climb_quiz_b.json")],
        rider="red-S",
        after="movement",
        question="Where does red-S end?",
    )


def counted(q: PredictQuiz) -> list[tuple[int, str, str]]:
    return [(m.square, m.label, m.colour) for m in q._highlights().marks if m.colour in (FLAT_COUNTED, CLIMB_COUNTED)]


def test_before_reveal_the_board_counts_nothing():
    q = climb_quiz()
    assert counted(q) == []


def test_seven_flat_squares_before_the_climb_are_numbered_1_to_7_and_the_rider_may_move_7():
    q = climb_quiz()
    q.square_input.value = 9  # the card's value: wrong
    with recorded_commands() as log:
        q.reveal_button.click()
    assert q.is_right is False
    assert counted(q) == [(k, f"+{k}", FLAT_COUNTED) for k in range(1, 8)]  # squares 1-7, the climb starts on 8
    assert q.race.track.ceiling[0] == 7 and q.race.riders["red-S"].square == 7
    assert "7 flat squares before the climb (numbered +1 to +7 on the board): red-S may move 7" in q.feedback.value
    assert html.escape(rules.ASCENT.text) in q.feedback.value
    assert {"+1", "+7"} <= set(log.texts())  # the numbers are painted


def test_three_flat_squares_are_fewer_than_5_so_the_rider_still_moves_5_into_the_climb():
    q = climb_quiz()
    q.restart()  # the second position: red-S on square 4, the climb from square 8
    q.square_input.value = 9
    q.reveal_button.click()
    assert q.is_right is True
    assert counted(q) == [
        (5, "+1", FLAT_COUNTED),
        (6, "+2", FLAT_COUNTED),
        (7, "+3", FLAT_COUNTED),
        (8, "+4", CLIMB_COUNTED),
        (9, "+5", CLIMB_COUNTED),
    ]
    assert (
        "3 flat squares before the climb (numbered on the board): fewer than 5, so red-S may still move 5"
        in q.feedback.value
    )
