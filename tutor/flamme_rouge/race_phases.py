"""The phase functions of a Flamme Rouge race: the rules of each phase applied to the state, shared by the
step-by-step actions (``race_actions``, which turn their results into events) and the fast path
(``race_fast``, which does not). Simulations run them millions of times: loops stand where comprehensions
would read better (in Python 3.11 a comprehension is a function call).
"""

from __future__ import annotations

from typing import Iterable

from tutor.core.events import Rule

from . import breakaway as breakaway_bids
from . import rules
from .cards import ATTACK, EXHAUSTION, Card, shuffled
from .events import Flip, RoundStarted
from .race_model import BREAKAWAY_EXHAUSTION, Move, Phase, RaceModel, Rider, TeamKind
from .rules import destination, move_distance


class RacePhases(RaceModel):
    """The rules of each phase, without events or history."""

    def _deal(self, rider: Rider) -> int:
        """Draw the rider's hand, top card first (all that are left if fewer; an exhaustion card if none). When
        the face-down cards run short, the recycled cards are shuffled into a new deck under them first.
        Returns the number of cards reshuffled (0: none)."""
        deck = rider.deck
        size = self._hand_sizes[rider.id]
        face_down = deck.face_down
        reshuffled = 0
        if len(face_down) < size:
            recycled = deck.recycled
            if recycled:
                reshuffled = len(recycled)
                renewed = deck.face_down = shuffled(self.rng, recycled)
                renewed += face_down  # the old cards stay on top
                face_down = renewed
                deck.recycled = []
            if not face_down:
                deck.hand = [EXHAUSTION]
                rider.exhaustion += 1
                return reshuffled
        deck.hand = face_down[: -size - 1 : -1]
        del face_down[-size:]
        return reshuffled

    def _play(self, rider: Rider, card: Card) -> list[Card]:
        """The card is played face down, the rest recycled; returns the recycled cards (the old hand's list)."""
        deck = rider.deck
        hand = deck.hand
        hand.remove(card)
        rider.played = card
        deck.recycled += hand
        deck.hand = []
        return hand

    def _bid(self, rider: Rider, card: Card) -> list[Card]:
        """The card is bid face down, the rest recycled; returns the recycled cards (the old hand's list)."""
        deck = rider.deck
        hand = deck.hand
        hand.remove(card)
        rider.bids.append(card)
        deck.recycled += hand
        deck.hand = []
        return hand

    def _flip(self) -> dict[str, tuple[list[Flip], int]]:
        """Bot teams flip their cards: per team, each card flipped with the riders it moves, and the size of a
        refilled deck."""
        flipped: dict[str, tuple[list[Flip], int]] = {}
        for team in self.teams.values():
            if not team.kind.flips:
                continue
            cards: list[Flip] = []
            refilled = 0
            owners = [team.riders[0]] if team.kind is TeamKind.PELOTON else list(team.riders)
            for rid in owners:
                deck = self.riders[rid].deck
                if not deck.face_down:
                    deck.face_down, deck.removed = shuffled(self.rng, deck.removed), []
                    refilled += len(deck.face_down)
                card = deck.face_down.pop()
                targets = team.riders if team.kind is TeamKind.PELOTON else (rid,)
                for target in targets:
                    self.riders[target].played = card
                cards.append(Flip(card, targets))
            flipped[team.name] = (cards, refilled)
        return flipped

    def _resolve_breakaway(self) -> tuple[dict[str, int], list[str], list[str], list[str]]:
        """Rank the bids, make the winners pay, reshuffle every deck and move the winners past the start line.

        Returns (totals, grid from the front, ranking, winners)."""
        bidders = [r for r in self.player_riders if r.bids]
        grid = rules.movement_order({r.id: r.position for r in bidders})
        bids = {r.id: tuple(c.value for c in r.bids) for r in bidders}
        ranking = breakaway_bids.ranking(bids, grid)
        winners = breakaway_bids.select(bids, grid)
        for rider in bidders:
            if rider.id in winners:
                rider.deck.removed += rider.bids
                rider.deck.recycled += [EXHAUSTION] * BREAKAWAY_EXHAUSTION
                rider.exhaustion += BREAKAWAY_EXHAUSTION
            else:
                rider.deck.recycled += rider.bids
            rider.bids = []
        for rider in self.player_riders:
            deck = rider.deck
            deck.face_down, deck.recycled = shuffled(self.rng, deck.face_down + deck.recycled), []
        start, lanes = self.track.start, self.track.lanes
        slots = [(s, lane) for s in range(start, len(lanes)) for lane in range(lanes[s])][: len(winners)]
        for rid, (square, lane) in zip(winners, sorted(slots, key=lambda p: (-p[0], p[1]))):
            self.riders[rid].square, self.riders[rid].lane = square, lane
        return {rid: sum(v) for rid, v in bids.items()}, grid, ranking, winners

    def _reveal(self, positions: dict[str, tuple[int, int]] | None = None) -> None:
        """Fix the movement order and each rider's move, in that order (Attack!: front rider 2, back rider 9)."""
        riders = self.riders
        order = self.to_move = rules.movement_order(self.positions() if positions is None else positions)
        values: dict[str, int] = {}
        self.move_values = values
        attack = False
        for rid in order:
            card = riders[rid].played
            values[rid] = card.value  # type: ignore[union-attr]  # every rider has played
            if card is ATTACK:  # cards are interned
                attack = True
        if attack:
            attackers = [rid for rid in order if riders[rid].played is ATTACK]
            for team in {riders[rid].team for rid in attackers}:
                front, *back = [rid for rid in attackers if riders[rid].team == team]
                values[front] = rules.ATTACK_FRONT
                values.update((rid, rules.ATTACK_BACK) for rid in back)

    def _move(self, rider_id: str, occupied: dict[int, list[int]]) -> Move:
        """Move one rider by its revealed card (``_ride``) and say what happened."""
        rider = self.riders[rider_id]
        frm = rider.position
        distance, terrain, full, _ = self._ride(((rider_id, self.move_values[rider_id]),), occupied, {})
        return Move(frm, rider.position, distance, terrain, full)

    def _ride(
        self, moves: Iterable[tuple[str, int]], occupied: dict[int, list[int]], positions: dict[str, tuple[int, int]]
    ) -> tuple[int, Rule | None, tuple[int, ...], int]:
        """Move each rider by its revealed card's value, in the order given (the fast path moves them all, a
        step one). ``occupied`` (square -> taken lanes) and ``positions`` are kept up to date. Returns the last
        move's distance after terrain, the terrain rule that changed it and the full squares it fell back over,
        and the furthest square reached."""
        riders, track = self.riders, self.track
        distance, terrain, furthest = 0, None, 0
        full: tuple[int, ...] = ()
        for rider_id, value in moves:
            rider = riders[rider_id]
            start: int = rider.square  # type: ignore[assignment]  # placed: it is racing
            distance, terrain = move_distance(track, start, value)
            occupied[start].remove(rider.lane)
            square, lane, full = destination(track, occupied, start, distance)
            if lane is None:
                lane = rider.lane
            rider.square = square
            rider.lane = lane
            occupied.setdefault(square, []).append(lane)
            positions[rider_id] = (square, lane)
            if square > furthest:
                furthest = square
        return distance, terrain, full, furthest

    def _check_finish(self) -> bool:
        """After movement: when riders crossed the line, rank them and end the race (the end phase is skipped)."""
        finish = self.track.finish
        if finish is None or all(r.square is None or r.square < finish for r in self.riders.values()):
            return False
        ranking = rules.ranking_past(finish, self.positions())
        if not ranking:
            return False
        self.ranking, self.winner, self.phase = ranking, ranking[0], Phase.FINISHED
        return True

    def _after_movement_phase(self) -> Phase:
        return Phase.END_CARDS if any(r.played for r in self.riders.values()) else Phase.END_SLIPSTREAM

    def _remove_played(self) -> None:
        """Played cards leave the game; the Peloton's one card, which moved both its riders, leaves once."""
        for rider in self._deck_holders:
            played = rider.played
            if played is not None:
                rider.deck.removed.append(played)
                rider.played = None
        for rider in self._deck_sharers:
            rider.played = None

    def _slipstream(
        self, positions: dict[str, tuple[int, int]], occupied: dict[int, list[int]] | None = None
    ) -> list[tuple[tuple[int, int], tuple[str, ...] | Rule]]:
        """Move packs up (``positions``, and ``occupied`` if given, are updated too); returns
        ``rules.slipstream``'s outcome per pack."""
        outcomes = rules.slipstream(self.track, positions)
        for pack, outcome in outcomes:
            if isinstance(outcome, tuple):
                for rid in outcome:
                    rider = self.riders[rid]
                    square, lane = positions[rid]  # a pack keeps its lanes
                    if rider.square != square:  # a rider of a chain of packs is listed at each of its moves
                        if occupied is not None:
                            occupied[rider.square].remove(lane)  # type: ignore[index]  # it is racing
                            occupied.setdefault(square, []).append(lane)
                        rider.square = square
        return outcomes

    def _exhaustion(self, positions: dict[str, tuple[int, int]]) -> tuple[list[str], list[str]]:
        """Exhaustion cards for riders with an empty square in front; returns (those riders, the exempt ones)."""
        fronted = rules.exhausted(self.track, positions)
        exempt = []
        for rid in fronted:
            rider = self.riders[rid]
            if rider.takes_exhaustion:
                rider.deck.recycled.append(EXHAUSTION)
                rider.exhaustion += 1
            else:
                exempt.append(rid)
        return fronted, exempt

    def _next_round(self) -> None:
        self.round += 1
        self.phase = Phase.ENERGY

    def _start_round(self) -> RoundStarted:
        self._next_round()
        return RoundStarted(self.round, rules=(rules.ROUND,), automatic=True)
