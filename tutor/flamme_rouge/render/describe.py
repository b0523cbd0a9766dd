"""The Flamme Rouge board in words, for the text view beside the canvas (``tutor.ui.text_view``).

``describe_race(race)`` gives plain sentences from the engine's data only (never from the narration's text):
the round and phase, each rider's square, lane and the road there, the packs, the cards played (face down
while another player's choice is secret), the hand of the rider being played, the riders still to move, the
exhaustion cards taken, the finish.

A quiz shows a position before Reveal: ``judged=False`` lists the riders in the scenario's order and leaves the
movement order and the packs out (what a "who moves first" or "who is exhausted" question asks), and the cards
it passes in ``played`` are those the board shows (a card the learner has not chosen yet is ``""``).
"""

from __future__ import annotations

from typing import Collection, Sequence

from tutor.flamme_rouge import rules
from tutor.flamme_rouge.cards import ATTACK, Card, CardKind
from tutor.flamme_rouge.race import Phase, Race
from tutor.flamme_rouge.track import Terrain
from tutor.i18n import _, and_list, ngettext

from .style import kind_name, lane_name, team_name, terrain_name


def card_words(card: Card | str) -> str:
    """A card as a learner says it: ``"5"``, ``"exhaustion card 2"``, ``"Muscle card 5"``, ``"Attack! card"``."""
    if isinstance(card, str):
        card = Card.parse(card)
    if card is ATTACK:
        return _("Attack! card")
    if card.kind is CardKind.EXHAUSTION:
        return _("exhaustion card {value}").format(value=card.value)
    if card.kind is CardKind.MUSCLE:
        return _("Muscle card {value}").format(value=card.value)
    return str(card.value)


def road_words(race: Race, square: int) -> str:
    """``"3 lanes, flat"``, ``"1 lane, ascent"``: the road on ``square``."""
    road = race.track.squares[square]
    return ngettext("{n} lane, {terrain}", "{n} lanes, {terrain}", road.lanes).format(
        n=road.lanes, terrain=terrain_name(road.terrain)
    )


def _where(race: Race, rider_id: str) -> str:
    rider = race.riders[rider_id]
    if rider.square is None:
        return _("not placed yet")
    track = race.track
    where = _("square {square}, {lane} ({road})").format(
        square=rider.square, lane=lane_name(rider.lane), road=road_words(race, rider.square)
    )
    if track.finish is not None and rider.square >= track.finish:
        past = rider.square - track.finish + 1
        return ngettext(
            "{where}, {n} square past the finish line", "{where}, {n} squares past the finish line", past
        ).format(where=where, n=past)
    if rider.square < track.start:
        return _("{where}, behind the start line").format(where=where)
    return where


def describe_race(
    race: Race,
    *,
    played: Sequence[tuple[str, str]] | None = None,
    secret: Collection[str] = (),
    hands: Collection[str] = (),
    judged: bool = True,
) -> list[str]:
    """What the board shows, one sentence each.

    ``played``: (rider, card) pairs to tell instead of the riders' played cards ("" for a card not chosen yet);
    ``secret``: riders whose played card is face down; ``hands``: riders whose drawn cards are told;
    ``judged=False``: a quiz before Reveal (riders in the scenario's order, no movement order).
    """
    track = race.track
    if race.round:
        lines = [_("Round {round}. {phase}.").format(round=race.round, phase=race.phase.title)]
    else:
        lines = [_("{phase}.").format(phase=race.phase.title)]
    road = (
        _("The road: squares 0 to {last}; the start line is before square {start}.")
        if track.start
        else _("The road: squares 0 to {last}.")
    ).format(last=track.last, start=track.start)
    if track.finish is not None:
        road += " " + _("The finish line is before square {finish}.").format(finish=track.finish)
    lines.append(road + _terrain_summary(race))
    riders = list(race.riders)
    if judged:
        placed = rules.movement_order(race.positions())
        riders = placed + [r for r in riders if r not in placed]
        lines.append(_("Riders, from the front:"))
    else:
        lines.append(_("Riders:"))
    for rid in riders:
        lines.append(_rider_words(race, rid))
    if judged and race.riders:
        lines.append(
            _("Packs (riders with no empty square between them), from the back: {packs}.").format(packs=_packs(race))
        )
    cards = _played(race, played, secret, in_order=judged)
    if cards:
        lines.append(_("Cards played: {cards}.").format(cards=cards))
    for rid in hands:
        hand = race.riders[rid].hand if rid in race.riders else []
        if hand:
            lines.append(
                _("{rider}'s drawn cards: {cards}.").format(rider=rid, cards=", ".join(card_words(c) for c in hand))
            )
    if judged and race.phase is Phase.MOVEMENT and race.to_move:
        lines.append(_("Still to move, in this order: {riders}.").format(riders=and_list(race.to_move)))
    if race.phase is Phase.FINISHED:
        if len(race.ranking) > 1:
            lines.append(
                _("The race is over: {winner} wins; then {others}.").format(
                    winner=race.winner, others=and_list(race.ranking[1:])
                )
            )
        else:
            lines.append(_("The race is over: {winner} wins.").format(winner=race.winner))
    return lines


def _rider_words(race: Race, rid: str) -> str:
    """``"red-S (sprinteur, red team): square 3, right lane (2 lanes, flat)."``"""
    rider = race.riders[rid]
    team = race.teams[rider.team]
    kind, colour = kind_name(str(rider.kind)), team_name(rider.team)
    if team.bot:
        who = _("{rider} ({kind}, {team} team, {bot} bot)").format(
            rider=rid, kind=kind, team=colour, bot=kind_name(team.bot)
        )
    else:
        who = _("{rider} ({kind}, {team} team)").format(rider=rid, kind=kind, team=colour)
    where = _where(race, rid)
    if rider.exhaustion:
        return ngettext(
            "{rider}: {where}; {n} exhaustion card taken.",
            "{rider}: {where}; {n} exhaustion cards taken.",
            rider.exhaustion,
        ).format(rider=who, where=where, n=rider.exhaustion)
    return _("{rider}: {where}.").format(rider=who, where=where)


def _played(
    race: Race, played: Sequence[tuple[str, Card | str]] | None, secret: Collection[str], in_order: bool
) -> str:
    """The cards played, in the movement order once the cards are revealed; ``in_order=False`` tells them in the
    riders' order."""
    if played is None:
        order = list(race.move_values) + [rid for rid in race.riders if rid not in race.move_values]
        played = [(rid, card) for rid in order if (card := race.riders[rid].played) is not None]
    if not in_order:
        riders = list(race.riders)
        played = sorted(played, key=lambda pair: riders.index(pair[0]) if pair[0] in riders else len(riders))
    words = []
    for rid, told in played:
        if rid in secret:
            words.append(_("{rider} a card face down").format(rider=rid))
        elif told:
            words.append(f"{rid} {card_words(told)}")
        else:
            words.append(_("{rider} the card you choose").format(rider=rid))
    return ", ".join(words)


def _packs(race: Race) -> str:
    """``"a (square 1); b, c and d (squares 4 to 5)"``: the packs (``rules.packs``), rearmost first."""
    positions = race.positions()
    words = []
    for lo, hi in rules.packs(square for square, _lane in positions.values()):
        members = [rid for rid, (square, _lane) in positions.items() if lo <= square <= hi]
        where = _("square {square}").format(square=lo) if lo == hi else _squares(lo, hi)
        words.append(f"{', '.join(members)} ({where})")
    return "; ".join(words)


def _terrain_summary(race: Race) -> str:
    """The stretches of special road: ``" Ascent: squares 10–14. Cobbles: square 20."``."""
    stretches: dict[Terrain, list[str]] = {}
    squares = race.track.squares
    start = 0
    for i in range(1, len(squares) + 1):
        if i == len(squares) or squares[i].terrain is not squares[start].terrain:
            terrain = squares[start].terrain
            if terrain is not Terrain.FLAT:
                stretch = _("square {square}").format(square=start) if i - 1 == start else _squares(start, i - 1)
                stretches.setdefault(terrain, []).append(stretch)
            start = i
    return "".join(
        " " + _("{terrain}: {squares}.").format(terrain=terrain_name(t).capitalize(), squares=and_list(s))
        for t, s in stretches.items()
    )


def _squares(first: int, last: int) -> str:
    return _("squares {first} to {last}").format(first=first, last=last)
