"""Learner-facing messages in the learner's language (gettext; catalogs in ``tutor/locale/<language>/LC_MESSAGES``).

One lesson runs in one kernel, so the language is the kernel's: a lesson's first code cell names it once with
``use_language("ca")``. Every message is a whole sentence with named placeholders::

    _("{rider} moves {n} squares").format(rider=rider, n=n)
    ngettext("{n} square", "{n} squares", n).format(n=n)

A message a module defines before any language is chosen (a rule's text, a phase's title) is marked with
``N_`` for extraction and translated where it is shown (``Rule.text`` calls ``_``).

Catalogs are the translators' ``tutor.po`` files, read with Babel at first use and compiled in memory: no ``.mo``
file has to be built where the lessons are served. A message without a translation falls back to English, and
is recorded in ``missed()`` so that a test can find it (``python -m tutor.i18n check ca`` lists them too).
Numbers and lists follow the language too: ``number(0.5)``, ``percent(0.25)``, ``and_list(["a", "b"])``.
"""

from __future__ import annotations

import gettext
import io
import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable

from tutor.i18n.codes import DOMAIN as DOMAIN, LOCALE_DIR as LOCALE_DIR, PSEUDO as PSEUDO  # re-exported
from tutor.i18n.codes import SOURCE_LANGUAGE as SOURCE_LANGUAGE, TEMPLATE as TEMPLATE

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog as BabelCatalog


def languages() -> dict[str, str]:
    """The languages the tutor speaks, by code, with their own names: English, then each language that has a
    catalog (``locale/<code>/LC_MESSAGES/tutor.po``): adding a language adds no code."""
    return {code: "English" if code == SOURCE_LANGUAGE else own_name(code) for code in language_codes()}


def language_codes() -> list[str]:
    """English, then the code of each language that has a catalog (no names: no locale data to load)."""
    found = sorted(path.parents[1].name for path in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return [SOURCE_LANGUAGE, *(code for code in found if code != SOURCE_LANGUAGE)]


@cache
def own_name(code: str) -> str:
    """The language's name in itself ("Català"), from Babel's locale data."""
    from babel import Locale, UnknownLocaleError

    try:
        name = Locale.parse(code).get_display_name(code) or code
    except (UnknownLocaleError, ValueError):
        return code
    return name[:1].upper() + name[1:]


class Catalog:
    """One language's messages: compiled for gettext (plural forms from the catalog's header) and the set of
    message ids it translates."""

    def __init__(self, translations: gettext.NullTranslations, known: frozenset[str | tuple[str, str]]) -> None:
        self.translations = translations
        self.known = known


def catalog_path(code: str) -> Path:
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def catalog_for(code: str) -> Catalog:
    """The catalog of ``code``, read from its ``.po`` file (English: none, the messages are English)."""
    from babel.messages.pofile import read_po  # Babel loads only when a language is chosen (English needs none)

    from tutor.i18n.pseudo import pseudo_catalog  # imports Babel, so loaded lazily too

    if code == PSEUDO:  # made from the template, never kept as a file (tutor/i18n/pseudo.py)
        with TEMPLATE.open("rb") as pot:
            return compiled_catalog(pseudo_catalog(read_po(pot, domain=DOMAIN)))
    if code not in (spoken := language_codes()):
        raise ValueError(f"unknown language {code!r}; known: {', '.join(spoken)}")
    path = catalog_path(code)
    if code == SOURCE_LANGUAGE or not path.exists():
        return Catalog(gettext.NullTranslations(), frozenset())
    with path.open("rb") as po:
        return compiled_catalog(read_po(po, locale=code, domain=DOMAIN))


def compiled_catalog(messages: "BabelCatalog") -> Catalog:
    """``messages`` (a Babel catalog) compiled for gettext in memory, with the ids it translates."""
    from babel.messages.mofile import write_mo

    compiled = io.BytesIO()
    write_mo(compiled, messages, use_fuzzy=False)
    compiled.seek(0)
    known: set[str | tuple[str, str]] = set()
    for message in messages:
        if not message.id or message.fuzzy:
            continue
        strings = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
        if all(strings):
            key = message.id
            known.add((key[0], key[1]) if isinstance(key, (list, tuple)) else key)
    return Catalog(gettext.GNUTranslations(compiled), frozenset(known))


def translations_for(code: str) -> gettext.NullTranslations:
    """The gettext translations of ``code``."""
    return catalog_for(code).translations


_language = SOURCE_LANGUAGE
_catalog = Catalog(gettext.NullTranslations(), frozenset())
_missed: dict[str | tuple[str, str], None] = {}


def use_language(code: str) -> None:
    """Speak ``code`` from now on in this kernel."""
    global _language, _catalog
    _catalog = catalog_for(code)
    _language = code


def language() -> str:
    return _language


class Message(str):
    """A message in the kernel's language: ``format`` fills its placeholders, then applies the language's rules for
    the words next to them (``tidy``), so that ``_("from {a} to {b}")`` reads "de l'1 a l'11" in Catalan."""

    __slots__ = ()

    def format(self, *args: object, **kwargs: object) -> str:
        return tidy(str.format(self, *args, **kwargs))


def _(message: str) -> str:
    """``message`` in the kernel's language."""
    if _language != SOURCE_LANGUAGE and message not in _catalog.known:
        _missed.setdefault(message)
    return Message(_catalog.translations.gettext(message))


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the kernel's language."""
    if _language != SOURCE_LANGUAGE and (singular, plural) not in _catalog.known:
        _missed.setdefault((singular, plural))
    return Message(_catalog.translations.ngettext(singular, plural, n))


def _rule(pattern: str, replace: str | Callable[[re.Match[str]], str]) -> tuple[re.Pattern[str], Any]:
    return re.compile(pattern), replace


def _elide(match: re.Match[str]) -> str:
    word = match.group(1)
    elided = "d" if word.lower() == "de" else "l"
    return f"{elided.upper() if word[0].isupper() else elided}'{match.group(2)}"


def _contract(match: re.Match[str]) -> str:
    preposition, article = match.group(1), match.group(2)
    joined = {"a": "a", "de": "de", "per": "pe"}[preposition.lower()] + article[1:]
    return joined[0].upper() + joined[1:] if preposition[0].isupper() else joined


_START = r"(?:(?<=^)|(?<=[.!?:]\s)|(?<=\n))"
TIDY_RULES: dict[str, list[tuple[re.Pattern[str], Any]]] = {
    "ca": [
        # "la 1", "el 11", "de 1" → "l'1", "l'11", "d'1" (un, onze: a vowel sound); not "la 1a", "de 10"
        _rule(r"(?<![\w'’])(de|la|el)\s(1|11)(?![\w'’])", _elide),
        _rule(_START + r"(De|La|El)\s(1|11)(?![\w'’])", _elide),
        # "a el", "de els", "per el" → "al", "dels", "pel"
        _rule(r"(?<![\w'’])(a|de|per)\s(els?)\b", _contract),
        _rule(_START + r"(A|De|Per)\s(els?)\b", _contract),
    ],
}
"""Each language's rules for the words a placeholder's value lands next to, applied by ``tidy`` to every message
filled with ``format`` (the README's "Numbers and words inside sentences" tells translators what they do)."""


def tidy(text: str, code: str | None = None) -> str:
    """``text`` with the rules of ``code`` (else the kernel's language) applied: in Catalan "de 1" → "d'1",
    "la 11" → "l'11", "a el" → "al", "per els" → "pels"."""
    for pattern, replace in TIDY_RULES.get(_language if code is None else code, ()):
        text = pattern.sub(replace, text)
    return text


def gettext_in(code: str, message: str) -> str:
    """``message`` in the language ``code`` (a page the server writes, whatever the kernel speaks)."""
    return catalog_for(code).translations.gettext(message)


def language_of_path(path: str) -> str:
    """The language of the lesson at ``path``: its first folder when that names a language (``ca/...``)."""
    first = path.strip("/").split("/", 1)[0]
    return first if first in language_codes() else SOURCE_LANGUAGE


def N_(message: str) -> str:
    """Mark ``message`` for translation where it is shown (a constant made before any language is chosen)."""
    return message


def missed() -> list[str | tuple[str, str]]:
    """The messages looked up, since the last ``clear_missed()``, that the kernel's catalog does not translate."""
    return list(_missed)


def clear_missed() -> None:
    _missed.clear()


def number(value: float) -> str:
    """``value`` as the language writes it (``"0.5"``; Catalan ``"0,5"``)."""
    if _language == SOURCE_LANGUAGE:
        return str(value)
    from babel.numbers import format_decimal

    return str(format_decimal(value, locale=_babel_locale()))


def percent(fraction: float, digits: int = 0) -> str:
    """``fraction`` as a percentage (``"25%"``; Catalan ``"25 %"``)."""
    if _language == SOURCE_LANGUAGE:
        return f"{fraction * 100:.{digits}f}%"
    from babel.numbers import format_percent

    locale = _babel_locale()
    return str(format_percent(fraction, _percent_pattern(locale, digits), locale=locale))


@cache
def _percent_pattern(locale: str, digits: int) -> str:
    """The language's own percent pattern (Catalan ``"#,##0 %"``: a space before the sign) with ``digits``
    decimals (read once: a board draws its odds at every frame)."""
    from babel import Locale

    pattern = str(Locale.parse(locale).percent_formats[None].pattern)
    return pattern.replace("#,##0", "#,##0." + "0" * digits, 1) if digits else pattern


def and_list(items: Iterable[object], empty: str | None = None) -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"`` in the kernel's language (Catalan ``"a, b i c"``); ``empty`` (else
    "nobody") for no items."""
    words = [str(i) for i in items]
    if not words:
        return _("nobody") if empty is None else empty
    if _language in (SOURCE_LANGUAGE, PSEUDO):  # no comma before "and", as the English lessons always wrote it
        joined = " and " if _language == SOURCE_LANGUAGE else " áñð "
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + joined + words[-1]
    from babel.lists import format_list

    return str(format_list(words, locale=_babel_locale()))


def _babel_locale() -> str:
    """The locale whose numbers and lists the kernel's language uses (the pseudo-language writes them as English)."""
    return "en" if _language == PSEUDO else _language
