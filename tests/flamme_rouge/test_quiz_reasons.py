"""The reasons a Flamme Rouge quiz gives on Reveal come from the engine: its exhaustion check, its finish ranking
and lane tie-break, its movement order, and the card's own value."""

from __future__ import annotations

from tutor.flamme_rouge import rules
from tutor.flamme_rouge.widgets.quiz import PredictQuiz

TRACK = " ".join(["2"] * 16)


def _reveal(quiz: PredictQuiz, answer: object) -> str:
    if quiz.choice_input is not None:
        quiz.choice_input.value = answer
    quiz.reveal_button.click()
    return str(quiz.feedback.value)


def test_a_tie_past_the_line_is_won_in_the_right_hand_lane():
    tie = {
        "track": TRACK,
        "finish": 12,
        "riders": [{"id": "left", "square": 9, "lane": 0}, {"id": "right", "square": 8, "lane": 0}],
        "cards": {"left": 5, "right": 6},
    }  # left moves first to 14, lane 0; right follows to 14, lane 1
    quiz = PredictQuiz(tie, question="Who wins?", ask="winner")
    feedback = _reveal(quiz, "right")
    positions = quiz.race.positions()
    assert positions["left"] == (14, 0) and positions["right"] == (14, 1)
    assert quiz.correct_answer == "left" and rules.ahead_by_lane(positions, "left") == ["right"]
    assert (
        "left wins: it is as far past the finish line as right, and a tie goes to the rider in the right-hand lane"
        in feedback
    )
    clear = {**tie, "cards": {"left": 5, "right": 3}}
    quiz = PredictQuiz(clear, question="Who wins?", ask="winner")
    assert "left wins: it is the furthest past the finish line" in _reveal(quiz, "left")


def test_the_first_rider_is_named_with_its_lane_only_when_a_rider_shares_its_square():
    shared = {
        "track": TRACK,
        "riders": [
            {"id": "inside", "square": 5, "lane": 1},
            {"id": "outside", "square": 5, "lane": 0},
            {"id": "back", "square": 2, "lane": 0},
        ],
        "cards": {"inside": 2, "outside": 2, "back": 2},
    }
    quiz = PredictQuiz(shared, question="Who moves first?", ask="first")
    assert quiz.correct_answer == "outside"
    assert "outside is on square 5, the closest to the finish (and in the right lane of its square)" in _reveal(
        quiz, "inside"
    )
    alone = {**shared, "riders": [{**r, "square": 6} if r["id"] == "outside" else r for r in shared["riders"]]}
    quiz = PredictQuiz(alone, question="Who moves first?", ask="first")
    feedback = _reveal(quiz, "outside")
    assert "outside is on square 6, the closest to the finish: it moves first" in feedback


def test_exhaustion_reasons_follow_the_engines_check_bot_riders_exempt():
    position = {
        "track": TRACK,
        "riders": [
            {"id": "alone", "square": 1, "lane": 0},
            {"id": "bot", "square": 4, "lane": 0, "team": "peloton", "team_kind": "peloton"},
            {"id": "tail", "square": 7, "lane": 0},
            {"id": "head", "square": 8, "lane": 0},
        ],
    }
    quiz = PredictQuiz(position, question="Who takes an exhaustion card?", ask="exhausted")
    quiz.rider_checks["bot"].value = True
    feedback = _reveal(quiz, None)
    assert quiz.correct_answer == {"alone", "head"}
    assert "✗ alone (square 1) takes an exhaustion card: square 2 in front of it is empty; you left it" in feedback
    assert (
        "✗ bot (square 4) takes none: square 5 in front is empty, but it rides for a bot team; you ticked it"
        in feedback
    )
    assert "✓ tail (square 7) takes none: square 8 in front of it is taken" in feedback
    assert "✗ head (square 8) takes an exhaustion card: square 9 in front of it is empty" in feedback


def test_an_exhaustion_card_among_the_choices_moves_two_and_is_sorted_by_its_value():
    position = {
        "track": TRACK,
        "riders": [{"id": "red-R", "square": 3, "lane": 0}, {"id": "blue-R", "square": 1, "lane": 0}],
        "cards": {"red-R": 2, "blue-R": 2},
    }
    quiz = PredictQuiz(
        position,
        question="Which card takes red-R to square 5?",
        ask="card",
        rider="red-R",
        choices=("3", "E2", "4"),
        target=5,
    )
    assert quiz.correct_answer == {"E2"}
    feedback = _reveal(quiz, "E2")
    assert quiz.is_right is True and "E2 takes red-R to square 5" in feedback
    quiz = PredictQuiz(
        position,
        question="Which card takes red-R to square 7?",
        ask="card",
        rider="red-R",
        choices=("4", "E2"),
        target=7,
    )
    assert quiz.correct_answer == {"4"}
