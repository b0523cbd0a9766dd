"""One undo system: the state's history, driven by ``tutor.ui.controller.UndoController`` in every tutor widget.

Back undoes what one click did, the bots' replies included, in both games; no widget keeps a stack of its own.
"""

from __future__ import annotations

import pytest

from tutor.core.errors import WrongPhaseError
from tutor.flamme_rouge import Phase, Race
from tutor.flamme_rouge.bots import autoplay
from tutor.flamme_rouge.widgets import BreakawayBid, RaceTutor, Workbench
from tutor.flanders import Phase as FlandersPhase
from tutor.flanders.widgets import GameTutor
from tutor.ui.controller import UndoController


def position(race: Race) -> dict:
    return race.to_dict(history=False)


def test_an_undo_step_groups_every_action_inside_it():
    race = Race.new("sprint-20", ("red", "blue"), bots={"blue": "random"}, seed=2)
    before = position(race)
    with race.undo_step():
        race.draw("red-S")
        race.play("red-S", race.riders["red-S"].hand[0])
        autoplay(race, steps=False)  # blue's bot plays: two more actions, same step
    assert race.can_undo
    race.undo()
    assert position(race) == before and not race.can_undo
    with pytest.raises(WrongPhaseError, match="nothing to undo"):
        race.undo()


def test_the_controller_refuses_a_rule_error_and_changes_nothing():
    race = Race.new("sprint-20", ("red",), seed=0)
    warnings: list[str] = []
    control = UndoController(lambda: race, warnings.append)
    before = position(race)
    assert control.act(lambda: race.play("red-S", 5)) is None
    assert warnings == ["Not allowed: red-S has not drawn cards yet."] and position(race) == before
    assert not control.can_back
    assert control.act(lambda: race.draw("red-S")) and control.can_back
    assert control.back("nothing") and position(race) == before
    assert not control.back("Nothing to undo.") and warnings[-1] == "Nothing to undo."


@pytest.fixture(autouse=True)
def clicks_at_any_pace(monkeypatch):
    monkeypatch.setattr(RaceTutor, "debounce_s", 0)


def test_race_tutor_back_undoes_the_click_and_the_bot_teams_replies():
    """Peloton and Muscle teams flip and the other player's bot plays after the learner's card: one Back."""
    tutor = RaceTutor.new_race(
        "cobbles-24",
        teams=("red", "blue"),
        bots={"blue": "heuristic"},
        peloton=True,
        muscle=1,
        seed=3,
        human_teams=("red",),
    )
    assert not tutor.control.can_back  # the bots' opening moves are the starting position
    tutor.draw_buttons["red-S"].click()
    tutor.card_buttons[0].click()
    tutor.draw_buttons["red-R"].click()
    drawn = position(tutor.race)
    tutor.card_buttons[0].click()  # the last card: blue's bot replies, the bot teams' flip is next
    assert tutor.race.phase is Phase.FLIP
    tutor.back_button.click()
    assert position(tutor.race) == drawn
    tutor.card_buttons[0].click()
    before_round = position(tutor.race)
    tutor.finish_button.click()
    assert tutor.race.round == 2
    tutor.back_button.click()  # the whole round, flip and moves, in one step
    assert position(tutor.race) == before_round
    assert not hasattr(tutor, "_undo")


def test_breakaway_back_undoes_the_decision_then_each_bid():
    bid = BreakawayBid("cobbles-24", ("red", "blue", "green"), seed=1)
    bid.debounce_s = 0  # the test clicks Back faster than a person: no double-click rule
    start = position(bid.race)
    for _ in range(2):
        bid.draw_buttons["red-S"].click()
        bid.card_buttons[0].click()
    assert bid.race.phase is Phase.BREAKAWAY
    bids_in = position(bid.race)
    bid.decide_button.click()
    assert bid.decision is not None and bid.race.phase is Phase.ENERGY
    bid.back_button.click()
    assert position(bid.race) == bids_in and bid.decision is None and "total" not in bid.status.text
    for _ in range(4):  # the second bid, its draw, the first bid, its draw (each with the bots' replies)
        bid.back_button.click()
    assert position(bid.race) == start and bid.back_button.disabled


def test_workbench_back_undoes_a_step_and_keeps_the_position_editable_at_the_start():
    bench = Workbench(
        {"track": " ".join(["2"] * 12), "riders": [{"id": "a", "square": 2, "lane": 0}], "cards": {"a": 3}}
    )
    start = position(bench.race)
    bench.next_button.click()
    assert bench.control.can_back and not bench.keep_button.disabled
    bench.back_button.click()
    assert position(bench.race) == start and bench.keep_button.disabled


def test_flanders_bots_play_is_one_step_back():
    tutor = GameTutor.new_game(3, seed=4)
    tutor.debounce_s = 0
    tutor.roll_button.click()  # the learner's turn, as in tests/flanders/test_widgets.py
    while tutor.game.phase is FlandersPhase.CHOOSE or (tutor.human_turn and tutor.game.phase is FlandersPhase.AGAIN):
        if tutor.game.phase is FlandersPhase.CHOOSE:
            next(b for b in tutor.pair_buttons if not b.disabled).click()
        else:
            tutor.stop_button.click()
    while tutor.human_turn and tutor.game.phase is FlandersPhase.RESOLVE:
        tutor.end_button.click()
    assert tutor.bot_turn
    before = tutor.game.to_dict(history=False)
    tutor.finish_button.click()  # the bots play until the learner's turn
    assert tutor.human_turn
    tutor.back_button.click()
    assert tutor.game.to_dict(history=False) == before
