"""The bots' turns on the board, and the end of a long game (``BotReplay``, a part of ``GameTutor``).

``BotReplay`` holds its own state (the replay running, the round it shows, "Finish the game") and reaches the
tutor only through what its constructor is given: the game, the board, the undo controller, the prompt and a few
callables (show, log, focus); the tutor reads it only through its public properties and methods. Neither reads
the other's private attributes.

"Bots play" replays every bot step (the dice, the pair, the card, the stop or the bust), each step's sentence in
the prompt, in about ``tutor.ui.pace.BOT_TURN_MS`` a turn: the tumbling dice and the pawn's walk are left out,
each step still shows (``pace.fit``). "Watch each step" (``watch``) gives the slow replay, every frame. While a
replay runs the header shows the round of the step on the board (the ``TurnStarted`` event's round), so header
and caption agree. Skip shows the end; the prompt names Skip when the replay runs long.

"Finish the game" (``finish``, the games' one ``tutor.ui.pace.FinishOffer``): in a full game
(``GameTutor.new_game``) from round ``pace.FINISH_FROM_ROUND``, the game plays on quickly (``finish.finishing``) and
the learner still plays every one of their turns: the bots' turns are played at once (``bots.autoplay``), without a
replay, up to the learner's next turn, where the prompt names "Roll the dice"; the log keeps every turn. After the
learner's turn ends the bots' turns follow at once, in the same step (Back undoes both).

"Finish the game now" (``finish_now_button``): once every learner is out of the game (``Game.is_out``: no troop
pieces, no more turns), the bots play the rest of the game at once; it is the next control the prompt names.
"""

from __future__ import annotations

from typing import Callable, Sequence

import ipywidgets as widgets

from tutor.core.events import Event
from tutor.flanders.bots import autoplay
from tutor.flanders.cards import CardSet
from tutor.flanders.events import TurnStarted
from tutor.flanders.game import Game, Phase
from tutor.flanders.render import Board, Picture, frames_for
from tutor.i18n import N_, _
from tutor.ui import pace
from tutor.ui.controls import StatusLine, button
from tutor.ui.controller import UndoController
from tutor.ui.narration import Line

from .game_log import bust_end
from .narration import captions, narrate

QUICK_WORDS = N_("The bots played their turns at once: the log has each one.")
"""What the prompt says before the learner's turn when the bots' turns were played at once."""
FAST_PACE = 0.5
"""The fast replay's pace before fitting (``frames_for`` then leaves out the tumbling dice and pawn steps)."""


def replay_frames(
    before: Picture, events: Sequence[Event], cards: CardSet, final: Picture, *, watch: bool
) -> list[tuple[Picture, float]]:
    """The frames of a replay of ``events``: every frame at its pace with ``watch``, else the steps only, fitted to
    ``BOT_TURN_MS`` per turn."""
    told = captions(events, cards)
    if watch:
        return frames_for(before, events, told, final)
    frames = frames_for(before, events, told, final, pace=FAST_PACE)
    turns = max(1, sum(isinstance(e, TurnStarted) for e in events))
    durations = pace.fit([ms for _, ms in frames], pace.BOT_TURN_MS * turns)
    return [(picture, ms) for (picture, _), ms in zip(frames, durations)]


def step_rounds(events: Sequence[Event], cards: CardSet, first: int) -> list[int]:
    """The round of each told step of ``events`` (``Picture.step`` counts them from 1): ``first`` until a
    ``TurnStarted`` names another."""
    rounds, current = [], first
    for event, (text, _rule) in zip(events, captions(events, cards)):
        if isinstance(event, TurnStarted):
            current = event.round
        if text:
            rounds.append(current)
    return rounds


class BotReplay:
    """The replay of the bots' turns and "Finish the game", a part of ``GameTutor`` (see the module docstring).

    What it is given: ``game`` (the tutor's game now), ``humans`` (the learner's players), the ``board``, the undo
    ``control``, the ``status`` line (the prompt) and the ``skip_button`` and ``next_button`` it names; and the
    tutor's callables: ``bot_turn`` / ``human_turn`` (whose turn), ``paused`` (a bust is held on the board),
    ``picture`` / ``snapshot`` (the board now, with or without its caption), ``record`` (log events, noting the
    end of the game), ``note_take`` (the pair of a card taken, for the board), ``after`` (show an action's events
    step by step), ``show`` (controls, prompt and log for the game as it is), ``header`` (repaint the header),
    ``hint`` (the prompt's next step), ``warn``, ``focus_next`` and ``move_focus``.
    """

    def __init__(
        self,
        *,
        game: Callable[[], Game],
        humans: Sequence[str],
        board: Board,
        control: UndoController,
        status: StatusLine,
        skip_button: widgets.Button,
        next_button: widgets.Button,
        bot_turn: Callable[[], bool],
        human_turn: Callable[[], bool],
        paused: Callable[[], bool],
        picture: Callable[[], Picture],
        snapshot: Callable[[], Picture],
        record: Callable[[list[Event]], None],
        note_take: Callable[[list[Event], tuple[int, int, int] | None], None],
        after: Callable[[list[Event], Picture], None],
        show: Callable[..., None],
        header: Callable[[], None],
        hint: Callable[[], str],
        warn: Callable[[str], None],
        focus_next: Callable[[], None],
        move_focus: Callable[[widgets.Widget], None],
    ):
        self._game, self._humans, self._board, self._control = game, tuple(humans), board, control
        self._status, self._skip_button, self._next_button = status, skip_button, next_button
        self._bot_turn, self._human_turn, self._paused = bot_turn, human_turn, paused
        self._picture, self._snapshot, self._record, self._note_take = picture, snapshot, record, note_take
        self._after, self._show, self._header, self._hint = after, show, header, hint
        self._warn, self._focus_next, self._move_focus = warn, focus_next, move_focus
        self.watch = pace.WatchSetting()
        self.finish = pace.FinishOffer(
            _("Finish the game ▸▸"), _("Play on quickly: you still play your turns, the bots' turns are done at once")
        )
        """Once chosen (``finish.finishing``), the bots' turns are played at once; the learner still plays theirs."""
        self.finish_now_button = button(
            _("Finish the game now ▸▸"),
            _("You are out of the game: the bots play the rest of it at once"),
            style="primary",
        )
        self.finish_now_button.layout.display = "none"
        self._replay = False
        self._replay_lines: list[Line] = []
        self._shown_round: int | None = None
        self._step_rounds: list[int] = []
        self._skip_words = ""

    @property
    def replaying(self) -> bool:
        """ "Bots play" is replaying the bots' turns on the board (Skip shows the end)."""
        return self._replay

    @property
    def shown_round(self) -> int | None:
        """While a replay runs: the round of the step on the board (the header shows it); else None."""
        return self._shown_round

    def take_note(self) -> str:
        """What was just done at once ("The bots played their turns at once ..."), said once before the prompt:
        the note, now cleared ("" when there is none)."""
        return self.finish.take_note()

    @property
    def offers_finish(self) -> bool:
        """ "Finish the game" is offered now: a full game, late enough, a learner still playing, at the start of
        the learner's turn or on the bots' turn, not finishing yet."""
        game = self._game()
        return (
            self.finish.reached(game.round)
            and not self._replay
            and not self._paused()
            and not self.everyone_out
            and (self._bot_turn() or (self._human_turn() and game.phase is Phase.ROLL))
        )

    @property
    def everyone_out(self) -> bool:
        """Every learner is out of the game (no troop pieces: no more turns) while the bots play on."""
        game = self._game()
        return bool(self._humans) and not game.is_over and all(game.is_out(h) for h in self._humans)

    @property
    def offers_finish_now(self) -> bool:
        """ "Finish the game now" is offered: every learner is out, and nothing is being shown."""
        return self.everyone_out and not self._replay and not self._paused()

    def on_finish_game(self) -> None:
        """ "Finish the game": the bots' turns at once from now on (the learner still plays theirs)."""
        if not self.offers_finish:
            self._warn(
                _("'Finish the game' is offered from round {n}, while you play.").format(n=self.finish.first_round)
                + " "
                + self._hint()
            )
            return
        self.finish.choose()
        if self._bot_turn():
            self.bots_at_once(_(QUICK_WORDS))
            return
        self.finish.note = _("From now on the bots' turns are done at once.")
        self._show(draw=False, changed=[Line(self.finish.note)])
        self._focus_next()

    def on_finish_now(self) -> None:
        """ "Finish the game now": the bots play the rest of the game at once."""
        if not self.offers_finish_now:
            self._warn(_("The bots finish the game at once only when you are out of it.") + " " + self._hint())
            return
        self.bots_at_once(_("The bots played the rest of the game: the log has each turn."))

    def bots_at_once(self, words: str) -> None:
        """The bots' turns up to the learner's next turn (or the end), shown at once: one undo step."""
        game = self._game()
        dice = game.dice
        events = self._control.act(lambda: autoplay(game, people=self._humans)) or []
        self._note_take(events, dice)
        self._record(events)
        self.finish.note = words
        self._show(changed=[Line(words)])
        self._focus_next()

    def quickly(self, events: list[Event]) -> tuple[int, Picture] | None:
        """While finishing, after the learner's action (inside its undo step): when the turn passed to a bot, the
        bots play at once up to the learner's next turn, added to ``events``; the number of the learner's events
        and the board between them (None: nothing was added)."""
        if not self.finish.finishing or not self._bot_turn() or bust_end(events) is not None:
            return None
        mine, between = len(events), self._picture()
        events += autoplay(self._game(), people=self._humans)
        return mine, between

    def after_quickly(self, events: list[Event], snapshot: Picture, mine: int, between: Picture) -> None:
        """Show the learner's events step by step, then the board after the bots' turns; the log keeps every
        turn."""
        cards = self._game().cards
        own = events[:mine]
        self._record(events)
        self._board.animate(frames_for(snapshot, own, captions(own, cards), between) + [(self._picture(), 0)])
        self.finish.note = _(QUICK_WORDS)
        self._show(draw=False, changed=narrate(own, cards) + [Line(self.finish.note)])
        self._focus_next()

    def bots_play(self, limit: int | None = None, *, replay: bool = False) -> None:
        """The bots act (``limit`` actions, or until the learner's turn); replayed, or shown as one step."""
        game = self._game()
        snapshot, dice, round_ = self._snapshot(), game.dice, game.round
        events = self._control.act(lambda: autoplay(game, people=self._humans, limit=limit)) or []
        self._note_take(events, dice)
        if replay:
            self._replay_turns(events, snapshot, round_)
        else:
            self._after(events, snapshot)
            if self._bot_turn() and not self._paused():
                self._move_focus(self._next_button)  # the learner is stepping through the bots' actions

    def _replay_turns(self, events: list[Event], snapshot: Picture, round_: int) -> None:
        """ "Bots play": the board replays each bot step, its sentence in the prompt, and Skip shows the end; then
        the prompt and the focus go to the learner's next step."""
        cards = self._game().cards
        self._record(events)
        self._replay, self._replay_lines = True, narrate(events, cards)
        self._step_rounds = step_rounds(events, cards, first=round_)
        self._shown_round = self._step_rounds[0] if self._step_rounds else None
        self._show(draw=False)
        frames = replay_frames(snapshot, events, cards, self._picture(), watch=self.watch.value)
        self._skip_words = pace.skip_hint(sum(ms for _, ms in frames)) if self._board.animated else ""
        self._board.animate(frames, on_frame=self._say_step, after=self._replay_done)
        if self._replay:  # still playing (in a kernel): Skip is enabled now
            self._move_focus(self._skip_button)

    def _say_step(self, picture: Picture) -> None:
        """During the replay: the step on the board in the prompt (each new sentence once), its round in the
        header."""
        if not self._replay:
            return
        if picture.step and picture.step[0] <= len(self._step_rounds):
            shown = self._step_rounds[picture.step[0] - 1]
            if shown != self._shown_round:
                self._shown_round = shown
                self._header()
        if not picture.caption or picture.caption == self._status.text:
            return
        self._status.show(" ".join(filter(None, (picture.caption, self._skip_words))))

    def _replay_done(self) -> None:
        """The replay reached its end (or Skip, or "No animation"): the learner's turn."""
        if not self._replay:
            return
        self._replay, self._shown_round = False, None
        self._show(draw=False, changed=() if self._board.animated else self._replay_lines)
        self._focus_next()
