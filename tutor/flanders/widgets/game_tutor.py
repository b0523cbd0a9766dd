"""``GameTutor``: play In Flanders Field on the canvas, every step drawn and told with its rule.

    tutor = GameTutor.new_game(players=3, bots={"p2": "cautious", "p3": "bold"}, seed=0)
    tutor = GameTutor.from_scenario("push_your_luck")        # lessons: scenarios/push_your_luck.json
    tutor = GameTutor(game, humans=("p1",), dice=[(1, 2, 6)])  # any Game; loaded dice for the first rolls

The screen is the lesson shell (``tutor.ui.shell.LessonShell``); this module says what In Flanders Field does
on it. The board, and beside it the prompt (the one live region) with only the controls it names
(``game_controls.TurnControls``): "Roll the dice"; the three pairs (a button, or the card's space on the
board); "Roll again" or "Stop"; the cards to carry out in the order the learner chooses, the "May Retain" cards
to keep and "End turn". Under them one compact row: Back, Restart, Skip, "Watch each step", No animation, the
board in words, "How is this worked out?" (the odds; ``odds_picture=True``: the 216 rolls, odds_help.py), the
log, "Open a position code" (a code the teacher reads out, for a board of as many players; not with
``open_codes=False``) and "For teachers" (closed). After each action focus goes to ``next_control()`` (``focused``).

On the bots' turn the prompt names "Bots play": the board replays each of their steps in a few seconds, each
step's sentence in the prompt, Skip showing the end at once; "Next step" is one bot action; a full game offers
"Finish the game" from round 3 (the bots' turns at once, the learner's still the learner's), and once the learner
is out of the game "Finish the game now" is the next step (replay.py). A click at the wrong time shows a
warning and changes nothing; a second click on the same control within ``debounce_s`` is ignored (a double
click runs one action); a click drops the rest of a running animation. A bust pauses before the next player's
turn, the lost troop pieces and discarded cards still on the board, until "Continue" (``continue_button``). With
``goal=7`` the tutor says when the learner's pawn reaches space 7 (lesson 4's challenge). ``taught`` names the
parts of the game a lesson shows (taught.py: lesson 1 passes ``taught=()``, lesson 3 ``("odds",)``; None, a full
game, shows them all).

Attributes for lessons and tests: ``game``, ``board`` (``board.canvas``), ``status``, ``story`` (the log, a
``tutor.ui.narration.NarrationLog``, a section per turn, newest on top), ``narration`` (its HTML widget),
``turns`` (its sections: each turn's heading and ``Line`` objects), ``roll_button``, ``stop_button``, ``pair_buttons``
(3), ``play_buttons``, ``keep_checks``, ``end_button``, ``next_button``, ``finish_button`` ("Bots play"),
``skip_button``, ``back_button``, ``restart_button``, ``continue_button``, ``finish_game_button``,
``finish_now_button``, ``results`` (HTML table at the end, with how the learner did),
``replaying`` (the bots' turns are being replayed), ``focused`` (the control focus went to last).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import ipywidgets as widgets

from tutor.core.events import Event
from tutor.flanders import position_code
from tutor.flanders import scenario as scenarios
from tutor.flanders.bots import make_bot
from tutor.flanders.cards import CardId
from tutor.flanders.errors import ScenarioError
from tutor.flanders.events import CardTaken, DiceRolled, GameOver, PawnPlacedOnNine
from tutor.flanders.game import NINE, EndTurn, Game, Phase, Play, Roll, Stop, Take
from tutor.flanders.render import Board, Odds, Picture, frames_for, picture_of
from tutor.flanders.render.describe import describe_picture
from tutor.i18n import _
from tutor.ui import pace
from tutor.ui.controls import CSS, button, label
from tutor.ui.narration import Line, NarrationLog
from tutor.ui.screen import board_frame, changed_words, prompt_row
from tutor.ui.share import PositionBox
from tutor.ui.shell import LessonShell

from .game_controls import EXTRA_CSS, TurnControls, show_if
from .game_log import bust_end, log_events, log_lines, turn_heading
from .game_words import GameWords, bust_caption, caption, goal_words, header_html, opening_lines, results_html
from .narration import captions, narrate
from .odds_help import OddsHelp
from .replay import QUICK_WORDS, BotReplay
from .taught import shown_cards, taught_parts

SCENARIOS = Path("scenarios")  # where ``from_scenario`` looks for a scenario given by name (beside the lesson)


def load_scenario(name: str | Path | dict[str, Any]) -> dict[str, Any]:
    """A scenario dict from a dict, a path, or a name in ``scenarios/`` (``"bust"`` -> ``scenarios/bust.json``)."""
    if isinstance(name, dict):
        return name
    path = Path(name)
    if not path.suffix:
        path = SCENARIOS / f"{name}.json"
    return scenarios.load(path)


class GameTutor(LessonShell, widgets.VBox):
    """In Flanders Field on a canvas, with the controls of a learner who plays ``humans``."""

    def __init__(
        self,
        game: Game,
        *,
        humans: Iterable[str] | None = None,
        title: str = "",
        rebuild: Callable[[int], Game] | None = None,
        seed: int = 0,
        dice: Sequence[Sequence[int]] = (),
        intro: str = "",
        goal: int | None = None,
        odds_picture: bool = False,
        taught: Iterable[str] | None = None,
        open_codes: bool = True,
    ):
        super().__init__()
        self.words = GameWords(self)
        self._keep_state(game, humans, title, intro, rebuild, dice, goal)
        self.taught = taught_parts(taught)
        self.board = Board(shown_cards(game.cards, self.taught), game.battlefield, len(game.players))
        self.build_shell(
            lambda: self.game,
            [self.board],
            on_next=self._on_next,
            on_finish=self._on_finish,
            on_back=self._on_back,
            on_restart=self._on_restart,
            seed=seed,
            seed_enabled=rebuild is not None,
            next_tooltip=_("Watch the bot's next action"),
            finish_tooltip=_("Let the bots play until it is your turn"),
            teachers=[label(_("Restart deals the cards of this shuffle number."))],
            before_click=self.board.finish,  # a replay or an animation still playing jumps to its end
            position_box=PositionBox(
                self._open_position,
                decode=position_code.from_code,
                prefix=position_code.PREFIX,
                max_chars=position_code.MAX_CODE_CHARS,
            )
            if open_codes
            else None,
        )  # a learner opens the code the teacher reads out
        self.bots = BotReplay(
            game=lambda: self.game,
            humans=self.humans,
            board=self.board,
            control=self.control,
            status=self.status,
            skip_button=self.skip_button,
            next_button=self.next_button,
            bot_turn=lambda: self.bot_turn,
            human_turn=lambda: self.human_turn,
            paused=lambda: self._paused is not None,
            picture=self._picture,
            snapshot=self._snapshot,
            record=self._record,
            note_take=self._note_take,
            after=self._after,
            show=self._show,
            header=self._show_header,
            hint=self.words.hint,
            warn=self.warn,
            focus_next=self.focus_next,
            move_focus=self.move_focus,
        )
        """The bots' turns replayed, and "Finish the game" (replay.py)."""
        self._make_controls(odds_picture)
        self.children = self._layout()
        self.add_class("tutor-flanders")
        self.add_class("tutor-lesson")  # the template's rules for every lesson widget (a11y.css)
        self.board.on_client_ready(self.redraw)
        self._check_bots()
        self._begin([Line(intro)] if intro else [])

    def _keep_state(
        self,
        game: Game,
        humans: Iterable[str] | None,
        title: str,
        intro: str,
        rebuild: Callable[[int], Game] | None,
        dice: Sequence[Sequence[int]],
        goal: int | None,
    ) -> None:
        """What the tutor remembers besides the game: whose it is, the loaded dice, the bust pause, the goal."""
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
        self._over: GameOver | None = None  # the event that ended the game (its rules are cited under the results)
        self._start_troops = {p.id: p.troops for p in game.players}
        self._chosen: tuple[tuple[int, int] | None, int | None] = (None, None)
        self._last_dice: tuple[int, int, int] | None = None  # the roll the last card was taken with
        self._paused: tuple[list[Event], Picture] | None = None  # a bust: the events still to show, the board
        self.goal = goal
        self._goal_reached = False

    def _make_controls(self, odds_picture: bool) -> None:
        """The game's own controls: the turn's (``TurnControls``), Continue after a bust, the log, the odds."""
        self.header = widgets.HTML()
        self.story = NarrationLog(_("What happened"), open_=False, newest_first=True)  # one section per turn
        self.story.html.add_class("iff-log")  # in a box of its own height
        self.narration = self.story.html
        self.results = widgets.HTML()
        self.results.add_class("iff-results")
        self.continue_button = button(_("Continue ▸"), _("Go on to the next player's turn"), style="primary")
        self.continue_button.layout.display = "none"
        self.on_click(self.continue_button, "continue", self._on_continue)
        self.on_click(self.finish_game_button, "finish-game", self.bots.on_finish_game)
        self.on_click(self.finish_now_button, "finish-now", self.bots.on_finish_now)
        self.board.on_click(self._on_canvas_click)
        self.finish_button.description = _("Bots play ▸▸")
        self.finish_button.button_style = "primary"
        self.next_button.button_style = ""
        self.skip_button.description = _("Skip ▸|")
        self.turn = TurnControls(
            self.guard,
            on_roll=self._on_roll,
            on_stop=self._on_stop,
            on_pair=self._on_pair,
            on_play=self.play,
            on_end=self._on_end,
            lead=[self.finish_now_button, self.continue_button, self.finish_button, self.next_button],
            tail=[self.finish_game_button],
            keeping="retain" in self.taught,
        )
        self.actions = self.turn.actions
        self.roll_button, self.stop_button, self.end_button = (
            self.turn.roll_button,
            self.turn.stop_button,
            self.turn.end_button,
        )
        self.pair_buttons, self.keep_label = self.turn.pair_buttons, self.turn.keep_label
        self.odds_help = OddsHelp(picture=odds_picture)  # "How is this worked out?" (and lesson 3's picture)

    @property
    def play_buttons(self) -> list[widgets.Button]:
        return self.turn.play_buttons  # the cards the learner may carry out now

    @property
    def keep_checks(self) -> dict[CardId, widgets.Checkbox]:
        return self.turn.keep_checks  # the May Retain cards the learner may keep, each with its box

    @property
    def turns(self) -> list[tuple[str, list[Line]]]:
        return self.story.sections  # the log: each turn's heading and ``Line`` objects

    @property
    def bust_shown(self) -> bool:
        """The board stays on a bust until Continue."""
        return self._paused is not None

    # ----- the bots' part (replay.py), as lessons and tests name it -----------------------------------------
    @property
    def watch(self) -> pace.WatchSetting:
        return self.bots.watch  # "Watch each step": the slow replay

    @property
    def finish_game_button(self) -> widgets.Button:
        return self.bots.finish.button

    @property
    def finish_now_button(self) -> widgets.Button:
        return self.bots.finish_now_button

    @property
    def finish_from_round(self) -> int | None:
        """Round from which "Finish the game" is offered (None: never; ``new_game`` sets it)."""
        return self.bots.finish.from_round

    @finish_from_round.setter
    def finish_from_round(self, value: int | None) -> None:
        self.bots.finish.from_round = value

    @property
    def finishing(self) -> bool:
        """ "Finish the game" was chosen: the bots' turns are played at once; the learner still plays theirs."""
        return self.bots.finish.finishing

    @property
    def offers_finish(self) -> bool:
        return self.bots.offers_finish

    @property
    def offers_finish_now(self) -> bool:
        return self.bots.offers_finish_now

    @property
    def everyone_out(self) -> bool:
        return self.bots.everyone_out

    # ----- constructors ----------------------------------------------------------------------------------
    @classmethod
    def new_game(
        cls,
        players: int | Sequence[str] = 3,
        *,
        bots: Mapping[str, str] | None = None,
        seed: int = 0,
        beginners: bool = False,
        **kwargs: Any,
    ) -> GameTutor:
        """A new game; players not in ``bots`` are the learner's. Default: p1 is the learner, the others bots."""
        ids = [f"p{i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
        if bots is None:
            names = ("cautious", "bold", "threshold")
            bots = {pid: names[k % 3] for k, pid in enumerate(ids[1:])}
        all_bots = dict(bots)

        def rebuild(new_seed: int) -> Game:
            return Game.new(ids, bots=all_bots, beginners=beginners, seed=new_seed)

        tutor = cls(rebuild(seed), rebuild=rebuild, seed=seed, **kwargs)
        tutor.finish_from_round = pace.FINISH_FROM_ROUND  # a full game: "Finish the game" from round 3
        return tutor

    @classmethod
    def from_scenario(
        cls, scenario: str | Path | dict[str, Any], *, bots: Mapping[str, str] | None = None, **kwargs: Any
    ) -> GameTutor:
        """A tutor at a scenario's position (its ``actions`` are not played). Players in ``bots`` are bots."""
        data = load_scenario(scenario)

        def rebuild(new_seed: int) -> Game:
            return scenarios.build({**data, "seed": new_seed}, history=True, bots=bots)  # who plays: set up

        kwargs.setdefault("title", data.get("name", ""))
        kwargs.setdefault("intro", data.get("description", ""))
        seed = kwargs.pop("seed", data.get("seed", 0))
        return cls(rebuild(seed), rebuild=rebuild, seed=seed, **kwargs)

    # ----- layout ----------------------------------------------------------------------------------------
    def _layout(self) -> list[widgets.Widget]:
        """The board, and beside it (under it on a narrow page) the panel: prompt and actions, one secondary row,
        and what its disclosures open; the results under them, as wide as the page (a table needs the room)."""
        secondary = self.secondary_row(
            pace=[self.skip_button, self.watch], disclosures=[self.odds_help.button, self.story.toggle]
        )
        panel = widgets.VBox(
            [
                self.header,
                prompt_row(self.status, self.actions),
                secondary,
                self.odds_help.body,
                self.odds_help.picture,
                self.story.html,
                *self.code_body(),
                self.teachers.body,
                self.text_view.html,
            ]
        )
        panel.add_class("iff-panel")
        screen = widgets.HBox([board_frame(self.board), panel])
        screen.add_class("iff-screen")
        return [widgets.HTML(CSS + EXTRA_CSS), screen, self.results]

    def _open_position(self, data: dict[str, Any]) -> None:
        """A position code the teacher reads out: the whole class plays the same position, from its start. A code
        for another board (another number of players) is refused with a ``ScenarioError`` and changes nothing."""
        ids = {p["id"] for p in data["players"]}  # a code's position is valid (``position_code.from_code``)
        bots = {p.id: p.bot for p in self.game.players if p.bot and p.id in ids}  # the same bots play the position

        def rebuild(seed: int) -> Game:
            return scenarios.build({**data, "seed": seed}, history=True, bots=bots)

        game = rebuild(data.get("seed", 0))
        if len(game.players) != len(self.game.players):
            raise ScenarioError(
                _("it is for a board of {count} players, and this lesson's has {here}").format(
                    count=len(game.players), here=len(self.game.players)
                )
            )
        if game.battlefield != self.game.battlefield:
            raise ScenarioError(_("it is for another battlefield than this lesson's"))
        self._rebuild, self.seed.value = rebuild, data.get("seed", 0)
        self._on_restart()

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
    def _allowed(self, kind: str) -> bool:
        """The learner's action ``kind`` may be tried now (``refusal``); if not, say why."""
        why = self.words.refusal(kind)
        if why is not None:
            self.warn(why)
        return why is None

    def _on_roll(self) -> None:
        if self._allowed("roll"):
            self._act(Roll(self._dice.pop(0) if self._dice else None))

    def _on_stop(self) -> None:
        if self._allowed("stop"):
            self._act(Stop())

    def _on_pair(self, index: int) -> None:
        pairs = self.game.pairs()
        if self._allowed("take") and index < len(pairs):
            self._act(Take(pairs[index].total))

    def take(self, space: int) -> None:
        """Take the card on ``space`` (what a pair button or a click on the board does)."""
        if self._allowed("take"):
            self._act(Take(space))

    def _on_canvas_click(self, x: float, y: float) -> None:
        space = self.board.geometry.space_at(x, y)
        if space is None:
            return  # only the card spaces answer clicks
        if self.game.phase is not Phase.CHOOSE:
            self.warn(
                _("Space {n}: cards are taken right after a roll, with two of the dice.").format(n=space)
                + " "
                + self.words.hint()
            )
            return
        self.take(space)

    def play(self, action: Play) -> None:
        """Carry out one card (what a card button does)."""
        if self._allowed("play"):
            self._act(action)

    def _on_end(self) -> None:
        if self._allowed("end"):
            self._act(EndTurn(tuple(c for c, box in self.keep_checks.items() if box.value)))

    def _on_next(self) -> None:
        if self._allowed("bots"):
            self.bots.bots_play(limit=1)

    def _on_finish(self) -> None:
        if self._allowed("bots"):
            self.bots.bots_play(replay=True)

    def _on_back(self) -> None:
        if not self.back_step():
            return
        self._chosen, self._last_dice, self._paused = (None, None), None, None
        self.bots.finish.finishing = self.finishing and not self.bot_turn  # back before "Finish the game": replays
        log_lines(self.story, [Line(_("Back: the position before the last action is restored."))], _("Back"))
        self._show()
        self.focus_next()

    def _on_restart(self) -> None:
        seed = self.seed.value
        self.game = self._rebuild(seed) if self._rebuild else Game.from_dict(self._start)
        self._dice = list(self._dice_script)
        self._check_bots()
        self._start_troops = {p.id: p.troops for p in self.game.players}
        self.story.clear()
        self._paused, self._goal_reached, self._over = None, False, None
        self.bots.finish.finishing = False
        self.results.value = ""
        start = (
            _("Back to the starting position.")
            if "seed" not in self._start
            else _("A new game (shuffle number {seed}).").format(seed=seed)
        )
        self._begin([Line(start)] + ([Line(self.intro)] if self.intro else []))
        self.focus_next()

    # ----- acting ----------------------------------------------------------------------------------------
    def _snapshot(self) -> Picture:
        """The board before an action, without a caption (where the action's frames start)."""
        return self._picture(captioned=False)

    def _act(self, action: Any) -> None:
        """Run one engine action; a refused action shows why and changes nothing."""
        snapshot = self._snapshot()
        dice = self.game.dice
        quick: list[tuple[int, Picture]] = []

        def run() -> list[Event]:
            events = list(self.game.apply(action))
            quick.extend(filter(None, [self.bots.quickly(events)]))  # finishing: the bots' turns follow at once
            return events

        events = self.control.act(run)
        if events is None:
            return
        self._note_take(events, dice)
        if quick:
            self.bots.after_quickly(events, snapshot, *quick[0])
        else:
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
        pause = bust_end(events)
        shown = events if pause is None else events[:pause]
        self._group(shown)
        if pause is not None:
            frames = frames_for(snapshot, shown, captions(shown, cards), snapshot)[:-1]  # up to the last loss
            held = replace(frames[-1][0] if frames else snapshot, step=None, caption=bust_caption(shown), rule="")
            self._paused = (events[pause:], held)
            self.board.animate(frames + [(held, 0)])
        else:
            self.board.animate(frames_for(snapshot, events, captions(events, cards), self._picture()))
        self._show(draw=False, changed=narrate(shown, cards))
        self._check_goal()
        self.focus_next()

    def _on_continue(self) -> None:
        """After a bust: show the rest (the end of the turn, the next player's turn)."""
        if self._paused is None:
            self.warn(_("Nothing to continue: {hint}").format(hint=self.words.hint()))
            return
        rest, held = self._paused
        self._paused = None
        self._group(rest)
        self.board.animate(frames_for(held, rest, captions(rest, self.game.cards), self._picture()))
        self._show(draw=False, changed=narrate(rest, self.game.cards))
        if self.finishing and self.bot_turn:
            self.bots.bots_at_once(_(QUICK_WORDS))  # the bots' turns that follow the bust, at once
            return
        self.focus_next()

    def _check_goal(self) -> None:
        """Lesson 4's challenge: say once when the learner's pawn reaches the goal space."""
        if self.goal is None or self._goal_reached:
            return
        mine = [p for p in self.game.players if p.id in self.humans and p.pawn >= self.goal]
        if mine:
            self._goal_reached = True
            words = goal_words(mine[0].id, mine[0].pawn, self.goal)
            log_lines(self.story, [Line(words)], self._turn_heading())
            self.story.refresh()
            self.status.show(f"{words} {self.words.hint()}", "success")

    def _record(self, events: list[Event]) -> None:
        """Note the end of the game if ``events`` end it, and log them (the bots' part shows its events so)."""
        self._over = next((e for e in events if isinstance(e, GameOver)), self._over)
        self._group(events)

    def _group(self, events: list[Event]) -> None:
        """Add the events' lines to the log, one section per turn."""
        log_events(self.story, events, self.game.cards, self._turn_heading())

    def _turn_heading(self) -> str:
        return turn_heading(self.game.round, self.game.player.id)

    def _begin(self, lines: list[Line]) -> None:
        self.story.start(self._turn_heading(), lines + opening_lines(self.game), show=False)
        self._show(static=True)

    # ----- what the learner sees -------------------------------------------------------------------------
    def _picture(self, *, captioned: bool = True) -> Picture:
        """The board for the game as it is (the last card's pair outlined until the next roll)."""
        again = self.game.phase is Phase.AGAIN
        odds = "odds" in self.taught
        picture = picture_of(
            self.game,
            humans=self.humans,
            start_troops=self._start_troops,
            caption=caption(self.game, self.human_turn) if captioned else "",
            chosen=self._chosen[0] if again else None,
            chosen_space=self._chosen[1] if again else None,
            last_dice=self._last_dice if again else None,
            show_odds=None if odds else False,
        )
        return picture if odds else replace(picture, odds_panel=False)

    def redraw(self) -> None:
        """Repaint the canvas (the Voila page calls this when it connects)."""
        self.board.draw(self._paused[1] if self._paused else self._picture(), static=True)

    @property
    def replaying(self) -> bool:
        """ "Bots play" is replaying the bots' turns on the board (Skip shows the end)."""
        return self.bots.replaying

    def _show(self, *, draw: bool = True, static: bool = False, changed: Sequence[Line] = ()) -> None:
        """Controls, prompt, results, log and board for the game as it is; ``changed`` (what the last action
        did) is read out before the prompt."""
        self._refresh_controls()
        self._show_header()
        note = self.bots.take_note()  # what was just done at once, said once before the prompt
        self.status.show(
            f"{note} {self.words.hint()}" if note else self.words.hint(),
            "success" if self.game.phase is Phase.FINISHED else "info",
            changed=changed_words(changed),
        )
        over = self.game.phase is Phase.FINISHED
        self.results.value = results_html(self.game, self.humans, self._over) if over else ""
        self.story.refresh()  # last: once the log shows a step, the controls are set
        if draw:
            self.board.draw(self._picture(), static=static)
        mine = self.human_turn and self.game.phase is Phase.AGAIN and not self.replaying and "odds" in self.taught
        self.odds_help.show(Odds.of(self.game) if mine else None, self.game.available())
        self.text_view.show_since(
            describe_picture(self._picture(), self.board.cards, self.game.battlefield), self.story.every_line
        )

    def _show_header(self) -> None:
        """The header: the title, the round (while the bots' turns replay, the round of the step on the board) and
        the phase."""
        phase = _("Bust") if self._paused else _("The bots play") if self.replaying else self.game.phase.title
        self.header.value = header_html(self.title, self.bots.shown_round or self.game.round, phase)

    def next_control(self) -> widgets.Widget:
        """The control the prompt names now: focus goes there after each action."""
        game = self.game
        if self.replaying:
            return self.skip_button
        if self._paused is not None:
            return self.continue_button
        if game.phase is Phase.FINISHED:
            return self.restart_button
        if self.offers_finish_now:
            return self.finish_now_button
        if self.bot_turn:
            return self.finish_button
        if game.phase is Phase.CHOOSE:
            return next((b for b in self.pair_buttons if not b.disabled), self.roll_button)
        if game.phase is Phase.RESOLVE:
            return self.play_buttons[0] if self.play_buttons else self.end_button
        return self.roll_button

    def _refresh_controls(self) -> None:
        """Show only the controls the learner may use now (the others leave the page and the Tab order)."""
        free = self._paused is None and not self.replaying
        bots = self.bot_turn and free
        self.stepper.update(can_step=bots, can_undo=self.control.can_back)
        show_if(self.continue_button, self._paused is not None)
        show_if(self.finish_button, bots)
        show_if(self.next_button, bots)
        self.turn.refresh(self.game, self.human_turn and free)
        show_if(self.finish_game_button, self.offers_finish and free)
        show_if(self.finish_now_button, self.offers_finish_now)
