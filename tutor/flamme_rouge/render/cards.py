"""The card panel: the hand, played card and piles of the riders of interest.

Energy cards are cream with the value in black; exhaustion cards are brick red
with a white "E2"; a face-down card shows its back. ``CardPanel`` says which
riders to show and which played cards are still secret.
"""

from __future__ import annotations

from dataclasses import dataclass

from ipycanvas import Canvas

from tutor.flamme_rouge.cards import Card
from tutor.flamme_rouge.race import Race, Rider
from tutor.i18n import _
from tutor.ui.drawing import rounded_rect, text_colour_on
from tutor.ui.drawing import text as write

from . import style
from .geometry import MARGIN, MIN_TEXT, PANEL_H, View
from .riders import draw_discs, rider_colours, token_label

CARD_W, CARD_H = 34, 48
MINI_W, MINI_H = 22, 30
MAX_COLUMNS = 5
"""Up to four riders get a full column (hand, played card, recycled pile); five get narrow columns, their hand as
small cards (lesson 5 shows its five riders)."""
FULL_COLUMN_W = 4 * (CARD_W + 4) + 14 + CARD_W
CARDS_DY = 46
"""The cards' row, under a column's name and counts (from the panel's top)."""
Box = tuple[float, float, float, float]
"""x, y, width, height (CSS pixels)."""
NARROW_COLUMN_W = 4 * (MINI_W + 4) + 10 + CARD_W + 8
"""The narrowest column (its hand as small cards, no recycled pile): a narrow board shows the riders whose
columns fit, the active rider first."""


@dataclass(frozen=True)
class CardPanel:
    riders: tuple[str, ...] = ()
    """Riders whose cards are shown, one column each (at most four)."""
    secret: frozenset[str] = frozenset()
    """Riders whose played card is shown face down (another player's choice in the energy phase)."""
    compact: bool = False
    """Show only every rider's played card in one row (quizzes), not hands and piles."""
    active: str | None = None
    """The rider being played: always shown, in the first column, even with more riders than columns."""
    played: tuple[tuple[str, str], ...] = ()
    """Compact panel: (rider, card) in movement order, as revealed (the race forgets them once played)."""
    moved: frozenset[str] = frozenset()
    """Compact panel: riders that have moved already (their card is shown greyed, "moved")."""
    in_order: bool = True
    """Compact panel: in movement order, titled so; False (a quiz asking the order): by rider name, untitled
    order."""

    def columns(self, race: Race) -> list[str]:
        """The riders shown, at most ``MAX_COLUMNS``: the active rider first, then the others in order."""
        riders = [r for r in self.riders if r in race.riders]
        if self.active in race.riders:
            riders = [self.active] + [r for r in riders if r != self.active]
        return riders[:MAX_COLUMNS]

    def hand_slots(self, race: Race, view: View) -> list[tuple[str, int, Box]]:
        """Where each shown rider's four hand slots are drawn: (rider, slot, (x, y, w, h)) in the view's units
        (CSS pixels); none on a compact panel or a view without cards."""
        if not view.cards or self.compact:
            return []
        riders, per_row, width = self.layout(race, view)
        slot_w, slot_h = (MINI_W, MINI_H) if width < FULL_COLUMN_W + 8 else (CARD_W, CARD_H)
        return [
            (
                rid,
                slot,
                (
                    MARGIN + (i % per_row) * width + 4 + slot * (slot_w + 4),
                    view.panel_top + (i // per_row) * PANEL_H + CARDS_DY + CARD_H - slot_h,
                    slot_w,
                    slot_h,
                ),
            )
            for i, rid in enumerate(riders)
            for slot in range(4)
        ]

    def layout(self, race: Race, view: View) -> tuple[list[str], int, float]:
        """The riders whose columns are drawn, how many columns a row holds (a narrow board has rows of fewer
        columns) and a column's width."""
        per_row = max(1, int((view.width - 2 * MARGIN) // NARROW_COLUMN_W))
        riders = self.columns(race)[: per_row * view.panel_rows]
        per_row = max(1, min(per_row, len(riders)))
        return riders, per_row, (view.width - 2 * MARGIN) / per_row

    def card_at(self, race: Race, view: View, x: float, y: float) -> tuple[str, int] | None:
        """The (rider, slot) of the hand card drawn under a point (CSS pixels: ``Scene.on_click``'s), or None."""
        return next(
            (
                (rid, slot)
                for rid, slot, (left, top, w, h) in self.hand_slots(race, view)
                if left <= x <= left + w and top <= y <= top + h
            ),
            None,
        )


def draw_card_panel(canvas: Canvas, view: View, race: Race, panel: CardPanel) -> None:
    """Draw the panel below the road (clears its area first); nothing when the view has no card panel."""
    if not view.cards:
        return
    top = view.panel_top
    canvas.clear_rect(0, top - 2, view.width, view.panel_h + 4)
    canvas.fill_style = "#f6f5f0"
    rounded_rect(canvas, MARGIN / 2, top, view.width - MARGIN, view.panel_h, 8)
    canvas.fill()
    if panel.compact:
        _draw_played_row(canvas, view, race, panel)
        return
    riders, per_row, width = panel.layout(race, view)
    if not riders:
        write(
            canvas,
            _("No rider selected: the card panel shows the hands of the riders you play."),
            MARGIN,
            top + PANEL_H / 2,
            colour=style.MUTED,
        )
        return
    colours = rider_colours(race)
    slots = panel.hand_slots(race, view)
    for i, rid in enumerate(riders):
        _draw_rider_column(
            canvas,
            race,
            rid,
            MARGIN + (i % per_row) * width,
            top + (i // per_row) * PANEL_H,
            width,
            colours[rid],
            secret=rid in panel.secret,
            slots=[box for r, _slot, box in slots if r == rid],
        )


def _draw_rider_column(
    canvas: Canvas,
    race: Race,
    rider_id: str,
    x: float,
    top: float,
    width: float,
    colour: str,
    secret: bool,
    slots: list[Box],
) -> None:
    """One rider's column; ``slots``: where its four hand cards go (``CardPanel.hand_slots``, which a click on a
    card is mapped through)."""
    rider = race.riders[rider_id]
    _mini_token(canvas, x + 12, top + 15, colour, token_label(race, rider_id), rider.colour)
    write(canvas, f"{rider_id}  ({rider.kind})", x + 28, top + 15, size=13, bold=True, max_width=width - 34)
    write(canvas, stats_line(rider, width - 34), x + 28, top + 33, size=12, colour=style.MUTED)
    cards_y = top + CARDS_DY
    slot_w = slots[0][2]
    for slot, (left, y, w, h) in enumerate(slots):
        card = rider.hand[slot] if slot < len(rider.hand) else None
        draw_card(canvas, left, y, card, w=w, h=h, accent=colour)
    _caption(canvas, _("hand (drawn)"), x + 4 + 2 * (slot_w + 4) - 2, cards_y + CARD_H + 9)
    played_x = x + 4 + 4 * (slot_w + 4) + 10
    draw_card(canvas, played_x, cards_y, rider.played, accent=colour, face_down=secret)
    _caption(canvas, _("played"), played_x + CARD_W / 2, cards_y + CARD_H + 9)
    pile_x = played_x + CARD_W + 14
    room = int((x + width - 8 - pile_x) // (MINI_W + 3))
    if room >= 3:
        _draw_recycled(canvas, rider.recycled, pile_x, cards_y + CARD_H - MINI_H, room, colour)
        caption = _("recycled (face up under the deck)") if room >= 8 else _("recycled")
        _caption(canvas, caption, pile_x, cards_y + CARD_H + 9, align="left")


STATS_CHAR_W = 6.4
"""Average width of a 12 px character, to choose a stats line that fits (Python has no text metrics)."""


def stats_line(rider: Rider, room: float) -> str:
    """The rider's card counts in words that fit ``room`` pixels: long, short, or shortest."""
    exhaustion = sum(c.is_exhaustion for c in rider.deck.cards())
    deck, recycled, gone = len(rider.deck.face_down), len(rider.recycled), len(rider.removed)
    counts = dict(deck=deck, recycled=recycled, gone=gone, exhaustion=exhaustion)
    for line in (
        _("deck {deck} · recycled {recycled} · out of game {gone} · exhaustion cards {exhaustion}"),
        _("deck {deck} · recycled {recycled} · exhaustion cards {exhaustion}"),
        _("deck {deck} · recycled {recycled}"),
    ):  # words, never abbreviations: the cards show the rest
        line = line.format(**counts)
        if len(line) * STATS_CHAR_W <= room:
            return line
    return line


def _draw_recycled(canvas: Canvas, recycled: list[Card], x: float, y: float, room: int, accent: str) -> None:
    """The newest recycled cards as small face-up cards, with "+n" when there are more."""
    shown = recycled[-room:] if len(recycled) <= room else recycled[-(room - 1) :]
    if len(recycled) > len(shown):
        write(canvas, f"+{len(recycled) - len(shown)}", x + 2, y + MINI_H / 2, size=MIN_TEXT, colour=style.MUTED)
        x += MINI_W + 3
    for i, card in enumerate(shown):
        draw_card(canvas, x + i * (MINI_W + 3), y, card, w=MINI_W, h=MINI_H, accent=accent)
    if not recycled:
        write(canvas, _("none yet"), x, y + MINI_H / 2, size=MIN_TEXT, colour=style.MUTED)


def _draw_played_row(canvas: Canvas, view: View, race: Race, panel: CardPanel) -> None:
    """Every rider's played card in movement order (the order is fixed when the cards are revealed)."""
    top = view.panel_top
    played = list(panel.played) or [
        (r, str(race.riders[r].played)) for r in race.to_move if race.riders[r].played is not None
    ]
    title = _("Played cards, in movement order (frontmost rider first):") if panel.in_order else _("Played cards:")
    if not panel.in_order:
        played.sort()
    write(canvas, title, MARGIN, top + 15, size=13, bold=True)
    if not played:
        write(canvas, _("no cards played"), MARGIN, top + 54, colour=style.MUTED)
        return
    colours = rider_colours(race)
    per_row = -(-len(played) // view.panel_rows)  # a narrow board: the cards in rows
    step = min(118, (view.width - 2 * MARGIN) / per_row)
    for i, (rid, label) in enumerate(played):
        middle = MARGIN + (i % per_row + 0.5) * step  # token and card side by side, the name under them
        top = view.panel_top + (i // per_row) * (PANEL_H - 14)
        _mini_token(canvas, middle - 19, top + 50, colours[rid], token_label(race, rid), race.riders[rid].colour)
        card = None if label in ("", "None") else Card.parse(label)
        draw_card(canvas, middle - 5, top + 26, card, accent=colours[rid], face_down=rid in panel.secret)
        write(canvas, rid, middle, top + 86, size=12, bold=True, align="center", max_width=step - 4)
        if rid in panel.moved:
            write(canvas, _("moved"), middle, top + 101, size=MIN_TEXT, colour=style.MUTED, align="center")


def draw_card(
    canvas: Canvas,
    x: float,
    y: float,
    card: Card | None,
    *,
    w: float = CARD_W,
    h: float = CARD_H,
    accent: str | None = None,
    face_down: bool = False,
) -> None:
    """One card: an empty dashed slot (None), its back, an energy card or an exhaustion card."""
    if card is None:
        canvas.stroke_style = "#b9b9b9"
        canvas.line_width = 1.2
        canvas.set_line_dash([3, 3])
        rounded_rect(canvas, x, y, w, h, 4)
        canvas.stroke()
        canvas.set_line_dash([])
        return
    face = style.CARD_BACK if face_down else style.EXHAUSTION_FACE if card.is_exhaustion else style.CARD_FACE
    canvas.fill_style = face
    rounded_rect(canvas, x, y, w, h, 4)
    canvas.fill()
    canvas.stroke_style = style.CARD_BORDER
    canvas.line_width = 1
    canvas.stroke()
    if face_down:
        write(canvas, "?", x + w / 2, y + h / 2, size=int(h * 0.4), bold=True, colour="#cfd8dc", align="center")
        return
    if accent and not card.is_exhaustion:
        canvas.fill_style = accent
        canvas.fill_rect(x + 3, y + 3, w - 6, 4)
    ink = style.EXHAUSTION_INK if card.is_exhaustion else style.INK
    size = max(MIN_TEXT, int(h * (0.32 if card.is_exhaustion else 0.42)))
    write(
        canvas, str(card), x + w / 2, y + h / 2 + 2, size=size, bold=True, colour=ink, align="center", max_width=w - 2
    )


def _mini_token(canvas: Canvas, x: float, y: float, colour: str, label: str, colour_name: str = "") -> None:
    """A small token beside a rider's name: its team mark (or, for a team without one, its letter)."""
    draw_discs(canvas, [x], [y], 10, [colour], [colour_name])
    if not style.team_mark(colour_name)[1]:
        write(canvas, label, x, y + 0.5, size=MIN_TEXT, bold=True, colour=text_colour_on(colour), align="center")


def _caption(canvas: Canvas, text: str, x: float, y: float, align: str = "center") -> None:
    write(canvas, text, x, y, size=MIN_TEXT, colour=style.MUTED, align=align)
