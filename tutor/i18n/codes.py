"""The constants every module of ``tutor.i18n`` shares (the source language, the pseudo-language, where the catalogs
are), importing nothing of the package: the pseudo-language needs them without the gettext helpers."""

from __future__ import annotations

from pathlib import Path

LOCALE_DIR = Path(__file__).parents[1] / "locale"
DOMAIN = "tutor"
PSEUDO = "en_XA"
"""The pseudo-language (``tutor/i18n/pseudo.py``): made from the template when asked for, never a file to keep."""
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
SOURCE_LANGUAGE = "en"
