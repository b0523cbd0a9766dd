"""Predict, then reveal, on In Flanders Field positions (the ``tutor.ui.RevealQuiz`` shell).

    FlandersQuiz(["forced_a", "forced_b"], ask="take", question="Which space must p1 take?")
    FlandersQuiz(["bust_a"], ask="lost", player="p1", question="How many troop pieces does p1 lose?")
    RiskQuiz([("risk_a1", "risk_a2")], question="Which position is riskier to roll in?")

Each position is a scenario (a name in ``scenarios/``, a path or a dict) whose
``description`` tells the learner what happens, without the answer. ``ask``:

- ``"take"``: the board shows the roll; the learner clicks the card space to take
  (on the board, or a button); right when the engine offers that space.
- ``"lost"``, ``"pawn"``, ``"troops"``: a number (troop pieces lost, the pawn's
  space, troop pieces left) for ``player`` after the scenario's actions.
- ``"winners"``: who wins (a player, or a tie).
- ``"bust"``: whether the next roll busts.

The board sits beside the panel (position, question, answer, prompt with Reveal
and Try again, one secondary row, the verdict): one screen at 1366x680. A "take"
position where several spaces are right says so. Before Reveal the board shows
the position only: no offered space, no pair sums, no odds. Reveal plays the
scenario's actions on the board, step by step with their rules, and says what
decided the answer. "Try again" moves on to the next
position of the list, so the learner never answers the same position twice
in a row.
"""

from __future__ import annotations

import html
from fractions import Fraction
from itertools import combinations
from typing import Any, Sequence

import ipywidgets as widgets

from tutor.core.events import Event
from tutor.flanders import rules as R
from tutor.flanders import scenario as scenarios
from tutor.flanders.events import Busted, CardTaken, DiceRolled, GameOver, PawnMoved, PawnPlacedOnNine, TroopsLost
from tutor.flanders.game import Game, Phase, Take
from tutor.flanders.odds import DICE, ROLLS, SPACES
from tutor.flanders.render import Board, frames_for, percent, picture_of
from tutor.flanders.render.board import Frame
from tutor.flanders.render.describe import describe_picture
from tutor.i18n import N_, _, ngettext
from tutor.ui.controls import label
from tutor.ui.narration import Line, and_list
from tutor.ui.quiz import RevealQuiz, Verdict
from tutor.ui.screen import Disclosure, board_frame

from .game_controls import EXTRA_CSS
from .game_tutor import load_scenario
from .narration import captions, narrate
from .odds_help import rolls_picture

ASKS = ("take", "lost", "pawn", "troops", "winners", "bust")


def bust_rolls(chance: Fraction) -> int:
    """How many of the ``odds.ROLLS`` rolls of the dice bust, for a bust chance (odds are told one way: "34 of
    216")."""
    return int(chance * ROLLS)


def beside_the_board(quiz: RevealQuiz, *above: widgets.Widget) -> list[widgets.Widget]:
    """The quiz's children as one screen: its board, and beside it ``above``, the question, the answer, the
    prompt with Reveal and Try again, the secondary row (with the board in words) and the verdict."""
    css, header, board, *rest = quiz.children
    panel = widgets.VBox([*above, *rest])
    panel.add_class("iff-panel")
    screen = widgets.HBox([board, panel])
    screen.add_class("iff-screen")
    return [widgets.HTML(EXTRA_CSS), css, header, screen]


class FlandersQuiz(RevealQuiz):
    def __init__(
        self,
        positions: Sequence[str | dict[str, Any]],
        *,
        question: str,
        ask: str,
        player: str = "p1",
        explain: str = "",
        title: str = "",
    ):
        if ask not in ASKS:
            raise ValueError(f"ask must be one of {ASKS}, not {ask!r}")
        if not positions:
            raise ValueError("a quiz needs at least one position")
        self.positions = [load_scenario(p) for p in positions]
        self.ask, self.player = ask, player
        self.index = 0
        self._frames: list[Frame] = []
        self._events: list[Event] = []
        self.game = self._build()
        self.board = Board(self.game.cards, self.game.battlefield, len(self.game.players), odds=False)
        self.position_text = widgets.HTML()
        self.choice = widgets.ToggleButtons(options=[], value=None, style={"button_width": "auto"})
        self.prompt = (
            N_("Choose a card space (on the board, or its number above), then 'Reveal'.")
            if ask == "take"
            else N_("Choose your answer, then 'Reveal'.")
        )
        super().__init__(
            question=question,
            board=board_frame(self.board),
            inputs=[label(_("Your answer:")), self.choice],
            title=title,
            explain=explain,
            scenes=[self.board],
            in_words=True,
        )
        self.children = beside_the_board(self, self.position_text)
        self.board.on_click(self._on_canvas_click)
        self.board.on_client_ready(lambda: self.redraw(static=True))
        self._set_position()
        self.reset()

    # ----- positions -------------------------------------------------------------------------------------
    @property
    def scenario(self) -> dict[str, Any]:
        return self.positions[self.index]

    def _build(self) -> Game:
        """The position shown: for ``take``, after the scenario's first roll."""
        game = scenarios.build(self.scenario, history=True)
        if self.ask == "take":
            for action in scenarios.actions(self.scenario):
                game.apply(action)
                if game.phase is Phase.CHOOSE:
                    break
        return game

    def _set_position(self) -> None:
        n = len(self.positions)
        where = _("Position {n} of {m}:").format(n=self.index + 1, m=n) + " " if n > 1 else ""
        self.choice.options = self._options()
        self.choice.value = None
        self.correct_answer = self._correct()
        several = self.ask == "take" and len(self.correct_answer) > 1
        note = " <i>" + html.escape(_("Several answers are right here: choose one.")) + "</i>" if several else ""
        self.position_text.value = (
            f"<div class='tutor-header'>{html.escape(where)}"
            f"{html.escape(self.scenario.get('description', ''))}{note}</div>"
        )

    def _options(self) -> list[tuple[str, Any]]:
        game = self.game
        if self.ask == "take":
            return [(str(s), s) for s in SPACES] + [(_("no card"), 0)]
        if self.ask == "bust":
            return [(_("Yes, a bust"), True), (_("No"), False)]
        if self.ask == "winners":
            ids = [p.id for p in game.players]
            opts: list[tuple[str, Any]] = [(pid, (pid,)) for pid in ids]
            opts += [
                (_("tie: {first} and {second}").format(first=a, second=b), (a, b)) for a, b in combinations(ids, 2)
            ]
            return opts
        if self.ask == "pawn":
            start = game.get_player(self.player).pawn
            return [(str(s), s) for s in range(start, min(start + 7, game.battlefield.objective) + 1)]
        troops = game.get_player(self.player).troops
        return [(str(n), n) for n in range(0, troops + 1)]

    def _correct(self) -> Any:
        if self.ask == "take":
            return tuple(self.game.offered())
        result = scenarios.resolve(self.scenario)
        if self.ask == "lost":
            return result["lost"][self.player]
        if self.ask == "pawn":
            return result["pawns"][self.player]
        if self.ask == "troops":
            return result["troops"][self.player]
        if self.ask == "winners":
            return tuple(sorted(result["winners"]))
        return result["bust"]

    # ----- RevealQuiz ------------------------------------------------------------------------------------
    @property
    def answer(self) -> Any:
        return self.choice.value

    def answer_widgets(self) -> list[widgets.Widget]:
        return [self.choice]  # not the label beside it: focus goes here after Try again

    def missing_answer(self) -> str | None:
        if self.choice.value is None:
            return _("Choose a card space first.") if self.ask == "take" else _("Choose an answer first.")
        return None

    def _on_canvas_click(self, x: float, y: float) -> None:
        if self.ask != "take" or self.is_right is not None:
            return
        space = self.board.geometry.space_at(x, y)
        if space is not None:
            self.choice.value = space
            self.status.show(
                _("You chose space {space}. Choose '{reveal}' to check.").format(
                    space=space, reveal=self.reveal_button.description
                )
            )

    def play_out(self, answer: Any) -> Verdict:
        before = picture_of(self.game, show_odds=False, show_offers=False)
        game = self.game
        shown: dict[str, Any] = {}
        if self.ask == "take":
            right = answer in self.correct_answer
            offered = self.correct_answer
            space = answer if right else offered[0]
            dice = game.dice
            events = game.apply(Take(space))
            if dice is not None:  # the roll stays on the board, the pair used outlined
                chosen = next(e.chosen for e in events if isinstance(e, (CardTaken, PawnPlacedOnNine)))
                shown = {"last_dice": dice, "chosen": chosen, "chosen_space": space}
        else:
            events = []
            for action in scenarios.actions(self.scenario):
                events += game.apply(action)
            right = answer == self.correct_answer
        self._events = list(events)
        final = picture_of(game, caption=self._told(answer, right), show_odds=False, **shown)
        self._frames = frames_for(before, events, captions(events, game.cards), final)
        return Verdict(right, self._told(answer, right), self._why(events), narrate(events, game.cards))

    def restart(self) -> None:
        self.index = (self.index + 1) % len(self.positions)
        self.game = self._build()
        self._frames, self._events = [], []
        self._set_position()

    def redraw(self, *, static: bool = False, animate: bool = False) -> None:
        if animate and self._frames:
            self.board.animate(self._frames)
        elif self.is_right is not None and self._frames:  # revealed: the end of the reveal
            self.board.draw(self._frames[-1][0], static=static)
        else:
            caption = _("Your prediction?") if self.is_right is None else ""
            self.board.draw(
                picture_of(self.game, caption=caption, show_odds=False, show_offers=self.is_right is not None),
                static=static,
            )
        assert self.board.picture is not None
        self.text_view.show(
            describe_picture(self.board.picture, self.game.cards, self.game.battlefield),
            narrate(self._events, self.game.cards) if self.is_right is not None else (),
        )

    # ----- feedback --------------------------------------------------------------------------------------
    def _told(self, answer: Any, right: bool) -> str:
        p = self.player
        c = self.correct_answer
        if self.ask == "take":
            names = and_list(_("space {space} ({card})").format(space=s, card=self._space_name(s)) for s in c)
            told = (
                _("{space} is the only space offered: it must be taken.").format(space=names)
                if len(c) == 1
                else _("The spaces offered are {spaces}.").format(spaces=names)
            )
        elif self.ask == "lost":
            told = ngettext("{player} loses {n} troop piece.", "{player} loses {n} troop pieces.", c).format(
                player=p, n=c
            )
        elif self.ask == "pawn":
            told = _("{player}'s pawn ends on space {space}.").format(player=p, space=c)
        elif self.ask == "troops":
            told = ngettext("{player} has {n} troop piece left.", "{player} has {n} troop pieces left.", c).format(
                player=p, n=c
            )
        elif self.ask == "winners":
            told = (
                _("{players} win together.").format(players=and_list(c))
                if len(c) > 1
                else _("{player} wins.").format(player=c[0])
            )
        else:
            told = _("The roll is a bust.") if c else _("The roll is not a bust.")
        if right:
            return told
        mine = dict((v, k) for k, v in self._options()).get(answer, str(answer))
        return told + " " + _("You chose: {answer}.").format(answer=mine)

    def _space_name(self, space: int) -> str:
        if space == 9:
            return _("the fixed card")
        card = self.game.spaces.get(space) if self.is_right is None else None
        if card is None:
            card = scenarios.build(self.scenario).spaces.get(space)
        return self.game.cards[card].name if card is not None else _("empty")

    def _why(self, events: list[Event]) -> list[Line]:
        cards = self.game.cards
        keep: tuple[type, ...] = {
            "take": (CardTaken, PawnPlacedOnNine),
            "lost": (Busted, TroopsLost),
            "troops": (Busted, TroopsLost),
            "pawn": (PawnMoved,),
            "winners": (GameOver,),
            "bust": (DiceRolled, Busted),
        }[self.ask]
        return narrate([e for e in events if isinstance(e, keep)], cards)


class RiskQuiz(RevealQuiz):
    """Two positions side by side (A and B): which next roll is more likely to bust? Reveal shows the exact odds.

    ``pairs`` is a list of (A, B) scenarios; "Try again" moves to the next pair.
    """

    def __init__(
        self,
        pairs: Sequence[tuple[str | dict[str, Any], str | dict[str, Any]]],
        *,
        question: str,
        explain: str = "",
        title: str = "",
    ):
        if not pairs:
            raise ValueError("a risk quiz needs at least one pair of positions")
        self.pairs = [(load_scenario(a), load_scenario(b)) for a, b in pairs]
        self.index = 0
        self.games = self._build()
        cards, field = self.games[0].cards, self.games[0].battlefield
        self.boards = (Board(cards, field, 2, compact=True), Board(cards, field, 2, compact=True))
        self.labels = (widgets.HTML(), widgets.HTML())
        boards = widgets.HBox(
            [
                widgets.VBox(
                    [self.labels[k], self.boards[k].canvas], layout=widgets.Layout(margin="0 24px 0 0", width="360px")
                )
                for k in range(2)
            ]
        )
        self.choice = widgets.ToggleButtons(
            options=[(_("A is riskier"), "A"), (_("B is riskier"), "B"), (_("Same risk"), "same")], value=None
        )
        self.rolls = Disclosure(
            _("Which sums come up most?"),
            [widgets.HTML(rolls_picture())],
            tooltip=_("How many of the {rolls} rolls of {dice} dice give each sum").format(rolls=ROLLS, dice=DICE),
        )
        super().__init__(
            question=question,
            board=boards,
            inputs=[label(_("Your answer:")), self.choice],
            title=title,
            explain=explain,
            in_words=True,
            disclosures=[self.rolls],
        )
        for board in self.boards:
            board.on_client_ready(lambda: self.redraw(static=True))
        self._set_labels()
        self.reset()

    def _build(self) -> tuple[Game, Game]:
        a, b = self.pairs[self.index]
        return scenarios.build(a), scenarios.build(b)

    def _set_labels(self) -> None:
        for k, name in enumerate("AB"):
            desc = self.pairs[self.index][k].get("description", "")
            self.labels[k].value = f"<div class='tutor-header'><b>{name}</b>: {desc}</div>"

    @property
    def correct_answer(self) -> str:
        a, b = (g.bust_probability() for g in self.games)
        return "same" if a == b else ("A" if a > b else "B")

    @property
    def answer(self) -> Any:
        return self.choice.value

    def answer_widgets(self) -> list[widgets.Widget]:
        return [self.choice]

    def missing_answer(self) -> str | None:
        return _("Choose A, B or the same first.") if self.choice.value is None else None

    def play_out(self, answer: Any) -> Verdict:
        right = answer == self.correct_answer
        odds = [g.bust_probability() for g in self.games]
        words = [
            _("{name}: {n} of the {rolls} rolls bust, {percent}").format(
                name=name, n=bust_rolls(p), rolls=ROLLS, percent=percent(float(p))
            )
            for name, p in zip("AB", odds)
        ]
        c = self.correct_answer
        odds_said = "; ".join(words)
        told = (
            _("Both have the same chance of a bust ({odds}).").format(odds=odds_said)
            if c == "same"
            else _("{position} is riskier ({odds}).").format(position=c, odds=odds_said)
        )
        if not right:
            told += " " + _("You chose: {answer}.").format(answer=dict((v, k) for k, v in self.choice.options)[answer])
        why = [
            Line(
                _(
                    "{name}: the spaces a roll can take are {spaces}; {n} of the {rolls} rolls offer none of them."
                ).format(name=name, spaces=and_list(g.available()), n=bust_rolls(p), rolls=ROLLS),
                (R.BUST,),
            )
            for name, g, p in zip("AB", self.games, odds)
        ]
        return Verdict(right, told, why)

    def restart(self) -> None:
        self.index = (self.index + 1) % len(self.pairs)
        self.games = self._build()
        self._set_labels()

    def redraw(self, *, static: bool = False, animate: bool = False) -> None:
        revealed = self.is_right is not None
        board_words = []
        for name, board, game in zip("AB", self.boards, self.games):
            board.draw(picture_of(game, show_odds=revealed), static=static)
            assert board.picture is not None
            board_words += [
                _("Position {name}:").format(name=name),
                *describe_picture(board.picture, game.cards, game.battlefield),
            ]
        self.text_view.show(board_words)
