"""A Flamme Rouge race: the state, the phases and the actions (RULES.md section 1).

``Race`` is one point of a playthrough (a ``tutor.core.SeededState``): it holds its
seeded ``random.Random`` (shuffles) and a second one for bots (``bot_rng``, so a bot's
choice never shifts a later shuffle), copies with ``copy()``, serializes with
``to_dict()`` / ``from_dict()`` and keeps an undo history. Every action returns the
events it caused; an illegal action raises a ``RuleError`` subclass and changes nothing.

A round: ``draw`` and ``play`` for every rider (energy phase; teams act in any order,
each team finishing one rider before drawing for the next), then ``step`` resolves one
automatic step at a time, through the handlers of ``PHASE_STEPS``: one rider's move
(frontmost first), then the end phase's three parts (remove played cards, slipstream,
exhaustion). ``resolve(through)`` steps to the end of a phase; ``play_round`` (and
``play_rounds``, to the finish) is the fast path for simulations and calls the same phase
functions (``_deal``, ``_play``, ``_reveal``, ``_ride``, ``_check_finish``,
``_remove_played``, ``_slipstream``, ``_exhaustion``) without events or history. On that
path, which simulations run millions of times, loops stand where comprehensions would
read better: in Python 3.11 a comprehension is a function call.

Identity is data: a ``Rider`` has a kind (sprinteur or rouleur), a team and a colour; a
``Team`` has a kind (a player's team, or later the Peloton and Muscle bot teams) and,
separately, a controller (None for a person, else a bot policy). Cards live in ``Deck``
objects owned by a rider (or, in the Peloton expansion, by a team).

Tutor decisions (RULES.md; also in ``rules``, where each is a ``Rule`` with ``decision=True``):
- a move past the last square stops on the last square; once a rider crosses the
  finish, that round's end phase is skipped (section 1);
- Peloton expansion (section 2, "Tutor decisions for the expansion"): the Peloton and
  Muscle teams place first, at the front of the start area, a team's second rider
  behind its first; a start area too small for everyone extends backwards by squares
  of the start's width; the breakaway takes the top bidder with 2-4 bidders and the
  top two with 5-12, ties going to the rider further back on the grid
  (``breakaway``); breakaway riders start on the first squares past the start line,
  the best bid frontmost, right lane first; an empty bot deck is refilled by
  shuffling its played cards; Attack! values are the card's own, so the descent and
  supply minimums apply to the rider moving 2 and the ascent limit to the one moving 9.
"""

from __future__ import annotations

import enum
import functools
import random
from itertools import islice
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Sequence

from tutor.core.data import is_int
from tutor.core.events import Rule
from tutor.core.state import SeededState, rng_state, set_rng_state

from . import rules
from .rules import destination, move_distance
from . import breakaway as breakaway_bids
from .cards import (ATTACK, EXHAUSTION, MUSCLE, RIDER_KINDS, ROULEUR, SPRINTEUR, Card, RiderKind, shuffled,
                    starting_deck)
from .errors import (CardNotInHandError, PlacementError, RiderOrderError, UnknownRiderError,
                     WrongPhaseError)
from .events import (BidsRevealed, BidsStarted, Blocked, BotDeckRefilled, BotTeamsFlip, BreakawayCost,
                     BreakawayDecided, BreakawayStart, CardBid, CardPlayed, CardsDrawn,
                     CardsFlipped, CardsRecycled, CardsRemoved, CardsRevealed, DecksReshuffled, Event,
                     ExhaustionChecked, ExhaustionTaken, Finished, Flip, NoSlipstream, PacksFound, Reshuffled,
                     RiderMoved, RiderPlaced, RoundStarted, Slipstreamed)
from .track import Track, stage

TEAM_COLOURS = ("red", "blue", "green", "black", "white", "pink",
                "yellow", "orange", "purple", "teal", "brown", "grey")
"""Player team colours in the order ``Race.new`` uses them: the six of the game, then six more for up to 12
single riders (the renderer adds a team mark so that they are told apart without colour)."""
PAIR_TEAMS = 6
"""Two-rider teams: 4 colours in the base game, 6 with the expansion."""
PELOTON_COLOUR = "silver"
MUSCLE_COLOURS = ("gold", "bronze")
"""Colours of the Peloton team and of the (at most two) Muscle teams."""
MAX_MUSCLE = 2
HAND_SIZE = 4
"""Cards a player's rider draws in the energy phase (``Team.hand_size``)."""
BREAKAWAY_EXHAUSTION = 2
"""Exhaustion cards each breakaway rider takes for its head start (Peloton expansion)."""
BOT_SEED_SALT = 0x5EED
"""``bot_rng`` is seeded with ``seed ^ BOT_SEED_SALT``: its own stream, replayable from the race's seed."""


class Phase(enum.Enum):
    SETUP = "setup"
    BID_1 = "bid-1"
    BID_2 = "bid-2"
    BREAKAWAY = "breakaway"
    ENERGY = "energy"
    FLIP = "flip"
    MOVEMENT = "movement"
    END_CARDS = "end-cards"
    END_SLIPSTREAM = "end-slipstream"
    END_EXHAUSTION = "end-exhaustion"
    FINISHED = "finished"

    @property
    def title(self) -> str:
        return _PHASE_TITLES[self]

    @property
    def name_in_words(self) -> str:
        """``"energy phase"``: the phase's name inside a sentence."""
        return _PHASE_NAMES[self]

    @property
    def automatic(self) -> bool:
        """Resolved by ``step()``, with no choice to make."""
        return self in PHASE_STEPS

    @property
    def choosing(self) -> bool:
        """Players draw and play a card (the energy phase and the two breakaway bids)."""
        return self in (Phase.ENERGY, Phase.BID_1, Phase.BID_2)


_PHASE_TITLES = {
    Phase.SETUP: "Setup: place the riders behind the start line",
    Phase.BID_1: "Breakaway, first bid: draw 4, bid 1 face down, recycle 3",
    Phase.BID_2: "Breakaway, second bid: draw 4, bid 1 face down, recycle 3",
    Phase.BREAKAWAY: "Breakaway: the highest bids join the breakaway",
    Phase.ENERGY: "Energy phase: draw 4, play 1, recycle 3",
    Phase.FLIP: "Movement phase: the bot teams flip their cards",
    Phase.MOVEMENT: "Movement phase: frontmost rider first",
    Phase.END_CARDS: "End phase 1: played cards leave the game",
    Phase.END_SLIPSTREAM: "End phase 2: slipstream",
    Phase.END_EXHAUSTION: "End phase 3: exhaustion",
    Phase.FINISHED: "Finished",
}
_PHASE_NAMES = {
    Phase.SETUP: "setup",
    Phase.BID_1: "breakaway, first bid",
    Phase.BID_2: "breakaway, second bid",
    Phase.BREAKAWAY: "breakaway",
    Phase.ENERGY: "energy phase",
    Phase.FLIP: "movement phase",
    Phase.MOVEMENT: "movement phase",
    Phase.END_CARDS: "end phase 1",
    Phase.END_SLIPSTREAM: "end phase 2",
    Phase.END_EXHAUSTION: "end phase 3",
    Phase.FINISHED: "finished",
}

ROUND_ORDER = (Phase.ENERGY, Phase.FLIP, Phase.MOVEMENT, Phase.END_CARDS, Phase.END_SLIPSTREAM,
               Phase.END_EXHAUSTION)
"""The phases of a round, in order. Before the first round: setup, then (breakaway variant) the two bids and
the breakaway."""


class TeamKind(enum.Enum):
    PLAYER = "player"
    """A player's team: a sprinteur and a rouleur (or one rider in the single-rider game)."""
    PELOTON = "peloton"
    """Bot team (Peloton expansion): one Rouleur deck plus two Attack! cards, owned by the team; one flipped
    card moves both riders."""
    MUSCLE = "muscle"
    """Bot team (Peloton expansion): both decks of its colour plus a Muscle card (5) in the sprinteur's; flips
    one card for each rider."""

    @property
    def flips(self) -> bool:
        """A bot team that flips cards in the movement phase (never bids, never takes exhaustion)."""
        return self is not TeamKind.PLAYER


@dataclass(slots=True, init=False)
class Deck:
    """A rider's (or a bot team's) energy cards, by where they are."""

    owner: str
    face_down: list[Card]
    """The top card is the last one."""
    recycled: list[Card]
    """Face-up cards at the bottom of the deck, shuffled into a new deck when it runs out."""
    hand: list[Card]
    removed: list[Card]
    """Played cards that left the game."""

    def __init__(self, owner: str, face_down: list[Card] | None = None, recycled: list[Card] | None = None,
                 hand: list[Card] | None = None, removed: list[Card] | None = None):
        # Written out: the dataclass's default factories are four calls of list(), and races build many decks.
        self.owner = owner
        self.face_down = [] if face_down is None else face_down
        self.recycled = [] if recycled is None else recycled
        self.hand = [] if hand is None else hand
        self.removed = [] if removed is None else removed

    def cards(self) -> list[Card]:
        """Every card the deck still holds (face down, recycled, hand)."""
        return self.face_down + self.recycled + self.hand

    def to_dict(self) -> dict[str, Any]:
        return {"owner": self.owner, "face_down": _tokens(self.face_down), "recycled": _tokens(self.recycled),
                "hand": _tokens(self.hand), "removed": _tokens(self.removed)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Deck:
        return cls(d["owner"], _cards(d["face_down"]), _cards(d["recycled"]), _cards(d["hand"]),
                   _cards(d["removed"]))


@dataclass(slots=True)
class Rider:
    id: str
    team: str
    kind: RiderKind
    colour: str
    """The team's colour name (see ``TEAM_COLOURS``)."""
    deck: Deck
    square: int | None = None
    """None until placed at the start."""
    lane: int = 0
    played: Card | None = None
    exhaustion: int = 0
    """Exhaustion cards taken during the race (breakaway and end phases)."""
    takes_exhaustion: bool = True
    handicap: int = 0
    """Exhaustion cards put in its deck before the race (handicap variant)."""
    bids: list[Card] = field(default_factory=list)
    """Breakaway bid cards, face down until the bid is over."""

    @property
    def hand(self) -> list[Card]:
        return self.deck.hand

    @property
    def recycled(self) -> list[Card]:
        return self.deck.recycled

    @property
    def removed(self) -> list[Card]:
        return self.deck.removed

    @property
    def letter(self) -> str:
        return self.kind.letter

    @property
    def position(self) -> tuple[int, int]:
        assert self.square is not None, f"{self.id} is not placed"
        return (self.square, self.lane)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "team": self.team, "kind": self.kind.value, "colour": self.colour,
                "deck": self.deck.owner,
                "square": self.square, "lane": self.lane, "played": None if self.played is None else str(self.played),
                "exhaustion": self.exhaustion, "takes_exhaustion": self.takes_exhaustion,
                "handicap": self.handicap, "bids": _tokens(self.bids)}


def _tokens(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def _cards(tokens: Iterable[str]) -> list[Card]:
    return [Card.parse(t) for t in tokens]


@dataclass(frozen=True, slots=True)
class Team:
    name: str
    riders: tuple[str, ...]
    colour: str = ""
    kind: TeamKind = TeamKind.PLAYER
    controller: str | None = None
    """None for a person, else the bot policy's name (see ``bots``)."""
    hand_size: int = HAND_SIZE

    @property
    def bot(self) -> str | None:
        return self.controller

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "riders": list(self.riders), "colour": self.colour, "kind": self.kind.value,
                "controller": self.controller, "hand_size": self.hand_size}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Team:
        return cls(d["name"], tuple(d["riders"]), d["colour"], TeamKind(d["kind"]), d["controller"], d["hand_size"])


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


@dataclass(frozen=True, slots=True)
class Move:
    """What ``Race._move`` did to one rider."""

    frm: tuple[int, int]
    """(square, lane) before the move."""
    to: tuple[int, int]
    """(square, lane) after it."""
    distance: int
    """Squares the card allowed after terrain limits (before any blocking)."""
    terrain: Rule | None
    """The terrain rule that changed the card's value (None: it counted as it is)."""
    full: tuple[int, ...]
    """Full squares the rider fell back over, frontmost first."""


class Race(SeededState):
    """One Flamme Rouge race. Build it with ``Race.new`` or ``Race.from_positions``."""

    def __init__(self, track: Track, teams: Sequence[Team], riders: Sequence[Rider], *, seed: int = 0,
                 history: bool = True):
        super().__init__(seed, history)
        self.bot_rng = random.Random(seed ^ BOT_SEED_SALT)
        self.track = track
        self.teams = {t.name: t for t in teams}
        self.riders = {r.id: r for r in riders}
        self._index_riders()
        self.phase = Phase.SETUP
        self.round = 0
        self.to_move: list[str] = []
        """Riders still to move this movement phase, next first (fixed when the cards are revealed)."""
        self.move_values: dict[str, int] = {}
        """Squares each rider's revealed card moves it (Attack! moves the Peloton's riders 2 and 9)."""
        self.winner: str | None = None
        self.ranking: list[str] = []
        """Riders past the finish line at the end, best first."""
        self.breakaway = False
        """Play the breakaway bids (Peloton expansion) between the setup and the first round."""

    def _index_riders(self) -> None:
        """Riders that draw and play (player teams), and whether bot teams flip: looked up every round."""
        self._choosers: list[Rider] = []
        self._hand_sizes: dict[str, int] = {}
        self._deck_holders: list[Rider] = []
        """The first rider of each deck, in rider order (the Peloton's two riders share one deck)."""
        self._deck_sharers: list[Rider] = []
        decks: set[str] = set()
        for r in self.riders.values():
            team = self.teams[r.team]
            if team.kind is TeamKind.PLAYER:
                self._choosers.append(r)
                self._hand_sizes[r.id] = team.hand_size
            if r.deck.owner in decks:
                self._deck_sharers.append(r)
            else:
                decks.add(r.deck.owner)
                self._deck_holders.append(r)
        self._flippers = len(self._choosers) < len(self.riders)

    # ----- construction -----------------------------------------------------------------------------

    @classmethod
    def new(cls, track: Track | str = "avenue-corso-paseo", teams: int | Sequence[str] = 4, *,
            bots: dict[str, str] | None = None, seed: int = 0, place: str = "auto",
            handicap: dict[str, int] | None = None, history: bool = True, single_riders: bool = False,
            kinds: dict[str, str] | None = None, peloton: bool = False, muscle: int = 0,
            breakaway: bool = False) -> Race:
        """A race at the start.

        ``teams`` is a count or a list of player team colours (``TEAM_COLOURS``): 1 to 6
        two-rider teams, or with ``single_riders`` 1 to 12 players with one rider each
        (``kinds`` maps a colour to ``"sprinteur"`` or ``"rouleur"``; by default they
        alternate). ``bots`` maps a player colour to a bot name. ``peloton`` adds the
        Peloton bot team and ``muscle`` that many Muscle bot teams (RULES.md 2); they
        place first, at the front of the start area. ``breakaway`` plays the two
        breakaway bids before the first round. A start area too small for everyone is
        extended backwards (RULES.md 2, tutor decision). ``place="auto"`` places the
        players' riders in a seeded random order; ``place="manual"`` starts in the
        setup phase. ``handicap`` maps a colour to the exhaustion cards shuffled into
        each of its riders' decks (rulebook: handicap variant for experienced players).
        """
        limit = len(TEAM_COLOURS) if single_riders else PAIR_TEAMS
        if isinstance(teams, int):
            if isinstance(teams, bool) or not 1 <= teams <= limit:
                raise ValueError(f"a race has 1 to {limit} {'single riders' if single_riders else 'teams'}, "
                                 f"not {teams}")
            names = list(TEAM_COLOURS[:teams])
        else:
            names = list(teams)
        unknown = [n for n in names if n not in TEAM_COLOURS[:limit]]
        if not 1 <= len(names) <= limit or len(set(names)) != len(names) or unknown:
            raise ValueError(f"a race needs 1 to {limit} distinct teams of the colours "
                             f"{', '.join(TEAM_COLOURS[:limit])}; got {names}")
        if not is_int(muscle) or not 0 <= muscle <= MAX_MUSCLE:
            raise ValueError(f"muscle is the number of Muscle teams, 0 to {MAX_MUSCLE}, not {muscle!r}")
        if breakaway and len(names) < 2:
            raise ValueError("the breakaway needs at least 2 players to bid (bot teams never bid)")
        bots, handicap, kinds = bots or {}, handicap or {}, kinds or {}
        for name, extra in handicap.items():
            if name not in names or not is_int(extra) or extra < 0:
                raise ValueError(f"handicap: {name!r}: {extra!r} is not a number of exhaustion cards for a team "
                                 f"of this race ({', '.join(names)})")
        for name, kind in kinds.items():
            if name not in names or kind not in RIDER_KINDS or not single_riders:
                raise ValueError(f"kinds: {name!r}: {kind!r}; kinds are for single riders of this race, "
                                 "'sprinteur' or 'rouleur'")
        for name in bots:
            if name not in names:
                raise ValueError(f"bots: {name!r} is not a player team of this race ({', '.join(names)})")
        team_list: list[Team] = []
        riders: list[Rider] = []
        ids: tuple[str, ...]
        if peloton:
            ids = ("peloton-1", "peloton-2")
            team_list.append(Team("peloton", ids, PELOTON_COLOUR, TeamKind.PELOTON, "peloton", 0))
            deck = Deck("peloton")
            riders += [Rider(rid, "peloton", ROULEUR, PELOTON_COLOUR, deck, takes_exhaustion=False)
                       for rid in ids]
        for n in range(muscle):
            name, colour = f"muscle-{n + 1}", MUSCLE_COLOURS[n]
            ids = (f"{name}-S", f"{name}-R")
            team_list.append(Team(name, ids, colour, TeamKind.MUSCLE, "muscle", 0))
            riders += [Rider(ids[0], name, SPRINTEUR, colour, Deck(ids[0]), takes_exhaustion=False),
                       Rider(ids[1], name, ROULEUR, colour, Deck(ids[1]), takes_exhaustion=False)]
        rider_kinds: tuple[RiderKind, ...]
        for i, name in enumerate(names):
            if single_riders:
                kind = RiderKind(kinds.get(name, (SPRINTEUR, ROULEUR)[i % 2]))
                ids, rider_kinds = (f"{name}-{kind.letter}",), (kind,)
            else:
                ids, rider_kinds = (f"{name}-S", f"{name}-R"), (SPRINTEUR, ROULEUR)
            team_list.append(_player_team(name, ids, bots.get(name)))
            members = [Rider(rid, name, kind, name, Deck(rid)) for rid, kind in zip(ids, rider_kinds)]
            if name in handicap:
                for rider in members:
                    rider.handicap = handicap[name]
            riders += members
        race = cls(stage(track).with_start_places(len(riders)), team_list, riders, seed=seed, history=history)
        race.breakaway = breakaway
        race._shuffle_starting_decks()
        if place == "auto":
            race._auto_place()
        elif place != "manual":
            raise ValueError(f"place must be 'auto' or 'manual', not {place!r}")
        return race

    @classmethod
    def from_positions(cls, track: Track | str, riders: Sequence[dict[str, Any]], *,
                       cards: dict[str, Card] | None = None,
                       seed: int = 0, history: bool = True) -> Race:
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
        colours = {team: PELOTON_COLOUR if kinds[team] is TeamKind.PELOTON else next(muscle)
                   if kinds[team] is TeamKind.MUSCLE else team if team in TEAM_COLOURS
                   else bot_colours.get(team) or next(spare) for team in members}
        teams = [Team(team, tuple(s["id"] for s in specs), colours[team], kinds[team],
                      None if kinds[team] is TeamKind.PLAYER else kinds[team].value,
                      0 if kinds[team].flips else HAND_SIZE) for team, specs in members.items()]
        decks = {team.name: Deck(team.name) for team in teams if team.kind is TeamKind.PELOTON}
        built = [Rider(spec["id"], team, RiderKind(spec.get("kind") or ROULEUR), colours[team],
                       decks.get(team) or Deck(spec["id"]), spec["square"], spec["lane"],
                       takes_exhaustion=spec.get("exhaustion", not kinds[team].flips))
                 for team, specs in members.items() for spec in specs]
        order = [spec["id"] for spec in riders]
        race = cls(track, teams, sorted(built, key=lambda r: order.index(r.id)), seed=seed, history=history)
        race._shuffle_starting_decks()
        race.round = 1
        if cards is None:
            race.phase = race._after_movement_phase()
        else:
            for rid, card in cards.items():
                race.riders[rid].played = card
            race._reveal()
            race.phase = Phase.MOVEMENT
        return race

    def _shuffle_starting_decks(self) -> None:
        for r in self._deck_holders:
            r.deck.face_down = shuffled(self.rng, _starting_cards(self.teams[r.team], r))

    def _auto_place(self) -> None:
        """Bot teams at the front (RULES.md 2, tutor decision), then the players' riders in a seeded random order."""
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

    def is_bot(self, rider_id: str) -> bool:
        return self.team_of(rider_id).controller is not None

    @property
    def player_riders(self) -> list[Rider]:
        """Riders of player teams (bot teams that flip cards neither draw, bid nor play)."""
        return list(self._choosers)

    def bidder(self, team: str) -> str | None:
        """The team's rider that bids in the breakaway (once it has drawn or bid)."""
        for rid in self.teams[team].riders:
            rider = self.riders[rid]
            if rider.bids or (rider.hand and self.phase in (Phase.BID_1, Phase.BID_2)):
                return rid
        return None

    def _bids_wanted(self) -> int:
        return 1 if self.phase is Phase.BID_1 else 2

    def _may_choose(self, rider: Rider) -> bool:
        """The rider still draws and plays (or bids) in this choosing phase."""
        if self.teams[rider.team].kind.flips:
            return False
        if self.phase is Phase.ENERGY:
            return rider.played is None
        bidder = self.bidder(rider.team)
        if bidder is None:
            return self.phase is Phase.BID_1
        return bidder == rider.id and len(rider.bids) < self._bids_wanted()

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
        """Riders that may still draw and play a card in this energy phase (or bid in a breakaway bid)."""
        if not self.phase.choosing:
            return []
        return [r.id for r in self.player_riders if self._may_choose(r)]

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.FINISHED

    def move_preview(self, rider_id: str) -> int | None:
        """Squares the next mover's card will carry it after terrain limits (before blocking), in the movement
        phase; None otherwise."""
        if self.phase is not Phase.MOVEMENT or rider_id not in self.move_values:
            return None
        square = self.riders[rider_id].square
        assert square is not None
        return rules.move_distance(self.track, square, self.move_values[rider_id])[0]

    def legal_actions(self) -> list[Action]:
        """Every action allowed now. Automatic phases offer ``Step()``."""
        if self.phase is Phase.SETUP:
            team = self.placing_team
            assert team is not None
            free = [(s, lane) for s in range(self.track.start) for lane in range(self.track.lanes[s])
                    if self._placement_problem(s, lane) is None]
            return [Place(r, s, lane) for r in team.riders if self.riders[r].square is None for s, lane in free]
        if self.phase.choosing:
            actions: list[Action] = []
            for team in self.teams.values():
                holder = self.drawing_rider(team.name)
                if holder:
                    actions += [Play(holder, c) for c in dict.fromkeys(self.riders[holder].hand)]
                else:
                    actions += [Draw(r) for r in team.riders if self._may_choose(self.riders[r])]
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
        assert team is not None
        if rider.square is not None:
            raise PlacementError(f"{rider_id} is already placed on square {rider.square}")
        if rider.team != team.name:
            raise PlacementError(f"it is {team.name}'s turn to place riders, not {rider.team}'s")
        problem = self._placement_problem(square, lane)
        if problem:
            raise PlacementError(f"{rider_id} cannot go to square {square}, lane {lane}: {problem}")
        self._save()
        rider.square, rider.lane = square, lane
        applied = (rules.SETUP_PLACE, rules.BOT_PLACEMENT) if team.kind.flips else (rules.SETUP_PLACE,)
        events: list[Event] = [RiderPlaced(rider_id, (square, lane), rules=applied,
                                           automatic=team.controller is not None)]
        if self.placing_team is None:
            events.append(self._setup_done())
        return events

    def draw(self, rider_id: str) -> list[Event]:
        """Energy phase (or a breakaway bid): draw 4 cards from the rider's deck (fewer if it has fewer; an
        exhaustion card if none)."""
        self._require_choosing("draw cards")
        rider = self.rider(rider_id)
        if self.teams[rider.team].kind.flips:
            raise RiderOrderError(f"{rider_id} rides for a bot team: it flips its card in the movement phase and "
                                  "never draws or bids")
        if rider.hand:
            raise RiderOrderError(f"{rider_id} has already drawn: play one of {', '.join(_tokens(rider.hand))}")
        if self.phase is Phase.ENERGY and rider.played is not None:
            raise RiderOrderError(f"{rider_id} has already played a card this round")
        if self.phase is not Phase.ENERGY and not self._may_choose(rider):
            bidder = self.bidder(rider.team)
            raise RiderOrderError(f"{bidder} bids for its team in the breakaway, not {rider_id}" if bidder != rider_id
                                  else f"{rider_id} has already bid in this round of bids")
        holder = self.drawing_rider(rider.team)
        if holder:
            raise RiderOrderError(
                f"play a card for {holder} before drawing for {rider_id}: you may not draw for your second rider "
                "before playing for the first (rulebook, Energy Phase)")
        self._save()
        exhaustion = rider.exhaustion
        reshuffled = self._deal(rider)
        automatic = self.is_bot(rider_id)
        events: list[Event] = []
        if reshuffled:
            events.append(Reshuffled(rider.deck.owner, reshuffled, rules=(rules.RESHUFFLE,), automatic=True))
        size = self.teams[rider.team].hand_size
        rule = (rules.DRAW_NONE if rider.exhaustion > exhaustion else
                rules.DRAW_FEWER if len(rider.hand) < size else
                rules.BID if self.phase is not Phase.ENERGY else rules.DRAW)
        events.append(CardsDrawn(rider.id, tuple(rider.hand), rules=(rule,), automatic=automatic))
        return events

    def play(self, rider_id: str, card: Card | int) -> list[Event]:
        """Energy phase: play one drawn card face down (in a breakaway bid: bid it); the others are recycled face
        up under the deck."""
        self._require_choosing("play a card")
        rider = self.rider(rider_id)
        if not rider.hand:
            what = "has already played this round" if rider.played is not None else "has not drawn cards yet"
            raise CardNotInHandError(f"{rider_id} {what}")
        chosen = self._find(rider, card)
        self._save()
        automatic = self.is_bot(rider_id)
        if self.phase is Phase.ENERGY:
            recycled = self._play(rider, chosen)
            put: Event = CardPlayed(rider.id, chosen, rules=(rules.PLAY,), automatic=automatic)
        else:
            recycled = self._bid(rider, chosen)
            put = CardBid(rider.id, chosen, rules=(rules.BID,), automatic=automatic)
        events: list[Event] = [
            put,
            CardsRecycled(rider.id, tuple(recycled), len(rider.recycled), rules=(rules.RECYCLE,), automatic=automatic)]
        if not self.waiting_riders():
            events.append(self._choices_done())
        return events

    def _choices_done(self) -> BotTeamsFlip | CardsRevealed | BidsRevealed:
        """Everyone has played (or bid): the reveal, the bot teams' flip, or the next bid."""
        if self.phase is Phase.ENERGY:
            if any(t.kind.flips for t in self.teams.values()):
                self.phase = Phase.FLIP
                return BotTeamsFlip(self.round, rules=(rules.SECRET,), automatic=True)
            return self._reveal_event()
        bid = self._bids_wanted()
        cards = {r.id: r.bids[-1] for r in self.player_riders if len(r.bids) == bid}
        self.phase = Phase.BID_2 if bid == 1 else Phase.BREAKAWAY
        return BidsRevealed(bid, cards, rules=(rules.BID_REVEAL,), automatic=True)

    def _reveal_event(self) -> CardsRevealed:
        self._reveal()
        self.phase = Phase.MOVEMENT
        cards = {rid: card for rid in self.to_move if (card := self.riders[rid].played) is not None}
        return CardsRevealed(cards, tuple(self.to_move),
                             dict(self.move_values), rules=(rules.REVEAL, rules.ORDER), automatic=True)

    def _find(self, rider: Rider, card: Card | int) -> Card:
        if isinstance(card, Card):
            if card in rider.hand:
                return card
        else:
            matches = [c for c in rider.hand if c.value == card]
            if matches:
                return min(matches, key=lambda c: not c.is_exhaustion)  # same move; shed exhaustion first
        raise CardNotInHandError(f"{rider.id} has no {card} in hand; the drawn cards are "
                                 f"{', '.join(_tokens(rider.hand))}")

    def step(self) -> list[Event]:
        """Resolve the next automatic step: one rider's move, or one part of the end phase."""
        handler = PHASE_STEPS.get(self.phase)
        if handler is None:
            if self.phase is Phase.FINISHED:
                raise WrongPhaseError(f"the race is over: {self.winner} won")
            waiting = self.waiting_riders()
            detail = f"{', '.join(waiting)} still to play a card" if waiting else "riders still to place"
            raise WrongPhaseError(f"nothing to resolve yet in the {self.phase.name_in_words}: {detail}")
        self._save()
        return handler(self)

    def resolve(self, through: Phase = Phase.END_EXHAUSTION) -> list[Event]:
        """Step until the phase ``through`` of this round is done, or the race is over.

        ``resolve(Phase.MOVEMENT)``: every rider has moved; ``resolve(Phase.END_SLIPSTREAM)``:
        slipstream is done; ``resolve()``: the round is over (the next energy phase).
        """
        if through not in PHASE_STEPS:
            raise ValueError(f"{through.value} is not an automatic phase")
        events: list[Event] = []
        limit = ROUND_ORDER.index(through)
        start_round = self.round
        # The breakaway step (before round 1) counts as before every phase of a round: it ends in round 1.
        while self.phase in PHASE_STEPS and self.round == start_round and (
                ROUND_ORDER.index(self.phase) if self.phase in ROUND_ORDER else -1) <= limit:
            events += self.step()
        return events

    def finish_round(self) -> list[Event]:
        """Step until the next energy phase (or the finish). Energy cards must all be played."""
        if self.phase not in PHASE_STEPS:
            return self.step()  # raises the reason
        return self.resolve(Phase.END_EXHAUSTION)

    def play_round(self, choose: Callable[[Race, str], Card]) -> None:
        """Fast path for simulations: a whole round, every rider's card picked by ``choose(race, rider_id)``.

        The same phase functions as ``draw``/``play``/``step``, so the same rules, random
        draws and result (the tests check this), but no events, no undo history and no
        checks: call it at the start of an energy phase with a ``choose`` that returns a
        card from the rider's hand. Ends in the next energy phase, or finished.
        """
        self._require_fast_path("play_round")
        positions = self.positions()
        self._fast_round(choose, positions, rules.occupancy(positions))

    def play_rounds(self, choose: Callable[[Race, str], Card], limit: int) -> None:
        """``play_round`` until the race is over; the positions and the occupancy map carry from one round to the
        next. A race still running after round ``limit`` raises ``RuntimeError`` (every rider boxed in: a bug, not
        an endless loop)."""
        self._require_fast_path("play_rounds")
        positions = self.positions()
        occupied = rules.occupancy(positions)
        while self.phase is not Phase.FINISHED:
            if self.round > limit:
                raise RuntimeError(f"race did not finish in {limit} rounds")
            self._fast_round(choose, positions, occupied)

    def _require_fast_path(self, what: str) -> None:
        if self.phase is not Phase.ENERGY:
            raise WrongPhaseError(f"{what} needs the energy phase, not the {self.phase.name_in_words}")

    def _fast_round(self, choose: Callable[[Race, str], Card], positions: dict[str, tuple[int, int]],
                    occupied: dict[int, list[int]]) -> None:
        """One round of ``play_round``; ``positions`` (every rider's) and ``occupied`` are kept up to date."""
        deal, play = self._deal, self._play
        for rider in self._choosers:
            if rider.played is None:
                deal(rider)
                play(rider, choose(self, rider.id))
        if self._flippers:
            self._flip()
        self._reveal(positions)
        moves = self.move_values.items()  # in movement order
        furthest = self._ride(moves, occupied, positions)[3]
        self.to_move, self.move_values = [], {}
        finish = self.track.finish
        if finish is not None and furthest >= finish and self._check_finish():
            return
        self._remove_played()
        self._slipstream(positions, occupied)
        self._exhaustion(positions)
        self._next_round()

    # ----- phase functions: the rules, shared by the step-by-step and the fast path ---------------------

    def _deal(self, rider: Rider) -> int:
        """Draw the rider's hand, top card first (all that are left if fewer; an exhaustion card if none). When
        the face-down cards run short, the recycled cards are shuffled into a new deck under them first.
        Returns the number of cards reshuffled (0: none)."""
        deck = rider.deck
        size = self._hand_sizes[rider.id]
        face_down = deck.face_down
        reshuffled = 0
        if len(face_down) < size:
            recycled = deck.recycled
            if recycled:
                reshuffled = len(recycled)
                renewed = deck.face_down = shuffled(self.rng, recycled)
                renewed += face_down  # the old cards stay on top
                face_down = renewed
                deck.recycled = []
            if not face_down:
                deck.hand = [EXHAUSTION]
                rider.exhaustion += 1
                return reshuffled
        deck.hand = face_down[:-size - 1:-1]
        del face_down[-size:]
        return reshuffled

    def _play(self, rider: Rider, card: Card) -> list[Card]:
        """The card is played face down, the rest recycled; returns the recycled cards (the old hand's list)."""
        deck = rider.deck
        hand = deck.hand
        hand.remove(card)
        rider.played = card
        deck.recycled += hand
        deck.hand = []
        return hand

    def _bid(self, rider: Rider, card: Card) -> list[Card]:
        """The card is bid face down, the rest recycled; returns the recycled cards (the old hand's list)."""
        deck = rider.deck
        hand = deck.hand
        hand.remove(card)
        rider.bids.append(card)
        deck.recycled += hand
        deck.hand = []
        return hand

    def _flip(self) -> dict[str, tuple[list[Flip], int]]:
        """Bot teams flip their cards: per team, each card flipped with the riders it moves, and the size of a
        refilled deck."""
        flipped: dict[str, tuple[list[Flip], int]] = {}
        for team in self.teams.values():
            if not team.kind.flips:
                continue
            cards: list[Flip] = []
            refilled = 0
            owners = [team.riders[0]] if team.kind is TeamKind.PELOTON else list(team.riders)
            for rid in owners:
                deck = self.riders[rid].deck
                if not deck.face_down:
                    deck.face_down, deck.removed = shuffled(self.rng, deck.removed), []
                    refilled += len(deck.face_down)
                card = deck.face_down.pop()
                targets = team.riders if team.kind is TeamKind.PELOTON else (rid,)
                for target in targets:
                    self.riders[target].played = card
                cards.append(Flip(card, targets))
            flipped[team.name] = (cards, refilled)
        return flipped

    def _resolve_breakaway(self) -> tuple[dict[str, int], list[str], list[str], list[str]]:
        """Rank the bids, make the winners pay, reshuffle every deck and move the winners past the start line.

        Returns (totals, grid from the front, ranking, winners)."""
        bidders = [r for r in self.player_riders if r.bids]
        grid = rules.movement_order({r.id: r.position for r in bidders})
        bids = {r.id: tuple(c.value for c in r.bids) for r in bidders}
        ranking = breakaway_bids.ranking(bids, grid)
        winners = breakaway_bids.select(bids, grid)
        for rider in bidders:
            if rider.id in winners:
                rider.deck.removed += rider.bids
                rider.deck.recycled += [EXHAUSTION] * BREAKAWAY_EXHAUSTION
                rider.exhaustion += BREAKAWAY_EXHAUSTION
            else:
                rider.deck.recycled += rider.bids
            rider.bids = []
        for rider in self.player_riders:
            deck = rider.deck
            deck.face_down, deck.recycled = shuffled(self.rng, deck.face_down + deck.recycled), []
        start, lanes = self.track.start, self.track.lanes
        slots = [(s, lane) for s in range(start, len(lanes)) for lane in range(lanes[s])][:len(winners)]
        for rid, (square, lane) in zip(winners, sorted(slots, key=lambda p: (-p[0], p[1]))):
            self.riders[rid].square, self.riders[rid].lane = square, lane
        return {rid: sum(v) for rid, v in bids.items()}, grid, ranking, winners

    def _reveal(self, positions: dict[str, tuple[int, int]] | None = None) -> None:
        """Fix the movement order and each rider's move, in that order (Attack!: front rider 2, back rider 9)."""
        riders = self.riders
        order = self.to_move = rules.movement_order(self.positions() if positions is None else positions)
        values: dict[str, int] = {}
        self.move_values = values
        attack = False
        for rid in order:
            card = riders[rid].played
            values[rid] = card.value  # type: ignore[union-attr]  # every rider has played
            if card is ATTACK:  # cards are interned
                attack = True
        if attack:
            attackers = [rid for rid in order if riders[rid].played is ATTACK]
            for team in {riders[rid].team for rid in attackers}:
                front, *back = [rid for rid in attackers if riders[rid].team == team]
                values[front] = rules.ATTACK_FRONT
                values.update((rid, rules.ATTACK_BACK) for rid in back)

    def _move(self, rider_id: str, occupied: dict[int, list[int]]) -> Move:
        """Move one rider by its revealed card (``_ride``) and say what happened."""
        rider = self.riders[rider_id]
        frm = rider.position
        distance, terrain, full, _ = self._ride(((rider_id, self.move_values[rider_id]),), occupied, {})
        return Move(frm, rider.position, distance, terrain, full)

    def _ride(self, moves: Iterable[tuple[str, int]], occupied: dict[int, list[int]],
              positions: dict[str, tuple[int, int]]) -> tuple[int, Rule | None, tuple[int, ...], int]:
        """Move each rider by its revealed card's value, in the order given (the fast path moves them all, a
        step one). ``occupied`` (square -> taken lanes) and ``positions`` are kept up to date. Returns the last
        move's distance after terrain, the terrain rule that changed it and the full squares it fell back over,
        and the furthest square reached."""
        riders, track = self.riders, self.track
        distance, terrain, furthest = 0, None, 0
        full: tuple[int, ...] = ()
        for rider_id, value in moves:
            rider = riders[rider_id]
            start: int = rider.square  # type: ignore[assignment]  # placed: it is racing
            distance, terrain = move_distance(track, start, value)
            occupied[start].remove(rider.lane)
            square, lane, full = destination(track, occupied, start, distance)
            if lane is None:
                lane = rider.lane
            rider.square = square
            rider.lane = lane
            occupied.setdefault(square, []).append(lane)
            positions[rider_id] = (square, lane)
            if square > furthest:
                furthest = square
        return distance, terrain, full, furthest

    def _check_finish(self) -> bool:
        """After movement: when riders crossed the line, rank them and end the race (the end phase is skipped)."""
        finish = self.track.finish
        if finish is None or all(r.square is None or r.square < finish for r in self.riders.values()):
            return False
        ranking = rules.ranking_past(finish, self.positions())
        if not ranking:
            return False
        self.ranking, self.winner, self.phase = ranking, ranking[0], Phase.FINISHED
        return True

    def _after_movement_phase(self) -> Phase:
        return Phase.END_CARDS if any(r.played for r in self.riders.values()) else Phase.END_SLIPSTREAM

    def _remove_played(self) -> None:
        """Played cards leave the game; the Peloton's one card, which moved both its riders, leaves once."""
        for rider in self._deck_holders:
            played = rider.played
            if played is not None:
                rider.deck.removed.append(played)
                rider.played = None
        for rider in self._deck_sharers:
            rider.played = None

    def _slipstream(self, positions: dict[str, tuple[int, int]], occupied: dict[int, list[int]] | None = None
                    ) -> list[tuple[tuple[int, int], tuple[str, ...] | Rule]]:
        """Move packs up (``positions``, and ``occupied`` if given, are updated too); returns
        ``rules.slipstream``'s outcome per pack."""
        outcomes = rules.slipstream(self.track, positions)
        for pack, outcome in outcomes:
            if isinstance(outcome, tuple):
                for rid in outcome:
                    rider = self.riders[rid]
                    square, lane = positions[rid]  # a pack keeps its lanes
                    if rider.square != square:  # a rider of a chain of packs is listed at each of its moves
                        if occupied is not None:
                            occupied[rider.square].remove(lane)  # type: ignore[index]  # it is racing
                            occupied.setdefault(square, []).append(lane)
                        rider.square = square
        return outcomes

    def _exhaustion(self, positions: dict[str, tuple[int, int]]) -> tuple[list[str], list[str]]:
        """Exhaustion cards for riders with an empty square in front; returns (those riders, the exempt ones)."""
        fronted = rules.exhausted(self.track, positions)
        exempt = []
        for rid in fronted:
            rider = self.riders[rid]
            if rider.takes_exhaustion:
                rider.deck.recycled.append(EXHAUSTION)
                rider.exhaustion += 1
            else:
                exempt.append(rid)
        return fronted, exempt

    def _next_round(self) -> None:
        self.round += 1
        self.phase = Phase.ENERGY

    def _start_round(self) -> RoundStarted:
        self._next_round()
        return RoundStarted(self.round, rules=(rules.ROUND,), automatic=True)

    # ----- automatic steps: a phase function, then its events -------------------------------------------

    def _step_flip(self) -> list[Event]:
        events: list[Event] = []
        for name, (cards, refilled) in self._flip().items():
            team = self.teams[name]
            if refilled:
                events.append(BotDeckRefilled(name, refilled, rules=(rules.BOT_DECK_REFILL,), automatic=True))
            rule = rules.PELOTON_FLIP if team.kind is TeamKind.PELOTON else rules.MUSCLE_FLIP
            events.append(CardsFlipped(name, tuple(cards), rules=(rule,), automatic=True))
        events.append(self._reveal_event())
        return events

    def _step_breakaway(self) -> list[Event]:
        totals, grid, ranking, winners = self._resolve_breakaway()
        decided = (rules.BREAKAWAY_RANK, rules.BREAKAWAY_TIE) if breakaway_bids.is_tie_broken(
            {rid: (totals[rid],) for rid in totals}, grid) else (rules.BREAKAWAY_RANK,)
        events: list[Event] = [BreakawayDecided(totals, tuple(ranking), tuple(grid), tuple(winners), rules=decided,
                                                automatic=True)]
        events += [BreakawayCost(rid, BREAKAWAY_EXHAUSTION, rules=(rules.BREAKAWAY_COST,), automatic=True)
                   for rid in winners]
        events.append(DecksReshuffled(tuple(r.deck.owner for r in self.player_riders),
                                      rules=(rules.BREAKAWAY_RECYCLE, rules.BREAKAWAY_RESHUFFLE), automatic=True))
        events += [BreakawayStart(rid, self.riders[rid].position, rules=(rules.BREAKAWAY_START,), automatic=True)
                   for rid in winners]
        events.append(self._start_round())
        return events

    def _step_movement(self) -> list[Event]:
        rid = self.to_move.pop(0)
        value = self.move_values[rid]
        occupied = rules.occupancy(self.positions())
        move = self._move(rid, occupied)
        (start, start_lane), (square, lane), distance, full = move.frm, move.to, move.distance, move.full
        card = self.riders[rid].played
        assert card is not None
        target = min(start + distance, self.track.last)
        applied = [rules.MOVE]
        if card is ATTACK:
            applied.append(rules.ATTACK)
        if move.terrain:
            applied.append(move.terrain)
        if start + distance > self.track.last:
            applied.append(rules.CUT)
        if not full and (square, lane) == (target, 0) and len(occupied[target]) == 1:
            applied.append(rules.EMPTY_SQUARE)
        events: list[Event] = [RiderMoved(rid, card, value, distance, (start, start_lane), (square, lane),
                                          move.terrain, rules=tuple(applied), automatic=True)]
        if full:
            events.append(Blocked(rid, target, tuple(full), (square, lane), rules=(rules.FULL_SQUARE,),
                                  automatic=True))
        if not self.to_move:
            self.move_values = {}
            if self._check_finish():
                events.append(Finished(self.ranking[0], tuple(self.ranking),
                                       rules=(rules.FINISH, rules.FINISH_SKIPS_END), automatic=True))
            else:
                self.phase = self._after_movement_phase()
        return events

    def _step_end_cards(self) -> list[Event]:
        cards = {r.id: r.played for r in self.riders.values() if r.played is not None}
        self._remove_played()
        self.phase = Phase.END_SLIPSTREAM
        return [CardsRemoved(cards, rules=(rules.CARDS_REMOVED,), automatic=True)]

    def _step_end_slipstream(self) -> list[Event]:
        positions = self.positions()
        before = tuple(rules.packs(s for s, _ in positions.values()))
        outcomes = self._slipstream(positions)
        after = tuple(rules.packs(s for s, _ in positions.values()))
        events: list[Event] = [PacksFound(before, after, rules=(rules.PACKS,), automatic=True)]
        for pack, outcome in outcomes:
            if isinstance(outcome, tuple):
                moved = tuple(rules.movement_order({rid: positions[rid] for rid in outcome}))
                events.append(Slipstreamed(moved, pack, (pack[0] + 1, pack[1] + 1), rules=(rules.SLIPSTREAM,),
                                           automatic=True))
            else:
                events.append(NoSlipstream(pack, rules=(rules.SLIPSTREAM, outcome), automatic=True))
        self.phase = Phase.END_EXHAUSTION
        return events

    def _step_end_exhaustion(self) -> list[Event]:
        fronted, exempt = self._exhaustion(self.positions())
        applied = (rules.EXHAUSTION, rules.BOT_NO_EXHAUSTION) if exempt else (rules.EXHAUSTION,)
        events: list[Event] = [ExhaustionChecked(tuple(fronted), tuple(exempt), rules=applied, automatic=True)]
        for rid in fronted:
            if rid not in exempt:
                square = self.riders[rid].square
                assert square is not None
                events.append(ExhaustionTaken(rid, square, rules=(rules.EXHAUSTION,), automatic=True))
        events.append(self._start_round())
        return events

    # ----- checks ----------------------------------------------------------------------------------------

    def _require_choosing(self, what: str) -> None:
        if not self.phase.choosing:
            raise WrongPhaseError(f"cannot {what} now: it is the {self.phase.name_in_words}"
                                  f"{', the race is over' if self.phase is Phase.FINISHED else ''}")

    def _require(self, phase: Phase, what: str) -> None:
        if self.phase is not phase:
            raise WrongPhaseError(f"cannot {what} now: it is the {self.phase.name_in_words}"
                                  f"{', the race is over' if self.phase is Phase.FINISHED else ''}")

    def _placement_problem(self, square: int, lane: int) -> str | None:
        if not 0 <= square < self.track.start:
            return f"the start area is squares 0 to {self.track.start - 1}"
        if not 0 <= lane < self.track.lanes[square]:
            return f"square {square} has {self.track.lanes[square]} lane(s)"
        return _lane_problem(lane, [r.lane for r in self.riders.values() if r.square == square])

    # ----- JSON (undo and copies come from SeededState) --------------------------------------------------

    def _state_dict(self) -> dict[str, Any]:
        decks = {r.deck.owner: r.deck for r in self.riders.values()}
        return {
            "track": self.track.to_dict(),
            "teams": [t.to_dict() for t in self.teams.values()],
            "decks": [d.to_dict() for d in decks.values()],
            "riders": [r.to_dict() for r in self.riders.values()],
            "phase": self.phase.value,
            "round": self.round,
            "to_move": list(self.to_move),
            "move_values": dict(self.move_values),
            "winner": self.winner,
            "ranking": list(self.ranking),
            "bot_rng": rng_state(self.bot_rng),
            "breakaway": self.breakaway,
        }

    @classmethod
    def _empty(cls, data: dict[str, Any]) -> Race:
        return cls(Track.from_dict(data["track"]), [Team.from_dict(t) for t in data["teams"]], [])

    def _load_state(self, data: dict[str, Any]) -> None:
        decks = {d["owner"]: Deck.from_dict(d) for d in data["decks"]}
        self.riders = {}
        for d in data["riders"]:
            self.riders[d["id"]] = Rider(
                d["id"], d["team"], RiderKind(d["kind"]), d["colour"], decks[d["deck"]], d["square"], d["lane"],
                None if d["played"] is None else Card.parse(d["played"]), d["exhaustion"], d["takes_exhaustion"],
                d["handicap"], _cards(d["bids"]))
        self._index_riders()
        self.phase = Phase(data["phase"])
        self.round = data["round"]
        self.to_move = list(data["to_move"])
        self.move_values = dict(data["move_values"])
        self.winner = data["winner"]
        self.ranking = list(data["ranking"])
        set_rng_state(self.bot_rng, data["bot_rng"])
        self.breakaway = data["breakaway"]

    def __repr__(self) -> str:
        return f"<Race {self.track.name or 'track'} round {self.round} {self.phase.value} riders={len(self.riders)}>"


@functools.lru_cache(maxsize=None)
def _player_team(name: str, riders: tuple[str, ...], controller: str | None) -> Team:
    """A player's team. Teams are values, so races of the same teams share them (a frozen dataclass is slow to
    build, and simulations build thousands of races)."""
    return Team(name, riders, name, controller=controller)


def _lane_problem(lane: int, taken: Sequence[int]) -> str | None:
    """Setup: why a rider may not start in ``lane`` of a start square whose ``taken`` lanes are given."""
    if lane in taken:
        return "that lane is taken"
    if lane != 0 and not taken:
        return "on an empty square a rider takes the right-hand lane (lane 0)"
    return None


def _starting_cards(team: Team, rider: Rider) -> list[Card]:
    """The cards a rider's (or the Peloton team's) deck starts with (RULES.md 1-2)."""
    if team.kind is TeamKind.PELOTON:
        return starting_deck(ROULEUR) + [ATTACK, ATTACK]
    if team.kind is TeamKind.MUSCLE:
        return starting_deck(rider.kind) + ([MUSCLE] if rider.kind == SPRINTEUR else [])
    cards = starting_deck(rider.kind)
    if rider.handicap:
        cards += [EXHAUSTION] * rider.handicap
    return cards


PHASE_STEPS: dict[Phase, Callable[[Race], list[Event]]] = {
    Phase.BREAKAWAY: Race._step_breakaway,
    Phase.FLIP: Race._step_flip,
    Phase.MOVEMENT: Race._step_movement,
    Phase.END_CARDS: Race._step_end_cards,
    Phase.END_SLIPSTREAM: Race._step_end_slipstream,
    Phase.END_EXHAUSTION: Race._step_end_exhaustion,
}
"""The automatic phases and the handler that resolves one step of each (``Race.step``)."""
