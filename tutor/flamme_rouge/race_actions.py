"""The actions of a Flamme Rouge race and its automatic steps: ``apply``, ``place``, ``draw``, ``play``,
``hand_to_bots``, ``stack_deck`` (a lesson's cards), then
``step`` through the handlers of ``PHASE_STEPS`` (one rider's move, one part of the end phase...), each a
phase function (``race_phases``) followed by the events that say what it did; ``resolve_steps`` yields the
steps one by one with what a canvas needs to animate them (``ResolvedStep``).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Collection, Iterator, Mapping, Self, Sequence

from tutor.i18n import N_, _

from . import breakaway as breakaway_bids
from . import rules
from .cards import ATTACK, DECK_VALUES, Card, CardKind
from .errors import CardNotInHandError, DeckError, PlacementError, RiderOrderError, UnknownTeamError, WrongPhaseError
from .events import (
    BidsRevealed,
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
    PacksFound,
    Position,
    Reshuffled,
    RiderMoved,
    RiderPlaced,
    Slipstreamed,
    TeamsHandedToBots,
)
from .race_model import (
    AUTOMATIC_PHASES,
    BOT_NAMES,
    BREAKAWAY_EXHAUSTION,
    ROUND_ORDER,
    Action,
    Draw,
    Phase,
    Place,
    Play,
    Rider,
    Step,
    TeamKind,
    _tokens,
)
from .race_setup import RaceSetup


@dataclass(frozen=True, slots=True)
class ResolvedStep:
    """One automatic step ``Race.resolve_steps`` resolved."""

    before: Mapping[str, Position]
    """Every placed rider's (square, lane) before the step."""
    moves: Mapping[str, tuple[Card, int]]
    """``Race.revealed_moves`` before the step: the riders still to move, their cards and squares."""
    events: tuple[Event, ...]
    """What the step did."""


class RaceActions(RaceSetup):
    """What players (and bots) do, and the automatic steps."""

    def apply(self, action: Action) -> list[Event]:
        if isinstance(action, Step):
            return self.step()
        if isinstance(action, Draw):
            return self.draw(action.rider)
        if isinstance(action, Play):
            return self.play(action.rider, action.card)
        if isinstance(action, Place):
            return self.place(action.rider, action.square, action.lane)
        raise TypeError(f"not an action: {action!r}")

    def place(self, rider_id: str, square: int, lane: int) -> list[Event]:
        """Setup: put a rider on a free lane behind the start line (players in turn, both riders each)."""
        self._require(Phase.SETUP, N_("place riders"))
        rider = self.rider(rider_id)
        team = self.placing_team
        assert team is not None
        if rider.square is not None:
            raise PlacementError(
                _("{rider} is already placed on square {square}").format(rider=rider_id, square=rider.square)
            )
        if rider.team != team.name:
            raise PlacementError(
                _("it is {team}'s turn to place riders, not {other}'s").format(team=team.name, other=rider.team)
            )
        problem = self.placement_problem(square, lane)
        if problem:
            raise PlacementError(
                _("{rider} cannot go to square {square}, lane {lane}: {problem}").format(
                    rider=rider_id, square=square, lane=lane, problem=problem
                )
            )
        self._save()
        rider.square, rider.lane = square, lane
        applied = (rules.SETUP_PLACE, rules.BOT_PLACEMENT) if team.kind.flips else (rules.SETUP_PLACE,)
        events: list[Event] = [
            RiderPlaced(rider_id, (square, lane), rules=applied, automatic=team.controller is not None)
        ]
        if self.placing_team is None:
            events.append(self._setup_done())
        return events

    def hand_to_bots(self, keep: Collection[str] = (), bot: str = "heuristic") -> list[Event]:
        """Every team a person plays, except those in ``keep``, is played by the bot ``bot`` from now on (a
        position played on as a race). Undoable like any action; an unknown team or bot changes nothing."""
        unknown = [name for name in keep if name not in self.teams]
        if unknown:
            raise UnknownTeamError(f"no team {unknown[0]!r} in this race (teams: {', '.join(self.teams)})")
        if bot not in BOT_NAMES:
            raise UnknownTeamError(f"no bot {bot!r} (bots: {', '.join(BOT_NAMES)})")
        handed = [name for name, team in self.teams.items() if team.controller is None and name not in keep]
        self._save()
        for name in handed:
            self.teams[name] = dataclasses.replace(self.teams[name], controller=bot)
        return [TeamsHandedToBots(tuple(handed), bot)]

    def stack_deck(
        self, rider_id: str, face_down: Sequence[Card | int | str], recycled: Sequence[Card | int | str] = ()
    ) -> None:
        """Lessons and puzzles: give a rider's deck these cards before it draws, ``face_down`` top card first and
        ``recycled`` face up under it (the cards out of the game stay; the rest of the deck is set aside). Cards
        are ``Card``s or what ``Card.parse`` reads (``9``, ``"E2"``). Only in the energy phase, for a rider of a
        player's team that has neither drawn nor played this round, and only with cards of its kind (three of each
        value at most, counting those out of the game) or exhaustion cards; otherwise it raises ``DeckError`` and
        changes nothing. Undoable like an action; it uses no randomness, so the shuffles to come stay the same."""
        rider = self.rider(rider_id)
        if self.phase is not Phase.ENERGY:
            raise DeckError(
                f"cannot stack {rider_id}'s deck now: it is the {self.phase.value} phase, not the energy phase"
            )
        if self.teams[rider.team].kind.flips:
            raise DeckError(f"{rider_id} rides for a bot team: its team's deck is not stacked")
        if rider.hand or rider.played is not None:
            raise DeckError(f"{rider_id} has already drawn this round: stack its deck before it draws")
        try:
            top_first, under = [Card.parse(str(c)) for c in face_down], [Card.parse(str(c)) for c in recycled]
        except ValueError as exc:
            raise DeckError(f"{rider_id}'s deck: {exc}") from None
        counts = Counter(card for card in top_first + under + rider.removed if not card.is_exhaustion)
        for card, count in counts.items():
            if card.kind is not CardKind.ENERGY or card.value not in DECK_VALUES[rider.kind]:
                raise DeckError(
                    f"{rider_id} is a {rider.kind.value}: it has no card {card} (its cards: "
                    f"{', '.join(map(str, DECK_VALUES[rider.kind]))} and exhaustion cards E2)"
                )
            if count > 3:
                raise DeckError(f"{rider_id}'s deck would hold {count} cards {card}: a rider has three of each")
        self._save()
        rider.deck.face_down, rider.deck.recycled = top_first[::-1], under  # the engine keeps the top card last

    def draw(self, rider_id: str) -> list[Event]:
        """Energy phase (or a breakaway bid): draw 4 cards from the rider's deck (fewer if it has fewer; an
        exhaustion card if none)."""
        self._require_choosing(N_("draw cards"))
        rider = self.rider(rider_id)
        if self.teams[rider.team].kind.flips:
            raise RiderOrderError(
                _(
                    "{rider} rides for a bot team: it flips its card in the movement phase and never draws or bids"
                ).format(rider=rider_id)
            )
        if rider.hand:
            raise RiderOrderError(
                _("{rider} has already drawn: play one of {cards}").format(
                    rider=rider_id, cards=", ".join(_tokens(rider.hand))
                )
            )
        if self.phase is Phase.ENERGY and rider.played is not None:
            raise RiderOrderError(_("{rider} has already played a card this round").format(rider=rider_id))
        if self.phase is not Phase.ENERGY and not self._may_choose(rider):
            bidder = self.bidder(rider.team)
            raise RiderOrderError(
                _("{bidder} bids for its team in the breakaway, not {rider}").format(bidder=bidder, rider=rider_id)
                if bidder != rider_id
                else _("{rider} has already bid in this round of bids").format(rider=rider_id)
            )
        holder = self.drawing_rider(rider.team)
        if holder:
            raise RiderOrderError(
                _(
                    "play a card for {first} before drawing for {rider}: you may not draw for your "
                    "second rider before playing for the first (rulebook, Energy Phase)"
                ).format(first=holder, rider=rider_id)
            )
        self._save()
        exhaustion = rider.exhaustion
        reshuffled = self._deal(rider)
        automatic = self.is_bot(rider_id)
        events: list[Event] = []
        if reshuffled:
            events.append(Reshuffled(rider.deck.owner, reshuffled, rules=(rules.RESHUFFLE,), automatic=True))
        size = self.teams[rider.team].hand_size
        rule = (
            rules.DRAW_NONE
            if rider.exhaustion > exhaustion
            else rules.DRAW_FEWER
            if len(rider.hand) < size
            else rules.BID
            if self.phase is not Phase.ENERGY
            else rules.DRAW
        )
        events.append(CardsDrawn(rider.id, tuple(rider.hand), rules=(rule,), automatic=automatic))
        return events

    def play(self, rider_id: str, card: Card | int) -> list[Event]:
        """Energy phase: play one drawn card face down (in a breakaway bid: bid it); the others are recycled face
        up under the deck."""
        self._require_choosing(N_("play a card"))
        rider = self.rider(rider_id)
        if not rider.hand:
            what = (
                _("{rider} has already played this round")
                if rider.played is not None
                else _("{rider} has not drawn cards yet")
            )
            raise CardNotInHandError(what.format(rider=rider_id))
        chosen = self._find(rider, card)
        self._save()
        automatic = self.is_bot(rider_id)
        if self.phase is Phase.ENERGY:
            recycled = self._play(rider, chosen)
            put: Event = CardPlayed(rider.id, chosen, rules=(rules.PLAY,), automatic=automatic)
        else:
            recycled = self._bid(rider, chosen)
            put = CardBid(rider.id, chosen, rules=(rules.BID,), automatic=automatic)
        events: list[Event] = [
            put,
            CardsRecycled(rider.id, tuple(recycled), len(rider.recycled), rules=(rules.RECYCLE,), automatic=automatic),
        ]
        if not self.waiting_riders():
            events.append(self._choices_done())
        return events

    def _choices_done(self) -> BotTeamsFlip | CardsRevealed | BidsRevealed:
        """Everyone has played (or bid): the reveal, the bot teams' flip, or the next bid."""
        if self.phase is Phase.ENERGY:
            if any(t.kind.flips for t in self.teams.values()):
                self.phase = Phase.FLIP
                return BotTeamsFlip(self.round, rules=(rules.SECRET,), automatic=True)
            return self._reveal_event()
        bid = self._bids_wanted()
        cards = {r.id: r.bids[-1] for r in self.player_riders if len(r.bids) == bid}
        self.phase = Phase.BID_2 if bid == 1 else Phase.BREAKAWAY
        return BidsRevealed(bid, cards, rules=(rules.BID_REVEAL,), automatic=True)

    def _reveal_event(self) -> CardsRevealed:
        self._reveal()
        self.phase = Phase.MOVEMENT
        cards = {rid: card for rid in self.to_move if (card := self.riders[rid].played) is not None}
        return CardsRevealed(
            cards, tuple(self.to_move), dict(self.move_values), rules=(rules.REVEAL, rules.ORDER), automatic=True
        )

    def _find(self, rider: Rider, card: Card | int) -> Card:
        if isinstance(card, Card):
            if card in rider.hand:
                return card
        else:
            matches = [c for c in rider.hand if c.value == card]
            if matches:
                return min(matches, key=lambda c: not c.is_exhaustion)  # same move; shed exhaustion first
        raise CardNotInHandError(
            _("{rider} has no {card} in hand; the drawn cards are {cards}").format(
                rider=rider.id, card=card, cards=", ".join(_tokens(rider.hand))
            )
        )

    def step(self) -> list[Event]:
        """Resolve the next automatic step: one rider's move, or one part of the end phase."""
        handler = PHASE_STEPS.get(self.phase)
        if handler is None:
            if self.phase is Phase.FINISHED:
                raise WrongPhaseError(_("the race is over: {winner} won").format(winner=self.winner))
            waiting = self.waiting_riders()
            if waiting:
                raise WrongPhaseError(
                    _("nothing to resolve yet in the {phase}: {riders} still to play a card").format(
                        phase=self.phase.name_in_words, riders=", ".join(waiting)
                    )
                )
            raise WrongPhaseError(
                _("nothing to resolve yet in the {phase}: riders still to place").format(phase=self.phase.name_in_words)
            )
        self._save()
        return handler(self)

    def resolve_steps(self, one: bool = False, stop: Callable[[Self], bool] | None = None) -> Iterator[ResolvedStep]:
        """Resolve automatic steps, yielding each as it is resolved: one step (``one``), or steps until a choice
        is due, the round ends or ``stop(race)`` is true after a step. Each ``ResolvedStep`` says where the
        riders were and which revealed cards were still to move before it, and what it did (what a canvas
        animates). A refused step raises its ``RuleError`` once the steps before it are yielded."""
        start_round = self.round
        while True:
            before, moves = self.positions(), self.revealed_moves()
            yield ResolvedStep(before, moves, tuple(self.step()))
            if one or not self.phase.automatic or self.round != start_round or (stop is not None and stop(self)):
                return

    def resolve(self, through: Phase = Phase.END_EXHAUSTION) -> list[Event]:
        """Step until the phase ``through`` of this round is done, or the race is over.

        ``resolve(Phase.MOVEMENT)``: every rider has moved; ``resolve(Phase.END_SLIPSTREAM)``:
        slipstream is done; ``resolve()``: the round is over (the next energy phase).
        """
        if through not in PHASE_STEPS:
            raise ValueError(f"{through.value} is not an automatic phase")
        events: list[Event] = []
        limit = ROUND_ORDER.index(through)
        start_round = self.round
        # The breakaway step (before round 1) counts as before every phase of a round: it ends in round 1.
        while (
            self.phase in PHASE_STEPS
            and self.round == start_round
            and (ROUND_ORDER.index(self.phase) if self.phase in ROUND_ORDER else -1) <= limit
        ):
            events += self.step()
        return events

    def finish_round(self) -> list[Event]:
        """Step until the next energy phase (or the finish). Energy cards must all be played."""
        if self.phase not in PHASE_STEPS:
            return self.step()  # raises the reason
        return self.resolve(Phase.END_EXHAUSTION)

    # ----- automatic steps: a phase function, then its events -------------------------------------------

    def _step_flip(self) -> list[Event]:
        events: list[Event] = []
        for name, (cards, refilled) in self._flip().items():
            team = self.teams[name]
            if refilled:
                events.append(BotDeckRefilled(name, refilled, rules=(rules.BOT_DECK_REFILL,), automatic=True))
            rule = rules.PELOTON_FLIP if team.kind is TeamKind.PELOTON else rules.MUSCLE_FLIP
            events.append(CardsFlipped(name, tuple(cards), rules=(rule,), automatic=True))
        events.append(self._reveal_event())
        return events

    def _step_breakaway(self) -> list[Event]:
        totals, grid, ranking, winners = self._resolve_breakaway()
        tied, tie_won = breakaway_bids.tie_at_cut({rid: (totals[rid],) for rid in totals}, grid)
        decided = (rules.BREAKAWAY_RANK, rules.BREAKAWAY_TIE) if tied else (rules.BREAKAWAY_RANK,)
        events: list[Event] = [
            BreakawayDecided(
                totals,
                tuple(ranking),
                tuple(grid),
                tuple(winners),
                tuple(tied),
                tuple(tie_won),
                rules=decided,
                automatic=True,
            )
        ]
        events += [
            BreakawayCost(rid, BREAKAWAY_EXHAUSTION, rules=(rules.BREAKAWAY_COST,), automatic=True) for rid in winners
        ]
        events.append(
            DecksReshuffled(
                tuple(r.deck.owner for r in self.player_riders),
                rules=(rules.BREAKAWAY_RECYCLE, rules.BREAKAWAY_RESHUFFLE),
                automatic=True,
            )
        )
        events += [
            BreakawayStart(rid, self.riders[rid].position, rules=(rules.BREAKAWAY_START,), automatic=True)
            for rid in winners
        ]
        events.append(self._start_round())
        return events

    def _step_movement(self) -> list[Event]:
        rid = self.to_move.pop(0)
        value = self.move_values[rid]
        occupied = rules.occupancy(self.positions())
        move = self._move(rid, occupied)
        (start, start_lane), (square, lane), distance, full = move.frm, move.to, move.distance, move.full
        card = self.riders[rid].played
        assert card is not None
        target = min(start + distance, self.track.last)
        applied = [rules.MOVE]
        if card is ATTACK:
            applied.append(rules.ATTACK)
        if move.terrain:
            applied.append(move.terrain)
        if start + distance > self.track.last:
            applied.append(rules.CUT)
        if not full and (square, lane) == (target, 0) and len(occupied[target]) == 1:
            applied.append(rules.EMPTY_SQUARE)
        events: list[Event] = [
            RiderMoved(
                rid,
                card,
                value,
                distance,
                (start, start_lane),
                (square, lane),
                move.terrain,
                rules=tuple(applied),
                automatic=True,
            )
        ]
        if full:
            events.append(Blocked(rid, target, tuple(full), (square, lane), rules=(rules.FULL_SQUARE,), automatic=True))
        if not self.to_move:
            self.move_values = {}
            if self._check_finish():
                events.append(
                    Finished(
                        self.ranking[0],
                        tuple(self.ranking),
                        rules=(rules.FINISH, rules.FINISH_SKIPS_END),
                        automatic=True,
                    )
                )
            else:
                self.phase = self._after_movement_phase()
        return events

    def _step_end_cards(self) -> list[Event]:
        cards = {r.id: r.played for r in self.riders.values() if r.played is not None}
        self._remove_played()
        self.phase = Phase.END_SLIPSTREAM
        return [CardsRemoved(cards, rules=(rules.CARDS_REMOVED,), automatic=True)]

    def _step_end_slipstream(self) -> list[Event]:
        positions = self.positions()
        before = tuple(rules.packs(s for s, _ in positions.values()))
        outcomes = self._slipstream(positions)
        after = tuple(rules.packs(s for s, _ in positions.values()))
        events: list[Event] = [
            PacksFound(before, after, tuple(pack for pack, _ in outcomes), rules=(rules.PACKS,), automatic=True)
        ]
        packs = list(before)
        for pack, outcome in outcomes:
            if isinstance(outcome, tuple):
                moved = tuple(rules.movement_order({rid: positions[rid] for rid in outcome}))
                packs = rules.merge_pack(packs, pack)
                events.append(
                    Slipstreamed(
                        moved, pack, (pack[0] + 1, pack[1] + 1), tuple(packs), rules=(rules.SLIPSTREAM,), automatic=True
                    )
                )
            else:
                events.append(NoSlipstream(pack, rules=(rules.SLIPSTREAM, outcome), automatic=True))
        self.phase = Phase.END_EXHAUSTION
        return events

    def _step_end_exhaustion(self) -> list[Event]:
        fronted, exempt = self._exhaustion(self.positions())
        applied = (rules.EXHAUSTION, rules.BOT_NO_EXHAUSTION) if exempt else (rules.EXHAUSTION,)
        events: list[Event] = [ExhaustionChecked(tuple(fronted), tuple(exempt), rules=applied, automatic=True)]
        for rid in fronted:
            if rid not in exempt:
                square = self.riders[rid].square
                assert square is not None
                events.append(ExhaustionTaken(rid, square, rules=(rules.EXHAUSTION,), automatic=True))
        events.append(self._start_round())
        return events


PHASE_STEPS: dict[Phase, Callable[[RaceActions], list[Event]]] = {
    Phase.BREAKAWAY: RaceActions._step_breakaway,
    Phase.FLIP: RaceActions._step_flip,
    Phase.MOVEMENT: RaceActions._step_movement,
    Phase.END_CARDS: RaceActions._step_end_cards,
    Phase.END_SLIPSTREAM: RaceActions._step_end_slipstream,
    Phase.END_EXHAUSTION: RaceActions._step_end_exhaustion,
}
"""The automatic phases and the handler that resolves one step of each (``Race.step``)."""
assert PHASE_STEPS.keys() == AUTOMATIC_PHASES
