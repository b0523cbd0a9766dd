"""A Flamme Rouge race: the state, the phases and the actions (RULES.md section 1).

``Race`` is one point of a playthrough. It is a value: it holds its seeded
``random.Random``, copies with ``copy()``, serializes with ``to_dict()`` /
``from_dict()``, and keeps an undo history. Every action returns the events it
caused; an illegal action raises a ``RuleError`` subclass and changes nothing.

A round: ``draw`` and ``play`` for every rider (energy phase; teams act in any
order, each team finishing one rider before drawing for the next), then
``step`` resolves one automatic step at a time: one rider's move (frontmost
first), then the end phase's three parts (remove played cards, slipstream,
exhaustion). ``Race(..., history=False)`` is the fast path for simulations.

Tutor decisions (also in ``rules``): a move past the last square stops on the
last square; once a rider crosses the finish, that round's end phase is skipped.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from . import rules
from .cards import ATTACK, EXHAUSTION, ROULEUR, SPRINTEUR, Card, shuffled, starting_deck
from .errors import (CardNotInHandError, PlacementError, RiderOrderError, UnknownRiderError,
                     WrongPhaseError)
from .events import (Blocked, CardPlayed, CardsDrawn, CardsRecycled, CardsRemoved, CardsRevealed,
                     Event, ExhaustionTaken, Finished, NoSlipstream, PacksFound, Reshuffled,
                     RiderMoved, RiderPlaced, RoundStarted, Slipstreamed)
from .track import Track, stage

TEAM_COLOURS = ("red", "blue", "green", "black", "white", "pink")
HAND_SIZE = 4


class Phase(enum.Enum):
    SETUP = "setup"
    ENERGY = "energy"
    MOVEMENT = "movement"
    END_CARDS = "end-cards"
    END_SLIPSTREAM = "end-slipstream"
    END_EXHAUSTION = "end-exhaustion"
    FINISHED = "finished"

    @property
    def title(self) -> str:
        return _PHASE_TITLES[self]


_PHASE_TITLES = {
    Phase.SETUP: "Setup: place the riders behind the start line",
    Phase.ENERGY: "Energy phase: draw 4, play 1, recycle 3",
    Phase.MOVEMENT: "Movement phase: frontmost rider first",
    Phase.END_CARDS: "End phase 1: played cards leave the game",
    Phase.END_SLIPSTREAM: "End phase 2: slipstream",
    Phase.END_EXHAUSTION: "End phase 3: exhaustion",
    Phase.FINISHED: "Finished",
}


@dataclass(slots=True)
class Rider:
    id: str
    team: str
    kind: str
    """``"sprinteur"`` or ``"rouleur"``."""
    square: int | None = None
    """None until placed at the start."""
    lane: int = 0
    deck: list[Card] = field(default_factory=list)
    """Face-down cards; the top card is the last one."""
    recycled: list[Card] = field(default_factory=list)
    """Face-up cards at the bottom of the deck, shuffled into a new deck when it runs out."""
    hand: list[Card] = field(default_factory=list)
    played: Card | None = None
    removed: list[Card] = field(default_factory=list)
    """Played cards that left the game."""
    exhaustion: int = 0
    """Exhaustion cards taken so far."""
    takes_exhaustion: bool = True

    @property
    def letter(self) -> str:
        return "S" if self.kind == SPRINTEUR else "R"

    @property
    def position(self) -> tuple[int, int]:
        return (self.square, self.lane)

    def to_dict(self) -> dict:
        return {
            "id": self.id, "team": self.team, "kind": self.kind, "square": self.square, "lane": self.lane,
            "deck": _tokens(self.deck), "recycled": _tokens(self.recycled), "hand": _tokens(self.hand),
            "played": None if self.played is None else str(self.played), "removed": _tokens(self.removed),
            "exhaustion": self.exhaustion, "takes_exhaustion": self.takes_exhaustion,
        }

    @classmethod
    def from_dict(cls, d: dict) -> Rider:
        return cls(d["id"], d["team"], d["kind"], d["square"], d["lane"], _cards(d["deck"]),
                   _cards(d["recycled"]), _cards(d["hand"]),
                   None if d["played"] is None else Card.parse(d["played"]), _cards(d["removed"]),
                   d["exhaustion"], d["takes_exhaustion"])


def _tokens(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def _cards(tokens: Iterable[str]) -> list[Card]:
    return [Card.parse(t) for t in tokens]


@dataclass(frozen=True, slots=True)
class Team:
    name: str
    riders: tuple[str, ...]
    bot: str | None = None
    """None for a human player, else the bot's name (see ``bots``)."""


# Actions, as returned by ``legal_actions`` and accepted by ``apply``.
@dataclass(frozen=True, slots=True)
class Place:
    rider: str
    square: int
    lane: int


@dataclass(frozen=True, slots=True)
class Draw:
    rider: str


@dataclass(frozen=True, slots=True)
class Play:
    rider: str
    card: Card


@dataclass(frozen=True, slots=True)
class Step:
    pass


Action = Place | Draw | Play | Step


class Race:
    """One Flamme Rouge race. Build it with ``Race.new`` or ``Race.from_positions``."""

    def __init__(self, track: Track, teams: Sequence[Team], riders: Sequence[Rider], *, seed: int = 0,
                 history: bool = True):
        self.track = track
        self.teams = {t.name: t for t in teams}
        self.riders = {r.id: r for r in riders}
        self.rng = random.Random(seed)
        self.phase = Phase.SETUP
        self.round = 0
        self.to_move: list[str] = []
        """Riders still to move this movement phase, next first (fixed when the cards are revealed)."""
        self.move_values: dict[str, int] = {}
        """Squares each rider's revealed card moves it (Attack! moves the Peloton's riders 2 and 9)."""
        self.winner: str | None = None
        self.ranking: list[str] = []
        """Riders past the finish line at the end, best first."""
        self._history: list[dict] | None = [] if history else None

    # ----- construction -----------------------------------------------------------------------------

    @classmethod
    def new(cls, track: Track | str = "avenue-corso-paseo", teams: int | Sequence[str] = 4, *,
            bots: dict[str, str] | None = None, seed: int = 0, place: str = "auto",
            handicap: dict[str, int] | None = None, history: bool = True) -> Race:
        """A race of two-rider teams at the start.

        ``teams`` is a count or a list of team colours; ``bots`` maps a colour to a
        bot name. ``place="auto"`` places the riders in a seeded random order from
        the front of the start area; ``place="manual"`` starts in the setup phase.
        ``handicap`` maps a colour to the exhaustion cards shuffled into each of its
        riders' decks (rulebook: handicap variant for experienced players).
        """
        names = list(TEAM_COLOURS[:teams]) if isinstance(teams, int) else list(teams)
        if not 1 <= len(names) <= len(TEAM_COLOURS) or len(set(names)) != len(names):
            raise ValueError(f"a race needs 1 to {len(TEAM_COLOURS)} distinct teams, got {names}")
        bots, handicap = bots or {}, handicap or {}
        for name, extra in handicap.items():
            if name not in names or not isinstance(extra, int) or extra < 0:
                raise ValueError(f"handicap: {name!r}: {extra!r} is not a number of exhaustion cards for a team "
                                 f"of this race ({', '.join(names)})")
        team_list, riders = [], []
        for name in names:
            ids = (f"{name}-S", f"{name}-R")
            team_list.append(Team(name, ids, bots.get(name)))
            riders += [Rider(ids[0], name, SPRINTEUR), Rider(ids[1], name, ROULEUR)]
        race = cls(stage(track), team_list, riders, seed=seed, history=history)
        for r in race.riders.values():
            r.exhaustion = handicap.get(r.team, 0)
            r.deck = shuffled(race.rng, starting_deck(r.kind) + [EXHAUSTION] * r.exhaustion)
        if place == "auto":
            race._auto_place()
        elif place != "manual":
            raise ValueError(f"place must be 'auto' or 'manual', not {place!r}")
        return race

    @classmethod
    def from_positions(cls, track: Track | str, riders: Sequence[dict], *, cards: dict[str, Card] | None = None,
                       seed: int = 0, history: bool = True) -> Race:
        """A race from a position (lessons and scenarios).

        ``riders``: dicts with ``id``, ``square``, ``lane`` and optional ``team``,
        ``kind`` (default from the id: ending in S is a sprinteur) and ``exhaustion``
        (False for bot riders). With ``cards`` (every rider's played card) the race
        starts at the movement phase; with ``cards=None`` it starts at the end phase,
        the positions being after movement. The caller checks the position is legal
        (``scenario.build`` does).
        """
        track = stage(track)
        team_members: dict[str, list[str]] = {}
        built = []
        for spec in riders:
            rid = spec["id"]
            kind = spec.get("kind") or (SPRINTEUR if rid.upper().endswith("S") else ROULEUR)
            team = spec.get("team") or rid
            team_members.setdefault(team, []).append(rid)
            rider = Rider(rid, team, kind, spec["square"], spec["lane"],
                          takes_exhaustion=spec.get("exhaustion", True))
            rider.deck = starting_deck(kind)
            built.append(rider)
        race = cls(track, [Team(t, tuple(ids)) for t, ids in team_members.items()], built, seed=seed,
                   history=history)
        for r in built:
            r.deck = shuffled(race.rng, r.deck)
        race.round = 1
        if cards is None:
            race._after_movement([])
        else:
            for rid, card in cards.items():
                race.riders[rid].played = card
            race._reveal([])
        return race

    def _auto_place(self) -> None:
        order = list(self.riders)
        self.rng.shuffle(order)
        slots = [(s, lane) for s in range(self.track.start - 1, -1, -1) for lane in range(self.track.lanes[s])]
        if len(order) > len(slots):
            raise PlacementError(f"{len(order)} riders do not fit the start area's {len(slots)} lanes")
        for rid, (square, lane) in zip(order, slots):
            self.riders[rid].square, self.riders[rid].lane = square, lane
        self._start_round([])

    # ----- queries ---------------------------------------------------------------------------------------

    def rider(self, rider_id: str) -> Rider:
        try:
            return self.riders[rider_id]
        except KeyError:
            raise UnknownRiderError(f"no rider {rider_id!r} in this race (riders: {', '.join(self.riders)})") from None

    def positions(self) -> dict[str, tuple[int, int]]:
        return {r.id: (r.square, r.lane) for r in self.riders.values() if r.square is not None}

    def team_of(self, rider_id: str) -> Team:
        return self.teams[self.rider(rider_id).team]

    @property
    def placing_team(self) -> Team | None:
        """The team whose turn it is to place riders (setup phase)."""
        for team in self.teams.values():
            if any(self.riders[r].square is None for r in team.riders):
                return team
        return None

    def drawing_rider(self, team: str) -> str | None:
        """The team's rider holding drawn cards, if any (it must play before the team draws again)."""
        for rid in self.teams[team].riders:
            if self.riders[rid].hand:
                return rid
        return None

    def waiting_riders(self) -> list[str]:
        """Riders that have not played a card yet this energy phase."""
        if self.phase is not Phase.ENERGY:
            return []
        return [r.id for r in self.riders.values() if r.played is None]

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.FINISHED

    def legal_actions(self) -> list[Action]:
        """Every action allowed now. Automatic phases offer ``Step()``."""
        if self.phase is Phase.SETUP:
            team = self.placing_team
            free = [(s, lane) for s in range(self.track.start) for lane in range(self.track.lanes[s])
                    if self._placement_problem(s, lane) is None]
            return [Place(r, s, lane) for r in team.riders if self.riders[r].square is None for s, lane in free]
        if self.phase is Phase.ENERGY:
            actions: list[Action] = []
            for team in self.teams.values():
                holder = self.drawing_rider(team.name)
                if holder:
                    actions += [Play(holder, c) for c in dict.fromkeys(self.riders[holder].hand)]
                else:
                    actions += [Draw(r) for r in team.riders if self.riders[r].played is None]
            return actions
        if self.phase is Phase.FINISHED:
            return []
        return [Step()]

    # ----- actions ---------------------------------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        if isinstance(action, Step):
            return self.step()
        if isinstance(action, Draw):
            return self.draw(action.rider)
        if isinstance(action, Play):
            return self.play(action.rider, action.card)
        if isinstance(action, Place):
            return self.place(action.rider, action.square, action.lane)
        raise TypeError(f"not an action: {action!r}")

    def place(self, rider_id: str, square: int, lane: int) -> list[Event]:
        """Setup: put a rider on a free lane behind the start line (players in turn, both riders each)."""
        self._require(Phase.SETUP, "place riders")
        rider = self.rider(rider_id)
        team = self.placing_team
        if rider.square is not None:
            raise PlacementError(f"{rider_id} is already placed on square {rider.square}")
        if rider.team != team.name:
            raise PlacementError(f"it is {team.name}'s turn to place riders, not {rider.team}'s")
        problem = self._placement_problem(square, lane)
        if problem:
            raise PlacementError(f"{rider_id} cannot go to square {square}, lane {lane}: {problem}")
        self._save()
        rider.square, rider.lane = square, lane
        events: list[Event] = [RiderPlaced(
            "Setup: riders start in free lanes behind the start line, the right-hand lane first on an empty square",
            rider_id, (square, lane))]
        if self.placing_team is None:
            self._start_round(events)
        return events

    def draw(self, rider_id: str) -> list[Event]:
        """Energy phase: draw 4 cards from the rider's deck (fewer if it has fewer; an exhaustion card if none)."""
        self._require(Phase.ENERGY, "draw cards")
        rider = self.rider(rider_id)
        if rider.played is not None:
            raise RiderOrderError(f"{rider_id} has already played a card this round")
        if rider.hand:
            raise RiderOrderError(f"{rider_id} has already drawn: play one of {_tokens(rider.hand)}")
        holder = self.drawing_rider(rider.team)
        if holder:
            raise RiderOrderError(
                f"play a card for {holder} before drawing for {rider_id}: you may not draw for your second rider "
                "before playing for the first (rulebook, Energy Phase)")
        self._save()
        return self._draw(rider)

    def _draw(self, rider: Rider) -> list[Event]:
        exhaustion = rider.exhaustion
        reshuffled = self._deal(rider)
        events: list[Event] = []
        if reshuffled:
            events.append(Reshuffled(
                "Energy phase: when the face-down deck runs out, the recycled cards are shuffled into a new deck",
                rider.id, reshuffled))
        if rider.exhaustion > exhaustion:
            reason = "Energy phase: a rider with no cards left plays an exhaustion card (value 2)"
        elif len(rider.hand) < HAND_SIZE:
            reason = "Energy phase: with fewer than 4 cards left, the rider draws them all"
        else:
            reason = "Energy phase: draw 4 cards from the rider's energy deck"
        events.append(CardsDrawn(reason, rider.id, tuple(rider.hand)))
        return events

    def _deal(self, rider: Rider) -> int:
        """Draw the rider's hand; return the size of the deck reshuffled from recycled cards (0: none)."""
        deck = rider.deck
        hand = deck[:-HAND_SIZE - 1:-1]  # the top card (last) first
        del deck[-HAND_SIZE:]
        reshuffled = 0
        if len(hand) < HAND_SIZE and rider.recycled:
            deck = rider.deck = shuffled(self.rng, rider.recycled)
            rider.recycled = []
            reshuffled = len(deck)
            need = HAND_SIZE - len(hand)
            hand += deck[:-need - 1:-1]
            del deck[-need:]
        if not hand:
            hand = [EXHAUSTION]
            rider.exhaustion += 1
        rider.hand = hand
        return reshuffled

    def play(self, rider_id: str, card: Card | int) -> list[Event]:
        """Energy phase: play one drawn card face down; the others are recycled face up under the deck."""
        self._require(Phase.ENERGY, "play a card")
        rider = self.rider(rider_id)
        if not rider.hand:
            what = "has already played this round" if rider.played is not None else "has not drawn cards yet"
            raise CardNotInHandError(f"{rider_id} {what}")
        chosen = self._find(rider, card)
        self._save()
        return self._play(rider, chosen)

    def _find(self, rider: Rider, card: Card | int) -> Card:
        if isinstance(card, Card):
            if card in rider.hand:
                return card
        else:
            matches = [c for c in rider.hand if c.value == card]
            if matches:
                return min(matches, key=lambda c: not c.is_exhaustion)  # same move; shed exhaustion first
        raise CardNotInHandError(f"{rider.id} has no {card} in hand; the drawn cards are {_tokens(rider.hand)}")

    def _play(self, rider: Rider, card: Card) -> list[Event]:
        hand = rider.hand
        hand.remove(card)
        rider.played = card
        rider.recycled.extend(hand)
        recycled = tuple(hand)
        rider.hand = []
        events: list[Event] = [
            CardPlayed("Energy phase: the chosen card is played face down", rider.id, card),
            CardsRecycled("Energy phase: the other cards are recycled face up at the bottom of the deck",
                          rider.id, recycled)]
        if all(r.played is not None for r in self.riders.values()):
            self._reveal(events)
        return events

    def step(self) -> list[Event]:
        """Resolve the next automatic step: one rider's move, or one part of the end phase."""
        phase = self.phase
        if phase in (Phase.SETUP, Phase.ENERGY):
            waiting = self.waiting_riders() if phase is Phase.ENERGY else []
            detail = f"{', '.join(waiting)} still to play a card" if waiting else "riders still to place"
            raise WrongPhaseError(f"nothing to resolve yet in the {phase.value} phase: {detail}")
        if phase is Phase.FINISHED:
            raise WrongPhaseError(f"the race is over: {self.winner} won")
        self._save()
        events: list[Event] = []
        if phase is Phase.MOVEMENT:
            self._move(self.to_move.pop(0), events)
            if not self.to_move:
                self.move_values = {}
                self._after_movement(events)
        elif phase is Phase.END_CARDS:
            cards = {}
            for r in self.riders.values():
                if r.played is not None:
                    r.removed.append(r.played)
                    cards[r.id] = r.played
                    r.played = None
            events.append(CardsRemoved("End phase: played cards leave the game; each card is used once", cards))
            self.phase = Phase.END_SLIPSTREAM
        elif phase is Phase.END_SLIPSTREAM:
            self._slipstream(events)
            self.phase = Phase.END_EXHAUSTION
        else:
            self._exhaustion(events)
            self._start_round(events)
        return events

    def finish_round(self) -> list[Event]:
        """Step until the next energy phase (or the finish). Energy cards must all be played."""
        events = self.step()
        while self.phase not in (Phase.ENERGY, Phase.FINISHED):
            events += self.step()
        return events

    def play_round(self, choose: Callable[[Race, str], Card]) -> None:
        """Fast path for simulations: a whole round, every rider's card picked by ``choose(race, rider_id)``.

        Same rules, same random draws and same result as ``draw``/``play``/``step``
        (the tests check this), but no events, no undo history and no checks: call it
        at the start of an energy phase with a ``choose`` that returns a card from the
        rider's hand. Ends in the next energy phase, or finished.
        """
        if self.phase is not Phase.ENERGY:
            raise WrongPhaseError(f"play_round needs the energy phase, not the {self.phase.value} phase")
        attack = False
        for rider in self.riders.values():
            deck = rider.deck
            if len(deck) > HAND_SIZE:  # the usual case of _deal, inlined for speed
                rider.hand = deck[:-HAND_SIZE - 1:-1]
                del deck[-HAND_SIZE:]
            else:
                self._deal(rider)
            card = choose(self, rider.id)
            hand = rider.hand
            hand.remove(card)
            rider.played = card
            attack = attack or card is ATTACK
            rider.recycled += hand
            rider.hand = []
        riders, track = self.riders, self.track
        positions = {r.id: (r.square, r.lane) for r in riders.values()}
        if attack:
            self._reveal([])
            order, values = self.to_move, self.move_values
        else:
            order = rules.movement_order(positions)
            values = {rid: riders[rid].played.value for rid in order}
        occupied = rules.occupancy(positions)
        move_distance, destination = rules.move_distance, rules.destination
        for rid in order:
            rider = riders[rid]
            start = rider.square
            distance, _ = move_distance(track, start, values[rid])
            occupied[start].remove(rider.lane)
            square, lane, _ = destination(track, occupied, start, distance)
            if lane is not None:
                rider.square, rider.lane = positions[rid] = square, lane
            occupied.setdefault(rider.square, []).append(rider.lane)
        self.to_move, self.move_values = [], {}
        self.phase = Phase.ENERGY
        finish = track.finish
        if finish is not None and max(positions.values())[0] >= finish:
            self._after_movement([])
            return
        for rider in riders.values():
            rider.removed.append(rider.played)
            rider.played = None
        if rules.slipstream(track, positions):
            for rid, (square, lane) in positions.items():
                rider = riders[rid]
                rider.square, rider.lane = square, lane
        for rid in rules.exhausted(track, positions):
            rider = riders[rid]
            if rider.takes_exhaustion:
                rider.recycled.append(EXHAUSTION)
                rider.exhaustion += 1
        self.round += 1

    # ----- phase internals -------------------------------------------------------------------------------

    def _start_round(self, events: list[Event]) -> None:
        self.round += 1
        self.phase = Phase.ENERGY
        events.append(RoundStarted(
            "A new round: each player draws 4 and plays 1 for one rider, then the same for the other", self.round))

    def _reveal(self, events: list[Event]) -> None:
        positions = self.positions()
        self.to_move = rules.movement_order(positions)
        self.move_values = {r.id: r.played.value for r in self.riders.values()}
        attackers = [rid for rid in self.to_move if self.riders[rid].played is ATTACK]
        for team in {self.riders[rid].team for rid in attackers}:
            front, *back = [rid for rid in attackers if self.riders[rid].team == team]
            self.move_values[front] = rules.ATTACK_FRONT
            self.move_values.update((rid, rules.ATTACK_BACK) for rid in back)
        self.phase = Phase.MOVEMENT
        events.append(CardsRevealed(
            "Movement phase: all played cards are revealed; riders move frontmost first, the right-hand lane "
            "ahead on a shared square", {r.id: r.played for r in self.riders.values()}, tuple(self.to_move)))

    def _move(self, rider_id: str, events: list[Event]) -> None:
        rider = self.riders[rider_id]
        start = (rider.square, rider.lane)
        value = self.move_values[rider_id]
        distance, terrain_rule = rules.move_distance(self.track, rider.square, value)
        occupied = rules.occupancy({r.id: (r.square, r.lane) for r in self.riders.values() if r.id != rider_id})
        square, lane, full = rules.destination(self.track, occupied, rider.square, distance)
        if lane is None:
            lane = rider.lane
        target = rider.square + distance
        reasons = [rules.R_MOVE]
        if terrain_rule:
            reasons.append(terrain_rule)
        if target > self.track.last:
            reasons.append(rules.R_CUT)
            target = self.track.last
        if not full and square == target and lane == 0 and not occupied.get(square):
            reasons.append(rules.R_EMPTY_SQUARE)
        rider.square, rider.lane = square, lane
        events.append(RiderMoved("; ".join(reasons), rider_id, rider.played, distance, start, (square, lane)))
        if full:
            where = "stays where it was" if square == start[0] else f"stops on square {square}"
            events.append(Blocked(
                f"{rules.R_FULL_SQUARE}: square{'s' if len(full) > 1 else ''} "
                f"{', '.join(map(str, full))} full, so it {where}", rider_id, target, tuple(full), (square, lane)))

    def _after_movement(self, events: list[Event]) -> None:
        finish = self.track.finish
        if finish is not None:
            ranking = rules.ranking_past(finish, self.positions())
            if ranking:
                self.ranking = ranking
                self.winner = ranking[0]
                self.phase = Phase.FINISHED
                events.append(Finished(f"{rules.R_FINISH}; the end phase of this round is skipped (tutor decision)",
                                       ranking[0], tuple(ranking)))
                return
        self.phase = Phase.END_CARDS if any(r.played for r in self.riders.values()) else Phase.END_SLIPSTREAM

    def _slipstream(self, events: list[Event]) -> None:
        positions = self.positions()
        events.append(PacksFound(
            "End phase, slipstream: a pack is a run of riders with no empty square between them",
            tuple(rules.packs(s for s, _ in positions.values()))))
        for pack, outcome in rules.slipstream(self.track, positions):
            if isinstance(outcome, str):
                events.append(NoSlipstream(f"No slipstream for this pack: {outcome}", pack))
            else:
                events.append(Slipstreamed(rules.R_SLIPSTREAM, outcome, pack))
        for rid, (square, lane) in positions.items():
            rider = self.riders[rid]
            rider.square, rider.lane = square, lane

    def _exhaustion(self, events: list[Event]) -> None:
        for rid in rules.exhausted(self.track, self.positions()):
            rider = self.riders[rid]
            if rider.takes_exhaustion:
                rider.recycled.append(EXHAUSTION)
                rider.exhaustion += 1
                events.append(ExhaustionTaken(rules.R_EXHAUSTION, rid, rider.square))

    def _require(self, phase: Phase, what: str) -> None:
        if self.phase is not phase:
            raise WrongPhaseError(f"cannot {what} now: it is the {self.phase.title.split(':')[0].lower()}"
                                  f"{', the race is over' if self.phase is Phase.FINISHED else ''}")

    def _placement_problem(self, square: int, lane: int) -> str | None:
        if not 0 <= square < self.track.start:
            return f"the start area is squares 0 to {self.track.start - 1}"
        if not 0 <= lane < self.track.lanes[square]:
            return f"square {square} has {self.track.lanes[square]} lane(s)"
        taken = [r.lane for r in self.riders.values() if r.square == square]
        if lane in taken:
            return "that lane is taken"
        if lane != 0 and not taken:
            return "on an empty square a rider takes the right-hand lane (lane 0)"
        return None

    # ----- value semantics: undo, copy, JSON -------------------------------------------------------------

    def _save(self) -> None:
        if self._history is not None:
            self._history.append(self.to_dict(history=False))

    @property
    def can_undo(self) -> bool:
        return bool(self._history)

    def undo(self) -> None:
        """Restore the state before the last action."""
        if not self._history:
            raise WrongPhaseError("nothing to undo")
        self._load(self._history.pop())

    def copy(self) -> Race:
        return Race.from_dict(self.to_dict())

    def to_dict(self, history: bool = True) -> dict:
        version, internal, gauss = self.rng.getstate()
        data = {
            "track": self.track.to_dict(),
            "teams": [{"name": t.name, "riders": list(t.riders), "bot": t.bot} for t in self.teams.values()],
            "riders": [r.to_dict() for r in self.riders.values()],
            "phase": self.phase.value,
            "round": self.round,
            "to_move": list(self.to_move),
            "move_values": dict(self.move_values),
            "winner": self.winner,
            "ranking": list(self.ranking),
            "rng": [version, list(internal), gauss],
        }
        if history:
            data["history"] = None if self._history is None else list(self._history)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> Race:
        race = cls(Track.from_dict(data["track"]),
                   [Team(t["name"], tuple(t["riders"]), t["bot"]) for t in data["teams"]], [],
                   history=data.get("history") is not None)
        race._load(data)
        if data.get("history"):
            race._history = list(data["history"])
        return race

    def _load(self, data: dict) -> None:
        self.riders = {d["id"]: Rider.from_dict(d) for d in data["riders"]}
        self.phase = Phase(data["phase"])
        self.round = data["round"]
        self.to_move = list(data["to_move"])
        self.move_values = dict(data["move_values"])
        self.winner = data["winner"]
        self.ranking = list(data["ranking"])
        version, internal, gauss = data["rng"]
        self.rng.setstate((version, tuple(internal), gauss))

    def __repr__(self) -> str:
        return f"<Race {self.track.name or 'track'} round {self.round} {self.phase.value} riders={len(self.riders)}>"
