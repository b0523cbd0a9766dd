"""In Flanders Field: the state, the phases and the actions (docs/rules.md, In Flanders Field).

``Game`` is one point of a playthrough. It subclasses ``SeededState``: the dice
and the shuffles come from its own seeded ``random.Random``, it copies with
``copy()``, round-trips with ``to_dict()`` / ``from_dict()`` and keeps an undo
history (``history=False`` is the fast path for simulations). The bots'
randomness is in the state too (``bot_rng``, ``bot_draw``), apart from the
dice. Every action returns the events it caused, each citing its ``rules``; an
illegal action raises a ``RuleError`` subclass and changes nothing. Who plays
a player (``Player.bot``, a bot's name) is part of the setup (the ``bots`` of
``Game.new`` and ``scenario.build``), recorded here and acted on above the
game, by ``tutor.flanders.bots.autoplay``.

The turn is a state machine; ``legal_actions()`` lists what the phase allows:

============ ========================================= =====================================
phase        what happens                              actions
============ ========================================= =====================================
``ROLL``     the turn starts: roll the three dice       ``Roll``
``CHOOSE``   choose two dice, take the card on the sum  ``Take(space)``
``AGAIN``    roll again, or stop                        ``Roll``, ``Stop``
``RESOLVE``  stopped: carry out the cards, one by one   ``Play(card, spaces, mines)``, ``EndTurn(keep)``
``FINISHED`` the game is over: ``winners``              none
============ ========================================= =====================================

A roll that offers no card is a bust: ``Roll`` then resolves it automatically
(grey symbols, German cards, discard, pawn off 9) and ends the turn. ``EndTurn``
and a bust both end the turn the same way: discard, refill (reshuffling the
discard pile when the draw pile runs out), the all-German row rule, the end of
game checks, then the next player's ``ROLL``.

"If all players lose all of their troop pieces, the game ends immediately and
the player who has the most 'advanced' is the winner" (docs/rules.md, In Flanders Field: "the
game ends at once"): the moment a loss (grey symbols at a bust, a German card,
a sacrifice) leaves every player without troop pieces, ``GameOver`` is the last
event and nothing after it is carried out: no further card of that turn, no
move paid for by that sacrifice, no discard or refill.

As docs/rules.md says (In Flanders Field): the rulebook gives neither the card list nor the
map, so the card set and the battlefield are the tutor's illustrative data
(``data/cards.json``, ``data/battlefield.json``); a teacher can replace them
with their edition's cards and map. The rows checked by the all-German rule are
3-5 and 6-8 (the row 9-11 always holds the fixed British card).

Tutor decisions (the rulebook is silent; docs/rule_decisions.md; the ``rules`` with ``decision=True``):

- ``iff.d.out``: with three or four players, a player with no troop pieces left
  takes no more turns (otherwise busts and German cards would cost nothing); the
  pawn stays and counts for "most advanced".
- ``iff.d.two-player-winner``: a two-player game that ends because a player has
  no troops is won by the other player, unless a pawn reached the Objective line
  (then the arrival rules decide). It ends at the end of that turn.
- ``iff.d.objective-cap``: a pawn never moves past the Objective line.
- ``iff.d.line-halt``: "cannot move any further this turn" is tracked as a halt:
  a pawn that moved into a defensive line without a Tank is halted; moving on
  needs a Tank card or one Mines card per line left or passed. A Tank that ends
  on a line does not halt the pawn. A line the pawn stood on at the start of the
  turn does not halt it.
- ``iff.d.order``: when stopping, the player plays the cards one at a time in any
  order (so losses and sacrifices can be ordered); German cards not played by
  ``EndTurn`` are applied then. A card used for its movement or as Mines is spent.
- ``iff.d.retained``: cards kept with "May Retain" are in hand: their grey
  symbols count at a bust and they may be played after a later stop.
- ``iff.d.full-row``: only a full row of three German cards is redrawn; the
  redraw stops if no British card is left in the draw and discard piles.
- ``iff.d.nine-risk``: the fixed card on space 9 is never held, so it has no
  grey symbol at a bust; it acts as Infantry's movement only.

``GameState`` (``game_state.py``) holds the state and its queries; this module adds the construction, the
actions and the automatic steps.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Self, Sequence

from tutor.core.events import Event, Rule

from tutor.i18n import N_, _, ngettext

from . import rules as R
from .battlefield import Battlefield, load_battlefield
from .cards import FIXED, Card, CardId, CardSet, load_cards
from .errors import (
    CardNotHeldError,
    DiceError,
    IllegalMoveError,
    RetainError,
    RuleError,
    SpaceNotAvailableError,
    WrongPhaseError,
)
from .events import (
    Busted,
    CardsDiscarded,
    CardsRetained,
    CardTaken,
    DiceRolled,
    GameOver,
    ObjectiveReached,
    PawnMoved,
    PawnPlacedOnNine,
    PawnRemovedFromNine,
    Reshuffled,
    RowRedrawn,
    SpaceFilled,
    Stopped,
    TroopsLost,
    TurnEnded,
    TurnSkipped,
    TurnStarted,
)
from .game_state import (
    BEGINNER_TROOPS,
    BOT_SEED_SALT,
    CARD_SPACES,
    NINE,
    PLAYER_IDS,
    ROWS,
    TROOPS,
    Action,
    EndTurn,
    GameState,
    Phase,
    Play,
    Player,
    Roll,
    Stop,
    Take,
    _MovePlan,
)
from .odds import pair_sums

_MAX_REDRAWS = 1000  # all-German rows redrawn in one refill (a safety net; see iff.d.full-row)

__all__ = [
    "Game",
    "checked_bots",
    "BEGINNER_TROOPS",
    "BOT_SEED_SALT",
    "CARD_SPACES",
    "NINE",
    "PLAYER_IDS",
    "ROWS",
    "TROOPS",
    "Action",
    "EndTurn",
    "Phase",
    "Play",
    "Player",
    "Roll",
    "Stop",
    "Take",
]


def checked_bots(bots: Mapping[str, str] | None, ids: Sequence[str]) -> dict[str, str]:
    """``bots`` of a setup (``Game.new``, ``scenario.build``): player id -> bot name, each id a player of ``ids``;
    a bad entry raises ``ValueError``. The name is checked by ``bots.make_bot`` when the bot plays."""
    bots = dict(bots or {})
    unknown = [b for b in bots if b not in ids]
    if unknown:
        raise ValueError(f"bots: {unknown[0]!r} is not a player of this game ({', '.join(ids)})")
    if not all(isinstance(name, str) and name for name in bots.values()):
        raise ValueError(f"bots: a bot is given by its name, not {bots!r}")
    return bots


class Game(GameState):
    """One game of In Flanders Field. Start one with ``Game.new``."""

    @classmethod
    def new(
        cls,
        players: int | Sequence[str] = 3,
        *,
        bots: dict[str, str] | None = None,
        beginners: bool | Iterable[str] = False,
        seed: int = 0,
        cards: CardSet | None = None,
        battlefield: Battlefield | None = None,
        history: bool = True,
    ) -> Self:
        """A game at the start of the first player's turn, cards dealt.

        ``players`` is a count (ids ``p1`` ...) or a list of ids; ``bots`` maps an id
        to a bot name (checked by ``bots.make_bot`` when a bot plays); ``beginners``
        (True, or some ids) start with 8 troop pieces.
        """
        ids = [f"p{i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
        if not 2 <= len(ids) <= 4 or len(set(ids)) != len(ids) or not all(isinstance(i, str) and i for i in ids):
            raise ValueError(f"In Flanders Field is for 2 to 4 players with distinct ids, got {ids!r}")
        bots = checked_bots(bots, ids)
        novices = set(ids) if beginners is True else set() if beginners is False else set(beginners)
        if novices - set(ids):
            raise ValueError(f"beginners: {sorted(novices - set(ids))[0]!r} is not a player of this game")
        roster = [Player(i, BEGINNER_TROOPS if i in novices else TROOPS, bot=bots.get(i)) for i in ids]
        game = cls(cards or load_cards(), battlefield or load_battlefield(), roster, seed=seed, history=history)
        game.setup_events = game.deal_start()
        return game

    def deal_start(self) -> list[Event]:
        """The setup's deal (``new``): the deck shuffled, a card on each card space, no row all German; its events.
        WrongPhaseError once a card has been dealt."""
        if self.draw or self.discard or any(card is not None for card in self.spaces.values()):
            raise WrongPhaseError(_("the cards are dealt once, at the start of the game"))
        self.draw = list(range(len(self.cards)))
        self.rng.shuffle(self.draw)
        events: list[Event] = []
        for s in CARD_SPACES:
            events += self._fill(s, R.SETUP_DEAL)
        events += self._german_rows()
        events.append(TurnStarted(self.players[0].id, 1, rules=(R.ROLL,), automatic=True))
        return events

    def is_legal(self, action: Action) -> bool:
        """Whether ``apply(action)`` would succeed (tried on a copy)."""
        try:
            self.copy_without_history().apply(action)
        except RuleError:
            return False
        return True

    def copy_without_history(self) -> Self:
        """A copy with no undo history (cheap to make; what bots and ``is_legal`` explore)."""
        data = self.to_dict(history=False)
        data["history"] = None
        return type(self).from_dict(data)

    # ----- actions ----------------------------------------------------------------------------------------
    def apply(self, action: Action) -> list[Event]:
        """Carry out one action (from ``legal_actions`` or built by hand) and return its events."""
        if isinstance(action, Roll):
            return self.roll(action.dice)
        if isinstance(action, Take):
            return self.take(action.space)
        if isinstance(action, Stop):
            return self.stop()
        if isinstance(action, Play):
            return self.play(action.card, action.spaces, action.mines)
        if isinstance(action, EndTurn):
            return self.end_turn(action.keep)
        raise TypeError(f"not an In Flanders Field action: {action!r}")

    def _require(self, *phases: Phase, action: str) -> None:
        if self.phase not in phases:
            allowed = phases[0].word
            for other in phases[1:]:
                allowed = _("{one} or {other}").format(one=allowed, other=other.word)
            raise WrongPhaseError(
                _("{action} belongs to the {allowed} phase; the game is in the {phase} phase ({title})").format(
                    action=_(action), allowed=allowed, phase=self.phase.word, title=self.phase.title
                )
            )

    def roll(self, dice: Sequence[int] | None = None) -> list[Event]:
        """Roll the three dice (``ROLL`` or ``AGAIN``). A roll that offers no card is a bust, resolved at once.

        ``dice`` loads the roll (for lessons and scenarios); the game's generator is then not used.
        """
        self._require(Phase.ROLL, Phase.AGAIN, action=N_("rolling the dice"))
        loaded = dice is not None
        if dice is not None:
            values = tuple(dice)
            if len(values) != 3 or not all(
                isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in values
            ):
                raise DiceError(_("dice {dice}: give three values from 1 to 6").format(dice=list(values)))
            self._save()
            roll = (values[0], values[1], values[2])
        else:
            self._save()
            rand = self.rng.random
            roll = (int(rand() * 6) + 1, int(rand() * 6) + 1, int(rand() * 6) + 1)
        offered = self._offered(roll)
        events: list[Event] = [DiceRolled(self.player.id, roll, pair_sums(roll), offered, loaded, rules=(R.ROLL,))]
        if offered:
            self.dice = roll
            self.phase = Phase.CHOOSE
            return events
        return events + self._bust(roll)

    def take(self, space: int) -> list[Event]:
        """``CHOOSE``: take the card on ``space`` (the sum of two dice), or put the second pawn on 9."""
        self._require(Phase.CHOOSE, action=N_("taking a card"))
        assert self.dice is not None
        dice = self.dice
        offered = self.offered()
        chosen_pair = next((p for p in self.pairs() if p.offered and p.total == space), None)  # as legal_actions
        if chosen_pair is None:
            raise SpaceNotAvailableError(
                _(
                    "space {space} is not offered by the dice {dice}: their pairs make {sums} and the spaces you may "
                    "take are {offered}"
                ).format(
                    space=repr(space),
                    dice="-".join(map(str, dice)),
                    sums=", ".join(map(str, pair_sums(dice))),
                    offered=", ".join(map(str, offered)),
                )
            )
        chosen = chosen_pair.dice
        self._save()
        pair = chosen_pair.values
        forced = len(offered) == 1
        must = (R.MUST_TAKE,) if forced else ()
        self.dice = None
        self.phase = Phase.AGAIN
        pid = self.player.id
        if space == NINE:
            self.on_nine = True
            return [PawnPlacedOnNine(pid, pair, chosen, forced, rules=(R.TAKE, R.NINE) + must)]
        card = self.spaces[space]
        assert card is not None
        self.spaces[space] = None
        self.taken.append(card)
        kind = self.cards.deck[card]
        return [
            CardTaken(pid, space, pair, chosen, card, kind.name, kind.german, forced, rules=(R.TAKE, R.VACATED) + must)
        ]

    def stop(self) -> list[Event]:
        """``AGAIN``: stop rolling and carry out the cards (``RESOLVE``)."""
        self._require(Phase.AGAIN, action=N_("stopping"))
        self._save()
        self.phase = Phase.RESOLVE
        self.used = []
        self.halted = False
        return [Stopped(self.player.id, tuple(self.held()), self.on_nine, rules=(R.STOP, R.ORDER))]

    def play(self, card: CardId, spaces: int = 0, mines: Sequence[CardId] = ()) -> list[Event]:
        """``RESOLVE``: carry out one card. A movement card moves the pawn ``spaces`` (1 up to its ``move``, one
        more with a troop sacrifice), spending ``mines`` to go past defensive lines; a German card costs its
        losses (``spaces`` 0)."""
        self._require(Phase.RESOLVE, action=N_("playing a card"))
        hand = self.hand()
        if card not in hand:
            raise CardNotHeldError(self._not_held(card, N_("play")))
        kind = self.cards[card]
        mines = tuple(mines)
        pid = self.player.id
        if kind.german or not kind.move:
            if kind.british:
                raise IllegalMoveError(
                    _(
                        "{name} (card {card}) does not move the pawn: a Mines card is spent in "
                        "the 'mines' of a movement card's play"
                    ).format(name=kind.name, card=card)
                )
            if spaces or mines:
                raise IllegalMoveError(
                    _("{name} (card {card}) is a German card: play it with no spaces and no mines").format(
                        name=kind.name, card=card
                    )
                )
            self._save()
            self.used.append(card)
            return self._lose(kind.losses, "german", card, (R.LOSSES, R.ORDER), automatic=False)
        plan = self._plan(card, kind, spaces, mines, hand)
        self._save()
        player = self.player
        events: list[Event] = []
        self.used += [card, *mines]
        if plan.sacrifice:
            events += self._lose(1, "sacrifice", card, (R.SACRIFICE,), automatic=False)
            if self.is_over:
                return events
        player.pawn = plan.to
        self.halted = plan.halted
        cited: tuple[Rule, ...] = (R.MOVE,)
        if card == FIXED:
            cited += (R.NINE_MOVE,)
        if plan.sacrifice:
            cited += (R.SACRIFICE,)
        if kind.tank and any(self.battlefield.lines[s] for s in range(plan.frm + 1, plan.to + 1)):
            cited += (R.TANK,)
        if mines:
            cited += (R.MINES, R.LINE_HALT)
        if plan.halted:
            cited += (R.LINE,)
        events.append(
            PawnMoved(
                pid,
                card,
                kind.name,
                plan.frm,
                plan.to,
                plan.allowed,
                plan.sacrifice,
                kind.tank,
                mines,
                plan.crossed,
                plan.cleared,
                plan.halted,
                rules=cited,
            )
        )
        if card == FIXED:
            self.on_nine = False
            events.append(PawnRemovedFromNine(pid, rules=(R.NINE_MOVE,), automatic=True))
        if plan.to == self.battlefield.objective:
            events.append(ObjectiveReached(pid, player.troops, rules=(R.OBJECTIVE,), automatic=True))
        return events

    def _not_held(self, card: CardId, verb: str) -> str:
        """Why ``card`` cannot be used; ``verb`` is an ``N_`` message (``"play"``)."""
        if card == FIXED:
            return _(
                "cannot {verb} the fixed card: your second pawn is not on space 9 (or it was already used)"
            ).format(verb=_(verb))
        known = isinstance(card, int) and 0 <= card < len(self.cards)
        if known and card in self.used:
            return _("card {card} ({name}) was already used this turn").format(card=card, name=self.cards[card].name)
        held = ", ".join(f"{c} ({self.cards[c].name})" for c in self.hand()) or _("none")
        if known:
            return _("cannot {verb} card {card} ({name}): you do not hold it; cards in hand: {held}").format(
                verb=_(verb), card=repr(card), name=self.cards[card].name, held=held
            )
        return _("cannot {verb} card {card}: you do not hold it; cards in hand: {held}").format(
            verb=_(verb), card=repr(card), held=held
        )

    def _plan(self, card: CardId, kind: Card, spaces: int, mines: tuple[CardId, ...], hand: list[CardId]) -> _MovePlan:
        player, field_ = self.player, self.battlefield
        pos, objective = player.pawn, field_.objective
        most = kind.move + (1 if kind.extra_space else 0)
        if not isinstance(spaces, int) or isinstance(spaces, bool) or not 1 <= spaces <= most:
            words = (
                ngettext(
                    "{name} moves the pawn {move} space, or {most} by sacrificing a troop piece, not {spaces}",
                    "{name} moves the pawn 1 to {move} spaces, or {most} by sacrificing a troop piece, not {spaces}",
                    kind.move,
                )
                if kind.extra_space
                else ngettext(
                    "{name} moves the pawn {move} space, not {spaces}",
                    "{name} moves the pawn 1 to {move} spaces, not {spaces}",
                    kind.move,
                )
            )
            raise IllegalMoveError(words.format(name=kind.name, move=kind.move, most=most, spaces=repr(spaces)))
        if spaces > kind.move and player.troops == 0:
            raise IllegalMoveError(
                _("{name}: the extra space needs a troop piece to sacrifice, and {player} has none left").format(
                    name=kind.name, player=player.id
                )
            )
        if pos + spaces > objective:
            raise IllegalMoveError(
                ngettext(
                    "the pawn on space {pos} is {left} space from the Objective line (space "
                    "{objective}); it cannot move {spaces}",
                    "the pawn on space {pos} is {left} spaces from the Objective line (space "
                    "{objective}); it cannot move {spaces}",
                    objective - pos,
                ).format(pos=pos, left=objective - pos, objective=objective, spaces=spaces)
            )
        for m in mines:
            if m not in hand or m == FIXED:
                raise CardNotHeldError(self._not_held(m, N_("spend")))
            if m == card or mines.count(m) > 1:
                raise IllegalMoveError(
                    _("mines: card {card} cannot be spent twice, nor be the card that moves").format(card=m)
                )
            if not self.cards[m].mines:
                raise IllegalMoveError(
                    _("mines: card {card} ({name}) is not a Mines card").format(card=m, name=self.cards[m].name)
                )
        need = self._lines_to_clear(kind, spaces)
        if len(mines) < len(need):
            where = need[len(mines)]
            words = (
                ngettext(
                    "the pawn is halted on the defensive line at space {space}: moving on needs a Mines card "
                    "for it, or a Tank ({need} Mines card needed, {given} given)",
                    "the pawn is halted on the defensive line at space {space}: moving on needs a Mines card "
                    "for it, or a Tank ({need} Mines cards needed, {given} given)",
                    len(need),
                )
                if self.halted and where == pos
                else ngettext(
                    "the pawn would pass the defensive line at space {space}: moving on needs a Mines card "
                    "for it, or a Tank ({need} Mines card needed, {given} given)",
                    "the pawn would pass the defensive line at space {space}: moving on needs a Mines card "
                    "for it, or a Tank ({need} Mines cards needed, {given} given)",
                    len(need),
                )
            )
            raise IllegalMoveError(words.format(space=where, need=len(need), given=len(mines)))
        if len(mines) > len(need):
            raise IllegalMoveError(
                ngettext(
                    "this move needs {need} Mines card, not {given}",
                    "this move needs {need} Mines cards, not {given}",
                    len(need),
                ).format(need=len(need), given=len(mines))
            )
        lines = field_.lines
        crossed = tuple(s for s in range(pos, pos + spaces) if lines[s])
        sacrifice = spaces > kind.move
        return _MovePlan(
            pos,
            pos + spaces,
            most if sacrifice else kind.move,
            sacrifice,
            crossed,
            tuple(self._lines_in_the_way(spaces)),
            lines[pos + spaces] and not kind.tank,
        )

    def end_turn(self, keep: Sequence[CardId] = ()) -> list[Event]:
        """``RESOLVE``: keep some unused "May Retain" cards, apply unplayed German cards, discard, refill, and
        pass to the next player."""
        self._require(Phase.RESOLVE, action=N_("ending the turn"))
        keep = tuple(keep)
        hand = self.hand()
        for c in keep:
            if c not in hand or c == FIXED:
                raise CardNotHeldError(self._not_held(c, N_("keep")))
            if keep.count(c) > 1:
                raise RetainError(
                    _("card {card} ({name}) is listed twice in 'keep'").format(card=c, name=self.cards[c].name)
                )
            kind = self.cards[c]
            if not kind.retainable:
                raise RetainError(
                    _('card {card} ({name}) is not marked "May Retain": it is discarded at the end of the turn').format(
                        card=c, name=kind.name
                    )
                )
        self._save()
        player, deck = self.player, self.cards.deck
        events: list[Event] = []
        for c in hand:
            if c != FIXED and deck[c].german:
                self.used.append(c)
                events += self._lose(deck[c].losses, "german", c, (R.LOSSES, R.ORDER), automatic=True)
                if self.is_over:
                    return events
        if self.on_nine:
            self.on_nine = False
            events.append(PawnRemovedFromNine(player.id, rules=(R.NINE_MOVE,), automatic=True))
        held = self.held()
        kept = [c for c in held if c in keep]
        gone = [c for c in held if c not in keep]
        player.retained = kept
        self.taken = []
        events += self._discard(gone, (R.DISCARD,))
        if kept:
            events.append(
                CardsRetained(
                    player.id, tuple(kept), tuple(deck[c].name for c in kept), rules=(R.RETAIN, R.RETAINED_IN_HAND)
                )
            )
        return events + self._finish_turn(bust=False)

    # ----- automatic steps --------------------------------------------------------------------------------
    def _lose(
        self, count: int, cause: str, card: CardId | None, cited: tuple[Rule, ...], automatic: bool = True
    ) -> list[Event]:
        """The current player loses ``count`` troop pieces (as many as it has); if that leaves every player
        without troop pieces the game ends here (``GameOver`` follows): callers stop once ``is_over``."""
        player = self.player
        lost = min(count, player.troops)
        player.troops -= lost
        events: list[Event] = [
            TroopsLost(player.id, lost, count, cause, card, player.troops, rules=cited, automatic=automatic)
        ]
        if self._everyone_out():
            player.turns += 1  # the turn ends with the game
            events += self._game_over("everyone-lost")
        return events

    def _everyone_out(self) -> bool:
        return all(p.troops == 0 for p in self.players)

    def _discard(self, cards: list[CardId], cited: tuple[Rule, ...]) -> list[Event]:
        if not cards:
            return []
        self.discard += cards
        deck = self.cards.deck
        return [
            CardsDiscarded(
                self.player.id, tuple(cards), tuple(deck[c].name for c in cards), rules=cited, automatic=True
            )
        ]

    def _bust(self, dice: tuple[int, int, int]) -> list[Event]:
        player, deck = self.player, self.cards.deck
        held = self.held()
        risk = self.at_stake()
        events: list[Event] = [Busted(player.id, dice, risk, rules=(R.BUST,), automatic=True)]
        cited = (R.BUST_RISK, R.RETAINED_IN_HAND) if player.retained else (R.BUST_RISK,)
        events += self._lose(risk, "bust", None, cited)
        for c in self.taken:
            if deck[c].german and not self.is_over:
                events += self._lose(deck[c].losses, "german", c, (R.BUST_GERMAN, R.LOSSES))
        if self.is_over:
            return events
        player.retained = []
        self.taken = []
        events += self._discard(held, (R.BUST_DISCARD, R.DISCARD))
        if self.on_nine:
            self.on_nine = False
            events.append(PawnRemovedFromNine(player.id, rules=(R.BUST_NINE,), automatic=True))
        return events + self._finish_turn(bust=True)

    def _draw_one(self) -> tuple[CardId | None, list[Event]]:
        events: list[Event] = []
        if not self.draw:
            if not self.discard:
                return None, events
            self.draw, self.discard = self.discard, []
            self.rng.shuffle(self.draw)
            events.append(Reshuffled(len(self.draw), rules=(R.RESHUFFLE,), automatic=True))
        return self.draw.pop(), events

    def _fill(self, space: int, rule: Rule) -> list[Event]:
        card, events = self._draw_one()
        if card is not None:
            self.spaces[space] = card
            kind = self.cards.deck[card]
            events.append(SpaceFilled(space, card, kind.name, kind.german, rules=(rule,), automatic=True))
        return events

    def _german_rows(self) -> list[Event]:
        events: list[Event] = []
        deck = self.cards.deck
        for _redraw in range(_MAX_REDRAWS):
            row = next((r for r in ROWS if self._all_german(r)), None)
            if row is None or not any(deck[c].british for c in self.draw + self.discard):
                break
            cards = tuple(self.spaces[s] for s in row)
            ids = tuple(c for c in cards if c is not None)
            for s in row:
                self.spaces[s] = None
            self.discard += ids
            events.append(RowRedrawn(row, ids, tuple(deck[c].name for c in ids), rules=(R.GERMAN_ROW,), automatic=True))
            for s in row:
                events += self._fill(s, R.GERMAN_ROW)
        return events

    def _all_german(self, row: tuple[int, int, int]) -> bool:
        deck = self.cards.deck
        for s in row:
            card = self.spaces[s]
            if card is None or not deck[card].german:
                return False
        return True

    def _finish_turn(self, bust: bool) -> list[Event]:
        player = self.player
        player.turns += 1
        self.dice, self.used, self.on_nine, self.halted = None, [], False, False
        events: list[Event] = [TurnEnded(player.id, bust, rules=(R.DISCARD,), automatic=True)]
        for s in CARD_SPACES:
            if self.spaces[s] is None:
                events += self._fill(s, R.REFILL)
        events += self._german_rows()
        players = self.players
        if self._everyone_out():  # only a position set up with every player out gets here
            return events + self._game_over("everyone-lost")
        if len(players) == 2 and any(p.troops == 0 for p in players):
            return events + self._game_over("two-players")
        objective = self.battlefield.objective
        index = self.current
        while True:
            index += 1
            if index == len(players):
                if any(p.pawn == objective for p in players):
                    return events + self._game_over("objective")
                index = 0
                self.round += 1
            if players[index].troops > 0:
                break
            events.append(TurnSkipped(players[index].id, rules=(R.OUT_OF_TROOPS,), automatic=True))
        self.current = index
        self.phase = Phase.ROLL
        events.append(TurnStarted(players[index].id, self.round, rules=(R.ROLL,), automatic=True))
        return events

    def _game_over(self, reason: str) -> list[Event]:
        players, objective = self.players, self.battlefield.objective
        arrived = [p for p in players if p.pawn == objective]
        cited: tuple[Rule, ...]
        if reason == "everyone-lost":
            best = max(p.pawn for p in players)
            winners = [p for p in players if p.pawn == best]
            cited = (R.EVERYONE_LOST,)
        elif arrived:
            most = max(p.troops for p in arrived)
            winners = [p for p in arrived if p.troops == most]
            cited = (R.TWO_PLAYERS, R.TWO_PLAYER_WINNER) if reason == "two-players" else (R.OBJECTIVE,)
            cited += (R.ONE_ARRIVAL,) if len(arrived) == 1 else (R.SEVERAL_ARRIVALS,)
        else:
            winners = [p for p in players if p.troops > 0]
            cited = (R.TWO_PLAYERS, R.TWO_PLAYER_WINNER)
        if len(winners) > 1:
            cited += (R.TIE,)
        self.winners = [p.id for p in winners]
        self.end_reason = reason
        self.phase = Phase.FINISHED
        return [
            GameOver(
                tuple(self.winners),
                reason,
                tuple((p.id, p.troops) for p in players),
                tuple((p.id, p.pawn) for p in players),
                rules=cited,
                automatic=True,
            )
        ]
