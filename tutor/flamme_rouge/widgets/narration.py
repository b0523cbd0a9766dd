"""Flamme Rouge events told in plain words: one sentence per thing that happened, with the rules it applied.

``narrate(events)`` returns a list of ``tutor.ui.Line`` (it reads the events alone, never the race);
``tutor.ui.to_html`` renders them. Every sentence is composed from the events' fields (riders, squares,
lanes, cards, packs, the breakaway's tie) and every rule comes from the events' ``rules`` (cited by
``Rule.section`` and ``Rule.text``); nothing is parsed back out of prose.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence, TypeVar

from tutor.flamme_rouge import rules
from tutor.flamme_rouge.cards import ATTACK, Card
from tutor.flamme_rouge.events import (BidsRevealed, BidsStarted, Blocked, BotDeckRefilled, BotTeamsFlip,
                                       BreakawayCost, BreakawayDecided, BreakawayStart, CardBid, CardPlayed,
                                       CardsDrawn, CardsFlipped, CardsRecycled, CardsRemoved, CardsRevealed,
                                       DecksReshuffled, Event, ExhaustionChecked, ExhaustionTaken, Finished,
                                       NoSlipstream, Pack, PacksFound, Reshuffled, RiderMoved, RiderPlaced,
                                       RoundStarted, Slipstreamed, TeamsHandedToBots)
from tutor.flamme_rouge.render.style import lane_name
from tutor.ui.narration import Line, and_list, plural, to_html

E = TypeVar("E", bound=Event)

__all__ = ["Line", "narrate", "to_html", "rider_cards", "squares", "computer_plays", "TERRAIN_LIMITS"]

TERRAIN_LIMITS = {
    rules.ASCENT: "capped by the climb",
    rules.DESCENT: "raised by the descent",
    rules.SUPPLY: "raised by the supply zone",
}
"""Why a card moved its rider more or less than its value: the terrain rule a move cites, in words."""


def narrate(events: Sequence[Event]) -> list[Line]:
    """Plain sentences for ``events``, in order (a move and its blocking, a play and its recycling, in one)."""
    lines: list[Line] = []
    i = 0
    while i < len(events):
        event, nxt = events[i], events[i + 1] if i + 1 < len(events) else None
        if isinstance(event, RiderMoved) and isinstance(nxt, Blocked) and nxt.rider == event.rider:
            lines.append(_blocked_move(event, nxt))
            i += 2
            continue
        if isinstance(event, (CardPlayed, CardBid)) and isinstance(nxt, CardsRecycled) and nxt.rider == event.rider:
            lines.append(_played(event, nxt))
            i += 2
            continue
        if isinstance(event, BreakawayCost):
            paid = _run(events, i, BreakawayCost)
            lines.append(_breakaway_cost(paid))
            i += len(paid)
            continue
        if isinstance(event, ExhaustionTaken):
            group = _run(events, i, ExhaustionTaken)
            lines.append(_exhaustion(group))
            i += len(group)
            continue
        if isinstance(event, PacksFound):
            lines.append(_packs(event))
            if not event.behind:
                lines.append(Line("No pack is exactly one empty square behind another pack: nobody moves.",
                                  (rules.SLIPSTREAM,)))
            i += 1
            continue
        line = _one(event)
        if line:
            lines.append(line)
        i += 1
    return lines


def computer_plays(events: Iterable[Event]) -> list[Line]:
    """What the other players' riders showed: their placements, that they played face down, and the reveal.

    Bots' drawn hands and recycled cards stay secret (as at the table).
    """
    events = list(events)
    lines = narrate([e for e in events if isinstance(e, RiderPlaced)])
    played = [e for e in events if isinstance(e, CardPlayed)]
    if played:
        riders = [e.rider for e in played]
        lines.append(Line(f"{and_list(riders)} (computer) {'plays its card' if len(riders) == 1 else 'play their cards'}"
                          " face down.", (rules.SECRET,)))
    bids = [e.rider for e in events if isinstance(e, CardBid)]
    if bids:
        lines.append(Line(f"{and_list(bids)} (computer) {'bids' if len(bids) == 1 else 'bid'} a card face down.",
                          (rules.BID,)))
    return lines + narrate([e for e in events if isinstance(e, (CardsRevealed, BidsRevealed))])


# ----- one sentence per kind of event -------------------------------------------------------------------

def _one(event: Event) -> Line | None:
    expansion = _peloton_expansion(event)
    if expansion:
        return expansion
    if isinstance(event, RiderPlaced):
        square, lane = event.to
        return Line(f"{event.rider} starts on square {square}, {lane_name(lane)}.", event.rules)
    if isinstance(event, RoundStarted):
        return Line(f"Round {event.round} begins.", event.rules)
    if isinstance(event, Reshuffled):
        return Line(f"{event.owner}'s face-down deck ran out: its {event.count} recycled cards are shuffled "
                    "into a new deck.", event.rules)
    if isinstance(event, CardsDrawn):
        return Line(f"{event.rider} draws {_cards(event.cards)}.", event.rules)
    if isinstance(event, CardsRevealed):
        return Line(f"All cards are revealed: {rider_cards(event.cards)}. "
                    f"Movement order: {', '.join(event.order)}.", event.rules)
    if isinstance(event, RiderMoved):
        return _move(event)
    if isinstance(event, Finished):
        return Line(f"{event.winner} crosses the finish line and wins! Riders past the line: "
                    f"{', '.join(event.crossed)}.", event.rules)
    if isinstance(event, CardsRemoved):
        return Line(f"The played cards leave the game: {rider_cards(event.cards)}.", event.rules)
    if isinstance(event, Slipstreamed):
        return Line(f"The pack on {squares(event.frm)} ({', '.join(event.riders)}) is exactly one empty square "
                    "behind the next pack: it moves up one square and joins it.", event.rules)
    if isinstance(event, NoSlipstream):
        return Line(f"The pack on {squares(event.pack)} is one empty square behind the next pack but does not "
                    "move.", event.rules)
    if isinstance(event, ExhaustionChecked):
        return _exhaustion_checked(event)
    if isinstance(event, CardsRecycled):
        return Line(f"{event.rider} recycles {_cards(event.cards)} face up at the bottom of its deck.", event.rules)
    if isinstance(event, CardPlayed):
        return Line(f"{event.rider} plays a card face down.", event.rules)
    if isinstance(event, CardBid):
        return Line(f"{event.rider} bids a card face down.", event.rules)
    return None


def rider_cards(cards: Mapping[str, Card | None]) -> str:
    """``"red-S 5, blue-R E2"``: each rider's card."""
    return ", ".join(f"{rid} {card}" for rid, card in cards.items())


def squares(pack: Pack) -> str:
    """``"square 4"`` or ``"squares 4–6"``."""
    lo, hi = pack
    return f"square {lo}" if lo == hi else f"squares {lo}–{hi}"


def _move(event: RiderMoved) -> Line:
    (start, _), (end, lane) = event.frm, event.to
    return Line(f"{event.rider} moves {plural(end - start, 'square')} ({_card_phrase(event)}) from square {start} "
                f"to {end}, {lane_name(lane)}.", event.rules)


def _blocked_move(event: RiderMoved, blocked: Blocked) -> Line:
    (start, _), (end, lane) = event.frm, event.to
    full = blocked.full
    are = f"square {full[0]} is" if len(full) == 1 else f"squares {and_list(full)} are"
    where = (f"stays on square {end}: no square in front of it has a free lane" if end == start else
             f"stops on square {end} ({lane_name(lane)}), the first square behind with a free lane")
    return Line(f"{event.rider} ({_card_phrase(event)}) would reach square {blocked.target}, but {are} full, "
                f"so it {where}.", event.rules + blocked.rules)


def _card_phrase(event: RiderMoved) -> str:
    card = event.card
    if card.is_exhaustion:
        phrase = "exhaustion card E2"
    elif card is ATTACK:
        phrase = f"Attack! card, worth {event.value} for this rider"
    else:
        phrase = f"card {card}"
    if event.distance != event.value:
        why = TERRAIN_LIMITS.get(event.terrain) if event.terrain else None
        phrase += f", counted as {event.distance}{': ' + why if why else ''}"
    return phrase


def _played(played: CardPlayed | CardBid, recycled: CardsRecycled) -> Line:
    rest = (f" and recycles {_cards(recycled.cards)} face up at the bottom of its deck (recycled cards: "
            f"{recycled.pile})" if recycled.cards else " (it had no other card to recycle)")
    verb = "bids" if isinstance(played, CardBid) else "plays"
    return Line(f"{played.rider} {verb} {played.card} face down{rest}.", played.rules + recycled.rules)


def _exhaustion(events: list[ExhaustionTaken]) -> Line:
    riders = [f"{e.rider} (square {e.square})" for e in events]
    verb = "has" if len(riders) == 1 else "have"
    return Line(f"{and_list(riders)} {verb} an empty square right in front: "
                f"{'it takes' if len(riders) == 1 else 'each takes'} an exhaustion card (E2) into its recycled cards.",
                events[0].rules)


def _exhaustion_checked(event: ExhaustionChecked) -> Line | None:
    if not event.riders:
        return Line("No rider has an empty square right in front of it: nobody takes an exhaustion card.",
                    event.rules)
    if event.exempt:
        exempt = list(event.exempt)
        return Line(f"{and_list(exempt)} {'has' if len(exempt) == 1 else 'have'} an empty square right in front "
                    f"but {'rides' if len(exempt) == 1 else 'ride'} for a bot team: no exhaustion card.",
                    (rules.BOT_NO_EXHAUSTION,))
    return None  # the ExhaustionTaken events that follow say who takes one


def _packs(event: PacksFound) -> Line:
    return Line(f"Packs: {and_list([squares(p) for p in event.packs])}.", event.rules)


def _cards(cards: Iterable[Card]) -> str:
    cards = list(cards)
    return ", ".join(str(c) for c in cards) if cards else "no cards"


# ----- the Peloton expansion: bids, the breakaway, bot teams' flips -------------------------------------------

def _peloton_expansion(event: Event) -> Line | None:
    """Sentences for the expansion's events, and for base events that mean something else there."""
    if isinstance(event, BidsRevealed):
        return Line(f"Bid {event.bid} is revealed: {rider_cards(event.cards)}.", event.rules)
    if isinstance(event, BreakawayDecided):
        return _breakaway_decided(event)
    if isinstance(event, DecksReshuffled):
        return Line(f"The riders left out recycle the cards they bid, and every player's deck ({len(event.owners)} "
                    "decks) is shuffled with its recycled cards.", event.rules)
    if isinstance(event, BreakawayStart):
        square, lane = event.to
        return Line(f"{event.rider} rides in the breakaway: it starts on square {square}, {lane_name(lane)}, past "
                    "the start line.", event.rules)
    if isinstance(event, CardsFlipped):
        return _flipped(event)
    if isinstance(event, BotDeckRefilled):
        return Line(f"{event.team}'s deck ran out: its {plural(event.count, 'played card')} are shuffled into a "
                    "new deck.", event.rules)
    if isinstance(event, BidsStarted):
        return Line("The breakaway bids begin: each player picks one rider, who bids twice.", event.rules)
    if isinstance(event, TeamsHandedToBots):
        teams = list(event.teams)
        return Line(f"The computer plays {and_list(teams)} from now on." if teams else
                    "Every team is already played by the computer.", event.rules)
    if isinstance(event, BotTeamsFlip):
        return Line("Every player's card is face down; now the bot teams flip theirs.", event.rules)
    return None


def _breakaway_decided(event: BreakawayDecided) -> Line:
    totals, winners = event.totals, list(event.winners)
    ranked = ", ".join(f"{rid} {totals[rid]}" for rid in event.ranking)
    joins = "joins" if len(winners) == 1 else "join"
    text = (f"Bid totals, best first: {ranked}. With {plural(len(totals), 'bidder')} the top "
            f"{'one' if len(winners) == 1 else plural(len(winners), 'rider')} {joins} the breakaway: "
            f"{and_list(winners)}.")
    tied = list(event.tied)
    if tied:
        text += (f" {and_list(tied)} {'both' if len(tied) == 2 else 'all'} total {totals[tied[0]]}: the tie goes to "
                 f"{and_list(list(event.tie_won))}, further back on the grid (from the front: "
                 f"{', '.join(event.grid)}).")
    return Line(text, event.rules)


def _breakaway_cost(events: list[BreakawayCost]) -> Line:
    riders = [e.rider for e in events]
    one = len(riders) == 1
    return Line(f"{and_list(riders)} {'pays' if one else 'pay'} for the head start: "
                f"{'its' if one else 'their'} two bid cards leave the game and {'it takes' if one else 'each takes'} "
                f"{plural(events[0].exhaustion, 'exhaustion card')} (E2) into the deck, weak cards that will come up "
                "in later hands.", events[0].rules)


def _flipped(event: CardsFlipped) -> Line:
    """The Peloton's one card moves both riders; a Muscle team flips a card for each rider (even two alike)."""
    if len(event.flips) == 1 and len(event.flips[0].riders) > 1:
        card, riders = event.flips[0]
        if card is ATTACK:
            what = (f"the Attack! card: its front rider moves {rules.ATTACK_FRONT} and its back rider "
                    f"{rules.ATTACK_BACK}")
        else:
            what = f"{card}: one card moves both {and_list(riders)}"
        text = f"{event.team} flips {what}."
    else:
        each = ", ".join(f"{rid} {card}" for card, riders in event.flips for rid in riders)
        text = f"{event.team} flips one card for each rider: {each}."
    return Line(f"{text} A bot team never chooses a card and never takes exhaustion.",
                event.rules + (rules.BOT_NO_EXHAUSTION,))


def _run(events: Sequence[Event], start: int, kind: type[E]) -> list[E]:
    """The events from ``start`` on that are ``kind``, up to the first that is not (one step's, never a later
    step's)."""
    run: list[E] = []
    for event in events[start:]:
        if not isinstance(event, kind):
            break
        run.append(event)
    return run
