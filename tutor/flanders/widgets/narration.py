"""In Flanders Field events told in plain words, each with the rules it applied (``tutor.ui.Line``).

``narrate(events, cards)`` gives one ``Line`` per step a learner should see;
``captions(events, cards)`` gives, for each event, the (sentence, rule) the
board's caption shows during the animation ("" for a step shown with the next
one, such as all but the last card of a refill). Every sentence is built from
the events' fields; every rule comes from their ``rules``.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from tutor.core.events import Event, Rule
from tutor.flanders.cards import FIXED, CardSet
from tutor.flanders.events import (
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
from tutor.i18n import N_, _, and_list, ngettext
from tutor.ui.narration import Line, cite

__all__ = ["Line", "narrate", "captions", "sentence", "dice_words"]


def dice_words(dice: Sequence[int]) -> str:
    return "-".join(str(d) for d in dice)


def _card(cards: CardSet, card: int) -> str:
    if card == FIXED:
        return _("the fixed card on space 9")
    kind = cards[card]
    if kind.german:
        return _("{card} (German)").format(card=kind.name)
    return _("{card} (British)").format(card=kind.name)


def _names(names: Sequence[str]) -> str:
    return and_list(names)


def sentence(event: Event, cards: CardSet) -> str:
    """What ``event`` did, in one sentence ("" for a step told with another)."""
    words = _SENTENCES.get(type(event))
    return words(event, cards) if words else ""


def _rolled(event: DiceRolled, cards: CardSet) -> str:
    fields = dict(
        player=event.player, dice=dice_words(event.dice), sums=and_list(event.sums), spaces=and_list(event.available)
    )
    if not event.available:
        return _("{player} rolls {dice}: the pairs make {sums}, and no space with a card.").format(**fields)
    return ngettext(
        "{player} rolls {dice}: the pairs make {sums}; the space with a card: {spaces}.",
        "{player} rolls {dice}: the pairs make {sums}; the spaces with a card: {spaces}.",
        len(event.available),
    ).format(**fields)


def _taken(event: CardTaken, cards: CardSet) -> str:
    text = _("{player} chooses {a} + {b} = {space} and takes {card}; space {space} stays empty this turn.").format(
        player=event.player, a=event.pair[0], b=event.pair[1], space=event.space, card=_card(cards, event.card)
    )
    if event.forced:
        text += " " + _("It was the only card offered, so it had to be taken.")
    return text


def _on_nine(event: PawnPlacedOnNine, cards: CardSet) -> str:
    text = _(
        "{player} chooses {a} + {b} = 9: its second pawn goes on the fixed card of space 9 (it acts as the "
        "{card} card)."
    ).format(player=event.player, a=event.pair[0], b=event.pair[1], card=cards.fixed.name)
    if event.forced:
        text += " " + _("It was the only space offered.")
    return text


def _busted(event: Busted, cards: CardSet) -> str:
    return ngettext(
        "Bust! No pair of {dice} names a space with a card. {player} holds {n} grey symbol.",
        "Bust! No pair of {dice} names a space with a card. {player} holds {n} grey symbols.",
        event.risk,
    ).format(dice=dice_words(event.dice), player=event.player, n=event.risk)


def _stopped(event: Stopped, cards: CardSet) -> str:
    held = [_card(cards, c) for c in event.cards] + ([_("the fixed card on space 9")] if event.on_nine else [])
    return _("{player} stops rolling and carries out its cards, in the order it chooses: {cards}.").format(
        player=event.player, cards=and_list(held, _("no cards"))
    )


def _moved(event: PawnMoved, cards: CardSet) -> str:
    moved = event.to - event.frm
    fields = dict(
        card=event.name,
        player=event.player,
        n=moved,
        frm=event.frm,
        to=event.to,
        allowed=event.allowed,
        lines=and_list(event.cleared),
    )
    parts = [
        ngettext(
            "{card} moves {player}'s pawn {n} space, from {frm} to {to}",
            "{card} moves {player}'s pawn {n} spaces, from {frm} to {to}",
            moved,
        ).format(**fields)
    ]
    if moved < event.allowed:
        parts[0] = _("{move} (it could move {allowed})").format(move=parts[0], allowed=event.allowed)
    cleared = len(event.cleared) or 1  # English says "line" for none
    if event.tank and event.cleared:
        parts.append(
            ngettext(
                "the Tank ignores the defensive line at {lines}",
                "the Tank ignores the defensive lines at {lines}",
                cleared,
            ).format(**fields)
        )
    if event.mines:
        mines = ngettext("{n} Mines card", "{n} Mines cards", len(event.mines)).format(n=len(event.mines))
        past = (
            ngettext(
                "{mines} lets it go past the defensive line at {lines}",
                "{mines} lets it go past the defensive lines at {lines}",
                cleared,
            )
            if len(event.mines) == 1
            else ngettext(
                "{mines} let it go past the defensive line at {lines}",
                "{mines} let it go past the defensive lines at {lines}",
                cleared,
            )
        )
        parts.append(past.format(mines=mines, lines=fields["lines"]))
    if event.halted:
        parts.append(_("space {space} is a defensive line: the pawn stops there for this turn").format(space=event.to))
    return _("{steps}.").format(steps="; ".join(parts))


def _off_nine(event: PawnRemovedFromNine, cards: CardSet) -> str:
    return _("{player}'s second pawn leaves space 9.").format(player=event.player)


def _discarded(event: CardsDiscarded, cards: CardSet) -> str:
    return _("{player} discards {cards}.").format(player=event.player, cards=_names(event.names))


def _retained(event: CardsRetained, cards: CardSet) -> str:
    return _("{player} keeps {cards} (May Retain) for a later turn.").format(
        player=event.player, cards=_names(event.names)
    )


def _redrawn(event: RowRedrawn, cards: CardSet) -> str:
    return _("Spaces {row} hold only German cards ({cards}): the row is discarded and dealt again.").format(
        row=and_list(event.row), cards=_names(event.names)
    )


def _reshuffled(event: Reshuffled, cards: CardSet) -> str:
    return ngettext(
        "The draw pile ran out: the discard pile is shuffled into a new draw pile of {n} card.",
        "The draw pile ran out: the discard pile is shuffled into a new draw pile of {n} cards.",
        event.count,
    ).format(n=event.count)


def _skipped(event: TurnSkipped, cards: CardSet) -> str:
    return _("{player} has no troop pieces left and takes no turn.").format(player=event.player)


def _turn(event: TurnStarted, cards: CardSet) -> str:
    return _("Round {round}: {player}'s turn. Roll the three dice.").format(round=event.round, player=event.player)


def _arrived(event: ObjectiveReached, cards: CardSet) -> str:
    return ngettext(
        "{player}'s pawn reaches the Objective line with {n} troop piece! The round is played to its "
        "end so that everyone has had the same number of turns.",
        "{player}'s pawn reaches the Objective line with {n} troop pieces! The round is played to its "
        "end so that everyone has had the same number of turns.",
        event.troops,
    ).format(player=event.player, n=event.troops)


_ENDINGS = {
    "objective": N_("the round with an arrival on the Objective line is over"),
    "everyone-lost": N_("every player has lost all troop pieces"),
    "two-players": N_("in a two-player game a player has no troop pieces left"),
}


def _game_over(event: GameOver, cards: CardSet) -> str:
    how = _(_ENDINGS[event.ending]) if event.ending in _ENDINGS else event.ending
    text = (
        _("Game over: {how}. {winners} win together (a tie).")
        if len(event.winners) > 1
        else _("Game over: {how}. {winners} wins.")
    )
    return text.format(how=how, winners=and_list(event.winners))


def _losses(event: TroopsLost, cards: CardSet) -> str:
    """A loss, and when it took the player's last troop piece, that the player is out (``troops`` is 0)."""
    words = _loss(event, cards)
    if event.troops == 0 and event.count > 0:
        words += " " + _("{player} has no troop pieces left: it is out of the game and takes no more turns.").format(
            player=event.player
        )
    return words


def _loss(event: TroopsLost, cards: CardSet) -> str:
    """A loss, with what the cause called for (``owed``) and what the player had left to lose (``count``)."""
    fields: dict[str, object] = dict(player=event.player, left=event.troops, owed=event.owed, count=event.count)
    if event.cause == "sacrifice":
        return _("{player} sacrifices a troop piece for one more space ({left} left).").format(**fields)
    if event.cause == "bust":
        if event.owed == 0:
            return _("{player} holds no grey symbol: the bust costs no troop piece ({left} left).").format(**fields)
        fields["cause"] = ngettext(
            "the {owed} grey symbol on its British cards", "the {owed} grey symbols on its British cards", event.owed
        ).format(**fields)
    else:
        fields["card"] = cards[event.card].name if event.card is not None else _("a German card")
        if event.owed == 0:
            return _("{card} (German) has no black symbol: {player} loses nothing ({left} left).").format(**fields)
        fields["cause"] = ngettext(
            "{card} (German), with {owed} black symbol", "{card} (German), with {owed} black symbols", event.owed
        ).format(**fields)
    if event.count == event.owed:
        return ngettext(
            "{player} loses {count} troop piece for {cause} ({left} left).",
            "{player} loses {count} troop pieces for {cause} ({left} left).",
            event.count,
        ).format(**fields)
    if event.count == 0:
        return ngettext(
            "{player} would lose {owed} troop piece for {cause}, but has none left.",
            "{player} would lose {owed} troop pieces for {cause}, but has none left.",
            event.owed,
        ).format(**fields)
    if event.count == 1:
        return ngettext(
            "{player} would lose {owed} troop piece for {cause}, but has only 1: it loses its last one ({left} left).",
            "{player} would lose {owed} troop pieces for {cause}, but has only 1: it loses its last one ({left} left).",
            event.owed,
        ).format(**fields)
    return ngettext(
        "{player} would lose {owed} troop piece for {cause}, but has only {count}: it loses its last "
        "{count} ({left} left).",
        "{player} would lose {owed} troop pieces for {cause}, but has only {count}: it loses its last "
        "{count} ({left} left).",
        event.owed,
    ).format(**fields)


_SENTENCES: dict[type, Callable[[Any, CardSet], str]] = {
    DiceRolled: _rolled,
    CardTaken: _taken,
    PawnPlacedOnNine: _on_nine,
    Busted: _busted,
    Stopped: _stopped,
    TroopsLost: _losses,
    PawnMoved: _moved,
    PawnRemovedFromNine: _off_nine,
    CardsDiscarded: _discarded,
    CardsRetained: _retained,
    RowRedrawn: _redrawn,
    Reshuffled: _reshuffled,
    TurnSkipped: _skipped,
    TurnStarted: _turn,
    ObjectiveReached: _arrived,
    GameOver: _game_over,
}
"""One function per kind of event: what it did, in one sentence."""


def _refill(events: Sequence[Event], cards: CardSet) -> str:
    fills = [e for e in events if isinstance(e, SpaceFilled)]
    return _("Refill: {fills}.").format(
        fills=and_list(_("space {space} gets {card}").format(space=e.space, card=_card(cards, e.card)) for e in fills)
    )


def captions(events: Sequence[Event], cards: CardSet) -> list[tuple[str, str]]:
    """(sentence, rule) for each event; a run of refills is told once, at its last card."""
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(events):
        e = events[i]
        if isinstance(e, SpaceFilled):
            j = i
            while j < len(events) and isinstance(events[j], SpaceFilled):
                j += 1
            out += [("", "")] * (j - i - 1)
            out.append((_refill(events[i:j], cards), cite(_rules(events[i:j]))))
            i = j
            continue
        if isinstance(e, TurnEnded):
            out.append(("", ""))
        else:
            out.append((sentence(e, cards), cite(e.rules)))
        i += 1
    return out


def _rules(events: Sequence[Event]) -> tuple[Rule, ...]:
    return tuple(dict.fromkeys(r for e in events for r in e.rules))


def narrate(events: Sequence[Event], cards: CardSet) -> list[Line]:
    """One ``Line`` per step, with the rules of its events."""
    lines: list[Line] = []
    i = 0
    while i < len(events):
        e = events[i]
        if isinstance(e, SpaceFilled):
            j = i
            while j < len(events) and isinstance(events[j], SpaceFilled):
                j += 1
            lines.append(Line(_refill(events[i:j], cards), _rules(events[i:j])))
            i = j
            continue
        text = "" if isinstance(e, TurnEnded) else sentence(e, cards)
        if text:
            lines.append(Line(text, e.rules))
        i += 1
    return lines
