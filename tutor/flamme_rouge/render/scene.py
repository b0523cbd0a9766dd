"""``Scene``: the Flamme Rouge board, a three-layer ``tutor.ui.LayeredScene`` and the view of the track on it.

Layers: 0 the track (redrawn only when the view scrolls or a client connects),
1 the riders and highlights on the road (redrawn every frame), 2 the card panel
and the riders on the mini-map (redrawn once per action).
``draw`` paints a state in one message; ``animate`` plays an animation frame by
frame, paced by the kernel's event loop (``tutor.ui.LayeredScene.play``): a later
``draw`` or animation drops the frames not sent yet, and ``finish`` (Skip) shows
the end at once. ``animate_steps`` plays steps the engine has resolved
(``Race.resolve_steps``): the scene only draws, it never changes the race.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from ipycanvas import Canvas

from tutor.flamme_rouge.events import Blocked, Event
from tutor.flamme_rouge.race import Race, ResolvedStep
from tutor.flamme_rouge.track import Track
from tutor.ui.pace import fit
from tutor.ui.scene import LayeredScene

from .animation import FRAMES_PER_STEP, Frame, frame_ms, frames_for, thin
from .cards import CardPanel, draw_card_panel
from .geometry import WIDTH, View, follow, make_view, narrowed
from .highlights import Chip, Highlights, chips_for
from .riders import draw_minimap_riders, draw_riders
from .track import draw_track


StepRecord = ResolvedStep
"""One step the engine resolved (``Race.resolve_steps``), as ``Scene.animate_steps`` plays it."""

PAUSE_MS = 450
"""Held between two steps of an animation (Finish round), so each rider's move reads on its own."""
HOLD_FLOOR_MS = 260
"""A held picture or a pause of a fitted animation (``budget_ms``) shows at least this long."""
SCALE = 2
"""Canvas pixels per CSS pixel: sharp on 2x screens (and on a projector's scaled page)."""


class Scene(LayeredScene):
    def __init__(self, track: Track, width: int = WIDTH, *, cards: bool = True):
        """``cards=False``: no card panel (a lesson without cards), the board is that much shorter."""
        self.view: View = make_view(track, width, cards=cards)
        super().__init__(3, width, self.view.height, scale=SCALE, fit=True)
        self._track_drawn_at: int | None = None
        """``view.first`` when the track layer was last drawn (None: never)."""

    def set_track(self, track: Track) -> None:
        """Show another track (another prepared position, a position code): a new view of it as wide as the
        board is now, the board's new height, and the track layer repainted at the next paint."""
        self.view = narrowed(make_view(track, cards=self.view.cards), self.view.width)
        self.set_height(self.view.height)
        self._track_drawn_at = None

    def fit_column(self, width: int) -> None:
        """Lay the board out for a column ``width`` CSS pixels wide (at most its full width): fewer squares,
        every text, rider and card at its own size (not shrunk with the page), then repaint it all."""
        view = narrowed(self.view, min(width, self.full_width))
        if view == self.view:
            return
        self.view = view
        self.set_width(view.width)
        self.set_height(view.height)
        self._track_drawn_at = None
        self._client_ready()  # the widget's whole repaint, as when a page connects

    @property
    def track_layer(self) -> Canvas:
        return self.layer(0)

    @property
    def riders_layer(self) -> Canvas:
        return self.layer(1)

    @property
    def cards_layer(self) -> Canvas:
        return self.layer(2)

    def draw(
        self,
        race: Race,
        highlights: Highlights = Highlights(),
        panel: CardPanel = CardPanel(),
        *,
        priority: Iterable[int] = (),
        redraw_track: bool = False,
    ) -> None:
        """Paint ``race`` in one message; scroll so the riders (or the ``priority`` squares) are in view."""
        with self.painting():
            self._scroll([s for s, _ in race.positions().values()], priority, redraw_track)
            draw_riders(self.riders_layer, self.view, race, highlights)
            self._draw_overlay(race, panel)

    def animate(
        self,
        race: Race,
        events: Sequence[Event],
        before: Mapping[str, tuple[int, int]],
        highlights: Highlights = Highlights(),
        panel: CardPanel = CardPanel(),
        *,
        steps: int = 1,
    ) -> None:
        """Play ``events`` from the ``before`` positions to ``race``, then paint it."""
        frames = thin(frames_for(events, before), FRAMES_PER_STEP * steps)
        movers = {rid for frame in frames for rid in frame.moving}
        squares = [s for s, _ in (*before.values(), *race.positions().values())]
        squares += [e.target for e in events if isinstance(e, Blocked)]
        priority = [s for rid, (s, _) in race.positions().items() if rid in movers]
        ms = frame_ms(frames, steps)

        def draw_frame(frame: Frame) -> float:
            draw_riders(
                self.riders_layer,
                self.view,
                race,
                Highlights(
                    cards=highlights.cards,
                    blocked=frame.blocked,
                    packs=frame.packs,
                    exhausted=frame.exhausted,
                    slipstreamed=frame.gained,
                ),
                positions=frame.positions,
                moving=frame.moving,
            )
            return frame.duration(ms)

        def final() -> None:
            draw_riders(self.riders_layer, self.view, race, highlights)
            self._draw_overlay(race, panel)

        self.play(frames, draw_frame, before=lambda: self._scroll(squares, priority, redraw=False), after=final)

    def animate_steps(
        self,
        race: Race,
        steps: Sequence[StepRecord],
        highlights: Highlights = Highlights(),
        panel: CardPanel = CardPanel(),
        *,
        speed: float = 1.0,
        priority: Iterable[int] = (),
        budget_ms: float | None = None,
    ) -> float:
        """Play several steps one after the other (each at its own pace, a pause between them), then paint
        ``race``. ``speed`` multiplies every frame's duration (2: twice as slow); with ``budget_ms`` the whole
        plays in about that long (``tutor.ui.pace.fit``: the slides shrink first, each hold stays visible).
        Returns how long it plays (ms)."""
        timeline: list[tuple[Frame, Mapping[str, Chip], float]] = []
        squares: list[int] = [s for s, _ in race.positions().values()]
        for k, step in enumerate(steps):
            frames = thin(frames_for(step.events, step.before), FRAMES_PER_STEP)
            ms = frame_ms(frames) * speed
            chips = chips_for(step.moves)
            timeline += [(frame, chips, frame.duration(ms) * (speed if frame.hold_ms else 1)) for frame in frames]
            if frames and k < len(steps) - 1:
                timeline.append((frames[-1], chips, PAUSE_MS * speed))
            squares += [s for s, _ in step.before.values()]
            squares += [e.target for e in step.events if isinstance(e, Blocked)]
        if budget_ms is not None:
            fitted = fit(
                [ms for _, _, ms in timeline],
                budget_ms,
                floor_ms=[HOLD_FLOOR_MS if frame.hold_ms or ms >= PAUSE_MS * speed else 0 for frame, _, ms in timeline],
            )
            timeline = [(frame, chips, ms) for (frame, chips, _), ms in zip(timeline, fitted)]
        priority = list(priority) or [s for s, _ in race.positions().values()]

        def draw_frame(item: tuple[Frame, Mapping[str, Chip], float]) -> float:
            frame, chips, ms = item
            still = {rid: chip for rid, chip in chips.items() if rid not in frame.moving}
            draw_riders(
                self.riders_layer,
                self.view,
                race,
                Highlights(
                    cards=still,
                    blocked=frame.blocked,
                    packs=frame.packs,
                    exhausted=frame.exhausted,
                    slipstreamed=frame.gained,
                ),
                positions=frame.positions,
                moving=frame.moving,
            )
            return ms

        def final() -> None:
            draw_riders(self.riders_layer, self.view, race, highlights)
            self._draw_overlay(race, panel)

        self.play(timeline, draw_frame, before=lambda: self._scroll(squares, priority, redraw=False), after=final)
        return sum(ms for _, _, ms in timeline)

    def _draw_overlay(self, race: Race, panel: CardPanel) -> None:
        draw_card_panel(self.cards_layer, self.view, race, panel)
        draw_minimap_riders(self.cards_layer, self.view, race)

    def _scroll(self, squares: list[int], priority: Iterable[int], redraw: bool) -> bool:
        """Follow the riders; repaint the track layer when the view moved. True when it was repainted."""
        self.view = follow(self.view, squares, priority)
        if redraw or self._track_drawn_at != self.view.first:
            draw_track(self.track_layer, self.view)
            self._track_drawn_at = self.view.first
            return True
        return False
