"""The board in words (``tutor.ui.TextView``) beside every board: it follows each step, says what the engine
says, and gives no quiz answer away before Reveal."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.flamme_rouge import Phase as RacePhase
from tutor.flamme_rouge.render.style import lane_name
from tutor.flamme_rouge.widgets import PredictQuiz, RaceTutor
from tutor.flanders import Phase
from tutor.flanders.widgets import FlandersQuiz, GameTutor, RiskQuiz
from tutor.ui.narration import Line
from tutor.ui.text_view import TextView

LESSONS = Path(__file__).resolve().parents[1] / "lessons"
FR = LESSONS / "flamme_rouge" / "scenarios"
FL = LESSONS / "flanders" / "scenarios"


def board_part(view: TextView) -> str:
    """The text after "What just happened" (what the board shows now)."""
    return view.text.split(f"{view.title}:", 1)[1]


def test_the_text_view_is_on_demand_not_a_live_region_hidden_until_shown_and_cites_each_rule_once():
    view = TextView()
    from tutor.core.events import Rule

    rule = Rule("x.move", "Movement phase", "a rider moves exactly the value of its card")
    view.show(["red-R: square 4."], happened=[Line("red-R moves 4.", (rule,)), Line("blue-S moves 2.", (rule,))])
    assert "tutor-live" not in view.html._dom_classes  # the whole board is not re-read after every step
    assert "tutor-board-words" in view.html._dom_classes and "tutor-sr-only" in view.html._dom_classes
    assert "tutor-disclosure" in view.toggle._dom_classes and view.toggle.description.startswith("▸")
    assert view.text.count("moves exactly the value") == 1 and "red-R: square 4." in view.html.value
    view.toggle.value = True
    assert "tutor-sr-only" not in view.html._dom_classes and view.toggle.description.startswith("▾")


def test_the_race_text_view_follows_each_step_with_the_engine_positions_and_the_narration():
    tutor = RaceTutor.new_race(
        "avenue-corso-paseo", teams=("red", "blue"), bots={"blue": "heuristic"}, seed=0, human_teams=("red",)
    )
    tutor.debounce_s = 0
    assert "blue-S a card face down" in tutor.text_view.text  # a bot's card stays secret in the energy phase
    for rider in ("red-S", "red-R"):
        tutor.draw_buttons[rider].click()
        hand = tutor.race.riders[rider].hand
        assert f"{rider}'s drawn cards: {', '.join(str(c.value) for c in hand)}" in tutor.text_view.text
        tutor.card_buttons[0].click()
    while tutor.race.phase is not RacePhase.MOVEMENT:
        tutor.next_button.click()
    mover = tutor.race.to_move[0]
    tutor.next_button.click()
    rider = tutor.race.riders[mover]
    assert f"{mover} (" in board_part(tutor.text_view)
    assert f"square {rider.square}, {lane_name(rider.lane)}" in board_part(tutor.text_view)
    said = tutor.text_view.text.split(tutor.text_view.title)[0]
    assert tutor.narration_lines and all(line.text in said for line in tutor.narration_lines)


def test_a_who_moves_first_quiz_tells_the_board_without_the_order_before_reveal():
    quiz = PredictQuiz([str(FR / "movement_who_first_a.json")], question="Who moves first?", ask="first")
    before = quiz.text_view.text
    riders = list(quiz.race.riders)
    assert "from the front" not in before and "in this order" not in before
    assert [r for r in riders if f"\n{r} (" in before] == riders  # in the scenario's order
    cards = before.split("Cards played: ")[1]
    assert [r for r in sorted(riders, key=cards.index)] == riders
    quiz.choice_input.value = quiz.correct_answer
    quiz.reveal_button.click()
    assert "What just happened" in quiz.text_view.text and "Riders, from the front" in quiz.text_view.text


def test_a_square_quiz_text_shows_the_start_before_reveal_and_the_end_after():
    quiz = PredictQuiz([str(FR / "movement_fall_back_b.json")], question="Where does it end?", rider="red-R")
    start = quiz.race.riders["red-R"].square
    assert f"red-R (rouleur, red team): square {start}," in quiz.text_view.text
    quiz.square_input.value = quiz.correct_answer
    quiz.reveal_button.click()
    assert f"red-R (rouleur, red team): square {quiz.correct_answer}," in quiz.text_view.text


def test_the_flanders_text_view_tells_dice_offers_spaces_pawns_troops_and_odds():
    tutor = GameTutor.from_scenario(FL / "turn_first_roll.json")
    tutor.debounce_s = 0
    game = tutor.game
    for p in game.players:
        where = f"pawn on space {p.pawn} ({game.battlefield.spaces[p.pawn].name}), {p.troops} troop"
        assert where in tutor.text_view.text
    tutor.roll_button.click()
    assert game.phase is Phase.CHOOSE and game.dice is not None
    words = tutor.text_view.text
    assert f"Dice: {', '.join(map(str, game.dice))}." in words and f"{', '.join(map(str, game.offered()))}" in words
    assert "rolls" in words.split(tutor.text_view.title)[0]  # what just happened, in the narration's words
    card = game.spaces[3]
    assert ("3: empty" if card is None else f"3: {game.cards[card].name}") in words
    next(b for b in tutor.pair_buttons if not b.disabled).click()
    assert game.phase is Phase.AGAIN
    bust = game.bust_probability()
    assert (
        f"chance of a bust {float(bust) * 100:.1f}% ({bust * 216} of the 216 rolls offer no card); "
        f"{game.at_stake()} troop piece"
    ) in tutor.text_view.text


def test_a_flanders_take_quiz_marks_no_offered_space_in_words_before_reveal():
    quiz = FlandersQuiz([FL / "forced_a.json"], ask="take", question="Which space must p1 take?")
    assert "Dice:" in quiz.text_view.text and "Spaces offered" not in quiz.text_view.text
    quiz.choice.value = quiz.correct_answer[0]
    quiz.reveal_button.click()
    assert "What just happened" in quiz.text_view.text and "takes" in quiz.text_view.text


def test_the_risk_quiz_text_tells_both_positions_and_the_odds_only_after_reveal():
    quiz = RiskQuiz([(FL / "risk_a1.json", FL / "risk_b1.json")], question="Which is riskier?")
    assert "Position A:" in quiz.text_view.text and "Position B:" in quiz.text_view.text
    assert "chance of a bust" not in quiz.text_view.text
    quiz.choice.value = quiz.correct_answer
    quiz.reveal_button.click()
    assert quiz.text_view.text.count("chance of a bust") == 2


@pytest.mark.parametrize("scenario", ["bust_a", "end_b"])
def test_every_flanders_quiz_text_view_names_each_player(scenario):
    quiz = FlandersQuiz([FL / f"{scenario}.json"], ask="lost" if scenario == "bust_a" else "winners", question="?")
    assert all(f"{p.id}: pawn on space {p.pawn}" in quiz.text_view.text for p in quiz.game.players)


def test_the_breakaway_text_view_tells_the_drawn_cards_but_no_bid():
    from tutor.flamme_rouge.widgets.breakaway import BreakawayBid

    bid = BreakawayBid("cobbles-24", teams=("red", "blue", "green"), learner="red", seed=0)
    bid.draw_buttons["red-S"].click()
    hand = bid.race.riders["red-S"].hand
    assert f"red-S's drawn cards: {', '.join(str(c.value) for c in hand)}." in bid.text_view.text
    bid.card_buttons[0].click()
    assert "Cards played" not in bid.text_view.text  # a bid is face down
