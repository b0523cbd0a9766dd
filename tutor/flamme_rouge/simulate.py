"""Whole races of bots, for learners racing the computer and for benchmarks."""

from __future__ import annotations

from dataclasses import dataclass

from .bots import autoplay, get_bot
from .race import Race, TEAM_COLOURS
from .track import Track


@dataclass(frozen=True)
class RaceResult:
    winner: str
    rounds: int
    ranking: tuple[str, ...]
    """Riders past the finish line, best first."""
    race: Race


def simulate_race(stage: str | Track = "avenue-corso-paseo", teams: int = 4, bot: str = "heuristic",
                  seed: int = 0, history: bool = False) -> RaceResult:
    """Play one whole race of ``teams`` two-rider bot teams and return the result."""
    get_bot(bot)  # an unknown name fails before the race is built
    race = Race.new(stage, teams, bots={c: bot for c in TEAM_COLOURS[:teams]}, seed=seed, history=history)
    autoplay(race, fast=True)
    assert race.winner is not None
    return RaceResult(race.winner, race.round, tuple(race.ranking), race)
