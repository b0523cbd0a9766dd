"""``BreakawayBid``: the breakaway bid of the Peloton expansion, played against bots on the board.

    BreakawayBid("cobbles-24", teams=("red", "blue", "green"), learner="red", seed=0)

The learner picks the rider that bids for its team ("Draw 4 for red-S": the first
rider to draw bids, docs/rules.md), clicks one of the cards it drew (``Race.hand_size``) to bid it face down
(the others are recycled), and does the same a second time with the same
rider. The bots bid at once; after each round of bids every bid is revealed in the
table. "Decide the breakaway" ranks the totals (ties go to the rider further back on
the grid), and the canvas shows the winners paying 2 exhaustion cards and riding past
the start line. A click at the wrong time shows a warning and changes nothing.

Attributes for lessons and tests: ``race``, ``scene``, ``status``, ``story`` (the
log of every step, a ``tutor.ui.narration.NarrationLog``), ``narration`` (its HTML; ``narration_lines``, the
last step's lines), ``bids_table`` (HTML), ``draw_buttons`` (rider ->
Button), ``card_buttons`` (one per card drawn), ``decide_button``, ``back_button``,
``restart_button``, ``seed``, ``decision`` (the ``BreakawayDecided`` event, once
decided), ``teachers`` (the shuffle number, closed), ``focused`` (where focus went after the last action:
``next_control()``). Built from ``tutor.ui`` pieces and ``tutor.flamme_rouge.render``.
"""

from __future__ import annotations

import html
from typing import Callable, Sequence

import ipywidgets as widgets

from tutor.flamme_rouge import breakaway, rules
from tutor.flamme_rouge.bots import autoplay
from tutor.flamme_rouge.cards import Card
from tutor.flamme_rouge.events import BreakawayCost, BreakawayDecided, BreakawayStart, Event
from tutor.flamme_rouge.race import Draw, Phase, Race
from tutor.flamme_rouge.render import CardPanel, Chip, Highlights, Scene, legend_html
from tutor.flamme_rouge.render.describe import describe_race
from tutor.i18n import _, ngettext
from tutor.ui.controls import CSS, button, header
from tutor.ui.narration import NarrationLog, and_list
from tutor.ui.screen import Disclosure, board_frame, changed_words, prompt_row
from tutor.ui.shell import LessonShell

from .narration import Line, computer_plays, narrate
from .race_controls import HandControls

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


class BreakawayBid(LessonShell, widgets.VBox):
    """The learner's team bids for the breakaway against bot teams."""

    def __init__(
        self,
        stage: str = "cobbles-24",
        teams: Sequence[str] = ("red", "blue", "green"),
        *,
        learner: str = "red",
        bot: str = "heuristic",
        seed: int = 0,
        single_riders: bool = False,
        peloton: bool = False,
        muscle: int = 0,
        title: str = "",
    ):
        super().__init__()
        if learner not in teams:
            raise ValueError(f"learner: {learner!r} is not one of the teams {', '.join(teams)}")
        self.learner, self.title = learner, title

        def rebuild(new_seed: int) -> Race:
            return Race.new(
                stage,
                list(teams),
                bots={t: bot for t in teams if t != learner},
                seed=new_seed,
                breakaway=True,
                single_riders=single_riders,
                peloton=peloton,
                muscle=muscle,
            )

        self._rebuild: Callable[[int], Race] = rebuild
        self.race = rebuild(seed)
        self.decision: BreakawayDecided | None = None
        self._costs: dict[str, int] = {}
        """The exhaustion cards each breakaway rider took (``BreakawayCost`` events)."""
        self._final_bids: dict[str, list[Card]] = {}
        self._events: list[Event] = []
        self._slide_from: dict[str, tuple[int, int]] = {}
        """Positions before the breakaway step (where the winners' trails start)."""
        self.narration_lines: list[Line] = []
        self.scene = Scene(self.race.track)
        self.build_shell(lambda: self.race, [self.scene], on_back=self._on_back, on_restart=self._on_restart, seed=seed)
        self.restart_button.tooltip = _("Bid again from the start (with the shuffle number under For teachers)")
        self.children = self._layout()
        self.add_class("tutor-breakaway")
        self.add_class("tutor-lesson")  # the template's rules for every lesson widget (a11y.css)
        self.scene.on_client_ready(lambda: self.redraw(redraw_track=True))
        self.scene.on_click(self._on_board_click)  # a drawn card on the card panel bids it, as its button does
        self._show(self._intro() + self._opening_bots())

    def _layout(self) -> list[widgets.Widget]:
        """The board, the prompt beside the draw and card buttons and Decide, one secondary row, what it opens."""
        self.header = widgets.HTML()
        self.story = NarrationLog(_("Log"), open_=False)  # every step of the bids, the newest marked
        self.narration = self.story.html
        self.bids_table = widgets.HTML()
        self.legend = widgets.HTML(legend_html(self.race, folding=False))
        hand_size = max(map(self.race.hand_size, self.race.teams[self.learner].riders))
        self.hand = HandControls(
            self.guard, cards=hand_size, on_draw=self._on_draw, on_card=self._on_card, bidding=True
        )
        self.hand.set_riders(self.race.teams[self.learner].riders)
        self.draw_buttons, self.card_buttons = self.hand.draw_buttons, self.hand.card_buttons
        self.decide_button = button(
            _("Decide the breakaway ▸"), _("Rank the bid totals and start the breakaway riders"), style="primary"
        )
        self.on_click(self.decide_button, "decide", self._on_decide)
        self.key = Disclosure(_("Key"), [self.legend], tooltip=_("What the colours and marks on the board mean"))
        return [
            widgets.HTML(CSS + TABLE_CSS),
            self.header,
            board_frame(self.scene),
            prompt_row(self.status, *self.draw_buttons.values(), self.hand.hand, self.decide_button),
            self.secondary_row(disclosures=[self.story.toggle, self.key.button]),
            self.bids_table,
            self.text_view.html,
            self.story.html,
            self.key.body,
            self.teachers.body,
        ]

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
            self.warn(
                _("The bids are over: choose 'Decide the breakaway'.")
                if self.race.phase is Phase.BREAKAWAY
                else _("The bids are over: the breakaway is decided. Choose Back or Restart.")
            )
            return
        self._act(lambda: self.race.draw(rider_id))

    def _on_board_click(self, x: float, y: float) -> None:
        """A click on a card the bidder drew on the card panel (CSS pixels) bids it; elsewhere nothing happens."""
        spot = self._panel().card_at(self.race, self.scene.view, x, y)
        rider = self.holding
        if spot is not None and rider is not None and spot[0] == rider and spot[1] < len(self.race.riders[rider].hand):
            slot = spot[1]
            self.guard(f"card{slot}", lambda: self._on_card(slot))

    def _on_card(self, index: int) -> None:
        rider = self.holding
        if rider is None:
            free = self.hand.free
            self.warn(
                _("Draw first: choose '{draw}'.").format(draw=self.draw_buttons[free[0]].description)
                if free
                else _("No cards to bid now: {hint}").format(hint=self._hint())
            )
            return
        hand = self.race.riders[rider].hand
        if index >= len(hand):
            self.warn(
                ngettext("{rider} has only {n} card in hand.", "{rider} has only {n} cards in hand.", len(hand)).format(
                    rider=rider, n=len(hand)
                )
            )
            return
        card = hand[index]
        self._act(lambda: self.race.play(rider, card))

    def _on_decide(self) -> None:
        race = self.race
        if race.phase is not Phase.BREAKAWAY:
            self.warn(
                _("Not yet: your team still has to bid ({phase}).").format(phase=race.phase.name_in_words)
                if race.phase in BIDS
                else _("Not yet: the breakaway is already decided.")
            )
            return
        bidders = {r.id: list(r.bids) for r in race.player_riders if r.bids}
        before = race.positions()
        self.control.act(race.step, then=lambda events: self._decided(events, bidders, before))

    def _decided(self, events: list[Event], bidders: dict[str, list[Card]], before: dict[str, tuple[int, int]]) -> None:
        self._final_bids = bidders
        self.decision = next(e for e in events if isinstance(e, BreakawayDecided))
        self._costs = {e.rider: e.exhaustion for e in events if isinstance(e, BreakawayCost)}
        self._events = events
        self._show(narrate(events), slide_from=before)

    def _on_back(self) -> None:
        if not self.back_step(_("Nothing to undo: this is the start of the bids.")):
            return
        if self.race.phase in BIDDING:  # back before the decision
            self.decision, self._final_bids, self._costs = None, {}, {}
        self._events = []
        self._show([Line(_("Back: the position before your last action is restored."))])

    def _on_restart(self) -> None:
        self.race = self._rebuild(self.seed.value)
        self.decision, self._final_bids, self._costs, self._events = None, {}, {}, []
        self.story.clear()
        self._show(
            [
                Line(_("New bids (shuffle number {seed}).").format(seed=self.seed.value)),
                *self._intro(),
                *self._opening_bots(),
            ]
        )

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
        self.story.add(lines)
        self._refresh_controls()
        self.status.show(self._hint(), "success" if self.decision else "info", changed=changed_words(lines))
        self.bids_table.value = self.table_html()
        self.text_view.show(describe_race(self.race, hands=[self.holding or ""]), lines)
        if slide_from is None:
            self.redraw()
        else:
            self._slide(slide_from)
        if self.acting:
            self.focus_next()

    def next_control(self) -> widgets.Widget | None:
        """The control the prompt names next: a card after a draw, the next draw, Decide, then Restart."""
        if self.holding:
            return self.card_buttons[0]
        free = self.hand.free
        if free:
            return self.draw_buttons[free[0]]
        return self.decide_button if not self.decide_button.disabled else self.restart_button

    def _refresh_controls(self) -> None:
        race = self.race
        legal = race.legal_actions() if race.phase in BIDS else []
        self.hand.show_draws({a.rider for a in legal if isinstance(a, Draw)})
        holder = self.holding
        self.hand.show_hand(holder, race.riders[holder].hand if holder else [], _("No card here"))
        self.decide_button.disabled = race.phase is not Phase.BREAKAWAY
        self.back_button.disabled = not self.control.can_back
        title = f"<b>{html.escape(self.title)}</b> · " if self.title else ""
        phase = race.phase.title if race.phase in BIDDING else _("Breakaway decided: round 1 can start")
        self.header.value = header(f"{title}<span class='tutor-phase'>{html.escape(phase)}</span>").value

    def _hint(self) -> str:
        race = self.race
        if race.phase in (Phase.BID_1, Phase.BID_2):
            holder = self.holding
            if holder:
                held = len(race.riders[holder].hand)
                return ngettext(
                    "Bid for {rider}: choose one of its {cards} cards. It goes face down; the other one "
                    "is recycled under the deck.",
                    "Bid for {rider}: choose one of its {cards} cards. It goes face down; the other {n} "
                    "are recycled under the deck.",
                    held - 1,
                ).format(rider=holder, cards=held, n=held - 1)
            free = self.hand.free
            if race.phase is Phase.BID_1 and len(free) > 1:
                others = and_list([_("'{draw}'").format(draw=self.draw_buttons[r].description) for r in free[1:]])
                return _("Pick the rider that bids for your team: choose '{draw}' or {others}.").format(
                    draw=self.draw_buttons[free[0]].description, others=others
                )
            if free:
                return _("{phase}: choose '{draw}'.").format(
                    phase=race.phase.name_in_words.capitalize(), draw=self.draw_buttons[free[0]].description
                )
            return _("Waiting for the other players' bids.")
        if race.phase is Phase.BREAKAWAY:
            return _("Both bids are in and revealed: choose 'Decide the breakaway'.")
        winners = list(self.decision.winners) if self.decision else []
        return ngettext(
            "The breakaway is decided: {riders} starts past the start line. Choose Back to look again, "
            "or Restart to bid again with the same cards.",
            "The breakaway is decided: {riders} start past the start line. Choose Back to look again, "
            "or Restart to bid again with the same cards.",
            len(winners),
        ).format(riders=and_list(winners, empty=_("nobody")))

    def _intro(self) -> list[Line]:
        return [
            Line(
                _(
                    "The breakaway bid: your team picks one rider, who draws {hand} cards and bids 1 face down, "
                    "twice. The two bids' total decides who starts ahead of everyone, at a price."
                ).format(hand=len(self.card_buttons)),
                (rules.BID, rules.BREAKAWAY_RANK),
            )
        ]

    # ----- the bids table --------------------------------------------------------------------------------

    def bids(self) -> dict[str, tuple[list[Card], int]]:
        """Each bidder's bid cards and how many of them are revealed (to everyone)."""
        race = self.race
        if race.phase in BIDDING:
            shown = {Phase.BID_1: 0, Phase.BID_2: 1, Phase.BREAKAWAY: 2}[race.phase]
            return {
                r.id: (list(r.bids), min(shown, len(r.bids)))
                for r in race.player_riders
                if r.bids or race.bidder(r.team) == r.id
            }
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
                    cells.append(_("{card} (face down)").format(card=cards[k]) if mine else _("face down"))
            total = str(self._total(rid, cards)) if shown == 2 else ""
            result = self._result(rid) if decision else ""
            where = _("{n} of {m}").format(n=grid.index(rid) + 1, m=len(grid)) if rid in grid else ""
            who = _("{rider} (you)").format(rider=rid) if mine else rid
            rows.append(
                f"<tr class='{'tutor-winner' if decision and rid in decision.winners else ''}'>"
                f"<td>{html.escape(who)}</td><td>{html.escape(where)}</td>"
                f"<td>{html.escape(cells[0])}</td><td>{html.escape(cells[1])}</td><td>{total}</td>"
                f"<td>{html.escape(result)}</td></tr>"
            )
        caption = (
            _("Ranking by total, best first. Equal totals go to the rider further back on the grid.")
            if decision
            else _("Bids by grid place (1 = front of the start area). Ties will go to the rider further back.")
        )
        heads = [_("rider"), _("grid place"), _("bid 1"), _("bid 2"), _("total"), _("result")]
        return (
            f"<table class='tutor-bids'><caption style='text-align:left'>{html.escape(caption)}</caption><tr>"
            + "".join(f"<th>{html.escape(h)}</th>" for h in heads)
            + f"</tr>{''.join(rows)}</table>"
        )

    def _total(self, rider: str, cards: Sequence[Card]) -> int:
        """A bid's total: the engine's once decided (``BreakawayDecided.totals``), else its cards' (revealed)."""
        if self.decision is not None and rider in self.decision.totals:
            return self.decision.totals[rider]
        return breakaway.total([card.value for card in cards])

    def _result(self, rider: str) -> str:
        """What the decision did to ``rider``: the breakaway's price (``BreakawayCost``), or its bid recycled."""
        if rider not in self._costs:
            return _("recycles its bid cards")
        n = self._costs[rider]
        return ngettext(
            "breakaway: bid cards leave the game, takes {n} exhaustion card",
            "breakaway: bid cards leave the game, takes {n} exhaustion cards",
            n,
        ).format(n=n)

    # ----- the canvas ------------------------------------------------------------------------------------

    def _highlights(self) -> Highlights:
        if self.decision is None:
            chips = {rid: Chip(tuple(cards[:shown])) for rid, (cards, shown) in self.bids().items() if cards}
            return Highlights(active=self.holding, cards=chips)
        moved = {e.rider: e.to for e in self._events if isinstance(e, BreakawayStart)}
        return Highlights(
            exhausted=tuple(self.decision.winners),
            trails={rid: (self._start_spot(rid), to) for rid, to in moved.items()},
        )

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
