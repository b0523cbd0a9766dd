"""The In Flanders Field position code (``IF1-``): a position in digits and capital letters (Crockford's base 32,
``tutor.core.bits``), at most 40 characters for a lesson's position and 80 for anything the workbench makes.

It carries the position of the scenario format (docs/flanders_scenarios.md): the players (``p1`` ... ``p4``,
each with its pawn, troops and retained cards), whose turn it is, the cards on the spaces, the cards taken this
turn (the hand), the pawn on 9, the phase, the round and the shuffle number (``seed``: it deals the draw pile).
``name``, ``description``, ``actions`` and ``expect`` do not travel (the scenario file keeps them); a position
with its own draw pile, discard pile or battlefield has no code (``to_code`` gives None).

    to_code(scenario) -> "IF1-..." or None
    from_code(text)  -> the scenario's position (a malformed code raises ``ScenarioError``, one sentence; a code of
                        another version ``CodeVersionError``, saying what to do)
    position(scenario) -> the position with every default written out (two equal positions compare equal)
"""

from __future__ import annotations

from typing import Any

from tutor.core.bits import BitReader, BitWriter, decode, encode, refuse_other_version
from tutor.core.schema import kind_of
from tutor.i18n import N_, _

from . import scenario as scenarios
from .errors import CodeVersionError, ScenarioError
from .game import CARD_SPACES

PREFIX = "IF1-"
MAX_CODE_CHARS = 200
"""A pasted code longer than this is refused before it is read (a workbench position's code has at most 80)."""
CARD_NAMES = (
    "Infantry",
    "Bayonet Charge",
    "Artillery Barrage",
    "Tank",
    "Mines",
    "Reserves",
    "Machine Gun",
    "Gas Attack",
    "Quiet Sector",
)
"""The card set's names in the code's order (fixed: part of the format)."""
PHASES = (None, "roll", "again", "resolve")
DEFAULT_TROOPS = 6
_POSITION_KEYS = {
    "game",
    "name",
    "description",
    "players",
    "current",
    "spaces",
    "taken",
    "on_nine",
    "phase",
    "round",
    "seed",
    "actions",
    "expect",
}
_DAMAGED = N_("the position code is damaged: a character is missing or changed (check it again)")


def position(data: dict[str, Any]) -> dict[str, Any]:
    """The position of a scenario with its defaults written out (what a code carries)."""
    players = [
        {
            "id": p["id"],
            "pawn": p.get("pawn", 0),
            "troops": p.get("troops", DEFAULT_TROOPS),
            "retained": list(p.get("retained", [])),
        }
        for p in data["players"]
    ]
    spaces = {str(s): data.get("spaces", {}).get(str(s)) for s in CARD_SPACES}
    taken = list(data.get("taken", []))
    on_nine = data.get("on_nine", False)
    return {
        "game": "flanders",
        "players": players,
        "current": data.get("current", players[0]["id"]),
        "spaces": spaces,
        "taken": taken,
        "on_nine": on_nine,
        "phase": data.get("phase", "again" if taken or on_nine else "roll"),
        "round": data.get("round", 1),
        "seed": data.get("seed", 0),
    }


def to_code(data: dict[str, Any]) -> str | None:
    """The code of a valid scenario's position, or None when it has what no code carries (players named other
    than ``p1`` ... ``p4``, its own draw pile, discard pile or battlefield)."""
    scenarios.build(data)
    if set(data) - _POSITION_KEYS:
        return None
    ids = [p["id"] for p in data["players"]]
    if ids != [f"p{n}" for n in range(1, len(ids) + 1)] or data.get("seed", 0) < 0:
        return None
    bits = BitWriter()
    bits.put(len(ids) - 2, 2)
    for player in data["players"]:
        bits.put(player.get("pawn", 0), 4)
        troops = player.get("troops", DEFAULT_TROOPS)
        bits.put(troops != DEFAULT_TROOPS, 1)
        if troops != DEFAULT_TROOPS:
            bits.gamma(troops + 1)
        _put_names(bits, player.get("retained", []))
    bits.put(ids.index(data.get("current", ids[0])), 2)
    spaces = data.get("spaces", {})
    for space in CARD_SPACES:
        name = spaces.get(str(space))
        bits.put(0 if name is None else CARD_NAMES.index(name) + 1, 4)
    _put_names(bits, data.get("taken", []))
    bits.put(bool(data.get("on_nine", False)), 1)
    bits.put(PHASES.index(data.get("phase")), 2)
    bits.gamma(data.get("round", 1))
    bits.gamma(data.get("seed", 0) + 1)
    return encode(PREFIX, bits)


def _put_names(bits: BitWriter, names: list[str]) -> None:
    bits.gamma(len(names) + 1)
    for name in names:
        bits.put(CARD_NAMES.index(name), 4)


def from_code(code: object) -> dict[str, Any]:
    """The scenario (position only) of a code; a malformed code raises ``ScenarioError`` saying what is wrong."""
    if not isinstance(code, str):
        raise ScenarioError(_("a position code is text, not {kind}").format(kind=kind_of(code)))
    refuse_other_version(code[:40], PREFIX, CodeVersionError)  # the start of a code says its version
    if len(code) > MAX_CODE_CHARS:
        raise ScenarioError(
            _(
                "the position code is far too long ({count} characters; a code has at most {max_code_chars}): copy "
                "only the code"
            ).format(count=format(len(code), ","), max_code_chars=MAX_CODE_CHARS)
        )
    text = "".join(code.split())
    if not text:
        raise ScenarioError(
            _("the position code is empty: paste a code that starts with {prefix}").format(prefix=PREFIX)
        )
    if not text.upper().startswith(PREFIX[:3]):
        if text.upper().startswith("FR"):
            raise ScenarioError(
                _(
                    "this is a Flamme Rouge code: open it in a Flamme Rouge lesson (an In Flanders "
                    "Field code starts with {prefix})"
                ).format(prefix=PREFIX)
            )
        raise ScenarioError(
            _("not an In Flanders Field position code: a code starts with {prefix}").format(prefix=PREFIX)
        )
    try:
        data = _read(decode(text, PREFIX, ScenarioError))
    except (IndexError, KeyError):
        raise ScenarioError(_(_DAMAGED)) from None
    try:
        scenarios.build(data)
    except ValueError as exc:
        raise ScenarioError(_("the position code holds an invalid position: {exc}").format(exc=exc)) from None
    return data


def _names(bits: BitReader) -> list[str]:
    count = bits.gamma() - 1
    if count > 37:
        raise ScenarioError(_(_DAMAGED))
    return [CARD_NAMES[bits.take(4)] for _step in range(count)]


def _read(bits: BitReader) -> dict[str, Any]:
    players = []
    for n in range(bits.take(2) + 2):
        player: dict[str, Any] = {"id": f"p{n + 1}", "pawn": bits.take(4), "troops": DEFAULT_TROOPS}
        if bits.take(1):
            player["troops"] = bits.gamma() - 1
        retained = _names(bits)
        if retained:
            player["retained"] = retained
        players.append(player)
    data: dict[str, Any] = {"game": "flanders", "players": players, "current": players[bits.take(2)]["id"]}
    spaces = {}
    for space in CARD_SPACES:
        card = bits.take(4)
        if card:
            spaces[str(space)] = CARD_NAMES[card - 1]
    data["spaces"] = spaces
    taken = _names(bits)
    if taken:
        data["taken"] = taken
    if bits.take(1):
        data["on_nine"] = True
    phase = PHASES[bits.take(2)]
    if phase is not None:
        data["phase"] = phase
    data["round"] = bits.gamma()
    data["seed"] = bits.gamma() - 1
    if not bits.finished():
        raise ScenarioError(_("the position code is damaged: characters are extra or changed (copy the whole code)"))
    return data
