"""Bots: legal choices, and the heuristic bot races better than the random one."""

import pytest

from tutor.flamme_rouge import Phase, Race
from tutor.flamme_rouge.bots import BOTS, get_bot, play_energy_phase


def race_mixed(stage: str, seed: int) -> Race:
    bots = {"red": "heuristic", "blue": "random", "green": "heuristic", "black": "random"}
    race = Race.new(stage, 4, bots=bots, seed=seed, history=False)
    while race.phase is not Phase.FINISHED:
        race.play_round(lambda r, rid: get_bot(r.team_of(rid).bot)(r, rid))
    return race


def test_heuristic_bot_beats_random_bot_over_seeded_races():
    """Two heuristic teams against two random teams: the heuristic teams win most races."""
    races = [race_mixed(stage, seed) for stage in ("avenue-corso-paseo", "la-haute-montagne") for seed in range(25)]
    winners = [race.team_of(race.winner).bot for race in races]
    assert winners.count("heuristic") >= 0.7 * len(winners)


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bot_always_picks_a_card_from_the_hand(name):
    race = Race.new("hill-24", 2, bots={"red": name, "blue": name}, seed=4)
    for _ in range(6):
        before = {rid: list(r.hand) for rid, r in race.riders.items()}
        play_energy_phase(race)
        assert all(r.played is not None for r in race.riders.values()), before
        race.finish_round()
        if race.is_over:
            break


def test_unknown_bot_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown bot 'clever'.*heuristic"):
        get_bot("clever")


def test_play_energy_phase_leaves_human_teams_alone():
    race = Race.new("sprint-20", ("red", "blue"), bots={"blue": "heuristic"}, seed=2)
    play_energy_phase(race)
    assert race.riders["blue-S"].played and race.riders["blue-R"].played
    assert race.riders["red-S"].played is None and race.riders["red-R"].played is None
    assert race.phase is Phase.ENERGY
