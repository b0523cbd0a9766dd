"""The positional rules of Flamme Rouge as pure functions (RULES.md sections 1-2).

``Race`` calls these for every move, so the game, the scenarios and the bots
share one implementation. Positions are ``{rider: (square, lane)}``.

Tutor decisions (RULES.md leaves these open; the lessons say so too):
- Slipstream on mountains and cobbles: a pack with a rider on an ascent or
  cobblestone square does not move, and a pack whose rearmost square is ascent
  or cobblestones gives no slipstream to the pack behind it.
- A pack that slipstreams keeps its lanes; if a rider's lane does not exist on
  the square ahead (e.g. 3 lanes onto 2), the pack gets no slipstream.
- Exhaustion at the end of the track: no square in front counts as empty.
"""

from __future__ import annotations

from .track import Track

# Short citations used in event reasons.
R_MOVE = "Movement phase: a rider moves exactly the value of its card and may pass through other riders"
R_EMPTY_SQUARE = "a rider landing on an empty square takes the right-hand lane"
R_FULL_SQUARE = "a rider that would end on a full square stops in the first square behind it with a free lane"
R_ASCENT = "Mountains: on or into an ascent a rider moves at most 5 (it may still ride the flat up to the climb)"
R_DESCENT = "Mountains: a rider starting on a descent moves at least 5"
R_SUPPLY = "Peloton expansion: a rider starting in a supply zone moves at least 4"
R_CUT = "Finish: a move past the last square of the track stops on the last square (tutor decision)"
R_SLIPSTREAM = ("End phase, slipstream: a pack exactly one empty square behind the next pack moves up one square "
                "and merges with it, starting from the rearmost pack")
R_NO_SLIPSTREAM_TERRAIN = ("no slipstream to or from riders on ascent or cobblestone squares "
                           "(Mountains; Peloton expansion)")
R_EXHAUSTION = ("End phase, exhaustion: a rider with an empty square in front of it takes an exhaustion card "
                "(value 2) into its recycled cards")
R_FINISH = ("Finish: the race ends in the round a rider crosses the line; the rider furthest past it wins, "
            "the right-hand lane breaking a tie")

ATTACK_FRONT, ATTACK_BACK = 2, 9
"""Peloton expansion, Attack!: the Peloton team's front rider moves 2, its back rider 9."""


def movement_order(positions: dict[str, tuple[int, int]]) -> list[str]:
    """Riders in movement order: frontmost first, the right-hand lane first on a shared square (Movement Phase)."""
    return [rid for _, _, rid in sorted((-square, lane, rid) for rid, (square, lane) in positions.items())]


def move_distance(track: Track, square: int, value: int) -> tuple[int, str | None]:
    """Squares a card of ``value`` moves a rider from ``square``, and the terrain rule that changed it."""
    rule = None
    if track.descent[square] and value < 5:
        value, rule = 5, R_DESCENT
    elif track.supply[square] and value < 4:
        value, rule = 4, R_SUPPLY
    if value > 5:
        if track.ascent[square]:
            return 5, R_ASCENT
        ascent = track.ascent
        end = min(square + value, len(ascent) - 1)
        for k in range(square + 1, end + 1):
            if ascent[k]:
                limit = max(5, k - square - 1)
                if value > limit:
                    return limit, R_ASCENT
                break
    return value, rule


def destination(track: Track, occupied: dict[int, list[int]], square: int, distance: int
                ) -> tuple[int, int | None, list[int]]:
    """Where a rider from ``square`` moving ``distance`` ends: (square, lane, full squares passed back over).

    ``occupied`` maps a square to its taken lanes. The lane is None when every
    square ahead up to the target is full, and the rider stays where it was.
    """
    target = min(square + distance, len(track.lanes) - 1)
    full = []
    lanes = track.lanes
    for s in range(target, square, -1):
        taken = occupied.get(s)
        if not taken:
            return s, 0, full
        if len(taken) < lanes[s]:
            lane = 0
            while lane in taken:
                lane += 1
            return s, lane, full
        full.append(s)
    return square, None, full


def occupancy(positions: dict[str, tuple[int, int]]) -> dict[int, list[int]]:
    occupied: dict[int, list[int]] = {}
    for square, lane in positions.values():
        occupied.setdefault(square, []).append(lane)
    return occupied


def packs(squares) -> list[tuple[int, int]]:
    """Runs of occupied squares with no empty square between them, rearmost first."""
    result: list[tuple[int, int]] = []
    for s in sorted(set(squares)):
        if result and result[-1][1] == s - 1:
            result[-1] = (result[-1][0], s)
        else:
            result.append((s, s))
    return result


def slipstream(track: Track, positions: dict[str, tuple[int, int]]
               ) -> list[tuple[tuple[int, int], tuple[str, ...] | str]]:
    """Resolve slipstream in place on ``positions``.

    Returns, in order, one entry per pack exactly one square behind the next:
    ``(pack, riders moved)`` when it moved, or ``(pack, reason)`` when terrain
    or lanes stopped it.
    """
    found = packs(sq for sq, _ in positions.values())
    results: list[tuple[tuple[int, int], tuple[str, ...] | str]] = []
    if len(found) < 2:
        return results
    blocked = track.no_slipstream
    lanes = track.lanes
    lo, hi = found[0]
    for next_lo, next_hi in found[1:]:
        if next_lo - hi == 2:
            if blocked[next_lo] or any(blocked[s] for s in range(lo, hi + 1)):
                results.append(((lo, hi), R_NO_SLIPSTREAM_TERRAIN))
            else:
                members = [r for r, (s, _) in positions.items() if lo <= s <= hi]
                if any(positions[r][1] >= lanes[positions[r][0] + 1] for r in members):
                    results.append(((lo, hi), "the square ahead has fewer lanes than the pack uses (tutor decision)"))
                else:
                    for r in members:
                        s, lane = positions[r]
                        positions[r] = (s + 1, lane)
                    results.append(((lo, hi), tuple(movement_order({r: positions[r] for r in members}))))
                    lo = lo + 1
                    hi = next_hi
                    continue
        lo, hi = next_lo, next_hi
    return results


def exhausted(track: Track, positions: dict[str, tuple[int, int]]) -> list[str]:
    """Riders with an empty square directly in front of them (an empty lane does not count)."""
    taken = {s for s, _ in positions.values()}
    return [r for r, (s, _) in positions.items() if s + 1 not in taken]


def ranking_past(finish: int, positions: dict[str, tuple[int, int]]) -> list[str]:
    """Riders on or past ``finish``, best first: furthest square, then the right-hand lane."""
    return movement_order({r: p for r, p in positions.items() if p[0] >= finish})
