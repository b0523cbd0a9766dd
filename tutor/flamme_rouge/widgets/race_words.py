"""What the race tutor says (``RaceWords``, the part ``RaceTutor.words``): the prompt that names the next step,
why a control is off (its tooltip), the header line, the opening lines of a phase, and the results table.

``RaceWords`` keeps no state: it reads the race and the tutor's public properties (``RaceView``, the narrow
interface it is built with) and changes nothing but the status (a refused step's warning, through ``warn``);
``RaceTutor`` (race_tutor.py) owns the state and the controls. The results table asks the engine for the order
(``Race.standings``).
"""

from __future__ import annotations

import html
from typing import Iterable, Protocol, Sequence

import ipywidgets as widgets

from tutor.flamme_rouge import rules
from tutor.flamme_rouge.events import BreakawayDecided, Event
from tutor.flamme_rouge.race import Phase, Race
from tutor.flamme_rouge.render import Highlights
from tutor.flamme_rouge.render.riders import ordinal
from tutor.flamme_rouge.track import title as track_title
from tutor.i18n import _, ngettext
from tutor.ui.narration import and_list

from .narration import Line, rider_cards

TAUGHT = ("slipstream", "exhaustion")
"""The end-of-round marks a lesson before lessons 4 and 5 leaves unnamed (``RaceTutor(..., taught=...)``): the
slipstream "+1" chips and the exhaustion "E2" cards; a full race names both."""


def taught_marks(taught: Iterable[str] | None) -> frozenset[str]:
    """The marks the words name: both for None; an unknown name raises ValueError."""
    if taught is None:
        return frozenset(TAUGHT)
    marks = frozenset([taught] if isinstance(taught, str) else taught)
    unknown = sorted(marks - set(TAUGHT))
    if unknown:
        raise ValueError(f"taught: unknown mark {unknown[0]!r} (known: {', '.join(TAUGHT)})")
    return marks


class RaceView(Protocol):
    """What the words read of the tutor: its public state (``RaceTutor`` is one)."""

    @property
    def race(self) -> Race: ...

    @property
    def title(self) -> str: ...

    @property
    def human_teams(self) -> tuple[str, ...]: ...

    @property
    def taught(self) -> frozenset[str]: ...

    @property
    def draw_buttons(self) -> dict[str, widgets.Button]: ...

    @property
    def done(self) -> bool: ...

    @property
    def paused(self) -> bool: ...

    @property
    def round_ended(self) -> bool: ...

    @property
    def more_positions(self) -> bool: ...

    @property
    def stops_after_setup(self) -> bool: ...

    @property
    def last_events(self) -> Sequence[Event]: ...

    @property
    def active_rider(self) -> str | None: ...

    @property
    def placing_rider(self) -> str | None: ...

    def highlights(self) -> Highlights: ...

    def warn(self, text: str) -> None: ...


class RaceWords:
    """The sentences of ``RaceTutor`` (its part ``words``), from the race and the tutor's public state
    (``RaceView``): it keeps no state of its own."""

    def __init__(self, tutor: RaceView) -> None:
        self.tutor = tutor

    # ----- the sentences ---------------------------------------------------------------------------------

    @property
    def another_words(self) -> str:
        """What the button that replays this rule says: "Try another position" only where there is another."""
        if self.tutor.stops_after_setup:
            return _("Place them again")
        return _("Try another position") if self.tutor.more_positions else _("Watch it again")

    def done_words(self) -> str:
        """What the prompt says when the position is done (its lesson's rule has been shown)."""
        if self.tutor.stops_after_setup:
            return _(
                "All the riders are placed: the race can start. The next lesson shows the first round. "
                "Choose '{another}' to place your riders again."
            ).format(another=self.another_words)
        return _(
            "This position is done: that is the rule of this lesson. Choose '{another}', or continue as a race."
        ).format(another=self.another_words)

    def why_no_step(self) -> str:
        race = self.tutor.race
        if self.tutor.done:
            return _("This position is done: choose '{another}', or continue as a race").format(
                another=self.another_words
            )
        if self.tutor.paused:
            return _("Choose 'Start round {n}' first").format(n=race.round)
        if race.phase is Phase.FINISHED:
            return _("The race is over")
        if race.phase is Phase.SETUP:
            return _("Place the riders first")
        waiting = [r for r in race.waiting_riders() if race.riders[r].team in self.tutor.human_teams]
        rider = self.tutor.active_rider
        if rider:
            return _("Play {rider}'s card first").format(rider=rider)
        if waiting:
            return _("Draw and play a card for {riders} first").format(riders=and_list(waiting))
        return _("Waiting for the other players")

    def refuse_steps(self) -> bool:
        """Warn (and return True) when there is nothing to resolve: a pause, energy phase not over, or race
        over."""
        race = self.tutor.race
        if self.tutor.paused:
            self.tutor.warn(self.hint())
            return True
        if race.phase.choosing:
            waiting = race.waiting_riders()
            self.tutor.warn(
                ngettext(
                    "Not yet: the {phase} is not over. {riders} still has to play a card (draw {hand}, "
                    "then choose one).",
                    "Not yet: the {phase} is not over. {riders} still have to play a card (draw {hand}, "
                    "then choose one).",
                    len(waiting),
                ).format(
                    phase=race.phase.name_in_words,
                    riders=and_list(waiting),
                    hand=race.hand_size(waiting[0]) if waiting else rules.hand_numbers()["hand"],
                )
            )
            return True
        if race.phase is Phase.FINISHED:
            self.tutor.warn(_("The race is over: {rider} won. Choose Back or Restart.").format(rider=race.winner))
            return True
        if self.tutor.done:
            self.tutor.warn(
                _("This position is done: choose '{another}' or 'Continue as a race'.").format(
                    another=self.another_words
                )
            )
            return True
        if race.phase is Phase.SETUP:
            self.tutor.warn(_("The riders are not all placed yet."))
            return True
        return False

    def why_no_draw(self, rider_id: str) -> str:
        race = self.tutor.race
        rider = race.riders[rider_id]
        if not race.phase.choosing:
            return _("Cards are drawn in the energy phase; now it is the {phase}").format(
                phase=race.phase.name_in_words
            )
        if rider.played is not None:
            return _("{rider} has already played its card this round").format(rider=rider_id)
        holder = self.tutor.active_rider
        if holder and holder != rider_id:
            return _("Play {rider}'s card first (one rider at a time)").format(rider=holder)
        if rider.hand:
            return _("{rider} has drawn: choose one of its cards").format(rider=rider_id)
        return _("{rider} cannot draw now").format(rider=rider_id)

    def header_html(self) -> str:
        race = self.tutor.race
        title = f"<b>{html.escape(self.tutor.title)}</b> · " if self.tutor.title else ""
        name = track_title(race.track)
        shown = name and name.split(" (")[0].lower() not in self.tutor.title.lower()  # a stage is named once
        track = f"{html.escape(name)} · " if shown else ""
        waiting = [r for r in race.waiting_riders() if race.riders[r].team in self.tutor.human_teams]
        todo = (
            " · " + html.escape(_("to play: {riders}").format(riders=", ".join(waiting)))
            if waiting and not self.tutor.done
            else ""
        )
        round_ = html.escape(_("Round {n}").format(n=race.round)) + " · " if race.round else ""  # none in the setup
        phase = race.phase.title
        if self.tutor.round_ended:
            round_, todo = "", ""
            if race.round > 1:
                phase = (
                    _("The end of round {ended}: round {n} starts when you choose 'Start round {n}'")
                    if self.tutor.paused
                    else _("The end of round {ended}")
                ).format(ended=race.round - 1, n=race.round)
            else:
                phase = (
                    _("The breakaway is decided: round {n} starts when you choose 'Start round {n}'")
                    if self.tutor.paused
                    else _("The breakaway is decided")
                ).format(n=race.round)
        return (
            f"<div class='tutor-header'>{title}{track}{round_}"
            f"<span class='tutor-phase'>{html.escape(phase)}</span>{todo}</div>"
        )

    def hint(self) -> str:
        race = self.tutor.race
        if self.tutor.paused:
            return self._pause_hint()
        if race.phase.choosing:
            return self._choosing_hint()
        if race.phase is Phase.MOVEMENT:
            rid = race.to_move[0]
            return _(
                "Choose 'Next step': {rider} moves next ({how_far}), frontmost rider first. 'Finish round' "
                "resolves the rest of the round, rider by rider."
            ).format(rider=rid, how_far=move_words(race, rid))
        if race.phase is Phase.FINISHED:
            return _("{rider} wins the race! The results are below. Choose Back to look again, or Restart.").format(
                rider=race.winner
            )
        if race.phase is Phase.SETUP:
            rider = self.tutor.placing_rider
            if rider:
                return _(
                    "Place {rider}: choose a square and lane, then 'Place' (or click a free lane behind the "
                    "start line on the board)."
                ).format(rider=rider)
            placing = race.placing_team
            if placing:
                return _("Setup: waiting for {team} to place their riders.").format(team=placing.name)
            return _("Setup: waiting for the other teams to place their riders.")
        return _("Choose 'Next step': {phase}.").format(phase=race.phase.title)

    def _pause_hint(self) -> str:
        """The prompt while the board shows the end of a round (or of the breakaway)."""
        race = self.tutor.race
        if any(isinstance(e, BreakawayDecided) for e in self.tutor.last_events):
            return _(
                "The breakaway is decided: the riders in front took their exhaustion cards (E2). Look at the "
                "board and the log, then choose 'Start round {n}'."
            ).format(n=race.round)
        marks = self.tutor.highlights()
        shown = []
        gained, tired = list(marks.slipstreamed), list(marks.exhausted)
        if gained and "slipstream" in self.tutor.taught:
            shown.append(
                ngettext(
                    "The green +1 chip shows that {riders} gained by slipstream.",
                    "The green +1 chips show that {riders} gained by slipstream.",
                    len(gained),
                ).format(riders=and_list(gained))
            )
        if tired and "exhaustion" in self.tutor.taught:
            shown.append(
                ngettext(
                    "The E2 card shows that {riders} took an exhaustion card.",
                    "The E2 cards show that {riders} each took an exhaustion card.",
                    len(tired),
                ).format(riders=and_list(tired))
            )
        if shown:
            return _("Round {ended} is over. {marks} Look at the board, then choose 'Start round {n}'.").format(
                ended=race.round - 1, marks=" ".join(shown), n=race.round
            )
        return _("Round {ended} is over. Look at the board, then choose 'Start round {n}'.").format(
            ended=race.round - 1, n=race.round
        )

    def _choosing_hint(self) -> str:
        """The prompt of the energy phase (and the breakaway bids): draw, then choose a card."""
        race = self.tutor.race
        rider = self.tutor.active_rider
        if rider:
            n = len(race.riders[rider].hand)
            if race.phase is Phase.ENERGY:
                return _("Choose the card {rider} plays: one of its {n} drawn cards.").format(rider=rider, n=n)
            return _("Choose the card {rider} bids: one of its {n} drawn cards.").format(rider=rider, n=n)
        free = [rid for rid, b in self.tutor.draw_buttons.items() if not b.disabled]
        phase = race.phase.name_in_words.capitalize()
        if len(free) > 1:
            return _("{phase}: choose '{draw}' (or for {others}).").format(
                phase=phase, draw=self.tutor.draw_buttons[free[0]].description, others=and_list(free[1:])
            )
        if free:
            return _("{phase}: choose '{draw}'.").format(phase=phase, draw=self.tutor.draw_buttons[free[0]].description)
        return _("Energy phase: waiting for the other players.")

    def intro(self) -> list[Line]:
        race = self.tutor.race
        if race.phase is Phase.MOVEMENT:
            cards = rider_cards({rid: race.riders[rid].played for rid in race.to_move})
            return [
                Line(
                    _("The cards are on the table: {cards}. Movement order: {order}.").format(
                        cards=cards, order=", ".join(race.to_move)
                    ),
                    (rules.ORDER,),
                )
            ]
        if race.phase is Phase.SETUP:
            return [
                Line(
                    _(
                        "Setup: the players place their riders in turn, both riders each, in free lanes behind "
                        "the start line."
                    ),
                    (rules.SETUP_PLACE,),
                )
            ]
        if race.phase is Phase.ENERGY and self.tutor.draw_buttons:
            hand = race.hand_size(next(iter(self.tutor.draw_buttons)))
            return [
                Line(
                    ngettext(
                        "Round {round}. Each of your riders draws {hand} cards, plays 1 and recycles the other one.",
                        "Round {round}. Each of your riders draws {hand} cards, plays 1 and recycles the other {n}.",
                        hand - 1,
                    ).format(round=race.round, hand=hand, n=hand - 1),
                    (rules.DRAW, rules.PLAY, rules.RECYCLE),
                )
            ]
        if race.phase is Phase.BID_1:
            hand = (
                race.hand_size(next(iter(self.tutor.draw_buttons)))
                if self.tutor.draw_buttons
                else rules.hand_numbers()["hand"]
            )
            return [
                Line(
                    _(
                        "The breakaway bids: draw {hand} for the rider you pick, bid 1 card face down, recycle "
                        "{recycled}; then a second bid with the same rider."
                    ).format(hand=hand, recycled=hand - 1),
                    (rules.BID,),
                )
            ]
        if race.phase in (Phase.END_CARDS, Phase.END_SLIPSTREAM, Phase.END_EXHAUSTION):  # a position may start there
            return [Line(_("The movement phase is over: step through the end phase."))]
        return []

    def why_no_cards(self) -> str:
        race = self.tutor.race
        if not race.phase.choosing:
            if race.phase is Phase.FINISHED:
                return _("The race is over: no more cards.")
            return _("Cards are played in the energy phase; now it is the {phase}. Choose 'Next step'.").format(
                phase=race.phase.name_in_words
            )
        free = [rid for rid, b in self.tutor.draw_buttons.items() if not b.disabled]
        if free:
            return _("Draw first: choose '{draw}' to see its cards.").format(
                draw=self.tutor.draw_buttons[free[0]].description
            )
        return _("All your riders have played this round: choose 'Next step' when the energy phase is over.")


def move_words(race: Race, rider_id: str) -> str:
    """How far the next mover goes: "5 squares", or "5 squares: its 9 is capped by the climb"."""
    value, distance = race.move_values[rider_id], race.move_preview(rider_id)
    if distance is None or distance == value:
        return ngettext("{n} square", "{n} squares", value).format(n=value)
    square = race.riders[rider_id].square
    assert square is not None
    terrain = rules.move_distance(race.track, square, value)[1]
    if terrain == rules.ASCENT:
        said = ngettext(
            "{n} square: its {value} is capped by the climb",
            "{n} squares: its {value} is capped by the climb",
            distance,
        )
    elif terrain == rules.DESCENT:
        said = ngettext(
            "{n} square: its {value} is raised by the descent",
            "{n} squares: its {value} is raised by the descent",
            distance,
        )
    elif terrain == rules.SUPPLY:
        said = ngettext(
            "{n} square: its {value} is raised by the supply zone",
            "{n} squares: its {value} is raised by the supply zone",
            distance,
        )
    else:
        said = ngettext(
            "{n} square: its {value} is changed by the terrain",
            "{n} squares: its {value} is changed by the terrain",
            distance,
        )
    return said.format(n=distance, value=value)


def results_html(race: Race, learners: Sequence[str] = ()) -> str:
    """The results table at the finish: place, rider, squares past the line (or still to go), exhaustion cards
    taken; the riders in the engine's order (``Race.standings``: the ranking, then the others in movement order).
    With ``learners`` (the learner's teams, racing against others) a sentence above it says how the learner did,
    and the learner's rows are marked: "(you)" after the rider and in bold (``results_sentence``)."""
    finish = race.track.finish
    mine = learner_riders(race, learners)
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
        cells = [
            ordinal(place) if ranked else "—",
            _("{rider} (you)").format(rider=rid) if rid in mine else rid,
            rider.kind,
            where,
            str(rider.exhaustion),
        ]
        if rid in mine:
            rows.append(
                "<tr class='tutor-you'>" + "".join(f"<td><b>{html.escape(c)}</b></td>" for c in cells) + "</tr>"
            )
        else:
            rows.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
    title = _("Results")
    note = _("riders past the line are ranked: the furthest wins; on the same square the right lane is ahead")
    heads = [_("Place"), _("Rider"), _("Kind"), _("Squares"), _("Exhaustion cards taken")]
    sentence = results_sentence(race, learners)
    said = f"<p class='tutor-you-did'>{html.escape(sentence)}</p>" if sentence else ""
    return (
        f"<div class='tutor-results'>{said}<b>{html.escape(title)}</b> ({html.escape(note)})"
        "<table class='tutor-results-table'><thead><tr>"
        + "".join(f"<th>{html.escape(h)}</th>" for h in heads)
        + "</tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table></div>"
    )


def learner_riders(race: Race, learners: Sequence[str]) -> list[str]:
    """The learner's riders, best first, when the learner races against others (else none: no "you")."""
    riders = [rid for rid in race.standings() if race.riders[rid].team in learners]
    return riders if len(riders) < len(race.riders) else []


def results_sentence(race: Race, learners: Sequence[str]) -> str:
    """How the learner did: "Your best rider, red-S, finished in place 4 of 8." ("" when no rider is theirs)."""
    mine = learner_riders(race, learners)
    if not mine:
        return ""
    best, total = mine[0], len(race.riders)
    one = len(mine) == 1
    if best == race.winner:
        return (
            _("You won! Your rider, {rider}, is first of {total}.")
            if one
            else _("You won! Your rider {rider} is first of {total}.")
        ).format(rider=best, total=total)
    if best in race.ranking:
        place = race.standings().index(best) + 1
        return (
            _("Your rider, {rider}, finished in place {place} of {total}.")
            if one
            else _("Your best rider, {rider}, finished in place {place} of {total}.")
        ).format(rider=best, place=place, total=total)
    finish = race.track.finish
    to_go = (finish - (race.riders[best].square or 0)) if finish is not None else 0
    if one:
        return ngettext(
            "Your rider, {rider}, did not reach the finish line: {n} square to go.",
            "Your rider, {rider}, did not reach the finish line: {n} squares to go.",
            to_go,
        ).format(rider=best, n=to_go)
    return ngettext(
        "Your best rider, {rider}, did not reach the finish line: {n} square to go.",
        "Your best rider, {rider}, did not reach the finish line: {n} squares to go.",
        to_go,
    ).format(rider=best, n=to_go)


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
