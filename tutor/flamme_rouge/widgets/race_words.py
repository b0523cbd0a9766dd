"""What the race tutor says (``RaceTutorWords``, a mixin of ``RaceTutor``): the prompt that names the next step,
why a control is off (its tooltip), the header line, the opening lines of a phase, and the results table.

It reads the race and the tutor's public properties (declared in ``RaceTutorWords``) and changes nothing;
``RaceTutor`` (race_tutor.py) owns the state and the controls. The results table asks the engine for the order
(``Race.standings``).
"""

from __future__ import annotations

import html
from typing import Iterable, Sequence

import ipywidgets as widgets

from tutor.flamme_rouge import rules
from tutor.flamme_rouge.events import BreakawayDecided, Event
from tutor.flamme_rouge.race import Phase, Race
from tutor.flamme_rouge.render import Highlights
from tutor.flamme_rouge.render.riders import ordinal
from tutor.i18n import _
from tutor.ui.narration import and_list

from .narration import TERRAIN_LIMITS, Line, rider_cards

class RaceTutorWords:
    """The sentences of ``RaceTutor``, from the race and the tutor's public state, declared here."""

    race: Race
    title: str
    human_teams: tuple[str, ...]

    def warn(self, text: str) -> None:
        raise NotImplementedError

    @property
    def draw_buttons(self) -> dict[str, widgets.Button]:
        raise NotImplementedError

    @property
    def done(self) -> bool:
        raise NotImplementedError

    @property
    def paused(self) -> bool:
        raise NotImplementedError

    @property
    def round_ended(self) -> bool:
        raise NotImplementedError

    @property
    def more_positions(self) -> bool:
        raise NotImplementedError

    @property
    def last_events(self) -> Sequence[Event]:
        raise NotImplementedError

    @property
    def active_rider(self) -> str | None:
        raise NotImplementedError

    @property
    def placing_rider(self) -> str | None:
        raise NotImplementedError

    def highlights(self) -> Highlights:
        raise NotImplementedError

    @property
    def another_words(self) -> str:
        """What the button that replays this rule says: "Try another position" only where there is another."""
        return _("Try another position") if self.more_positions else _("Watch it again")

    def _why_no_step(self) -> str:
        race = self.race
        if self.done:
            return f"This position is done: choose '{self.another_words}', or continue as a race"
        if self.paused:
            return f"Choose 'Start round {race.round}' first"
        if race.phase is Phase.FINISHED:
            return "The race is over"
        if race.phase is Phase.SETUP:
            return "Place the riders first"
        waiting = [r for r in race.waiting_riders() if race.riders[r].team in self.human_teams]
        rider = self.active_rider
        if rider:
            return f"Play {rider}'s card first"
        if waiting:
            return f"Draw and play a card for {and_list(waiting)} first"
        return "Waiting for the other players"

    def _refuse_steps(self) -> bool:
        """Warn (and return True) when there is nothing to resolve: a pause, energy phase not over, or race
        over."""
        if self.paused:
            self.warn(self._hint())
            return True
        if self.race.phase.choosing:
            waiting = self.race.waiting_riders()
            self.warn(f"Not yet: the {self.race.phase.name_in_words} is not over. {and_list(waiting)} still "
                       f"{'has' if len(waiting) == 1 else 'have'} to play a card (draw 4, then choose one).")
            return True
        if self.race.phase is Phase.FINISHED:
            self.warn(f"The race is over: {self.race.winner} won. Choose Back or Restart.")
            return True
        if self.done:
            self.warn(f"This position is done: choose '{self.another_words}' or 'Continue as a race'.")
            return True
        if self.race.phase is Phase.SETUP:
            self.warn("The riders are not all placed yet.")
            return True
        return False

    def _why_no_draw(self, rider_id: str) -> str:
        race = self.race
        rider = race.riders[rider_id]
        if not race.phase.choosing:
            return f"Cards are drawn in the energy phase; now it is the {race.phase.name_in_words}"
        if rider.played is not None:
            return f"{rider_id} has already played its card this round"
        holder = self.active_rider
        if holder and holder != rider_id:
            return f"Play {holder}'s card first (one rider at a time)"
        if rider.hand:
            return f"{rider_id} has drawn: choose one of its cards"
        return f"{rider_id} cannot draw now"

    def _header_html(self) -> str:
        race = self.race
        title = f"<b>{html.escape(self.title)}</b> · " if self.title else ""
        name = race.track.name
        shown = name and name.split(" (")[0].lower() not in self.title.lower()  # a stage is named once
        track = f"{html.escape(name)} · " if shown else ""
        waiting = [r for r in race.waiting_riders() if race.riders[r].team in self.human_teams]
        todo = f" · to play: {html.escape(', '.join(waiting))}" if waiting and not self.done else ""
        round_ = f"Round {race.round} · " if race.round else ""  # no round yet during the setup
        phase = race.phase.title
        if self.round_ended:
            round_, todo = "", ""
            phase = (f"The end of round {race.round - 1}" if race.round > 1 else "The breakaway is decided") + \
                (f": round {race.round} starts when you choose 'Start round {race.round}'" if self.paused else "")
        return (f"<div class='tutor-header'>{title}{track}{round_}"
                f"<span class='tutor-phase'>{html.escape(phase)}</span>{todo}</div>")

    def _hint(self) -> str:
        race = self.race
        if self.paused:
            if any(isinstance(e, BreakawayDecided) for e in self.last_events):
                return (f"The breakaway is decided: the riders in front took their exhaustion cards (E2). Look at "
                        f"the board and the log, then choose 'Start round {race.round}'.")
            marks = self.highlights()
            shown = [words for present, words in ((marks.slipstreamed, "the green +1 chips show who gained by "
                                                   "slipstream"),
                                                  (marks.exhausted, "the E2 cards who took an exhaustion card"))
                     if present]
            return (f"Round {race.round - 1} is over" + (f": {and_list(shown)}" if shown else "") +
                    f". Look at the board, then choose 'Start round {race.round}'.")
        if race.phase.choosing:
            rider = self.active_rider
            verb = "plays" if race.phase is Phase.ENERGY else "bids"
            if rider:
                return f"Choose the card {rider} {verb}: one of its {len(race.riders[rider].hand)} drawn cards."
            free = [rid for rid, b in self.draw_buttons.items() if not b.disabled]
            if free:
                return f"{race.phase.name_in_words.capitalize()}: choose 'Draw 4 for {free[0]}'" + (
                    f" (or for {and_list(free[1:])})" if len(free) > 1 else "") + "."
            return "Energy phase: waiting for the other players."
        if race.phase is Phase.MOVEMENT:
            rid = race.to_move[0]
            return (f"Choose 'Next step': {rid} moves next ({move_words(race, rid)}), frontmost rider first. "
                    "'Finish round' resolves the rest of the round, rider by rider.")
        if race.phase is Phase.FINISHED:
            return f"{race.winner} wins the race! The results are below. Choose Back to look again, or Restart."
        if race.phase is Phase.SETUP:
            rider = self.placing_rider
            if rider:
                return (f"Place {rider}: choose a square and lane, then 'Place' (or click a free lane behind the "
                        "start line on the board).")
            placing = race.placing_team
            return f"Setup: waiting for {placing.name if placing else 'the other teams'} to place their riders."
        return f"Choose 'Next step': {race.phase.title}."

    def _intro(self) -> list[Line]:
        race = self.race
        if race.phase is Phase.MOVEMENT:
            cards = rider_cards({rid: race.riders[rid].played for rid in race.to_move})
            return [Line(f"The cards are on the table: {cards}. Movement order: {', '.join(race.to_move)}.",
                         (rules.ORDER,))]
        if race.phase is Phase.SETUP:
            return [Line("Setup: the players place their riders in turn, both riders each, in free lanes behind "
                         "the start line.", (rules.SETUP_PLACE,))]
        if race.phase is Phase.ENERGY and self.draw_buttons:
            return [Line(f"Round {race.round}. Each of your riders draws 4 cards, plays 1 and recycles the other 3.",
                         (rules.DRAW, rules.PLAY, rules.RECYCLE))]
        if race.phase is Phase.BID_1:
            return [Line("The breakaway bids: draw 4 for the rider you pick, bid 1 card face down, recycle 3; then "
                         "a second bid with the same rider.", (rules.BID,))]
        if race.phase is Phase.END_CARDS:
            return [Line("The movement phase is over: step through the end phase.")]
        return []

    def _why_no_cards(self) -> str:
        race = self.race
        if not race.phase.choosing:
            return (f"Cards are played in the energy phase; now it is the {race.phase.name_in_words}. "
                    "Choose 'Next step'." if race.phase is not Phase.FINISHED else "The race is over: no more cards.")
        free = [rid for rid, b in self.draw_buttons.items() if not b.disabled]
        if free:
            return f"Draw first: choose 'Draw 4 for {free[0]}' to see its cards."
        return "All your riders have played this round: choose 'Next step' when the energy phase is over."


def move_words(race: Race, rider_id: str) -> str:
    """How far the next mover goes: "5 squares", or "5 squares: its 9 is capped by the climb"."""
    value, distance = race.move_values[rider_id], race.move_preview(rider_id)
    if distance is None or distance == value:
        return f"{value} square{'s' if value != 1 else ''}"
    square = race.riders[rider_id].square
    assert square is not None
    terrain = rules.move_distance(race.track, square, value)[1]
    return f"{distance} squares: its {value} is {TERRAIN_LIMITS[terrain] if terrain else 'changed by the terrain'}"


def results_html(race: Race) -> str:
    """The results table at the finish: place, rider, squares past the line (or still to go), exhaustion cards
    taken; the riders in the engine's order (``Race.standings``: the ranking, then the others in movement order)."""
    finish = race.track.finish
    rows = []
    for place, rid in enumerate(race.standings(), start=1):
        rider = race.riders[rid]
        square = rider.square or 0
        ranked = rid in race.ranking
        if finish is None:
            where = _("square {square}").format(square=square)
        elif ranked:
            where = _("{n} past the line").format(n=square - finish + 1)
        else:
            where = _("{n} to go").format(n=finish - square)
        rows.append(f"<tr><td>{ordinal(place) if ranked else '—'}</td><td>{html.escape(rid)}</td>"
                    f"<td>{html.escape(rider.kind)}</td><td>{html.escape(where)}</td><td>{rider.exhaustion}</td></tr>")
    title = _("Results")
    note = _("riders past the line are ranked: the furthest wins; on the same square the right lane is ahead")
    heads = [_("Place"), _("Rider"), _("Kind"), _("Squares"), _("Exhaustion cards taken")]
    return (f"<div class='tutor-results'><b>{html.escape(title)}</b> ({html.escape(note)})"
            "<table class='tutor-results-table'><thead><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in heads)
            + "</tr></thead><tbody>" + "".join(rows) + "</tbody></table></div>")


def learner_teams(race: Race, teams: Iterable[str] | None) -> tuple[str, ...]:
    """The learner's teams: every team without a bot by default; each team needs a bot or a human."""
    if teams is None:
        return tuple(name for name, team in race.teams.items() if team.bot is None)
    teams = tuple(teams)
    for name in teams:
        if name not in race.teams:
            raise ValueError(f"human_teams: no team {name!r} in this race (teams: {', '.join(race.teams)})")
        if race.teams[name].bot:
            raise ValueError(f"human_teams: team {name!r} is played by the {race.teams[name].bot!r} bot")
    nobody = [name for name, team in race.teams.items() if team.bot is None and name not in teams]
    if nobody:
        raise ValueError(f"team {nobody[0]!r} has no bot and is not in human_teams: nobody would play it")
    return teams

