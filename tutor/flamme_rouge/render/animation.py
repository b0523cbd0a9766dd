"""Animation frames from engine events: pure data, painted by ``Scene.animate``.

A move slides the token square by square (and, when blocked, up to the full
square and back); a slipstream slides the pack one square in quarter steps with
the packs outlined; an exhaustion flashes the "E2" icons. ``frame_ms`` keeps a
whole step under about a second.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from tutor.flamme_rouge.events import (Blocked, Event, ExhaustionTaken, PacksFound, RiderMoved,
                                       Slipstreamed)

from .riders import FloatPosition

STEP_BUDGET_MS = 900
FRAME_MS = (18, 55)
"""Shortest and longest frame."""
FRAMES_PER_STEP = 16
"""Beyond this, ``thin`` drops sliding frames (a whole round in one animation stays cheap to send)."""


@dataclass(frozen=True)
class Frame:
    positions: Mapping[str, FloatPosition]
    moving: tuple[str, ...] = ()
    blocked: tuple[int, ...] = ()
    packs: tuple[tuple[float, float], ...] = ()
    exhausted: tuple[str, ...] = ()
    weight: int = 1
    """How many frame durations this frame is held."""


@dataclass
class _Timeline:
    positions: dict[str, FloatPosition]
    frames: list[Frame] = field(default_factory=list)

    def add(self, weight: int = 1, **highlights) -> None:
        self.frames.append(Frame(dict(self.positions), weight=weight, **highlights))


def frames_for(events: Sequence[Event], before: Mapping[str, tuple[int, int]]) -> list[Frame]:
    """The frames that lead from the ``before`` positions through ``events`` (one or several steps)."""
    timeline = _Timeline({rid: (float(s), float(lane)) for rid, (s, lane) in before.items()})
    for i, event in enumerate(events):
        if isinstance(event, RiderMoved):
            nxt = events[i + 1] if i + 1 < len(events) else None
            blocked = nxt if isinstance(nxt, Blocked) and nxt.rider == event.rider else None
            _slide(timeline, event, blocked)
        elif isinstance(event, PacksFound):
            timeline.add(weight=4, packs=event.packs)
        elif isinstance(event, Slipstreamed):
            _slipstream(timeline, event)
    exhausted = tuple(e.rider for e in events if isinstance(e, ExhaustionTaken))
    if exhausted:
        timeline.add(weight=5, exhausted=exhausted)
    return timeline.frames


def _slide(timeline: _Timeline, moved: RiderMoved, blocked: Blocked | None) -> None:
    """Square by square in the starting lane; a blocked rider goes up to the full square and back."""
    (start, lane), (end, end_lane) = moved.frm, moved.to
    reach = blocked.target if blocked else end
    path = list(range(start + 1, reach + 1)) + list(range(reach - 1, end - 1, -1))
    full = blocked.full if blocked else ()
    for k, square in enumerate(path[:-1]):
        at_or_past_target = k >= reach - start - 1
        timeline.positions[moved.rider] = (float(square), float(lane))
        timeline.add(moving=(moved.rider,), blocked=full if at_or_past_target else ())
    timeline.positions[moved.rider] = (float(end), float(end_lane))
    timeline.add(weight=2, moving=(moved.rider,), blocked=full)


def _slipstream(timeline: _Timeline, event: Slipstreamed) -> None:
    """The pack slides up one square in quarter steps, its outline moving with it."""
    starts = {rid: timeline.positions[rid] for rid in event.riders}
    lo, hi = event.frm
    for quarter in (0.25, 0.5, 0.75, 1.0):
        for rid, (square, lane) in starts.items():
            timeline.positions[rid] = (square + quarter, lane)
        timeline.add(moving=event.riders, packs=((lo + quarter, hi + quarter),))


def thin(frames: list[Frame], limit: int) -> list[Frame]:
    """At most about ``limit`` frames: keep every n-th sliding frame and every held frame (ends of moves)."""
    if len(frames) <= limit:
        return frames
    stride = math.ceil(len(frames) / limit)
    return [f for i, f in enumerate(frames) if f.weight > 1 or i % stride == stride - 1]


def frame_ms(frames: Sequence[Frame], steps: int = 1) -> int:
    """Frame duration so the whole animation lasts about ``STEP_BUDGET_MS`` per step."""
    units = sum(f.weight for f in frames) or 1
    return int(max(FRAME_MS[0], min(FRAME_MS[1], STEP_BUDGET_MS * steps / units)))
