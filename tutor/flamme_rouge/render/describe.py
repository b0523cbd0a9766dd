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
from tutor.ui.narration import and_list, plural

from .style import TERRAIN_NAME, lane_name


def card_words(card: Card | str) -> str:
    """A card as a learner says it: ``"5"``, ``"exhaustion card 2"``, ``"Muscle card 5"``, ``"Attack! card"``."""
    if isinstance(card, str):
        card = Card.parse(card)
    if card is ATTACK:
        return "Attack! card"
    if card.kind is CardKind.EXHAUSTION:
        return f"exhaustion card {card.value}"
    if card.kind is CardKind.MUSCLE:
        return f"Muscle card {card.value}"
    return str(card.value)


def road_words(race: Race, square: int) -> str:
    """``"3 lanes, flat"``, ``"1 lane, ascent"``: the road on ``square``."""
    road = race.track.squares[square]
    return f"{plural(road.lanes, 'lane')}, {TERRAIN_NAME[road.terrain]}"


def _where(race: Race, rider_id: str) -> str:
    rider = race.riders[rider_id]
    if rider.square is None:
        return "not placed yet"
    track = race.track
    where = f"square {rider.square}, {lane_name(rider.lane)} ({road_words(race, rider.square)})"
    if track.finish is not None and rider.square >= track.finish:
        where += f", {plural(rider.square - track.finish + 1, 'square')} past the finish line"
    elif rider.square < track.start:
        where += ", behind the start line"
    return where


def describe_race(race: Race, *, played: Sequence[tuple[str, str]] | None = None, secret: Collection[str] = (),
                  hands: Collection[str] = (), judged: bool = True) -> list[str]:
    """What the board shows, one sentence each.

    ``played``: (rider, card) pairs to tell instead of the riders' played cards ("" for a card not chosen yet);
    ``secret``: riders whose played card is face down; ``hands``: riders whose drawn cards are told;
    ``judged=False``: a quiz before Reveal (riders in the scenario's order, no movement order).
    """
    track = race.track
    round_ = f"Round {race.round}. " if race.round else ""
    lines = [f"{round_}{race.phase.title}."]
    finish = (f" The finish line is before square {track.finish}." if track.finish is not None else "")
    start = f"; the start line is before square {track.start}" if track.start else ""
    lines.append(f"The road: squares 0 to {track.last}{start}.{finish}"
                 + _terrain_summary(race))
    riders = list(race.riders)
    if judged:
        placed = rules.movement_order(race.positions())
        riders = placed + [r for r in riders if r not in placed]
        lines.append("Riders, from the front:")
    else:
        lines.append("Riders:")
    for rid in riders:
        rider = race.riders[rid]
        team = race.teams[rider.team]
        exhaustion = f"; {plural(rider.exhaustion, 'exhaustion card')} taken" if rider.exhaustion else ""
        bot = f", {team.bot} bot" if team.bot else ""
        lines.append(f"{rid} ({rider.kind}, {rider.team} team{bot}): {_where(race, rid)}{exhaustion}.")
    if judged and race.riders:
        lines.append(f"Packs (riders with no empty square between them), from the back: {_packs(race)}.")
    cards = _played(race, played, secret, in_order=judged)
    if cards:
        lines.append(f"Cards played: {cards}.")
    for rid in hands:
        hand = race.riders[rid].hand if rid in race.riders else []
        if hand:
            lines.append(f"{rid}'s drawn cards: {', '.join(card_words(c) for c in hand)}.")
    if judged and race.phase is Phase.MOVEMENT and race.to_move:
        lines.append(f"Still to move, in this order: {and_list(race.to_move)}.")
    if race.phase is Phase.FINISHED:
        lines.append(f"The race is over: {race.winner} wins"
                     + (f"; then {and_list(race.ranking[1:])}." if len(race.ranking) > 1 else "."))
    return lines


def _played(race: Race, played: Sequence[tuple[str, Card | str]] | None, secret: Collection[str],
            in_order: bool) -> str:
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
            words.append(f"{rid} a card face down")
        elif told:
            words.append(f"{rid} {card_words(told)}")
        else:
            words.append(f"{rid} the card you choose")
    return ", ".join(words)


def _packs(race: Race) -> str:
    """``"a (square 1); b, c and d (squares 4 to 5)"``: the packs (``rules.packs``), rearmost first."""
    positions = race.positions()
    words = []
    for lo, hi in rules.packs(square for square, _ in positions.values()):
        members = [rid for rid, (square, _) in positions.items() if lo <= square <= hi]
        words.append(f"{', '.join(members)} ({f'square {lo}' if lo == hi else f'squares {lo} to {hi}'})")
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
                stretch = f"square {start}" if i - 1 == start else f"squares {start} to {i - 1}"
                stretches.setdefault(terrain, []).append(stretch)
            start = i
    return "".join(f" {TERRAIN_NAME[t].capitalize()}: {and_list(s)}." for t, s in stretches.items())
