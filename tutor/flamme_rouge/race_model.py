"""The Flamme Rouge race's model and its queries: the phases, teams, riders and decks, the actions as values, and
``RaceModel``, the state of a race with every question about it (who places, draws or plays now, the legal
actions, the positions) and the checks actions make before changing anything.

``Race`` (``race.py``) adds the setup, the actions and phases, the fast path and JSON to this state.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from tutor.core.events import Rule
from tutor.core.state import SeededState
from tutor.i18n import N_, _, ngettext

from . import rules
from . import cards
from .cards import HAND_SIZE, Card, RiderKind
from .errors import UnknownRiderError, WrongPhaseError
from .track import Track

TEAM_COLOURS = ("red", "blue", "green", "black", "white", "pink", "yellow", "orange", "purple", "teal", "brown", "grey")
"""Player team colours in the order ``Race.new`` uses them: the six of the game, then six more for up to 12
single riders (the renderer adds a team mark so that they are told apart without colour)."""
PAIR_TEAMS = 6
"""Two-rider teams: 4 colours in the base game, 6 with the expansion."""
PELOTON_COLOUR = "silver"
MUSCLE_COLOURS = ("gold", "bronze")
"""Colours of the Peloton team and of the (at most two) Muscle teams."""
MAX_MUSCLE = 2
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
        """``"Energy phase: draw 4, play 1, recycle 3"``: the numbers are the engine's (``cards.HAND_SIZE``)."""
        return _(_PHASE_TITLES[self]).format(hand=cards.HAND_SIZE, recycled=cards.HAND_SIZE - 1)

    @property
    def name_in_words(self) -> str:
        """``"energy phase"``: the phase's name inside a sentence."""
        return _(_PHASE_NAMES[self])

    @property
    def automatic(self) -> bool:
        """Resolved by ``step()``, with no choice to make."""
        return self in AUTOMATIC_PHASES

    @property
    def choosing(self) -> bool:
        """Players draw and play a card (the energy phase and the two breakaway bids)."""
        return self in (Phase.ENERGY, Phase.BID_1, Phase.BID_2)


_PHASE_TITLES = {
    Phase.SETUP: N_("Setup: place the riders behind the start line"),
    Phase.BID_1: N_("Breakaway, first bid: draw {hand}, bid 1 face down, recycle {recycled}"),
    Phase.BID_2: N_("Breakaway, second bid: draw {hand}, bid 1 face down, recycle {recycled}"),
    Phase.BREAKAWAY: N_("Breakaway: the highest bids join the breakaway"),
    Phase.ENERGY: N_("Energy phase: draw {hand}, play 1, recycle {recycled}"),
    Phase.FLIP: N_("Movement phase: the bot teams flip their cards"),
    Phase.MOVEMENT: N_("Movement phase: frontmost rider first"),
    Phase.END_CARDS: N_("End phase 1: played cards leave the game"),
    Phase.END_SLIPSTREAM: N_("End phase 2: slipstream"),
    Phase.END_EXHAUSTION: N_("End phase 3: exhaustion"),
    Phase.FINISHED: N_("Finished"),
}
_PHASE_NAMES = {
    Phase.SETUP: N_("setup"),
    Phase.BID_1: N_("breakaway, first bid"),
    Phase.BID_2: N_("breakaway, second bid"),
    Phase.BREAKAWAY: N_("breakaway"),
    Phase.ENERGY: N_("energy phase"),
    Phase.FLIP: N_("movement phase"),
    Phase.MOVEMENT: N_("movement phase"),
    Phase.END_CARDS: N_("end phase 1"),
    Phase.END_SLIPSTREAM: N_("end phase 2"),
    Phase.END_EXHAUSTION: N_("end phase 3"),
    Phase.FINISHED: N_("finished"),
}

ROUND_ORDER = (Phase.ENERGY, Phase.FLIP, Phase.MOVEMENT, Phase.END_CARDS, Phase.END_SLIPSTREAM, Phase.END_EXHAUSTION)
"""The phases of a round, in order. Before the first round: setup, then (breakaway variant) the two bids and
the breakaway."""
AUTOMATIC_PHASES = frozenset(
    {Phase.BREAKAWAY, Phase.FLIP, Phase.MOVEMENT, Phase.END_CARDS, Phase.END_SLIPSTREAM, Phase.END_EXHAUSTION}
)
"""The phases ``Race.step`` resolves one step at a time (the keys of ``race_actions.PHASE_STEPS``)."""


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

    def __init__(
        self,
        owner: str,
        face_down: list[Card] | None = None,
        recycled: list[Card] | None = None,
        hand: list[Card] | None = None,
        removed: list[Card] | None = None,
    ):
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
        return {
            "owner": self.owner,
            "face_down": _tokens(self.face_down),
            "recycled": _tokens(self.recycled),
            "hand": _tokens(self.hand),
            "removed": _tokens(self.removed),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Deck:
        return cls(d["owner"], _cards(d["face_down"]), _cards(d["recycled"]), _cards(d["hand"]), _cards(d["removed"]))


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
    """Exhaustion cards taken during the race: one in each end phase with an empty square in front, two for a
    breakaway, and one played when its deck held no card to draw (not the ``handicap`` cards it started with)."""
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
        return {
            "id": self.id,
            "team": self.team,
            "kind": self.kind.value,
            "colour": self.colour,
            "deck": self.deck.owner,
            "square": self.square,
            "lane": self.lane,
            "played": None if self.played is None else str(self.played),
            "exhaustion": self.exhaustion,
            "takes_exhaustion": self.takes_exhaustion,
            "handicap": self.handicap,
            "bids": _tokens(self.bids),
        }


def _tokens(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def _cards(tokens: Iterable[str]) -> list[Card]:
    return [Card.parse(t) for t in tokens]


BOT_NAMES = ("random", "heuristic")
"""The bot policies a team may be handed to (``bots.BOTS`` plays them; the race needs only their names, so the bots,
which import the race, are not imported here)."""


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
        return {
            "name": self.name,
            "riders": list(self.riders),
            "colour": self.colour,
            "kind": self.kind.value,
            "controller": self.controller,
            "hand_size": self.hand_size,
        }

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


class RaceModel(SeededState):
    """A race's state and its queries (``Race`` is the whole race)."""

    def __init__(
        self, track: Track, teams: Sequence[Team], riders: Sequence[Rider], *, seed: int = 0, history: bool = True
    ):
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

    # ----- queries ---------------------------------------------------------------------------------------

    def rider(self, rider_id: str) -> Rider:
        try:
            return self.riders[rider_id]
        except KeyError:
            raise UnknownRiderError(f"no rider {rider_id!r} in this race (riders: {', '.join(self.riders)})") from None

    def positions(self) -> dict[str, tuple[int, int]]:
        return {r.id: (r.square, r.lane) for r in self.riders.values() if r.square is not None}

    def standings(self) -> list[str]:
        """Every placed rider, best first: those past the finish line in ``ranking`` order, then the others in
        movement order (frontmost first, the right-hand lane first on a shared square: ``rules.movement_order``)."""
        positions = self.positions()
        rest = rules.movement_order({rid: spot for rid, spot in positions.items() if rid not in self.ranking})
        return [rid for rid in self.ranking if rid in positions] + rest

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

    def hand_size(self, rider_id: str) -> int:
        """Cards ``rider_id`` draws in the energy phase and the breakaway bids (its team's ``Team.hand_size``: the
        number ``draw`` deals; 0 for a bot team's rider, which flips)."""
        return self.teams[self.rider(rider_id).team].hand_size

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

    def revealed_moves(self) -> dict[str, tuple[Card, int]]:
        """In the movement phase, each rider still to move (next first) with its revealed card and the squares
        that card moves it before terrain (Attack! gives 2 or 9); empty in every other phase."""
        if self.phase is not Phase.MOVEMENT:
            return {}
        moves = {}
        for rid in self.to_move:
            played = self.riders[rid].played
            if played is not None:
                moves[rid] = (played, self.move_values.get(rid, played.value))
        return moves

    def legal_actions(self) -> list[Action]:
        """Every action allowed now. Automatic phases offer ``Step()``."""
        if self.phase is Phase.SETUP:
            team = self.placing_team
            assert team is not None
            free = [
                (s, lane)
                for s in range(self.track.start)
                for lane in range(self.track.lanes[s])
                if self.placement_problem(s, lane) is None
            ]
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

    # ----- checks ----------------------------------------------------------------------------------------

    def _require_choosing(self, what: str) -> None:
        """``what``: the action, an ``N_`` message (``"draw cards"``)."""
        if not self.phase.choosing:
            raise WrongPhaseError(self._not_now(what))

    def _require(self, phase: Phase, what: str) -> None:
        if self.phase is not phase:
            raise WrongPhaseError(self._not_now(what))

    def _not_now(self, what: str) -> str:
        if self.phase is Phase.FINISHED:
            return _("cannot {action} now: the race is over").format(action=_(what))
        return _("cannot {action} now: it is the {phase}").format(action=_(what), phase=self.phase.name_in_words)

    def placement_problem(self, square: int, lane: int) -> str | None:
        """Setup: why a rider may not start on ``square``, ``lane`` (a start square, a free lane, the right-hand
        lane first), in words; None when it may."""
        if not 0 <= square < self.track.start:
            return _("the start area is squares 0 to {last}").format(last=self.track.start - 1)
        if not 0 <= lane < self.track.lanes[square]:
            lanes = self.track.lanes[square]
            return ngettext("square {square} has {n} lane", "square {square} has {n} lanes", lanes).format(
                square=square, n=lanes
            )
        return _lane_problem(lane, [r.lane for r in self.riders.values() if r.square == square])

    def __repr__(self) -> str:
        return f"<Race {self.track.name or 'track'} round {self.round} {self.phase.value} riders={len(self.riders)}>"


def _lane_problem(lane: int, taken: Sequence[int]) -> str | None:
    """Setup: why a rider may not start in ``lane`` of a start square whose ``taken`` lanes are given."""
    if lane in taken:
        return _("that lane is taken")
    if lane != 0 and not taken:
        return _("on an empty square a rider takes the right-hand lane")
    return None
