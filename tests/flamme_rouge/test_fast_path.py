"""Race.play_round (the simulation fast path) gives exactly the race that draw/play/step give, including
riders that take no exhaustion (bot teams) and the Peloton's Attack! card."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.flamme_rouge import ATTACK, STAGES, TEACHING_TRACKS, Phase, Race, WrongPhaseError
from tutor.flamme_rouge.bots import BOTS, get_bot

COLOURS = ("red", "blue", "green", "black")


def step_by_step(race: Race, choose) -> None:
    while not race.is_over:
        for rid in race.riders:
            race.draw(rid)
            race.play(rid, choose(race, rid))
        while race.phase not in (Phase.ENERGY, Phase.FINISHED):
            race.step()


def tireless_attackers(race: Race, team: str) -> None:
    """Give ``team`` riders that take no exhaustion and two Attack! cards in each deck."""
    for rid in race.teams[team].riders:
        rider = race.riders[rid]
        rider.takes_exhaustion = False
        rider.deck.face_down[2:2] = [ATTACK]
        rider.deck.face_down[9:9] = [ATTACK]


def attack_first(choose):
    """Play Attack! whenever it is in hand, else what ``choose`` picks."""
    return lambda race, rid: ATTACK if ATTACK in race.riders[rid].hand else choose(race, rid)


@settings(max_examples=40, deadline=None, database=None)
@given(
    stage=st.sampled_from([*STAGES, *TEACHING_TRACKS]),
    teams=st.integers(2, 4),
    bot=st.sampled_from(sorted(BOTS)),
    seed=st.integers(0, 10_000),
    bot_team=st.booleans(),
)
def test_play_round_equals_the_step_by_step_race(stage, teams, bot, seed, bot_team):
    bots = dict.fromkeys(COLOURS[:teams], bot)
    fast = Race.new(stage, teams, bots=bots, seed=seed, history=False)
    slow = Race.new(stage, teams, bots=bots, seed=seed, history=False)
    choose = get_bot(bot)
    if bot_team:
        for race in (fast, slow):
            tireless_attackers(race, COLOURS[teams - 1])
        choose = attack_first(choose)
    while not fast.is_over:
        fast.play_round(choose)
        assert fast.phase in (Phase.ENERGY, Phase.FINISHED)
    step_by_step(slow, choose)
    assert fast.to_dict() == slow.to_dict()


@settings(max_examples=25, deadline=None, database=None)
@given(
    stage=st.sampled_from([*STAGES, *TEACHING_TRACKS]),
    teams=st.integers(2, 4),
    seed=st.integers(0, 10_000),
    peloton=st.booleans(),
)
def test_play_rounds_equals_play_round_round_after_round(stage, teams, seed, peloton):
    """play_rounds carries the positions from round to round instead of reading them again: same race."""
    carried = Race.new(stage, teams, seed=seed, history=False, peloton=peloton, muscle=int(peloton))
    fresh = Race.new(stage, teams, seed=seed, history=False, peloton=peloton, muscle=int(peloton))
    choose = get_bot("random")
    carried.play_rounds(choose, 200)
    while not fresh.is_over:
        fresh.play_round(choose)
    assert carried.to_dict() == fresh.to_dict()


def test_play_rounds_stops_a_stalled_race():
    race = Race.new("sprint-20", 2, seed=3, history=False)
    with pytest.raises(RuntimeError, match="did not finish in 1 rounds"):
        race.play_rounds(get_bot("random"), 1)


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


def test_the_equivalence_covers_attack_and_tireless_riders():
    """The property above really meets Attack! moves and exempt riders (else it would prove nothing)."""
    race = Race.new("avenue-corso-paseo", 3, bots=dict.fromkeys(COLOURS[:3], "random"), seed=4, history=False)
    tireless_attackers(race, "green")
    choose = attack_first(get_bot("random"))
    attacks = exempt = 0
    while not race.is_over:
        for rid in race.riders:
            race.draw(rid)
            race.play(rid, choose(race, rid))
        for event in race.resolve():
            attacks += getattr(event, "card", None) is ATTACK
            exempt += len(getattr(event, "exempt", ()))
    assert attacks >= 2 and exempt >= 1
