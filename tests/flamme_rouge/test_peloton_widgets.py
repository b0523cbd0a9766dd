"""Peloton expansion on screen, headless: the breakaway bid widget, RaceTutor with bot teams and the breakaway,
and the narration of bids, the breakaway decision, flips and bot-deck refills.

A click at the wrong time must leave ``race.to_dict()`` unchanged and show a warning.
"""

from __future__ import annotations

import html

import pytest

from tutor.flamme_rouge import ATTACK, Phase, Race, energy, rules
from tutor.flamme_rouge.events import (
    BidsRevealed,
    BidsStarted,
    BotDeckRefilled,
    BotTeamsFlip,
    BreakawayCost,
    BreakawayDecided,
    BreakawayStart,
    CardBid,
    CardsFlipped,
    Flip,
)
from tutor.flamme_rouge.widgets import BreakawayBid, RaceTutor
from tutor.flamme_rouge.widgets.narration import computer_plays, narrate
from tutor.ui.testing import recorded_commands

FIVE = ("red", "blue", "green", "black", "white")


@pytest.fixture(scope="module")
def decided():
    """A five-team bid played through once (seed 0: three riders tie on 14 and the grid decides)."""
    bid = BreakawayBid("cobbles-24", teams=FIVE, learner="red", seed=0)
    bid.draw_buttons["red-R"].click()
    bid.card_buttons[1].click()
    bid.draw_buttons["red-R"].click()
    bid.card_buttons[3].click()
    before = bid.race.positions()
    with recorded_commands() as log:
        bid.decide_button.click()
    return bid, before, log


def bid_once(bid, rider, index=0):
    bid.draw_buttons[rider].click()
    bid.card_buttons[index].click()


def assert_refused(widget, click, *words):
    state = widget.race.to_dict()
    click()
    assert widget.race.to_dict() == state
    assert widget.status.kind == "warning"
    for word in words:
        assert word in widget.status.text


# ----- BreakawayBid --------------------------------------------------------------------------------------


def test_the_bots_have_bid_face_down_and_the_learner_picks_a_rider():
    bid = BreakawayBid("cobbles-24", teams=("red", "blue", "green"), seed=1)
    race = bid.race
    assert race.phase is Phase.BID_1
    assert [len(race.riders[r].bids) for r in ("blue-S", "green-S")] == [1, 1]
    assert "(computer) bid a card face down" in bid.narration.value
    assert not bid.draw_buttons["red-S"].disabled and not bid.draw_buttons["red-R"].disabled
    assert all(b.disabled for b in bid.card_buttons) and bid.decide_button.disabled
    assert "Pick the rider that bids" in bid.status.text
    assert bid.bids_table.value.count("face down") == 2 and "total" in bid.bids_table.value


def test_bidding_twice_reveals_each_round_and_keeps_the_same_rider():
    bid = BreakawayBid("cobbles-24", teams=("red", "blue", "green"), seed=1)
    bid.draw_buttons["red-R"].click()
    hand = list(bid.race.riders["red-R"].hand)
    assert [b.description for b in bid.card_buttons] == [str(c) for c in hand]
    assert bid.draw_buttons["red-S"].disabled  # the rider that drew bids for the team
    bid.card_buttons[2].click()
    race = bid.race
    assert race.phase is Phase.BID_2 and race.riders["red-R"].bids == [hand[2]]
    assert len(race.riders["red-R"].recycled) == 3
    assert "Bid 1 is revealed: " in bid.narration.value and f"red-R {hand[2]}" in bid.narration.value
    assert bid.draw_buttons["red-S"].disabled and not bid.draw_buttons["red-R"].disabled
    assert_refused(bid, lambda: bid._on_draw("red-S"), "red-R bids for its team")
    bid_once(bid, "red-R", 0)
    assert bid.race.phase is Phase.BREAKAWAY and not bid.decide_button.disabled
    assert "Bid 2 is revealed" in bid.narration.value
    assert "face down" not in bid.bids_table.value  # every bid is revealed now
    assert "choose 'Decide the breakaway'" in bid.status.text


def test_clicks_at_the_wrong_time_change_nothing():
    bid = BreakawayBid("cobbles-24", teams=("red", "blue", "green"), seed=1)
    assert_refused(bid, bid.card_buttons[0].click, "Draw first")
    assert_refused(bid, bid.decide_button.click, "Not yet")
    assert_refused(bid, bid.back_button.click, "Nothing to undo")
    bid.draw_buttons["red-S"].click()
    assert_refused(bid, lambda: bid._on_draw("red-S"), "already drawn")
    assert_refused(bid, bid.decide_button.click, "still has to bid")


def test_deciding_ranks_the_totals_and_names_the_tie_rule(decided):
    bid, _, _ = decided
    event = bid.decision
    assert event is not None and bid.race.phase is Phase.ENERGY
    assert set(event.winners) == {"blue-S", "black-S"} and len(event.winners) == 2  # five bidders: the top two
    text = bid.narration.value
    assert "Bid totals, best first: blue-S 14, black-S 14, white-S 14" in text
    assert "the tie goes to blue-S and black-S, further back on the grid" in text
    assert rules.BREAKAWAY_TIE.text in html.unescape(text).lower() and "tutor decision" not in text
    table = bid.bids_table.value
    assert table.index("blue-S") < table.index("black-S") < table.index("white-S") < table.index("red-R")
    assert table.count("takes 2 exhaustion cards") == 2 and "Equal totals go to the rider further back" in table
    assert bid.status.kind == "success" and "blue-S and black-S start past the start line" in bid.status.text


def test_the_winners_pay_two_exhaustion_cards_and_lose_their_bid_cards(decided):
    bid, _, _ = decided
    for rid in bid.decision.winners:
        rider = bid.race.riders[rid]
        assert rider.exhaustion == 2 and len(rider.removed) == 2
        assert sum(c.is_exhaustion for c in rider.deck.cards()) == 2
    loser = bid.race.riders["red-R"]
    assert loser.exhaustion == 0 and loser.removed == [] and len(loser.deck.cards()) == 15
    assert (
        "pay for the head start: their two bid cards leave the game and each takes 2 exhaustion cards"
        in bid.narration.value
    )


def test_the_breakaway_riders_slide_past_the_start_line_in_one_message(decided):
    bid, before, log = decided
    start = bid.race.track.start
    after = bid.race.positions()
    assert after["blue-S"] == (start, 0) and after["black-S"] == (start, 1)
    assert all(before[r][0] < start for r in ("blue-S", "black-S"))
    assert {r for r in after if after[r] != before[r]} == {"blue-S", "black-S"}
    assert log.messages == 1 and len(log.sleeps()) >= 8  # the slide, then the final picture
    highlights = bid._highlights()
    assert set(highlights.exhausted) == {"blue-S", "black-S"}
    assert highlights.trails["blue-S"] == (before["blue-S"], (start, 0))
    assert "blue-S rides in the breakaway: it starts on square" in bid.narration.value


def test_after_the_decision_the_bid_controls_are_off(decided):
    bid, _, _ = decided
    assert all(b.disabled for b in (*bid.draw_buttons.values(), *bid.card_buttons, bid.decide_button))
    assert_refused(bid, lambda: bid._on_draw("red-S"), "The bids are over")
    assert_refused(bid, bid.card_buttons[0].click)
    assert_refused(bid, bid.decide_button.click, "already decided")


def test_back_undoes_the_decision_and_restart_bids_again(decided):
    bid, before, _ = decided
    bid.back_button.click()
    assert bid.race.phase is Phase.BREAKAWAY and bid.decision is None and bid.race.positions() == before
    bid.restart_button.click()
    assert bid.race.phase is Phase.BID_1 and bid.race.riders["red-R"].bids == []
    assert bid.back_button.disabled


# ----- RaceTutor with bot teams and the breakaway ----------------------------------------------------------


def test_race_tutor_bids_then_steps_the_breakaway_and_the_flip():
    tutor = RaceTutor.new_race(
        "cobbles-24", teams=("red", "blue"), bots={"blue": "heuristic"}, seed=3, peloton=True, muscle=1, breakaway=True
    )
    assert tutor.race.phase is Phase.BID_1 and tutor.next_button.disabled
    assert_refused(tutor, tutor.next_button.click, "first bid is not over")
    for _ in range(2):
        tutor.draw_buttons["red-S"].click()
        assert "bids" in tutor.status.text
        tutor.card_buttons[0].click()
    assert tutor.race.phase is Phase.BREAKAWAY and not tutor.next_button.disabled
    tutor.next_button.click()
    assert tutor.race.phase is Phase.ENERGY and tutor.race.round == 1
    assert "joins the breakaway" in tutor.narration.value
    # The breakaway's result stays (the newest, open part of the log) until the learner starts round 1.
    assert tutor.paused and "<details class='tutor-log-section' open><summary>Setup" in tutor.narration.value
    tutor.next_round_button.click()
    for rid in ("red-S", "red-R"):
        tutor.draw_buttons[rid].click()
        tutor.card_buttons[0].click()
    assert tutor.race.phase is Phase.FLIP and "the bot teams flip" in tutor.status.text
    tutor.next_button.click()
    assert tutor.race.phase is Phase.MOVEMENT
    assert "peloton flips" in tutor.narration.value
    assert "muscle-1 flips one card for each rider" in tutor.narration.value
    assert "never takes exhaustion" in tutor.narration.value


def test_finish_round_in_the_breakaway_step_stops_at_round_one():
    """Engine: Race.resolve (Finish round) steps the breakaway, which is no phase of a round, and stops."""
    race = Race.new("cobbles-24", ["red", "blue"], seed=3, breakaway=True)
    for _ in range(2):
        for rid in ("red-S", "blue-S"):
            race.draw(rid)
            race.play(rid, race.riders[rid].hand[0])
    assert race.phase is Phase.BREAKAWAY
    events = race.finish_round()
    assert race.phase is Phase.ENERGY and race.round == 1
    assert any(isinstance(e, BreakawayDecided) for e in events)


def test_scenario_bot_teams_take_the_bot_colours():
    """Engine: scenario teams named peloton and muscle-1 are drawn in the bot teams' colours."""
    race = Race.from_positions(
        "sprint-20",
        [
            {"id": "p1", "team": "peloton", "square": 3, "lane": 0},
            {"id": "p2", "team": "peloton", "square": 2, "lane": 0},
            {"id": "m1", "team": "muscle-1", "square": 1, "lane": 0},
            {"id": "x", "square": 0, "lane": 0},
        ],
    )
    assert [race.riders[r].colour for r in ("p1", "p2", "m1")] == ["silver", "silver", "gold"]


# ----- narration of the expansion's events ------------------------------------------------------------------


def test_flips_say_what_moves_whom_and_why_bots_never_tire():
    both = ("peloton-1", "peloton-2")
    peloton = CardsFlipped("peloton", (Flip(ATTACK, both),), rules=(rules.PELOTON_FLIP,))
    muscle = CardsFlipped(
        "muscle-1", (Flip(energy(5), ("muscle-1-S",)), Flip(energy(7), ("muscle-1-R",))), rules=(rules.MUSCLE_FLIP,)
    )
    same = CardsFlipped("peloton", (Flip(energy(6), both),), rules=(rules.PELOTON_FLIP,))
    twins = CardsFlipped(
        "muscle-1", (Flip(energy(5), ("muscle-1-S",)), Flip(energy(5), ("muscle-1-R",))), rules=(rules.MUSCLE_FLIP,)
    )
    lines = narrate([peloton, muscle, same, twins])
    assert lines[0].text.startswith("peloton flips the Attack! card: its front rider moves 2 and its back rider 9.")
    assert lines[1].text.startswith("muscle-1 flips one card for each rider: muscle-1-S 5, muscle-1-R 7.")
    assert lines[2].text.startswith("peloton flips 6: one card moves both peloton-1 and peloton-2.")
    # Two Muscle cards of the same value are still two cards, one for each rider (issue 15).
    assert lines[3].text.startswith("muscle-1 flips one card for each rider: muscle-1-S 5, muscle-1-R 5.")
    for line in lines:
        assert "never takes exhaustion" in line.text and rules.BOT_NO_EXHAUSTION in line.rules


def test_bot_deck_refill_bids_and_the_flip_pause_are_told_from_their_fields():
    refill = BotDeckRefilled("peloton", 12, rules=(rules.BOT_DECK_REFILL,))
    revealed = BidsRevealed(2, {"red-S": energy(9), "blue-R": energy(3)}, rules=(rules.BID_REVEAL,))
    flip_next = BotTeamsFlip(3, rules=(rules.SECRET,))
    bids_start = BidsStarted(rules=(rules.BID,))
    texts = [line.text for line in narrate([refill, revealed, flip_next, bids_start])]
    assert texts == [
        "peloton's deck ran out: its 12 played cards are shuffled into a new deck.",
        "Bid 2 is revealed: red-S 9, blue-R 3.",
        "Every player's card is face down; now the bot teams flip theirs.",
        "The breakaway bids begin: each player picks one rider, who bids twice.",
    ]
    assert rules.BOT_DECK_REFILL.decision and "tutor decision" not in narrate([refill])[0].rule  # told as played


def test_breakaway_cost_and_start_are_not_told_as_end_phase_exhaustion():
    cost = [BreakawayCost("a", 2, rules=(rules.BREAKAWAY_COST,))]
    start = BreakawayStart("a", (5, 0), rules=(rules.BREAKAWAY_START,))
    lines = narrate([*cost, start])
    assert "pays for the head start: its two bid cards leave the game and it takes 2 exhaustion cards" in lines[0].text
    assert "empty square" not in lines[0].text
    assert lines[1].text == "a rides in the breakaway: it starts on square 5, right lane, past the start line."
    decided = BreakawayDecided({"a": 11, "b": 9}, ("a", "b"), ("b", "a"), ("a",), rules=(rules.BREAKAWAY_RANK,))
    assert narrate([decided])[0].text == (
        "Bid totals, best first: a 11, b 9. With 2 bidders the top one joins the breakaway: a."
    )


def test_computer_bids_stay_secret():
    bid = CardBid("blue-S", energy(9), rules=(rules.BID,), automatic=True)
    lines = computer_plays([bid])
    assert [line.text for line in lines] == ["blue-S (computer) bids a card face down."]
    assert "9" not in lines[0].text


def test_the_breakaway_bid_moves_focus_to_the_card_then_the_next_draw_then_decide():
    bid = BreakawayBid("cobbles-24", teams=("red", "blue", "green"), learner="red", seed=0)
    assert bid.focused is None  # building the page moves no focus
    bid.draw_buttons["red-S"].click()
    assert bid.focused is bid.card_buttons[0] and bid.card_buttons[0].tooltip.startswith("Bid ")
    bid.card_buttons[0].click()
    assert bid.focused is bid.draw_buttons["red-S"] and not bid.draw_buttons["red-S"].disabled  # the second bid
    bid.draw_buttons["red-S"].click()
    bid.card_buttons[0].click()
    assert bid.focused is bid.decide_button and "choose 'Decide the breakaway'" in bid.status.text
    bid.decide_button.click()
    assert bid.focused is bid.restart_button and bid.decision is not None
