"""What ``PredictQuiz`` says at Reveal, as plain functions of the question (``Asked``) and what the engine did
(``QuizOutcome``: the race after Reveal, its events, the positions before, the engine's answer): ``told`` (right
or wrong, the correct answer and the learner's) and ``why`` (the lines of the events that decided it; for
"exhausted", a line for every rider).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from tutor.flamme_rouge import rules
from tutor.flamme_rouge.cards import Card
from tutor.flamme_rouge.events import (
    Blocked,
    Event,
    ExhaustionChecked,
    Finished,
    NoSlipstream,
    PacksFound,
    RiderMoved,
    Slipstreamed,
)
from tutor.flamme_rouge.race import Race
from tutor.flamme_rouge.render.climb import climb_lines
from tutor.flamme_rouge.render.style import lane_name
from tutor.i18n import _

from .narration import Line, narrate


@dataclass(frozen=True)
class Asked:
    """The question: its kind (``PredictQuiz.ask``), the rider and target square it names, the phase that counts
    (``after``), and whether a square's answer names its lane."""

    ask: str
    rider: str
    target: int | None
    after: str
    with_lane: bool


@dataclass(frozen=True)
class QuizOutcome:
    """What the engine did on Reveal."""

    race: Race
    events: Sequence[Event]
    before: dict[str, tuple[int, int]]
    """The riders' positions before Reveal."""
    correct: Any
    """The engine's answer (``PredictQuiz.correct_answer``)."""


def card_value(card: str | int) -> int:
    """The squares a card moves its rider (``"E2"``, an exhaustion card, moves 2 like a 2)."""
    return Card.parse(card).value


def names(riders: set[str]) -> str:
    return ", ".join(sorted(riders)) if riders else _("nobody")


def or_list(items: Sequence[str]) -> str:
    """``"5"``, ``"5 or 6"``, ``"4, 5 or 6"``."""
    if len(items) < 2:
        return "".join(items)
    return _("{some} or {last}").format(some=", ".join(items[:-1]), last=items[-1])


def when(after: str) -> str:
    return _("after the movement phase") if after == "movement" else _("after slipstream")


def told(asked: Asked, outcome: QuizOutcome, answer: Any, right: bool) -> str:
    """The verdict's sentence: the correct answer, and the learner's when it was wrong."""
    correct, race = outcome.correct, outcome.race
    if asked.ask == "exhausted":
        said = _("Exhausted: {riders}.").format(riders=names(correct))
        return said if right else said + " " + _("You chose: {riders}.").format(riders=names(answer))
    if asked.ask in ("first", "winner"):
        said = (
            _("{rider} moves first: it is the frontmost rider.").format(rider=correct)
            if asked.ask == "first"
            else _("{rider} wins: {why}.").format(rider=correct, why=why_winner(outcome))
        )
        return said if right else said + " " + _("You said {answer}.").format(answer=answer)
    if asked.ask == "card":
        cards = sorted(correct, key=card_value)
        return _("{cards} takes {rider} to square {target}. With {answer}, it ends on square {square}.").format(
            cards=or_list(cards),
            rider=asked.rider,
            target=asked.target,
            answer=answer,
            square=race.riders[asked.rider].square,
        )
    square, lane = correct if asked.with_lane else (correct, None)
    where = (
        _("square {square}, {lane}").format(square=square, lane=lane_name(lane))
        if lane is not None
        else _("square {square}").format(square=square)
    )
    said = _("{rider} ends on {where} {when}.").format(rider=asked.rider, where=where, when=when(asked.after))
    if right:
        return said
    guess = (
        _("square {square}, {lane}").format(square=answer[0], lane=lane_name(answer[1]))
        if asked.with_lane
        else _("square {square}").format(square=answer)
    )
    return said + " " + _("You said {answer}.").format(answer=guess)


def why_winner(outcome: QuizOutcome) -> str:
    """Furthest past the line, or, level with another rider there, in the right-hand lane (the engine's
    ``Finished`` ranking and its lane tie-break, ``rules.ahead_by_lane``)."""
    finished = next(e for e in outcome.events if isinstance(e, Finished))
    level = rules.ahead_by_lane(outcome.race.positions(), finished.winner)
    if level:
        return _(
            "it is as far past the finish line as {riders}, and a tie goes to the rider in the right-hand lane"
        ).format(riders=", ".join(level))
    return _("it is the furthest past the finish line")


def why(asked: Asked, outcome: QuizOutcome, answer: Any) -> list[Line]:
    """The narrated events that decided the answer (for "exhausted": a line for every rider)."""
    events = outcome.events
    if asked.ask == "exhausted":
        return per_rider(outcome, answer) + narrate(
            [e for e in events if isinstance(e, ExhaustionChecked) and e.exempt]
        )
    if asked.ask == "first":
        first = outcome.correct  # the engine's movement order (Race.to_move) before the moves
        square = outcome.before[first][0]
        said = (
            _(
                "{rider} is on square {square}, the closest to the finish (and in the right lane of its square): "
                "it moves first, then the others from front to back."
            )
            if rules.ahead_by_lane(outcome.before, first)
            else _(
                "{rider} is on square {square}, the closest to the finish: it moves first, then the others from "
                "front to back."
            )
        )
        return [Line(said.format(rider=first, square=square), (rules.ORDER,))]
    if asked.ask == "winner":
        return narrate([e for e in events if isinstance(e, Finished)])
    mine: list[Event] = []
    for e in events:
        if isinstance(e, (RiderMoved, Blocked)) and e.rider == asked.rider:
            mine.append(e)
        elif isinstance(e, Slipstreamed) and asked.rider in e.riders:
            mine.append(e)
        elif isinstance(e, (PacksFound, NoSlipstream)) and asked.after == "slipstream":
            mine.append(e)
    return narrate(mine) + climb_lines(outcome.race, list(events), asked.rider)


def per_rider(outcome: QuizOutcome, ticked: set[str]) -> list[Line]:
    """For each rider: was it exhausted, what is in front of it (the engine's ``ExhaustionChecked``), and was
    the learner's tick right."""
    taken = outcome.correct
    checked = next((e for e in outcome.events if isinstance(e, ExhaustionChecked)), None)
    fronted = set(checked.riders) if checked else set()
    exempt = set(checked.exempt) if checked else set()
    lines: list[Line] = []
    for rid, rider in outcome.race.riders.items():
        square = rider.square
        assert square is not None
        if rid in exempt:
            reason = _("square {n} in front is empty, but it rides for a bot team").format(n=square + 1)
        elif rid in fronted:
            reason = _("square {n} in front of it is empty").format(n=square + 1)
        else:
            reason = _("square {n} in front of it is taken").format(n=square + 1)
        was = _("takes an exhaustion card") if rid in taken else _("takes none")
        mark = "✓" if (rid in ticked) == (rid in taken) else "✗"
        you = _("you ticked it") if rid in ticked else _("you left it unticked")
        lines.append(
            Line(
                _("{mark} {rider} (square {square}) {was}: {reason}; {you}.").format(
                    mark=mark, rider=rid, square=square, was=was, reason=reason, you=you
                ),
                () if lines else (rules.EXHAUSTION,),
            )
        )
    return lines
