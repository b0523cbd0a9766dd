"""Compact share codes: bits in Crockford's base 32 (digits and capital letters, no I, L, O or U) with a check
character, so a teacher can read a position out or write it on the board.

``BitWriter`` packs fixed-width numbers and Elias-gamma numbers (small numbers in few bits); ``encode`` turns them
into ``PREFIX + body + check``; ``decode`` checks the characters and the check character and returns a
``BitReader``. A malformed code raises the caller's error class with one sentence a teacher reads.

Each game reads one version of its code (``FR3-``, ``IF1-``); ``refuse_other_version`` says, in the same words for
every game, what to do with a code of another version (an older one: ask for a new code; a newer one: update).
"""

from __future__ import annotations

import re
import zlib

from tutor.i18n import _

B32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_READ = {**{c: i for i, c in enumerate(B32)}, "I": 1, "L": 1, "O": 0, "U": 27}
# U is not in the alphabet: read as V (the usual Crockford mistake) and caught by the check character if wrong


class BitWriter:
    def __init__(self) -> None:
        self.number = 0
        self.width = 0

    def put(self, value: int, size: int) -> None:
        if not 0 <= value < 1 << size:
            raise OverflowError(f"{value} does not fit {size} bits")
        self.number, self.width = (self.number << size) | value, self.width + size

    def gamma(self, value: int) -> None:
        """``value`` >= 1 in Elias gamma: 1 takes 1 bit, 2-3 take 3, 4-7 take 5, ..."""
        if value < 1:
            raise OverflowError("gamma codes numbers from 1")
        size = value.bit_length()
        self.put(0, size - 1)
        self.put(value, size)


class BitReader:
    def __init__(self, number: int, width: int, error: type[ValueError]):
        self.number, self.width, self.error = number, width, error

    def take(self, size: int) -> int:
        if self.width < size:
            raise self.error(_("the position code is damaged: characters are missing (copy the whole code)"))
        self.width -= size
        return (self.number >> self.width) & ((1 << size) - 1)

    def gamma(self) -> int:
        zeros = 0
        while self.take(1) == 0:
            zeros += 1
            if zeros > 24:
                raise self.error(_("the position code is damaged: a character is missing or changed"))
        return (1 << zeros) | self.take(zeros)

    def finished(self) -> bool:
        """Only the padding (fewer than 5 zero bits) is left."""
        return self.width < 5 and self.number & ((1 << self.width) - 1) == 0


def encode(prefix: str, bits: BitWriter) -> str:
    chars = -(-bits.width // 5) or 1
    number = bits.number << (chars * 5 - bits.width)
    body = "".join(B32[(number >> (5 * (chars - 1 - k))) & 31] for k in range(chars))
    return prefix + body + B32[zlib.crc32(body.encode()) & 31]


def refuse_other_version(text: str, prefix: str, error: type[ValueError]) -> None:
    """Raise ``error`` (the game's ``CodeVersionError``) with one sentence when ``text`` is a code of this game in
    another version than ``prefix``'s (``FR2-...`` where the tutor reads ``FR3-``): an older code asks for a new
    one, a newer one for an update of the tutor. Nothing happens for a code of ``prefix``'s version or of no
    version of this game (text that starts as ``prefix`` does is its version, as ``decode`` reads it)."""
    stem = prefix.rstrip("-")
    letters = stem.rstrip("0123456789")
    text = "".join(text.split())
    if text.upper().startswith(stem.upper()):  # this version's code, its dash left out or not
        return
    name = re.escape(letters)
    match = re.match(rf"{name}(\d+)-|{name}(\d)", text, re.IGNORECASE)
    if match is None:
        return
    version = int(match.group(1) or match.group(2))
    current = int(stem[len(letters) :])
    code = f"{letters}{version}-..."
    if version < current:
        raise error(
            _(
                "this is an older kind of position code ({code}) that this version of the tutor no longer "
                "reads; ask for a new code (open the position in this version's workbench and copy its "
                "code)"
            ).format(code=code)
        )
    raise error(
        _(
            "this position code ({code}) comes from a newer version of the tutor than this one (which reads "
            "{prefix}...); update the tutor, or ask for a code made with this version"
        ).format(code=code, prefix=prefix)
    )


def decode(text: str, prefix: str, error: type[ValueError]) -> BitReader:
    """The bits of ``text`` (its prefix, dashes, spaces and case ignored); raises ``error`` when malformed."""
    body = "".join(text.split()).upper()
    if body.startswith(prefix.upper().rstrip("-")):
        body = body[len(prefix.rstrip("-")) :]
    body = body.replace("-", "")
    strange = sorted(set(body) - set(_READ))
    if strange:
        raise error(
            _("not a position code: it contains {items} (a code has only digits and capital letters)").format(
                items=", ".join(map(repr, strange[:3]))
            )
        )
    if len(body) < 2:
        raise error(_("the position code is too short: copy the whole code"))
    body = "".join(B32[_READ[c]] for c in body)
    if B32[zlib.crc32(body[:-1].encode()) & 31] != body[-1]:
        raise error(_("the position code is damaged: a character is missing or changed (check it again)"))
    number = 0
    for c in body[:-1]:
        number = (number << 5) | _READ[c]
    return BitReader(number, 5 * (len(body) - 1), error)
