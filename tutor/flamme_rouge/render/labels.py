"""Where the board's small labels go, so that none is written over another (issue 37).

A token's letter badge sits at its upper left (``BADGE_OFFSET``). The labels by a token (its card chip, an "E2"
exhaustion card, a slipstream "+1", a finishing place) go at its upper right, where a token has room when the
square ahead is empty; in a pack the next token's badge is there, so a label tries the token's lower right, then
its lower left, then above and below it, and takes the first place that covers no badge, no other rider's team
mark and no label placed before it (failing all, it goes over its square, above or under the road). The labels
of outlined squares (``Mark``: a quiz's answer and guess, the climb's "+1" .. "+5") go in a row above or under
the road; one that would cover another moves to the other row, then slides sideways.

These are pure functions of the view and the positions: the drawing uses them, and the tests check that the boxes
they give do not overlap.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from .geometry import GLYPH_Y, MARGIN, View
from .highlights import Mark

Box = tuple[float, float, float, float]
"""x, y (upper left), width, height, in the view's units (CSS pixels)."""

BADGE_OFFSET, BADGE_SIZE = 0.72, 0.62
"""Where a token's letter badge sits (up and left of its centre) and its radius, in token radii."""
MARK_SIZE = 0.6
"""Half the width of a team mark in the middle of a token, in token radii."""
CHIP_H, TAG_H = 15, 16
"""The heights of a card chip and of a tag (a rounded label)."""


def chip_w(text: str) -> float:
    """The width of a label by a token showing ``text`` (12 px bold, a narrow margin): narrow enough that one fits
    in the gap a full pack leaves at a token's lower right."""
    return 5 + 7 * len(text)


def tag_w(text: str) -> float:
    """The width of a mark's label (``tutor.ui.drawing.tag``)."""
    return 8 + 7.5 * len(text)


def overlaps(a: Box, b: Box) -> bool:
    """Two boxes share some area (touching edges do not count)."""
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def overlap_area(a: Box, b: Box) -> float:
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return max(0.0, w) * max(0.0, h)


def badge_box(view: View, square: float, lane: float) -> Box:
    """The square round a token's letter badge."""
    x, y = view.centre(square, lane)
    r = view.token_r
    size = r * BADGE_SIZE
    return (x - r * BADGE_OFFSET - size, y - r * BADGE_OFFSET - size, 2 * size, 2 * size)


def mark_box(view: View, square: float, lane: float) -> Box:
    """The square round the team mark in a token's middle."""
    x, y = view.centre(square, lane)
    half = view.token_r * MARK_SIZE
    return (x - half, y - half, 2 * half, 2 * half)


@dataclass(frozen=True)
class Label:
    """A label by a rider's token: what it is (``kind``: "card", "exhaustion", "slipstream", "place"), its text
    and where it goes (``box``)."""

    rider: str
    kind: str
    text: str
    box: Box


def _candidates(view: View, square: float, lane: float, w: float, h: float) -> list[Box]:
    """Places round a token for a label w x h, the usual one (upper right) first, then the gaps a full pack
    leaves: beside the token's team mark, low, to the right and to the left."""
    x, y = view.centre(square, lane)
    r = view.token_r
    side = r * MARK_SIZE + 0.5
    return [
        (x + r * 0.45, y - r - 4, w, h),  # upper right, over the token's edge
        (x + side, y + r + 4 - h, w, h),  # lower right, beside the team mark
        (x - side - w, y + r + 4 - h, w, h),  # lower left
        (x - w / 2, y - r - 4 - h / 2, w, h),  # above, on the lane's edge
        (x - w / 2, y + r + 4 - h / 2, w, h),  # below, on the lane's edge
    ]


def _in_rows(view: View, square: float, lane: float, w: float, h: float) -> list[Box]:
    """The last resort of a label with no room by its token: over its square, in the row above the road (the top
    lanes) or under it (the others), sliding sideways, on the canvas."""
    above, below = mark_rows(view)
    rows = (above, below) if lane >= view.track.lanes[int(square)] / 2 else (below, above)
    x = view.cx(square)
    shifts = [0.0] + [k * sign * view.cell_w / 2 for k in range(1, 13) for sign in (1, -1)]
    return [
        (min(max(x + dx, MARGIN / 2 + w / 2), view.width - MARGIN / 2 - w / 2) - w / 2, row - h / 2, w, h)
        for dx in shifts
        for row in rows
    ]


def place_rider_labels(
    view: View,
    positions: Mapping[str, tuple[float, float]],
    wanted: Sequence[tuple[str, str, str, float]],
    taken: Sequence[Box] = (),
) -> list[Label]:
    """Place each wanted label (rider, kind, text, height) by its rider's token, in order: the first candidate
    place that covers no badge, no other rider's team mark, none of the ``taken`` boxes (the marks' labels) and no
    label placed before; with no such place by the token, over its square above or under the road."""
    badges = [badge_box(view, *pos) for pos in positions.values()]
    marks = {rid: mark_box(view, *pos) for rid, pos in positions.items()}
    placed: list[Label] = []
    for rider, kind, text, h in wanted:
        if rider not in positions:
            continue
        obstacles = [
            *badges,
            *taken,
            *(box for rid, box in marks.items() if rid != rider),
            *(label.box for label in placed),
        ]
        options = _candidates(view, *positions[rider], chip_w(text), h) + _in_rows(
            view, *positions[rider], chip_w(text), h
        )
        box = next(
            (b for b in options if not any(overlaps(b, o) for o in obstacles)),
            min(options, key=lambda b: sum(overlap_area(b, o) for o in obstacles)),
        )
        placed.append(Label(rider, kind, text, box))
    return placed


@dataclass(frozen=True)
class MarkLabel:
    """Where a ``Mark``'s label goes (``box``; its centre is where the tag is drawn)."""

    mark: Mark
    box: Box

    @property
    def centre(self) -> tuple[float, float]:
        x, y, w, h = self.box
        return x + w / 2, y + h / 2


def mark_rows(view: View) -> tuple[float, float]:
    """The centre lines of the two rows of mark labels: above the road and under it (over the square numbers)."""
    return GLYPH_Y + 5, view.numbers_y


def place_mark_labels(view: View, marks: Iterable[Mark]) -> list[MarkLabel]:
    """A box for each shown mark's label: in its row (``Mark.below``) over its square; one that would cover a label
    placed before goes to the other row, then slides sideways (half a square at a time), staying on the canvas.
    Narrow labels (the climb's "+1") are placed first, then those above the road (a quiz's answer), so that they
    stay over their squares."""
    above, below = mark_rows(view)
    shown = sorted((m for m in marks if view.shows(m.square)), key=lambda m: (tag_w(m.label) > view.cell_w, m.below))
    placed: list[MarkLabel] = []
    for mark in shown:
        w = tag_w(mark.label)
        rows = (below, above) if mark.below else (above, below)
        x = view.cx(mark.square)
        shifts = [0.0] + [k * sign * view.cell_w / 2 for k in range(1, 13) for sign in (1, -1)]
        options = [
            (min(max(x + dx, MARGIN / 2 + w / 2), view.width - MARGIN / 2 - w / 2) - w / 2, row - TAG_H / 2, w, TAG_H)
            for dx in shifts
            for row in rows
        ]
        box = next((b for b in options if not any(overlaps(b, p.box) for p in placed)), options[0])
        placed.append(MarkLabel(mark, box))
    return placed
