"""The picture of the 216 rolls, and how the bust odds are worked out (In Flanders Field, lesson 3).

``rolls_picture()`` draws, for each card space, how many of the 216 rolls of three dice offer its sum (a bar out
of 216, with the count), and says why 6, 7 and 8 come up most: two dice make 7 in 6 ways, 3 in only 2. Every
number comes from ``tutor.flanders.odds`` (``DICE``, ``ROLLS``, ``SPACES``, ``pair_sums``); nothing here is a rule
of its own. ``worked_out()`` is what "How is this worked out?" opens while the learner decides to roll again or
stop: the bust count for the spaces with a card, and the expected troop loss as chance x troop pieces at stake.

    help = OddsHelp(picture=True)        # .button (in the secondary row), .body (what it opens), .picture
    help.show(odds, available)           # odds: the board's Odds; None hides them all
    RiskQuiz(...).rolls                  # the picture in the risk quiz, behind "Which sums come up most?"
"""

from __future__ import annotations

import html
from itertools import product
from typing import Iterable

import ipywidgets as widgets

from tutor.flanders.odds import DICE, ROLLS, SPACES, pair_sums
from tutor.flanders.render import Odds, percent
from tutor.i18n import _, and_list, language, ngettext, number
from tutor.ui.screen import Disclosure

CSS = """<style>
.iff-rolls { font-size: 13px; line-height: 1.35; max-width: 420px; }
.iff-rolls .row { display: flex; align-items: center; gap: 6px; margin: 1px 0; }
.iff-rolls .sum { width: 3.2em; text-align: right; font-weight: bold; }
.iff-rolls .track { flex: 1; background: #eceff1; height: 14px; border-radius: 2px; }
.iff-rolls .bar { background: #546e7a; height: 14px; border-radius: 2px; }
.iff-rolls .bar.card { background: #2e7d32; }
.iff-rolls .count { width: 6.5em; }
.iff-rolls p { margin: 4px 0; }
</style>"""


def rolls_with_sum() -> dict[int, int]:
    """Card space -> how many of the ``ROLLS`` rolls of ``DICE`` dice have a pair with that sum."""
    rolls = list(product(range(1, 7), repeat=DICE))
    return {space: sum(space in pair_sums(roll) for roll in rolls) for space in SPACES}


def two_dice_ways(total: int) -> list[str]:
    """The ways two dice make ``total``: ``["1+6", "2+5", ...]``."""
    return [f"{a}+{total - a}" for a in range(1, 7) if 1 <= total - a <= 6]


def rolls_picture(available: Iterable[int] = ()) -> str:
    """HTML: a bar for each card space, the rolls out of ``ROLLS`` that offer it (spaces in ``available``
    green), and why the middle sums come up most."""
    counts, marked = rolls_with_sum(), set(available)
    rows = "".join(
        f"<div class='row'><span class='sum'>{space}</span><span class='track'><div class='bar"
        f"{' card' if space in marked else ''}' style='width:{100 * n / ROLLS:.1f}%'></div></span>"
        f"<span class='count'>{html.escape(_('{n} of {m}').format(n=n, m=ROLLS))}</span></div>"
        for space, n in counts.items()
    )
    top = sorted(sorted(counts, key=counts.__getitem__, reverse=True)[:3])  # the three most offered sums
    middle, edge = 7, SPACES[0]
    why = _(
        "Two dice make {middle} in {middle_ways} ways ({middle_list}), but {edge} in only {edge_ways} "
        "({edge_list}). Three dice give three pairs, so the middle sums have the most chances: {top} come up "
        "most."
    ).format(
        middle=middle,
        middle_ways=len(two_dice_ways(middle)),
        middle_list=", ".join(two_dice_ways(middle)),
        edge=edge,
        edge_ways=len(two_dice_ways(edge)),
        edge_list=", ".join(two_dice_ways(edge)),
        top=and_list(top),
    )
    legend = _("Green: a space with a card now.") + " " if marked else ""
    label = _("How many of the {rolls} rolls of {dice} dice give each sum").format(rolls=ROLLS, dice=DICE)
    title = _("The {rolls} rolls of {dice} dice: how many give each sum").format(rolls=ROLLS, dice=DICE)
    return (
        f"{CSS}<div class='iff-rolls' role='group' aria-label='{html.escape(label)}'>"
        f"<p><b>{html.escape(title)}</b></p>{rows}"
        f"<p>{html.escape(legend)}{html.escape(why)}</p></div>"
    )


def worked_out(odds: Odds) -> str:
    """HTML: the bust chance as rolls out of ``ROLLS``, and the expected troop loss as chance x stake."""
    busts = round(odds.bust * ROLLS)
    loss = float(odds.expected_loss)
    chance = percent(float(odds.bust))
    first = _("{busts} of the {rolls} rolls offer no space with a card: a bust chance of {chance}.").format(
        busts=busts, rolls=ROLLS, chance=chance
    )
    second = ngettext(
        "A bust costs {n} troop piece (the grey symbols on your British cards). Expected troop loss "
        "{loss} = {chance} × {n}: what rolling again costs on average.",
        "A bust costs {n} troop pieces (the grey symbols on your British cards). Expected troop loss "
        "{loss} = {chance} × {n}: what rolling again costs on average.",
        odds.at_stake,
    ).format(n=odds.at_stake, loss=number(round(loss, 2)) if language() != "en" else f"{loss:.2f}", chance=chance)
    return f"<div class='iff-rolls'><p>{html.escape(first)}</p><p>{html.escape(second)}</p></div>"


class OddsHelp:
    """While the odds show (roll again or stop): "How is this worked out?" (``button``, ``body``: the bust count
    and the expected troop loss, closed at first) and, with ``picture=True`` (lesson 3), the picture of the
    rolls (``picture``), its spaces with a card in green."""

    def __init__(self, *, picture: bool = False) -> None:
        self.worked = widgets.HTML()
        self.picture = widgets.HTML()
        self.section = Disclosure(
            _("How is this worked out?"),
            [self.worked],
            tooltip=_("The bust chance and the expected troop loss, worked out"),
        )
        self.button, self.body = self.section.button, self.section.body
        self._with_picture = picture
        self.show(None, ())

    def show(self, odds: Odds | None, available: Iterable[int]) -> None:
        """The odds of the decision on the board (None: no decision: the button, its body and the picture go)."""
        shown = odds is not None
        self.button.layout.display = None if shown else "none"
        self.body.layout.display = None if shown and self.section.open else "none"
        self.picture.layout.display = None if shown and self._with_picture else "none"
        if odds is not None:
            self.worked.value = worked_out(odds)
            if self._with_picture:
                self.picture.value = rolls_picture(available)
