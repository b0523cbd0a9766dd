"""Scenarios: one position plus, optionally, the cards played (``docs/scenario_format.md``).

``resolve_round`` runs the same ``Race`` code the game uses: it builds a race at
the movement phase (or, without ``cards``, at the end phase) and steps it to
the end of the round. ``check`` compares a scenario's ``expect`` block with the
result, for teachers' puzzle files and for the tests.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

from tutor.core.bits import refuse_other_version
from tutor.core.data import first_difference, is_int, load_json, reject_unknown_keys
from tutor.core.schema import integer, kind_of, strict_object, text, validate
from tutor.i18n import _, ngettext

from . import position_code
from .cards import ATTACK, RIDER_KINDS, Card, energy
from .errors import CodeVersionError, ScenarioError, TrackError
from .events import ExhaustionTaken
from .race import MAX_MUSCLE, Phase, Race, TeamKind
from .track import Track

OUTPUT_KEYS = ("after_movement", "after_slipstream", "exhausted", "winner")
TEAM_KINDS = tuple(kind.value for kind in TeamKind)

MAX_TRACK_SQUARES = 300
"""Longest track a scenario may give (the longest stage of the game has 78 squares)."""
MAX_RIDERS = 30
"""Most riders in a scenario (a race has at most 14: twelve single riders and the Peloton team's two)."""
_ID = text(40, minLength=1)
_POSITIONS = {"type": "object", "maxProperties": MAX_RIDERS}
SCHEMA = strict_object(
    {
        "name": text(200),
        "description": text(5000),
        "track": text(4 * MAX_TRACK_SQUARES),
        "start": integer(),
        "finish": {"type": ["integer", "null"]},
        "riders": {
            "type": "array",
            "maxItems": MAX_RIDERS,
            "items": strict_object(
                {
                    "id": _ID,
                    "square": integer(),
                    "lane": integer(),
                    "team": text(40),
                    "kind": {"enum": list(RIDER_KINDS)},
                    "team_kind": {"enum": list(TEAM_KINDS)},
                    "exhaustion": {"type": "boolean"},
                },
                ("id",),
            ),
        },
        "cards": {
            "type": "object",
            "maxProperties": MAX_RIDERS,
            "propertyNames": _ID,
            "additionalProperties": {
                "anyOf": [integer(2, 99), {"const": "attack"}],
                "message": 'cards: rider {key!r} has card {value}; a card is an integer >= 2 or "attack"',
            },
        },
        "expect": strict_object(
            {
                "after_movement": _POSITIONS,
                "after_slipstream": _POSITIONS,
                "exhausted": {"type": "array", "maxItems": MAX_RIDERS, "items": _ID},
                "winner": {"type": ["string", "null"], "maxLength": 40},
            }
        ),
    },
    ("track",),
)
"""The scenario format (docs/scenario_format.md) as a JSON Schema: types, keys and sizes (``build`` checks the
rest)."""
SCENARIO_KEYS = set(SCHEMA["properties"])
"""The tutor's additions to the original format (files without them work as specified): ``start`` (optional: the first
square past the start line, drawn on the board), and a rider's ``kind`` ("sprinteur" or "rouleur", default
rouleur) and ``team_kind`` ("player", "peloton" or "muscle", default player; the same for every rider of a
team; a bot team's riders take no exhaustion unless ``exhaustion`` says otherwise), which pick the rider's
deck, token letter and team."""


def _reject_unknown_keys(data: dict[str, Any], allowed: Iterable[str], where: str = "") -> None:
    reject_unknown_keys(data, allowed, where, ScenarioError)


def load(path: str | Path) -> dict[str, Any]:
    """Read a scenario file; bad JSON raises ``ScenarioError`` naming the file and line."""
    data = load_json(path, ScenarioError)
    if not isinstance(data, dict):
        raise ScenarioError(_("{path}: a scenario is a JSON object, not {kind}").format(path=path, kind=kind_of(data)))
    return data


def build(scenario: dict[str, Any], *, seed: int = 0, history: bool = False) -> Race:
    """Validate a scenario and return the race it describes (movement phase, or end phase without cards)."""
    if not isinstance(scenario, dict):
        raise ScenarioError(_("a scenario is an object (dict), not {kind}").format(kind=kind_of(scenario)))
    validate(scenario, SCHEMA, ScenarioError, nouns={"riders": "rider"})
    finish = scenario.get("finish")
    if finish is not None and not is_int(finish):
        raise ScenarioError(_("key 'finish' must be an integer square index, not {finish}").format(finish=repr(finish)))
    squares = len(scenario["track"].split())
    if squares > MAX_TRACK_SQUARES:
        raise ScenarioError(
            _("key 'track' has {squares} squares; a scenario's track has at most {max_track_squares}").format(
                squares=squares, max_track_squares=MAX_TRACK_SQUARES
            )
        )
    if finish is not None and squares and not 0 < finish < squares:
        raise ScenarioError(
            _(
                "key 'finish': {finish} is not strictly inside the track (1 to {number}): the finish line needs a "
                "square behind it and one past it"
            ).format(finish=finish, number=squares - 1)
        )
    start = scenario.get("start", 0)
    if not is_int(start) or (squares and not 0 <= start < squares):
        raise ScenarioError(
            _(
                "key 'start' must be a square index on the track (the first square past the start line), not {start}"
            ).format(start=repr(start))
        )
    try:
        track = Track.parse(scenario["track"], start=start, finish=finish, name=scenario.get("name", ""))
    except TrackError as exc:
        raise ScenarioError(_("key 'track': {exc}").format(exc=exc)) from None
    riders = _riders(scenario.get("riders"), track)
    cards = None
    if "cards" in scenario:
        cards = _cards(scenario["cards"], riders)
        for rider in riders:
            if finish is not None and rider["square"] >= finish:
                raise ScenarioError(
                    _(
                        "rider {id}: square {square} is already past the finish line ({finish}); the race ended in "
                        "the round a rider crossed it, so no cards are played after that"
                    ).format(id=repr(rider["id"]), square=rider["square"], finish=finish)
                )
    return Race.from_positions(track, riders, cards=cards, seed=seed, history=history)


def _riders(riders: object, track: Track) -> list[dict[str, Any]]:
    if not isinstance(riders, list) or not riders:
        raise ScenarioError(_("key 'riders' must be a non-empty list of riders"))
    seen: dict[str, int] = {}
    lanes_taken: dict[tuple[int, int], str] = {}
    for i, rider in enumerate(riders):
        if not isinstance(rider, dict):
            raise ScenarioError(_("riders[{i}] must be an object with id, square and lane").format(i=i))
        rid = rider.get("id")
        label = f"rider {rid!r}" if isinstance(rid, str) else f"riders[{i}]"
        if not isinstance(rid, str) or not rid:
            raise ScenarioError(_("{label}: 'id' must be a non-empty string").format(label=label))
        if rid in seen:
            raise ScenarioError(
                _("{label}: the id is used twice (riders[{rid}] and riders[{i}])").format(
                    label=label, rid=seen[rid], i=i
                )
            )
        seen[rid] = i
        square, lane = rider.get("square"), rider.get("lane")
        if not is_int(square) or not 0 <= square < len(track):
            raise ScenarioError(
                _("{label}: square {square} is not on the track (0 to {number})").format(
                    label=label, square=repr(square), number=len(track) - 1
                )
            )
        if not is_int(lane) or not 0 <= lane < track.lanes[square]:
            raise ScenarioError(
                ngettext(
                    "{label}: lane {lane} does not exist on square {square}, which has {track} lane",
                    "{label}: lane {lane} does not exist on square {square}, which has {track} lanes",
                    track.lanes[square],
                ).format(label=label, lane=repr(lane), square=square, track=track.lanes[square])
            )
        if (square, lane) in lanes_taken:
            raise ScenarioError(
                _("{label}: square {square}, lane {lane} is already taken by {lane2}").format(
                    label=label, square=square, lane=lane, lane2=repr(lanes_taken[square, lane])
                )
            )
        lanes_taken[square, lane] = rid
        if "team" in rider and not isinstance(rider["team"], str):
            raise ScenarioError(_("{label}: 'team' must be a string").format(label=label))
        if "kind" in rider and rider["kind"] not in RIDER_KINDS:
            raise ScenarioError(
                _("{label}: 'kind' must be one of {items}, not {kind}").format(
                    label=label, items=", ".join(RIDER_KINDS), kind=repr(rider["kind"])
                )
            )
        if "exhaustion" in rider and not isinstance(rider["exhaustion"], bool):
            raise ScenarioError(_("{label}: 'exhaustion' must be true or false").format(label=label))
        if "team_kind" in rider and rider["team_kind"] not in TEAM_KINDS:
            raise ScenarioError(
                _("{label}: 'team_kind' must be one of {items}, not {team_kind}").format(
                    label=label, items=", ".join(TEAM_KINDS), team_kind=repr(rider["team_kind"])
                )
            )
    _check_team_kinds(riders)
    return riders


def _check_team_kinds(riders: list[dict[str, Any]]) -> None:
    """Every rider of a team has the same ``team_kind``; a bot team has at most two riders."""
    teams: dict[str, list[dict[str, Any]]] = {}
    for rider in riders:
        teams.setdefault(rider.get("team") or rider["id"], []).append(rider)
    for team, members in teams.items():
        kinds = {m.get("team_kind", TeamKind.PLAYER.value) for m in members}
        if len(kinds) > 1:
            raise ScenarioError(
                _("team {team}: its riders have different 'team_kind's ({items})").format(
                    team=repr(team), items=", ".join(sorted(kinds))
                )
            )
        if kinds != {TeamKind.PLAYER.value} and len(members) > 2:
            raise ScenarioError(
                _("team {team}: a bot team has one or two riders, not {count}").format(
                    team=repr(team), count=len(members)
                )
            )
    if sum(1 for members in teams.values() if members[0].get("team_kind") == TeamKind.MUSCLE.value) > MAX_MUSCLE:
        raise ScenarioError(_("at most {max_muscle} Muscle teams ride in a race").format(max_muscle=MAX_MUSCLE))


def _cards(cards: object, riders: list[dict[str, Any]]) -> dict[str, Card]:
    if not isinstance(cards, dict):
        raise ScenarioError(_("key 'cards' must be an object: rider id -> card value"))
    ids = [r["id"] for r in riders]
    for rid in cards:
        if rid not in ids:
            raise ScenarioError(_("cards: {rid} is not a rider of this scenario").format(rid=repr(rid)))
    missing = [rid for rid in ids if rid not in cards]
    if missing:
        raise ScenarioError(
            _("cards: rider {missing} has no card (give a card for every rider)").format(missing=repr(missing[0]))
        )
    result: dict[str, Card] = {}
    for rid, value in cards.items():
        if value == "attack":
            result[rid] = ATTACK
        elif is_int(value) and value >= 2:
            result[rid] = energy(value)
        else:
            raise ScenarioError(
                _('cards: rider {rid} has card {value}; a card is an integer >= 2 or "attack"').format(
                    rid=repr(rid), value=repr(value)
                )
            )
    teams = {r["id"]: r.get("team") for r in riders}
    for rid, card in result.items():
        if card is ATTACK:
            team = teams[rid]
            mates = [r for r, t in teams.items() if t == team] if team else [rid]
            if team is None or len(mates) < 2 or any(result[m] is not ATTACK for m in mates):
                raise ScenarioError(
                    _(
                        'cards: rider {rid} plays "attack": the Peloton team\'s Attack! card moves both of its '
                        "riders, so give both riders the same 'team' and the card \"attack\""
                    ).format(rid=repr(rid))
                )
    return result


def _positions(race: Race) -> dict[str, list[int]]:
    return {rid: [square, lane] for rid, (square, lane) in race.positions().items()}


def resolve_round(scenario: dict[str, Any]) -> dict[str, Any]:
    """Resolve one round of a scenario (docs/scenario_format.md): movement if ``cards`` is given, then the end phase."""
    race = build(scenario)
    race.resolve(Phase.MOVEMENT)
    after_movement = _positions(race)
    race.resolve(Phase.END_SLIPSTREAM)
    after_slipstream = _positions(race)
    exhausted = [e.rider for e in race.resolve() if isinstance(e, ExhaustionTaken)]
    return {
        "after_movement": after_movement,
        "after_slipstream": after_slipstream,
        "exhausted": sorted(exhausted),
        "winner": race.winner,
    }


def check(scenario: dict[str, Any]) -> str | None:
    """None when the scenario's ``expect`` block matches ``resolve_round``, else the first difference."""
    expect = scenario.get("expect")
    if not isinstance(expect, dict):
        raise ScenarioError(_("key 'expect' must be an object with the expected result"))
    _reject_unknown_keys(expect, OUTPUT_KEYS, "expect: ")
    return first_difference(expect, resolve_round(scenario), OUTPUT_KEYS, partial=False)


# ----- position codes: a position as a short text a class can paste -------------------------------------

MAX_CODE_CHARS = 1_000
"""A pasted code longer than this is refused before it is read (a workbench position's code has at most 80; the
largest position a scenario may hold, 30 riders on 300 squares of changing terrain, fewer than 800)."""


def to_code(scenario: dict[str, Any]) -> str | None:
    """The position code (``position_code.PREFIX``) of a scenario's position, or None when it has what no code
    carries (a team or rider named otherwise, a card above 99). ``name``, ``description`` and ``expect`` do not
    travel. The scenario is validated first (``build``): an invalid one raises ``ScenarioError``."""
    build(scenario)
    return position_code.encode_position(scenario)


def from_code(code: str) -> dict[str, Any]:
    """The scenario (position only) of a position code; a malformed code raises ``ScenarioError`` saying what is
    wrong, a code of another version (``FR1-``, ``FR2-``: older tutors) ``CodeVersionError`` saying what to do.

    White space anywhere in the code is ignored (a code wrapped over two lines still opens), and so are dashes
    and the case of the letters.
    """
    prefix = position_code.PREFIX
    if not isinstance(code, str):
        raise ScenarioError(_("a position code is text, not {kind}").format(kind=kind_of(code)))
    refuse_other_version(code[:40], prefix, CodeVersionError)  # an old code may be long: its start says enough
    if len(code) > MAX_CODE_CHARS:
        raise ScenarioError(
            _(
                "the position code is far too long ({count} characters; a code has at most {max_code_chars}): copy "
                "only the code"
            ).format(count=format(len(code), ","), max_code_chars=format(MAX_CODE_CHARS, ","))
        )
    text = "".join(code.split())
    if not text:
        raise ScenarioError(
            _("the position code is empty: paste a code that starts with {prefix}").format(prefix=prefix)
        )
    upper = text.upper()
    if not upper.startswith(prefix[:3]):
        if upper.startswith("IF1"):
            raise ScenarioError(
                _("this is an In Flanders Field position code: open it on the In Flanders Field workbench")
            )
        raise ScenarioError(
            _("not a position code: a code starts with {code_prefix}, this one with {text}").format(
                code_prefix=prefix, text=repr(text[:6])
            )
        )
    data = position_code.decode_position(text)
    try:
        build(data)
    except (ValueError, TypeError, KeyError) as exc:  # ScenarioError, or an engine error the checks missed
        raise ScenarioError(_("the position code holds an invalid position: {exc}").format(exc=exc)) from None
    return data
