"""The compact position code, version 3 (``FR3-``): a Flamme Rouge position in at most 40 characters for a
lesson's position and 80 for anything the workbench makes (12 riders anywhere on the longest stage).

It carries the position only: the track (a stage or teaching track by its number, any other track as the
runs that differ from plain two-lane road), the finish and start, each rider (its team, kind, square and lane,
its card) and, when they differ from the team's usual, a rider's name, exhaustion and team kind. ``name``,
``description`` and ``expect`` do not travel (the scenario file keeps them).

Riders are written in board order (square, then lane), each as the gap from the one before, so a bunched
position costs a bit or two per rider; they come back in that order. The format is fixed: a change is
a new version (``FR4-``). It is the only code the tutor writes and reads (``scenario.to_code``,
``scenario.from_code``): a code of an older tutor (``FR1-``, ``FR2-``) is refused with a sentence saying to ask for
a new one (``tutor.core.bits.refuse_other_version``).
"""

from __future__ import annotations

from typing import Any

from tutor.core.bits import BitReader, BitWriter, decode, encode
from tutor.i18n import _

from .errors import ScenarioError
from .race import TEAM_COLOURS
from .track import Track, stage

PREFIX = "FR3-"
NAMED_TRACKS = (
    "sprint-20",
    "hill-24",
    "cobbles-24",
    "narrow-22",
    "cobbles-22",
    "supply-22",
    "paves-du-nord",
    "avenue-corso-paseo",
    "firenze-milano",
    "la-classicissima",
    "la-haute-montagne",
    "le-col-du-ballon",
    "ronde-van-wevelgem",
    "plateaux-de-wallonie",
)
"""Tracks a code names by number (fixed order: part of the format; a track is named only while its squares are
the ones it has today, so a later change of a track never changes an old code's board)."""
_TERRAINS = ("", "u", "d", "c", "s")
_PLAIN = 5  # kind number of "2": (lanes - 1) * 5 + terrain
_CARDS: tuple[Any, ...] = (2, 3, 4, 5, 6, 7, 9)
_EXHAUSTION = (None, True, False)
_TEAM_KINDS = (None, "player", "peloton", "muscle")
_BOT_DEFAULTS: dict[str, dict[str, Any]] = {"peloton": {"team_kind": "peloton", "exhaustion": False}}
"""What a rider of these teams has unless the code says otherwise (the workbench's bot teams)."""
_RIDER_KEYS = {"id", "team", "kind", "square", "lane", "team_kind", "exhaustion"}


def _named(spec: str, finish: Any) -> int | None:
    for number, name in enumerate(NAMED_TRACKS):
        try:
            track = stage(name)
        except ValueError:
            continue
        if track.spec == spec and track.finish == finish:
            return number
    return None


def _kind(token: str) -> int:
    return (int(token[0]) - 1) * 5 + _TERRAINS.index(token[1:])


def _team_number(team: str) -> tuple[int, int] | None:
    """(4-bit number, 2-bit muscle number) of a team, None for a team no code names."""
    if team in TEAM_COLOURS:
        return TEAM_COLOURS.index(team), -1
    if team == "peloton":
        return 12, -1
    if team.startswith("muscle-") and team[7:] in ("1", "2", "3", "4"):
        return 13, int(team[7:]) - 1
    return None


def _natural_id(base: str, taken: set[str]) -> str:
    return next(rid for rid in (base, *(f"{base}{n}" for n in range(2, 1000))) if rid not in taken)


def _id_parts(rider_id: str, team: str, base: str) -> tuple[int, int] | None:
    """(mode, number) of an id other than the natural one: 1 = ``base`` + n, 2 = ``team-n``, 0 = ``base``."""
    if rider_id == base:
        return 0, 1
    for mode, stem in ((1, base), (2, f"{team}-")):
        tail = rider_id[len(stem) :]
        if rider_id.startswith(stem) and tail.isdigit() and tail == str(int(tail)) and 0 < int(tail) < 1 << 12:
            return mode, int(tail)
    return None


def encode_position(scenario: dict[str, Any]) -> str | None:
    """The ``FR3-`` code of a valid scenario's position, or None when it has what no code carries (a team or
    rider name of its own, a card above 99)."""
    track = Track.parse(scenario["track"], finish=scenario.get("finish"))
    bits = BitWriter()
    named = _named(scenario["track"], scenario.get("finish"))
    bits.put(named is not None, 1)
    if named is not None:
        bits.put(named, 4)
    else:
        tokens = scenario["track"].split()
        bits.gamma(len(tokens))
        runs: list[tuple[int, int, int]] = []  # (start, kind, length) of the squares that are not "2"
        for i, token in enumerate(tokens):
            kind = _kind(token)
            if kind == _PLAIN:
                continue
            if runs and runs[-1][1] == kind and runs[-1][0] + runs[-1][2] == i:
                runs[-1] = (runs[-1][0], kind, runs[-1][2] + 1)
            else:
                runs.append((i, kind, 1))
        bits.gamma(len(runs) + 1)
        end = 0
        for start, kind, length in runs:
            bits.gamma(start - end + 1)
            bits.put(kind, 4)
            bits.gamma(length)
            end = start + length
        finish = scenario.get("finish")
        bits.put(finish is not None, 1)
        if finish is not None:
            bits.gamma(finish + 1)
    first = scenario.get("start")
    bits.put(first is not None, 1)
    if first is not None:
        bits.gamma(first + 1)
    riders, cards = scenario["riders"], scenario.get("cards")
    bits.gamma(len(riders) + 1)
    bits.put(cards is not None, 1)
    offsets = [sum(track.lanes[:s]) for s in range(len(track.lanes) + 1)]
    ordered = sorted(riders, key=lambda r: (r["square"], r["lane"]))
    previous, taken = -1, set[str]()
    for rider in ordered:
        team = rider.get("team")
        number = _team_number(team) if isinstance(team, str) else None
        if set(rider) - _RIDER_KEYS or number is None:
            return None
        kind = rider.get("kind", "rouleur")
        cell = offsets[rider["square"]] + rider["lane"]
        if cell <= previous:
            return None
        bits.gamma(cell - previous)
        previous = cell
        bits.put(number[0], 4)
        if number[1] >= 0:
            bits.put(number[1], 2)
        bits.put(kind == "rouleur", 1)
        if cards is not None:
            card = cards[rider["id"]]
            if card in _CARDS:
                bits.put(_CARDS.index(card), 3)
            else:
                bits.put(7, 3)
                bits.put(0 if card == "attack" else card, 7)
        base = f"{team}-{kind[0].upper()}"
        defaults = _BOT_DEFAULTS.get(team, {})
        extras = rider["id"] != _natural_id(base, taken) or any(
            rider.get(key) != defaults.get(key) for key in ("team_kind", "exhaustion")
        )
        taken.add(rider["id"])
        bits.put(extras, 1)
        if extras:
            parts = _id_parts(rider["id"], team, base)
            if parts is None:
                return None
            bits.put(_EXHAUSTION.index(rider.get("exhaustion")), 2)
            bits.put(_TEAM_KINDS.index(rider.get("team_kind")), 2)
            bits.put(parts[0], 2)
            bits.gamma(parts[1])
    return encode(PREFIX, bits)


def decode_position(code: str) -> dict[str, Any]:
    """The position of an ``FR3-`` code (not yet validated: ``scenario.from_code`` builds it)."""
    bits = decode(code, PREFIX, ScenarioError)
    try:
        return _read(bits)
    except (IndexError, ValueError, KeyError) as exc:
        if isinstance(exc, ScenarioError):
            raise
        raise ScenarioError(_("the position code is damaged: a character is missing or changed")) from None


def _read(bits: BitReader) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if bits.take(1):
        track = stage(NAMED_TRACKS[bits.take(4)])
        data["track"], data["finish"] = track.spec, track.finish
    else:
        length = bits.gamma()
        if length > 300:
            raise ScenarioError(_("the position code is damaged: a character is missing or changed"))
        tokens = ["2"] * length
        end = 0
        for _step in range(bits.gamma() - 1):
            start = end + bits.gamma() - 1
            kind, size = bits.take(4), bits.gamma()
            if start + size > length or kind >= 15 or kind % 5 >= len(_TERRAINS):
                raise ScenarioError(_("the position code is damaged: a character is missing or changed"))
            tokens[start : start + size] = [f"{kind // 5 + 1}{_TERRAINS[kind % 5]}"] * size
            end = start + size
        data["track"] = " ".join(tokens)
        if bits.take(1):
            data["finish"] = bits.gamma() - 1
    if bits.take(1):
        data["start"] = bits.gamma() - 1
    track = Track.parse(data["track"], finish=data.get("finish"))
    cells = [(square, lane) for square, lanes in enumerate(track.lanes) for lane in range(lanes)]
    count, with_cards = bits.gamma() - 1, bits.take(1)
    if count > 30:
        raise ScenarioError(_("the position code is damaged: a character is missing or changed"))
    riders: list[dict[str, Any]] = []
    cards: dict[str, Any] = {}
    cell, taken = -1, set[str]()
    for _step in range(count):
        cell += bits.gamma()
        team_number = bits.take(4)
        team = (
            TEAM_COLOURS[team_number]
            if team_number < 12
            else "peloton"
            if team_number == 12
            else f"muscle-{bits.take(2) + 1}"
            if team_number == 13
            else ""
        )
        if not team:
            raise ScenarioError(_("the position code is damaged: a character is missing or changed"))
        rider_kind = "rouleur" if bits.take(1) else "sprinteur"
        card: Any = None
        if with_cards:
            index = bits.take(3)
            card = _CARDS[index] if index < 7 else bits.take(7) or "attack"
        base = f"{team}-{rider_kind[0].upper()}"
        square, lane = cells[cell]
        rider: dict[str, Any] = {
            "id": _natural_id(base, taken),
            "team": team,
            "kind": rider_kind,
            "square": square,
            "lane": lane,
            **_BOT_DEFAULTS.get(team, {}),
        }
        if bits.take(1):
            for key, value in (("exhaustion", _EXHAUSTION[bits.take(2)]), ("team_kind", _TEAM_KINDS[bits.take(2)])):
                rider.pop(key, None)
                if value is not None:
                    rider[key] = value
            mode, n = bits.take(2), bits.gamma()
            rider["id"] = base if mode == 0 else f"{base}{n}" if mode == 1 else f"{team}-{n}"
        taken.add(rider["id"])
        riders.append(rider)
        if with_cards:
            cards[rider["id"]] = card
    if not bits.finished():
        raise ScenarioError(_("the position code is damaged: characters are extra or changed (copy the whole code)"))
    data["riders"] = riders
    if with_cards:
        data["cards"] = cards
    return data
