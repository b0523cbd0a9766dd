"""Cards: the effect vocabulary, one ``Card`` per kind, and the ``CardSet`` loaded from ``data/cards.json``.

The rulebook gives the turn but not the card list, so the tutor ships an
illustrative set as data. A teacher can replace ``data/cards.json`` (or pass
another file to ``load_cards``) with their edition's cards, as long as they use
this vocabulary of effects:

=============== ======== ==========================================================
effect          value    meaning
=============== ======== ==========================================================
``move``        int > 0  move the pawn up to N spaces
``extra_space`` true     one more space by sacrificing a troop piece
``tank``        true     this card's movement ignores defensive lines (needs ``move``)
``mines``       true     lets a move continue past a defensive line
``losses``      int > 0  black symbols: troop pieces lost (German cards only)
``risk``        int > 0  grey symbols: troop pieces lost at a bust (British cards only)
``may_retain``  true     "May Retain": may be kept until the next turn
=============== ======== ==========================================================

The fixed card on space 9 is named by the file's ``"fixed"`` key: the British
card it acts as (Infantry). Only its movement counts: it is never held, so its
grey symbols never count at a bust.

Every physical card has an id (an ``int``): ``card_set[id]`` is its ``Card``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any

from tutor.core.data import load_json, positive_int, reject_unknown_keys, require_keys

from .errors import CardDataError

CardId = int
"""A physical card: an index into ``CardSet.deck``."""

FIXED: CardId = -1
"""The id of the fixed card on space 9 (it is not in the deck; the player's second pawn stands for it)."""


class Side(enum.Enum):
    BRITISH = "british"
    """Green border: movement, Tank, Mines; grey symbols are the bust risk."""
    GERMAN = "german"
    """Blue border: black symbols are troop losses."""


EFFECTS = ("move", "extra_space", "tank", "mines", "losses", "risk", "may_retain")
"""The effect vocabulary (the keys of a card's ``effects``)."""
_COUNTS = ("move", "losses", "risk")
_CARD_KEYS = ("name", "side", "count", "effects", "text")
_FILE_KEYS = ("_doc", "description", "name", "fixed", "cards")


@dataclass(frozen=True, slots=True)
class Card:
    """One kind of card (a ``CardSet`` holds ``count`` copies)."""

    name: str
    """Unique within the set, e.g. ``"Infantry"``."""
    side: Side
    move: int = 0
    """Spaces the pawn may move (0 for a card that does not move it)."""
    extra_space: bool = False
    """One more space by sacrificing a troop piece."""
    tank: bool = False
    """This card's movement ignores defensive lines."""
    mines: bool = False
    """Lets a move continue past a defensive line."""
    losses: int = 0
    """Black symbols (German cards): troop pieces lost when the card is applied."""
    risk: int = 0
    """Grey symbols (British cards): troop pieces lost at a bust while the card is held."""
    may_retain: bool = False
    """May be kept until the next turn."""
    count: int = 1
    """Copies in the set."""
    text: str = ""
    """What the card shows, for the lessons."""

    @property
    def british(self) -> bool:
        return self.side is Side.BRITISH

    @property
    def german(self) -> bool:
        return self.side is Side.GERMAN

    @property
    def retainable(self) -> bool:
        """A British card marked "May Retain": it may be kept at the end of the turn instead of discarded."""
        return self.may_retain and self.side is Side.BRITISH

    def __str__(self) -> str:
        return self.name

    def to_dict(self) -> dict[str, Any]:
        effects: dict[str, Any] = {k: getattr(self, k) for k in EFFECTS if getattr(self, k)}
        data: dict[str, Any] = {"name": self.name, "side": self.side.value, "count": self.count, "effects": effects}
        if self.text:
            data["text"] = self.text
        return data

    @classmethod
    def from_dict(cls, data: Any, where: str = "") -> Card:
        """Validate one entry of ``cards``; ``where`` prefixes messages (``cards.json: cards[3] ('Tank'): ``)."""
        if not isinstance(data, dict):
            raise CardDataError(f"{where}a card is an object with name, side, count and effects")
        reject_unknown_keys(data, _CARD_KEYS, where, CardDataError)
        require_keys(data, ("name", "side", "count"), where, CardDataError)
        name = data["name"]
        if not isinstance(name, str) or not name:
            raise CardDataError(f"{where}'name' must be a non-empty string, not {name!r}")
        try:
            side = Side(data["side"])
        except ValueError:
            raise CardDataError(f"{where}side {data['side']!r} is not 'british' or 'german'") from None
        count = positive_int(data["count"], f"{where}'count'", CardDataError)
        effects = data.get("effects", {})
        if not isinstance(effects, dict):
            raise CardDataError(f"{where}'effects' must be an object (effect -> value)")
        values: dict[str, Any] = {}
        for key, value in effects.items():
            if key not in EFFECTS:
                raise CardDataError(f"{where}unknown effect {key!r} (known: {', '.join(EFFECTS)})")
            if key in _COUNTS:
                values[key] = positive_int(value, f"{where}effect {key!r}", CardDataError)
            elif value is not True:
                raise CardDataError(f"{where}effect {key!r} must be true (leave it out otherwise), not {value!r}")
            else:
                values[key] = True
        if side is Side.GERMAN and "risk" in values:
            raise CardDataError(f"{where}grey symbols ('risk') are on British cards only")
        if side is Side.BRITISH and "losses" in values:
            raise CardDataError(f"{where}black symbols ('losses') are on German cards only")
        for needs_move in ("tank", "extra_space"):
            if needs_move in values and "move" not in values:
                raise CardDataError(f"{where}effect {needs_move!r} needs a 'move' effect")
        text = data.get("text", "")
        if not isinstance(text, str):
            raise CardDataError(f"{where}'text' must be a string")
        return cls(name, side, count=count, text=text, **values)


@dataclass(frozen=True)
class CardSet:
    """The cards of a game: the kinds, the fixed card, and one id per physical card."""

    name: str
    kinds: tuple[Card, ...]
    fixed: Card
    """What the fixed card on space 9 acts as (the Infantry card's movement, no grey symbol)."""
    description: str = ""

    @cached_property
    def deck(self) -> tuple[Card, ...]:
        """Every physical card; a card id is an index into this tuple."""
        return tuple(kind for kind in self.kinds for _ in range(kind.count))

    @cached_property
    def by_name(self) -> dict[str, Card]:
        return {kind.name: kind for kind in self.kinds}

    def __getitem__(self, card: CardId) -> Card:
        return self.fixed if card == FIXED else self.deck[card]

    def __len__(self) -> int:
        return len(self.deck)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.deck)

    @cached_property
    def retainable(self) -> tuple[str, ...]:
        """The names of the kinds a player may keep with "May Retain" (``Card.retainable``), in the set's order."""
        return tuple(kind.name for kind in self.kinds if kind.retainable)

    def ids(self, name: str) -> list[CardId]:
        """The ids of every copy of the card called ``name``."""
        return [i for i, card in enumerate(self.deck) if card.name == name]

    @cached_property
    def _dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "fixed": self._fixed_name,
            "cards": [kind.to_dict() for kind in self.kinds],
        }

    @cached_property
    def _fixed_name(self) -> str:
        return self.fixed.name

    def to_dict(self) -> dict[str, Any]:
        """The file format (shared, never mutate it)."""
        return self._dict

    @classmethod
    def from_dict(cls, data: Any, source: str = "cards") -> CardSet:
        """Validate a card set; messages start with ``source`` (the file name)."""
        where = f"{source}: "
        if not isinstance(data, Mapping):
            raise CardDataError(f"{where}a card set is a JSON object with 'fixed' and 'cards'")
        reject_unknown_keys(data, _FILE_KEYS, where, CardDataError)
        require_keys(data, ("fixed", "cards"), where, CardDataError)
        entries = data["cards"]
        if not isinstance(entries, list) or not entries:
            raise CardDataError(f"{where}'cards' must be a non-empty list of cards")
        kinds: list[Card] = []
        seen: dict[str, int] = {}
        for i, entry in enumerate(entries):
            name = entry.get("name") if isinstance(entry, dict) else None
            label = f"{where}cards[{i}]" + (f" ({name!r})" if isinstance(name, str) else "") + ": "
            card = Card.from_dict(entry, label)
            if card.name in seen:
                raise CardDataError(f"{label}the name is used twice (cards[{seen[card.name]}] and cards[{i}])")
            seen[card.name] = i
            kinds.append(card)
        fixed = data["fixed"]
        acts_as = next((k for k in kinds if k.name == fixed), None)
        if acts_as is None or not acts_as.british or not acts_as.move:
            raise CardDataError(
                f"{where}'fixed': {fixed!r} must name a British card with a 'move' effect "
                f"(the card the fixed card on space 9 acts as)"
            )
        fixed_card = Card(
            acts_as.name,
            Side.BRITISH,
            move=acts_as.move,
            extra_space=acts_as.extra_space,
            tank=acts_as.tank,
            mines=False,
            count=1,
            text="The fixed card on space 9.",
        )
        british = sum(k.count for k in kinds if k.british)
        total = sum(k.count for k in kinds)
        if total < 8 or british == 0:
            raise CardDataError(
                f"{where}the set has {total} cards ({british} British); it needs at least 8 cards "
                "for spaces 3-11 and at least one British card"
            )
        description = data.get("description", data.get("_doc", ""))
        if isinstance(description, list):
            description = " ".join(str(line) for line in description)
        name = data.get("name", source)
        if not isinstance(name, str) or not isinstance(description, str):
            raise CardDataError(f"{where}'name' and 'description' must be strings")
        return cls(name, tuple(kinds), fixed_card, description)


DATA = resources.files(__package__) / "data"


def load_cards(path: str | Path | None = None) -> CardSet:
    """Load and validate a card set file (default: the tutor's illustrative ``data/cards.json``)."""
    if path is None:
        with resources.as_file(DATA / "cards.json") as default:
            return CardSet.from_dict(load_json(default, CardDataError), "cards.json")
    path = Path(path)
    return CardSet.from_dict(load_json(path, CardDataError), path.name)
