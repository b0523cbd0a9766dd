"""Reading untrusted JSON (scenario files, position codes, uploads) with limits, then one schema per format.

Both games read their files through ``parse_json`` and ``validate``, so they refuse the same things the same way:

- size first, before any parsing: more than ``MAX_FILE_BYTES`` is refused unread;
- nesting deeper than ``MAX_DEPTH``, integers longer than ``MAX_INT_DIGITS`` digits, ``NaN`` / ``Infinity``,
  a key given twice in one object, and text holding a lone surrogate (not Unicode: it cannot be written back);
- then a JSON Schema (``jsonschema``) of the format: types, known keys, and lengths a real edition never
  reaches. The first problem becomes one line naming the key (``riders[2] ('red-S').square: ...``).

Limits are far above any real position: the longest stage is 78 squares, a race has at most 14 riders, the
largest scenario file of the project is under 2 KB.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator, Mapping
from itertools import accumulate
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

from tutor.i18n import N_, _

from .errors import DataError

MAX_FILE_BYTES = 256 * 1024
"""A scenario or data file (or a decoded position code, or an upload) larger than this is refused unread."""
MAX_DEPTH = 16
"""Deepest nesting of objects and lists (a real scenario has 4)."""
MAX_INT_DIGITS = 12
"""Longest integer, in digits (a seed fits in 10)."""

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def size_error(size: int, limit: int = MAX_FILE_BYTES) -> str | None:
    """The refusal for ``size`` bytes, None when it is within ``limit``."""
    if size <= limit:
        return None
    return _("too large ({size}; a scenario is at most {limit})").format(size=human_size(size), limit=human_size(limit))


def human_size(size: int) -> str:
    """``3.2 MB``, ``256 KB``, ``900 bytes``."""
    if size >= 1 << 20:
        return _("{size} MB").format(size=f"{size / (1 << 20):.1f}")
    if size >= 1 << 10:
        return _("{size} KB").format(size=f"{size / (1 << 10):.0f}")
    return _("{size} bytes").format(size=size)


def read_text(path: str | Path, error: type[DataError] = DataError, limit: int = MAX_FILE_BYTES) -> str:
    """A UTF-8 file's text; a missing, unreadable, oversized (checked before reading) or non-UTF-8 file raises
    ``error`` naming the file."""
    path = Path(path)
    try:
        with path.open("rb") as file:
            too_large = size_error(Path(file.name).stat().st_size, limit)
            if too_large:
                raise error(f"{path}: {too_large}")
            raw = file.read(limit + 1)
    except OSError as exc:
        raise error(_("{where}: cannot be read ({reason})").format(where=path, reason=exc.strerror)) from None
    too_large = size_error(len(raw), limit)  # grew since stat, or not a regular file
    if too_large:
        raise error(f"{path}: {too_large}")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(
            _("{where}: not UTF-8 text ({reason} at byte {byte})").format(
                where=path, reason=_utf8_reason(exc), byte=exc.start
            )
        ) from None


def _refuse_constant(name: str) -> Any:
    raise ValueError(_("{name} is not a number JSON allows").format(name=name))


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(
            _("an integer of {digits} digits (at most {limit})").format(
                digits=len(text.lstrip("-")), limit=MAX_INT_DIGITS
            )
        )
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > 2 * MAX_INT_DIGITS:
        raise ValueError(_("a number of {count} characters").format(count=len(text)))
    return float(text)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(_("the key {key} is given twice in one object").format(key=_short(key)))
        result[key] = value
    return result


def _depth(text: str) -> int:
    """How deep ``text``'s brackets nest (outside strings), without parsing it."""
    steps = (1 if c in "[{" else -1 for c in _BRACKETS.findall(_STRINGS.sub("", text)))
    return max(accumulate(steps), default=0)


def _strings(value: Any) -> Iterator[str]:
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            yield from item
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)


def parse_json(text: str | bytes, where: str, error: type[DataError] = DataError, limit: int = MAX_FILE_BYTES) -> Any:
    """Parse untrusted JSON within the module's limits; any problem raises ``error`` as ``"{where}: ..."``."""
    size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))
    too_large = size_error(size, limit)
    if too_large:
        raise error(f"{where}: {too_large}")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise error(
                _("{where}: not UTF-8 text ({reason} at byte {byte})").format(
                    where=where, reason=_utf8_reason(exc), byte=exc.start
                )
            ) from None
    depth = _depth(text)
    if depth > MAX_DEPTH:
        raise error(
            _("{where}: nested {depth} levels deep (a scenario needs at most {limit})").format(
                where=where, depth=depth, limit=MAX_DEPTH
            )
        )
    try:
        data = json.loads(
            text,
            object_pairs_hook=_object,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_refuse_constant,
        )
    except json.JSONDecodeError as exc:
        reason = _(JSON_REASONS[exc.msg]) if exc.msg in JSON_REASONS else exc.msg
        raise error(
            _("{where}: not valid JSON: {reason} at line {line}, column {column}").format(
                where=where, reason=reason, line=exc.lineno, column=exc.colno
            )
        ) from None
    except (ValueError, RecursionError) as exc:
        raise error(_("{where}: not valid here: {reason}").format(where=where, reason=exc)) from None
    if any(_SURROGATE.search(s) for s in _strings(data)):
        raise error(
            _("{where}: a text holds a lone surrogate character (\\ud800-\\udfff), which is not Unicode").format(
                where=where
            )
        )
    return data


def load_json(path: str | Path, error: type[DataError] = DataError) -> Any:
    """Read and parse a JSON file within the limits; problems raise ``error`` naming the file."""
    return parse_json(read_text(path, error), str(path), error)


# ----- schemas -------------------------------------------------------------------------------------------------

UTF8_REASONS = {
    "invalid start byte": N_("no character starts"),
    "invalid continuation byte": N_("a character is cut short"),
    "unexpected end of data": N_("the text ends inside a character"),
}
"""What Python's UTF-8 decoder says (``UnicodeDecodeError.reason``, English) in words of the learner's language."""


def _utf8_reason(exc: UnicodeDecodeError) -> str:
    return _(UTF8_REASONS[exc.reason]) if exc.reason in UTF8_REASONS else exc.reason


JSON_REASONS = {
    "Expecting value": N_("a value is missing"),
    "Expecting ',' delimiter": N_("a comma is missing"),
    "Expecting ':' delimiter": N_("a colon is missing"),
    "Expecting property name enclosed in double quotes": N_("a key must be in double quotes"),
    "Extra data": N_("something follows the end of the data"),
    "Unterminated string starting at": N_("a text in quotes is not closed"),
    "Invalid control character at": N_("a text in quotes holds a line break or a tab"),
    "Invalid \\escape": N_("a text in quotes holds a backslash that escapes nothing"),
    "Invalid \\uXXXX escape": N_("a text in quotes holds a wrong \\uXXXX code"),
}
"""What Python's JSON parser says (``JSONDecodeError.msg``, English) in words of the learner's language."""

_TYPE_WORDS = {
    "object": N_("an object"),
    "array": N_("a list"),
    "string": N_("a string"),
    "integer": N_("an integer"),
    "boolean": N_("true or false"),
    "null": "null",
    "number": N_("a number"),
}
"""JSON's types in words, in English (message ids)."""


def _short(value: Any, width: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def _kind(value: Any) -> str:
    for name, kinds in (
        ("boolean", bool),
        ("integer", int),
        ("number", float),
        ("string", str),
        ("array", list),
        ("object", dict),
    ):
        if isinstance(value, kinds):
            return _(_TYPE_WORDS[name])
    return "null"


def kind_of(value: Any) -> str:
    """What a JSON value is, in words of the learner's language ("a list", "a string"), for a refusal."""
    return _kind(value)


def where_in(root: Any, path: Any, nouns: Mapping[str, str]) -> str:
    """``rider 'red-S'``, ``players[1]``, ``expect.after_movement``: a place in the data, for a message.

    An item of a list named in ``nouns`` (``{"riders": "rider"}``) is named by its ``id``."""
    text, node, parent = "", root, ""
    for step in path:
        node = node[step]
        if isinstance(step, int):
            if parent in nouns and isinstance(node, dict) and isinstance(node.get("id"), str):
                text = f"{nouns[parent]} {_short(node['id'], 30)}"
            else:
                text += f"[{step}]"
        else:
            text += f".{step}" if text else str(step)
            parent = str(step)
    return text


def _message(error: ValidationError, root: Any, nouns: Mapping[str, str]) -> str:
    path = list(error.absolute_path)
    field = path[-1] if path and isinstance(path[-1], str) else None
    where = where_in(root, path[:-1] if field is not None else path, nouns)
    at = f"{where}: " if where else ""
    scenario = _("the scenario")
    subject = (
        _("key {key}").format(key=repr(field))
        if field is not None and not where
        else f"{at}{field}"
        if field is not None
        else where or scenario
    )
    schema, value, rule = error.schema, error.instance, error.validator
    words = {"subject": subject, "where": where or scenario, "key": field, "value": _short(value)}
    if rule not in ("additionalProperties", "required"):
        outer: ValidationError | None = error  # best_match picks the innermost problem of an anyOf
        while outer is not None and not (isinstance(outer.schema, Mapping) and "message" in outer.schema):
            outer = outer.parent
        if outer is not None and isinstance(outer.schema, Mapping):
            return str(outer.schema["message"]).format(**words)
    if rule == "type":
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        expected = _(_TYPE_WORDS[types[0]])
        for other in types[1:]:
            expected = _("{one} or {other}").format(one=expected, other=_(_TYPE_WORDS[other]))
        if field is not None and where:
            return _("{where}{key} {value} is not {expected}").format(
                where=at, key=field, value=_short(value), expected=expected
            )
        return _("{subject} must be {expected}, not {kind} ({value})").format(
            subject=subject, expected=expected, kind=_kind(value), value=_short(value)
        )
    if rule in ("additionalProperties", "required"):
        place = where_in(root, path, nouns)
        place = f"{place}: " if place else ""
        if rule == "required":
            missing = next(k for k in schema["required"] if k not in value)
            return _("{where}missing key {key}").format(where=place, key=repr(missing))
        known = schema.get("properties", {})
        unknown = sorted(set(value) - set(known))
        return _("{where}unknown key {key} (allowed: {allowed})").format(
            where=place, key=_short(unknown[0]), allowed=", ".join(sorted(known))
        )
    limit = error.validator_value
    if rule == "maxLength":
        return _("{subject} is too long ({count} characters; at most {limit})").format(
            subject=subject, count=len(value), limit=limit
        )
    if rule == "minLength":
        return _("{subject} must not be empty").format(subject=subject)
    if rule in ("maxItems", "maxProperties"):
        return _("{subject} has too many entries ({count}; at most {limit})").format(
            subject=subject, count=len(value), limit=limit
        )
    if rule in ("minItems", "minProperties"):
        return _("{subject} needs at least {limit} entries, not {count}").format(
            subject=subject, count=len(value), limit=limit
        )
    if rule in ("enum", "const"):
        allowed = error.validator_value if rule == "enum" else [error.validator_value]
        return _("{subject} must be one of {allowed}, not {value}").format(
            subject=f"{at}{field!r}" if where else subject, allowed=", ".join(map(str, allowed)), value=_short(value)
        )
    if rule == "minimum":
        return _("{subject}: {value} is not at least {limit}").format(subject=subject, value=_short(value), limit=limit)
    if rule == "maximum":
        return _("{subject}: {value} is not at most {limit}").format(subject=subject, value=_short(value), limit=limit)
    return _("{subject}: {value} is not allowed here").format(subject=subject, value=_short(value))


def validate(
    data: Any, schema: Mapping[str, Any], error: type[DataError] = DataError, *, nouns: Mapping[str, str] | None = None
) -> None:
    """Check ``data`` against a JSON Schema; the first problem raises ``error`` naming the key.

    A subschema's ``"message"`` replaces the generic wording of its problem: a format string with ``{subject}``
    (``key 'players'``, ``rider 'a': square``), ``{where}`` (the object holding the value), ``{key}`` and
    ``{value}``. ``nouns`` names list items by their id (see ``where_in``).
    """
    jsonschema = _jsonschema()
    problem = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(data))
    if problem is not None:
        raise error(_message(problem, data, nouns or {}))
    if any(_SURROGATE.search(s) for s in _strings(data)):
        raise error(_("a text holds a lone surrogate character (\\ud800-\\udfff), which is not Unicode"))


def _jsonschema() -> ModuleType:
    """``jsonschema``, imported on first use. Its optional IRI format check compiles a grammar when it is imported
    (about 2 s, at every lesson's start); no schema here uses that format, so that check is left out when
    nothing else has imported ``jsonschema`` yet."""
    if "jsonschema" not in sys.modules:
        _import_without_iri_check()
    return sys.modules["jsonschema"]


def _import_without_iri_check() -> None:
    sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]  # None: "not installed"
    try:
        import jsonschema.exceptions  # noqa: F401  (and jsonschema)
    finally:
        if sys.modules.get("rfc3987_syntax", ...) is None:
            del sys.modules["rfc3987_syntax"]


def text(max_length: int, **more: Any) -> dict[str, Any]:
    """Schema of a string of at most ``max_length`` characters."""
    return {"type": "string", "maxLength": max_length, **more}


def integer(minimum: int | None = None, maximum: int | None = None) -> dict[str, Any]:
    """Schema of an integer (JSON ``true`` is not one), optionally bounded."""
    schema: dict[str, Any] = {"type": "integer"}
    if minimum is not None:
        schema["minimum"] = minimum
    if maximum is not None:
        schema["maximum"] = maximum
    return schema


def strict_object(properties: Mapping[str, Any], required: tuple[str, ...] = (), **more: Any) -> dict[str, Any]:
    """Schema of an object with exactly the known ``properties`` (others are refused)."""
    return {
        "type": "object",
        "properties": dict(properties),
        "required": list(required),
        "additionalProperties": False,
        **more,
    }
