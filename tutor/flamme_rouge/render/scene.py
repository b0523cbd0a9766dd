"""``Scene``: a three-layer MultiCanvas and the view of the track shown on it.

Layers: 0 the track (redrawn only when the view scrolls or a client connects),
1 the riders and highlights on the road (redrawn every frame), 2 the card panel
and the riders on the mini-map (redrawn once per action).
``draw`` paints a state in one message; ``animate`` sends a whole animation in
one message, with ``sleep`` between frames, so Python never waits.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from ipycanvas import MultiCanvas, hold_canvas
from ipywidgets import Layout

from tutor.flamme_rouge import Race, Track
from tutor.flamme_rouge.events import Blocked, Event

from .animation import FRAMES_PER_STEP, frame_ms, frames_for, thin
from .cards import CardPanel, draw_card_panel
from .geometry import View, WIDTH, follow, make_view
from .highlights import Highlights
from .riders import draw_minimap_riders, draw_riders
from .track import draw_track


class Scene:
    def __init__(self, track: Track, width: int = WIDTH):
        self.view: View = make_view(track, width)
        height = self.view.height
        self.canvas = MultiCanvas(3, width=width, height=height,
                                  layout=Layout(width=f"{width}px", height=f"{height}px"))
        self._track_drawn_at: int | None = None
        """``view.first`` when the track layer was last drawn (None: never)."""

    @property
    def track_layer(self):
        return self.canvas[0]

    @property
    def riders_layer(self):
        return self.canvas[1]

    @property
    def cards_layer(self):
        return self.canvas[2]

    def draw(self, race: Race, highlights: Highlights = Highlights(), panel: CardPanel = CardPanel(), *,
             priority: Iterable[int] = (), redraw_track: bool = False) -> None:
        """Paint ``race`` in one message; scroll so the riders (or the ``priority`` squares) are in view."""
        with hold_canvas():
            self._scroll([s for s, _ in race.positions().values()], priority, redraw_track)
            draw_riders(self.riders_layer, self.view, race, highlights)
            self._draw_overlay(race, panel)

    def animate(self, race: Race, events: Sequence[Event], before: Mapping[str, tuple[int, int]],
                highlights: Highlights = Highlights(), panel: CardPanel = CardPanel(), *, steps: int = 1) -> None:
        """Play ``events`` from the ``before`` positions to ``race``, then paint it: all in one message."""
        frames = thin(frames_for(events, before), FRAMES_PER_STEP * steps)
        movers = {rid for frame in frames for rid in frame.moving}
        squares = [s for s, _ in (*before.values(), *race.positions().values())]
        squares += [e.target for e in events if isinstance(e, Blocked)]
        priority = [s for rid, (s, _) in race.positions().items() if rid in movers]
        ms = frame_ms(frames, steps)
        with hold_canvas():
            if self._scroll(squares, priority, redraw=False):
                self.track_layer.sleep(0)  # show the new track before the frames play
            for frame in frames:
                draw_riders(self.riders_layer, self.view, race,
                            Highlights(cards=highlights.cards, blocked=frame.blocked, packs=frame.packs,
                                       exhausted=frame.exhausted),
                            positions=frame.positions, moving=frame.moving)
                self.riders_layer.sleep(ms * frame.weight)
            draw_riders(self.riders_layer, self.view, race, highlights)
            self._draw_overlay(race, panel)

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
