"""Whole races of bots, for learners racing the computer and for benchmarks."""

from __future__ import annotations

from dataclasses import dataclass

from .bots import get_bot
from .race import Phase, Race, TEAM_COLOURS
from .track import Track

MAX_ROUNDS = 200  # a stalled race (every rider boxed in) is a bug, not an endless loop


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
    choose = get_bot(bot)
    race = Race.new(stage, teams, bots={c: bot for c in TEAM_COLOURS[:teams]}, seed=seed, history=history)
    while race.phase is not Phase.FINISHED:
        if race.round > MAX_ROUNDS:
            raise RuntimeError(f"race did not finish in {MAX_ROUNDS} rounds (seed {seed})")
        race.play_round(choose)
    return RaceResult(race.winner, race.round, tuple(race.ranking), race)
