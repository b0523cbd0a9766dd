"""Colours and labels of the Flamme Rouge board (fonts and contrasting ink: ``tutor.ui.drawing``).

Terrain is shown by colour AND by a glyph (colour-blind learners): ascent red
with "▲", descent blue with "▼", cobblestones grey with dots, supply zone green
with "S". Team tokens carry their letter in white or black, whichever contrasts
more with the team colour.
"""

from __future__ import annotations

from tutor.flamme_rouge.track import Terrain

TEAM_COLOURS: dict[str, str] = {
    "red": "#c62828",
    "blue": "#1565c0",
    "green": "#2e7d32",
    "black": "#212121",
    "white": "#fafafa",
    "pink": "#f48fb1",
    # Single riders beyond six players, and the bot teams of the Peloton expansion.
    "yellow": "#f9a825",
    "orange": "#ef6c00",
    "purple": "#6a1b9a",
    "teal": "#00838f",
    "brown": "#6d4c41",
    "grey": "#757575",
    "silver": "#b0bec5",
    "gold": "#c9a227",
    "bronze": "#a1662f",
}
"""Token colour of each team colour name (``Rider.colour``, ``Team.colour``; ``tutor.flamme_rouge.TEAM_COLOURS``)."""
UNKNOWN_TEAM = "#9e9e9e"
"""A colour name this palette does not know (a later expansion's): grey, never a team's colour."""


def token_colour(colour_name: str) -> str:
    """The fill of a rider token of the team colour ``colour_name``."""
    return TEAM_COLOURS.get(colour_name, UNKNOWN_TEAM)


TERRAIN_FILL = {
    Terrain.FLAT: "#cfcdc4",
    Terrain.ASCENT: "#f1a9a0",
    Terrain.DESCENT: "#a9cdf0",
    Terrain.COBBLES: "#a3a3a3",
    Terrain.SUPPLY: "#b5e0a8",
}
TERRAIN_INK = {
    Terrain.ASCENT: "#b71c1c",
    Terrain.DESCENT: "#0d47a1",
    Terrain.COBBLES: "#424242",
    Terrain.SUPPLY: "#1b5e20",
}
TERRAIN_GLYPH = {Terrain.ASCENT: "▲", Terrain.DESCENT: "▼", Terrain.COBBLES: "∴", Terrain.SUPPLY: "S"}
TERRAIN_NAME = {
    Terrain.FLAT: "flat",
    Terrain.ASCENT: "ascent",
    Terrain.DESCENT: "descent",
    Terrain.COBBLES: "cobbles",
    Terrain.SUPPLY: "supply zone",
}

PAGE = "#ffffff"
VERGE = "#eef0e6"
"""Ground beside the road, where a square has fewer lanes than the widest square."""
ROAD_EDGE = "#5c5c5c"
LANE_LINE = "#ffffff"
INK = "#222222"
MUTED = "#6b6b6b"
HIGHLIGHT = "#ffb300"
"""Ring around the rider about to move or being played for."""
WARNING = "#d32f2f"
PACK = "#7b1fa2"
SLIPSTREAM = "#2e7d32"

CARD_FACE = "#fffdf4"
CARD_BORDER = "#5d5d5d"
CARD_BACK = "#455a64"
EXHAUSTION_FACE = "#8d3b2f"
EXHAUSTION_INK = "#ffffff"

LANE_NAMES = ("right lane", "left lane", "third lane")


def lane_name(lane: int) -> str:
    return LANE_NAMES[lane] if 0 <= lane < len(LANE_NAMES) else f"lane {lane}"
