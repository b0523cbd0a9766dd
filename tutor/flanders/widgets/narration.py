"""In Flanders Field events told in plain words, each with the rules it applied (``tutor.ui.Line``).

``narrate(events, cards)`` gives one ``Line`` per step a learner should see;
``captions(events, cards)`` gives, for each event, the (sentence, rule) the
board's caption shows during the animation ("" for a step shown with the next
one, such as all but the last card of a refill). Every sentence is built from
the events' fields; every rule comes from their ``rules``.
"""

from __future__ import annotations

import html
from typing import Sequence

from tutor.core.events import Event, Rule
from tutor.flanders.cards import FIXED, CardSet
from tutor.flanders.events import (Busted, CardsDiscarded, CardsRetained, CardTaken, DiceRolled, GameOver,
                                   ObjectiveReached, PawnMoved, PawnPlacedOnNine, PawnRemovedFromNine, Reshuffled,
                                   RowRedrawn, SpaceFilled, Stopped, TroopsLost, TurnEnded, TurnSkipped, TurnStarted)
from tutor.ui.narration import Line, and_list, cite, plural

__all__ = ["Line", "narrate", "captions", "sentence", "log_html", "dice_words"]


def dice_words(dice: Sequence[int]) -> str:
    return "-".join(str(d) for d in dice)


def _card(cards: CardSet, card: int) -> str:
    if card == FIXED:
        return "the fixed card on space 9"
    kind = cards[card]
    return f"{kind.name} ({'German' if kind.german else 'British'})"


def sentence(event: Event, cards: CardSet) -> str:
    """What ``event`` did, in one sentence ("" for a step told with another)."""
    if isinstance(event, DiceRolled):
        sums = and_list(event.sums)
        if not event.available:
            return f"{event.player} rolls {dice_words(event.dice)}: the pairs make {sums}, and no space with a card."
        return (f"{event.player} rolls {dice_words(event.dice)}: the pairs make {sums}; "
                f"{'the space' if len(event.available) == 1 else 'the spaces'} with a card: "
                f"{and_list(event.available)}.")
    if isinstance(event, CardTaken):
        forced = " It was the only card offered, so it had to be taken." if event.forced else ""
        return (f"{event.player} chooses {event.pair[0]} + {event.pair[1]} = {event.space} and takes "
                f"{_card(cards, event.card)}; space {event.space} stays empty this turn.{forced}")
    if isinstance(event, PawnPlacedOnNine):
        forced = " It was the only space offered." if event.forced else ""
        return (f"{event.player} chooses {event.pair[0]} + {event.pair[1]} = 9: its second pawn goes on the fixed "
                f"card of space 9 (it acts as the {cards.fixed.name} card).{forced}")
    if isinstance(event, Busted):
        return (f"Bust! No pair of {dice_words(event.dice)} names a space with a card. "
                f"{event.player} holds {plural(event.risk, 'grey symbol')}.")
    if isinstance(event, Stopped):
        held = [_card(cards, c) for c in event.cards] + (["the fixed card on space 9"] if event.on_nine else [])
        return (f"{event.player} stops rolling and carries out its cards, in the order it chooses: "
                f"{and_list(held, 'no cards')}.")
    if isinstance(event, TroopsLost):
        return _losses(event, cards)
    if isinstance(event, PawnMoved):
        moved = event.to - event.frm
        how = f"{event.name} moves {event.player}'s pawn {plural(moved, 'space')}, from {event.frm} to {event.to}"
        if moved < event.allowed:
            how += f" (it could move {event.allowed})"
        extra = []
        lines = f"defensive line{'s' if len(event.cleared) > 1 else ''} at {and_list(event.cleared)}"
        if event.tank and event.cleared:
            extra.append(f"the Tank ignores the {lines}")
        if event.mines:
            extra.append(f"{plural(len(event.mines), 'Mines card')} let{'s' if len(event.mines) == 1 else ''} it go "
                         f"past the {lines}")
        if event.halted:
            extra.append(f"space {event.to} is a defensive line: the pawn stops there for this turn")
        return how + ("; " + "; ".join(extra) if extra else "") + "."
    if isinstance(event, PawnRemovedFromNine):
        return f"{event.player}'s second pawn leaves space 9."
    if isinstance(event, CardsDiscarded):
        return f"{event.player} discards {and_list(event.names)}."
    if isinstance(event, CardsRetained):
        return f"{event.player} keeps {and_list(event.names)} (May Retain) for a later turn."
    if isinstance(event, RowRedrawn):
        return (f"Spaces {and_list(event.row)} hold only German cards ({and_list(event.names)}): the row is "
                "discarded and dealt again.")
    if isinstance(event, Reshuffled):
        return f"The draw pile ran out: the discard pile is shuffled into a new draw pile of {event.count} cards."
    if isinstance(event, TurnSkipped):
        return f"{event.player} has no troop pieces left and takes no turn."
    if isinstance(event, TurnStarted):
        return f"Round {event.round}: {event.player}'s turn. Roll the three dice."
    if isinstance(event, ObjectiveReached):
        return (f"{event.player}'s pawn reaches the Objective line with {plural(event.troops, 'troop piece')}! "
                "The round is played to its end so that everyone has had the same number of turns.")
    if isinstance(event, GameOver):
        how = {"objective": "the round with an arrival on the Objective line is over",
               "everyone-lost": "every player has lost all troop pieces",
               "two-players": "in a two-player game a player has no troop pieces left"}.get(event.ending, event.ending)
        who = and_list(event.winners)
        won = "win together (a tie)" if len(event.winners) > 1 else "wins"
        return f"Game over: {how}. {who} {won}."
    return ""


def _losses(event: TroopsLost, cards: CardSet) -> str:
    """A loss, with what the cause called for (``owed``) and what the player had left to lose (``count``)."""
    who, left = event.player, f"({event.troops} left)"
    if event.cause == "sacrifice":
        return f"{who} sacrifices a troop piece for one more space {left}."
    if event.cause == "bust":
        cause = f"the {plural(event.owed, 'grey symbol')} on its British cards"
        if event.owed == 0:
            return f"{who} holds no grey symbol: the bust costs no troop piece {left}."
    else:
        name = cards[event.card].name if event.card is not None else "a German card"
        cause = f"{name} (German), with {plural(event.owed, 'black symbol')}"
        if event.owed == 0:
            return f"{name} (German) has no black symbol: {who} loses nothing {left}."
    if event.count == event.owed:
        return f"{who} loses {plural(event.count, 'troop piece')} for {cause} {left}."
    if event.count == 0:
        return f"{who} would lose {plural(event.owed, 'troop piece')} for {cause}, but has none left."
    last = "its last one" if event.count == 1 else f"its last {event.count}"
    return (f"{who} would lose {plural(event.owed, 'troop piece')} for {cause}, but has only {event.count}: "
            f"it loses {last} {left}.")


def _refill(events: Sequence[Event], cards: CardSet) -> str:
    fills = [e for e in events if isinstance(e, SpaceFilled)]
    return "Refill: " + and_list(f"space {e.space} gets {_card(cards, e.card)}" for e in fills) + "."


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


def log_html(turns: Sequence[tuple[str, Sequence[Line]]], open_last: int = 1) -> str:
    """The narration log: one collapsible section per turn (newest first); each rule cited once per turn."""
    parts = []
    for k, (heading, lines) in enumerate(reversed(turns)):
        cited: set[Rule] = set()
        items = []
        for line in lines:
            new = tuple(r for r in line.rules if r not in cited)
            cited.update(line.rules)
            rule = f"<br><span class='tutor-rule'>{html.escape(cite(new))}</span>" if new else ""
            items.append(f"<li>{html.escape(line.text)}{rule}</li>")
        state = " open" if k < open_last else ""
        parts.append(f"<details class='iff-turn'{state}><summary><b>{html.escape(heading)}</b></summary>"
                     f"<ul class='tutor-narration'>{''.join(items)}</ul></details>")
    return f"<div class='iff-log'>{''.join(parts)}</div>"
