"""Issue 38: Catalan a teacher would sign. One glossary (``docs/glossary_ca.md``) gives one Catalan word for each
of the games' terms and lists the variants not to use ("not: ..."); no message of the Catalan catalog uses one.
The catalog writes Catalan typography too: «» quotation marks, plurals as plural messages (never "casella(es)"),
nationality adjectives in lower case; and numbers in sentences follow the language (``tutor.i18n.tidy``)."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

from tutor import i18n

GLOSSARY = Path(__file__).resolve().parents[1] / "docs" / "glossary_ca.md"
AVOIDED_ROW = re.compile(r"^\|[^|]+\|[^|]+\|[^|]*\| *not: ([^|]+)\|", re.M)
FRAGMENT_PLURAL = re.compile(r"\w\((?:s|es)\)")
STRAIGHT_QUOTES = re.compile(r"\"[^\"]*\"|“[^”]*”")
CODE_QUOTES = re.compile(r"^[\"“](?:attack|expect|game|flanders|on_nine|phase|again|resolve|roll)[\"”]$")
"""A file format's word typed as it is in the file: quoted in code style, not a quotation."""


def avoided_words() -> list[str]:
    return [
        word.strip()
        for cell in AVOIDED_ROW.findall(GLOSSARY.read_text(encoding="utf-8"))
        for word in cell.split(",")
        if word.strip()
    ]


def catalan_strings() -> list[tuple[str, str]]:
    """Each (message id, Catalan string) of the catalog, plural forms one by one."""
    with i18n.catalog_path("ca").open("rb") as po:
        catalog = read_po(po, locale="ca")
    said = []
    for message in catalog:
        if not message.id:
            continue
        shown = message.id if isinstance(message.id, str) else message.id[0]
        for text in [message.string] if isinstance(message.string, str) else list(message.string):
            said.append((shown, text or ""))
    return said


def variants_in(strings: list[tuple[str, str]], words: list[str]) -> list[str]:
    return [
        f"{word!r} in {text!r}"
        for _id, text in strings
        for word in words
        if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text)
    ]


def test_the_glossary_lists_the_variants_the_issue_found():
    words = avoided_words()
    for word in ("atrevit", "expansió Pelotó", "Alemanya", "tauler de cartes", "llençar", "fatiga"):
        assert word in words, word


def test_no_catalan_message_uses_a_variant_the_glossary_lists():
    assert variants_in(catalan_strings(), avoided_words()) == []


def test_the_check_finds_a_variant():
    strings = [("bold", "atrevit"), ("Peloton expansion", "Expansió Peloton"), ("German", "Alemanya")]
    assert variants_in(strings, avoided_words()) == ["'atrevit' in 'atrevit'", "'Alemanya' in 'Alemanya'"]


def test_catalan_messages_use_catalan_quotes_and_whole_plurals():
    quotes = [
        f"{message!r} → {text!r}"
        for message, text in catalan_strings()
        for found in STRAIGHT_QUOTES.findall(text)
        if not CODE_QUOTES.match(found)
    ]
    plurals = [f"{message!r} → {text!r}" for message, text in catalan_strings() if FRAGMENT_PLURAL.search(text)]
    assert quotes == [] and plurals == []


def test_numbers_in_catalan_sentences_follow_the_language():
    i18n.use_language("ca")
    assert i18n.tidy("de la 0 a la 1") == "de la 0 a l'1"
    assert i18n.tidy("Cap parella de 1-1-1; de 11 a 12") == "Cap parella d'1-1-1; d'11 a 12"
    assert (
        i18n.tidy("per els 3 símbols, a el final, de els corredors, de el 9")
        == "pels 3 símbols, al final, dels corredors, del 9"
    )
    assert i18n.tidy("La 1 guanya. El 11 també. De 1 en 1.") == "L'1 guanya. L'11 també. D'1 en 1."
    assert i18n.tidy("la 10, de 18, el 1r, la casella 1, risc A el") == "la 10, de 18, el 1r, la casella 1, risc A el"
    assert i18n.tidy("de 1", "en") == "de 1"
    # applied once, where a message is filled: a translation written "de {n}" reads "d'1"
    said = i18n.ngettext(
        "{name} moves the pawn {move} space, not {spaces}", "{name} moves the pawn 1 to {move} spaces, not {spaces}", 3
    )
    assert said.format(name="Tank", move=3, spaces=5) == "Tank mou el peó d'1 a 3 caselles, no 5"
    assert i18n.number(0.5) == "0,5"
