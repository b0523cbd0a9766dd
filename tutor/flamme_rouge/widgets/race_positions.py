"""How a lesson makes its race (``full_race``, ``scenario_race``) and where it stops (``PreparedPositions``, the part
``RaceTutor.positions``): a full race (``new_race``) or prepared positions (``from_scenario``): where a lesson's
position stops, "Try another position" (the next of its scenarios) and a position code a class opens ("Open a
position").

``STOPS`` names where a position may stop; ``PreparedPositions.done`` says when it has; ``limit`` is the last
phase "Finish round" resolves then. The part keeps its own state and holds no race: ``RaceTutor`` passes the race
in and shows what the part chose.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from tutor.flamme_rouge import scenario as scenarios
from tutor.flamme_rouge.race import ROUND_ORDER, Phase, Race

from .race_words import learner_teams

STOPS = {
    "setup": Phase.SETUP,
    "movement": Phase.MOVEMENT,
    "slipstream": Phase.END_SLIPSTREAM,
    "round": Phase.END_EXHAUSTION,
}
"""Where a position stops: once the riders are placed (lesson 1: ``new_race(..., stop_after="setup")``), after the
movement phase, after slipstream, or at the end of the round."""


def phase_order(phase: Phase) -> int:
    """A phase's place in a round (the setup and the breakaway come before the round: -1)."""
    return ROUND_ORDER.index(phase) if phase in ROUND_ORDER else -1


ScenarioSource = str | Path | dict[str, Any]
"""A scenario file's path, or the scenario itself."""


def full_race(
    stage: str,
    teams: Sequence[str],
    bots: Mapping[str, str],
    human_teams: Iterable[str] | None,
    *,
    place: str,
    peloton: bool,
    muscle: int,
    breakaway: bool,
    single_riders: bool,
) -> Callable[[int], Race]:
    """``RaceTutor.new_race``'s race, by seed: teams in neither ``bots`` nor ``human_teams`` are played by the
    heuristic bot; the other arguments go to ``Race.new``."""
    humans = set(human_teams) if human_teams is not None else {t for t in teams if t not in bots}
    all_bots = {team: bots.get(team, "heuristic") for team in teams if team not in humans or team in bots}

    def rebuild(new_seed: int) -> Race:
        return Race.new(
            stage,
            list(teams),
            bots=all_bots,
            seed=new_seed,
            place=place,
            peloton=peloton,
            muscle=muscle,
            breakaway=breakaway,
            single_riders=single_riders,
        )

    return rebuild


def scenario_race(
    scenario: ScenarioSource | list[ScenarioSource] | tuple[ScenarioSource, ...],
) -> tuple[list[dict[str, Any]], Callable[[int], Race]]:
    """``RaceTutor.from_scenario``'s scenarios (a file path, a dict, or a list of them) and the first one's race,
    by seed."""
    many = scenario if isinstance(scenario, (list, tuple)) else [scenario]
    datas = [s if isinstance(s, dict) else scenarios.load(s) for s in many]
    data = datas[0]

    def rebuild(new_seed: int) -> Race:
        return scenarios.build(data, seed=new_seed, history=True)

    return datas, rebuild


Asked = tuple[tuple[str, ...] | None, tuple[str, ...] | None]
"""The learner's teams and focus a lesson asked for (None: every team without a bot; the learner's riders)."""
Shown = tuple[tuple[str, ...], tuple[str, ...] | None, Phase | None]
"""The teams, focus and stop of the position shown, as Restart restores them."""


class PreparedPositions:
    """Where a lesson's position stops and which position comes next (the part ``RaceTutor.positions``).

    Its state: ``stop`` (a phase of ``STOPS``, None in a race) and ``stop_round``, the ``scenarios`` "Try another
    position" cycles through and ``index`` (the one shown), ``start`` (the race shown, as Restart rebuilds it
    without ``rebuild`` or scenarios), ``initial`` (``Shown``) and ``asked`` (``Asked``). It holds no race and no
    widget: the tutor passes its race in and sets what a method returns (its teams, its focus)."""

    def __init__(
        self,
        race: Race,
        *,
        stop_after: str | None,
        scenarios: Sequence[dict[str, Any]],
        rebuild: Callable[[int], Race] | None,
        shown: tuple[tuple[str, ...], tuple[str, ...] | None],
        asked: Asked,
    ) -> None:
        """``race`` is the first one shown, to ``shown`` (its learner's teams and focus); ``rebuild(seed)`` makes
        it again for Restart."""
        self.stop = STOPS[stop_after] if stop_after else None
        self.stop_round = race.round
        self.scenarios = list(scenarios)
        self.index = 0
        self.start = race.to_dict()
        self.rebuild = rebuild
        self.initial: Shown = (*shown, self.stop)
        self.asked = asked

    @property
    def more_positions(self) -> bool:
        """A prepared position with another to try ("Try another position")."""
        return len(self.scenarios) > 1

    @property
    def stops_after_setup(self) -> bool:
        """The lesson stops once the riders are placed (lesson 1): the race itself is for the next lessons."""
        return self.stop is Phase.SETUP

    def restart(self, seed: int) -> Race:
        """Restart's race: the position shown again, or a new deal with ``seed``; its stop comes back (its teams
        and focus: ``initial``)."""
        self.stop = self.initial[2]
        if self.scenarios:
            return scenarios.build(self.scenarios[self.index], history=True)
        return self.rebuild(seed) if self.rebuild else Race.from_dict(self.start)

    def next_position(self) -> tuple[Race, str]:
        """The next prepared position's race (the same one again when there is only one) and its name ("" for
        none)."""
        self.index = (self.index + 1) % max(1, len(self.scenarios))
        data = self.scenarios[self.index] if self.scenarios else None
        race = scenarios.build(data, history=True) if data else Race.from_dict(self.start)
        return race, (data.get("name") or "") if data else ""

    def enter(self, race: Race) -> tuple[tuple[str, ...], tuple[str, ...] | None]:
        """``race`` is the position shown now, with the stop of the lesson; the learner's teams and focus in it:
        those the lesson gave (when this race has them, else every team without a bot)."""
        humans, focus = self.asked
        try:
            teams = learner_teams(race, humans)
        except ValueError:  # the lesson's teams are not in this position
            teams = learner_teams(race, None)
        riders = tuple(focus) if focus is not None and all(r in race.riders for r in focus) else None
        self.stop = self.initial[2]
        self.initial = (teams, riders, self.stop)
        self.start = race.to_dict()
        self.stop_round = race.round
        return teams, riders

    def open(self, scenario: dict[str, Any]) -> None:
        """A pasted position code: its scenario is the next position (``next_position``) and Restart's; every team
        without a bot is the learner's."""
        self.scenarios, self.index = [scenario], -1
        self.asked = (None, None)

    def race_on(self) -> None:
        """ "Continue as a race": the position stops nowhere."""
        self.stop = None

    def limit(self, race: Race) -> int:
        """The last phase Finish round resolves: the end of the round, or where a prepared position stops."""
        if self.stop is not None and race.round == self.stop_round:
            return phase_order(self.stop)
        return phase_order(Phase.END_EXHAUSTION)

    def done(self, race: Race) -> bool:
        """A prepared position has reached the end of its lesson."""
        if self.stop is None:
            return False
        return (
            race.phase is Phase.FINISHED
            or race.round > self.stop_round
            or (race.phase.automatic and phase_order(race.phase) > phase_order(self.stop))
        )
