"""Drawing a Flamme Rouge race on ipycanvas: pure functions of (race, highlights); no widget wiring.

Conventions: riders ride to the right; lane 0 (the right-hand lane, ahead on a
shared square) is the BOTTOM row of the road, under a double white line.
Terrain shows as colour and glyph: ▲ ascent (red), ▼ descent (blue),
∴ cobblestones (grey, dotted), S supply zone (green). Long stages show a window
of 26 squares that follows the riders, under a mini-map of the whole stage.

    scene = Scene(race.track)                    # scene.canvas: a 3-layer MultiCanvas, fixed 960 px wide
    scene.draw(race, highlights_for(race, events), CardPanel(("red-S", "red-R")))
    scene.animate(race, events, before_positions, highlights, panel)   # frame by frame; a later draw drops the rest

Lower level: ``draw_track(canvas, view)``, ``draw_riders(canvas, view, race, highlights, positions)``,
``draw_card_panel(canvas, view, race, panel)``, ``frames_for(events, before)``, ``make_view``/``follow``.
Callers wrap the lower-level functions in ``hold_canvas()``; ``Scene`` does it for them.
"""

from .animation import Frame, frame_ms, frames_for, thin
from .cards import CardPanel, draw_card, draw_card_panel
from .geometry import View, canvas_height, follow, make_view
from .highlights import Chip, Highlights, Mark, highlights_for, revealed_cards
from .riders import current_positions, draw_minimap_riders, draw_riders, draw_tokens, rider_colours, token_label
from .scene import Scene, StepRecord
from .legend import legend_html
from .track import draw_minimap, draw_track

__all__ = [
    "Frame",
    "frame_ms",
    "frames_for",
    "thin",
    "CardPanel",
    "draw_card",
    "draw_card_panel",
    "View",
    "canvas_height",
    "follow",
    "make_view",
    "Chip",
    "Highlights",
    "Mark",
    "highlights_for",
    "revealed_cards",
    "current_positions",
    "draw_minimap_riders",
    "draw_riders",
    "draw_tokens",
    "rider_colours",
    "token_label",
    "Scene",
    "StepRecord",
    "legend_html",
    "draw_minimap",
    "draw_track",
]
