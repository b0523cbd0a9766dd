"""The In Flanders Field controls a prompt names on the learner's turn (``TurnControls``): "Roll the dice", the
three pairs, "Stop", the cards to carry out, the May Retain cards to keep and "End turn"; and the screen's style
sheet (``EXTRA_CSS``).

The controls hold no game: ``refresh(game, mine)`` shows those the engine allows now (``Game.pairs``,
``legal_actions``, ``keepable``) and names them with ``game_words``; each click goes through the owner's click
rule (``tutor.ui.shell.LessonShell.guard``).
"""

from __future__ import annotations

from typing import Callable, Sequence

import ipywidgets as widgets

from tutor.flanders.cards import CardId
from tutor.flanders.game import Game, Phase, Play
from tutor.i18n import _
from tutor.ui.controls import button, label

from .game_words import pair_words, play_words

EXTRA_CSS = """
<style>
.iff-screen { flex-flow: row wrap; align-items: flex-start; gap: 4px 10px; }
.iff-panel { flex: 1 1 320px; min-width: 300px; max-width: 480px; }
.iff-panel .tutor-header { margin-top: 0; }
.iff-actions { flex-flow: row wrap; align-items: center; gap: 4px 4px; }
.iff-actions .jupyter-button { margin: 0; }
.iff-log { max-height: 260px; overflow-y: auto; border: 1px solid #e0e0e0; border-radius: 4px; padding: 2px 8px; }
.iff-log summary { cursor: pointer; padding: 3px 0; }
.iff-row { flex-flow: row wrap; align-items: center; margin: 2px 0; }
.iff-results table { border-collapse: collapse; margin: 6px 0; font-size: 13.5px; width: auto; max-width: 100%;
  line-height: 1.3; }
.iff-results th, .iff-results td { border: 1px solid #bbb; padding: 3px 6px; text-align: left; vertical-align: top; }
.iff-results td:nth-child(n+4) { text-align: right; font-variant-numeric: tabular-nums; }
.iff-results caption { text-align: left; font-weight: bold; padding-bottom: 4px; }
.jupyter-widgets button:disabled, .jupyter-button:disabled { opacity: 0.45; cursor: not-allowed; }
</style>
"""
Guard = Callable[[str, Callable[[], None]], None]


def show_if(control: widgets.Widget, shown: bool) -> None:
    """Show ``control`` (enabled) or take it off the page (disabled)."""
    control.layout.display = None if shown else "none"
    if hasattr(control, "disabled"):
        control.disabled = not shown


class TurnControls:
    """The learner's turn, in ``actions`` between the ``lead`` controls (Continue, Bots play, Next step) and the
    ``tail`` ones (Finish the game). Buttons and boxes are made once and relabelled: a control that stays in the
    page can take the focus at once (a new one is drawn a moment later)."""

    def __init__(
        self,
        guard: Guard,
        *,
        on_roll: Callable[[], None],
        on_stop: Callable[[], None],
        on_pair: Callable[[int], None],
        on_play: Callable[[Play], None],
        on_end: Callable[[], None],
        lead: Sequence[widgets.Widget],
        tail: Sequence[widgets.Widget],
        keeping: bool = True,
    ) -> None:
        """``keeping=False``: no "Keep for a later turn" boxes (a lesson before "May Retain" is taught)."""
        self._guard, self._on_play, self._lead, self._tail = guard, on_play, list(lead), list(tail)
        self.keeping = keeping
        self.roll_button = button(_("Roll the dice"), _("Roll the three dice"), style="primary")
        self.stop_button = button(_("Stop and carry out my cards"), _("Stop rolling: carry out the cards you took"))
        self.pair_buttons = [button("·", _("Take the card on this pair's sum"), width="auto") for _k in range(3)]
        self.end_button = button(
            _("End turn"),
            _("Discard the used cards (keep the ticked May Retain cards)") if keeping else _("Discard the used cards"),
            style="warning",
        )
        self.keep_label = label(_("Keep for a later turn:"))
        self.play_buttons: list[widgets.Button] = []
        """The cards the learner may carry out now (shown; the others of the pool are hidden)."""
        self.keep_checks: dict[CardId, widgets.Checkbox] = {}
        self.plays: list[Play] = []
        self._play_pool: list[widgets.Button] = []
        self._keep_pool: list[widgets.Checkbox] = []
        self.roll_button.on_click(lambda _b: guard("roll", on_roll))
        self.stop_button.on_click(lambda _b: guard("stop", on_stop))
        for k, b in enumerate(self.pair_buttons):
            b.on_click(lambda _b, k=k: guard(f"pair{k}", lambda: on_pair(k)))
        self.end_button.on_click(lambda _b: guard("end", on_end))
        self.actions = widgets.HBox()
        self.actions.add_class("iff-actions")
        self._pool(plays=6, keeps=3)

    def _pool(self, *, plays: int, keeps: int) -> None:
        """At least ``plays`` card buttons and ``keeps`` keep boxes in the action row."""
        while len(self._play_pool) < plays:
            b = button("", _("Carry out this card now"), style="info")
            k = len(self._play_pool)
            b.on_click(lambda _b, k=k: self._guard(self._play_control(k), lambda: self._play_card(k)))
            self._play_pool.append(b)
        while len(self._keep_pool) < keeps:
            self._keep_pool.append(widgets.Checkbox(value=False, indent=False, layout=widgets.Layout(width="auto")))
        # the keep boxes before the cards: from the first card, End turn is only the other cards away
        self.actions.children = [
            *self._lead,
            self.roll_button,
            self.stop_button,
            *self.pair_buttons,
            self.keep_label,
            *self._keep_pool,
            *self._play_pool,
            self.end_button,
            *self._tail,
        ]

    def _play_control(self, index: int) -> str:
        """The click rule's name for card button ``index``: its card (relabelled with the next card at once, the
        button then plays that one at the next press)."""
        return f"play-{self.plays[index]}" if index < len(self.plays) else f"play{index}"

    def _play_card(self, index: int) -> None:
        """Card button ``index``: the card it names now."""
        if index < len(self.plays):
            self._on_play(self.plays[index])

    def refresh(self, game: Game, mine: bool) -> None:
        """Show only the controls the learner may use now (``mine``: the learner's turn, nothing playing); the
        others leave the page and the Tab order."""
        phase = game.phase
        show_if(self.roll_button, mine and phase in (Phase.ROLL, Phase.AGAIN))
        self.roll_button.description = _("Roll again") if phase is Phase.AGAIN else _("Roll the dice")
        show_if(self.stop_button, mine and phase is Phase.AGAIN)
        self._show_pairs(game, mine and phase is Phase.CHOOSE and game.dice is not None)
        resolving = mine and phase is Phase.RESOLVE
        self.plays = [a for a in game.legal_actions() if isinstance(a, Play)] if resolving else []
        keepable = game.keepable() if resolving and self.keeping else []
        self._pool(plays=len(self.plays), keeps=len(keepable))
        for b, action in zip(self._play_pool, self.plays + [None] * len(self._play_pool)):
            show_if(b, action is not None)
            if action is not None:
                b.description = play_words(game, action)
        self.play_buttons = self._play_pool[: len(self.plays)]
        kept = {card: box.value for card, box in self.keep_checks.items()}  # the learner's ticks stay (none at first)
        self.keep_checks = dict(zip(keepable, self._keep_pool))
        for k, box in enumerate(self._keep_pool):
            show_if(box, k < len(keepable))
            if k < len(keepable):
                box.value, box.description = kept.get(keepable[k], False), game.cards[keepable[k]].name
        show_if(self.keep_label, bool(keepable))
        show_if(self.end_button, resolving)

    def _show_pairs(self, game: Game, choosing: bool) -> None:
        """The three pairs of the roll, each naming the card its sum takes (a sum offered twice: once)."""
        pairs = game.pairs() if choosing else ()
        takes = {p.total for p in pairs if p.offered}  # a sum offered twice: its repeat's tooltip says so too
        for k, b in enumerate(self.pair_buttons):
            show_if(b, choosing)
            if k >= len(pairs):
                continue
            pair = pairs[k]
            a, c = pair.values
            total = pair.total
            b.disabled = not pair.offered
            b.description = _("{a} + {b} = {total}: {does}").format(a=a, b=c, total=total, does=pair_words(game, pair))
            b.tooltip = (
                _("Take the card on space {n}").format(n=total)
                if total in takes
                else _("No card to take on space {n}").format(n=total)
                if pair.space
                else _("No space")
            )
