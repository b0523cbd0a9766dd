"""``BreakawayBid``: the breakaway bid of the Peloton expansion, played against bots on the board.

    BreakawayBid("cobbles-24", teams=("red", "blue", "green"), learner="red", seed=0)

The learner picks the rider that bids for its team ("Draw 4 for red-S": the first
rider to draw bids, RULES.md 2), clicks one of the four cards to bid it face down
(the other three are recycled), and does the same a second time with the same
rider. The bots bid at once; after each round of bids every bid is revealed in the
table. "Decide the breakaway" ranks the totals (ties go to the rider further back on
the grid), and the canvas shows the winners paying 2 exhaustion cards and riding past
the start line. A click at the wrong time shows a warning and changes nothing.

Attributes for lessons and tests: ``race``, ``scene``, ``status``, ``narration``
(HTML; ``narration_lines``), ``bids_table`` (HTML), ``draw_buttons`` (rider ->
Button), ``card_buttons`` (4), ``decide_button``, ``back_button``,
``restart_button``, ``seed``, ``decision`` (the ``BreakawayDecided`` event, once
decided), ``teachers`` (the shuffle number, closed), ``focused`` (where focus went after the last action:
``next_control()``). Built from ``tutor.ui`` pieces and ``tutor.flamme_rouge.render``.
"""

from __future__ import annotations

import html
from typing import Callable, Sequence

import ipywidgets as widgets

from tutor.flamme_rouge import rules
from tutor.flamme_rouge.bots import autoplay
from tutor.flamme_rouge.cards import Card
from tutor.flamme_rouge.events import BreakawayDecided, BreakawayStart, Event
from tutor.flamme_rouge.race import Draw, Phase, Race
from tutor.flamme_rouge.render import CardPanel, Chip, Highlights, Scene, legend_html
from tutor.flamme_rouge.render.describe import describe_race
from tutor.ui.controller import UndoController
from tutor.ui.controls import CSS, StatusLine, button, header, label
from tutor.ui.narration import and_list
from tutor.ui.screen import (Disclosure, Focusing, MotionSetting, SecondaryRow, board_frame, changed_words,
                             prompt_row, teacher_section)
from tutor.ui.text_view import TextView

from .narration import Line, computer_plays, narrate, to_html

BIDS = (Phase.BID_1, Phase.BID_2)
BIDDING = (*BIDS, Phase.BREAKAWAY)
TABLE_CSS = """
<style>
.tutor-bids { border-collapse: collapse; font-size: 14px; margin: 4px 0; }
.tutor-bids th, .tutor-bids td { border-bottom: 1px solid #ddd; padding: 3px 10px; text-align: left; }
.tutor-bids th { background: #f3f6f9; font-weight: 600; }
.tutor-bids tr.tutor-winner td { background: #fff4e5; font-weight: 600; }
</style>
"""


class BreakawayBid(Focusing, widgets.VBox):
    """The learner's team bids for the breakaway against bot teams."""

    def __init__(self, stage: str = "cobbles-24", teams: Sequence[str] = ("red", "blue", "green"), *,
                 learner: str = "red", bot: str = "heuristic", seed: int = 0, single_riders: bool = False,
                 peloton: bool = False, muscle: int = 0, title: str = ""):
        super().__init__()
        if learner not in teams:
            raise ValueError(f"learner: {learner!r} is not one of the teams {', '.join(teams)}")
        self.learner, self.title = learner, title

        def rebuild(new_seed: int) -> Race:
            return Race.new(stage, list(teams), bots={t: bot for t in teams if t != learner}, seed=new_seed,
                            breakaway=True, single_riders=single_riders, peloton=peloton, muscle=muscle)

        self._rebuild: Callable[[int], Race] = rebuild
        self.race = rebuild(seed)
        self.decision: BreakawayDecided | None = None
        self._final_bids: dict[str, list[Card]] = {}
        self.control = UndoController(lambda: self.race, self._warn)
        self._events: list[Event] = []
        self._slide_from: dict[str, tuple[int, int]] = {}
        """Positions before the breakaway step (where the winners' trails start)."""
        self.narration_lines: list[Line] = []

        self.scene = Scene(self.race.track)
        self.header = widgets.HTML()
        self.status = StatusLine()
        self.narration = widgets.HTML()
        self.bids_table = widgets.HTML()
        self.legend = widgets.HTML(legend_html(self.race, folding=False))
        riders = self.race.teams[learner].riders
        self.draw_buttons = {rid: self._draw_button(rid) for rid in riders}
        self.card_buttons = [self._card_button(i) for i in range(4)]
        self.decide_button = button("Decide the breakaway ▸", "Rank the bid totals and start the breakaway riders",
                                    style="primary")
        self.decide_button.on_click(lambda _: self.learner_action(self._on_decide))
        self.back_button = button("◂ Back", "Undo the last action")
        self.back_button.on_click(lambda _: self.learner_action(self._on_back))
        self.restart_button = button("Restart", "Bid again from the start (with the shuffle number on the right)")
        self.restart_button.on_click(lambda _: self.learner_action(self._on_restart))
        self.seed = widgets.IntText(value=seed, description="Shuffle number", style={"description_width": "initial"},
                                    layout=widgets.Layout(width="230px"))
        self.text_view = TextView()  # the board in words (the bids stay face down in it too)
        self.motion = MotionSetting([self.scene])
        self.log_section = Disclosure("Log", [self.narration], tooltip="What happened at the last step")
        self.key = Disclosure("Key", [self.legend], tooltip="What the colours and marks on the board mean")
        self.teachers = teacher_section(self.seed)
        self.children = [
            widgets.HTML(CSS + TABLE_CSS), self.header, board_frame(self.scene),
            prompt_row(self.status, *self.draw_buttons.values(),
                       widgets.HBox([label("Cards drawn:"), *self.card_buttons],
                                    layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
                       self.decide_button),
            SecondaryRow([self.back_button, self.restart_button, self.motion, self.text_view.toggle,
                          self.log_section.button, self.key.button, self.teachers.button]),
            self.bids_table, self.text_view.html, self.log_section.body, self.key.body, self.teachers.body,
        ]
        self.add_class("tutor-breakaway")
        self.add_class("tutor-lesson")  # the template's rules for every lesson widget (a11y.css)
        self.scene.on_client_ready(lambda: self.redraw(redraw_track=True))
        self._show(self._intro() + self._opening_bots())

    def _draw_button(self, rider_id: str) -> widgets.Button:
        b = button(f"Draw 4 for {rider_id}", f"Breakaway bid: draw 4 cards for {rider_id}", style="info")
        b.on_click(lambda _: self.learner_action(lambda: self._on_draw(rider_id)))
        return b

    def _card_button(self, index: int) -> widgets.Button:
        b = button("·", f"Bid card {index + 1}", width="56px")
        b.add_class("tutor-card-button")
        b.on_click(lambda _: self.learner_action(lambda: self._on_card(index)))
        return b

    # ----- handlers --------------------------------------------------------------------------------------

    @property
    def bidder(self) -> str | None:
        """The learner's rider that bids (once it has drawn)."""
        return self.race.bidder(self.learner) if self.race.phase in BIDDING else self._final_bidder()

    def _final_bidder(self) -> str | None:
        mine = [rid for rid in self._final_bids if self.race.riders[rid].team == self.learner]
        return mine[0] if mine else None

    @property
    def holding(self) -> str | None:
        """The learner's rider holding drawn cards (the card buttons bid one of them)."""
        return self.race.drawing_rider(self.learner) if self.race.phase in BIDS else None

    def _on_draw(self, rider_id: str) -> None:
        if self.race.phase not in BIDS:
            self._warn("The bids are over: " + ("choose 'Decide the breakaway'." if self.race.phase is Phase.BREAKAWAY
                                                else "the breakaway is decided. Choose Back or Restart."))
            return
        self._act(lambda: self.race.draw(rider_id))

    def _on_card(self, index: int) -> None:
        rider = self.holding
        if rider is None:
            free = [rid for rid, b in self.draw_buttons.items() if not b.disabled]
            self._warn(f"Draw first: choose 'Draw 4 for {free[0]}'." if free else
                       "No cards to bid now: " + self._hint())
            return
        hand = self.race.riders[rider].hand
        if index >= len(hand):
            self._warn(f"{rider} has only {len(hand)} cards in hand.")
            return
        card = hand[index]
        self._act(lambda: self.race.play(rider, card))

    def _on_decide(self) -> None:
        race = self.race
        if race.phase is not Phase.BREAKAWAY:
            self._warn("Not yet: " + (f"your team still has to bid ({race.phase.name_in_words})."
                                      if race.phase in BIDS else "the breakaway is already decided."))
            return
        bidders = {r.id: list(r.bids) for r in race.player_riders if r.bids}
        before = race.positions()
        self.control.act(race.step, then=lambda events: self._decided(events, bidders, before))

    def _decided(self, events: list[Event], bidders: dict[str, list[Card]], before: dict[str, tuple[int, int]]
                 ) -> None:
        self._final_bids = bidders
        self.decision = next(e for e in events if isinstance(e, BreakawayDecided))
        self._events = events
        self._show(narrate(events), slide_from=before)

    def _on_back(self) -> None:
        if not self.control.back("Nothing to undo: this is the start of the bids."):
            return
        if self.race.phase in BIDDING:  # back before the decision
            self.decision, self._final_bids = None, {}
        self._events = []
        self._show([Line("Back: the position before your last action is restored.")])

    def _on_restart(self) -> None:
        self.race = self._rebuild(self.seed.value)
        self.decision, self._final_bids, self._events = None, {}, []
        self._show([Line(f"New bids (shuffle number {self.seed.value})."), *self._intro(), *self._opening_bots()])

    def _opening_bots(self) -> list[Line]:
        """The bots' first bids: Back stops after them."""
        lines = computer_plays(autoplay(self.race, steps=False))
        self.control.start_here()
        return lines

    def _act(self, action: Callable[[], list[Event]]) -> None:
        """The learner's draw or bid and the bots' replies: one undo step."""
        self.control.act(action, then=self._acted)

    def _acted(self, events: list[Event]) -> None:
        self._events = events
        self._show(narrate(events) + computer_plays(autoplay(self.race, steps=False)))

    # ----- what the learner sees -------------------------------------------------------------------------

    def _show(self, lines: list[Line], slide_from: dict[str, tuple[int, int]] | None = None) -> None:
        self.narration_lines = lines
        self.narration.value = to_html(lines)
        self._refresh_controls()
        self.status.show(self._hint(), "success" if self.decision else "info", changed=changed_words(lines))
        self.bids_table.value = self.table_html()
        self.text_view.show(describe_race(self.race, hands=[self.holding or ""]), lines)
        if slide_from is None:
            self.redraw()
        else:
            self._slide(slide_from)
        if self.acting:
            self.move_focus(self.next_control())

    def next_control(self) -> widgets.Widget | None:
        """The control the prompt names next: a card after a draw, the next draw, Decide, then Restart."""
        if self.holding:
            return self.card_buttons[0]
        free = [b for b in self.draw_buttons.values() if not b.disabled]
        if free:
            return free[0]
        return self.decide_button if not self.decide_button.disabled else self.restart_button

    def _warn(self, text: str) -> None:
        self.status.show(text, "warning")

    def _refresh_controls(self) -> None:
        race = self.race
        legal = race.legal_actions() if race.phase in BIDS else []
        drawable = {a.rider for a in legal if isinstance(a, Draw)}
        for rid, b in self.draw_buttons.items():
            b.disabled = rid not in drawable
        holder = self.holding
        hand = race.riders[holder].hand if holder else []
        for i, b in enumerate(self.card_buttons):
            b.description = str(hand[i]) if i < len(hand) else "·"
            b.tooltip = f"Bid {hand[i]} for {holder}" if i < len(hand) else "No card here"
            b.button_style = "warning" if i < len(hand) else ""
            b.disabled = i >= len(hand)
        self.decide_button.disabled = race.phase is not Phase.BREAKAWAY
        self.back_button.disabled = not self.control.can_back
        title = f"<b>{html.escape(self.title)}</b> · " if self.title else ""
        phase = race.phase.title if race.phase in BIDDING else "Breakaway decided: round 1 can start"
        self.header.value = header(f"{title}<span class='tutor-phase'>{html.escape(phase)}</span>").value

    def _hint(self) -> str:
        race = self.race
        if race.phase in (Phase.BID_1, Phase.BID_2):
            holder = self.holding
            if holder:
                return (f"Bid for {holder}: choose one of its {len(race.riders[holder].hand)} cards. It goes face "
                        "down; the other 3 are recycled under the deck.")
            free = [rid for rid, b in self.draw_buttons.items() if not b.disabled]
            if race.phase is Phase.BID_1 and len(free) > 1:
                return (f"Pick the rider that bids for your team: choose 'Draw 4 for {free[0]}' or "
                        f"{and_list([f'{chr(39)}Draw 4 for {r}{chr(39)}' for r in free[1:]])}.")
            if free:
                return f"{race.phase.name_in_words.capitalize()}: choose 'Draw 4 for {free[0]}'."
            return "Waiting for the other players' bids."
        if race.phase is Phase.BREAKAWAY:
            return "Both bids are in and revealed: choose 'Decide the breakaway'."
        winners = and_list(self.decision.winners) if self.decision else "nobody"
        return (f"The breakaway is decided: {winners} {'starts' if self.decision and len(self.decision.winners) == 1 else 'start'}"
                " past the start line. Choose Back to look again, or Restart to bid again with the same cards.")

    def _intro(self) -> list[Line]:
        return [Line("The breakaway bid: your team picks one rider, who draws 4 cards and bids 1 face down, "
                     "twice. The two bids' total decides who starts ahead of everyone, at a price.",
                     (rules.BID, rules.BREAKAWAY_RANK))]

    # ----- the bids table --------------------------------------------------------------------------------

    def bids(self) -> dict[str, tuple[list[Card], int]]:
        """Each bidder's bid cards and how many of them are revealed (to everyone)."""
        race = self.race
        if race.phase in BIDDING:
            shown = {Phase.BID_1: 0, Phase.BID_2: 1, Phase.BREAKAWAY: 2}[race.phase]
            return {r.id: (list(r.bids), min(shown, len(r.bids))) for r in race.player_riders
                    if r.bids or race.bidder(r.team) == r.id}
        return {rid: (cards, len(cards)) for rid, cards in self._final_bids.items()}

    def grid(self) -> list[str]:
        """The bidders from the front of the start area to the back (before the breakaway moves anyone)."""
        if self.decision is not None:
            return list(self.decision.grid)
        bidders = self.bids()
        return rules.movement_order({rid: self.race.riders[rid].position for rid in bidders})

    def table_html(self) -> str:
        bids, grid = self.bids(), self.grid()
        if not bids:
            return ""
        decision = self.decision
        order = list(decision.ranking) if decision else grid
        rows = []
        for rid in order:
            cards, shown = bids[rid]
            mine = self.race.riders[rid].team == self.learner
            cells = []
            for k in range(2):
                if k >= len(cards):
                    cells.append("—")
                elif k < shown:
                    cells.append(str(cards[k]))
                else:
                    cells.append(f"{cards[k]} (face down)" if mine else "face down")
            total = str(sum(c.value for c in cards)) if shown == 2 else ""
            if decision:
                won = rid in decision.winners
                result = ("breakaway: bid cards leave the game, takes 2 exhaustion cards" if won else
                          "recycles its bid cards")
            else:
                result = ""
            where = f"{grid.index(rid) + 1} of {len(grid)}" if rid in grid else ""
            rows.append(f"<tr class='{'tutor-winner' if decision and rid in decision.winners else ''}'>"
                        f"<td>{html.escape(rid)}{' (you)' if mine else ''}</td><td>{where}</td>"
                        f"<td>{html.escape(cells[0])}</td><td>{html.escape(cells[1])}</td><td>{total}</td>"
                        f"<td>{html.escape(result)}</td></tr>")
        caption = ("Ranking by total, best first. Equal totals go to the rider further back on the grid."
                   if decision else "Bids by grid place (1 = front of the start area). Ties will go to the rider "
                                    "further back.")
        return (f"<table class='tutor-bids'><caption style='text-align:left'>{caption}</caption>"
                "<tr><th>rider</th><th>grid place</th><th>bid 1</th><th>bid 2</th><th>total</th><th>result</th>"
                f"</tr>{''.join(rows)}</table>")

    # ----- the canvas ------------------------------------------------------------------------------------

    def _highlights(self) -> Highlights:
        if self.decision is None:
            chips = {rid: Chip(tuple(cards[:shown])) for rid, (cards, shown) in self.bids().items() if cards}
            return Highlights(active=self.holding, cards=chips)
        moved = {e.rider: e.to for e in self._events if isinstance(e, BreakawayStart)}
        return Highlights(exhausted=tuple(self.decision.winners),
                          trails={rid: (self._start_spot(rid), to) for rid, to in moved.items()})

    def _start_spot(self, rider_id: str) -> tuple[int, int]:
        return self._slide_from.get(rider_id, self.race.riders[rider_id].position)

    def _panel(self) -> CardPanel:
        """The learner's bidder (both riders before it is picked), then the breakaway riders once decided."""
        bidder = self.bidder
        riders = (bidder,) if bidder else self.race.teams[self.learner].riders
        if self.decision is not None:
            riders += tuple(rid for rid in self.decision.winners if rid not in riders)
        return CardPanel(riders)

    def redraw(self, *, redraw_track: bool = False) -> None:
        """Repaint the canvas (the Voila page calls this when it connects)."""
        self.scene.draw(self.race, self._highlights(), self._panel(), redraw_track=redraw_track)

    def _slide(self, before: dict[str, tuple[int, int]]) -> None:
        """The breakaway riders glide from their grid places past the start line (``Scene.animate``)."""
        self._slide_from = before
        self.scene.animate(self.race, self._events, before, self._highlights(), self._panel(), steps=2)
