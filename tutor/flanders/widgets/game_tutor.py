"""``GameTutor``: play In Flanders Field on the canvas, every step drawn and told with its rule.

    tutor = GameTutor.new_game(players=3, bots={"p2": "cautious", "p3": "bold"}, seed=0)
    tutor = GameTutor.from_scenario("push_your_luck")        # lessons: scenarios/push_your_luck.json
    tutor = GameTutor(game, humans=("p1",), dice=[(1, 2, 6)])  # any Game; loaded dice for the first rolls

One screen per step: the board, and beside it the prompt (the widget's one live region) with only the
controls it names: "Roll the dice"; then the three pairs (a button, or the card's space on the board); then
"Roll again" or "Stop"; after stopping, the cards to carry out in the order the learner chooses ("Play ..."),
the "May Retain" cards to keep and "End turn". Under them one compact row: Back, Restart, Skip, No animation,
the board in words, the log (closed) and "For teachers" (closed: the shuffle number). Focus follows play:
after each action it goes to the control the prompt names next (``focused``).

On the bots' turn the prompt names "Bots play": the bots play until the learner's turn and the board
replays each of their steps (the dice, the pair, the card, the stop or the bust), each step's sentence in
the prompt, in a few seconds ("Watch each step": slowly), Skip showing the end at once; "Next step" is one bot
action. A full game offers "Finish the game" from round 3 (replay.py). "How is this worked out?" opens the odds
of a roll-again decision; ``odds_picture=True`` (lesson 3) shows the 216 rolls beside it (odds_help.py). A click at the wrong time shows a
warning and changes nothing; a second click on the same control within ``debounce_s`` is ignored (a double
click runs one action).

The board keeps up with the game: a new click drops the rest of a running animation (``Board.animate``). A
bust of the learner (or after "Next step") pauses before the next player's turn, the lost troop pieces and
discarded cards still on the board, until "Continue" (``continue_button``). With ``goal=7`` the tutor says
when the learner's pawn reaches space 7 (lesson 4's challenge).

Attributes for lessons and tests: ``game``, ``board`` (``board.canvas``), ``status``, ``narration`` (HTML,
the log; ``turns`` holds the ``Line`` objects per turn), ``roll_button``, ``stop_button``, ``pair_buttons``
(3), ``play_buttons``, ``keep_checks``, ``end_button``, ``next_button``, ``finish_button`` ("Bots play"),
``skip_button``, ``back_button``, ``restart_button``, ``continue_button``, ``results`` (HTML table at the
end), ``replaying`` (the bots' turns are being replayed), ``focused`` (the control focus went to last).
"""

from __future__ import annotations

import html
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import ipywidgets as widgets

from tutor.core.events import Event
from tutor.flanders import rules as R
from tutor.flanders import scenario as scenarios
from tutor.flanders.bots import autoplay, make_bot
from tutor.flanders.cards import CardId
from tutor.flanders.events import (Busted, CardTaken, DiceRolled, GameOver, PawnPlacedOnNine, TroopsLost, TurnEnded,
                                   TurnStarted)
from tutor.flanders.game import NINE, EndTurn, Game, Phase, Play, Roll, Stop, Take
from tutor.flanders.odds import PAIRS
from tutor.flanders.render import Board, Odds, Picture, frames_for, picture_of
from tutor.flanders.render.describe import describe_picture
from tutor.ui.controller import UndoController
from tutor.ui.controls import CSS, StatusLine, button, label
from tutor.ui.narration import Line, and_list, plural
from tutor.ui.screen import (Disclosure, Focusing, MotionSetting, SecondaryRow, board_frame, changed_words,
                             prompt_row, teacher_section)
from tutor.ui.stepper import PhaseStepper
from tutor.ui.text_view import TextView

from .game_words import GameTutorWords
from .narration import captions, log_html, narrate
from .odds_help import OddsHelp
from .replay import FINISH_FROM_ROUND, BotReplay

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
.iff-results table { border-collapse: collapse; margin: 6px 0; font-size: 13.5px; width: 100%; }
.iff-results th, .iff-results td { border: 1px solid #bbb; padding: 2px 6px; text-align: left; }
.iff-results caption { text-align: left; font-weight: bold; padding-bottom: 4px; }
.jupyter-widgets button:disabled, .jupyter-button:disabled { opacity: 0.45; cursor: not-allowed; }
</style>
"""
SCENARIOS = Path("scenarios")
"""Where ``from_scenario`` looks for a scenario given by name (beside the lesson notebook)."""


def load_scenario(name: str | Path | dict[str, Any]) -> dict[str, Any]:
    """A scenario dict from a dict, a path, or a name in ``scenarios/`` (``"bust"`` -> ``scenarios/bust.json``)."""
    if isinstance(name, dict):
        return name
    path = Path(name)
    if not path.suffix:
        path = SCENARIOS / f"{name}.json"
    return scenarios.load(path)


class GameTutor(Focusing, BotReplay, GameTutorWords, widgets.VBox):
    debounce_s = 0.35

    def __init__(self, game: Game, *, humans: Iterable[str] | None = None, title: str = "",
                 rebuild: Callable[[int], Game] | None = None, seed: int = 0,
                 dice: Sequence[Sequence[int]] = (), intro: str = "", goal: int | None = None,
                 odds_picture: bool = False):
        super().__init__()
        self.game = game
        self.humans = tuple(humans) if humans is not None else tuple(p.id for p in game.players if not p.bot)
        unknown = [h for h in self.humans if h not in {p.id for p in game.players}]
        if unknown:
            raise ValueError(f"humans: {unknown[0]!r} is not a player of this game")
        self.title, self.intro = title, intro
        self._rebuild = rebuild
        self._start = game.to_dict()
        self._dice_script: list[tuple[int, int, int]] = [(d[0], d[1], d[2]) for d in dice]
        self._dice = list(self._dice_script)
        self._over: GameOver | None = None
        """The event that ended the game (its rules are cited under the results)."""
        self.turns: list[tuple[str, list[Line]]] = []
        self._start_troops = {p.id: p.troops for p in game.players}
        self._last_click: dict[str, float] = {}
        self._chosen: tuple[tuple[int, int] | None, int | None] = (None, None)
        self._last_dice: tuple[int, int, int] | None = None
        """The roll the last card was taken with (shown until the next roll)."""
        self._paused: tuple[list[Event], Picture] | None = None
        """After a bust: the events still to show (the next turns) and the picture the board stays on."""
        self.goal = goal
        self._goal_reached = False
        self._replay, self._replay_lines = False, []  # "Bots play" replays (``replaying``) and what it said
        self._replay_setup()

        self.control = UndoController(lambda: self.game, self._warn)
        self.board = Board(game.cards, game.battlefield, len(game.players))
        self.header = widgets.HTML()
        self.status = StatusLine()
        self.text_view = TextView()  # the board in words, on demand
        self.narration = widgets.HTML()
        self.results = widgets.HTML()
        self.results.add_class("iff-results")
        self.roll_button = button("Roll the dice", "Roll the three dice", style="primary")
        self.stop_button = button("Stop and carry out my cards", "Stop rolling: carry out the cards you took")
        self.pair_buttons = [button("·", "Take the card on this pair's sum", width="auto") for _ in range(3)]
        self.end_button = button("End turn", "Discard the used cards (keep the ticked May Retain cards)",
                                 style="warning")
        self.keep_label = label("Keep for a later turn:")
        self.play_buttons: list[widgets.Button] = []
        """The cards the learner may carry out now (shown; the others of ``_play_pool`` are hidden)."""
        self.keep_checks: dict[CardId, widgets.Checkbox] = {}
        self._plays: list[Play] = []
        self._play_pool: list[widgets.Button] = []
        self._keep_pool: list[widgets.Checkbox] = []
        """Buttons and boxes made once and relabelled: a control that stays in the page can take the focus at
        once (a new one is drawn a moment later)."""
        self.roll_button.on_click(lambda _: self._guard("roll", self._on_roll))
        self.stop_button.on_click(lambda _: self._guard("stop", self._on_stop))
        for k, b in enumerate(self.pair_buttons):
            b.on_click(lambda _, k=k: self._guard(f"pair{k}", lambda: self._on_pair(k)))
        self.end_button.on_click(lambda _: self._guard("end", self._on_end))
        self.finish_game_button.on_click(lambda _: self._guard("finish-game", self._on_finish_game))
        self.continue_button = button("Continue ▸", "Go on to the next player's turn", style="primary")
        self.continue_button.layout.display = "none"
        self.continue_button.on_click(lambda _: self._guard("continue", self._on_continue))
        self.board.on_click(self._on_canvas_click)
        self.stepper = PhaseStepper(
            on_next=lambda: self._guard("next", self._on_next), on_finish=lambda: self._guard("finish", self._on_finish),
            on_back=lambda: self._guard("back", self._on_back), on_restart=lambda: self._guard("restart", self._on_restart),
            seed=seed, seed_enabled=rebuild is not None,
            next_tooltip="Watch the bot's next action", finish_tooltip="Let the bots play until it is your turn")
        self.stepper.finish_button.description = "Bots play ▸▸"
        self.stepper.finish_button.button_style = "primary"
        self.stepper.next_button.button_style = ""
        self.next_button, self.finish_button = self.stepper.next_button, self.stepper.finish_button
        self.back_button, self.restart_button = self.stepper.back_button, self.stepper.restart_button
        self.skip_button = self.stepper.skip_button
        self.skip_button.description = "Skip ▸|"
        self.stepper.follow(self.board)
        self.seed = self.stepper.seed
        self.motion = MotionSetting([self.board])
        self.log_section = Disclosure("What happened", [self.narration], tooltip="Show the log of every turn")
        self.odds_help = OddsHelp(picture=odds_picture)  # "How is this worked out?" (and lesson 3's picture)
        self.teachers = teacher_section(self.seed, label("Restart deals the cards of this shuffle number."))
        self.children = self._layout()
        self.add_class("tutor-flanders")
        self.add_class("tutor-lesson")  # the template's rules for every lesson widget (a11y.css)
        self.board.on_client_ready(self.redraw)
        self._check_bots()
        self._begin([Line(intro)] if intro else [])

    # ----- constructors ----------------------------------------------------------------------------------
    @classmethod
    def new_game(cls, players: int | Sequence[str] = 3, *, bots: Mapping[str, str] | None = None, seed: int = 0,
                 beginners: bool = False, **kwargs: Any) -> GameTutor:
        """A new game; players not in ``bots`` are the learner's. Default: p1 is the learner, the others bots."""
        ids = [f"p{i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
        if bots is None:
            names = ("cautious", "bold", "threshold")
            bots = {pid: names[k % 3] for k, pid in enumerate(ids[1:])}
        all_bots = dict(bots)

        def rebuild(new_seed: int) -> Game:
            return Game.new(ids, bots=all_bots, beginners=beginners, seed=new_seed)

        tutor = cls(rebuild(seed), rebuild=rebuild, seed=seed, **kwargs)
        tutor.finish_from_round = FINISH_FROM_ROUND  # a full game: "Finish the game" from round 3
        return tutor

    @classmethod
    def from_scenario(cls, scenario: str | Path | dict[str, Any], *, bots: Mapping[str, str] | None = None,
                      **kwargs: Any) -> GameTutor:
        """A tutor at a scenario's position (its ``actions`` are not played). Players in ``bots`` are bots."""
        data = load_scenario(scenario)

        def rebuild(new_seed: int) -> Game:
            game = scenarios.build({**data, "seed": new_seed}, history=True)
            for p in game.players:
                p.bot = (bots or {}).get(p.id)
            return game

        kwargs.setdefault("title", data.get("name", ""))
        kwargs.setdefault("intro", data.get("description", ""))
        seed = kwargs.pop("seed", data.get("seed", 0))
        return cls(rebuild(seed), rebuild=rebuild, seed=seed, **kwargs)

    # ----- layout ----------------------------------------------------------------------------------------
    def _layout(self) -> list[widgets.Widget]:
        """The board, and beside it (under it on a narrow page) the panel: prompt and actions, results, one
        secondary row, and what its disclosures open."""
        self.actions = widgets.HBox()
        self.actions.add_class("iff-actions")
        self._pool(plays=6, keeps=3)
        secondary = SecondaryRow([self.back_button, self.restart_button, self.skip_button, self.watch, self.motion,
                                  self.text_view.toggle, self.odds_help.button, self.log_section.button,
                                  self.teachers.button])
        panel = widgets.VBox([self.header, prompt_row(self.status, self.actions), self.results, secondary,
                              self.odds_help.body, self.odds_help.picture, self.log_section.body, self.teachers.body,
                              self.text_view.html])
        panel.add_class("iff-panel")
        screen = widgets.HBox([board_frame(self.board), panel])
        screen.add_class("iff-screen")
        return [widgets.HTML(CSS + EXTRA_CSS), screen]

    def _pool(self, *, plays: int, keeps: int) -> None:
        """At least ``plays`` card buttons and ``keeps`` keep boxes in the action row."""
        while len(self._play_pool) < plays:
            b = button("", "Carry out this card now", style="info")
            b.on_click(lambda _, k=len(self._play_pool): self._play_card(k))
            self._play_pool.append(b)
        while len(self._keep_pool) < keeps:
            self._keep_pool.append(widgets.Checkbox(value=True, indent=False, layout=widgets.Layout(width="auto")))
        # the keep boxes before the cards: from the first card, End turn is only the other cards away
        self.actions.children = [self.continue_button, self.finish_button, self.next_button, self.roll_button,
                                 self.stop_button, *self.pair_buttons, self.keep_label, *self._keep_pool,
                                 *self._play_pool, self.end_button, self.finish_game_button]

    # ----- who plays -------------------------------------------------------------------------------------
    def _check_bots(self) -> None:
        for p in self.game.players:
            if p.bot:
                make_bot(p.bot)  # a ValueError names an unknown bot

    @property
    def human_turn(self) -> bool:
        return self.game.phase is not Phase.FINISHED and self.game.player.id in self.humans

    @property
    def bot_turn(self) -> bool:
        return self.game.phase is not Phase.FINISHED and self.game.player.id not in self.humans

    # ----- handlers --------------------------------------------------------------------------------------
    def _guard(self, control: str, handler: Callable[[], None]) -> None:
        """Run ``handler`` unless the same control was clicked a moment ago (a double click runs once)."""
        now = time.monotonic()
        if now - self._last_click.get(control, -1e9) < self.debounce_s:
            return
        self._last_click[control] = now
        self.board.finish()  # a replay or an animation still playing jumps to its end (the bots' replay ends)
        handler()

    def _refuse_paused(self) -> bool:
        """Warn and return True while a bust is shown (Continue goes on)."""
        if self._paused is None:
            return False
        self._warn("Look at the bust on the board, then choose 'Continue' for the next turn.")
        return True

    def _refuse_human(self, what: str) -> bool:
        """Warn and return True when it is not the learner's turn."""
        game = self.game
        if self._refuse_paused():
            return True
        if game.phase is Phase.FINISHED:
            self._warn(f"The game is over ({and_list(game.winners)} won): choose 'Restart' for a new game, "
                       "or 'Back' to look again.")
            return True
        if not self.human_turn:
            self._warn(f"Not your turn: it is {game.player.id}'s turn ({game.player.bot or 'another player'}). "
                       "Choose 'Bots play' to let the bots play until your turn, or 'Next step' for one action.")
            return True
        return False

    def _on_roll(self) -> None:
        if self._refuse_human("roll"):
            return
        if self.game.phase not in (Phase.ROLL, Phase.AGAIN):
            self._warn(self._why_not_roll())
            return
        dice = self._dice.pop(0) if self._dice else None
        self._act(Roll(dice))

    def _on_stop(self) -> None:
        if self._refuse_human("stop"):
            return
        if self.game.phase is not Phase.AGAIN:
            self._warn("You can stop only after taking a card, when the choice is 'roll again or stop'. "
                       + self._hint())
            return
        self._act(Stop())

    def _on_pair(self, index: int) -> None:
        if self._refuse_human("take"):
            return
        if self.game.phase is not Phase.CHOOSE or self.game.dice is None:
            self._warn("Roll the dice first: a card is taken with a pair of the dice just rolled. " + self._hint())
            return
        dice = self.game.dice
        i, j = PAIRS[index]
        self.take(dice[i] + dice[j])

    def take(self, space: int) -> None:
        """Take the card on ``space`` (what a pair button or a click on the board does)."""
        if self._refuse_human("take"):
            return
        if self.game.phase is not Phase.CHOOSE:
            self._warn("Roll the dice first: a card is taken with a pair of the dice just rolled. " + self._hint())
            return
        self._act(Take(space))

    def _on_canvas_click(self, x: float, y: float) -> None:
        space = self.board.geometry.space_at(x, y)
        if space is None:
            return  # only the card spaces answer clicks
        if self.game.phase is not Phase.CHOOSE:
            self._warn(f"Space {space}: cards are taken right after a roll, with two of the dice. " + self._hint())
            return
        self.take(space)

    def _play_card(self, index: int) -> None:
        """A card button: its card now (a double click on one card plays it once; the button is relabelled with
        the next card at once, and a press on it then plays that card)."""
        if index < len(self._plays):
            action = self._plays[index]
            self._guard(f"play-{action}", lambda: self.play(action))

    def play(self, action: Play) -> None:
        if self._refuse_human("play"):
            return
        self._act(action)

    def _on_end(self) -> None:
        if self._refuse_human("end"):
            return
        if self.game.phase is not Phase.RESOLVE:
            self._warn("The turn ends after you stop and carry out your cards (or at a bust). " + self._hint())
            return
        keep = tuple(c for c, box in self.keep_checks.items() if box.value)
        self._act(EndTurn(keep))

    def _on_next(self) -> None:
        if self._refuse_paused():
            return
        if self.game.phase is Phase.FINISHED:
            self._warn(f"The game is over ({and_list(self.game.winners)} won). Choose 'Restart' for a new game.")
            return
        if self.human_turn:
            self._warn(f"It is your turn ({self.game.player.id}): {self._hint()}")
            return
        self._bots_play(limit=1)

    def _on_finish(self) -> None:
        if self._refuse_paused():
            return
        if self.game.phase is Phase.FINISHED or self.human_turn:
            self._on_next()
            return
        self._bots_play(replay=True)

    def _on_back(self) -> None:
        if not self.control.back("Nothing to undo: this is the starting position."):
            return
        self._chosen, self._last_dice, self._paused = (None, None), None, None
        self._add_lines("Back", [Line("Back: the position before the last action is restored.")])
        self._show()
        self._focus_next()

    def _on_restart(self) -> None:
        seed = self.seed.value
        self.game = self._rebuild(seed) if self._rebuild else Game.from_dict(self._start)
        self._dice = list(self._dice_script)
        self._check_bots()
        self._start_troops = {p.id: p.troops for p in self.game.players}
        self.turns = []
        self._paused, self._goal_reached, self._over = None, False, None
        self.results.value = ""
        start = "Back to the starting position." if "seed" not in self._start else f"A new game (shuffle number {seed})."
        self._begin([Line(start)] + ([Line(self.intro)] if self.intro else []))
        self._focus_next()

    # ----- acting ----------------------------------------------------------------------------------------
    def _snapshot(self) -> Picture:
        again = self.game.phase is Phase.AGAIN
        return picture_of(self.game, humans=self.humans, start_troops=self._start_troops,
                          chosen=self._chosen[0] if again else None, chosen_space=self._chosen[1] if again else None,
                          last_dice=self._last_dice if again else None)

    def _act(self, action: Any) -> None:
        """Run one engine action; a refused action shows why and changes nothing."""
        snapshot = self._snapshot()
        dice = self.game.dice
        events = self.control.act(lambda: list(self.game.apply(action)))
        if events is None:
            return
        self._note_take(events, dice)
        self._after(events, snapshot)

    def _note_take(self, events: list[Event], dice: tuple[int, int, int] | None) -> None:
        """Remember the roll and the pair of the last card taken (outlined until the next roll)."""
        for e in events:
            if isinstance(e, DiceRolled):
                dice, self._chosen, self._last_dice = e.dice, (None, None), None
            elif isinstance(e, (CardTaken, PawnPlacedOnNine)):
                self._chosen = (e.chosen, NINE if isinstance(e, PawnPlacedOnNine) else e.space)
                self._last_dice = dice

    def _after(self, events: list[Event], snapshot: Picture) -> None:
        """Log ``events`` and show them on the board step by step; the prompt says what they changed and the
        focus goes to the next step. A bust is shown up to its last loss and discard, and the board stays
        there until Continue."""
        cards = self.game.cards
        self._over = next((e for e in events if isinstance(e, GameOver)), self._over)
        pause = _bust_end(events)
        shown = events if pause is None else events[:pause]
        self._group(shown)
        if pause is not None:
            frames = frames_for(snapshot, shown, captions(shown, cards), snapshot)[:-1]  # up to the last loss
            held = replace(frames[-1][0] if frames else snapshot, step=None, caption=self._bust_caption(shown),
                           rule="")
            self._paused = (events[pause:], held)
            self.board.animate(frames + [(held, 0)])
        else:
            self.board.animate(frames_for(snapshot, events, captions(events, cards), self._picture()))
        self._show(draw=False, changed=narrate(shown, cards))
        self._check_goal()
        self._focus_next()

    def _bust_caption(self, events: list[Event]) -> str:
        bust = next(e for e in events if isinstance(e, Busted))
        lost = sum(e.count for e in events if isinstance(e, TroopsLost) and e.player == bust.player)
        return f"Bust: {bust.player} loses {plural(lost, 'troop piece')} and discards its British cards."

    def _on_continue(self) -> None:
        """After a bust: show the rest (the end of the turn, the next player's turn)."""
        if self._paused is None:
            self._warn("Nothing to continue: " + self._hint())
            return
        rest, held = self._paused
        self._paused = None
        self._group(rest)
        self.board.animate(frames_for(held, rest, captions(rest, self.game.cards), self._picture()))
        self._show(draw=False, changed=narrate(rest, self.game.cards))
        self._focus_next()

    def _check_goal(self) -> None:
        """Lesson 4's challenge: say once when the learner's pawn reaches the goal space."""
        if self.goal is None or self._goal_reached:
            return
        mine = [p for p in self.game.players if p.id in self.humans and p.pawn >= self.goal]
        if mine:
            self._goal_reached = True
            words = f"Well done: {mine[0].id}'s pawn reached space {mine[0].pawn}"
            words += "." if mine[0].pawn == self.goal else f", past space {self.goal}."
            self._add_lines(None, [Line(words)])
            self.narration.value = log_html(self.turns)
            self.status.show(f"{words} {self._hint()}", "success")

    def _group(self, events: list[Event]) -> None:
        """Add the events' lines to the log, one section per turn."""
        cards = self.game.cards
        chunk: list[Event] = []
        for e in events:
            if isinstance(e, TurnStarted):
                if chunk:
                    self._add_lines(None, narrate(chunk, cards))
                    chunk = []
                self.turns.append((f"Round {e.round} · {e.player}", []))
            chunk.append(e)
        if chunk:
            self._add_lines(None, narrate(chunk, cards))

    def _add_lines(self, heading: str | None, lines: list[Line]) -> None:
        if not self.turns:
            self.turns.append((heading or self._turn_heading(), []))
        self.turns[-1][1].extend(lines)

    def _turn_heading(self) -> str:
        return f"Round {self.game.round} · {self.game.player.id}"

    def _begin(self, lines: list[Line]) -> None:
        self.turns.append((self._turn_heading(), lines + self._opening()))
        self._show(static=True)

    def _opening(self) -> list[Line]:
        game = self.game
        phase = game.phase
        who = game.player.id
        if phase is Phase.ROLL:
            return [Line(f"Round {game.round}: {who}'s turn. Roll the three dice.", (R.ROLL,))]
        if phase is Phase.AGAIN:
            return [Line(f"{who} has taken a card this turn: roll again, or stop.", (R.AGAIN,))]
        if phase is Phase.RESOLVE:
            return [Line(f"{who} has stopped: carry out the cards in the order you choose, then end the turn.",
                         (R.STOP, R.ORDER))]
        return []

    # ----- what the learner sees -------------------------------------------------------------------------
    def _picture(self) -> Picture:
        again = self.game.phase is Phase.AGAIN
        return picture_of(self.game, humans=self.humans, start_troops=self._start_troops, caption=self._caption(),
                          chosen=self._chosen[0] if again else None, chosen_space=self._chosen[1] if again else None,
                          last_dice=self._last_dice if again else None)

    def _caption(self) -> str:
        game = self.game
        if game.phase is Phase.FINISHED:
            return f"{and_list(game.winners)} {'win together' if len(game.winners) > 1 else 'wins'}."
        who = game.player.id + (" (you)" if self.human_turn else f" ({game.player.bot} bot)")
        return f"{who}: {game.phase.title}."

    def redraw(self) -> None:
        """Repaint the canvas (the Voila page calls this when it connects)."""
        self.board.draw(self._paused[1] if self._paused else self._picture(), static=True)

    @property
    def replaying(self) -> bool:
        """"Bots play" is replaying the bots' turns on the board (Skip shows the end)."""
        return self._replay

    def _show(self, *, draw: bool = True, static: bool = False, changed: Sequence[Line] = ()) -> None:
        """Controls, prompt, results, log and board for the game as it is; ``changed`` (what the last action
        did) is read out before the prompt."""
        self._refresh_controls()
        self.header.value = self._header()
        self.status.show(self._hint(), "success" if self.game.phase is Phase.FINISHED else "info",
                         changed=changed_words(changed))
        self.results.value = self._results() if self.game.phase is Phase.FINISHED else ""
        self.narration.value = log_html(self.turns)  # last: once the log shows a step, the controls are updated
        if draw:
            self.board.draw(self._picture(), static=static)
        mine = self.human_turn and self.game.phase is Phase.AGAIN and not self._replay
        self.odds_help.show(Odds.of(self.game) if mine else None, self.game.available())
        self.text_view.show_since(describe_picture(self._picture(), self.game.cards, self.game.battlefield),
                                  [line for _, lines in self.turns for line in lines])

    def _warn(self, text: str) -> None:
        self.status.show(text, "warning")

    def _header(self) -> str:
        game = self.game
        title = f"<b>{html.escape(self.title)}</b> · " if self.title else ""
        phase = "Bust" if self._paused else "The bots play" if self._replay else game.phase.title
        return (f"<div class='tutor-header'>{title}Round {self._shown_round or game.round} · "
                f"<span class='tutor-phase'>{html.escape(phase)}</span></div>")

    def _next_control(self) -> widgets.Widget:
        """The control the prompt names now: focus goes there after each action."""
        game = self.game
        if self._replay:
            return self.skip_button
        if self._paused is not None:
            return self.continue_button
        if game.phase is Phase.FINISHED:
            return self.restart_button
        if self.bot_turn:
            return self.finish_button
        if game.phase is Phase.CHOOSE:
            return next((b for b in self.pair_buttons if not b.disabled), self.roll_button)
        if game.phase is Phase.RESOLVE:
            return self.play_buttons[0] if self.play_buttons else self.end_button
        return self.roll_button

    def _focus_next(self) -> None:
        self.move_focus(self._next_control())

    def _refresh_controls(self) -> None:
        """Show only the controls the learner may use now (the others leave the page and the Tab order)."""
        game = self.game
        free = self._paused is None and not self._replay
        mine, phase = self.human_turn and free, game.phase
        bots = self.bot_turn and free
        self.stepper.update(can_step=bots, can_undo=self.control.can_back)
        _show_if(self.continue_button, self._paused is not None)
        _show_if(self.finish_button, bots)
        _show_if(self.next_button, bots)
        _show_if(self.roll_button, mine and phase in (Phase.ROLL, Phase.AGAIN))
        self.roll_button.description = "Roll again" if phase is Phase.AGAIN else "Roll the dice"
        _show_if(self.stop_button, mine and phase is Phase.AGAIN)
        choosing = mine and phase is Phase.CHOOSE and game.dice is not None
        offered = set(game.offered()) if choosing else set()
        seen: set[int] = set()
        for k, (i, j) in enumerate(PAIRS):
            b = self.pair_buttons[k]
            _show_if(b, choosing)
            if not choosing or game.dice is None:
                continue
            total = game.dice[i] + game.dice[j]
            b.disabled = total not in offered or total in seen
            b.description = f"{game.dice[i]} + {game.dice[j]} = {total}: {self._pair_words(total, offered, seen)}"
            b.tooltip = (f"Take the card on space {total}" if total in offered else
                         f"No card to take on space {total}" if 3 <= total <= 11 else "No space")
            seen.add(total)
        self._plays = [a for a in game.legal_actions() if isinstance(a, Play)] if mine and phase is Phase.RESOLVE \
            else []
        keepable = game.keepable() if mine and phase is Phase.RESOLVE else []
        self._pool(plays=len(self._plays), keeps=len(keepable))
        for b, action in zip(self._play_pool, self._plays + [None] * len(self._play_pool)):
            _show_if(b, action is not None)
            if action is not None:
                b.description = self.play_words(action)
        self.play_buttons = self._play_pool[:len(self._plays)]
        kept = {card: box.value for card, box in self.keep_checks.items()}  # the learner's ticks stay
        self.keep_checks = dict(zip(keepable, self._keep_pool))
        for k, box in enumerate(self._keep_pool):
            _show_if(box, k < len(keepable))
            if k < len(keepable):
                box.value, box.description = kept.get(keepable[k], True), game.cards[keepable[k]].name
        _show_if(self.keep_label, bool(keepable))
        _show_if(self.end_button, mine and phase is Phase.RESOLVE)
        _show_if(self.finish_game_button, self.offers_finish and free)


def _show_if(control: widgets.Widget, shown: bool) -> None:
    """Show ``control`` (enabled) or take it off the page (disabled)."""
    control.layout.display = None if shown else "none"
    if hasattr(control, "disabled"):
        control.disabled = not shown


def _bust_end(events: Sequence[Event]) -> int | None:
    """The index of the end of the turn that follows a bust, when more follows it (a pause goes there)."""
    busted = False
    for k, event in enumerate(events):
        busted = busted or isinstance(event, Busted)
        if busted and isinstance(event, TurnEnded):
            return k if k + 1 < len(events) else None
    return None
