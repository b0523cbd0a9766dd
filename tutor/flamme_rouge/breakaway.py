"""The breakaway bid of the Peloton expansion (docs/rules.md, Peloton expansion: Breakaway), as pure functions.

Each player picks one rider and bids twice (draw 4, play 1 face down, recycle 3).
The two cards' total ranks the riders, and a tie goes to the rider further back on
the grid (the expansion's rulebook). Tutor decisions (docs/rule_decisions.md,
``fr.breakaway.tie``; the rulebook speaks of 2-6 players only): with 2-4 bidders the top rider joins the
breakaway, with 5 or more (up to 12 single riders) the top two; the tie rule applies
all the way down the ranking.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def size(bidders: int) -> int:
    """Riders in the breakaway for this many bidders (bot teams never bid)."""
    return 1 if bidders <= 4 else 2


def total(bid: Sequence[int]) -> int:
    """A bid's total: the values of its cards added up (what the ranking compares first)."""
    return sum(bid)


def ranking(bids: Mapping[str, Sequence[int]], grid: Sequence[str]) -> list[str]:
    """Every bidder, best first: highest total, then further back on the grid.

    ``grid`` lists the bidders' ids from the front of the start area to the back.
    """
    missing = sorted(set(bids) - set(grid))
    if missing:
        raise ValueError(f"bidder {missing[0]!r} is not on the grid")
    place = {rid: i for i, rid in enumerate(grid)}
    return sorted(bids, key=lambda rid: (-total(bids[rid]), -place[rid]))


def select(bids: Mapping[str, Sequence[int]], grid: Sequence[str]) -> list[str]:
    """The breakaway riders in ranking order.

    >>> select({"a": (5, 4), "b": (9, 2), "c": (3, 3)}, grid=["a", "b", "c"])
    ['b']
    """
    return ranking(bids, grid)[: size(len(bids))]


def tie_at_cut(bids: Mapping[str, Sequence[int]], grid: Sequence[str]) -> tuple[list[str], list[str]]:
    """The tie the grid broke: the bidders whose equal totals straddle the breakaway cut (best first) and those of
    them who join (the ones further back on the grid); two empty lists when no tie decided who joined.

    >>> tie_at_cut({"a": (5, 4), "b": (6, 3), "c": (3, 3)}, grid=["a", "b", "c"])
    (['b', 'a'], ['b'])
    """
    order = ranking(bids, grid)
    cut = size(len(bids))
    if cut >= len(order) or total(bids[order[cut - 1]]) != total(bids[order[cut]]):
        return [], []
    level = total(bids[order[cut - 1]])
    tied = [rid for rid in order if total(bids[rid]) == level]
    return tied, [rid for rid in tied if rid in order[:cut]]
