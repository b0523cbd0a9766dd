"""Colours and labels of the Flamme Rouge board (fonts and contrasting ink: ``tutor.ui.drawing``).

Terrain is shown by colour AND by a glyph (colour-blind learners): ascent red
with "▲", descent blue with "▼", cobblestones grey with dots, supply zone green
with "S". Team tokens carry their letter in white or black, whichever contrasts
more with the team colour.
"""

from __future__ import annotations

import math

from tutor.flamme_rouge.track import Terrain
from tutor.i18n import N_, _

TEAM_COLOURS: dict[str, str] = {
    "red": "#c62828",
    "blue": "#1565c0",
    "green": "#009e73",
    "black": "#212121",
    "white": "#fafafa",
    "pink": "#f48fb1",
    # Single riders beyond six players, and the bot teams of the Peloton expansion.
    "yellow": "#ffd54f",
    "orange": "#ef6c00",
    "purple": "#7b1fa2",
    "teal": "#4fc3f7",
    "brown": "#6d4c41",
    "grey": "#757575",
    "silver": "#cfd8dc",
    "gold": "#d4af37",
    "bronze": "#8d5524",
}
"""Token colour of each team colour name (``Rider.colour``, ``Team.colour``; ``tutor.flamme_rouge.TEAM_COLOURS``).

The six colours of the game are chosen so that each pair stays apart under deuteranopia and protanopia (the
green is a bluish green, far in lightness from the red); with 15 teams colour alone cannot do it, so every
token also carries its team's mark (``TEAM_MARKS``)."""
UNKNOWN_TEAM = "#9e9e9e"
"""A colour name this palette does not know (a later expansion's): grey, never a team's colour."""


def token_colour(colour_name: str) -> str:
    """The fill of a rider token of the team colour ``colour_name``."""
    return TEAM_COLOURS.get(colour_name, UNKNOWN_TEAM)


# ----- team marks: a shape in a white badge on every token, so that teams differ without colour -----------

Points = tuple[tuple[float, float], ...]
MarkPart = tuple[Points, bool]
"""A polygon in unit coordinates (x right, y down, within -1..1) and whether it is filled (else outlined)."""


def _ngon(n: int, r: float = 1.0, start: float = -90.0, squash: float = 1.0) -> Points:
    return tuple(
        (
            round(r * math.cos(math.radians(start + 360 * k / n)), 3),
            round(squash * r * math.sin(math.radians(start + 360 * k / n)), 3),
        )
        for k in range(n)
    )


def _star(points: int = 5, outer: float = 1.0, inner: float = 0.45) -> Points:
    return tuple(
        (
            round((outer if k % 2 == 0 else inner) * math.cos(math.radians(-90 + 180 * k / points)), 3),
            round((outer if k % 2 == 0 else inner) * math.sin(math.radians(-90 + 180 * k / points)), 3),
        )
        for k in range(2 * points)
    )


_PLUS: Points = (
    (-0.3, -1),
    (0.3, -1),
    (0.3, -0.3),
    (1, -0.3),
    (1, 0.3),
    (0.3, 0.3),
    (0.3, 1),
    (-0.3, 1),
    (-0.3, 0.3),
    (-1, 0.3),
    (-1, -0.3),
    (-0.3, -0.3),
)
_CROSS: Points = tuple((round((x - y) * 0.7071, 3), round((x + y) * 0.7071, 3)) for x, y in _PLUS)
_TRIANGLE: Points = ((0, -1), (0.95, 0.75), (-0.95, 0.75))
_DOWN: Points = ((-0.95, -0.75), (0.95, -0.75), (0, 1))
_SQUARE: Points = ((-0.8, -0.8), (0.8, -0.8), (0.8, 0.8), (-0.8, 0.8))
_DIAMOND: Points = ((0, -1), (1, 0), (0, 1), (-1, 0))
_CIRCLE: Points = _ngon(20, 0.85)
_HALF: Points = tuple(p for p in _ngon(20, 0.85) if p[0] <= 0.001)

TEAM_MARKS: dict[str, tuple[str, tuple[MarkPart, ...]]] = {
    "red": (N_("triangle"), ((_TRIANGLE, True),)),
    "blue": (N_("square"), ((_SQUARE, True),)),
    "green": (N_("disc"), ((_CIRCLE, True),)),
    "black": (N_("diamond"), ((_DIAMOND, True),)),
    "white": (N_("plus"), ((_PLUS, True),)),
    "pink": (N_("down triangle"), ((_DOWN, True),)),
    "yellow": (N_("star"), ((_star(), True),)),
    "orange": (N_("cross"), ((_CROSS, True),)),
    "purple": (N_("bar"), ((((-1, -0.35), (1, -0.35), (1, 0.35), (-1, 0.35)), True),)),
    "teal": (N_("ring"), ((_CIRCLE, False),)),
    "brown": (N_("open square"), ((_SQUARE, False),)),
    "grey": (N_("open triangle"), ((_TRIANGLE, False),)),
    "silver": (N_("open diamond"), ((_DIAMOND, False),)),
    "gold": (N_("hourglass"), ((((-0.85, -0.9), (0.85, -0.9), (-0.85, 0.9), (0.85, 0.9)), True),)),
    "bronze": (N_("half disc"), ((_HALF, True), (_CIRCLE, False))),
}
"""Each team colour's mark: its name in English (a message id, for the legend: ``mark_name``) and the polygons that
draw it (canvas and SVG alike)."""


def mark_name(colour_name: str) -> str:
    """The name of a team colour's mark in the kernel's language ("" without a mark)."""
    name = team_mark(colour_name)[0]
    return _(name) if name else ""


def team_mark(colour_name: str) -> tuple[str, tuple[MarkPart, ...]]:
    """The mark of a team colour; a colour without one gets none (an empty mark)."""
    return TEAM_MARKS.get(colour_name, ("", ()))


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
    Terrain.FLAT: N_("flat"),
    Terrain.ASCENT: N_("ascent"),
    Terrain.DESCENT: N_("descent"),
    Terrain.COBBLES: N_("cobbles"),
    Terrain.SUPPLY: N_("supply zone"),
}
"""The road's kinds, in English (message ids: ``terrain_name`` says them in the kernel's language)."""

PAGE = "#ffffff"
VERGE = "#eef0e6"
"""Ground beside the road, where a square has fewer lanes than the widest square."""
ROAD_EDGE = "#5c5c5c"
LANE_LINE = "#ffffff"
INK = "#222222"
MUTED = "#5f5f5f"
NUMBER_INK = "#333333"
HIGHLIGHT = "#ffb300"
"""Ring around the rider about to move or being played for."""
WARNING = "#d32f2f"
PACK = "#7b1fa2"
SLIPSTREAM = "#2e7d32"
WINNER = "#ffc107"
"""The finishing-place tags ("1st", "2nd") at the finish: gold with black ink."""
ANSWER = "#0b57d0"
"""A quiz's answer outline (blue: told apart from the red guess under every colour vision)."""
GUESS = "#c62828"

CARD_FACE = "#fffdf4"
CARD_BORDER = "#5d5d5d"
CARD_BACK = "#455a64"
EXHAUSTION_FACE = "#8d3b2f"
EXHAUSTION_INK = "#ffffff"

LANE_NAMES = (N_("right lane"), N_("left lane"), N_("third lane"))


def lane_name(lane: int) -> str:
    """How a learner says a lane: "right lane" (lane 0), "left lane", "third lane"; never an index."""
    if 0 <= lane < len(LANE_NAMES):
        return _(LANE_NAMES[lane])
    return _("lane {number} from the right").format(number=lane + 1)


def terrain_name(terrain: Terrain) -> str:
    """``"ascent"``: the road's kind in the kernel's language."""
    return _(TERRAIN_NAME[terrain])


COLOUR_NAMES = {
    "red": N_("red"),
    "blue": N_("blue"),
    "green": N_("green"),
    "black": N_("black"),
    "white": N_("white"),
    "pink": N_("pink"),
    "yellow": N_("yellow"),
    "orange": N_("orange"),
    "purple": N_("purple"),
    "teal": N_("teal"),
    "brown": N_("brown"),
    "grey": N_("grey"),
    "silver": N_("silver"),
    "gold": N_("gold"),
    "bronze": N_("bronze"),
}
"""The teams' colours, in English (message ids)."""
WORD_NAMES = {
    "peloton": N_("peloton"),
    "muscle": N_("muscle"),  # sprinteur and rouleur: the same words in every language
    "Peloton": N_("Peloton"),
    "Muscle": N_("Muscle"),
    "random": N_("random"),
    "heuristic": N_("heuristic"),
}
"""Rider kinds and bots, in English (message ids)."""


def team_name(colour: str) -> str:
    """A team's colour in the kernel's language (a team named otherwise keeps its name)."""
    if colour in COLOUR_NAMES:
        return _(COLOUR_NAMES[colour])
    return _(WORD_NAMES[colour]) if colour in WORD_NAMES else colour  # the Peloton's team


def kind_name(word: str) -> str:
    """``"sprinteur"``, ``"Peloton"``: a rider's kind or a bot's name in the kernel's language."""
    return _(WORD_NAMES[word]) if word in WORD_NAMES else word
