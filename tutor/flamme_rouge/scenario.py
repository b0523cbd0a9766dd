"""Scenarios: one position plus, optionally, the cards played (``../shared/SCENARIOS.md``).

``resolve_round`` runs the same ``Race`` code the game uses: it builds a race at
the movement phase (or, without ``cards``, at the end phase) and steps it to
the end of the round. ``check`` compares a scenario's ``expect`` block with the
result, for teachers' puzzle files and for the tests.
"""

from __future__ import annotations

import json
from pathlib import Path

from .cards import ATTACK, Card, energy
from .errors import ScenarioError, TrackError
from .events import ExhaustionTaken
from .race import Phase, Race
from .track import Track

SCENARIO_KEYS = {"name", "description", "track", "finish", "riders", "cards", "expect"}
RIDER_KEYS = {"id", "square", "lane", "team", "exhaustion"}
OUTPUT_KEYS = ("after_movement", "after_slipstream", "exhausted", "winner")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _reject_unknown_keys(data: dict, allowed, where: str = "") -> None:
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise ScenarioError(f"{where}unknown key {unknown[0]!r} (allowed: {', '.join(allowed)})")


def load(path: str | Path) -> dict:
    """Read a scenario file; bad JSON raises ``ScenarioError`` naming the file and line."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"{path}: not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
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
    if finish is not None and not _is_int(finish):
        raise ScenarioError(f"key 'finish' must be an integer square index, not {finish!r}")
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
        if not _is_int(square) or not 0 <= square < len(track):
            raise ScenarioError(f"{label}: square {square!r} is not on the track (0 to {len(track) - 1})")
        if not _is_int(lane) or not 0 <= lane < track.lanes[square]:
            raise ScenarioError(
                f"{label}: lane {lane!r} does not exist on square {square}, which has {track.lanes[square]} lane(s)")
        if (square, lane) in lanes_taken:
            raise ScenarioError(
                f"{label}: square {square}, lane {lane} is already taken by {lanes_taken[square, lane]!r}")
        lanes_taken[square, lane] = rid
        if "team" in rider and not isinstance(rider["team"], str):
            raise ScenarioError(f"{label}: 'team' must be a string")
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
        elif _is_int(value) and value >= 2:
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
    return {r.id: [r.square, r.lane] for r in race.riders.values()}


def resolve_round(scenario: dict) -> dict:
    """Resolve one round of a scenario (SCENARIOS.md): movement if ``cards`` is given, then the end phase."""
    race = build(scenario)
    while race.phase is Phase.MOVEMENT:
        race.step()
    after_movement = _positions(race)
    exhausted: list[str] = []
    after_slipstream = after_movement
    if race.phase is not Phase.FINISHED:
        while race.phase is not Phase.ENERGY:
            if race.phase is Phase.END_EXHAUSTION:
                after_slipstream = _positions(race)
            exhausted += [e.rider for e in race.step() if isinstance(e, ExhaustionTaken)]
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
