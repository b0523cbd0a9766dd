"""Colours, fonts and labels shared by the drawing functions.

Terrain is shown by colour AND by a glyph (colour-blind learners): ascent red
with "▲", descent blue with "▼", cobblestones grey with dots, supply zone green
with "S". Team tokens carry their letter in white or black, whichever contrasts
more with the team colour.
"""

from __future__ import annotations

from functools import lru_cache

from tutor.flamme_rouge import Terrain

FONT = "Helvetica, Arial, sans-serif"


def font(size: int, bold: bool = False) -> str:
    return f"{'bold ' if bold else ''}{size}px {FONT}"


TEAM_COLOURS: dict[str, str] = {
    "red": "#c62828",
    "blue": "#1565c0",
    "green": "#2e7d32",
    "black": "#212121",
    "white": "#fafafa",
    "pink": "#f48fb1",
}
OTHER_COLOURS = ("#ef6c00", "#6a1b9a", "#00838f", "#6d4c41", "#9e9d24", "#546e7a", "#ad1457")
"""Colours for scenario teams that are not one of the six team colours, in order of appearance."""

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


@lru_cache(maxsize=None)
def hex_to_rgb(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    return int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16)


@lru_cache(maxsize=None)
def _luminance(colour: str) -> float:
    def channel(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in hex_to_rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@lru_cache(maxsize=None)
def text_colour_on(colour: str) -> str:
    """White or black, whichever has the higher WCAG contrast ratio on ``colour``."""
    lum = _luminance(colour)
    return "#ffffff" if (1.05 / (lum + 0.05)) >= ((lum + 0.05) / 0.05) else "#000000"


def team_palette(teams) -> dict[str, str]:
    """A colour for every team name: its own colour for the six team colours, else the next spare colour."""
    palette, spare = {}, iter(OTHER_COLOURS * 4)
    for team in teams:
        palette[team] = TEAM_COLOURS.get(team) or next(spare)
    return palette


@lru_cache(maxsize=None)
def needs_outline(colour: str) -> bool:
    """Light tokens (the white team) need a dark outline to stand out on the road."""
    return _luminance(colour) > 0.6
