"""Engine events told in plain words: one sentence per thing that happened, then the rule (the event's reason).

``narrate(events, race)`` returns a list of ``Line``; ``to_html`` renders them.
Rider ids and numbers come from the events, never from logs.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from tutor.flamme_rouge import Phase, Race, rules
from tutor.flamme_rouge.events import (Blocked, RiderPlaced, CardPlayed, CardsDrawn, CardsRecycled, CardsRemoved,
                                       CardsRevealed, Event, ExhaustionTaken, Finished, NoSlipstream,
                                       PacksFound, Reshuffled, RiderMoved, RoundStarted, Slipstreamed)
from tutor.flamme_rouge.render.style import lane_name


@dataclass(frozen=True)
class Line:
    text: str
    """What happened, in plain words."""
    rule: str = ""
    """The rule that decided it (the event's reason)."""

    @property
    def plain(self) -> str:
        return f"{self.text} {self.rule}".strip()


def narrate(events: Sequence[Event], race: Race, phase_before: Phase | None = None) -> list[Line]:
    """Plain sentences for ``events`` (``race`` is the state after them; ``phase_before`` the phase before)."""
    lines: list[Line] = []
    i = 0
    while i < len(events):
        event, nxt = events[i], events[i + 1] if i + 1 < len(events) else None
        if isinstance(event, RiderMoved) and isinstance(nxt, Blocked) and nxt.rider == event.rider:
            lines.append(_blocked_move(event, nxt))
            i += 2
            continue
        if isinstance(event, CardPlayed) and isinstance(nxt, CardsRecycled) and nxt.rider == event.rider:
            lines.append(_played(event, nxt, race))
            i += 2
            continue
        if isinstance(event, ExhaustionTaken):
            group = [e for e in events[i:] if isinstance(e, ExhaustionTaken)]
            lines.append(_exhaustion(group))
            i += len(group)
            continue
        if isinstance(event, RoundStarted) and phase_before is Phase.END_EXHAUSTION and \
                not any(isinstance(e, ExhaustionTaken) for e in events):
            lines.append(Line("No rider has an empty square right in front of it: nobody takes an exhaustion card."))
        if isinstance(event, PacksFound) and not any(isinstance(e, (Slipstreamed, NoSlipstream)) for e in events):
            lines.append(_packs(event))
            lines.append(Line("No pack is exactly one empty square behind another pack: nobody moves."))
            i += 1
            continue
        line = _one(event)
        if line:
            lines.append(line)
        i += 1
    return lines


def to_html(lines: Iterable[Line]) -> str:
    items = "".join(f"<li>{html.escape(line.text)}"
                    + (f"<br><span class='tutor-rule'>{html.escape(line.rule)}</span>" if line.rule else "")
                    + "</li>" for line in lines)
    return f"<ul class='tutor-narration'>{items}</ul>" if items else ""


# ----- one sentence per kind of event -------------------------------------------------------------------

def _one(event: Event) -> Line | None:
    if isinstance(event, RiderPlaced):
        square, lane = event.to
        return Line(f"{event.rider} starts on square {square}, {lane_name(lane)}.", event.reason)
    if isinstance(event, RoundStarted):
        return Line(f"Round {event.round} begins.", event.reason)
    if isinstance(event, Reshuffled):
        return Line(f"{event.rider}'s face-down deck ran out: its {event.count} recycled cards are shuffled "
                    "into a new deck.", event.reason)
    if isinstance(event, CardsDrawn):
        return Line(f"{event.rider} draws {_cards(event.cards)}.", event.reason)
    if isinstance(event, CardsRevealed):
        return Line(f"All cards are revealed: {rider_cards(event.cards)}. "
                    f"Movement order: {', '.join(event.order)}.", event.reason)
    if isinstance(event, RiderMoved):
        return _move(event)
    if isinstance(event, Finished):
        return Line(f"{event.winner} crosses the finish line and wins! Riders past the line: "
                    f"{', '.join(event.crossed)}.", event.reason)
    if isinstance(event, CardsRemoved):
        return Line(f"The played cards leave the game: {rider_cards(event.cards)}.", event.reason)
    if isinstance(event, PacksFound):
        return _packs(event)
    if isinstance(event, Slipstreamed):
        return Line(f"The pack on {_squares(event.frm)} ({', '.join(event.riders)}) is exactly one empty square "
                    "behind the next pack: it moves up one square and joins it.", event.reason)
    if isinstance(event, NoSlipstream):
        return Line(f"The pack on {_squares(event.pack)} is one empty square behind the next pack but does not "
                    "move.", event.reason)
    if isinstance(event, CardsRecycled):
        return Line(f"{event.rider} recycles {_cards(event.cards)} face up at the bottom of its deck.", event.reason)
    if isinstance(event, CardPlayed):
        return Line(f"{event.rider} plays a card face down.", event.reason)
    return Line(event.reason) if event.reason else None


def rider_cards(cards: Mapping[str, object]) -> str:
    """``"red-S 5, blue-R E2"``: each rider's card."""
    return ", ".join(f"{rid} {card}" for rid, card in cards.items())


def _move(event: RiderMoved) -> Line:
    (start, _), (end, lane) = event.frm, event.to
    moved = end - start
    card = _card_phrase(event)
    return Line(f"{event.rider} moves {moved} square{'s' if moved != 1 else ''} ({card}) from square {start} "
                f"to {end}, {lane_name(lane)}.", _rules(*event.reason.split("; ")))


def _blocked_move(event: RiderMoved, blocked: Blocked) -> Line:
    (start, _), (end, lane) = event.frm, event.to
    full = blocked.full
    are = f"square {full[0]} is" if len(full) == 1 else f"squares {_and(full)} are"
    where = (f"stays on square {end}: no square in front of it has a free lane" if end == start else
             f"stops on square {end} ({lane_name(lane)}), the first square behind with a free lane")
    return Line(f"{event.rider} ({_card_phrase(event)}) would reach square {blocked.target}, but {are} full, "
                f"so it {where}.", _rules(event.reason, _general(blocked.reason)))


def _general(reason: str) -> str:
    """The rule without the engine's worked example (``"...: square 8 full, so ..."``), told already."""
    return rules.R_FULL_SQUARE if reason.startswith(rules.R_FULL_SQUARE) else reason


def _card_phrase(event: RiderMoved) -> str:
    value = event.card.value if event.card is not None else event.distance
    if event.card is not None and event.card.is_exhaustion:
        return "exhaustion card E2"
    if event.distance != value:
        return f"card {event.card}, counted as {event.distance}"
    return f"card {event.card}"


def _played(played: CardPlayed, recycled: CardsRecycled, race: Race) -> Line:
    pile = len(race.riders[played.rider].recycled) if played.rider in race.riders else len(recycled.cards)
    rest = (f" and recycles {_cards(recycled.cards)} face up at the bottom of its deck (recycled cards: {pile})"
            if recycled.cards else " (it had no other card to recycle)")
    return Line(f"{played.rider} plays {played.card} face down{rest}.", _rules(played.reason, recycled.reason))


def _exhaustion(events: list[ExhaustionTaken]) -> Line:
    riders = [f"{e.rider} (square {e.square})" for e in events]
    verb = "has" if len(riders) == 1 else "have"
    return Line(f"{_and(riders)} {verb} an empty square right in front: "
                f"{'it takes' if len(riders) == 1 else 'each takes'} an exhaustion card (E2) into its recycled cards.",
                events[0].reason)


def _packs(event: PacksFound) -> Line:
    return Line(f"Packs: {_and([_squares(p) for p in event.packs])}.", event.reason)


def _rules(*reasons: str) -> str:
    """Rule citations as sentences, without repeating a shared heading ("Energy phase: ...; ...")."""
    sentences, heading = [], None
    for reason in reasons:
        head, sep, rest = reason.partition(": ")
        is_heading = bool(sep) and len(head.split()) <= 3  # "Energy phase", "End phase, slipstream"
        if is_heading and head == heading:
            reason = rest
        elif is_heading:
            heading = head
        sentences.append(reason[:1].upper() + reason[1:])
    return ". ".join(s.rstrip(".") for s in sentences) + "."


def _squares(pack: tuple[int, int]) -> str:
    lo, hi = pack
    return f"square {lo}" if lo == hi else f"squares {lo}–{hi}"


def _cards(cards) -> str:
    return ", ".join(str(c) for c in cards) if cards else "no cards"


def _and(items) -> str:
    items = [str(i) for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
