"""The legend under the board, in HTML: every colour and mark the canvas draws, with a small picture of each.

    legend_html(race)                   # the terrains of its track, its teams, and every highlight

HTML rather than canvas so that it wraps on narrow pages and screen readers read it. The pictures are inline
SVG built from the same data as the canvas (``style``), so a team mark looks the same in both.
"""

from __future__ import annotations

import html

from tutor.flamme_rouge import rules
from tutor.flamme_rouge.race import Race, TeamKind
from tutor.flamme_rouge.track import Terrain
from tutor.i18n import _, and_list
from tutor.ui.drawing import text_colour_on

from . import style
from .labels import BADGE_OFFSET, BADGE_SIZE, MARK_SIZE
from .riders import ordinal, token_label

LEGEND_CSS = """<style>
.fr-legend { font-size: 14px; line-height: 1.5; color: #222; margin: 2px 0 6px; max-width: 960px; }
.fr-legend summary { cursor: pointer; font-weight: bold; }
.fr-legend ul { display: flex; flex-wrap: wrap; gap: 2px 16px; list-style: none; padding: 0; margin: 2px 0; }
.fr-legend li { display: inline-flex; align-items: center; gap: 5px; }
.fr-legend svg { flex: none; }
.fr-legend .fr-legend-row { font-weight: bold; margin-right: 2px; }
</style>"""


def _svg(body: str, w: int = 26, h: int = 22) -> str:
    return f"<svg width='{w}' height='{h}' viewBox='0 0 {w} {h}' aria-hidden='true'>{body}</svg>"


def _points(points: style.Points, cx: float, cy: float, scale: float) -> str:
    return " ".join(f"{cx + x * scale:.1f},{cy + y * scale:.1f}" for x, y in points)


def token_svg(colour_name: str, letter: str = "", size: int = 28) -> str:
    """A rider token as the board draws it: a disc in the team colour with the team mark in its middle, and the
    rider's letter in a white badge at its upper left (a team without a mark: the letter in the middle)."""
    fill = style.token_colour(colour_name)
    r = size * 0.36
    cx = cy = size / 2 + 4
    ink = text_colour_on(fill)
    font = "font-weight='bold' text-anchor='middle' font-family='Helvetica, Arial, sans-serif'"
    body = f"<circle cx='{cx}' cy='{cy}' r='{r:.1f}' fill='{fill}' stroke='#1b1b1b' stroke-width='1.2'/>"
    parts = style.team_mark(colour_name)[1]
    for points, filled in parts:
        paint = f"fill='{ink}'" if filled else f"fill='none' stroke='{ink}' stroke-width='{max(1.5, r * 0.16):.1f}'"
        body += f"<polygon points='{_points(points, cx, cy, r * MARK_SIZE)}' {paint}/>"
    if letter and parts:
        bx, by, br = cx - r * BADGE_OFFSET, cy - r * BADGE_OFFSET, r * BADGE_SIZE
        body += (
            f"<circle cx='{bx:.1f}' cy='{by:.1f}' r='{br:.1f}' fill='#fff' stroke='#1b1b1b' stroke-width='0.8'/>"
            f"<text x='{bx:.1f}' y='{by + 3.8:.1f}' font-size='11' {font} fill='{style.INK}'>"
            f"{html.escape(letter)}</text>"
        )
    elif letter:
        body += (
            f"<text x='{cx}' y='{cy + r * 0.4:.1f}' font-size='{r * 1.1:.0f}' {font} fill='{ink}'>"
            f"{html.escape(letter)}</text>"
        )
    return _svg(body, size + 4, size + 4)


def _team_entries(race: Race) -> list[str]:
    entries = []
    for team in race.teams.values():
        kinds = {token_label(race, r) for r in team.riders}
        letter = next(iter(kinds)) if len(kinds) == 1 else ""  # riders told apart by number: no one letter
        mark = style.mark_name(team.colour)
        name = (
            style.team_name(team.name)
            if team.name != team.colour
            else _("{colour} team").format(colour=style.team_name(team.colour))
        )
        if team.kind is TeamKind.PELOTON:
            name = _("{team} (Peloton, bot)").format(team=name)
        elif team.kind is TeamKind.MUSCLE:
            name = _("{team} (Muscle, bot)").format(team=name)
        if mark:
            name = _("{team}, mark: {mark}").format(team=name, mark=mark)
        numbers = sorted(label for label in kinds if label.isdigit())
        if len(numbers) > 1:  # the Peloton's two rouleurs
            name = _("{team}, its riders numbered {numbers}").format(team=name, numbers=and_list(numbers))
        entries.append(f"{token_svg(team.colour, letter)}{html.escape(name)}")
    return entries


def _terrain_entries(race: Race) -> list[str]:
    track = race.track
    present = [t for t in style.TERRAIN_FILL if t is Terrain.FLAT or any(sq.terrain is t for sq in track.squares)]
    entries = []
    for terrain in present:
        glyph = style.TERRAIN_GLYPH.get(terrain, "")
        body = (
            f"<rect x='1' y='3' width='22' height='16' fill='{style.TERRAIN_FILL[terrain]}' "
            f"stroke='{style.ROAD_EDGE}'/>"
        )
        if glyph:
            body += (
                f"<text x='12' y='15.5' font-size='11' font-weight='bold' text-anchor='middle' "
                f"fill='{style.TERRAIN_INK[terrain]}'>{glyph}</text>"
            )
        entries.append(_svg(body) + html.escape(style.terrain_name(terrain)))
    road = style.TERRAIN_FILL[Terrain.FLAT]
    if min(track.lanes) == 1:  # Peloton expansion: narrow squares (issue 8)
        entries.append(
            _svg(
                f"<rect x='1' y='1' width='24' height='20' fill='{style.VERGE}'/><rect x='1' y='11' "
                f"width='24' height='10' fill='{road}' stroke='{style.ROAD_EDGE}'/>"
            )
            + html.escape(_("one-lane square (pale verge where a lane is missing)"))
        )
    if max(track.lanes) == 3:
        entries.append(
            _svg(
                "".join(
                    f"<rect x='1' y='{1 + 7 * k}' width='24' height='6.5' fill='{road}' stroke='{style.ROAD_EDGE}'/>"
                    for k in range(3)
                )
            )
            + html.escape(_("three-lane square"))
        )
    if track.start:
        entries.append(
            _svg(
                "<rect x='9' y='1' width='6' height='20' fill='#222'/>"
                "<rect x='11' y='1' width='2' height='20' fill='#fff'/>"
            )
            + html.escape(_("start line"))
        )
    if track.finish is not None:
        chequers = "".join(
            f"<rect x='{7 + 5 * c}' y='{1 + 5 * r}' width='5' height='5' fill='#222'/>"
            for r in range(4)
            for c in range(2)
            if (r + c) % 2 == 0
        )
        entries.append(
            _svg("<rect x='7' y='1' width='10' height='20' fill='#fff' stroke='#222'/>" + chequers)
            + html.escape(_("finish line"))
        )
    if max(track.lanes) >= 2:
        entries.append(
            _svg(
                f"<rect x='1' y='4' width='24' height='14' fill='{style.ROAD_EDGE}'/>"
                "<rect x='1' y='8.5' width='24' height='1.6' fill='#fff'/>"
                "<rect x='1' y='11.5' width='24' height='1.6' fill='#fff'/>"
            )
            + html.escape(_("double line: below it the right lane, which is ahead on a shared square"))
        )
    entries.append(html.escape(_("the numbers under the road count the squares")))
    return entries


def _chip_words(race: Race) -> str:
    """What a card chip by a rider means, with what the terrain of this track does to it."""
    terrains = {sq.terrain for sq in race.track.squares}
    if Terrain.ASCENT in terrains and Terrain.DESCENT in terrains:
        words = _(
            "its revealed card: the squares it will move (on a climb it moves at most {limit} and from a "
            "descent at least {minimum})"
        )
    elif Terrain.ASCENT in terrains:
        words = _("its revealed card: the squares it will move (on a climb it moves at most {limit})")
    elif Terrain.DESCENT in terrains:
        words = _("its revealed card: the squares it will move (from a descent at least {minimum})")
    else:
        words = _("its revealed card: the squares it will move")
    return html.escape(words.format(**rules.terrain_numbers()))  # the engine's limits (track.ASCENT_MAXIMUM ...)


def _mark_entries(race: Race) -> list[str]:
    ring = style.HIGHLIGHT
    card = (
        f"<rect x='4' y='4' width='16' height='14' fill='{style.CARD_FACE}' stroke='{style.CARD_BORDER}'/>"
        f"<text x='12' y='15' font-size='11' font-weight='bold' text-anchor='middle'>5</text>"
    )
    e2 = (
        f"<rect x='1' y='4' width='22' height='14' fill='{style.EXHAUSTION_FACE}' stroke='{style.CARD_BORDER}'/>"
        f"<text x='12' y='15' font-size='11' font-weight='bold' text-anchor='middle' fill='#fff'>E2</text>"
    )
    return [
        _svg(f"<circle cx='13' cy='11' r='9' fill='none' stroke='{ring}' stroke-width='3.5'/>")
        + html.escape(_("moves next")),
        _svg(f"<circle cx='13' cy='11' r='9' fill='none' stroke='{ring}' stroke-width='3' stroke-dasharray='4 3'/>")
        + html.escape(_("its cards are in the panel below")),
        _svg(card) + _chip_words(race),
        _svg(
            f"<circle cx='5' cy='11' r='4' fill='none' stroke='{ring}' stroke-width='2'/><line x1='9' y1='11' "
            f"x2='26' y2='11' stroke='{ring}' stroke-width='2' stroke-dasharray='4 3'/>",
            28,
        )
        + html.escape(_("the last move: from the small ring to the rider")),
        _svg(
            f"<rect x='2' y='2' width='22' height='18' fill='none' stroke='{style.WARNING}' stroke-width='2.5'/>"
            f"<path d='M6 5 L20 17 M20 5 L6 17' stroke='{style.WARNING}' stroke-width='2'/>"
        )
        + html.escape(_("a full square the rider could not stop on")),
        _svg(
            f"<rect x='2' y='2' width='24' height='18' rx='5' fill='none' stroke='{style.PACK}' stroke-width='2.5'/>",
            28,
        )
        + html.escape(_("a pack (riders with no empty square between them)")),
        _svg(
            f"<rect x='1' y='4' width='24' height='14' rx='4' fill='{style.SLIPSTREAM}'/><text x='13' y='15' "
            "font-size='11' font-weight='bold' text-anchor='middle' fill='#fff'>+1</text>"
        )
        + html.escape(_("squares gained by slipstream")),
        _svg(e2) + html.escape(_("took an exhaustion card")),
        _svg(
            f"<rect x='1' y='4' width='26' height='14' rx='4' fill='{style.WINNER}'/><text x='14' y='15' "
            f"font-size='11' font-weight='bold' text-anchor='middle' fill='#000'>{html.escape(ordinal(1))}</text>",
            28,
        )
        + html.escape(_("finishing place (the winner is {first})").format(first=ordinal(1))),
        _svg(
            f"<rect x='2' y='2' width='22' height='18' fill='none' stroke='{style.ANSWER}' stroke-width='3' "
            "stroke-dasharray='5 3'/>"
        )
        + html.escape(_("a quiz: the answer, and your guess")),
        _svg(
            f"<rect x='1' y='4' width='26' height='14' rx='4' fill='{style.INK}'/><text x='14' y='15' "
            "font-size='11' font-weight='bold' text-anchor='middle' fill='#fff'>2 ▶</text>",
            28,
        )
        + html.escape(_("riders off the part of the road shown")),
    ]


def legend_html(race: Race, *, open_: bool = True, folding: bool = True) -> str:
    """The whole legend: road, teams (colour and mark), and the marks the board draws; in a ``<details>``
    (open unless ``open_`` is False), or without one (``folding=False``: a widget's disclosure shows it)."""
    rows = [
        (_("Road:"), _terrain_entries(race)),
        (_("Teams:"), _team_entries(race)),
        (_("Marks:"), _mark_entries(race)),
    ]
    body = "".join(
        f"<ul><li class='fr-legend-row'>{html.escape(title)}</li>"
        + "".join(f"<li>{entry}</li>" for entry in entries)
        + "</ul>"
        for title, entries in rows
    )
    if not folding:
        return f"{LEGEND_CSS}<div class='fr-legend'>{body}</div>"
    summary = html.escape(_("Legend: what the board shows (S sprinteur, R rouleur)"))
    return (
        f"{LEGEND_CSS}<details class='fr-legend'{' open' if open_ else ''}><summary>{summary}</summary>{body}</details>"
    )
