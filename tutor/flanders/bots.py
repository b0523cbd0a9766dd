"""Computer players, and ``autoplay``: the one driver of every action no person decides.

A learner can play against any mix of bots (``Game.new(bots=...)`` records who
is who). A bot only breaks ties at random, with the game's ``bot_draw`` (drawn
from the game's own ``bot_rng``, never the dice's generator), so a bot's choice
never shifts the dice and an undo replays it exactly. The bots differ in when
they stop rolling; they take cards and carry them out the same way:

- ``cautious``: stops as soon as a bust would cost a troop piece, or when the
  bust probability is above 1/6.
- ``bold``: rolls again while the bust probability is at most 1/2.
- ``threshold`` (``threshold:0.8`` sets the threshold; default 0.5): stops when
  the bust probability times the troop pieces at stake (grey symbols held)
  passes the threshold, i.e. when ``Game.expected_bust_loss()`` > threshold.

All stop once the movement they hold already reaches the Objective line. They
take the best card offered (movement, Tank and Mines are good; grey symbols
and German losses are bad), move as far as they can (Tanks last, sacrificing
troops only the bold one), and keep "May Retain" cards (the cautious one only
those without grey symbols).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from fractions import Fraction
from functools import cache
from typing import TypeVar

from tutor.core.events import Event

from .cards import Card
from .game import NINE, Action, EndTurn, Game, Phase, Play, Roll, Stop, Take

T = TypeVar("T")

__all__ = ["Bot", "CautiousBot", "BoldBot", "ThresholdBot", "BOTS", "DEFAULT_BOT", "MAX_ROUNDS", "make_bot", "autoplay"]


class Bot:
    """Base class: ``choose(game)`` returns the current player's next action."""

    name = "bot"
    risk_weight = 1.0
    """How much a grey symbol lowers a British card's value when taking cards."""
    sacrifices = False
    """Whether to sacrifice troop pieces for extra spaces."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    def choose(self, game: Game) -> Action:
        phase = game.phase
        if phase is Phase.ROLL:
            return Roll()
        if phase is Phase.CHOOSE:
            return Take(self._best(game, game.offered(), lambda s: self.space_value(game, s)))
        if phase is Phase.AGAIN:
            return Roll() if self._wants_to_roll(game) else Stop()
        if phase is Phase.RESOLVE:
            return self.resolve(game)
        raise ValueError("the game is over: no action to choose")

    # ----- rolling again ----------------------------------------------------------------------------------
    def _wants_to_roll(self, game: Game) -> bool:
        if movement_held(game) >= game.battlefield.objective - game.player.pawn:
            return False
        return self.roll_again(game)

    def roll_again(self, game: Game) -> bool:
        raise NotImplementedError

    # ----- taking a card ----------------------------------------------------------------------------------
    def card_value(self, card: Card) -> float:
        if card.german:
            return -1.0 - card.losses
        return (
            card.move
            + (1.0 if card.tank else 0.0)
            + (0.8 if card.mines else 0.0)
            + (0.3 if card.retainable else 0.0)
            + (0.3 if card.extra_space else 0.0)
            - self.risk_weight * card.risk
        )

    def space_value(self, game: Game, space: int) -> float:
        if space == NINE:
            return self.card_value(game.cards.fixed) + 0.5  # the fixed card carries no grey symbol
        card = game.spaces[space]
        assert card is not None
        return self.card_value(game.cards.deck[card])

    # ----- carrying out the cards -------------------------------------------------------------------------
    def keeps(self, card: Card) -> bool:
        return True

    def resolve(self, game: Game) -> Action:
        actions = game.legal_actions()
        troops = game.player.troops
        moves = [
            a
            for a in actions
            if isinstance(a, Play)
            and a.spaces > 0
            and (self.sacrifices and troops > 2 or a.spaces <= game.cards[a.card].move)
        ]
        if moves:
            return self._best(game, moves, lambda a: self._move_value(game, a))
        return EndTurn(tuple(c for c in game.keepable() if self.keeps(game.cards[c])))

    def _move_value(self, game: Game, play: Play) -> float:
        card = game.cards[play.card]
        value = float(play.spaces) - 0.3 * len(play.mines)
        if play.spaces > card.move:
            value -= 0.7  # a troop piece for a space
        if card.tank:
            value -= 0.2  # a Tank is worth more after the other cards have reached a line
        return value

    @staticmethod
    def _best(game: Game, options: Sequence[T], score: Callable[[T], float]) -> T:
        """The option with the highest score; a tie is broken with the game's ``bot_draw``."""
        scored = [(score(o), o) for o in options]
        top = max(s for s, _ in scored)
        best = [o for s, o in scored if s == top]
        return best[0] if len(best) == 1 else best[int(game.bot_draw * len(best))]


class CautiousBot(Bot):
    name = "cautious"
    risk_weight = 1.5

    def roll_again(self, game: Game) -> bool:
        return game.at_stake() == 0 and game.bust_probability() <= Fraction(1, 6)

    def keeps(self, card: Card) -> bool:
        return card.risk == 0


class BoldBot(Bot):
    name = "bold"
    risk_weight = 0.3
    sacrifices = True

    def roll_again(self, game: Game) -> bool:
        return game.bust_probability() <= Fraction(1, 2)


class ThresholdBot(Bot):
    name = "threshold"

    def __init__(self, threshold: float = 0.5):
        self.threshold = Fraction(threshold).limit_denominator(1000)
        """Stop when bust probability x troop pieces at stake passes this."""

    def __repr__(self) -> str:
        return f"ThresholdBot({float(self.threshold)})"

    def roll_again(self, game: Game) -> bool:
        return game.expected_bust_loss() <= self.threshold


BOTS: dict[str, type[Bot]] = {"cautious": CautiousBot, "bold": BoldBot, "threshold": ThresholdBot}
DEFAULT_BOT = "cautious"
"""The bot that plays a player who is not a person's and has no bot name."""
MAX_ROUNDS = 1000
"""A game still running after this many rounds is a bug, not an endless loop."""


def make_bot(name: str) -> Bot:
    """A bot by name: ``cautious``, ``bold``, ``threshold`` or ``threshold:<number>``.

    Bots keep no state (their randomness is the game's), so one bot per name serves every game.
    """
    if not isinstance(name, str):
        raise ValueError(f"a bot is given by its name, not {name!r}")
    return _bot(name)


@cache
def _bot(name: str) -> Bot:
    base, _, arg = name.partition(":")
    if base not in BOTS or (arg and base != "threshold"):
        raise ValueError(f"unknown bot {name!r}; known: cautious, bold, threshold, threshold:<number>")
    if arg:
        try:
            value = float(arg)
        except ValueError:
            raise ValueError(f"bot {name!r}: the threshold {arg!r} is not a number") from None
        if not value >= 0:
            raise ValueError(f"bot {name!r}: the threshold must be a number >= 0")
        return ThresholdBot(value)
    return BOTS[base]()


def movement_held(game: Game) -> int:
    """Spaces the current player's held cards (and the pawn on 9) could move, ignoring defensive lines."""
    deck = game.cards.deck
    total = sum(deck[c].move for c in game.held())
    return total + (game.cards.fixed.move if game.on_nine else 0)


def autoplay(game: Game, *, people: Collection[str] | None = None, limit: int | None = None) -> list[Event]:
    """Play the bots' actions, in turn order, until a person must act or the game is over; return the events.

    ``people`` are the players a person plays (default: those with no bot name); every other player is played
    by its bot (``Player.bot``, else ``DEFAULT_BOT``). ``limit`` stops after that many actions (1: one step).
    """
    events: list[Event] = []
    bots: dict[str, Bot | None] = {}  # None: a person plays
    done = 0
    while not game.is_over and (limit is None or done < limit):
        player = game.player
        if player.id not in bots:
            by_a_person = player.id in people if people is not None else player.bot is None
            bots[player.id] = None if by_a_person else make_bot(player.bot or DEFAULT_BOT)
        bot = bots[player.id]
        if bot is None:
            break
        if game.round > MAX_ROUNDS:
            raise RuntimeError(f"the game did not finish in {MAX_ROUNDS} rounds")
        events += game.apply(bot.choose(game))
        done += 1
    return events
