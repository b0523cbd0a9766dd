"""The picture of the climb rule: the squares a rider below a climb may move, numbered, with the count.

Mountains (rules.ASCENT): a rider moves at most 5 (``track.ASCENT_MAXIMUM``) on or into an ascent; below a climb
it may go as far as the square before the climb, and never fewer than 5. The engine works this out once, in
``Track.ceiling`` (the most squares a rider starting on each square may move); this module only asks it, and the
track's terrain
(``Track.ascent``) to tell flat squares from climbing ones. A quiz's Reveal (``PredictQuiz``) shows it when the
rider's move cites the climb (``RiderMoved.terrain``):

    marks = climb_marks(race, events, "red-S")     # numbered outlines, +1 .. the engine's limit
    lines = climb_lines(race, events, "red-S")      # "7 flat squares before the climb: red-S may move 7."
"""

from __future__ import annotations

from typing import Sequence

from tutor.flamme_rouge import rules
from tutor.flamme_rouge.events import Event, RiderMoved
from tutor.flamme_rouge.race import Race
from tutor.i18n import ngettext
from tutor.ui.narration import Line

from .highlights import Mark

FLAT_COUNTED = "#00796b"
"""The flat squares the rule counts (teal)."""
CLIMB_COUNTED = "#6d4c41"
"""Squares of the climb a rider may still reach (brown, as the ascent)."""


def climb_move(events: Sequence[Event], rider: str) -> RiderMoved | None:
    """The rider's move when the climb limited it and it started below the climb (not on it)."""
    return next(
        (e for e in events if isinstance(e, RiderMoved) and e.rider == rider and e.terrain == rules.ASCENT), None
    )


def counted_squares(race: Race, start: int) -> tuple[list[int], int]:
    """(the flat squares between ``start`` and the first ascent square ahead, the engine's limit from ``start``)."""
    track = race.track
    flat: list[int] = []
    for square in range(start + 1, len(track)):
        if track.ascent[square]:
            break
        flat.append(square)
    return flat, track.ceiling[start]


def climb_marks(race: Race, events: Sequence[Event], rider: str) -> tuple[Mark, ...]:
    """Each square the rider may move into, numbered "+1" up to the engine's limit (flat ones teal, climbing
    ones brown); none when the climb did not limit the rider's move or it started on the climb."""
    move = climb_move(events, rider)
    if move is None or race.track.ascent[move.frm[0]]:
        return ()
    start = move.frm[0]
    flat, limit = counted_squares(race, start)
    return tuple(
        Mark(start + k, None, f"+{k}", FLAT_COUNTED if start + k in flat else CLIMB_COUNTED, below=True)
        for k in range(1, limit + 1)
        if start + k < len(race.track)
    )


def climb_lines(race: Race, events: Sequence[Event], rider: str) -> list[Line]:
    """The sentence under the picture: how many flat squares, and how far that lets the rider go."""
    move = climb_move(events, rider)
    if move is None or race.track.ascent[move.frm[0]]:
        return []
    flat, limit = counted_squares(race, move.frm[0])
    n = len(flat)
    if limit > n:
        words = ngettext(
            "{n} flat square before the climb (numbered on the board): fewer than {limit}, so {rider} "
            "may still move {limit}, into the climb.",
            "{n} flat squares before the climb (numbered on the board): fewer than {limit}, so {rider} "
            "may still move {limit}, into the climb.",
            n,
        ).format(n=n, rider=rider, limit=limit)
    else:
        words = ngettext(
            "{n} flat square before the climb (numbered +1 to +{n} on the board): {rider} may move "
            "{limit}, up to the foot of the climb.",
            "{n} flat squares before the climb (numbered +1 to +{n} on the board): {rider} may move "
            "{limit}, up to the foot of the climb.",
            n,
        ).format(n=n, rider=rider, limit=limit)
    return [Line(words, (rules.ASCENT,))]
