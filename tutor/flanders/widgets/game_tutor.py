"""``GameTutor``: play In Flanders Field on the canvas, every step drawn and told with its rule.

    tutor = GameTutor.new_game(players=3, bots={"p2": "cautious", "p3": "bold"}, seed=0)
    tutor = GameTutor.from_scenario("push_your_luck")        # lessons: scenarios/push_your_luck.json
    tutor = GameTutor(game, humans=("p1",), dice=[(1, 2, 6)])  # any Game; loaded dice for the first rolls

The learner clicks "Roll the dice", then a pair (a button, or the card's space
on the board), then "Roll again" or "Stop"; after stopping, plays the cards in
the order they choose ("Play: ..." buttons), ticks the "May Retain" cards to
keep and clicks "End turn". Bots' turns are watched with the stepper: "Next
step" is one bot action, "Finish round" plays the bots until the learner's
turn. A click at the wrong time shows a warning and changes nothing; a second
click on the same control within ``debounce_s`` is ignored (a double click
runs one action).

The board keeps up with the game: a new click drops the rest of a running
animation (``Board.animate``), and "Bots play" draws the position it reaches at
once (the log tells each turn). A bust pauses before the next player's turn, the
lost troop pieces and discarded cards still on the board, until the learner
clicks "Continue" (``continue_button``). With ``goal=7`` the tutor says when the
learner's pawn reaches space 7 (lesson 4's challenge).

Attributes for lessons and tests: ``game``, ``board`` (``board.canvas``),
``status``, ``narration`` (HTML, the log; ``turns`` holds the ``Line`` objects per turn),
``roll_button``, ``stop_button``, ``pair_buttons`` (3), ``play_buttons``,
``keep_checks``, ``end_button``, ``next_button``, ``finish_button``,
``back_button``, ``restart_button``, ``continue_button``, ``results`` (HTML table at the end).
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
from tutor.flanders.cards import FIXED, CardId
from tutor.flanders.events import (Busted, CardTaken, DiceRolled, GameOver, PawnPlacedOnNine, TroopsLost, TurnEnded,
                                   TurnStarted)
from tutor.flanders.game import NINE, EndTurn, Game, Phase, Play, Roll, Stop, Take
from tutor.flanders.odds import PAIRS
from tutor.flanders.render import Board, Picture, frames_for, picture_of
from tutor.flanders.render.describe import describe_picture
from tutor.ui.controller import UndoController
from tutor.ui.controls import CSS, StatusLine, button, label
from tutor.ui.narration import Line, and_list, cite, plural
from tutor.ui.stepper import PhaseStepper
from tutor.ui.text_view import TextView

from .narration import captions, dice_words, log_html, narrate

EXTRA_CSS = """
<style>
.iff-log { max-height: 320px; overflow-y: auto; border: 1px solid #e0e0e0; border-radius: 4px; padding: 2px 8px; }
.iff-log summary { cursor: pointer; padding: 3px 0; }
.iff-row { flex-flow: row wrap; align-items: center; margin: 2px 0; }
.iff-results table { border-collapse: collapse; margin: 6px 0; font-size: 14px; }
.iff-results th, .iff-results td { border: 1px solid #bbb; padding: 3px 10px; text-align: left; }
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


class GameTutor(widgets.VBox):
    debounce_s = 0.35

    def __init__(self, game: Game, *, humans: Iterable[str] | None = None, title: str = "",
                 rebuild: Callable[[int], Game] | None = None, seed: int = 0,
                 dice: Sequence[Sequence[int]] = (), intro: str = "", goal: int | None = None):
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

        self.control = UndoController(lambda: self.game, self._warn)
        self.board = Board(game.cards, game.battlefield, len(game.players))
        self.header = widgets.HTML()
        self.status = StatusLine()
        self.text_view = TextView()  # the board in words, read out after each step
        self.narration = widgets.HTML()
        self.results = widgets.HTML()
        self.results.add_class("iff-results")
        self.roll_button = button("Roll the dice", "Roll the three dice", style="primary")
        self.stop_button = button("Stop and carry out my cards", "Stop rolling: carry out the cards you took")
        self.pair_buttons = [button("·", "Take the card on this pair's sum", width="auto") for _ in range(3)]
        self.end_button = button("End turn", "Discard the used cards (keep the ticked May Retain cards)",
                                 style="warning")
        self.play_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.keep_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.play_buttons: list[widgets.Button] = []
        self.keep_checks: dict[CardId, widgets.Checkbox] = {}
        self.roll_button.on_click(lambda _: self._guard("roll", self._on_roll))
        self.stop_button.on_click(lambda _: self._guard("stop", self._on_stop))
        for k, b in enumerate(self.pair_buttons):
            b.on_click(lambda _, k=k: self._guard(f"pair{k}", lambda: self._on_pair(k)))
        self.end_button.on_click(lambda _: self._guard("end", self._on_end))
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
        self.next_button, self.finish_button = self.stepper.next_button, self.stepper.finish_button
        self.back_button, self.restart_button = self.stepper.back_button, self.stepper.restart_button
        self.seed = self.stepper.seed
        self.children = self._layout()
        self.add_class("tutor-flanders")
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

        return cls(rebuild(seed), rebuild=rebuild, seed=seed, **kwargs)

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
        turn = widgets.HBox([self.roll_button, self.stop_button, label("  Take a card:"), *self.pair_buttons])
        resolve = widgets.HBox([label("Carry out:"), self.play_box, label("  Keep:"), self.keep_box,
                                self.end_button])
        for row in (turn, resolve):
            row.add_class("iff-row")
        bots = widgets.HBox([label("Bots and undo:"), self.stepper])
        bots.add_class("iff-row")
        return [widgets.HTML(CSS + EXTRA_CSS), self.header, self.board.canvas, self.text_view, self.status,
                widgets.HBox([self.continue_button]), turn, resolve, bots, self.results, self.narration]

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
        handler()

    def _refuse_paused(self) -> bool:
        """Warn and return True while a bust is shown (Continue goes on)."""
        if self._paused is None:
            return False
        self._warn("Look at the bust on the board, then click 'Continue' for the next turn.")
        return True

    def _refuse_human(self, what: str) -> bool:
        """Warn and return True when it is not the learner's turn."""
        game = self.game
        if self._refuse_paused():
            return True
        if game.phase is Phase.FINISHED:
            self._warn(f"The game is over ({and_list(game.winners)} won): click Restart for a new game, "
                       "or Back to look again.")
            return True
        if not self.human_turn:
            self._warn(f"Not your turn: it is {game.player.id}'s turn ({game.player.bot or 'another player'}). "
                       "Click 'Next step' to watch it, or 'Bots play' to let the bots play until your turn.")
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
            self._warn(f"The game is over ({and_list(self.game.winners)} won). Click Restart for a new game.")
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
        self._bots_play(animate=False)

    def _bots_play(self, limit: int | None = None, *, animate: bool = True) -> None:
        snapshot, dice = self._snapshot(), self.game.dice
        events = self.control.act(lambda: autoplay(self.game, people=self.humans, limit=limit)) or []
        self._note_take(events, dice)
        self._after(events, snapshot, animate=animate)

    def _on_back(self) -> None:
        if not self.control.back("Nothing to undo: this is the starting position."):
            return
        self._chosen, self._last_dice, self._paused = (None, None), None, None
        self._add_lines("Back", [Line("Back: the position before the last action is restored.")])
        self._show()

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

    def _after(self, events: list[Event], snapshot: Picture, *, animate: bool = True) -> None:
        """Log ``events`` and show them on the board: step by step, or (``animate=False``) the end at once.
        A bust is shown up to its last loss and discard, and the board stays there until Continue."""
        cards = self.game.cards
        self._over = next((e for e in events if isinstance(e, GameOver)), self._over)
        pause = _bust_end(events) if animate else None
        if pause is not None:
            shown, rest = events[:pause], events[pause:]
            self._group(shown)
            frames = frames_for(snapshot, shown, captions(shown, cards), snapshot)[:-1]  # up to the last loss
            held = replace(frames[-1][0] if frames else snapshot, step=None, caption=self._bust_caption(shown),
                           rule="")
            self._paused = (rest, held)
            self.board.animate(frames + [(held, 0)])
        else:
            self._group(events)
            if animate:
                self.board.animate(frames_for(snapshot, events, captions(events, cards), self._picture()))
            else:
                self.board.draw(self._picture())
        self._show(draw=False)
        self._check_goal()

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
        self._show(draw=False)

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

    def _show(self, *, draw: bool = True, static: bool = False) -> None:
        self._refresh_controls()
        self.header.value = self._header()
        self.status.show(self._hint(), "success" if self.game.phase is Phase.FINISHED else "info")
        self.results.value = self._results() if self.game.phase is Phase.FINISHED else ""
        self.narration.value = log_html(self.turns)  # last: once the log shows a step, the controls are updated
        if draw:
            self.board.draw(self._picture(), static=static)
        self.text_view.show_since(describe_picture(self._picture(), self.game.cards, self.game.battlefield),
                                  [line for _, lines in self.turns for line in lines])

    def _warn(self, text: str) -> None:
        self.status.show(text, "warning")

    def _header(self) -> str:
        game = self.game
        title = f"<b>{html.escape(self.title)}</b> · " if self.title else ""
        phase = "Bust" if self._paused else game.phase.title
        return (f"<div class='tutor-header'>{title}Round {game.round} · "
                f"<span class='tutor-phase'>{html.escape(phase)}</span></div>")

    def _refresh_controls(self) -> None:
        game, mine = self.game, self.human_turn and self._paused is None
        phase = game.phase
        self.continue_button.layout.display = None if self._paused else "none"
        self.roll_button.disabled = not (mine and phase in (Phase.ROLL, Phase.AGAIN))
        self.roll_button.description = "Roll again" if phase is Phase.AGAIN else "Roll the dice"
        self.stop_button.disabled = not (mine and phase is Phase.AGAIN)
        offered = set(game.offered()) if phase is Phase.CHOOSE else set()
        seen: set[int] = set()
        for k, (i, j) in enumerate(PAIRS):
            b = self.pair_buttons[k]
            if phase is Phase.CHOOSE and game.dice is not None:
                total = game.dice[i] + game.dice[j]
                where = self._space_words(total)
                b.description = f"{game.dice[i]} + {game.dice[j]} = {total}: {where}"
                b.disabled = not mine or total not in offered or total in seen
                b.tooltip = (f"Take {where} from space {total}" if total in offered else
                             f"No card on space {total} this turn" if 3 <= total <= 11 else "No space")
                seen.add(total)
            else:
                b.description = f"pair {k + 1}"
                b.disabled = True
                b.tooltip = "Roll the dice first"
        plays = [a for a in game.legal_actions() if isinstance(a, Play)] if mine and phase is Phase.RESOLVE else []
        self.play_buttons = [self._play_button(a) for a in plays]
        self.play_box.children = self.play_buttons or [label("(after you stop)" if phase is not Phase.RESOLVE
                                                             else "(no card left to play)")]
        keepable = game.keepable() if mine and phase is Phase.RESOLVE else []
        self.keep_checks = {c: widgets.Checkbox(value=True, description=game.cards[c].name, indent=False,
                                                layout=widgets.Layout(width="auto")) for c in keepable}
        self.keep_box.children = list(self.keep_checks.values()) or [label("(no May Retain card)")]
        self.end_button.disabled = not (mine and phase is Phase.RESOLVE)
        self.stepper.update(can_step=self.bot_turn and self._paused is None, can_undo=self.control.can_back)

    def _space_words(self, total: int) -> str:
        if total == 9:
            return "fixed card (2nd pawn)"
        if 3 <= total <= 11:
            card = self.game.spaces.get(total)
            return self.game.cards[card].name if card is not None else "empty"
        return "no space"

    def play_words(self, action: Play) -> str:
        """The label of a Play button: ``"Tank: move 2"``, ``"Machine Gun: lose 1 troop"``."""
        game = self.game
        card = game.cards[action.card]
        name = "Fixed card on 9" if action.card == FIXED else card.name
        if card.german:
            return f"{name}: lose {card.losses} troop{'s' if card.losses != 1 else ''}"
        words = f"{name}: move {action.spaces}"
        if action.spaces > card.move:
            words += " (sacrifice 1 troop)"
        if action.mines:
            words += f" + {len(action.mines)} Mines"
        return words

    def _play_button(self, action: Play) -> widgets.Button:
        b = button(self.play_words(action), "Carry out this card now", style="info")
        b.on_click(lambda _: self._guard(f"play-{action}", lambda: self.play(action)))
        return b

    def _hint(self) -> str:
        game = self.game
        phase = game.phase
        if self._paused is not None:
            return "The bust is on the board: look at the troop pieces lost, then click 'Continue' for the next turn."
        if phase is Phase.FINISHED:
            return (f"Game over: {and_list(game.winners)} {'win' if len(game.winners) > 1 else 'wins'}. "
                    "See the results below; Restart plays again.")
        if not self.human_turn:
            return (f"{game.player.id} ({game.player.bot} bot) is playing: click 'Next step' to watch its next "
                    "action, or 'Bots play' to let the bots play until your turn.")
        if phase is Phase.ROLL:
            return "Your turn: click 'Roll the dice'."
        if phase is Phase.CHOOSE:
            assert game.dice is not None
            offered = game.offered()
            if len(offered) == 1:
                return (f"You rolled {dice_words(game.dice)}: only space {offered[0]} is offered, so you must take it. "
                        "Click its pair (or its card on the board).")
            return (f"You rolled {dice_words(game.dice)}: choose a pair. Spaces offered: {and_list(offered)} "
                    "(click a pair button, or the card on the board).")
        if phase is Phase.AGAIN:
            p = game.bust_probability()
            return (f"Roll again (bust chance {float(p) * 100:.1f}%, {plural(game.at_stake(), 'troop piece')} at "
                    "stake), or Stop and carry out your cards.")
        if self.play_buttons:
            return ("Carry out your cards in the order you choose (the 'Carry out' buttons), then click 'End turn'. "
                    "German cards you leave are applied at the end of the turn.")
        return "Click 'End turn' (ticked May Retain cards are kept for a later turn)."

    def _why_not_roll(self) -> str:
        phase = self.game.phase
        if phase is Phase.CHOOSE:
            return "You have rolled: take a card first (one of the pairs), then you may roll again."
        if phase is Phase.RESOLVE:
            return "You stopped: no more rolls this turn. Carry out your cards, then click 'End turn'."
        return self._hint()

    def _results(self) -> str:
        game = self.game
        objective = game.battlefield.objective
        order = sorted(game.players, key=lambda p: (p.id not in game.winners, -p.pawn, -p.troops))
        rows = "".join(
            f"<tr><td>{k + 1}</td><td>{html.escape(p.id)}{' (you)' if p.id in self.humans else f' · {p.bot} bot'}"
            f"</td><td>{p.pawn}{' (Objective line)' if p.pawn == objective else ''}</td><td>{p.troops}</td>"
            f"<td>{p.turns}</td><td>{'winner' if p.id in game.winners else ''}</td></tr>"
            for k, p in enumerate(order))
        return ("<table><caption>Results</caption><tr><th>Rank</th><th>Player</th><th>Pawn on space</th>"
                f"<th>Troop pieces</th><th>Turns</th><th></th></tr>{rows}</table>"
                f"<p class='tutor-rule'>{html.escape(cite(self._over.rules if self._over else (R.OBJECTIVE,)))}</p>")



def _bust_end(events: Sequence[Event]) -> int | None:
    """The index of the end of the turn that follows a bust, when more follows it (a pause goes there)."""
    busted = False
    for k, event in enumerate(events):
        busted = busted or isinstance(event, Busted)
        if busted and isinstance(event, TurnEnded):
            return k if k + 1 < len(events) else None
    return None
