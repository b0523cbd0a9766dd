"""Issue 15, the Flamme Rouge quizzes of every lesson as a learner meets them: the board shows the position and
not the answer, the board accepts the clicks the question asks for, and every Try again gives a new position
(with its own answer) and a working Reveal."""

from __future__ import annotations

import os
import re
from pathlib import Path

import nbformat
import pytest

from tutor.flamme_rouge.widgets import PredictQuiz

FR = Path(__file__).resolve().parents[2] / "lessons" / "flamme_rouge"


def lesson_quizzes(path: Path) -> list[PredictQuiz]:
    """The lesson's quizzes, built by running its quiz cells in the lesson's folder (as Voila does)."""
    quizzes = []
    here = os.getcwd()
    os.chdir(path.parent)
    try:
        namespace: dict = {}
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "code" and "PredictQuiz(" in cell.source:
                code = cell.source.strip()
                exec(
                    compile(re.sub(r"^PredictQuiz\(", "__quiz = PredictQuiz(", code, flags=re.M), path.name, "exec"),
                    namespace,
                )
                quizzes.append(namespace.pop("__quiz"))
    finally:
        os.chdir(here)
    return quizzes


QUIZ_LESSONS = [p for p in sorted(FR.glob("[01][0-9]_*.ipynb")) if "PredictQuiz(" in p.read_text()]


def answer_right(quiz: PredictQuiz) -> None:
    if quiz.ask == "exhausted":
        for rid, box in quiz.rider_checks.items():
            box.value = rid in quiz.correct_answer
    elif quiz.ask == "card":
        quiz.choice_input.value = sorted(quiz.correct_answer)[0]
    elif quiz.ask in ("first", "winner"):
        quiz.choice_input.value = quiz.correct_answer
    elif quiz.with_lane:
        quiz.square_input.value, quiz.lane_input.value = quiz.correct_answer
    else:
        quiz.square_input.value = quiz.correct_answer


@pytest.mark.parametrize("path", QUIZ_LESSONS, ids=[p.stem for p in QUIZ_LESSONS])
def test_every_try_again_gives_a_new_position_that_can_be_answered(path: Path):
    for quiz in lesson_quizzes(path):
        seen = [(quiz.race.to_dict(), quiz.question)]
        for _ in range(len(quiz.positions)):
            answer_right(quiz)
            quiz.reveal_button.click()
            assert quiz.is_right is True, (path.name, quiz.question, quiz.position)
            assert "data-right='1'" in quiz.feedback.value
            quiz.retry_button.click()
            assert quiz.is_right is None and not quiz.reveal_button.disabled and quiz.feedback.value == ""
            assert all(not w.disabled for w in quiz.answer_widgets())
            seen.append((quiz.race.to_dict(), quiz.question))
        assert seen[1][0] != seen[0][0], f"{path.name}: Try again shows the same position"
        assert seen[-1][0] == seen[0][0]  # round the positions and back


@pytest.mark.parametrize("path", QUIZ_LESSONS, ids=[p.stem for p in QUIZ_LESSONS])
def test_a_quiz_board_shows_the_position_not_the_answer(path: Path):
    for quiz in lesson_quizzes(path):
        marks, panel = quiz._highlights(), quiz._panel()
        assert marks.next_mover is None, "the gold 'moves next' ring tells who moves first"
        played = dict(panel.played)
        assert [rid for rid, _ in panel.played] == sorted(played) and not panel.in_order
        # a chip by a rider is the card it played, never what the rules make of it (Attack! 2 and 9, a climb's 5)
        assert all(played[rid] == chip.label for rid, chip in marks.cards.items()), (path.name, marks.cards, played)


def test_fr03_who_moves_first_is_answered_by_clicking_the_rider_and_try_again_moves_on():
    first = lesson_quizzes(FR / "03_movement.ipynb")[0]
    view = first.scene.view
    wrong = next(rid for rid in first.race.riders if rid != first.correct_answer)
    square, lane = first.race.positions()[wrong]
    first._on_board_click(view.cx(square), view.cy(lane))
    assert first.choice_input.value == wrong and f"Your answer: {wrong}" in first.status.text
    first.reveal_button.click()
    assert first.is_right is False and f"{first.correct_answer} moves first" in first.feedback.value
    first.retry_button.click()
    assert first.position == 1 and first.is_right is None and not first.reveal_button.disabled
    assert set(o for o, _ in first.choice_input.options) == set(first.race.riders)


def test_fr07_says_the_lane_broke_the_tie():
    quiz = lesson_quizzes(FR / "07_full_race.ipynb")[0]
    told = []
    for _ in quiz.positions:
        answer_right(quiz)
        quiz.reveal_button.click()
        told.append(quiz.feedback.value.split("</div>")[0])  # the verdict line
        quiz.retry_button.click()
    tie = [t for t in told if "right-hand lane" in t]
    assert tie and all("furthest past" not in t for t in tie)


def test_fr11_attack_chips_show_the_card_not_the_squares():
    attack = lesson_quizzes(FR / "11_peloton_and_muscle_teams.ipynb")[0]
    chips = attack._highlights().cards
    assert chips["peloton-1"].label == chips["peloton-2"].label == "A"


def test_fr02_asks_about_the_energy_phase_and_the_engine_answers_each_question():
    from tutor.flamme_rouge.widgets.energy_quiz import EnergyQuiz

    source = (FR / "02_energy_phase.ipynb").read_text()
    assert "EnergyQuiz()" in source and "PredictQuiz(" not in source
    quiz = EnergyQuiz()
    quiz.debounce_s = 0  # a learner's pause between the clicks (the one click rule drops a double click)
    asked = []
    for _ in quiz.questions:
        assert quiz.feedback.value == "" and quiz.correct_answer not in quiz.status.text  # nothing told before Reveal
        quiz.reveal_button.click()
        assert quiz.is_right is None and "Choose your answer first" in quiz.status.text
        quiz.choice_input.value = next(
            choice for _label, choice in quiz.choice_input.options if choice != quiz.correct_answer
        )
        quiz.reveal_button.click()
        assert quiz.is_right is False and f"The answer is: {quiz.correct_answer}." in quiz.feedback.value
        assert "The rule that decided it" in quiz.feedback.value and "data-right='0'" in quiz.feedback.value
        asked.append((quiz.question, quiz.correct_answer))
        quiz.next_button.click()  # the next question
    assert quiz.position == 0
    quiz.choice_input.value = quiz.correct_answer
    quiz.reveal_button.click()
    assert quiz.is_right is True
    assert "Recycled, face up under the deck</th><td>5, 3, 2" in quiz.board.value  # Reveal did it on the cards
    # draw 4, play 1, recycle 3: where the 3 go, a draw that reshuffles, one rider at a time, played cards leave
    assert dict(asked) == {
        "red-S draws 9, 5, 3 and 2 and plays the 9. Where do the other three cards go?": "face up under its deck",
        "red-S has only 2 cards left face down, and 6 recycled cards. How many cards does it draw?": "4",
        "red-S has drawn its 4 cards but not played one yet. May you draw for red-R now?": "No",
        "red-S draws 9, 5, 3 and 2 and plays the 9. Where is that 9 when the next round begins?": "out of the game",
        "red-S has just 3 cards left in all: 4, 3 and 2 face down, none recycled. How many does it draw?": "3",
    }


ENERGY_QUIZ_IDS = ("a3b1ea222a", "82f975b839", "5b3509d6b8", "beba0e6c59", "c53ca05b9b")
"""The energy quiz's ids, as the teachers' records hold them (made from the English questions: never change)."""


def energy_question(quiz, n: int) -> None:
    """Moves the quiz to its question ``n`` (0: the first) by its own buttons."""
    while quiz.position != n:
        quiz.choice_input.value = quiz.choice_input.options[0][1]
        quiz.reveal_button.click()
        quiz.next_button.click()


def test_fr02_energy_quiz_builds_and_plays_its_questions_without_touching_the_race_state(monkeypatch):
    """Issue 40 (4): every question's cards are set up by the engine (``Race.stack_deck``), never by editing the
    race's JSON, and Reveal plays the question through the engine's actions: with the race's JSON (and its copies,
    which go through it) made to fail, every question still asks, reveals and asks again."""
    from tutor.core.state import SeededState
    from tutor.flamme_rouge.race import Deck, Race
    from tutor.flamme_rouge.widgets.energy_quiz import EnergyQuiz

    def refuse(*args, **kwargs):
        raise AssertionError("the energy quiz read or wrote the race's serialized state")

    for owner, name in (
        (SeededState, "to_dict"),
        (SeededState, "from_dict"),
        (SeededState, "copy"),
        (Race, "_state_dict"),
        (Race, "_load_state"),
        (Deck, "to_dict"),
        (Deck, "from_dict"),
    ):
        monkeypatch.setattr(owner, name, refuse)
    quiz = EnergyQuiz()
    assert quiz.ids == ENERGY_QUIZ_IDS
    for n, id in enumerate(ENERGY_QUIZ_IDS):
        assert quiz.position == n and quiz.id == id
        board = quiz.board.value
        quiz.choice_input.value = quiz.correct_answer
        quiz.reveal_button.click()
        assert quiz.is_right is True and f"data-quiz='{id}' data-right='1'" in quiz.feedback.value
        quiz.retry_button.click()  # the same question again, from its starting cards
        assert quiz.is_right is None and quiz.board.value == board and quiz.id == id
        quiz.choice_input.value = next(
            choice for _label, choice in quiz.choice_input.options if choice != quiz.correct_answer
        )
        quiz.reveal_button.click()
        assert quiz.is_right is False
        quiz.next_button.click()
    assert quiz.position == 0


def test_fr02_energy_verdict_follows_the_events_not_the_cards(monkeypatch):
    """Reveal judges the answer by the events the engine's actions return (which cards went where), not by
    looking in the deck: events that said otherwise than the deck would change the verdict."""
    from tutor.flamme_rouge.events import CardsDrawn, CardsRecycled, CardsRemoved
    from tutor.flamme_rouge.race import Race
    from tutor.flamme_rouge.widgets.energy_quiz import EnergyQuiz

    quiz = EnergyQuiz()
    energy_question(quiz, 3)  # "Where is that 9 when the next round begins?"
    assert quiz.correct_answer == "out of the game"
    resolve = Race.resolve

    def recycled_instead(self, *args, **kwargs):  # the deck still has the 9 out of the game
        return [
            CardsRecycled("red-S", (event.cards["red-S"],), 4) if isinstance(event, CardsRemoved) else event
            for event in resolve(self, *args, **kwargs)
        ]

    monkeypatch.setattr(Race, "resolve", recycled_instead)
    quiz.retry_button.click()
    assert quiz.correct_answer == "face up under its deck"
    quiz.choice_input.value = "out of the game"
    quiz.reveal_button.click()
    assert quiz.is_right is False and "Out of the game</th><td>9" in quiz.board.value
    assert "The answer is: face up under its deck. You said: out of the game." in quiz.feedback.value
    monkeypatch.undo()

    energy_question(quiz, 1)  # "How many cards does it draw?" (4, after a reshuffle)
    draw = Race.draw

    def eight(self, rider):
        events = draw(self, rider)
        return [CardsDrawn(e.rider, e.cards * 2) if isinstance(e, CardsDrawn) else e for e in events]

    monkeypatch.setattr(Race, "draw", eight)
    quiz.retry_button.click()
    quiz.choice_input.value = "8"
    quiz.reveal_button.click()
    assert quiz.is_right is True and len(quiz.race.riders["red-S"].hand) == 4  # the events said 8


def test_energy_where_reads_the_places_from_the_events():
    from tutor.flamme_rouge.cards import energy
    from tutor.flamme_rouge.events import CardPlayed, CardsDrawn, CardsRecycled, CardsRemoved
    from tutor.flamme_rouge.widgets.energy_quiz import ELSEWHERE, IN_HAND, OUT_OF_GAME, UNDER_DECK, drawn, played, where

    nine, five, three, two = (energy(v) for v in (9, 5, 3, 2))
    events = [
        CardsDrawn("red-S", (nine, five, three, two)),
        CardsDrawn("red-R", (three,)),
        CardPlayed("red-S", nine),
        CardsRecycled("red-S", (five, three, two), 3),
    ]
    assert where("red-S", [five, three, two], events) == UNDER_DECK
    assert where("red-R", [three], events) == IN_HAND  # another rider's cards are its own
    assert where("red-S", [nine], events) == ELSEWHERE  # played face down: none of the answers' places
    assert where("red-S", [nine, five], events) == ELSEWHERE  # parted
    assert where("red-S", [energy(4)], events) == ELSEWHERE  # never moved
    assert where("red-S", [nine], events + [CardsRemoved({"red-S": nine, "red-R": three})]) == OUT_OF_GAME
    assert drawn("red-R", events) == (three,) and drawn("blue-S", events) == ()
    assert played("red-S", events) is nine and played("red-R", events) is None


def first_answers(marks: list[str]) -> dict[str, bool]:
    """What the lesson page records from the marks Reveal leaves (``tutor.ui.lessons.PROGRESS_JS``): each quiz
    id's first answer, right or not."""
    recorded: dict[str, bool] = {}
    for mark in marks:
        found = re.search(r"data-quiz='(\w+)' data-right='([01])'", mark)
        assert found, mark
        recorded.setdefault(found[1], found[2] == "1")
    return recorded


def test_fr02_try_again_asks_the_same_question_and_the_progress_counts_every_question():
    """Issue 37: the tester answered three questions, one right first time, and read "1 of 1 answered, 0 right
    first time"; Try again had asked another question."""
    from tutor.flamme_rouge.widgets.energy_quiz import EnergyQuiz
    from tutor.ui.lessons import lesson_info

    quiz, marks = EnergyQuiz(), []

    def reveal(right: bool) -> None:
        quiz.choice_input.value = next(
            choice for _label, choice in quiz.choice_input.options if (choice == quiz.correct_answer) == right
        )
        quiz.reveal_button.click()
        assert quiz.is_right is right
        marks.append(quiz.feedback.value)

    first = quiz.question
    assert quiz.next_button.layout.display == "none"  # one next step at a time: Reveal first
    reveal(False)
    assert quiz.next_button.layout.display is None and "Next question" in quiz.status.text
    quiz.retry_button.click()
    assert quiz.question == first and first in quiz.question_html.value and quiz.is_right is None
    assert "Recycled, face up under the deck</th><td>none" in quiz.board.value  # its starting cards again
    assert quiz.next_button.layout.display == "none"
    reveal(True)
    assert quiz.focused is quiz.next_button
    quiz.next_button.click()
    assert quiz.question != first and quiz.is_right is None
    reveal(True)
    quiz.next_button.click()
    reveal(False)
    recorded = first_answers(marks)
    declared = lesson_info(FR / "02_energy_phase.ipynb").quiz_ids
    assert set(recorded) <= set(declared) and list(declared) == list(quiz.ids) and len(declared) == 5
    answered, right = len(recorded), sum(recorded.values())
    assert (answered, right) == (3, 1)  # "3 of 5 answered, 1 right first time"
