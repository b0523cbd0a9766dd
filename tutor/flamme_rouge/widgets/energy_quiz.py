"""``EnergyQuiz``: predict-then-reveal questions on the energy phase (draw 4, play 1, recycle 3), judged by the engine.

    from tutor.flamme_rouge.widgets.energy_quiz import EnergyQuiz
    EnergyQuiz()                       # the energy-phase questions of ``QUESTIONS``, one at a time

Each question sets up red-S's energy deck (the cards face down and the recycled ones) with the engine's
``Race.stack_deck``, shows it as a small card table, and asks what one energy-phase action does: where the three
cards not played go, how many cards a draw brings, whether the second rider may draw yet, where the played card is
after the round. The learner picks one of the offered answers; Reveal has the engine (``Race.draw``,
``Race.play``, ``Race.resolve``) do the action and reads the answer from the events it returns (``CardsDrawn``,
``CardsRecycled``, ``CardsRemoved``: which cards went where; ``where``), so the quiz can never disagree with the
rules. "Try again" asks the same question again; after Reveal, "Next question" moves on (round the questions),
each question with its own id (``ids``), so the lesson's progress counts each one. The shell (question, Reveal,
Try again, feedback, progress mark) is ``tutor.ui.RevealQuiz``.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import ipywidgets as widgets

from tutor.flamme_rouge import rules
from tutor.flamme_rouge.cards import Card
from tutor.flamme_rouge.errors import RiderOrderError
from tutor.flamme_rouge.events import CardPlayed, CardsDrawn, CardsRecycled, CardsRemoved, Event
from tutor.flamme_rouge.race import Phase, Race
from tutor.i18n import N_, _, ngettext
from tutor.ui.controls import label
from tutor.ui.narration import Line
from tutor.ui.quiz import RevealQuiz, Verdict, quiz_id

from .narration import narrate

RIDER, OTHER = "red-S", "red-R"
STAGE = "sprint-20"

ON_TOP, UNDER_DECK = N_("back on top of its deck"), N_("face up under its deck")
OUT_OF_GAME, IN_HAND = N_("out of the game"), N_("back in its hand")
ELSEWHERE, EXHAUSTION_CARD = N_("somewhere else"), N_("an exhaustion card")
YES, NO = N_("Yes"), N_("No")
"""The answers the questions offer (English: what the engine's action returns), shown translated."""


def shown(choice: str) -> str:
    """An answer as the learner reads it: a number as it is, words translated."""
    return choice if choice.isdigit() else _(choice)


Action = Callable[[Race], tuple[str, list[Event], list[Line]]]
"""Does the question's action on the race with the engine's actions; returns the answer the engine's events give,
those events and any line of why the engine said so."""


@dataclass(frozen=True)
class EnergyQuestion:
    question: str
    choices: tuple[str, ...]
    action: Action
    face_down: tuple[str, ...] = ()
    """red-S's face-down cards, top card first (empty: its shuffled starting deck)."""
    recycled: tuple[str, ...] = ()
    drawn: bool = False
    """red-S has drawn its cards before the question is asked."""


def where(rider: str, cards: Sequence[Card], events: Sequence[Event]) -> str:
    """Where ``events`` last put the rider's ``cards``, as the events say (drawn: ``IN_HAND``, recycled:
    ``UNDER_DECK``, removed at the end of the round: ``OUT_OF_GAME``); ``ELSEWHERE`` when no event moved one of
    them, or when they went to different places (played face down is not a place of the answers). Cards of one
    value are alike: an event that moves a 4 moves each 4 asked about."""
    places: dict[Card, str] = {}
    for event in events:
        if isinstance(event, CardsDrawn) and event.rider == rider:
            places.update(dict.fromkeys(event.cards, IN_HAND))
        elif isinstance(event, CardPlayed) and event.rider == rider:
            places[event.card] = ELSEWHERE
        elif isinstance(event, CardsRecycled) and event.rider == rider:
            places.update(dict.fromkeys(event.cards, UNDER_DECK))
        elif isinstance(event, CardsRemoved) and rider in event.cards:
            places[event.cards[rider]] = OUT_OF_GAME
    found = {places.get(card, ELSEWHERE) for card in cards}
    return found.pop() if len(found) == 1 else ELSEWHERE


def drawn(rider: str, events: Sequence[Event]) -> tuple[Card, ...]:
    """The cards the rider drew, as the events say (none: it drew nothing)."""
    return next((event.cards for event in events if isinstance(event, CardsDrawn) and event.rider == rider), ())


def played(rider: str, events: Sequence[Event]) -> Card | None:
    """The card the rider played, as the events say."""
    return next((event.card for event in events if isinstance(event, CardPlayed) and event.rider == rider), None)


def _highest(cards: Sequence[Card]) -> Card:
    return max(cards, key=lambda card: card.value)


def _where_cards_go(race: Race) -> tuple[str, list[Event], list[Line]]:
    events = race.draw(RIDER)
    hand = list(drawn(RIDER, events))
    chosen = _highest(hand)
    played_events = race.play(RIDER, chosen)
    hand.remove(chosen)
    return where(RIDER, hand, events + played_events), events + played_events, narrate(played_events)


def _how_many_drawn(race: Race) -> tuple[str, list[Event], list[Line]]:
    events = race.draw(RIDER)
    hand = drawn(RIDER, events)
    count = EXHAUSTION_CARD if len(hand) == 1 and hand[0].is_exhaustion else str(len(hand))
    return count, events, narrate(events)


def _second_rider_now(race: Race) -> tuple[str, list[Event], list[Line]]:
    try:
        events = race.draw(OTHER)
    except RiderOrderError:
        return (
            NO,
            [],
            [
                Line(
                    _("{other} must wait until {rider} has played one of its cards.").format(other=OTHER, rider=RIDER),
                    (rules.ROUND,),
                )
            ],
        )
    return YES if drawn(OTHER, events) else NO, events, narrate(events)


def _played_card_after_round(race: Race) -> tuple[str, list[Event], list[Line]]:
    events: list[Event] = []
    for rider in list(race.riders):
        events += race.draw(rider)
        events += race.play(rider, _highest(drawn(rider, events)))
    card = played(RIDER, events)
    events += race.resolve(Phase.END_EXHAUSTION)
    found = where(RIDER, [card] if card else [], events)
    return found, events, narrate([e for e in events if isinstance(e, CardsRemoved)])


QUESTIONS = (
    EnergyQuestion(
        N_("red-S draws 9, 5, 3 and 2 and plays the 9. Where do the other three cards go?"),
        (ON_TOP, UNDER_DECK, OUT_OF_GAME),
        _where_cards_go,
        face_down=("9", "5", "3", "2", "4", "4", "3"),
    ),
    EnergyQuestion(
        N_("red-S has only 2 cards left face down, and 6 recycled cards. How many cards does it draw?"),
        ("2", "4", "8"),
        _how_many_drawn,
        face_down=("5", "3"),
        recycled=("2", "9", "4", "4", "3", "2"),
    ),
    EnergyQuestion(
        N_("red-S has drawn its 4 cards but not played one yet. May you draw for red-R now?"),
        (YES, NO),
        _second_rider_now,
        drawn=True,
    ),
    EnergyQuestion(
        N_("red-S draws 9, 5, 3 and 2 and plays the 9. Where is that 9 when the next round begins?"),
        (IN_HAND, UNDER_DECK, OUT_OF_GAME),
        _played_card_after_round,
        face_down=("9", "5", "3", "2", "4", "4", "3"),
    ),
    EnergyQuestion(
        N_("red-S has just 3 cards left in all: 4, 3 and 2 face down, none recycled. How many does it draw?"),
        ("3", "4", EXHAUSTION_CARD),
        _how_many_drawn,
        face_down=("4", "3", "2"),
    ),
)
"""The questions and their choices in English (the quiz ids are made from the English words), shown translated."""


def _race(question: EnergyQuestion) -> Race:
    """A two-team race at its first energy phase, with red-S's deck as the question sets it (``Race.stack_deck``:
    the engine's, so the race is never edited from outside)."""
    race = Race.new(STAGE, teams=("red", "blue"), seed=2, history=False)
    if question.face_down or question.recycled:
        race.stack_deck(RIDER, question.face_down, question.recycled)
    if question.drawn:
        race.draw(RIDER)
    return race


def deck_html(race: Race) -> str:
    """red-S's cards by where they are: face down (counted, not shown), in hand, recycled, out of the game."""
    deck, played = race.riders[RIDER].deck, race.riders[RIDER].played

    def cards(found: list[Card]) -> str:
        return html.escape(", ".join(str(card) for card in found)) if found else html.escape(_("none"))

    face_down = len(deck.face_down)
    rows = (
        (_("Face down"), ngettext("{n} card", "{n} cards", face_down).format(n=face_down)),
        (_("Drawn, in hand"), cards(deck.hand)),
        (_("Recycled, face up under the deck"), cards(deck.recycled)),
        (_("Played this round"), cards([played] if played else [])),
        (_("Out of the game"), cards(deck.removed)),
    )
    body = "".join(
        f"<tr><th scope='row' style='text-align:left;padding-right:12px'>{html.escape(name)}</th><td>{value}</td></tr>"
        for name, value in rows
    )
    title = html.escape(_("The cards of {rider}").format(rider=RIDER), quote=True)
    return (
        f"<table class='tutor-deck' aria-label=\"{title}\"><caption style='text-align:left'>"
        f"<b>{title}</b></caption>{body}</table>"
    )


class EnergyQuiz(RevealQuiz):
    """Questions on the energy phase; ``choice_input`` takes the answer; ``correct_answer`` is the engine's."""

    prompt = N_("Choose your answer, then choose Reveal.")

    def __init__(self, questions: tuple[EnergyQuestion, ...] = QUESTIONS, title: str = ""):
        if not questions:
            raise ValueError("an energy quiz needs at least one question")
        self.questions, self.position = questions, 0
        self.board = widgets.HTML()
        self.choice_input = widgets.ToggleButtons(options=[], value=None, style={"button_width": "auto"})
        self._show(questions[0])
        super().__init__(
            question=questions[0].question,
            board=self.board,
            inputs=[label(_("Your answer:")), self.choice_input],
            title=title,
        )
        self.retry_button.tooltip = _("Answer again")
        self.reset()

    def _show(self, question: EnergyQuestion) -> None:
        self.race = _race(question)
        # Asked of a copy: the race shown stays as it was until Reveal.
        self.correct_answer, _, _ = question.action(_race(question))
        if self.correct_answer not in question.choices:
            raise ValueError(f"the engine's answer {self.correct_answer!r} is not among {question.choices}")
        with self.choice_input.hold_sync():
            self.choice_input.options = [(shown(choice), choice) for choice in question.choices]
            self.choice_input.value = None

    @property
    def answer(self) -> Any:
        return self.choice_input.value

    def answer_widgets(self) -> list[widgets.Widget]:
        return [self.choice_input]

    def missing_answer(self) -> str | None:
        return _("Choose your answer first.") if self.answer is None else None

    def play_out(self, answer: Any) -> Verdict:
        question = self.questions[self.position]
        found, events, why = question.action(self.race)
        right = answer == found
        told = (
            _("The answer is: {answer}.").format(answer=shown(found))
            if right
            else _("The answer is: {answer}. You said: {chosen}.").format(answer=shown(found), chosen=shown(answer))
        )
        # The story tells the rest: each rule is said once on the screen.
        return Verdict(right, told, why, [line for line in narrate(events) if line not in why])

    def restart(self) -> None:
        """The same question again, from its starting cards."""
        self._show(self.questions[self.position])

    @property
    def more_questions(self) -> bool:
        return len(self.questions) > 1

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(quiz_id(question.question) for question in self.questions)

    def next_question(self) -> None:
        self.position = (self.position + 1) % len(self.questions)
        question = self.questions[self.position]
        self._show(question)
        self.show_question(question.question)
        self.id = quiz_id(question.question)

    def redraw(self, *, static: bool = False, animate: bool = False) -> None:
        self.board.value = deck_html(self.race)
