"""How a lesson makes its race (``PreparedPositions``, a mixin of ``RaceTutor``): a full race (``new_race``) or
prepared positions (``from_scenario``): where a lesson's position stops, "Try another position" (the next of its
scenarios) and a position code a class opens ("Open a position").

``STOPS`` names where a position may stop; ``done`` says when it has; ``_limit`` is the last phase "Finish
round" resolves then.
"""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Self, Sequence

from tutor.flamme_rouge import scenario as scenarios
from tutor.flamme_rouge.race import ROUND_ORDER, Phase, Race
from tutor.flamme_rouge.render import Scene
from tutor.i18n import _

from .narration import Line
from .race_pace import FINISH_FROM_ROUND
from .race_words import RaceWords, learner_teams

STOPS = {"setup": Phase.SETUP, "movement": Phase.MOVEMENT, "slipstream": Phase.END_SLIPSTREAM,
         "round": Phase.END_EXHAUSTION}
"""Where a position stops: once the riders are placed (lesson 1: ``new_race(..., stop_after="setup")``), after the
movement phase, after slipstream, or at the end of the round."""


def phase_order(phase: Phase) -> int:
    """A phase's place in a round (the setup and the breakaway come before the round: -1)."""
    return ROUND_ORDER.index(phase) if phase in ROUND_ORDER else -1
ScenarioSource = str | Path | dict[str, Any]
"""A scenario file's path, or the scenario itself."""


class PreparedPositions:
    """A prepared position's stop and its other positions, on the state ``RaceTutor`` declares here."""

    race: Race
    scene: Scene
    title: str
    human_teams: tuple[str, ...]
    _focus: tuple[str, ...] | None
    _start: dict[str, Any]
    _stop: Phase | None
    _stop_round: int
    _positions: list[dict[str, Any]]
    _position: int
    _initial: tuple[tuple[str, ...], tuple[str, ...] | None, Phase | None]
    """The teams, focus and stop of the position shown, as Restart restores them."""
    _asked: tuple[tuple[str, ...] | None, tuple[str, ...] | None]
    """The learner's teams and focus the lesson asked for (None: every team without a bot; the learner's)."""

    if TYPE_CHECKING:  # the host's, declared for the type checker only (at run time the host's own run)
        finish_from_round: int | None
        words: RaceWords

        def __init__(self, *args: Any, **kwargs: Any) -> None:  # RaceTutor(race, ...)
            ...

        def _set_draw_buttons(self) -> None:
            ...

        def _reset(self) -> None:
            ...

        def _show(self, lines: list[Line]) -> None:
            ...

        def _opening_bots(self) -> list[Line]:
            ...

        def _new_key(self) -> None:
            ...

        def redraw(self, *, redraw_track: bool = False) -> None:
            ...

    @classmethod
    def new_race(cls, stage: str = "avenue-corso-paseo", teams: Sequence[str] = ("red", "blue"),
                 bots: Mapping[str, str] = MappingProxyType({"blue": "heuristic"}), seed: int = 0,
                 human_teams: Iterable[str] | None = ("red",), place: str = "auto", peloton: bool = False,
                 muscle: int = 0, breakaway: bool = False, single_riders: bool = False, **kwargs: Any) -> Self:
        """A new race on a stage or teaching track (``tutor.flamme_rouge.track.stage``).

        Teams in neither ``bots`` nor ``human_teams`` are played by the heuristic bot.
        ``place="auto"`` places the riders at random; with ``place="manual"`` the teams
        place their riders in turn, in the order of ``teams`` (the learner on the board).
        ``peloton``, ``muscle``, ``breakaway`` and ``single_riders`` go to ``Race.new`` (Peloton
        expansion): bot teams flip on "Next step", bids use the draw and card buttons.
        """
        humans = set(human_teams) if human_teams is not None else {t for t in teams if t not in bots}
        all_bots = {team: bots.get(team, "heuristic") for team in teams if team not in humans or team in bots}

        def rebuild(new_seed: int) -> Race:
            return Race.new(stage, list(teams), bots=all_bots, seed=new_seed, place=place, peloton=peloton,
                            muscle=muscle, breakaway=breakaway, single_riders=single_riders)

        tutor = cls(rebuild(seed), human_teams=human_teams, rebuild=rebuild, seed=seed, **kwargs)
        tutor.finish_from_round = FINISH_FROM_ROUND  # a full race: "Finish the race" from round 3
        return tutor

    @classmethod
    def from_scenario(cls, scenario: ScenarioSource | list[ScenarioSource] | tuple[ScenarioSource, ...], *,
                      stop_after: str = "round", **kwargs: Any) -> Self:
        """A tutor at the movement phase (or end phase) of a scenario: a file path, a dict, or a list of them
        ("Try another position" goes through the list). It stops after ``stop_after`` (``STOPS``)."""
        many = scenario if isinstance(scenario, (list, tuple)) else [scenario]
        datas = [s if isinstance(s, dict) else scenarios.load(s) for s in many]
        data = datas[0]

        def rebuild(new_seed: int) -> Race:
            return scenarios.build(data, seed=new_seed, history=True)

        kwargs.setdefault("title", data.get("name", ""))
        kwargs.setdefault("cards", "cards" in data)
        seed = kwargs.pop("seed", 0)
        return cls(rebuild(seed), rebuild=rebuild, seed=seed, stop_after=stop_after, positions=datas,
                   seed_enabled=False, **kwargs)

    @property
    def more_positions(self) -> bool:
        """A prepared position with another to try ("Try another position")."""
        return len(self._positions) > 1

    def _on_another(self, opened: str = "") -> None:
        """The next prepared position (the same one again when there is only one); ``opened`` starts the log.
        Its race comes with its own riders, teams, draw buttons, track and title; Restart comes back to it."""
        self._position = (self._position + 1) % max(1, len(self._positions))
        data = self._positions[self._position] if self._positions else None
        self._enter(scenarios.build(data, history=True) if data else Race.from_dict(self._start))
        if data and data.get("name"):
            self.title = data["name"]
        again = _("A new position.") if len(self._positions) > 1 else _("The same position again.")
        self._show([Line(opened or again), *self.words.intro(), *self._opening_bots()])

    def _enter(self, race: Race) -> None:
        """Show ``race``, a new position: the teams the lesson gave (when this race has them, else every team
        without a bot) play it; its track, draw buttons, key and stop; Back starts here."""
        humans, focus = self._asked
        try:
            teams = learner_teams(race, humans)
        except ValueError:  # the lesson's teams are not in this position
            teams = learner_teams(race, None)
        riders = tuple(focus) if focus is not None and all(r in race.riders for r in focus) else None
        self.race, self.human_teams, self._focus, self._stop = race, teams, riders, self._initial[2]
        self._initial = (teams, riders, self._stop)
        self._start = race.to_dict()
        self._stop_round = race.round
        self.scene.set_track(race.track)  # the track may differ: the board repaints it
        self._set_draw_buttons()
        self._new_key()
        self._reset()

    def _open_position(self, scenario: dict[str, Any]) -> None:
        """A pasted position code: its scenario becomes the position shown, as ``from_scenario`` shows one (an
        invalid one raises ``ScenarioError``, which the box shows; nothing changes)."""
        race = scenarios.build(scenario, history=True)
        self._positions, self._position = [scenario], -1  # _on_another steps to it; Restart comes back to it
        self._asked = (None, None)  # every team without a bot is the learner's
        self.title = scenario.get("name") or _("A shared position")
        self._on_another(opened=_("Opened {name}: {n} riders.").format(name=self.title, n=len(race.riders)))

    def _limit(self) -> int:
        """The last phase Finish round resolves: the end of the round, or where a prepared position stops."""
        if self._stop is not None and self.race.round == self._stop_round:
            return phase_order(self._stop)
        return phase_order(Phase.END_EXHAUSTION)

    @property
    def done(self) -> bool:
        """A prepared position has reached the end of its lesson."""
        race = self.race
        if self._stop is None:
            return False
        return (race.phase is Phase.FINISHED or race.round > self._stop_round
                or (race.phase.automatic and phase_order(race.phase) > phase_order(self._stop)))

