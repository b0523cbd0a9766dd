"""Scenarios: an In Flanders Field position, optionally a sequence of actions, and the expected result.

Teachers write them as puzzles ("p1 rolls 1-2-6: what must it take?"), lessons
load them, and the tests check the engine with them. ``docs/flanders_scenarios.md``
documents the format; in short, a scenario is a JSON object:

================ ============================================================================================
key              meaning
================ ============================================================================================
``game``         required, ``"flanders"``
``name``         optional strings for teachers and lesson text
``description``
``players``      2-4 objects ``{"id", "pawn" (0 = starting line), "troops", "retained": [card names]}``
``current``      id of the player whose turn it is (default: the first)
``spaces``       card space (``"3"`` ... ``"11"``, not ``"9"``) -> card name or null; unlisted spaces are empty
``taken``        card names the current player took this turn (in order)
``on_nine``      the current player's second pawn is on space 9 (default false)
``phase``        ``"roll"``, ``"again"`` or ``"resolve"`` (default: ``"again"`` after a take, else ``"roll"``)
``draw``         card names in the draw pile, top first (default: every card not placed, shuffled)
``discard``      card names in the discard pile (cards not placed go here when ``draw`` is given)
``round``        the round number (default 1)
``seed``         seed of the game's generator, for unloaded rolls and reshuffles (default 0)
``battlefield``  optional map in the ``battlefield.json`` format (default: the tutor's map)
``actions``      list: ``"roll"``, ``{"roll": [d1, d2, d3]}``, ``{"take": space}``, ``"stop"``,
                 ``{"play": name or "fixed", "spaces": n, "mines": [names]}``, ``"end_turn"``,
                 ``{"end_turn": [names to keep]}``
``expect``       optional: a subset of ``resolve``'s output
================ ============================================================================================

``resolve(data)`` returns: ``phase``, ``current``, ``pawns``, ``troops``,
``lost`` (troops lost during the actions), ``retained`` (names per player),
``held`` (the current player's cards), ``on_nine``, ``spaces``, ``bust``,
``events`` (kinds, in order), ``rules`` (rule ids cited, first citation order),
``winners`` and ``bust_probability`` (of the next roll, as ``"n/d"``).
``check(data)`` is None when every key of ``expect`` matches, else the first difference
(an object such as ``pawns`` checks only the players or spaces it names).
Cards are named by their card-set name; a name picks the first free copy.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any, Mapping

from tutor.core.data import first_difference, is_int, load_json, reject_unknown_keys
from tutor.core.schema import integer, kind_of, strict_object, text, validate
from tutor.i18n import _, ngettext

from .battlefield import Battlefield, load_battlefield
from .cards import FIXED, CardId, CardSet, load_cards
from .errors import BoardDataError, RuleError, ScenarioError
from .events import Busted, Event, TroopsLost
from .game import CARD_SPACES, NINE, Action, EndTurn, Game, Phase, Play, Player, Roll, Stop, Take, checked_bots

GAME = "flanders"
OUTPUT_KEYS = (
    "phase",
    "current",
    "pawns",
    "troops",
    "lost",
    "retained",
    "held",
    "on_nine",
    "spaces",
    "bust",
    "events",
    "rules",
    "winners",
    "bust_probability",
)
_START_PHASES = ("roll", "again", "resolve")
ACTION_FORMS = (
    '"roll", {"roll": [d1, d2, d3]}, {"take": 5}, "stop", {"play": "Tank", "spaces": 2, "mines": [...]}, '
    '"end_turn", {"end_turn": [...]}'
)
"""The forms of an action, in JSON (the same in every language), for a refusal."""

MAX_ACTIONS = 2000
"""Most actions a scenario may carry out (a whole game takes a few hundred)."""
_NAME = text(60)
_NAMES = {"type": "array", "maxItems": 100, "items": _NAME}
"""A list of card names (the card set has 37 cards)."""
SCHEMA = strict_object(
    {
        "game": {"const": GAME, "message": f"{{subject}}: {{value}} is not {GAME!r}"},
        "name": text(200),
        "description": text(5000),
        "players": {
            "type": "array",
            "minItems": 2,
            "maxItems": 4,
            "message": "{subject} must be a list of 2 to 4 players",
            "items": strict_object(
                {"id": text(40, minLength=1), "pawn": integer(), "troops": integer(), "retained": _NAMES}
            ),
        },
        "current": text(40),
        "spaces": {
            "type": "object",
            "maxProperties": 20,
            "additionalProperties": {"type": ["string", "null"], "maxLength": 60},
            "propertyNames": {
                "pattern": "^[1-9][0-9]?$",
                "message": "{where}: {value} is not a card space (3 to 11, except 9)",
            },
        },
        "taken": _NAMES,
        "on_nine": {"type": "boolean"},
        "phase": {"enum": list(_START_PHASES)},
        "draw": _NAMES,
        "discard": _NAMES,
        "round": integer(1, 10_000),
        "seed": integer(),
        "battlefield": {"type": "object", "maxProperties": 20},
        "actions": {
            "type": "array",
            "maxItems": MAX_ACTIONS,
            "items": {"type": ["string", "object"], "maxLength": 20, "maxProperties": 3},
        },
        "expect": {"type": "object", "propertyNames": {"enum": list(OUTPUT_KEYS)}},
    },
    ("game",),
)
"""The scenario format (this module's docstring) as a JSON Schema: types, keys and sizes; ``build`` checks
the rest (cards, spaces and players that exist)."""
SCENARIO_KEYS = tuple(SCHEMA["properties"])


def load(path: str | Path) -> dict[str, Any]:
    """Read a scenario file; bad JSON raises ``ScenarioError`` naming the file, line and column."""
    data = load_json(path, ScenarioError)
    if not isinstance(data, dict):
        raise ScenarioError(_("{path}: a scenario is a JSON object, not {kind}").format(path=path, kind=kind_of(data)))
    return data


class _Cards:
    """Hands out card ids by name, each physical card once."""

    def __init__(self, game: Game):
        self.cards = game.cards
        self.free: dict[str, list[CardId]] = {}
        for i, card in enumerate(game.cards.deck):
            self.free.setdefault(card.name, []).append(i)

    def take(self, name: Any, where: str) -> CardId:
        if not isinstance(name, str) or name not in self.free:
            known = ", ".join(self.free)
            raise ScenarioError(
                _("{where}: unknown card {name} (the card set has: {known})").format(
                    where=where, name=name, known=known
                )
            )
        if not self.free[name]:
            count = self.cards.by_name[name].count
            raise ScenarioError(
                ngettext(
                    "{where}: no copy of {name} is left (the set has {n}, placed already)",
                    "{where}: no copy of {name} is left (the set has {n}, all placed already)",
                    count,
                ).format(where=where, name=name, n=count)
            )
        return self.free[name].pop(0)

    def names(self, names: Any, where: str) -> list[CardId]:
        if not isinstance(names, list):
            raise ScenarioError(_("key “{key}” must be a list of card names").format(key=where))
        return [self.take(n, f"{where}[{i}]") for i, n in enumerate(names)]

    def rest(self) -> list[CardId]:
        return sorted(c for ids in self.free.values() for c in ids)


def build(data: dict[str, Any], *, history: bool = False, bots: Mapping[str, str] | None = None) -> Game:
    """Validate a scenario and return the game at its position (before its ``actions``).

    ``bots`` (player id -> bot name, as ``Game.new`` takes it) says which players are bots: who plays is part of
    the setup, never written on the players afterwards (the scenario format itself has every player a person).

    The cards are dealt from one pool in a fixed order (retained, spaces, taken, discard, draw), so a card
    named twice is an error wherever the second one is."""
    _check_header(data)
    seed = data.get("seed", 0)
    if not is_int(seed):
        raise ScenarioError(_("key 'seed' must be an integer, not {value}").format(value=repr(seed)))
    card_set, battlefield = cards_and_battlefield(data)
    players = _players(data.get("players"), battlefield)
    chosen = checked_bots(bots, [p.id for p in players])
    players = [replace(p, bot=chosen.get(p.id)) for p in players]  # still being set up: no game holds them yet
    game = Game(card_set, battlefield, players, seed=seed, history=history)
    cards = _Cards(game)
    _deal_retained(game, data["players"], cards)
    game.current = _current(data, players)
    _deal_spaces(game, data.get("spaces", {}), cards)
    _set_turn(game, data, cards)
    _deal_piles(game, data, cards)
    rnd = data.get("round", 1)
    if not is_int(rnd) or rnd < 1:
        raise ScenarioError(_("key 'round' must be a positive integer, not {value}").format(value=repr(rnd)))
    game.round = rnd
    return game


def _check_header(data: Any) -> None:
    """An object with the key ``game``, valid against ``SCHEMA``."""
    if not isinstance(data, dict):
        raise ScenarioError(_("a scenario is an object (dict), not {kind}").format(kind=kind_of(data)))
    if "game" not in data:
        raise ScenarioError(
            _("missing key 'game' (it must be {value} for an In Flanders Field scenario)").format(
                value=json.dumps(GAME)
            )
        )
    validate(data, SCHEMA, ScenarioError)


def cards_and_battlefield(data: dict[str, Any]) -> tuple[CardSet, Battlefield]:
    """The card set and the battlefield a scenario is played with: the tutor's data files (``data/cards.json`` and
    ``data/battlefield.json``, which a teacher may replace), or the scenario's own ``battlefield``. What the
    workbench's inputs allow (the pawns' last space, the cards a player may keep) comes from here."""
    return load_cards(), _battlefield(data)


def _battlefield(data: dict[str, Any]) -> Battlefield:
    """The scenario's own battlefield, or the game's."""
    if "battlefield" not in data:
        return load_battlefield()
    try:
        return Battlefield.from_dict(data["battlefield"], "battlefield")
    except BoardDataError as exc:
        raise ScenarioError(_("key {problem}").format(problem=exc)) from None


def _deal_retained(game: Game, entries: list[dict[str, Any]], cards: _Cards) -> None:
    """Each player's "May Retain" cards kept in hand."""
    for i, (p, entry) in enumerate(zip(game.players, entries)):
        p.retained = cards.names(entry.get("retained", []), f"players[{i}].retained")
        for c in p.retained:
            if not game.cards[c].retainable:
                raise ScenarioError(
                    _('{where}: {name} is not a "May Retain" card').format(
                        where=f"players[{i}].retained", name=repr(game.cards[c].name)
                    )
                )


def _current(data: dict[str, Any], players: list[Player]) -> int:
    """The index of the player whose turn it is (the first player by default)."""
    ids = [p.id for p in players]
    current = data.get("current", ids[0])
    if current not in ids:
        raise ScenarioError(
            _("key 'current': {value} is not a player ({players})").format(value=repr(current), players=", ".join(ids))
        )
    return ids.index(current)


def _deal_spaces(game: Game, spaces: Any, cards: _Cards) -> None:
    """The cards on the card spaces (3 to 11; space 9's card is fixed)."""
    if not isinstance(spaces, dict):
        raise ScenarioError(_('key \'spaces\' must be an object: card space ("3" to "11", not "9") -> card name'))
    for key, name in spaces.items():
        if str(key) == str(NINE):
            raise ScenarioError(
                _("spaces: space 9 holds the fixed card; use {key} for the second pawn").format(key='"on_nine"')
            )
        if int(key) not in CARD_SPACES:
            raise ScenarioError(_("spaces: {key} is not a card space (3 to 11, except 9)").format(key=repr(key)))
        if name is not None:
            game.spaces[int(key)] = cards.take(name, f"spaces[{key!r}]")


def _set_turn(game: Game, data: dict[str, Any], cards: _Cards) -> None:
    """Where the turn is: the cards taken, the second pawn on 9, the phase (a turn with cards is past its
    first roll)."""
    game.taken = cards.names(data.get("taken", []), "taken")
    on_nine = data.get("on_nine", False)
    if not isinstance(on_nine, bool):
        raise ScenarioError(_("key “on_nine” must be true or false, not {value}").format(value=json.dumps(on_nine)))
    game.on_nine = on_nine
    phase = data.get("phase", "again" if game.taken or on_nine else "roll")
    if phase not in _START_PHASES:
        raise ScenarioError(
            _("key “phase”: {value} is not one of {phases}").format(
                value=json.dumps(phase), phases=", ".join(_START_PHASES)
            )
        )
    if phase == "roll" and (game.taken or on_nine):
        raise ScenarioError(
            _(
                "key “phase”: a turn with cards taken (or the pawn on 9) is past its first roll; use "
                "{again} or {resolve}"
            ).format(again="“again”", resolve="“resolve”")
        )
    game.phase = Phase(phase)


def _deal_piles(game: Game, data: dict[str, Any], cards: _Cards) -> None:
    """The discard pile, and the draw pile: in the given order (top first; the cards not named are
    discarded), or every card not named, shuffled with the game's seed."""
    game.discard = cards.names(data.get("discard", []), "discard")
    if "draw" in data:
        game.draw = list(reversed(cards.names(data["draw"], "draw")))
        game.discard += cards.rest()
    else:
        game.draw = cards.rest()
        game.rng.shuffle(game.draw)


def _players(entries: Any, battlefield: Battlefield) -> list[Player]:
    if not isinstance(entries, list) or not 2 <= len(entries) <= 4:
        raise ScenarioError(_("key 'players' must be a list of 2 to 4 players"))
    players: list[Player] = []
    for i, entry in enumerate(entries):
        where = f"players[{i}]"
        if not isinstance(entry, dict):
            raise ScenarioError(_("{where} must be an object with id, pawn and troops").format(where=where))
        pid = entry.get("id")
        if not isinstance(pid, str) or not pid or any(p.id == pid for p in players):
            raise ScenarioError(
                _("{where}: 'id' must be a non-empty string used once, not {value}").format(
                    where=where, value=repr(pid)
                )
            )
        pawn, troops = entry.get("pawn", 0), entry.get("troops", 6)
        if not is_int(pawn) or not 0 <= pawn <= battlefield.objective:
            raise ScenarioError(
                _("{where} ({player}): pawn {value} is not a battlefield space (0 to {last})").format(
                    where=where, player=pid, value=repr(pawn), last=battlefield.objective
                )
            )
        if not is_int(troops) or troops < 0:
            raise ScenarioError(
                _("{where} ({player}): troops {value} is not a count of troop pieces (0 or more)").format(
                    where=where, player=pid, value=repr(troops)
                )
            )
        players.append(Player(pid, troops, pawn))
    return players


def _action(game: Game, entry: Any, where: str) -> Action:
    """One entry of ``actions`` as an engine action (card names become the ids in the current hand)."""
    if entry == "roll":
        return Roll()
    if entry == "stop":
        return Stop()
    if entry == "end_turn":
        return EndTurn()
    if not isinstance(entry, dict) or (len(entry) != 1 and "play" not in entry):
        raise ScenarioError(
            _("{where}: {entry} is not an action (the actions are {actions})").format(
                where=where, entry=repr(entry), actions=ACTION_FORMS
            )
        )
    if "roll" in entry:
        dice = entry["roll"]
        if dice is None:
            return Roll()
        if not isinstance(dice, list) or len(dice) != 3:
            raise ScenarioError(
                _("{where}: 'roll' takes three dice values, not {value}").format(where=where, value=repr(dice))
            )
        return Roll((dice[0], dice[1], dice[2]))
    if "take" in entry:
        if not is_int(entry["take"]):
            raise ScenarioError(
                _("{where}: 'take' takes a space number, not {value}").format(where=where, value=repr(entry["take"]))
            )
        return Take(entry["take"])
    if "end_turn" in entry:
        keep = entry["end_turn"]
        if not isinstance(keep, list):
            raise ScenarioError(
                _("{where}: 'end_turn' takes a list of card names to keep, not {value}").format(
                    where=where, value=repr(keep)
                )
            )
        return EndTurn(tuple(_in_hand(game, name, f"{where}.end_turn", set()) for name in keep))
    if "play" in entry:
        reject_unknown_keys(entry, ("play", "spaces", "mines"), f"{where}: ", ScenarioError)
        spaces = entry.get("spaces", 0)
        if not is_int(spaces):
            raise ScenarioError(
                _("{where}: 'spaces' must be an integer, not {value}").format(where=where, value=repr(spaces))
            )
        mines = entry.get("mines", [])
        if not isinstance(mines, list):
            raise ScenarioError(_("{where}: 'mines' must be a list of card names").format(where=where))
        card = _in_hand(game, entry["play"], f"{where}.play", set())
        chosen = {card}
        spent = []
        for name in mines:
            m = _in_hand(game, name, f"{where}.mines", chosen)
            chosen.add(m)
            spent.append(m)
        return Play(card, spaces, tuple(spent))
    raise ScenarioError(_("{where}: unknown action {action}").format(where=where, action=repr(next(iter(entry)))))


def _in_hand(game: Game, name: Any, where: str, exclude: set[CardId]) -> CardId:
    if name in ("fixed", NINE):
        return FIXED
    for c in game.hand():
        if c != FIXED and c not in exclude and game.cards[c].name == name:
            return c
    held = ", ".join(game.cards[c].name for c in game.hand() if c != FIXED) or _("none")
    raise ScenarioError(
        _("{where}: {player} holds no unused {name} (cards in hand: {held})").format(
            where=where, player=game.player.id, name=repr(name), held=held
        )
    )


def run(data: dict[str, Any]) -> tuple[Game, list[Event], dict[str, int]]:
    """Build the scenario and carry out its ``actions``: (game, events, troops at the start)."""
    game, events, start, _actions = _play(data)
    return game, events, start


def actions(data: dict[str, Any]) -> list[Action]:
    """The scenario's ``actions`` as engine actions, in order (card names become the ids of the cards in hand
    when each is played), checked by carrying them out on the scenario's position."""
    return _play(data)[3]


def _play(data: dict[str, Any]) -> tuple[Game, list[Event], dict[str, int], list[Action]]:
    game = build(data)
    start = {p.id: p.troops for p in game.players}
    entries = data.get("actions", [])
    if not isinstance(entries, list):
        raise ScenarioError(_("key 'actions' must be a list of actions"))
    events: list[Event] = []
    done: list[Action] = []
    for i, entry in enumerate(entries):
        where = f"actions[{i}]"
        action = _action(game, entry, where)
        try:
            events += game.apply(action)
        except RuleError as exc:
            raise ScenarioError(f"{where} ({json.dumps(entry)}): {exc}") from None  # exc: a sentence in the language
        done.append(action)
    return game, events, start, done


def resolve(data: dict[str, Any]) -> dict[str, Any]:
    """Carry out a scenario and describe the result (the keys an ``expect`` block may check)."""
    game, events, start = run(data)
    name = game.cards
    rules: dict[str, None] = {}
    for e in events:
        for r in e.rules:
            rules.setdefault(r.id, None)
    p = game.bust_probability()
    return {
        "phase": game.phase.value,
        "current": game.player.id,
        "pawns": {pl.id: pl.pawn for pl in game.players},
        "troops": {pl.id: pl.troops for pl in game.players},
        "lost": {
            pl.id: sum(e.count for e in events if isinstance(e, TroopsLost) and e.player == pl.id)
            for pl in game.players
        },
        "retained": {pl.id: [name[c].name for c in pl.retained] for pl in game.players},
        "held": [name[c].name for c in game.held()],
        "on_nine": game.on_nine,
        "spaces": {str(s): None if c is None else name[c].name for s, c in game.spaces.items()},
        "bust": any(isinstance(e, Busted) for e in events),
        "events": [e.kind for e in events],
        "rules": list(rules),
        "winners": list(game.winners),
        "bust_probability": f"{p.numerator}/{p.denominator}",
    }


def check(data: dict[str, Any]) -> str | None:
    """None when the scenario's ``expect`` block matches ``resolve``, else the first difference."""
    expect = data.get("expect")
    if not isinstance(expect, dict):
        raise ScenarioError(_("key 'expect' must be an object with the expected result"))
    reject_unknown_keys(expect, OUTPUT_KEYS, "expect: ", ScenarioError)
    # A partial object checks only the players (or spaces) it names.
    return first_difference(expect, resolve(data), OUTPUT_KEYS, partial=True)
