"""Learner-facing messages in the learner's language (gettext; catalogs in ``tutor/locale/<language>/LC_MESSAGES``).

One lesson runs in one kernel, so the language is the kernel's: a lesson's first code cell names it once with
``use_language("ca")``. Every message is a whole sentence with named placeholders::

    _("{rider} moves {n} squares").format(rider=rider, n=n)
    ngettext("{n} square", "{n} squares", n).format(n=n)

A message without a translation falls back to English.
"""

from __future__ import annotations

import gettext
from pathlib import Path

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "tutor"
LANGUAGES: dict[str, str] = {"en": "English", "ca": "Català"}
"""The languages the lessons are written in, by code, with their own names."""

_language = "en"
_translations: gettext.NullTranslations = gettext.NullTranslations()


def translations_for(code: str) -> gettext.NullTranslations:
    """The catalog of ``code`` (English: none, the messages are English)."""
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {code!r}; known: {', '.join(LANGUAGES)}")
    return gettext.translation(DOMAIN, LOCALE_DIR, [code], fallback=True)


def use_language(code: str) -> None:
    """Speak ``code`` from now on in this kernel."""
    global _language, _translations
    _translations = translations_for(code)
    _language = code


def language() -> str:
    return _language


def _(message: str) -> str:
    return _translations.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translations.ngettext(singular, plural, n)
