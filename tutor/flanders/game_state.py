"""The state of a game of In Flanders Field and its queries: the phases, the actions as values, the players, and
``GameState`` (the cards on the spaces, the piles, whose turn and what it holds, the odds of a bust, the legal
actions, undo and JSON). ``Game`` (``game.py``) adds the construction, the actions and the automatic steps.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from typing import Any, Self, Sequence

from tutor.core.events import Event
from tutor.core.state import SeededState, rng_state, set_rng_state
from tutor.i18n import N_, _

from . import odds
from .battlefield import Battlefield
from .cards import FIXED, Card, CardId, CardSet
from .odds import SPACES, DicePair, dice_pairs

NINE = 9
"""The card space that holds the fixed card."""
CARD_SPACES = tuple(s for s in SPACES if s != NINE)
"""The spaces dealt from the draw pile."""
ROWS: tuple[tuple[int, int, int], ...] = ((3, 4, 5), (6, 7, 8))
"""The rows the all-German rule checks (the row 9-11 always holds the fixed British card)."""
TROOPS, BEGINNER_TROOPS = 6, 8
PLAYER_IDS = ("p1", "p2", "p3", "p4")
BOT_SEED_SALT = 0x5EED_B075
"""``bot_rng`` is seeded with ``seed ^ BOT_SEED_SALT``: its own stream, replayable from the game's seed."""


class Phase(enum.Enum):
    ROLL = "roll"
    CHOOSE = "choose"
    AGAIN = "again"
    RESOLVE = "resolve"
    FINISHED = "finished"

    @property
    def title(self) -> str:
        return _(_PHASE_TITLES[self])

    @property
    def word(self) -> str:
        """The phase's name in the learner's language ("choose"; never its value, an identifier)."""
        return _(_PHASE_WORDS[self])


_PHASE_WORDS = {
    Phase.ROLL: N_("roll"),
    Phase.CHOOSE: N_("choose"),
    Phase.AGAIN: N_("roll again"),
    Phase.RESOLVE: N_("resolve"),
    Phase.FINISHED: N_("finished"),
}

_PHASE_TITLES = {
    Phase.ROLL: N_("Roll the three dice"),
    Phase.CHOOSE: N_("Choose two dice: take the card on the space of their sum"),
    Phase.AGAIN: N_("Roll again, or stop"),
    Phase.RESOLVE: N_("Carry out your cards, then end the turn"),
    Phase.FINISHED: N_("The game is over"),
}


# ----- actions: returned by ``legal_actions`` and accepted by ``apply`` ---------------------------------------
@dataclass(frozen=True, slots=True)
class Roll:
    dice: tuple[int, int, int] | None = None
    """None rolls with the game's generator; three values load the dice (lessons and scenarios)."""


@dataclass(frozen=True, slots=True)
class Take:
    space: int
    """The sum of the two dice chosen (9 places the second pawn on the fixed card)."""


@dataclass(frozen=True, slots=True)
class Stop:
    pass


@dataclass(frozen=True, slots=True)
class Play:
    card: CardId
    """A card in hand, or ``FIXED`` for the fixed card under the pawn on space 9."""
    spaces: int = 0
    """Spaces to move (0 for a German card); one more than the card's ``move`` sacrifices a troop piece."""
    mines: tuple[CardId, ...] = ()
    """Mines cards spent to continue past defensive lines, one per line."""


@dataclass(frozen=True, slots=True)
class EndTurn:
    keep: tuple[CardId, ...] = ()
    """Unused "May Retain" cards to keep for the next turn."""


Action = Roll | Take | Stop | Play | EndTurn


@dataclass(slots=True)
class Player:
    id: str
    troops: int
    """Troop pieces left (never negative)."""
    pawn: int = 0
    """Battlefield space of the coloured pawn: 0 is the starting line."""
    retained: list[CardId] = field(default_factory=list)
    """British "May Retain" cards kept from earlier turns (held: they count at a bust)."""
    turns: int = 0
    """Turns played."""
    bot: str | None = None
    """None for a person, else the bot's name (``tutor.flanders.bots.make_bot`` checks it)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "troops": self.troops,
            "pawn": self.pawn,
            "retained": list(self.retained),
            "turns": self.turns,
            "bot": self.bot,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Player:
        return cls(d["id"], d["troops"], d["pawn"], list(d["retained"]), d["turns"], d["bot"])


@dataclass(frozen=True, slots=True)
class _MovePlan:
    frm: int
    to: int
    allowed: int
    sacrifice: bool
    crossed: tuple[int, ...]
    cleared: tuple[int, ...]
    halted: bool


class GameState(SeededState):
    """A game's state and its queries (``Game`` is the whole game)."""

    def __init__(
        self,
        cards: CardSet,
        battlefield: Battlefield,
        players: Sequence[Player],
        *,
        seed: int = 0,
        history: bool = True,
    ):
        super().__init__(seed, history)
        self.bot_rng = random.Random(seed ^ BOT_SEED_SALT)
        """The bots' generator (never used for dice or shuffles); it draws ``bot_draw`` at every action."""
        self.bot_draw = self.bot_rng.random()
        """The number in [0, 1) a bot uses to break a tie in its next choice (a bot reads it, never draws)."""
        self.cards = cards
        self.battlefield = battlefield
        self.players = list(players)
        self.spaces: dict[int, CardId | None] = {s: None for s in CARD_SPACES}
        """The card on each space 3-11 except 9 (None: empty)."""
        self.draw: list[CardId] = []
        """The draw pile; the top card is the last one."""
        self.discard: list[CardId] = []
        self.phase = Phase.ROLL
        self.current = 0
        """Index in ``players`` of the player whose turn it is."""
        self.round = 1
        self.dice: tuple[int, int, int] | None = None
        """The roll to choose from (``CHOOSE`` phase only)."""
        self.taken: list[CardId] = []
        """Cards taken this turn, in order."""
        self.on_nine = False
        """The current player's second pawn is on space 9."""
        self.used: list[CardId] = []
        """Cards played while resolving this turn (``FIXED`` for the card on space 9)."""
        self.halted = False
        """The pawn moved into a defensive line this turn and may only move on with a Tank or Mines."""
        self.winners: list[str] = []
        self.end_reason: str | None = None
        """``"objective"``, ``"everyone-lost"`` or ``"two-players"`` once the game is over."""
        self.setup_events: list[Event] = []
        """The deal and the first turn's start (not serialized)."""

    # ----- queries ----------------------------------------------------------------------------------------
    @property
    def player(self) -> Player:
        """The player whose turn it is."""
        return self.players[self.current]

    def get_player(self, player_id: str) -> Player:
        for p in self.players:
            if p.id == player_id:
                return p
        raise ValueError(f"no player {player_id!r} in this game ({', '.join(p.id for p in self.players)})")

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.FINISHED

    def is_out(self, player_id: str) -> bool:
        """The player has no troop pieces left, so takes no more turns (``iff.d.out``; with two players the game
        ends instead)."""
        return self.get_player(player_id).troops == 0

    def standings(self) -> list[Player]:
        """The players best first, as the results table lists them: the winners, then the players who still
        have troop pieces, each group by the pawn furthest forward, then by the troop pieces left."""
        winners = set(self.winners)
        return sorted(self.players, key=lambda p: (p.id not in winners, p.troops == 0, -p.pawn, -p.troops))

    def available(self) -> tuple[int, ...]:
        """Spaces a pair of dice may take now: those with a card, and 9 unless the pawn is on it."""
        mask = self._available_mask()
        return tuple(s for s in SPACES if mask >> s & 1)

    def _available_mask(self) -> int:
        """``available()`` as a bit mask (bit ``s`` for space ``s``; ``odds.mask_of``)."""
        mask = 0 if self.on_nine else 1 << NINE
        for s, card in self.spaces.items():
            if card is not None:
                mask |= 1 << s
        return mask

    def pairs(self, dice: Sequence[int] | None = None) -> tuple[DicePair, ...]:
        """The three pairs of ``dice`` (by default the roll to choose from; none before a roll), in ``odds.PAIRS``
        order, each with its sum and whether it is offered now: ``Take(pair.total)`` is legal and uses that pair.

        The one query a panel, a button or a refusal asks about a roll; ``offered`` and ``legal_actions`` are built
        on it. For other dice than the roll (a roll to come), ``offered`` says what they would offer now.
        """
        if dice is None:
            dice = self.dice
            if dice is None:
                return ()
        return dice_pairs(dice, self._available_mask())

    def offered(self) -> tuple[int, ...]:
        """``CHOOSE`` phase: the spaces the roll lets the player take (at least one), in order."""
        return tuple(sorted(p.total for p in self.pairs() if p.offered)) if self.dice is not None else ()

    def _offered(self, dice: tuple[int, int, int]) -> tuple[int, ...]:
        return tuple(sorted(p.total for p in self.pairs(dice) if p.offered))

    def held(self) -> list[CardId]:
        """The current player's cards: retained from earlier turns, then those taken this turn."""
        return self.player.retained + self.taken

    def hand(self) -> list[CardId]:
        """Cards the current player may still play (``FIXED`` last when the pawn is on space 9)."""
        cards = [c for c in self.held() if c not in self.used]
        if self.on_nine and FIXED not in self.used:
            cards.append(FIXED)
        return cards

    def held_cards(self) -> list[Card]:
        """The ``Card`` of each card ``held()``."""
        deck = self.cards.deck
        return [deck[c] for c in self.held()]

    def at_stake(self) -> int:
        """Troop pieces a bust would cost now: the grey symbols on the British cards held (``odds.bust_risk``)."""
        return odds.bust_risk(self.held_cards())

    def bust_probability(self) -> Fraction:
        """The exact chance that the next roll busts, with the spaces available now (``odds.bust_probability``)."""
        return odds.bust_chance(self._available_mask())

    def expected_bust_loss(self) -> Fraction:
        """Expected troop pieces lost at a bust by rolling again (``odds.expected_bust_loss``)."""
        return odds.expected_loss(self._available_mask(), self.at_stake())

    def card_count(self) -> int:
        """Cards on spaces, in the piles, retained and taken: always ``len(self.cards)``."""
        return (
            sum(c is not None for c in self.spaces.values())
            + len(self.draw)
            + len(self.discard)
            + len(self.taken)
            + sum(len(p.retained) for p in self.players)
        )

    # ----- legal actions ----------------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every action the current player may take now (with canonical ``mines`` choices)."""
        phase = self.phase
        if phase is Phase.ROLL:
            return [Roll()]
        if phase is Phase.CHOOSE:
            return [Take(s) for s in self.offered()]  # built on ``pairs()``
        if phase is Phase.AGAIN:
            return [Roll(), Stop()]
        if phase is Phase.FINISHED:
            return []
        actions: list[Action] = []
        hand = self.hand()
        deck = self.cards.deck
        mines = [c for c in hand if c != FIXED and deck[c].mines]
        for card in hand:
            kind = self.cards[card]
            if kind.german:
                actions.append(Play(card))
                continue
            spare = [m for m in mines if m != card]
            for spaces in range(1, self._max_spaces(kind) + 1):
                need = len(self._lines_to_clear(kind, spaces))
                if need <= len(spare):
                    actions.append(Play(card, spaces, tuple(spare[:need])))
        keepable = self.keepable()
        for n in range(len(keepable) + 1):
            actions += [EndTurn(keep) for keep in combinations(keepable, n)]
        return actions

    def _max_spaces(self, kind: Card) -> int:
        """Most spaces a movement card allows now (a sacrifice needs a troop; never past the Objective line)."""
        most = kind.move + (1 if kind.extra_space and self.player.troops > 0 else 0)
        return min(most, self.battlefield.objective - self.player.pawn)

    def _lines_to_clear(self, kind: Card, spaces: int) -> list[int]:
        """Defensive lines a move of ``spaces`` must get past with Mines (none for a Tank)."""
        return [] if kind.tank else self._lines_in_the_way(spaces)

    def _lines_in_the_way(self, spaces: int) -> list[int]:
        """Defensive lines that stop a move of ``spaces`` unless a Tank or Mines get the pawn past them: the line
        it is halted on, and those it would pass."""
        pos, lines = self.player.pawn, self.battlefield.lines
        need = [pos] if self.halted else []
        return need + [s for s in range(pos + 1, pos + spaces) if lines[s]]

    def keepable(self) -> list[CardId]:
        """Cards in hand the player may keep at the end of the turn (``Card.retainable``)."""
        deck = self.cards.deck
        return [c for c in self.hand() if c != FIXED and deck[c].retainable]

    # ----- undo and the bots' randomness --------------------------------------------------------------
    def _save(self) -> None:
        """Before every legal action: the undo snapshot, then the bots' next tie-break (so undo restores it)."""
        super()._save()
        self.bot_draw = self.bot_rng.random()

    # ----- JSON -------------------------------------------------------------------------------------------
    def _state_dict(self) -> dict[str, Any]:
        return {
            "game": "flanders",
            "cards": self.cards.to_dict(),
            "battlefield": self.battlefield.to_dict(),
            "players": [p.to_dict() for p in self.players],
            "spaces": {str(s): c for s, c in self.spaces.items()},
            "draw": list(self.draw),
            "discard": list(self.discard),
            "phase": self.phase.value,
            "current": self.current,
            "round": self.round,
            "dice": None if self.dice is None else list(self.dice),
            "taken": list(self.taken),
            "on_nine": self.on_nine,
            "used": list(self.used),
            "halted": self.halted,
            "winners": list(self.winners),
            "end_reason": self.end_reason,
            "bot_rng": rng_state(self.bot_rng),
            "bot_draw": self.bot_draw,
        }

    def _load_state(self, data: dict[str, Any]) -> None:
        # Undo snapshots share the data dicts, so the usual check is one identity test.
        if data["cards"] is not self.cards.to_dict() and data["cards"] != self.cards.to_dict():
            self.cards = CardSet.from_dict(data["cards"])
        if data["battlefield"] is not self.battlefield.to_dict() and data["battlefield"] != self.battlefield.to_dict():
            self.battlefield = Battlefield.from_dict(data["battlefield"])
        self.players = [Player.from_dict(p) for p in data["players"]]
        self.spaces = {int(s): c for s, c in data["spaces"].items()}
        self.draw = list(data["draw"])
        self.discard = list(data["discard"])
        self.phase = Phase(data["phase"])
        self.current = data["current"]
        self.round = data["round"]
        dice = data["dice"]
        self.dice = None if dice is None else (dice[0], dice[1], dice[2])
        self.taken = list(data["taken"])
        self.on_nine = data["on_nine"]
        self.used = list(data["used"])
        self.halted = data["halted"]
        self.winners = list(data["winners"])
        self.end_reason = data["end_reason"]
        set_rng_state(self.bot_rng, data["bot_rng"])
        self.bot_draw = data["bot_draw"]

    @classmethod
    def _empty(cls, data: dict[str, Any]) -> Self:
        return cls(CardSet.from_dict(data["cards"]), Battlefield.from_dict(data["battlefield"]), [])
