"""Whole races of bots, for learners racing the computer, the command line and benchmarks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .bots import autoplay, get_bot
from .race import TEAM_COLOURS, Race
from .track import Track


@dataclass(frozen=True)
class RaceResult:
    winner: str
    rounds: int
    ranking: tuple[str, ...]
    """Riders past the finish line, best first."""
    race: Race

    @property
    def riders(self) -> list[dict[str, Any]]:
        """Every rider: ``id``, ``team_kind`` (``"player"``, ``"peloton"`` or ``"muscle"``) and
        ``exhaustion_taken`` (exhaustion cards taken in the race: breakaway and end phases)."""
        race = self.race
        return [
            {"id": r.id, "team_kind": race.teams[r.team].kind.value, "exhaustion_taken": r.exhaustion}
            for r in race.riders.values()
        ]


def simulate_race(
    stage: str | Track = "avenue-corso-paseo",
    teams: int = 4,
    bot: str = "heuristic",
    seed: int = 0,
    history: bool = False,
    *,
    single_riders: bool = False,
    peloton: bool = False,
    muscle: int = 0,
    breakaway: bool = False,
) -> RaceResult:
    """Play one whole race of bots and return the result.

    ``teams`` player teams (two riders each, or one with ``single_riders``, up to 12)
    are played by ``bot``; ``peloton`` and ``muscle`` add the Peloton expansion's bot
    teams; ``breakaway`` plays the breakaway bids first. Invalid combinations raise
    ``ValueError`` with a message saying what is wrong.
    """
    get_bot(bot)  # an unknown name fails before the race is built
    names = TEAM_COLOURS[:teams] if isinstance(teams, int) and teams > 0 else ()
    race = Race.new(
        stage,
        teams,
        bots=dict.fromkeys(names, bot),
        seed=seed,
        history=history,
        single_riders=single_riders,
        peloton=peloton,
        muscle=muscle,
        breakaway=breakaway,
    )
    autoplay(race, fast=True)
    assert race.winner is not None
    return RaceResult(race.winner, race.round, tuple(race.ranking), race)
