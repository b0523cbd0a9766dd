"""The landing page: every game of ``tutor.core.games.GAMES`` with its lessons, by title, as links.

    from tutor.ui.landing import landing
    landing()            # in lessons/index.ipynb: lessons/<game>/*.ipynb, relative to the notebook

A lesson's title is the first Markdown heading of its notebook, its summary its first sentence (or
``metadata.tutor.summary``); the learner's progress shows beside each (``tutor.ui.lessons``). Links are
relative to the folder that holds the games' lesson folders, so they work in
Voila (``/voila/render/index.ipynb`` -> ``/voila/render/flamme_rouge/...``).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from tutor.core.games import GAMES, GameEntry
from tutor.i18n import _

from .lessons import CSS, lessons_in, list_html, progress_script


def landing_html(root: str | Path = ".", games: Iterable[GameEntry] | None = None) -> str:
    """One section per game: its title and summary, then its lessons in order, each a link with its one-line
    summary and the learner's progress (kept in the browser), or "lessons coming"."""
    root = Path(root)
    parts = [CSS]
    for game in GAMES.values() if games is None else games:
        lessons = lessons_in(root / game.lessons)
        body = (
            list_html(lessons, f"{game.lessons}/")
            if lessons
            else "<p><i>" + html.escape(_("Lessons coming.")) + "</i></p>"
        )
        parts.append(
            f"<section class='tutor-game' id='{html.escape(game.id)}'><h2>{html.escape(game.title)}</h2>"
            f"<p>{html.escape(_(game.summary))}</p>{body}</section>"
        )
    return "".join(parts) + progress_script()


@dataclass(frozen=True)
class Landing:
    """Displays as the landing page's HTML in a notebook (``_repr_html_``)."""

    root: Path

    def _repr_html_(self) -> str:
        return landing_html(self.root)


def landing(root: str | Path = ".") -> Landing:
    return Landing(Path(root))
