"""Issue 37: each In Flanders Field lesson shows what it and the lessons before it teach, and nothing after
(``GameTutor(..., taught=...)``, tutor/flanders/widgets/taught.py), and says it right. The widgets are built as the
lessons' notebooks build them (``tests/lesson_cells.py``) and driven with their buttons."""

from __future__ import annotations

import re

import pytest

from tests.lesson_cells import LESSONS, cell_widget, markdown
from tutor.flanders.events import TroopsLost
from tutor.flanders.game import Phase
from tutor.flanders.widgets import GameTutor, captions, narrate
from tutor.ui.testing import recorded_commands

IFF = LESSONS / "flanders"


@pytest.fixture(autouse=True)
def clicks_at_any_pace(monkeypatch):
    monkeypatch.setattr(GameTutor, "debounce_s", 0)


def lesson(name: str) -> GameTutor:
    return cell_widget(IFF / name, "GameTutor.")


def board_words(tutor: GameTutor) -> str:
    with recorded_commands() as log:
        tutor.redraw()
    return " ".join(log.texts())


def roll_again_or_stop(tutor: GameTutor) -> None:
    """Roll and take a card until the learner chooses between rolling again and stopping (a bust: Continue, and
    the bots play up to the learner's next turn)."""
    for _ in range(60):
        phase = tutor.game.phase
        if tutor.human_turn and phase is Phase.AGAIN:
            return
        if tutor.bust_shown:
            tutor.continue_button.click()
        elif not tutor.human_turn:
            tutor.finish_button.click()
        elif phase is Phase.CHOOSE:
            tutor.take(tutor.game.offered()[0])
        else:
            tutor.roll_button.click()
    raise AssertionError(tutor.status.text)


@pytest.mark.parametrize("name", ["01_board_and_goal.ipynb", "02_a_turn.ipynb"])
def test_lessons_1_and_2_show_no_bust_chance_and_no_card_effect_of_later_lessons(name: str):
    tutor = lesson(name)
    kinds = tutor.board.cards.kinds
    assert not any(k.tank or k.mines or k.may_retain for k in kinds)  # as the board draws them
    assert any(k.tank for k in tutor.game.cards.kinds)  # the game plays them all the same
    words = board_words(tutor)  # the cards' names stay ("Tank"); their effects and "May Retain" go
    assert not re.search(r"\btank\b|\bmines\b|RETAIN|Retain|retain", words), words
    assert "Live odds" not in words
    roll_again_or_stop(tutor)
    assert tutor._picture().odds is None and tutor.odds_help.button.layout.display == "none"
    text = tutor.status.text.lower()
    assert "bust" not in text and "%" not in text and "at stake" not in text, text
    words = board_words(tutor).lower()
    assert "chance" not in words and "odds" not in words and "at stake" not in words


def test_lesson_3_shows_the_odds_and_lesson_4_no_may_retain():
    odds = lesson("03_push_your_luck.ipynb")
    assert "Chance of a bust" in board_words(odds) and odds.odds_help.button.layout.display is None
    assert not any(k.tank or k.mines for k in odds.board.cards.kinds)
    lines = lesson("04_lines_tank_mines.ipynb")
    kinds = lines.board.cards.kinds
    assert any(k.tank for k in kinds) and any(k.mines for k in kinds) and not any(k.may_retain for k in kinds)
    full = GameTutor.new_game(players=3, seed=0)  # a full game shows everything
    assert full.board.cards == full.game.cards and full.taught == {"odds", "tank", "mines", "retain"}
    with pytest.raises(ValueError, match="unknown part 'tanks'"):
        GameTutor.new_game(players=2, seed=0, taught=("tanks",))


def test_lesson_2_offers_no_keep_box_before_may_retain_is_taught():
    tutor = lesson("02_a_turn.ipynb")
    tutor.roll_button.click()  # 1-2-4
    tutor.take(5)  # Reserves: May Retain, taught in lesson 5
    tutor.roll_button.click()  # 1-6-6
    tutor.take(7)
    tutor.stop_button.click()
    assert tutor.game.phase is Phase.RESOLVE and tutor.game.keepable()
    assert tutor.keep_checks == {} and tutor.keep_label.layout.display == "none"
    assert "May Retain" not in tutor.end_button.tooltip and "May Retain" not in tutor.status.text


def test_lesson_5_ticks_no_keep_box_the_child_decides():
    tutor = lesson("05_troops_and_retain.ipynb")
    assert tutor.game.phase is Phase.RESOLVE and tutor.keep_checks
    assert [box.value for box in tutor.keep_checks.values()] == [False] * len(tutor.keep_checks)
    mines = next(card for card in tutor.keep_checks if tutor.game.cards[card].name == "Mines")
    tutor.keep_checks[mines].value = True  # the learner's tick stays while the other cards are carried out
    next(b for b in tutor.play_buttons if "Machine Gun" in b.description).click()
    assert tutor.keep_checks[mines].value and not any(b.value for c, b in tutor.keep_checks.items() if c != mines)


def test_lesson_1_says_where_p1s_pawn_stands_as_the_board_shows_it():
    tutor = lesson("01_board_and_goal.ipynb")
    text = markdown(IFF / "01_board_and_goal.ipynb")[0]
    pawn = tutor.game.players[0].pawn
    said = re.search(r"p1, the orange circle\. It has already moved to space (\d+)", text)
    assert said and int(said.group(1)) == pawn
    assert "Your **pawn** starts" not in text


def test_a_player_who_loses_its_last_troop_piece_is_told_it_is_out():
    last = TroopsLost("p2", count=2, owed=2, cause="german", card=None, troops=0)
    [line] = narrate([last], GameTutor.new_game(players=3, seed=0).game.cards)
    assert "p2 loses 2 troop pieces" in line.text and "p2 has no troop pieces left: it is out of the game" in line.text
    [(caption, _rule)] = captions([last], GameTutor.new_game(players=3, seed=0).game.cards)
    assert "out of the game" in caption
    still = TroopsLost("p2", count=1, owed=1, cause="german", card=None, troops=1)
    assert "out" not in narrate([still], GameTutor.new_game(players=3, seed=0).game.cards)[0].text.split("(")[0]


def test_a_bot_that_loses_every_troop_piece_in_round_1_is_said_to_be_out():
    tutor = GameTutor.new_game(players=3, bots={"p2": "bold", "p3": "bold"}, seed=0)
    for seed in range(40):
        tutor.seed.value = seed
        tutor.restart_button.click()
        tutor.game.players[1].troops = 1  # p2, a bot, has one troop piece left
        roll_until_bots(tutor)
        lost = [
            line.text
            for _h, lines in tutor.turns
            for line in lines
            if line.text.startswith("p2 ") and "(0 left)" in line.text
        ]
        if lost:
            assert all("p2 has no troop pieces left: it is out of the game" in text for text in lost), lost
            return
    pytest.fail("no shuffle made p2 lose its last troop piece in round 1")


def roll_until_bots(tutor: GameTutor) -> None:
    """The learner stops at once (or busts), then the bots play up to the learner's next turn."""
    for _ in range(30):
        if not tutor.human_turn and tutor.game.round > 1:
            return
        if tutor.bust_shown:
            tutor.continue_button.click()
        elif not tutor.human_turn:
            tutor.finish_button.click()
        elif tutor.game.phase is Phase.CHOOSE:
            tutor.take(tutor.game.offered()[0])
        elif tutor.game.phase is Phase.AGAIN:
            tutor.stop_button.click()
        elif tutor.game.phase is Phase.RESOLVE:
            tutor.end_button.click()
        else:
            tutor.roll_button.click()
