"""The pseudo-language ``en_XA``: every message of the template, bracketed, accented and about 35% longer.

It is never a file kept in the repository: it is made from ``tutor/locale/tutor.pot`` when it is asked for
(``use_language("en_XA")`` in a kernel or a test, or ``rules-tutor languages --pseudo`` to write the ``.po`` a
translator's tools can open). A page in the pseudo-language shows at a glance what the catalog does not carry:

- every translated message reads ``⟦Ŵĥéŕé ðöéš ŕéð-Ŕ éñð? ·····⟧``: any plain ASCII word on the page (apart from
  proper names: card names, rider ids, game names) came from code that never went through gettext;
- two messages side by side (``⟧⟦``) are a sentence built from fragments;
- the padding shows where a longer language would not fit.

Placeholders (``{name}``, ``{name:>3}``, ``{{``, ``%(name)s``, ``%s``), HTML tags and entities are kept as they
are, so the pseudo catalog formats exactly as English does.
"""

from __future__ import annotations

import math
import re

from babel.messages.catalog import Catalog

from tutor.i18n.codes import PSEUDO

OPEN, CLOSE = "⟦", "⟧"
GROWTH = 0.35
PAD = "·"
ACCENTED = dict(
    zip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", "áƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ")
)
_KEPT = re.compile(r"\{\{|\}\}|\{[^{}]*\}|%\([^)]*\)[-#0 +]*\d*(?:\.\d+)?[sdifr%]|%[sdif%]|<[^<>]*>|&#?\w+;")
"""What the pseudo-language leaves untouched: placeholders, HTML tags and entities."""


def accent(text: str) -> str:
    return "".join(ACCENTED.get(c, c) for c in text)


def pseudo(message: str) -> str:
    """``message`` in the pseudo-language: ``"{n} squares"`` → ``"⟦{n} šǫûáŕéš ···⟧"``."""
    if not message:
        return message
    out, last = [], 0
    for match in _KEPT.finditer(message):
        out += [accent(message[last : match.start()]), match.group(0)]
        last = match.end()
    out.append(accent(message[last:]))
    shown = len(_KEPT.sub("", message))
    extra = math.ceil(shown * GROWTH)
    padding = " ".join(PAD * 5 for _ in range(extra // 5)) + (" " + PAD * (extra % 5) if extra % 5 else "")
    body = "".join(out)
    trailing = len(body) - len(body.rstrip("\n"))  # a message ending with a line break keeps it last
    body = body.rstrip("\n")
    return f"{OPEN}{body}{' ' + padding.strip() if padding.strip() else ''}{CLOSE}" + "\n" * trailing


def pseudo_catalog(template: Catalog) -> Catalog:
    """Every message of ``template`` translated into the pseudo-language (plurals: both English forms)."""
    catalog = Catalog(locale="en", domain=template.domain, project="rules-tutor", fuzzy=False)
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, (list, tuple)):
            string: str | tuple[str, ...] = tuple(pseudo(form) for form in message.id)
        else:
            string = pseudo(message.id)
        catalog.add(
            message.id,
            string,
            list(message.locations),
            flags=message.flags - {"fuzzy"},
            auto_comments=list(message.auto_comments),
            context=message.context,
        )
    return catalog


__all__ = ["PSEUDO", "accent", "pseudo", "pseudo_catalog"]
