"""Tracks: squares with 1-3 lanes and a terrain, a start area and a finish line.

Data from docs/rules.md, Flamme Rouge: Components and data (tile faces, the seven stages), and Peloton
expansion: Squares (1-3 lanes, cobblestones, supply zones).
Squares are numbered from 0 at the back of the start tile; lane 0 is the
right-hand lane ("first" lane), then 1, then 2.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass, field
from typing import Any

from tutor.core.schema import kind_of
from tutor.i18n import N_, _

from .errors import TrackError


DESCENT_MINIMUM, SUPPLY_MINIMUM, ASCENT_MAXIMUM = 5, 4, 5
"""Mountains: a rider starting on a descent moves at least 5, on or into an ascent at most 5; Peloton
expansion: in a supply zone at least 4."""
MAX_LANES = 3
NO_ASCENT = 1 << 20
"""No ascent ahead (while ``Track.ceiling`` is computed): further than any move. Kept below 2**30, a one-digit
int, so that the interpreter's fast integer comparison applies to ``Track.ceiling`` on the hot path."""


class Terrain(enum.Enum):
    FLAT = ""
    ASCENT = "u"
    DESCENT = "d"
    COBBLES = "c"
    SUPPLY = "s"


@dataclass(frozen=True, slots=True)
class Square:
    lanes: int
    """Number of lanes, 1 to 3 (``MAX_LANES``)."""
    terrain: Terrain = Terrain.FLAT

    @property
    def token(self) -> str:
        """The square in the scenario track format: ``"2"``, ``"2u"``, ``"3s"``."""
        return f"{self.lanes}{self.terrain.value}"


@dataclass(frozen=True)
class Track:
    squares: tuple[Square, ...]
    start: int = 0
    """Index of the first square past the start line; squares before it are the start area."""
    finish: int | None = None
    """Index of the first square past the finish line (None: no finish in view)."""
    name: str = ""

    def __post_init__(self) -> None:
        if not self.squares:
            raise TrackError(_("a track needs at least one square"))
        if not 0 <= self.start <= len(self.squares):
            raise TrackError(
                _("start {start} is outside the track (0..{last})").format(start=self.start, last=len(self.squares))
            )
        if self.finish is not None and not 0 < self.finish <= len(self.squares):
            raise TrackError(
                _("finish {finish} is outside the track (1..{last})").format(finish=self.finish, last=len(self.squares))
            )
        for i, square in enumerate(self.squares):
            if not 1 <= square.lanes <= MAX_LANES:
                raise TrackError(
                    _("square {i}: {lanes} lanes (a square has 1 to {most})").format(
                        i=i, lanes=square.lanes, most=MAX_LANES
                    )
                )
            if square.terrain is Terrain.COBBLES and square.lanes == 3:
                raise TrackError(_("square {i}: cobblestones have 1 or 2 lanes, not 3 (Peloton expansion)").format(i=i))
            if square.terrain is Terrain.SUPPLY and square.lanes != 3:
                raise TrackError(
                    _("square {i}: a supply zone has 3 lanes, not {lanes} (Peloton expansion)").format(
                        i=i, lanes=square.lanes
                    )
                )
        # Per-square lookups used on the hot path of simulations.
        object.__setattr__(self, "lanes", tuple(s.lanes for s in self.squares))
        object.__setattr__(self, "ascent", tuple(s.terrain is Terrain.ASCENT for s in self.squares))
        object.__setattr__(self, "descent", tuple(s.terrain is Terrain.DESCENT for s in self.squares))
        object.__setattr__(self, "cobbles", tuple(s.terrain is Terrain.COBBLES for s in self.squares))
        object.__setattr__(self, "supply", tuple(s.terrain is Terrain.SUPPLY for s in self.squares))
        object.__setattr__(self, "no_slipstream", tuple(a or c for a, c in zip(self.ascent, self.cobbles)))
        object.__setattr__(self, "narrows", tuple(a > b for a, b in zip(self.lanes, self.lanes[1:] + (0,))))
        object.__setattr__(
            self,
            "minimum",
            tuple(DESCENT_MINIMUM if d else SUPPLY_MINIMUM if u else 0 for d, u in zip(self.descent, self.supply)),
        )
        ceiling, ahead = [], NO_ASCENT  # ahead: the first ascent square past square i
        for i in range(len(self.squares) - 1, -1, -1):
            ceiling.append(ASCENT_MAXIMUM if self.ascent[i] else max(ASCENT_MAXIMUM, ahead - i - 1))
            if self.ascent[i]:
                ahead = i
        object.__setattr__(self, "ceiling", tuple(reversed(ceiling)))

    # Derived per-square lookups (filled in by __post_init__).
    lanes: tuple[int, ...] = field(init=False, repr=False, compare=False)
    ascent: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    descent: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    cobbles: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    supply: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    no_slipstream: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    """Ascent or cobblestones: riders there neither give nor get slipstream."""
    narrows: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    """The next square has fewer lanes (or there is none)."""
    minimum: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """Least move of a rider starting on each square: 5 on a descent, 4 in a supply zone, else 0."""
    ceiling: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """Most squares a rider starting on each square may move: 5 on an ascent, else as far as the square before
    the first ascent ahead, and at least 5 (Mountains: on or into an ascent a rider moves at most 5)."""

    def __len__(self) -> int:
        return len(self.squares)

    @property
    def last(self) -> int:
        return len(self.squares) - 1

    @property
    def spec(self) -> str:
        """The squares in the scenario track format (``"2 2 2u 3s 1c"``)."""
        return " ".join(s.token for s in self.squares)

    @property
    def start_places(self) -> int:
        """Lanes in the start area (the squares behind the start line)."""
        return sum(self.lanes[: self.start])

    def with_start_places(self, riders: int) -> Track:
        """This track, its start area extended backwards by squares of the start's width until ``riders`` fit.

        Tutor decision (docs/rule_decisions.md): with more riders than the start area holds, extra
        squares are added behind it; riders there start further behind the line.
        """
        width = self.squares[0].lanes if self.squares else 2
        extra = max(0, -(-(riders - self.start_places) // width))
        if not extra:
            return self
        return Track(
            (Square(width),) * extra + self.squares,
            start=self.start + extra,
            finish=None if self.finish is None else self.finish + extra,
            name=self.name,
        )

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "track": self.spec, "start": self.start, "finish": self.finish}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Track:
        return cls.parse(
            data["track"], start=data.get("start", 0), finish=data.get("finish"), name=data.get("name", "")
        )

    @classmethod
    def parse(cls, spec: str, *, start: int = 0, finish: int | None = None, name: str = "") -> Track:
        """A track from the scenario format: one token per square, lanes then terrain letter."""
        if not isinstance(spec, str):
            raise TrackError(_("track must be a string of square tokens, not {kind}").format(kind=kind_of(spec)))
        squares = []
        for i, token in enumerate(spec.split()):
            lanes, letter = token[:1], token[1:]
            if lanes not in ("1", "2", "3") or letter not in _TERRAIN_LETTERS:
                raise TrackError(
                    _("square {i}: bad token {token} (lanes 1-3, then optionally u, d, c or s)").format(
                        i=i, token=repr(token)
                    )
                )
            squares.append(Square(int(lanes), _TERRAIN_LETTERS[letter]))
        return cls(tuple(squares), start=start, finish=finish, name=name)

    @classmethod
    def from_tiles(cls, tiles: str, name: str = "") -> Track:
        """A track from a stage card's tile string, e.g. ``"a b c ... u"`` (uppercase = dark face)."""
        squares: list[Square] = []
        start = finish = None
        for letter in tiles.split():
            if letter not in TILES:
                raise TrackError(_("unknown tile face {letter}").format(letter=repr(letter)))
            if letter in "aA":
                start = len(squares) + START_AREA[letter]
            if letter in "uU":
                finish = len(squares) + FINISH_RUN_UP[letter]
            squares.extend(Square(2, t) for t in TILES[letter])
        if start is None or finish is None:
            raise TrackError(_("a stage needs a start tile (a/A) and a finish tile (u/U)"))
        return cls(tuple(squares), start=start, finish=finish, name=name)


_TERRAIN_LETTERS = {t.value: t for t in Terrain}
F, U, D = Terrain.FLAT, Terrain.ASCENT, Terrain.DESCENT

# Terrain of every tile face, square by square (docs/rules.md, Flamme Rouge: Components and data).
TILES: dict[str, tuple[Terrain, ...]] = {
    **{c: (F,) * 6 for c in "abcdflmnuA"},
    **{c: (F,) * 2 for c in "eghijkopqrstIJST"},
    **{c: (U,) * 2 for c in "EGKOQR"},
    **{c: (D,) * 2 for c in "HP"},
    "B": (D,) * 4 + (F,) * 2,
    "C": (F,) * 3 + (U,) * 3,
    "D": (U,) * 5 + (D,),
    "F": (D,) * 3 + (F,) * 3,
    "L": (U,) * 3 + (D,) * 3,
    "M": (F,) * 2 + (U,) * 4,
    "N": (U,) * 6,
    "U": (U,) * 6,  # tutor decision: the 4 squares past the mountain finish line are ascent too
}
START_AREA = {"a": 5, "A": 4}  # squares behind the start line
FINISH_RUN_UP = {"u": 1, "U": 2}  # squares before the finish line

STAGES: dict[str, tuple[str, str]] = {
    "avenue-corso-paseo": ("Avenue Corso Paseo", "a b c d e f g h i j k l m n o p q r s t u"),
    "firenze-milano": ("Firenze–Milano", "a b c g i D H q n t m K O L r e p J s f u"),
    "la-classicissima": ("La Classicissima", "A e b Q R N H P c g i k D F s L o j m t u"),
    "la-haute-montagne": ("La Haute Montagne", "a b c f i m e t K G L H J s d o p R Q N U"),
    "le-col-du-ballon": ("Le Col du Ballon", "A n L H g c e q t r M B o i p j D F k S u"),
    "ronde-van-wevelgem": ("Ronde van Wevelgem", "a b c m g f t e q o n L P j k I D H r S u"),
    "plateaux-de-wallonie": ("Plateaux de Wallonie", "A b J i L c G H t d f p k m n r q E o S u"),
}

# Short tracks for lessons: (title, scenario-format squares, start, finish).
TEACHING_TRACKS: dict[str, tuple[str, str, int, int]] = {
    "sprint-20": (N_("Sprint (20 flat squares)"), " ".join(["2"] * 20), 4, 16),
    "hill-24": (N_("Little hill (24 squares)"), " ".join(["2"] * 9 + ["2u"] * 4 + ["2d"] * 3 + ["2"] * 8), 4, 20),
    "cobbles-24": (
        N_("Cobbles and supply (24 squares, Peloton expansion)"),
        " ".join(["2"] * 6 + ["1c"] * 3 + ["2"] * 3 + ["3s"] * 3 + ["3"] * 3 + ["2"] * 6),
        4,
        20,
    ),
    "narrow-22": (
        N_("Narrow road (22 squares, Peloton expansion)"),
        " ".join(["2"] * 7 + ["1"] * 4 + ["2"] * 2 + ["3"] * 2 + ["2"] * 7),
        4,
        18,
    ),
    "cobbles-22": (
        N_("Cobblestones (22 squares, Peloton expansion)"),
        " ".join(["2"] * 7 + ["2c"] * 3 + ["1c"] * 2 + ["2"] * 10),
        4,
        18,
    ),
    "supply-22": (
        N_("Supply zone (22 squares, Peloton expansion)"),
        " ".join(["2"] * 7 + ["3s"] * 4 + ["2"] * 11),
        4,
        18,
    ),
    "paves-du-nord": (
        N_("Pavés du Nord (a full stage of the tutor's own design, Peloton expansion)"),
        " ".join(
            ["2"] * 5
            + ["2"] * 10
            + ["1"] * 4
            + ["2"] * 6
            + ["2c"] * 5
            + ["1c"] * 3
            + ["2"] * 6
            + ["3s"] * 4
            + ["3"] * 2
            + ["2"] * 4
            + ["2u"] * 5
            + ["2d"] * 3
            + ["2"] * 9
            + ["2c"] * 2
            + ["2"] * 4
            + ["2"] * 6
        ),
        5,
        73,
    ),
}

TEACHING_TITLES = frozenset(title for title, *_rest in TEACHING_TRACKS.values())


def title(track: Track) -> str:
    """The track's name as the learner reads it: a teaching track's title translated, a stage's name (a place) as
    printed."""
    name = track.name or ""
    return _(name) if name in TEACHING_TITLES else name


def stage(name: str | Track) -> Track:
    """A stage of the rulebook (docs/rules.md; ``"la-haute-montagne"``) or a teaching track (``"sprint-20"``)."""
    if isinstance(name, Track):
        return name
    return _named_track(name)


@functools.lru_cache(maxsize=None)
def _named_track(name: str) -> Track:
    if name in STAGES:
        title, tiles = STAGES[name]
        return Track.from_tiles(tiles, name=title)
    if name in TEACHING_TRACKS:
        title, spec, start, finish = TEACHING_TRACKS[name]
        return Track.parse(spec, start=start, finish=finish, name=title)
    known = ", ".join([*STAGES, *TEACHING_TRACKS])
    raise TrackError(_("unknown stage {name}; known: {known}").format(name=repr(name), known=known))
