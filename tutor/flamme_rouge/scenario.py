"""Scenarios: one position plus, optionally, the cards played (``../shared/SCENARIOS.md``).

``resolve_round`` runs the same ``Race`` code the game uses: it builds a race at
the movement phase (or, without ``cards``, at the end phase) and steps it to
the end of the round. ``check`` compares a scenario's ``expect`` block with the
result, for teachers' puzzle files and for the tests.
"""

from __future__ import annotations

import json
from pathlib import Path

from tutor.core.data import is_int, load_json, reject_unknown_keys

from .cards import ATTACK, RIDER_KINDS, Card, energy
from .errors import ScenarioError, TrackError
from .events import ExhaustionTaken
from .race import Phase, Race
from .track import Track

SCENARIO_KEYS = {"name", "description", "track", "finish", "riders", "cards", "expect"}
RIDER_KEYS = {"id", "square", "lane", "team", "kind", "exhaustion"}
"""``kind`` (\"sprinteur\" or \"rouleur\", default rouleur) is the tutor's addition to SCENARIOS.md: it picks the
rider's deck and token letter; files without it work as specified."""
OUTPUT_KEYS = ("after_movement", "after_slipstream", "exhausted", "winner")


def _reject_unknown_keys(data: dict, allowed, where: str = "") -> None:
    reject_unknown_keys(data, allowed, where, ScenarioError)


def load(path: str | Path) -> dict:
    """Read a scenario file; bad JSON raises ``ScenarioError`` naming the file and line."""
    data = load_json(path, ScenarioError)
    if not isinstance(data, dict):
        raise ScenarioError(f"{path}: a scenario is a JSON object, not {type(data).__name__}")
    return data


def build(scenario: dict, *, seed: int = 0, history: bool = False) -> Race:
    """Validate a scenario and return the race it describes (movement phase, or end phase without cards)."""
    if not isinstance(scenario, dict):
        raise ScenarioError(f"a scenario is an object (dict), not {type(scenario).__name__}")
    _reject_unknown_keys(scenario, sorted(SCENARIO_KEYS))
    if "track" not in scenario:
        raise ScenarioError("missing key 'track'")
    finish = scenario.get("finish")
    if finish is not None and not is_int(finish):
        raise ScenarioError(f"key 'finish' must be an integer square index, not {finish!r}")
    squares = len(scenario["track"].split()) if isinstance(scenario["track"], str) else 0
    if finish is not None and squares and not 0 < finish < squares:
        raise ScenarioError(f"key 'finish': {finish} is not strictly inside the track (1 to {squares - 1}): the "
                            "finish line needs a square behind it and one past it")
    try:
        track = Track.parse(scenario["track"], finish=finish, name=scenario.get("name", ""))
    except TrackError as exc:
        raise ScenarioError(f"key 'track': {exc}") from None
    riders = _riders(scenario.get("riders"), track)
    cards = None
    if "cards" in scenario:
        cards = _cards(scenario["cards"], riders)
        for rider in riders:
            if finish is not None and rider["square"] >= finish:
                raise ScenarioError(
                    f"rider {rider['id']!r}: square {rider['square']} is already past the finish line ({finish}); "
                    "the race ended in the round a rider crossed it, so no cards are played after that")
    return Race.from_positions(track, riders, cards=cards, seed=seed, history=history)


def _riders(riders, track: Track) -> list[dict]:
    if not isinstance(riders, list) or not riders:
        raise ScenarioError("key 'riders' must be a non-empty list of riders")
    seen: dict[str, int] = {}
    lanes_taken: dict[tuple[int, int], str] = {}
    for i, rider in enumerate(riders):
        if not isinstance(rider, dict):
            raise ScenarioError(f"riders[{i}] must be an object with id, square and lane")
        rid = rider.get("id")
        label = f"rider {rid!r}" if isinstance(rid, str) else f"riders[{i}]"
        if not isinstance(rid, str) or not rid:
            raise ScenarioError(f"{label}: 'id' must be a non-empty string")
        _reject_unknown_keys(rider, sorted(RIDER_KEYS), f"{label}: ")
        if rid in seen:
            raise ScenarioError(f"{label}: the id is used twice (riders[{seen[rid]}] and riders[{i}])")
        seen[rid] = i
        square, lane = rider.get("square"), rider.get("lane")
        if not is_int(square) or not 0 <= square < len(track):
            raise ScenarioError(f"{label}: square {square!r} is not on the track (0 to {len(track) - 1})")
        if not is_int(lane) or not 0 <= lane < track.lanes[square]:
            raise ScenarioError(
                f"{label}: lane {lane!r} does not exist on square {square}, which has {track.lanes[square]} lane(s)")
        if (square, lane) in lanes_taken:
            raise ScenarioError(
                f"{label}: square {square}, lane {lane} is already taken by {lanes_taken[square, lane]!r}")
        lanes_taken[square, lane] = rid
        if "team" in rider and not isinstance(rider["team"], str):
            raise ScenarioError(f"{label}: 'team' must be a string")
        if "kind" in rider and rider["kind"] not in RIDER_KINDS:
            raise ScenarioError(f"{label}: 'kind' must be one of {', '.join(RIDER_KINDS)}, not {rider['kind']!r}")
        if "exhaustion" in rider and not isinstance(rider["exhaustion"], bool):
            raise ScenarioError(f"{label}: 'exhaustion' must be true or false")
    return riders


def _cards(cards, riders: list[dict]) -> dict[str, Card]:
    if not isinstance(cards, dict):
        raise ScenarioError("key 'cards' must be an object: rider id -> card value")
    ids = [r["id"] for r in riders]
    for rid in cards:
        if rid not in ids:
            raise ScenarioError(f"cards: {rid!r} is not a rider of this scenario")
    missing = [rid for rid in ids if rid not in cards]
    if missing:
        raise ScenarioError(f"cards: rider {missing[0]!r} has no card (give a card for every rider)")
    result: dict[str, Card] = {}
    for rid, value in cards.items():
        if value == "attack":
            result[rid] = ATTACK
        elif is_int(value) and value >= 2:
            result[rid] = energy(value)
        else:
            raise ScenarioError(f"cards: rider {rid!r} has card {value!r}; a card is an integer >= 2 or \"attack\"")
    teams = {r["id"]: r.get("team") for r in riders}
    for rid, card in result.items():
        if card is ATTACK:
            team = teams[rid]
            mates = [r for r, t in teams.items() if t == team] if team else [rid]
            if team is None or len(mates) < 2 or any(result[m] is not ATTACK for m in mates):
                raise ScenarioError(
                    f"cards: rider {rid!r} plays \"attack\": the Peloton team's Attack! card moves both of its "
                    "riders, so give both riders the same 'team' and the card \"attack\"")
    return result


def _positions(race: Race) -> dict[str, list[int]]:
    return {rid: [square, lane] for rid, (square, lane) in race.positions().items()}


def resolve_round(scenario: dict) -> dict:
    """Resolve one round of a scenario (SCENARIOS.md): movement if ``cards`` is given, then the end phase."""
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


def check(scenario: dict) -> str | None:
    """None when the scenario's ``expect`` block matches ``resolve_round``, else the first difference."""
    expect = scenario.get("expect")
    if not isinstance(expect, dict):
        raise ScenarioError("key 'expect' must be an object with the expected result")
    _reject_unknown_keys(expect, OUTPUT_KEYS, "expect: ")
    result = resolve_round(scenario)
    for key in OUTPUT_KEYS:
        if key not in expect or expect[key] == result[key]:
            continue
        want, got = expect[key], result[key]
        if isinstance(want, dict) and isinstance(got, dict):
            for rid in list(want) + [r for r in got if r not in want]:
                if want.get(rid) != got.get(rid):
                    return f"{key}: {rid} expected {want.get(rid)}, got {got.get(rid)}"
        return f"{key}: expected {json.dumps(want)}, got {json.dumps(got)}"
    return None
