"""The numbers a learner reads about drawing and the terrain are the engine's (issue 40, item 3): the hand size
(``cards.HAND_SIZE``, each team's ``Team.hand_size``) and the climb's and descent's limits (``track``) fill the
rules' texts, the phase titles, the buttons, the prompts and the key. With the engine's own numbers the words are as
before ("Draw 4 for red-S"); with other numbers they follow, in English and in Catalan."""

import html

import pytest

from tutor.flamme_rouge import Phase, Race, rules
from tutor.flamme_rouge import cards, track
from tutor.flamme_rouge.render.legend import legend_html
from tutor.flamme_rouge.widgets import RaceTutor
from tutor.flamme_rouge.widgets.breakaway import BreakawayBid
from tutor.i18n import use_language


@pytest.fixture(autouse=True)
def clicks_at_any_pace(monkeypatch):
    monkeypatch.setattr(RaceTutor, "debounce_s", 0)
    monkeypatch.setattr(BreakawayBid, "debounce_s", 0)


@pytest.fixture
def hand_of_3(monkeypatch):
    """An engine whose riders draw 3 cards (and recycle 2)."""
    monkeypatch.setattr(cards, "HAND_SIZE", 3)


def tutor():
    return RaceTutor.new_race(
        "avenue-corso-paseo", teams=("red", "blue"), bots={"blue": "heuristic"}, seed=0, human_teams=("red",)
    )


def test_the_engine_own_hand_size_reads_as_before():
    t = tutor()
    assert cards.HAND_SIZE == 4 and t.race.hand_size("red-S") == 4
    assert t.draw_buttons["red-S"].description == "Draw 4 for red-S"
    assert t.draw_buttons["red-S"].tooltip == "Energy phase: draw 4 cards for red-S"
    assert "choose 'Draw 4 for red-S' (or for red-R)" in t.status.text
    assert "Each of your riders draws 4 cards, plays 1 and recycles the other 3." in t.narration.value
    assert rules.DRAW.text == "draw 4 cards from the rider's energy deck"
    assert Phase.ENERGY.title == "Energy phase: draw 4, play 1, recycle 3"


def test_a_race_with_another_hand_size_draws_it_and_every_sentence_says_it(hand_of_3):
    t = tutor()
    assert t.race.hand_size("red-S") == 3 and len(t.card_buttons) == 3
    assert t.draw_buttons["red-S"].description == "Draw 3 for red-S"
    assert t.draw_buttons["red-R"].tooltip == "Energy phase: draw 3 cards for red-R"
    assert "choose 'Draw 3 for red-S' (or for red-R)" in t.status.text
    assert "Each of your riders draws 3 cards, plays 1 and recycles the other 2." in t.narration.value
    t.draw_buttons["red-S"].click()
    assert len(t.race.riders["red-S"].hand) == 3  # the engine dealt what the words said
    t.card_buttons[0].click()
    assert "choose 'Draw 3 for red-R'" in t.status.text
    t.next_button.click()  # the energy phase is not over: red-R has not played
    assert "(draw 3, then choose one)" in t.status.text


def test_the_rules_and_phase_titles_name_the_engine_hand_size(hand_of_3):
    assert rules.ROUND.text == "a new round: each player draws 3 and plays 1 for one rider, then the same for the other"
    assert rules.DRAW.text == "draw 3 cards from the rider's energy deck"
    assert rules.DRAW_FEWER.text == "with fewer than 3 cards left, the rider draws them all"
    assert rules.BID.text.startswith("each player picks one rider, draws 3 from its deck")
    assert str(rules.DRAW) == "Energy phase: draw 3 cards from the rider's energy deck"
    assert Phase.ENERGY.title == "Energy phase: draw 3, play 1, recycle 2"
    assert Phase.BID_2.title == "Breakaway, second bid: draw 3, bid 1 face down, recycle 2"


def test_the_breakaway_bid_names_the_engine_hand_size(hand_of_3):
    bid = BreakawayBid("cobbles-24", teams=("red", "blue", "green"), learner="red", seed=0)
    assert len(bid.card_buttons) == 3
    assert bid.draw_buttons["red-S"].description == "Draw 3 for red-S"
    assert bid.draw_buttons["red-S"].tooltip == "Breakaway bid: draw 3 cards for red-S"
    assert "choose 'Draw 3 for red-S' or 'Draw 3 for red-R'" in bid.status.text
    assert "who draws 3 cards and bids 1 face down" in bid.narration.value
    bid.draw_buttons["red-S"].click()
    assert "choose one of its 3 cards. It goes face down; the other 2 are recycled" in bid.status.text


def test_in_catalan_the_count_sets_the_grammar(monkeypatch):
    monkeypatch.setattr(cards, "HAND_SIZE", 2)
    use_language("ca")
    t = tutor()
    assert t.draw_buttons["red-S"].description == "Roba 2 per a red-S"
    assert "tria «Roba 2 per a red-S» (o per a red-R)" in t.status.text
    assert "roba 2 cartes, en juga 1 i recicla l'altra." in html.unescape(t.narration.value)
    assert rules.DRAW.text == "roba 2 cartes de la baralla d'energia del corredor"
    assert Phase.ENERGY.title == "Fase d'energia: roba 2, juga 1, recicla 1"


def test_the_climb_and_descent_limits_are_the_engine(monkeypatch):
    race = Race.new("hill-24", teams=2, seed=0)  # a climb and a descent
    key = html.unescape(legend_html(race, folding=False))
    assert "on a climb it moves at most 5" in key and rules.ASCENT.text.startswith(
        "on or into an ascent a rider moves at most 5 "
    )
    monkeypatch.setattr(track, "ASCENT_MAXIMUM", 6)
    monkeypatch.setattr(track, "DESCENT_MINIMUM", 4)
    key = html.unescape(legend_html(race, folding=False))
    assert "on a climb it moves at most 6" in key and "from a descent at least 4" in key
    assert rules.ASCENT.text == (
        "on or into an ascent a rider moves at most 6 (it may still ride the flat up to the climb)"
    )
    assert rules.DESCENT.text == "a rider starting on a descent moves at least 4"
