"""The short pages class mode sends instead of a lesson, with no kernel started (``tutor.server.class_mode``'s lesson
page handler): a device with too many lesson pages open (``PAGES_PER_CLIENT``), and a lesson the teacher has not opened
yet (Pace). Both try again by themselves: the first every 30 s; the second asks the class's server whether its
lesson is open (``rules-tutor/class/open``, which answers as soon as the teacher opens it) and opens it then, within
a second or two of the teacher's click (a page without scripts reloads every ``NOT_OPEN_REFRESH_S``).

``device_full_page(path)`` and ``not_open_page(contents, path)`` say them in the lesson's language (a lesson under
``ca/`` is Catalan); ``DEVICE_FULL_PAGE`` and ``NOT_OPEN_PAGE`` are the English pages.
"""

import html
import json
import urllib.parse

from tutor.i18n import N_, gettext_in, language_of_path

_STYLE = """<style>body{font-family:sans-serif;max-width:36em;margin:4em auto;padding:0 1em;color:#1a1a1a;
line-height:1.5} a{display:inline-block;margin-top:1em;padding:.5em 1.2em;background:#1f4e9c;color:#fff;
border-radius:4px;text-decoration:none}</style>"""
NOT_OPEN_REFRESH_S = 30
"""Without scripts, the "Not open yet" page reloads this often (with them, it opens its lesson when it opens)."""
_WAIT_FOR_THE_LESSON = """<script>
(function () {
  "use strict";
  // Ask the class's server whether this lesson is open: it answers when the teacher opens it (or after a while).
  // At most one question at a time; a quick answer that says "not open" (or none) waits before the next one.
  const ask = %(ask)s;
  function again() {
    const started = Date.now();
    fetch(ask, {cache: "no-store"}).then((reply) => reply.ok ? reply.json() : {open: false})
      .then(function (data) {
        if (data.open) { location.reload(); return; }
        setTimeout(again, Math.max(0, 3000 - (Date.now() - started)));
      }, function () { setTimeout(again, 5000); });
  }
  again();
})();
</script>"""
_PAGE = """<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8"><meta http-equiv="refresh" content="{refresh}">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{title}</title>
{style}</head>
<body><h1>{title}</h1>
<p>{text}</p>
<a href="{href}">{link}</a>{script}</body></html>
"""


def device_full_page(path: str = "") -> str:
    """The page for a device with too many lessons open, in the language of the lesson at ``path``."""
    code = language_of_path(path)
    return _PAGE.format(
        lang=code,
        refresh=30,
        style=_STYLE,
        href="",
        script="",
        title=html.escape(gettext_in(code, N_("Too many lessons open"))),
        text=html.escape(
            gettext_in(
                code,
                N_(
                    "This computer already has as many lessons open as it may. Close the lesson tabs you do "
                    "not use, then try again: this page tries again by itself."
                ),
            )
        ),
        link=html.escape(gettext_in(code, N_("Try again"))),
    )


def not_open_page(contents: str, path: str = "") -> str:
    """The page for a lesson the teacher has not opened yet; ``contents`` is the list of lessons' address (below
    the server's base URL: ``/base/voila/render/index.ipynb``), ``path`` the lesson's. It opens the lesson as soon
    as the teacher does."""
    code = language_of_path(path)
    base = contents.split("voila/render/")[0] if "voila/render/" in contents else "/"
    ask = f"{base}rules-tutor/class/open?lesson={urllib.parse.quote(path)}"
    script = _WAIT_FOR_THE_LESSON % {"ask": json.dumps(ask).replace("<", "\\u003c")} if path else ""
    return _PAGE.format(
        lang=code,
        refresh=NOT_OPEN_REFRESH_S,
        style=_STYLE,
        href=html.escape(contents),
        script=script,
        title=html.escape(gettext_in(code, N_("Not open yet"))),
        text=html.escape(
            gettext_in(code, N_("Your teacher opens this lesson later. This page opens it by itself then."))
        ),
        link=html.escape(gettext_in(code, N_("All lessons"))),
    )


DEVICE_FULL_PAGE = device_full_page()
NOT_OPEN_PAGE = not_open_page("{contents}")
