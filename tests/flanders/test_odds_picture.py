"""Lesson 3's picture of the 216 rolls and "How is this worked out?" (tutor.flanders.widgets.odds_help)."""

from __future__ import annotations

import re
from pathlib import Path

from tutor.flanders import Phase
from tutor.flanders.odds import ROLLS, SPACES, bust_count, mask_of
from tutor.flanders.render import percent
from tutor.flanders.widgets import GameTutor, RiskQuiz
from tutor.flanders.widgets.odds_help import rolls_picture, rolls_with_sum, two_dice_ways

SCENARIOS = Path(__file__).resolve().parents[2] / "lessons" / "flanders" / "scenarios"


def test_each_sum_is_offered_by_the_rolls_that_do_not_bust_when_only_its_space_has_a_card():
    counts = rolls_with_sum()
    assert list(counts) == list(SPACES)
    assert all(n == ROLLS - bust_count(mask_of([space])) for space, n in counts.items())  # the engine's table
    assert max(counts, key=counts.__getitem__) == 7 and counts[6] == counts[8] > counts[5] > counts[3]


def test_the_picture_says_why_the_middle_sums_come_up_most():
    picture = rolls_picture()
    assert f"{rolls_with_sum()[7]} of {ROLLS}" in picture
    assert "Two dice make 7 in 6 ways (1+6, 2+5, 3+4, 4+3, 5+2, 6+1), but 3 in only 2 (1+2, 2+1)" in picture
    assert "so the middle sums have the most chances: 6, 7 and 8 come up most." in picture
    assert two_dice_ways(12) == ["6+6"]
    marked = rolls_picture([6, 7])
    assert len(re.findall(r"class='bar card'", marked)) == 2 and "Green: a space with a card now." in marked


def lesson_3() -> GameTutor:
    t = GameTutor.from_scenario(SCENARIOS / "push_your_luck.json", bots={"p2": "threshold"}, odds_picture=True)
    t.debounce_s = 0
    return t


def test_lesson_3_shows_the_rolls_and_keeps_the_expected_loss_behind_how_is_this_worked_out():
    t = lesson_3()
    help_ = t.odds_help
    assert t.game.phase is Phase.AGAIN and help_.picture.layout.display is None
    assert "class='bar card'" in help_.picture.value  # the spaces with a card now, in green
    assert help_.button.layout.display is None and help_.body.layout.display == "none"  # closed at first
    bust = t.game.bust_probability()
    worked = f"Expected troop loss {float(t.game.expected_bust_loss()):.2f} = {percent(float(bust))} × 4"
    assert worked in help_.worked.value and f"{round(bust * ROLLS)} of the {ROLLS} rolls" in help_.worked.value
    help_.button.value = True
    assert help_.body.layout.display is None
    t.stop_button.click()  # no more decision: the odds go
    assert help_.picture.layout.display == "none" and help_.button.layout.display == "none"
    assert help_.body.layout.display == "none"


def test_without_the_picture_a_game_keeps_only_the_disclosure():
    t = GameTutor.from_scenario(SCENARIOS / "push_your_luck.json", bots={"p2": "threshold"})
    assert t.odds_help.picture.layout.display == "none" and t.odds_help.button.layout.display is None


def test_the_risk_quiz_offers_the_picture_closed():
    q = RiskQuiz([(SCENARIOS / "risk_a1.json", SCENARIOS / "risk_b1.json")], question="?")
    assert q.rolls.button in q.secondary.children and q.rolls.body.layout.display == "none"
    q.rolls.button.value = True
    assert q.rolls.body.layout.display is None and "of 216" in q.rolls.body.children[0].value
