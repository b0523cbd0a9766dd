"""``Picture``: what the board shows at one moment, as plain data; ``picture_of(game)`` and ``frames_for``.

The canvas draws a ``Picture``, never the game directly, so an animation is a
list of pictures: ``frames_for(before, events, captions)`` starts from the
picture before an action and applies the action's events one at a time (the
dice tumbling, a card taken, each troop loss, each space of a move, the
discard, the pawn off space 9, each refill), each frame with the sentence and
the rule that explain it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Sequence

from tutor.core.events import Event
from tutor.flanders.cards import FIXED, CardId
from tutor.flanders.events import (
    Busted,
    CardsDiscarded,
    CardsRetained,
    CardTaken,
    DiceRolled,
    GameOver,
    PawnMoved,
    PawnPlacedOnNine,
    PawnRemovedFromNine,
    RowRedrawn,
    SpaceFilled,
    Stopped,
    TroopsLost,
    TurnEnded,
    TurnStarted,
)
from tutor.flanders.game import Game, Phase
from tutor.flanders.odds import DicePair, dice_pairs, mask_of, pair_sums
from tutor.i18n import N_, _

STEP_MS = 650
"""How long one step of an animation stays on screen."""
ROLL_FRAMES, ROLL_FRAME_MS = 5, 70
MOVE_MS = 260


@dataclass(frozen=True)
class PlayerView:
    id: str
    label: str
    """``"p1 (you)"``, ``"p2 · bold bot"``."""
    pawn: int
    troops: int
    start_troops: int
    out: bool = False


@dataclass(frozen=True)
class Odds:
    """The engine's odds of rolling again (``Game.bust_probability``, ``at_stake``, ``expected_bust_loss``)."""

    bust: Fraction
    at_stake: int
    """Grey symbols on the British cards held: troop pieces a bust costs."""
    expected_loss: Fraction

    @classmethod
    def of(cls, game: Game) -> Odds:
        return cls(game.bust_probability(), game.at_stake(), game.expected_bust_loss())


@dataclass(frozen=True)
class Picture:
    players: tuple[PlayerView, ...]
    current: int
    spaces: dict[int, CardId | None]
    retained: tuple[CardId, ...] = ()
    taken: tuple[CardId, ...] = ()
    used: frozenset[CardId] = frozenset()
    on_nine: bool = False
    dice: tuple[int, int, int] | None = None
    pairs: tuple[DicePair, ...] = ()
    """The pairs of ``dice`` as the engine judges them (``Game.pairs``): their sums, and which are offered now
    (none offered once a card is taken, at a bust, or in a quiz before Reveal)."""
    chosen: tuple[int, int] | None = None
    """Indices of the two dice chosen, once a card was taken with them."""
    chosen_space: int | None = None
    odds: Odds | None = None
    """Shown before a "roll again or stop" decision."""
    halted: bool = False
    caption: str = ""
    rule: str = ""
    lost: dict[str, int] = field(default_factory=dict)
    """Troop pieces just lost, per player (crossed out in red)."""
    fresh: frozenset[int] = frozenset()
    """Card spaces just refilled (outlined)."""
    discarding: tuple[CardId, ...] = ()
    """Cards on their way to the discard pile (shown struck through in the hand)."""
    winners: tuple[str, ...] = ()
    phase: Phase = Phase.ROLL
    step: tuple[int, int] | None = None
    """(k, n) while an animation shows step k of n."""
    rolling: bool = False
    """The dice are tumbling (a frame of the roll animation)."""
    bust: bool = False
    """The last roll offered no card."""
    judged: bool = True
    """False in a quiz before Reveal: the offered sums are not marked (the learner works them out)."""
    odds_panel: bool = True
    """False: the live-odds panel stays empty (a lesson before the odds are taught)."""

    @property
    def held(self) -> tuple[CardId, ...]:
        return self.retained + self.taken

    @property
    def available(self) -> tuple[int, ...]:
        """The spaces the dice offer now (highlighted): the sums of the ``pairs`` offered, in order."""
        return tuple(sorted(p.total for p in self.pairs if p.offered))


def _judged_by_none(dice: tuple[int, int, int] | None) -> tuple[DicePair, ...]:
    """The pairs of ``dice`` with none offered (the dice of a card just taken, a bust, a quiz before Reveal)."""
    return () if dice is None else dice_pairs(dice)


BOT_NAMES = {"cautious": N_("cautious"), "bold": N_("bold"), "threshold": N_("threshold")}


def bot_name(kind: str | None) -> str:
    """A bot's name in the kernel's language (Catalan: the bold bot is "agosarat")."""
    return _(BOT_NAMES[kind]) if kind in BOT_NAMES else (kind or "")


"""The bots' names as a learner reads them (tutor.flanders.bots.BOTS)."""


def player_label(game: Game, index: int, humans: Sequence[str] | None) -> str:
    p = game.players[index]
    if p.bot:
        kind = p.bot.split(":")[0]
        return _("{player} · {bot} bot").format(player=p.id, bot=_(BOT_NAMES[kind]) if kind in BOT_NAMES else kind)
    if humans is not None and p.id in humans:
        return _("{player} (you)").format(player=p.id)
    return p.id


def picture_of(
    game: Game,
    *,
    humans: Sequence[str] | None = None,
    caption: str = "",
    rule: str = "",
    chosen: tuple[int, int] | None = None,
    chosen_space: int | None = None,
    start_troops: dict[str, int] | None = None,
    show_odds: bool | None = None,
    show_offers: bool = True,
    last_dice: tuple[int, int, int] | None = None,
) -> Picture:
    """The board for ``game`` now. ``show_odds`` (default: in the ``AGAIN`` phase) shows the live odds;
    ``show_offers=False`` leaves the offered spaces unmarked (a quiz asks for them); ``last_dice`` shows the
    roll a card was just taken with (``AGAIN`` phase), with the ``chosen`` pair outlined."""
    start = start_troops or {}
    players = tuple(
        PlayerView(
            p.id,
            player_label(game, i, humans),
            p.pawn,
            p.troops,
            max(start.get(p.id, 6), p.troops, 6),
            out=p.troops == 0 and len(game.players) > 2,
        )
        for i, p in enumerate(game.players)
    )
    if show_odds is None:
        show_odds = game.phase is Phase.AGAIN
    odds = Odds.of(game) if show_odds else None
    dice = game.dice or last_dice
    pairs = game.pairs() if game.phase is Phase.CHOOSE and show_offers else _judged_by_none(dice)
    return Picture(
        players,
        game.current,
        dict(game.spaces),
        tuple(game.player.retained),
        tuple(game.taken),
        frozenset(game.used),
        game.on_nine,
        dice,
        pairs,
        chosen,
        chosen_space,
        odds,
        game.halted,
        caption,
        rule,
        winners=tuple(game.winners),
        phase=game.phase,
        judged=show_offers,
    )


def _with_player(picture: Picture, player_id: str, **changes: object) -> Picture:
    players = tuple(replace(p, **changes) if p.id == player_id else p for p in picture.players)  # type: ignore[arg-type]
    return replace(picture, players=players)


def frames_for(
    before: Picture, events: Sequence[Event], captions: Sequence[tuple[str, str]], final: Picture, *, pace: float = 1.0
) -> list[tuple[Picture, float]]:
    """The animation of ``events`` from ``before``: (picture, ms) pairs, ending on ``final``.

    ``captions[i]`` is (sentence, rule) for ``events[i]``; steps with an empty sentence are not shown on
    their own (their change appears with the next step). ``pace`` scales every duration (0.3: faster).
    """
    frames: list[tuple[Picture, float]] = []
    shown = [i for i, (text, _) in enumerate(captions) if text]
    pic = replace(before, lost={}, fresh=frozenset(), discarding=(), caption="", rule="")
    for i, event in enumerate(events):
        text, rule = captions[i] if i < len(captions) else ("", "")
        step = (shown.index(i) + 1, len(shown)) if i in shown else None
        pic = replace(pic, caption=text or pic.caption, rule=rule if text else pic.rule, step=step or pic.step)
        frames += _frames_on_the_way(pic, event, bool(text))
        changed = _hand_changed(pic, event)
        pic = changed if changed is not None else _board_changed(pic, event, final)
        if text and not isinstance(event, CardsDiscarded):  # the discard's own frame was its step
            frames.append((pic, STEP_MS))
    frames.append((_last_frame(pic, final), 0))
    if pace < 1:  # a fast replay (several turns): the steps only, without the tumbling dice and pawn steps
        frames = [(picture, ms) for picture, ms in frames if not picture.rolling and ms != MOVE_MS]
    return [(picture, ms * pace) for picture, ms in frames]


def _frames_on_the_way(pic: Picture, event: Event, captioned: bool) -> list[tuple[Picture, float]]:
    """The pictures shown before ``event``'s own: the tumbling dice, a pawn's steps, cards on their way out."""
    if isinstance(event, DiceRolled):
        rng = random.Random(hash(event.dice))
        tumbling = replace(pic, pairs=(), chosen=None, chosen_space=None, odds=None, rolling=True)
        return [
            (replace(tumbling, dice=(rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))), ROLL_FRAME_MS)
            for _ in range(ROLL_FRAMES)
        ]
    if isinstance(event, PawnMoved):
        moving = replace(pic, used=pic.used | {event.card, *event.mines})
        direction = 1 if event.to >= event.frm else -1
        return [
            (_with_player(moving, event.player, pawn=space), MOVE_MS)
            for space in range(event.frm + direction, event.to, direction)
        ]
    if isinstance(event, CardsDiscarded):
        return [(replace(pic, discarding=event.cards), STEP_MS if captioned else 0)]
    return []


def _hand_changed(pic: Picture, event: Event) -> Picture | None:
    """The picture after an event of the player's turn (dice, cards, pawn, troops); None for another event."""
    if isinstance(event, DiceRolled):
        pairs = dice_pairs(event.dice, mask_of(event.available))  # the engine's verdict, as ``Game.pairs`` gave it
        return replace(
            pic,
            dice=event.dice,
            pairs=pairs,
            chosen=None,
            chosen_space=None,
            odds=None,
            lost={},
            fresh=frozenset(),
            discarding=(),
        )
    if isinstance(event, CardTaken):
        return replace(
            pic,
            chosen=event.chosen,
            chosen_space=event.space,
            taken=pic.taken + (event.card,),
            spaces={**pic.spaces, event.space: None},
            pairs=_judged_by_none(pic.dice),
            judged=True,
        )
    if isinstance(event, PawnPlacedOnNine):
        return replace(pic, chosen=event.chosen, chosen_space=9, on_nine=True, pairs=_judged_by_none(pic.dice))
    if isinstance(event, TroopsLost):
        pic = _with_player(pic, event.player, troops=event.troops)
        pic = replace(pic, lost={**pic.lost, event.player: pic.lost.get(event.player, 0) + event.count})
        return replace(pic, used=pic.used | {event.card}) if event.card is not None and event.cause == "german" else pic
    if isinstance(event, PawnMoved):
        pic = _with_player(replace(pic, used=pic.used | {event.card, *event.mines}), event.player, pawn=event.to)
        return replace(pic, halted=event.halted)
    if isinstance(event, PawnRemovedFromNine):
        return replace(pic, on_nine=False)
    if isinstance(event, CardsDiscarded):
        gone = set(event.cards)
        return replace(
            pic,
            taken=tuple(c for c in pic.taken if c not in gone),
            retained=tuple(c for c in pic.retained if c not in gone),
            discarding=(),
        )
    if isinstance(event, CardsRetained):
        return replace(pic, retained=event.cards, taken=())
    return None


def _board_changed(pic: Picture, event: Event, final: Picture) -> Picture:
    """The picture after an event of the board and the turns (a bust, a stop, the card spaces, whose turn, the
    end); ``final`` gives the hand of the player whose turn it is at the end."""
    if isinstance(event, Busted):
        return replace(pic, pairs=_judged_by_none(pic.dice), odds=None, bust=True)
    if isinstance(event, Stopped):
        return replace(pic, odds=None, dice=None, pairs=())
    if isinstance(event, TurnEnded):
        return replace(
            pic,
            dice=None,
            pairs=(),
            chosen=None,
            chosen_space=None,
            taken=(),
            used=frozenset(),
            halted=False,
            odds=None,
        )
    if isinstance(event, RowRedrawn):
        return replace(pic, spaces={**pic.spaces, **{s: None for s in event.row}})
    if isinstance(event, SpaceFilled):
        return replace(pic, spaces={**pic.spaces, event.space: event.card}, fresh=pic.fresh | {event.space})
    if isinstance(event, TurnStarted):
        index = next(k for k, p in enumerate(pic.players) if p.id == event.player)
        return replace(
            pic,
            current=index,
            retained=final.retained if index == final.current else (),
            lost={},
            taken=(),
            used=frozenset(),
            bust=False,
            dice=None,
            pairs=(),
        )
    if isinstance(event, GameOver):
        return replace(pic, winners=event.winners)
    return pic  # ObjectiveReached and the rest: the caption alone


def _last_frame(pic: Picture, final: Picture) -> Picture:
    """``final``, keeping the last caption and what the animation marked (troops lost this turn, new cards)."""
    return replace(
        final,
        caption=final.caption or pic.caption,
        rule=final.rule or pic.rule,
        lost=pic.lost if final.current == pic.current else {},
        fresh=pic.fresh,
    )


__all__ = ["Picture", "PlayerView", "Odds", "picture_of", "frames_for", "pair_sums", "FIXED", "STEP_MS"]
