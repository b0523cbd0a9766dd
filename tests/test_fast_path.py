"""Race.play_round (the simulation fast path) gives exactly the race that draw/play/step give."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.flamme_rouge import STAGES, TEACHING_TRACKS, Phase, Race, WrongPhaseError
from tutor.flamme_rouge.bots import BOTS, get_bot

COLOURS = ("red", "blue", "green", "black")


def step_by_step(race: Race, choose) -> None:
    while not race.is_over:
        for rid in race.riders:
            race.draw(rid)
            race.play(rid, choose(race, rid))
        while race.phase not in (Phase.ENERGY, Phase.FINISHED):
            race.step()


@settings(max_examples=40, deadline=None, database=None)
@given(stage=st.sampled_from([*STAGES, *TEACHING_TRACKS]), teams=st.integers(2, 4),
       bot=st.sampled_from(sorted(BOTS)), seed=st.integers(0, 10_000))
def test_play_round_equals_the_step_by_step_race(stage, teams, bot, seed):
    bots = dict.fromkeys(COLOURS[:teams], bot)
    fast = Race.new(stage, teams, bots=bots, seed=seed, history=False)
    slow = Race.new(stage, teams, bots=bots, seed=seed, history=False)
    choose = get_bot(bot)
    while not fast.is_over:
        fast.play_round(choose)
        assert fast.phase in (Phase.ENERGY, Phase.FINISHED)
    step_by_step(slow, choose)
    assert fast.to_dict() == slow.to_dict()


def test_play_round_outside_the_energy_phase_is_refused():
    race = Race.new("sprint-20", 2, seed=1)
    race.draw("red-S")
    race.play("red-S", race.riders["red-S"].hand[0])
    for rid in ("red-R", "blue-S", "blue-R"):
        race.draw(rid)
        race.play(rid, race.riders[rid].hand[0])
    assert race.phase is Phase.MOVEMENT
    before = race.to_dict()
    with pytest.raises(WrongPhaseError, match="play_round needs the energy phase, not the movement phase"):
        race.play_round(get_bot("random"))
    assert race.to_dict() == before
