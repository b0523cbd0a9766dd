"""Setting a Flamme Rouge race up: ``Race.new`` (a race at the start, with the Peloton expansion's bot teams and
breakaway), ``Race.from_positions`` (a lesson's or scenario's position), the starting decks and the placement
of the riders behind the start line.
"""

from __future__ import annotations

import functools
from itertools import islice
from typing import Any, Iterator, Self, Sequence

from tutor.core.data import is_int
from tutor.i18n import _


from . import cards as card_rules
from . import rules
from .cards import ATTACK, EXHAUSTION, MUSCLE, RIDER_KINDS, ROULEUR, SPRINTEUR, Card, RiderKind, shuffled, starting_deck
from .errors import PlacementError, WrongPhaseError
from .events import BidsStarted, RoundStarted
from .race_model import (
    MAX_MUSCLE,
    MUSCLE_COLOURS,
    PAIR_TEAMS,
    PELOTON_COLOUR,
    TEAM_COLOURS,
    Deck,
    Phase,
    Rider,
    Team,
    TeamKind,
)
from .race_phases import RacePhases
from .track import Track, stage


class RaceSetup(RacePhases):
    """The construction and the placement of a race's riders."""

    @classmethod
    def new(
        cls,
        track: Track | str = "avenue-corso-paseo",
        teams: int | Sequence[str] = 4,
        *,
        bots: dict[str, str] | None = None,
        seed: int = 0,
        place: str = "auto",
        handicap: dict[str, int] | None = None,
        history: bool = True,
        single_riders: bool = False,
        kinds: dict[str, str] | None = None,
        peloton: bool = False,
        muscle: int = 0,
        breakaway: bool = False,
    ) -> Self:
        """A race at the start.

        ``teams`` is a count or a list of player team colours (``TEAM_COLOURS``): 1 to 6
        two-rider teams, or with ``single_riders`` 1 to 12 players with one rider each
        (``kinds`` maps a colour to ``"sprinteur"`` or ``"rouleur"``; by default they
        alternate). ``bots`` maps a player colour to a bot name. ``peloton`` adds the
        Peloton bot team and ``muscle`` that many Muscle bot teams (docs/rules.md); they
        place first, at the front of the start area. ``breakaway`` plays the two
        breakaway bids before the first round. A start area too small for everyone is
        extended backwards (docs/rule_decisions.md). ``place="auto"`` places the
        players' riders in a seeded random order; ``place="manual"`` starts in the
        setup phase. ``handicap`` maps a colour to the exhaustion cards shuffled into
        each of its riders' decks (rulebook: handicap variant for experienced players).
        """
        names = _team_names(teams, single_riders)
        bots, handicap, kinds = bots or {}, handicap or {}, kinds or {}
        _check_options(names, muscle, breakaway, bots, handicap, kinds, single_riders)
        team_list, riders = _bot_teams(peloton, muscle)
        for i, name in enumerate(names):
            team, members = _player_team_and_riders(i, name, single_riders, kinds, bots, handicap)
            team_list.append(team)
            riders += members
        race = cls(stage(track).with_start_places(len(riders)), team_list, riders, seed=seed, history=history)
        race.breakaway = breakaway
        race.deal_starting_decks()
        if place == "auto":
            race.place_automatically()
        elif place != "manual":
            raise ValueError(f"place must be 'auto' or 'manual', not {place!r}")
        return race

    @classmethod
    def from_positions(
        cls,
        track: Track | str,
        riders: Sequence[dict[str, Any]],
        *,
        cards: dict[str, Card] | None = None,
        seed: int = 0,
        history: bool = True,
    ) -> Self:
        """A race from a position (lessons and scenarios).

        ``riders``: dicts with ``id``, ``square``, ``lane`` and optional ``team``
        (default: the rider alone), ``team_kind`` (``TeamKind`` value, default
        ``"player"``), ``kind`` (default rouleur) and ``exhaustion`` (default: true for
        a player's rider, false for a bot team's). A Peloton or Muscle team is a bot
        team as in ``Race.new``: its colour, its decks (the Peloton's one deck with its
        Attack! cards), and it flips in the movement phase of later rounds. A player
        team named after a colour of ``TEAM_COLOURS`` has that colour; without
        ``team_kind``, teams named ``peloton`` and ``muscle-1``/``muscle-2`` keep the bot
        teams' colours (files written before ``team_kind``); other teams take the
        unused colours in order. With ``cards`` (every rider's played card) the race
        starts at the movement phase; with ``cards=None`` it starts at the end phase,
        the positions being after movement. The caller checks the position is legal
        (``scenario.build`` does).
        """
        track = stage(track)
        members: dict[str, list[dict[str, Any]]] = {}
        for spec in riders:
            members.setdefault(spec.get("team") or spec["id"], []).append(spec)
        kinds = {team: TeamKind(specs[0].get("team_kind", TeamKind.PLAYER.value)) for team, specs in members.items()}
        spare = iter([c for c in TEAM_COLOURS if c not in members] * (len(members) // len(TEAM_COLOURS) + 1))
        muscle = iter(MUSCLE_COLOURS)
        bot_colours = {"peloton": PELOTON_COLOUR, **{f"muscle-{n + 1}": c for n, c in enumerate(MUSCLE_COLOURS)}}
        colours = {
            team: PELOTON_COLOUR
            if kinds[team] is TeamKind.PELOTON
            else next(muscle)
            if kinds[team] is TeamKind.MUSCLE
            else team
            if team in TEAM_COLOURS
            else bot_colours.get(team) or next(spare)
            for team in members
        }
        teams = [
            Team(
                team,
                tuple(s["id"] for s in specs),
                colours[team],
                kinds[team],
                None if kinds[team] is TeamKind.PLAYER else kinds[team].value,
                0 if kinds[team].flips else card_rules.HAND_SIZE,
            )
            for team, specs in members.items()
        ]
        decks = {team.name: Deck(team.name) for team in teams if team.kind is TeamKind.PELOTON}
        built = [
            Rider(
                spec["id"],
                team,
                RiderKind(spec.get("kind") or ROULEUR),
                colours[team],
                decks.get(team) or Deck(spec["id"]),
                spec["square"],
                spec["lane"],
                takes_exhaustion=spec.get("exhaustion", not kinds[team].flips),
            )
            for team, specs in members.items()
            for spec in specs
        ]
        order = [spec["id"] for spec in riders]
        race = cls(track, teams, sorted(built, key=lambda r: order.index(r.id)), seed=seed, history=history)
        race.deal_starting_decks()
        race.start_at(cards)
        return race

    def deal_starting_decks(self) -> None:
        """Each rider's starting deck, shuffled (``new``, ``from_positions``). WrongPhaseError once the race has
        started (a round begun or a card dealt)."""
        if self.round or any(r.deck.face_down or r.deck.hand for r in self._deck_holders):
            raise WrongPhaseError(_("the starting decks are dealt once, before the race starts"))
        for r in self._deck_holders:
            r.deck.face_down = shuffled(self.rng, _starting_cards(self.teams[r.team], r))

    def start_at(self, cards: dict[str, Card] | None) -> None:
        """Round 1 of a race whose riders stand where they are (``from_positions``): at its movement phase with
        ``cards`` played (revealed), or with none at its end phase. WrongPhaseError once it has started."""
        if self.round or self.phase is not Phase.SETUP:
            raise WrongPhaseError(_("a race starts once"))
        self.round = 1
        if cards is None:
            self.phase = self._after_movement_phase()
        else:
            for rid, card in cards.items():
                self.riders[rid].played = card
            self._reveal()
            self.phase = Phase.MOVEMENT

    def place_automatically(self) -> None:
        """Every rider placed as the automatic setup places them: bot teams at the front (docs/rule_decisions.md),
        then the players' riders in a seeded random order. WrongPhaseError outside the setup or once a rider is
        placed."""
        if self.phase is not Phase.SETUP or any(r.square is not None for r in self.riders.values()):
            raise WrongPhaseError(_("riders are placed automatically only at the start of the setup"))
        bots: list[str] = []
        players: list[str] = []
        for team in self.teams.values():
            (bots if team.kind.flips else players).extend(team.riders)
        self.rng.shuffle(players)
        for rid in bots:
            self.riders[rid].square, self.riders[rid].lane = self.front_spot(rid)
        spots = list(islice(self._free_spots(self.track.start), len(players)))
        if len(spots) < len(players):
            raise PlacementError("the start area is full")  # with_start_places makes room: a bug if reached
        for rid, (square, lane) in zip(players, spots):
            self.riders[rid].square, self.riders[rid].lane = square, lane
        self._setup_done()

    def front_spot(self, rider_id: str) -> tuple[int, int]:
        """The frontmost free lane behind the start line for this rider (a bot team's second rider goes behind
        its first)."""
        rider = self.rider(rider_id)
        team = self.teams[rider.team]
        placed = [self.riders[r].square for r in team.riders if self.riders[r].square is not None]
        limit = min(s for s in placed if s is not None) if team.kind.flips and placed else self.track.start
        for spot in self._free_spots(limit):
            return spot
        raise PlacementError(f"no free lane left behind the start line for {rider_id}")

    def _free_spots(self, below: int) -> Iterator[tuple[int, int]]:
        """Free start lanes in front-to-back order on the squares before ``below``: the right-hand lane first, so
        filling them in this order keeps the setup rule (``_lane_problem``)."""
        occupied = rules.occupancy(self.positions())
        lanes = self.track.lanes
        for square in range(below - 1, -1, -1):
            taken = occupied.get(square, ())
            for lane in range(lanes[square]):
                if lane not in taken:
                    yield square, lane

    def _setup_done(self) -> RoundStarted | BidsStarted:
        """After the last placement: the breakaway bids, or the first round."""
        if self.breakaway:
            self.phase = Phase.BID_1
            return BidsStarted(rules=(rules.BID,), automatic=True)
        return self._start_round()


def _team_names(teams: int | Sequence[str], single_riders: bool) -> list[str]:
    """The player teams' colours ``Race.new`` was given (a count takes the first colours of ``TEAM_COLOURS``)."""
    limit = len(TEAM_COLOURS) if single_riders else PAIR_TEAMS
    if isinstance(teams, int):
        if isinstance(teams, bool) or not 1 <= teams <= limit:
            raise ValueError(f"a race has 1 to {limit} {'single riders' if single_riders else 'teams'}, not {teams}")
        names = list(TEAM_COLOURS[:teams])
    else:
        names = list(teams)
    unknown = [n for n in names if n not in TEAM_COLOURS[:limit]]
    if not 1 <= len(names) <= limit or len(set(names)) != len(names) or unknown:
        raise ValueError(
            f"a race needs 1 to {limit} distinct teams of the colours {', '.join(TEAM_COLOURS[:limit])}; got {names}"
        )
    return names


def _check_options(
    names: list[str],
    muscle: int,
    breakaway: bool,
    bots: dict[str, str],
    handicap: dict[str, int],
    kinds: dict[str, str],
    single_riders: bool,
) -> None:
    """``Race.new``'s options against its teams: a ``ValueError`` that names the first one wrong."""
    if not is_int(muscle) or not 0 <= muscle <= MAX_MUSCLE:
        raise ValueError(f"muscle is the number of Muscle teams, 0 to {MAX_MUSCLE}, not {muscle!r}")
    if breakaway and len(names) < 2:
        raise ValueError("the breakaway needs at least 2 players to bid (bot teams never bid)")
    for name, extra in handicap.items():
        if name not in names or not is_int(extra) or extra < 0:
            raise ValueError(
                f"handicap: {name!r}: {extra!r} is not a number of exhaustion cards for a team "
                f"of this race ({', '.join(names)})"
            )
    for name, kind in kinds.items():
        if name not in names or kind not in RIDER_KINDS or not single_riders:
            raise ValueError(
                f"kinds: {name!r}: {kind!r}; kinds are for single riders of this race, 'sprinteur' or 'rouleur'"
            )
    for name in bots:
        if name not in names:
            raise ValueError(f"bots: {name!r} is not a player team of this race ({', '.join(names)})")


def _bot_teams(peloton: bool, muscle: int) -> tuple[list[Team], list[Rider]]:
    """The Peloton expansion's bot teams and their riders: the Peloton (one deck for both riders), then the
    Muscle teams."""
    teams: list[Team] = []
    riders: list[Rider] = []
    if peloton:
        ids = ("peloton-1", "peloton-2")
        teams.append(Team("peloton", ids, PELOTON_COLOUR, TeamKind.PELOTON, "peloton", 0))
        deck = Deck("peloton")
        riders += [Rider(rid, "peloton", ROULEUR, PELOTON_COLOUR, deck, takes_exhaustion=False) for rid in ids]
    for n in range(muscle):
        name, colour = f"muscle-{n + 1}", MUSCLE_COLOURS[n]
        ids = (f"{name}-S", f"{name}-R")
        teams.append(Team(name, ids, colour, TeamKind.MUSCLE, "muscle", 0))
        riders += [
            Rider(ids[0], name, SPRINTEUR, colour, Deck(ids[0]), takes_exhaustion=False),
            Rider(ids[1], name, ROULEUR, colour, Deck(ids[1]), takes_exhaustion=False),
        ]
    return teams, riders


def _player_team_and_riders(
    i: int, name: str, single_riders: bool, kinds: dict[str, str], bots: dict[str, str], handicap: dict[str, int]
) -> tuple[Team, list[Rider]]:
    """The ``i``-th player's team and riders: a sprinteur and a rouleur, or one rider (single riders alternate
    kinds unless ``kinds`` says)."""
    ids: tuple[str, ...]
    rider_kinds: tuple[RiderKind, ...]
    if single_riders:
        kind = RiderKind(kinds.get(name, (SPRINTEUR, ROULEUR)[i % 2]))
        ids, rider_kinds = (f"{name}-{kind.letter}",), (kind,)
    else:
        ids, rider_kinds = (f"{name}-S", f"{name}-R"), (SPRINTEUR, ROULEUR)
    members = [Rider(rid, name, kind, name, Deck(rid)) for rid, kind in zip(ids, rider_kinds)]
    if name in handicap:
        for rider in members:
            rider.handicap = handicap[name]
    return _player_team(name, ids, bots.get(name), card_rules.HAND_SIZE), members


@functools.lru_cache(maxsize=None)
def _player_team(name: str, riders: tuple[str, ...], controller: str | None, hand_size: int) -> Team:
    """A player's team. Teams are values, so races of the same teams share them (a frozen dataclass is slow to
    build, and simulations build thousands of races). ``hand_size``: ``card_rules.HAND_SIZE``, read when the race
    is made (the words that name it read it there too)."""
    return Team(name, riders, name, controller=controller, hand_size=hand_size)


def _starting_cards(team: Team, rider: Rider) -> list[Card]:
    """The cards a rider's (or the Peloton team's) deck starts with
    (docs/rules.md: Components and data, Peloton team)."""
    if team.kind is TeamKind.PELOTON:
        return starting_deck(ROULEUR) + [ATTACK, ATTACK]
    if team.kind is TeamKind.MUSCLE:
        return starting_deck(rider.kind) + ([MUSCLE] if rider.kind == SPRINTEUR else [])
    cards = starting_deck(rider.kind)
    if rider.handicap:
        cards += [EXHAUSTION] * rider.handicap
    return cards
