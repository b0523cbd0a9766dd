"""The positional rules of Flamme Rouge as pure functions (docs/rules.md: Flamme Rouge, Peloton expansion).

``Race`` calls these for every move, so the game, the scenarios and the bots
share one implementation. Positions are ``{rider: (square, lane)}``. Simulations
call them millions of times, so loops stand where comprehensions would read better
(in Python 3.11 a comprehension is a function call).

Tutor decisions (the rulebooks leave these open; docs/rule_decisions.md):
- Slipstream on mountains and cobbles: a pack with a rider on an ascent or
  cobblestone square does not move, and a pack whose rearmost square is ascent
  or cobblestones gives no slipstream to the pack behind it.
- A pack that slipstreams keeps its lanes; if a rider's lane does not exist on
  the square ahead (e.g. 3 lanes onto 2), the pack gets no slipstream.
- Exhaustion at the end of the track: no square in front counts as empty.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import Callable, Iterable, Mapping, Sequence

from tutor.core.events import Rule as Rule  # re-exported: ``rules.Rule`` is the type of every constant here
from tutor.i18n import N_, _

from . import cards
from . import track as terrain
from .track import DESCENT_MINIMUM, MAX_LANES, Track


def _no_numbers() -> Mapping[str, int]:
    return {}


@dataclass(frozen=True, slots=True)
class CountedRule(Rule):
    """A rule whose text names numbers the engine holds ("draw {hand} cards"): ``numbers`` asks the engine for
    them each time the text is shown, so the sentence always says what the engine does."""

    numbers: Callable[[], Mapping[str, int]] = _no_numbers

    @property
    def text(self) -> str:
        return _(self.text_message).format(**self.numbers())


def hand_numbers() -> Mapping[str, int]:
    """``{hand}``: the cards a rider draws (``cards.HAND_SIZE``, the default of every player team's
    ``Team.hand_size``); ``{recycled}``: the cards it recycles after playing one."""

    return {"hand": cards.HAND_SIZE, "recycled": cards.HAND_SIZE - 1}


def terrain_numbers() -> Mapping[str, int]:
    """The terrain's limits the engine moves riders by (``track``): ``{limit}`` on or into an ascent, ``{minimum}``
    from a descent, ``{supply}`` from a supply zone."""
    return {"limit": terrain.ASCENT_MAXIMUM, "minimum": terrain.DESCENT_MINIMUM, "supply": terrain.SUPPLY_MINIMUM}


# The rules events cite (``Event.rules``); ids are stable, texts are what learners read.
SECTION_SETUP, SECTION_ENERGY, SECTION_MOVEMENT = N_("Setup"), N_("Energy phase"), N_("Movement phase")
SECTION_END, SECTION_MOUNTAINS = N_("End phase"), N_("Mountains")
SECTION_PELOTON, SECTION_FINISH = N_("Peloton expansion"), N_("Finish")
SECTION_BREAKAWAY = N_("Breakaway (Peloton expansion)")

SETUP_PLACE = Rule(
    "fr.setup.place",
    SECTION_SETUP,
    N_("riders start in free lanes behind the start line, the right-hand lane first on an empty square"),
)
ROUND: Rule = CountedRule(
    "fr.round",
    SECTION_ENERGY,
    N_("a new round: each player draws {hand} and plays 1 for one rider, then the same for the other"),
    numbers=hand_numbers,
)
DRAW: Rule = CountedRule(
    "fr.energy.draw", SECTION_ENERGY, N_("draw {hand} cards from the rider's energy deck"), numbers=hand_numbers
)
DRAW_FEWER: Rule = CountedRule(
    "fr.energy.draw-fewer",
    SECTION_ENERGY,
    N_("with fewer than {hand} cards left, the rider draws them all"),
    numbers=hand_numbers,
)
DRAW_NONE = Rule(
    "fr.energy.no-cards", SECTION_ENERGY, N_("a rider with no cards left plays an exhaustion card (value 2)")
)
RESHUFFLE = Rule(
    "fr.energy.reshuffle",
    SECTION_ENERGY,
    N_("when the face-down deck runs out, the recycled cards are shuffled into a new deck"),
)
PLAY = Rule("fr.energy.play", SECTION_ENERGY, N_("the chosen card is played face down"))
RECYCLE = Rule(
    "fr.energy.recycle", SECTION_ENERGY, N_("the other cards are recycled face up at the bottom of the deck")
)
SECRET = Rule(
    "fr.energy.secret",
    SECTION_ENERGY,
    N_("players choose at the same time; cards stay face down until every rider has played"),
)
REVEAL = Rule("fr.move.reveal", SECTION_MOVEMENT, N_("all played cards are revealed"))
ORDER = Rule(
    "fr.move.order", SECTION_MOVEMENT, N_("riders move frontmost first, the right-hand lane ahead on a shared square")
)
MOVE = Rule(
    "fr.move.exact",
    SECTION_MOVEMENT,
    N_("a rider moves exactly the value of its card and may pass through other riders"),
)
EMPTY_SQUARE = Rule(
    "fr.move.empty-square", SECTION_MOVEMENT, N_("a rider landing on an empty square takes the right-hand lane")
)
FULL_SQUARE = Rule(
    "fr.move.full-square",
    SECTION_MOVEMENT,
    N_("a rider that would end on a full square stops in the first square behind it with a free lane"),
)
ASCENT: Rule = CountedRule(
    "fr.mountain.ascent",
    SECTION_MOUNTAINS,
    N_("on or into an ascent a rider moves at most {limit} (it may still ride the flat up to the climb)"),
    numbers=terrain_numbers,
)
DESCENT: Rule = CountedRule(
    "fr.mountain.descent",
    SECTION_MOUNTAINS,
    N_("a rider starting on a descent moves at least {minimum}"),
    numbers=terrain_numbers,
)
SUPPLY: Rule = CountedRule(
    "fr.peloton.supply",
    SECTION_PELOTON,
    N_("a rider starting in a supply zone moves at least {supply}"),
    numbers=terrain_numbers,
)
ATTACK = Rule(
    "fr.peloton.attack", SECTION_PELOTON, N_("Attack!: the Peloton team's front rider moves 2 and its back rider 9")
)
PELOTON_FLIP = Rule(
    "fr.peloton.flip",
    SECTION_PELOTON,
    N_("the Peloton bot team flips one card of its deck in the movement phase, and it moves both of its riders"),
)
MUSCLE_FLIP = Rule(
    "fr.peloton.muscle-flip",
    SECTION_PELOTON,
    N_("a Muscle bot team flips one card for each of its riders in the movement phase"),
)
BOT_DECK_REFILL = Rule(
    "fr.peloton.bot-deck-refill",
    SECTION_PELOTON,
    N_("when a bot team's deck runs out, its played cards are shuffled into a new deck"),
    decision=True,
)
BOT_PLACEMENT = Rule(
    "fr.peloton.bot-placement",
    SECTION_PELOTON,
    N_(
        "the Peloton and Muscle teams place first, at the "
        "front of the start area, a team's second rider behind its first"
    ),
    decision=True,
)
BID: Rule = CountedRule(
    "fr.breakaway.bid",
    SECTION_BREAKAWAY,
    N_(
        "each player picks one rider, draws {hand} "
        "from its deck, bids one card face down and recycles the others; then a second bid the same "
        "way"
    ),
    numbers=hand_numbers,
)
BID_REVEAL = Rule("fr.breakaway.reveal", SECTION_BREAKAWAY, N_("the bids are revealed"))
BREAKAWAY_RANK = Rule(
    "fr.breakaway.rank",
    SECTION_BREAKAWAY,
    N_(
        "the two bid cards' total ranks the riders: the top "
        "one joins the breakaway with 2-4 bidders, the top two with 5 or more"
    ),
)
BREAKAWAY_TIE = Rule(
    "fr.breakaway.tie",
    SECTION_BREAKAWAY,
    N_("equal totals go to the rider further back on the grid, all the way down the ranking"),
    decision=True,
)  # the rulebook says it for the top places only
BREAKAWAY_COST = Rule(
    "fr.breakaway.cost",
    SECTION_BREAKAWAY,
    N_("the breakaway riders' bid cards leave the game and each takes 2 exhaustion cards"),
)
BREAKAWAY_RECYCLE = Rule("fr.breakaway.recycle", SECTION_BREAKAWAY, N_("the other riders recycle the cards they bid"))
BREAKAWAY_RESHUFFLE = Rule(
    "fr.breakaway.reshuffle", SECTION_BREAKAWAY, N_("every deck is shuffled with its recycled cards")
)
BREAKAWAY_START = Rule(
    "fr.breakaway.start",
    SECTION_BREAKAWAY,
    N_("the breakaway riders start on the first squares past the start line, the best bid frontmost, right lane first"),
    decision=True,
)
CUT = Rule(
    "fr.finish.cut",
    SECTION_FINISH,
    N_("a move past the last square of the track stops on the last square"),
    decision=True,
)
CARDS_REMOVED = Rule("fr.end.cards", SECTION_END, N_("played cards leave the game; each card is used once"))
PACKS = Rule("fr.end.packs", SECTION_END, N_("a pack is a run of riders with no empty square between them"))
SLIPSTREAM = Rule(
    "fr.end.slipstream",
    SECTION_END,
    N_(
        "a pack exactly one empty square behind the next pack moves up "
        "one square and merges with it, starting from the rearmost pack"
    ),
)
NO_SLIPSTREAM_TERRAIN = Rule(
    "fr.end.slipstream-terrain",
    SECTION_END,
    N_("no slipstream to or from riders on ascent or cobblestone squares (Mountains; Peloton expansion)"),
)
NO_SLIPSTREAM_LANES = Rule(
    "fr.end.slipstream-lanes",
    SECTION_END,
    N_("a pack keeps its lanes when it slipstreams, so it does not move when the square ahead lacks one of its lanes"),
    decision=True,
)
EXHAUSTION = Rule(
    "fr.end.exhaustion",
    SECTION_END,
    N_("a rider with an empty square in front of it takes an exhaustion card (value 2) into its recycled cards"),
)
BOT_NO_EXHAUSTION = Rule(
    "fr.peloton.bots-never-tire",
    SECTION_PELOTON,
    N_("riders of the Peloton and Muscle bot teams never take exhaustion cards"),
)
FINISH = Rule(
    "fr.finish.win",
    SECTION_FINISH,
    N_(
        "the race ends in the round a rider crosses the line; the rider "
        "furthest past it wins, the right-hand lane breaking a tie"
    ),
)
FINISH_SKIPS_END = Rule(
    "fr.finish.skip-end",
    SECTION_FINISH,
    N_("the end phase of the round in which a rider crosses is skipped"),
    decision=True,
)

ATTACK_FRONT, ATTACK_BACK = 2, 9
"""Peloton expansion, Attack!: the Peloton team's front rider moves 2, its back rider 9."""


_SQUARE = itemgetter(0)
"""A position's square (C calls on the hot path, no comprehension)."""


def movement_order(positions: dict[str, tuple[int, int]]) -> list[str]:
    """Riders in movement order: frontmost first, the right-hand lane first on a shared square (Movement Phase)."""
    places = {}  # smallest first
    for rid, (square, lane) in positions.items():
        places[rid] = lane - square * MAX_LANES
    return sorted(places, key=places.__getitem__)


def ahead_by_lane(positions: dict[str, tuple[int, int]], rider_id: str) -> list[str]:
    """Riders on ``rider_id``'s square in lanes to its left: the right-hand lane alone puts ``rider_id`` ahead of
    them (in the movement order, and in the ranking past the finish line)."""
    square, lane = positions[rider_id]
    return [rid for rid, (s, other) in positions.items() if s == square and other > lane]


def move_distance(track: Track, square: int, value: int) -> tuple[int, Rule | None]:
    """Squares a card of ``value`` moves a rider from ``square``, and the terrain rule that changed it.

    A descent's or supply zone's minimum (``Track.minimum``) is at most 5, so it never meets the ascent's
    limit (``Track.ceiling``, at least 5)."""
    floor = track.minimum[square]
    if value < floor:
        return floor, DESCENT if floor == DESCENT_MINIMUM else SUPPLY
    ceiling = track.ceiling[square]
    if value > ceiling:
        return ceiling, ASCENT
    return value, None


def destination(
    track: Track, occupied: dict[int, list[int]], square: int, distance: int
) -> tuple[int, int | None, tuple[int, ...]]:
    """Where a rider from ``square`` moving ``distance`` ends: (square, lane, full squares passed back over).

    ``occupied`` maps a square to its taken lanes. The lane is None when every
    square ahead up to the target is full, and the rider stays where it was.
    """
    lanes = track.lanes
    s = square + distance
    if s >= len(lanes):
        s = len(lanes) - 1
    full: tuple[int, ...] = ()
    while s > square:
        taken = occupied.get(s)
        if not taken:
            return s, 0, full
        if len(taken) < lanes[s]:
            lane = 0
            while lane in taken:
                lane += 1
            return s, lane, full
        full += (s,)
        s -= 1
    return square, None, full


def occupancy(positions: dict[str, tuple[int, int]]) -> dict[int, list[int]]:
    occupied: dict[int, list[int]] = {}
    for square, lane in positions.values():
        occupied.setdefault(square, []).append(lane)
    return occupied


def packs(squares: Iterable[int]) -> list[tuple[int, int]]:
    """Runs of occupied squares with no empty square between them, rearmost first."""
    result: list[tuple[int, int]] = []
    ordered = sorted(set(squares))
    if not ordered:
        return result
    lo = hi = ordered[0]
    for s in ordered[1:]:
        if s != hi + 1:
            result.append((lo, hi))
            lo = s
        hi = s
    result.append((lo, hi))
    return result


def merge_pack(found: Sequence[tuple[int, int]], moved: tuple[int, int]) -> list[tuple[int, int]]:
    """The packs once the pack ``moved`` (one of ``found``) has slipstreamed: up one square, joined to the pack
    one empty square ahead of it. Rearmost first.

    >>> merge_pack([(2, 3), (5, 6), (9, 9)], (2, 3))
    [(3, 6), (9, 9)]
    """
    lo, hi = moved
    ahead = [p for p in found if p[0] == hi + 2]
    merged = (lo + 1, ahead[0][1]) if ahead else (lo + 1, hi + 1)
    return sorted([p for p in found if p != moved and p not in ahead] + [merged])


def slipstream(
    track: Track, positions: dict[str, tuple[int, int]]
) -> list[tuple[tuple[int, int], tuple[str, ...] | Rule]]:
    """Resolve slipstream in place on ``positions``.

    Returns, in order, one entry per pack exactly one square behind the next:
    ``(pack, riders moved)`` (in the order of ``positions``) when it moved, or
    ``(pack, rule)`` when terrain or lanes stopped it.
    """
    found = packs(map(_SQUARE, positions.values()))
    results: list[tuple[tuple[int, int], tuple[str, ...] | Rule]] = []
    if len(found) < 2:
        return results
    blocked = track.no_slipstream
    lanes = track.lanes
    lo, hi = found[0]
    for next_lo, next_hi in found[1:]:
        if next_lo - hi == 2:
            if blocked[next_lo] or True in blocked[lo : hi + 1]:
                results.append(((lo, hi), NO_SLIPSTREAM_TERRAIN))
            else:
                moved = {}
                for r, (s, lane) in positions.items():
                    if lo <= s <= hi:
                        moved[r] = (s + 1, lane)
                if True in track.narrows[lo : hi + 1] and any(lane >= lanes[s] for s, lane in moved.values()):
                    results.append(((lo, hi), NO_SLIPSTREAM_LANES))
                else:
                    positions.update(moved)
                    results.append(((lo, hi), tuple(moved)))
                    lo = lo + 1
                    hi = next_hi
                    continue
        lo, hi = next_lo, next_hi
    return results


def exhausted(track: Track, positions: dict[str, tuple[int, int]]) -> list[str]:
    """Riders with an empty square directly in front of them (an empty lane does not count)."""
    taken = set(map(_SQUARE, positions.values()))
    fronted = []
    for r, (s, _lane) in positions.items():
        if s + 1 not in taken:
            fronted.append(r)
    return fronted


def ranking_past(finish: int, positions: dict[str, tuple[int, int]]) -> list[str]:
    """Riders on or past ``finish``, best first: furthest square, then the right-hand lane."""
    return movement_order({r: p for r, p in positions.items() if p[0] >= finish})
