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
from tutor.flamme_rouge.events import (
    BidsRevealed,
    BidsStarted,
    Blocked,
    BotDeckRefilled,
    BotTeamsFlip,
    BreakawayCost,
    BreakawayDecided,
    BreakawayStart,
    CardBid,
    CardPlayed,
    CardsDrawn,
    CardsFlipped,
    CardsRecycled,
    CardsRemoved,
    CardsRevealed,
    DecksReshuffled,
    Event,
    ExhaustionChecked,
    ExhaustionTaken,
    Finished,
    NoSlipstream,
    Pack,
    PacksFound,
    Reshuffled,
    RiderMoved,
    RiderPlaced,
    RoundStarted,
    Slipstreamed,
    TeamsHandedToBots,
)
from tutor.flamme_rouge.render.style import lane_name
from tutor.i18n import N_, _, and_list, ngettext
from tutor.ui.narration import Line, to_html

E = TypeVar("E", bound=Event)

__all__ = ["Line", "narrate", "to_html", "rider_cards", "squares", "computer_plays", "TERRAIN_LIMITS"]

TERRAIN_LIMITS = {
    rules.ASCENT: N_("capped by the climb"),
    rules.DESCENT: N_("raised by the descent"),
    rules.SUPPLY: N_("raised by the supply zone"),
}
"""Why a card moved its rider more or less than its value: the terrain rule a move cites, in English (message
ids: ``terrain_limit`` says them in the kernel's language)."""


def terrain_limit(rule: rules.Rule) -> str:
    """``"capped by the climb"``, in the kernel's language."""
    return _(TERRAIN_LIMITS[rule])


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
                lines.append(
                    Line(
                        _("No pack is exactly one empty square behind another pack: nobody moves."), (rules.SLIPSTREAM,)
                    )
                )
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
        lines.append(
            Line(
                ngettext(
                    "{riders} (computer) plays its card face down.",
                    "{riders} (computer) play their cards face down.",
                    len(riders),
                ).format(riders=and_list(riders)),
                (rules.SECRET,),
            )
        )
    bids = [e.rider for e in events if isinstance(e, CardBid)]
    if bids:
        lines.append(
            Line(
                ngettext(
                    "{riders} (computer) bids a card face down.", "{riders} (computer) bid a card face down.", len(bids)
                ).format(riders=and_list(bids)),
                (rules.BID,),
            )
        )
    return lines + narrate([e for e in events if isinstance(e, (CardsRevealed, BidsRevealed))])


# ----- one sentence per kind of event -------------------------------------------------------------------


def _one(event: Event) -> Line | None:
    expansion = _peloton_expansion(event)
    if expansion:
        return expansion
    if isinstance(event, RiderPlaced):
        square, lane = event.to
        return Line(
            _("{rider} starts on square {square}, {lane}.").format(
                rider=event.rider, square=square, lane=lane_name(lane)
            ),
            event.rules,
        )
    if isinstance(event, RoundStarted):
        return Line(_("Round {round} begins.").format(round=event.round), event.rules)
    if isinstance(event, Reshuffled):
        return Line(
            ngettext(
                "{owner}'s face-down deck ran out: its {count} recycled card is shuffled into a new deck.",
                "{owner}'s face-down deck ran out: its {count} recycled cards are shuffled into a new deck.",
                event.count,
            ).format(owner=event.owner, count=event.count),
            event.rules,
        )
    if isinstance(event, CardsDrawn):
        return Line(_("{rider} draws {cards}.").format(rider=event.rider, cards=_cards(event.cards)), event.rules)
    if isinstance(event, CardsRevealed):
        return Line(
            _("All cards are revealed: {cards}. Movement order: {order}.").format(
                cards=rider_cards(event.cards), order=", ".join(event.order)
            ),
            event.rules,
        )
    if isinstance(event, RiderMoved):
        return _move(event)
    if isinstance(event, Finished):
        return Line(
            _("{winner} crosses the finish line and wins! Riders past the line: {riders}.").format(
                winner=event.winner, riders=", ".join(event.crossed)
            ),
            event.rules,
        )
    if isinstance(event, CardsRemoved):
        return Line(_("The played cards leave the game: {cards}.").format(cards=rider_cards(event.cards)), event.rules)
    if isinstance(event, Slipstreamed):
        return Line(
            _(
                "The pack on {squares} ({riders}) is exactly one empty square behind the next pack: it moves "
                "up one square and joins it."
            ).format(squares=squares(event.frm), riders=", ".join(event.riders)),
            event.rules,
        )
    if isinstance(event, NoSlipstream):
        return Line(
            _("The pack on {squares} is one empty square behind the next pack but does not move.").format(
                squares=squares(event.pack)
            ),
            event.rules,
        )
    if isinstance(event, ExhaustionChecked):
        return _exhaustion_checked(event)
    if isinstance(event, CardsRecycled):
        return Line(
            _("{rider} recycles {cards} face up at the bottom of its deck.").format(
                rider=event.rider, cards=_cards(event.cards)
            ),
            event.rules,
        )
    if isinstance(event, CardPlayed):
        return Line(_("{rider} plays a card face down.").format(rider=event.rider), event.rules)
    if isinstance(event, CardBid):
        return Line(_("{rider} bids a card face down.").format(rider=event.rider), event.rules)
    return None


def rider_cards(cards: Mapping[str, Card | None]) -> str:
    """``"red-S 5, blue-R E2"``: each rider's card."""
    return ", ".join(f"{rid} {card}" for rid, card in cards.items())


def squares(pack: Pack) -> str:
    """``"square 4"`` or ``"squares 4–6"``."""
    lo, hi = pack
    if lo == hi:
        return _("square {square}").format(square=lo)
    return _("squares {first}–{last}").format(first=lo, last=hi)


def _move(event: RiderMoved) -> Line:
    (start, _lane), (end, lane) = event.frm, event.to
    return Line(
        ngettext(
            "{rider} moves {n} square ({card}) from square {start} to {end}, {lane}.",
            "{rider} moves {n} squares ({card}) from square {start} to {end}, {lane}.",
            end - start,
        ).format(
            rider=event.rider, n=end - start, card=_card_phrase(event), start=start, end=end, lane=lane_name(lane)
        ),
        event.rules,
    )


def _blocked_move(event: RiderMoved, blocked: Blocked) -> Line:
    (start, _lane), (end, lane) = event.frm, event.to
    full = blocked.full
    fields = dict(
        rider=event.rider,
        card=_card_phrase(event),
        target=blocked.target,
        full=and_list(full),
        end=end,
        lane=lane_name(lane),
    )
    if end == start:
        text = ngettext(
            "{rider} ({card}) would reach square {target}, but square {full} is full, so it stays on "
            "square {end}: no square in front of it has a free lane.",
            "{rider} ({card}) would reach square {target}, but squares {full} are full, so it stays on "
            "square {end}: no square in front of it has a free lane.",
            len(full),
        )
    else:
        text = ngettext(
            "{rider} ({card}) would reach square {target}, but square {full} is full, so it stops on "
            "square {end} ({lane}), the first square behind with a free lane.",
            "{rider} ({card}) would reach square {target}, but squares {full} are full, so it stops on "
            "square {end} ({lane}), the first square behind with a free lane.",
            len(full),
        )
    return Line(text.format(**fields), event.rules + blocked.rules)


def _card_phrase(event: RiderMoved) -> str:
    card = event.card
    if card.is_exhaustion:
        phrase = _("exhaustion card E2")
    elif card is ATTACK:
        phrase = _("Attack! card, worth {value} for this rider").format(value=event.value)
    else:
        phrase = _("card {card}").format(card=card)
    if event.distance != event.value:
        if event.terrain in TERRAIN_LIMITS:
            phrase = _("{card}, counted as {distance}: {why}").format(
                card=phrase, distance=event.distance, why=terrain_limit(event.terrain)
            )
        else:
            phrase = _("{card}, counted as {distance}").format(card=phrase, distance=event.distance)
    return phrase


def _played(played: CardPlayed | CardBid, recycled: CardsRecycled) -> Line:
    bid = isinstance(played, CardBid)
    if recycled.cards:
        text = (
            _(
                "{rider} bids {card} face down and recycles {cards} face up at the bottom of its deck (recycled "
                "cards: {pile})."
            )
            if bid
            else _(
                "{rider} plays {card} face down and recycles {cards} face up at the bottom of its deck (recycled "
                "cards: {pile})."
            )
        )
    else:
        text = (
            _("{rider} bids {card} face down (it had no other card to recycle).")
            if bid
            else _("{rider} plays {card} face down (it had no other card to recycle).")
        )
    return Line(
        text.format(rider=played.rider, card=played.card, cards=_cards(recycled.cards), pile=recycled.pile),
        played.rules + recycled.rules,
    )


def _exhaustion(events: list[ExhaustionTaken]) -> Line:
    riders = [_("{rider} (square {square})").format(rider=e.rider, square=e.square) for e in events]
    return Line(
        ngettext(
            "{riders} has an empty square right in front: it takes an exhaustion card (E2) into its recycled cards.",
            "{riders} have an empty square right in front: each takes an exhaustion card (E2) into its recycled cards.",
            len(riders),
        ).format(riders=and_list(riders)),
        events[0].rules,
    )


def _exhaustion_checked(event: ExhaustionChecked) -> Line | None:
    if not event.riders:
        return Line(
            _("No rider has an empty square right in front of it: nobody takes an exhaustion card."), event.rules
        )
    if event.exempt:
        exempt = list(event.exempt)
        return Line(
            ngettext(
                "{riders} has an empty square right in front but rides for a bot team: no exhaustion card.",
                "{riders} have an empty square right in front but ride for a bot team: no exhaustion card.",
                len(exempt),
            ).format(riders=and_list(exempt)),
            (rules.BOT_NO_EXHAUSTION,),
        )
    return None  # the ExhaustionTaken events that follow say who takes one


def _packs(event: PacksFound) -> Line:
    return Line(_("Packs: {packs}.").format(packs=and_list([squares(p) for p in event.packs])), event.rules)


def _cards(cards: Iterable[Card]) -> str:
    cards = list(cards)
    return ", ".join(str(c) for c in cards) if cards else _("no cards")


# ----- the Peloton expansion: bids, the breakaway, bot teams' flips -------------------------------------------


def _peloton_expansion(event: Event) -> Line | None:
    """Sentences for the expansion's events, and for base events that mean something else there."""
    if isinstance(event, BidsRevealed):
        return Line(
            _("Bid {bid} is revealed: {cards}.").format(bid=event.bid, cards=rider_cards(event.cards)), event.rules
        )
    if isinstance(event, BreakawayDecided):
        return _breakaway_decided(event)
    if isinstance(event, DecksReshuffled):
        return Line(
            ngettext(
                "The riders left out recycle the cards they bid, and every player's deck ({n} deck) is "
                "shuffled with its recycled cards.",
                "The riders left out recycle the cards they bid, and every player's deck ({n} decks) is "
                "shuffled with its recycled cards.",
                len(event.owners),
            ).format(n=len(event.owners)),
            event.rules,
        )
    if isinstance(event, BreakawayStart):
        square, lane = event.to
        return Line(
            _("{rider} rides in the breakaway: it starts on square {square}, {lane}, past the start line.").format(
                rider=event.rider, square=square, lane=lane_name(lane)
            ),
            event.rules,
        )
    if isinstance(event, CardsFlipped):
        return _flipped(event)
    if isinstance(event, BotDeckRefilled):
        return Line(
            ngettext(
                "{team}'s deck ran out: its {n} played card is shuffled into a new deck.",
                "{team}'s deck ran out: its {n} played cards are shuffled into a new deck.",
                event.count,
            ).format(team=event.team, n=event.count),
            event.rules,
        )
    if isinstance(event, BidsStarted):
        return Line(_("The breakaway bids begin: each player picks one rider, who bids twice."), event.rules)
    if isinstance(event, TeamsHandedToBots):
        teams = list(event.teams)
        return Line(
            _("The computer plays {teams} from now on.").format(teams=and_list(teams))
            if teams
            else _("Every team is already played by the computer."),
            event.rules,
        )
    if isinstance(event, BotTeamsFlip):
        return Line(_("Every player's card is face down; now the bot teams flip theirs."), event.rules)
    return None


def _breakaway_decided(event: BreakawayDecided) -> Line:
    totals, winners = event.totals, list(event.winners)
    ranked = ", ".join(f"{rid} {totals[rid]}" for rid in event.ranking)
    bidders = ngettext("With {n} bidder", "With {n} bidders", len(totals)).format(n=len(totals))
    if len(winners) == 1:
        text = _("Bid totals, best first: {ranked}. {bidders} the top one joins the breakaway: {winners}.")
    else:
        text = ngettext(
            "Bid totals, best first: {ranked}. {bidders} the top {n} rider join the breakaway: {winners}.",
            "Bid totals, best first: {ranked}. {bidders} the top {n} riders join the breakaway: {winners}.",
            len(winners),
        )
    text = text.format(ranked=ranked, bidders=bidders, n=len(winners), winners=and_list(winners))
    tied = list(event.tied)
    if tied:
        tie = (
            _("{tied} both total {total}: the tie goes to {won}, further back on the grid (from the front: {grid}).")
            if len(tied) == 2
            else _(
                "{tied} all total {total}: the tie goes to {won}, further back on the grid (from the front: {grid})."
            )
        )
        text += " " + tie.format(
            tied=and_list(tied), total=totals[tied[0]], won=and_list(list(event.tie_won)), grid=", ".join(event.grid)
        )
    return Line(text, event.rules)


def _breakaway_cost(events: list[BreakawayCost]) -> Line:
    riders = [e.rider for e in events]
    n = events[0].exhaustion
    cards = ngettext("{n} exhaustion card", "{n} exhaustion cards", n).format(n=n)
    text = (
        _(
            "{riders} pays for the head start: its two bid cards leave the game and it takes {cards} (E2) into "
            "the deck, weak cards that will come up in later hands."
        )
        if len(riders) == 1
        else _(
            "{riders} pay for the head start: their two bid cards leave the game and each takes {cards} (E2) into "
            "the deck, weak cards that will come up in later hands."
        )
    )
    return Line(text.format(riders=and_list(riders), cards=cards), events[0].rules)


def _flipped(event: CardsFlipped) -> Line:
    """The Peloton's one card moves both riders; a Muscle team flips a card for each rider (even two alike)."""
    if len(event.flips) == 1 and len(event.flips[0].riders) > 1:
        card, riders = event.flips[0]
        if card is ATTACK:
            text = _("{team} flips the Attack! card: its front rider moves {front} and its back rider {back}.").format(
                team=event.team, front=rules.ATTACK_FRONT, back=rules.ATTACK_BACK
            )
        else:
            text = _("{team} flips {card}: one card moves both {riders}.").format(
                team=event.team, card=card, riders=and_list(riders)
            )
    else:
        each = ", ".join(f"{rid} {card}" for card, riders in event.flips for rid in riders)
        text = _("{team} flips one card for each rider: {cards}.").format(team=event.team, cards=each)
    return Line(
        _("{flip} A bot team never chooses a card and never takes exhaustion.").format(flip=text),
        event.rules + (rules.BOT_NO_EXHAUSTION,),
    )


def _run(events: Sequence[Event], start: int, kind: type[E]) -> list[E]:
    """The events from ``start`` on that are ``kind``, up to the first that is not (one step's, never a later
    step's)."""
    run: list[E] = []
    for event in events[start:]:
        if not isinstance(event, kind):
            break
        run.append(event)
    return run
