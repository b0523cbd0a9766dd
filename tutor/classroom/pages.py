"""The short pages class mode sends instead of a lesson, with no kernel started (``tutor.server.class_mode``'s lesson page
handler): a device with too many lesson pages open (``PAGES_PER_CLIENT``), and a lesson the teacher has not opened
yet (Pace). Both try again by themselves.

``device_full_page(path)`` and ``not_open_page(contents, path)`` say them in the lesson's language (a lesson under
``ca/`` is Catalan); ``DEVICE_FULL_PAGE`` and ``NOT_OPEN_PAGE`` are the English pages.
"""

import html

from tutor.i18n import N_, gettext_in, language_of_path

_STYLE = """<style>body{font-family:sans-serif;max-width:36em;margin:4em auto;padding:0 1em;color:#1a1a1a;
line-height:1.5} a{display:inline-block;margin-top:1em;padding:.5em 1.2em;background:#1f4e9c;color:#fff;border-radius:4px;
text-decoration:none}</style>"""
_PAGE = """<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8"><meta http-equiv="refresh" content="{refresh}">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{title}</title>
{style}</head>
<body><h1>{title}</h1>
<p>{text}</p>
<a href="{href}">{link}</a></body></html>
"""


def device_full_page(path: str = "") -> str:
    """The page for a device with too many lessons open, in the language of the lesson at ``path``."""
    code = language_of_path(path)
    return _PAGE.format(lang=code, refresh=30, style=_STYLE, href="",
                        title=html.escape(gettext_in(code, N_("Too many lessons open"))),
                        text=html.escape(gettext_in(code, N_(
                            "This computer already has as many lessons open as it may. Close the lesson tabs you do "
                            "not use, then try again: this page tries again by itself."))),
                        link=html.escape(gettext_in(code, N_("Try again"))))


def not_open_page(contents: str, path: str = "") -> str:
    """The page for a lesson the teacher has not opened yet; ``contents`` is the list of lessons' address."""
    code = language_of_path(path)
    return _PAGE.format(lang=code, refresh=20, style=_STYLE, href=html.escape(contents),
                        title=html.escape(gettext_in(code, N_("Not open yet"))),
                        text=html.escape(gettext_in(code, N_(
                            "Your teacher opens this lesson later. This page opens it by itself then."))),
                        link=html.escape(gettext_in(code, N_("All lessons"))))


DEVICE_FULL_PAGE = device_full_page()
NOT_OPEN_PAGE = not_open_page("{contents}")
