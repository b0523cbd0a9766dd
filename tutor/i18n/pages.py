"""What the lesson page's scripts read of the languages (``tutor/voila_template``): the list of languages the pages
link to, written where the template finds it (``rules-tutor languages`` writes the scripts' messages next to it)."""

from __future__ import annotations

import json
from pathlib import Path

from tutor.i18n import languages

PACKAGE = Path(__file__).parents[1]
PAGE_SCRIPTS = PACKAGE / "voila_template" / "voila" / "templates" / "rules-tutor"
PAGE_MESSAGES = PAGE_SCRIPTS / "messages"
"""``<language>.json``: the page scripts' messages, translated (the lesson template puts them in the page)."""
LANGUAGE_LIST = "languages"
"""``languages.json``: every language by code with its own name, for the pages' language links."""


def write_language_list() -> bool:
    """Write ``languages.json`` (the languages the pages link to) when a catalog was added or removed since it was
    written, so that a language added as one ``.po`` file is linked before its check runs. True when written."""
    path = PAGE_MESSAGES / f"{LANGUAGE_LIST}.json"
    text = json.dumps(languages(), ensure_ascii=False, indent=1).replace("</", "<\\/") + "\n"
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return False
    path.write_text(text, encoding="utf-8")
    return True
