"""Flamme Rouge: a pure rules engine (base game, mountains and the Peloton terrain;
docs/rules.md: Flamme Rouge, Peloton expansion).

Engine modules here import no UI library; ``render/`` draws a race on ipycanvas and
``widgets/`` wires it to ipywidgets for the lessons.

    >>> from tutor.flamme_rouge import Race
    >>> race = Race.new("sprint-20", teams=2, seed=1)
    >>> race.phase.value
    'energy'
    >>> simulate_race("avenue-corso-paseo", teams=4, bot="heuristic", seed=0).winner in race_ids(4)
    True
"""

from .cards import ATTACK, EXHAUSTION, MUSCLE, ROULEUR, SPRINTEUR, Card, CardKind, RiderKind, energy, starting_deck
from .errors import (
    CardNotInHandError,
    DeckError,
    PlacementError,
    RiderOrderError,
    RuleError,
    ScenarioError,
    TrackError,
    UnknownRiderError,
    UnknownTeamError,
    WrongPhaseError,
)
from .race import TEAM_COLOURS, Deck, Draw, Phase, Place, Play, Race, Rider, Step, Team, TeamKind
from .simulate import RaceResult, simulate_race
from .track import STAGES, TEACHING_TRACKS, Square, Terrain, Track, stage


def race_ids(teams: int) -> list[str]:
    """Rider ids of a race of ``teams`` two-rider teams: ``red-S``, ``red-R``, ..."""
    return [f"{c}-{k}" for c in TEAM_COLOURS[:teams] for k in "SR"]


__all__ = [
    "ATTACK",
    "EXHAUSTION",
    "MUSCLE",
    "ROULEUR",
    "SPRINTEUR",
    "Card",
    "CardKind",
    "RiderKind",
    "energy",
    "starting_deck",
    "CardNotInHandError",
    "DeckError",
    "PlacementError",
    "RiderOrderError",
    "RuleError",
    "ScenarioError",
    "TrackError",
    "UnknownRiderError",
    "UnknownTeamError",
    "WrongPhaseError",
    "TEAM_COLOURS",
    "Deck",
    "Draw",
    "Phase",
    "Place",
    "Play",
    "Race",
    "Rider",
    "Step",
    "Team",
    "TeamKind",
    "RaceResult",
    "simulate_race",
    "STAGES",
    "TEACHING_TRACKS",
    "Square",
    "Terrain",
    "Track",
    "stage",
    "race_ids",
]
