"""Animation frames from engine events: pure data, painted by ``Scene.animate``.

A move slides the token square by square (and, when blocked, up to the full
square and back); a rider placed anew (the breakaway) glides to its square;
slipstream first outlines every pack and holds, then slides each pack that moves, one at a time, one square
in quarter steps, and holds again with the merged packs (``Slipstreamed.packs``) and the "+1" chips; an exhaustion
holds the "E2" icons.
``frame_ms`` keeps a step's sliding to about a second; the holds are what let a
class see each sub-step.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from tutor.flamme_rouge.events import (
    Blocked,
    BreakawayCost,
    BreakawayStart,
    Event,
    ExhaustionTaken,
    PacksFound,
    RiderMoved,
    RiderPlaced,
    Slipstreamed,
)

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
    gained: Mapping[str, int] = field(default_factory=dict)
    """Rider -> squares gained by slipstream so far in this step ("+1" chips)."""
    hold_ms: float = 0
    """A held picture (a sub-step to look at): shown this long, whatever the pace of the sliding frames."""

    def duration(self, ms: float) -> float:
        """How long the frame shows when a sliding frame lasts ``ms``."""
        return self.hold_ms or ms * self.weight


@dataclass
class _Timeline:
    positions: dict[str, FloatPosition]
    frames: list[Frame] = field(default_factory=list)
    packs: list[tuple[float, float]] = field(default_factory=list)
    gained: dict[str, int] = field(default_factory=dict)

    def add(self, weight: int = 1, **highlights: Any) -> None:
        highlights.setdefault("gained", dict(self.gained))
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
            timeline.packs = [(float(lo), float(hi)) for lo, hi in event.packs]
            timeline.add(hold_ms=HOLD_MS, packs=tuple(timeline.packs))  # the packs, outlined, before anyone moves
        elif isinstance(event, Slipstreamed):
            _slipstream(timeline, event)
        elif isinstance(event, (RiderPlaced, BreakawayStart)) and event.rider in timeline.positions:
            _glide(timeline, event)
    exhausted = tuple(e.rider for e in events if isinstance(e, (ExhaustionTaken, BreakawayCost)))
    if exhausted:
        timeline.add(hold_ms=HOLD_MS, exhausted=exhausted)
    return timeline.frames


HOLD_MS = 900
"""How long a sub-step's picture is held (the packs outlined, each merge, the exhaustion cards)."""


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


GLIDE_FRAMES = 8


def _glide(timeline: _Timeline, placed: RiderPlaced | BreakawayStart) -> None:
    """A rider put on a new square (the breakaway riders past the start line) glides there in a straight line."""
    (s0, l0), (s1, l1) = timeline.positions[placed.rider], placed.to
    for k in range(1, GLIDE_FRAMES + 1):
        f = k / GLIDE_FRAMES
        timeline.positions[placed.rider] = (s0 + (s1 - s0) * f, l0 + (l1 - l0) * f)
        timeline.add(weight=2 if k == GLIDE_FRAMES else 1, moving=(placed.rider,))


def _slipstream(timeline: _Timeline, event: Slipstreamed) -> None:
    """The pack slides up one square in quarter steps, its outline moving with it; then it merges with the
    pack ahead, and the picture is held."""
    starts = {rid: timeline.positions[rid] for rid in event.riders}
    lo, hi = event.frm
    others = [p for p in timeline.packs if p != (lo, hi)]
    for quarter in (0.25, 0.5, 0.75, 1.0):
        for rid, (square, lane) in starts.items():
            timeline.positions[rid] = (square + quarter, lane)
        timeline.add(moving=event.riders, packs=(*others, (lo + quarter, hi + quarter)))
    timeline.packs = [(float(lo), float(hi)) for lo, hi in event.packs]  # merged with the pack ahead (the engine's)
    for rid in event.riders:
        timeline.gained[rid] = timeline.gained.get(rid, 0) + 1
    timeline.add(hold_ms=HOLD_MS * 0.7, packs=tuple(timeline.packs))


def thin(frames: list[Frame], limit: int) -> list[Frame]:
    """At most about ``limit`` frames: keep every n-th sliding frame and every held frame (ends of moves)."""
    if len(frames) <= limit:
        return frames
    stride = math.ceil(len(frames) / limit)
    return [f for i, f in enumerate(frames) if f.weight > 1 or f.hold_ms or i % stride == stride - 1]


def frame_ms(frames: Sequence[Frame], steps: int = 1) -> int:
    """Frame duration so the whole animation lasts about ``STEP_BUDGET_MS`` per step."""
    units = sum(f.weight for f in frames if not f.hold_ms) or 1
    return int(max(FRAME_MS[0], min(FRAME_MS[1], STEP_BUDGET_MS * steps / units)))
