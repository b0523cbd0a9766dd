"""What the game tutor says: the prompt that names the one next step and why Roll is off (``GameWords``, the part
``GameTutor.words``, which reads only the game and the tutor's public properties, ``GameView``), and, as plain
functions of the game, the names of the pair and card buttons and the results table.

Nothing here changes the game; the spaces come from the odds (``odds.SPACES``), the order of the results from
the engine (``Game.standings``).
"""

from __future__ import annotations

import html
from typing import Protocol, Sequence

import ipywidgets as widgets

from tutor.flanders import rules as R
from tutor.flanders.cards import FIXED
from tutor.core.events import Event
from tutor.flanders.events import Busted, GameOver, TroopsLost
from tutor.flanders.game import NINE, Game, Phase, Play
from tutor.flanders.odds import SPACES, DicePair
from tutor.flanders.render.picture import bot_name
from tutor.i18n import _, ngettext, percent
from tutor.ui.narration import Line, and_list, cite

from .narration import dice_words


def troop_pieces(n: int) -> str:
    return ngettext("{n} troop piece", "{n} troop pieces", n).format(n=n)


def space_words(game: Game, total: int) -> str:
    """What a sum takes: the card on its space, "the fixed card" (9), "empty" or "no space"."""
    if total == NINE:
        return _("the fixed card")
    if total in SPACES:
        card = game.spaces.get(total)
        return game.cards[card].name if card is not None else _("empty")
    return _("no space")


def pair_words(game: Game, pair: DicePair) -> str:
    """What a pair button does (``pair``: one of ``game.pairs()``): ``"take Infantry"``, ``"empty"``,
    ``"same sum"``."""
    total = pair.total
    if pair.repeat:
        return _("same sum")
    if pair.offered:
        return (
            _("second pawn on the fixed card")
            if total == NINE
            else _("take {card}").format(card=space_words(game, total))
        )
    if total == NINE:
        return _("second pawn already there")
    return _("empty") if pair.space else _("no space")


def play_words(game: Game, action: Play) -> str:
    """The name of a card button: ``"Play Tank: move 2"``, ``"Play Machine Gun: lose 1 troop piece"``."""
    card = game.cards[action.card]
    name = _("the fixed card on 9") if action.card == FIXED else card.name
    if card.german:
        return _("Play {card}: lose {pieces}").format(card=name, pieces=troop_pieces(card.losses))
    if action.spaces > card.move:
        words = _("Play {card}: move {n} (sacrifice 1 troop piece)").format(card=name, n=action.spaces)
    else:
        words = _("Play {card}: move {n}").format(card=name, n=action.spaces)
    if action.mines:
        words += " " + _("+ {n} Mines").format(n=len(action.mines))
    return words


def results_html(game: Game, humans: Sequence[str], over: GameOver | None) -> str:
    """The results table: the players in the engine's order (``Game.standings``), and the rules that ended it.
    When the learner plays against bots, a sentence above it says how the learner did (``results_sentence``) and
    the learner's rows are marked: "(you)" after the player and in bold."""
    objective = game.battlefield.objective
    mine = learners_of(game, humans)
    rows = []
    for k, p in enumerate(game.standings()):
        rank = _("{n} (winner)").format(n=k + 1) if p.id in game.winners else str(k + 1)
        who = (
            _("{player} (you)").format(player=p.id)
            if p.id in humans
            else _("{player} · {bot} bot").format(player=p.id, bot=p.bot)
        )
        pawn = _("{n} (Objective line)").format(n=p.pawn) if p.pawn == objective else str(p.pawn)
        cells = [rank, who, pawn, str(p.troops), str(p.turns)]
        if p.id in mine:
            rows.append(
                "<tr class='tutor-you'>" + "".join(f"<td><b>{html.escape(c)}</b></td>" for c in cells) + "</tr>"
            )
        else:
            rows.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
    heads = [_("Rank"), _("Player"), _("Pawn on space"), _("Troop pieces"), _("Turns")]
    sentence = results_sentence(game, humans)
    said = f"<p class='tutor-you-did'>{html.escape(sentence)}</p>" if sentence else ""
    return (
        f"{said}<table><caption>{html.escape(_('Results'))}</caption><tr>"
        + "".join(f"<th>{html.escape(h)}</th>" for h in heads)
        + f"</tr>{''.join(rows)}</table>"
        f"<p class='tutor-rule'>{html.escape(cite(over.rules if over else (R.OBJECTIVE,)))}</p>"
    )


def learners_of(game: Game, humans: Sequence[str]) -> list[str]:
    """The learner's players, best first, when the learner plays against others (else none: no "you")."""
    mine = [p.id for p in game.standings() if p.id in humans]
    return mine if len(mine) < len(game.players) else []


def results_sentence(game: Game, humans: Sequence[str]) -> str:
    """How the learner did: "You won!", "You (p1) finished in place 3 of 4." ("" without a learner)."""
    mine = learners_of(game, humans)
    if not mine:
        return ""
    best, total = mine[0], len(game.players)
    if best in game.winners:
        others = [w for w in game.winners if w != best]
        if others:
            return _("You ({player}) won, together with {others}!").format(player=best, others=and_list(others))
        return _("You ({player}) won!").format(player=best)
    place = [p.id for p in game.standings()].index(best) + 1
    if len(mine) > 1:
        return _("Your best player, {player}, finished in place {place} of {total}.").format(
            player=best, place=place, total=total
        )
    return _("You ({player}) finished in place {place} of {total}.").format(player=best, place=place, total=total)


def bust_caption(events: Sequence[Event]) -> str:
    """What the board says while it stays on a bust: who loses how many troop pieces (from the events)."""
    bust = next(e for e in events if isinstance(e, Busted))
    lost = sum(e.count for e in events if isinstance(e, TroopsLost) and e.player == bust.player)
    return _("Bust: {player} loses {pieces} and discards its British cards.").format(
        player=bust.player, pieces=troop_pieces(lost)
    )


def caption(game: Game, human_turn: bool) -> str:
    """The board's caption: whose turn and its phase, or who won."""
    if game.phase is Phase.FINISHED:
        won = _("{players} win together.") if len(game.winners) > 1 else _("{players} wins.")
        return won.format(players=and_list(game.winners))
    if human_turn:
        return _("{player} (you): {phase}.").format(player=game.player.id, phase=game.phase.title)
    return _("{player} ({bot} bot): {phase}.").format(
        player=game.player.id, bot=bot_name(game.player.bot), phase=game.phase.title
    )


def goal_words(player: str, pawn: int, goal: int) -> str:
    """Lesson 4's challenge met: the learner's pawn reached (or passed) the goal space."""
    if pawn == goal:
        return _("Well done: {player}'s pawn reached space {n}.").format(player=player, n=pawn)
    return _("Well done: {player}'s pawn reached space {n}, past space {goal}.").format(
        player=player, n=pawn, goal=goal
    )


def header_html(title: str, round_: int, phase: str) -> str:
    """The header line: the lesson's title, the round shown and the phase."""
    named = f"<b>{html.escape(title)}</b> · " if title else ""
    where = html.escape(_("Round {n}").format(n=round_))
    return f"<div class='tutor-header'>{named}{where} · <span class='tutor-phase'>{html.escape(phase)}</span></div>"


def opening_lines(game: Game) -> list[Line]:
    """What a turn's phase asks, said when a position opens."""
    who = game.player.id
    if game.phase is Phase.ROLL:
        return [Line(_("Round {n}: {player}'s turn. Roll the three dice.").format(n=game.round, player=who), (R.ROLL,))]
    if game.phase is Phase.AGAIN:
        return [Line(_("{player} has taken a card this turn: roll again, or stop.").format(player=who), (R.AGAIN,))]
    if game.phase is Phase.RESOLVE:
        return [
            Line(
                _("{player} has stopped: carry out the cards in the order you choose, then end the turn.").format(
                    player=who
                ),
                (R.STOP, R.ORDER),
            )
        ]
    return []


class GameView(Protocol):
    """What the words read of the tutor: its public state (``GameTutor`` is one)."""

    game: Game
    taught: frozenset[str]
    """The parts of the game the lesson shows (taught.py)."""

    @property
    def play_buttons(self) -> list[widgets.Button]: ...

    @property
    def bust_shown(self) -> bool: ...

    @property
    def replaying(self) -> bool: ...

    @property
    def human_turn(self) -> bool: ...

    @property
    def offers_finish(self) -> bool: ...

    @property
    def offers_finish_now(self) -> bool: ...


class GameWords:
    """The prompt and the refusals of ``GameTutor`` (its part ``words``), from the game and the tutor's public
    state (``GameView``): it keeps no state of its own."""

    def __init__(self, tutor: GameView) -> None:
        self.tutor = tutor

    def hint(self) -> str:
        """The prompt: the one next step, naming its control."""
        game = self.tutor.game
        phase = game.phase
        if self.tutor.bust_shown:
            return _("Bust: the troop pieces lost are crossed out on the board. Choose 'Continue' for the next turn.")
        if phase is Phase.FINISHED:
            won = _("Game over: {players} win.") if len(game.winners) > 1 else _("Game over: {players} wins.")
            return won.format(players=and_list(game.winners)) + " " + _("The results are below; 'Restart' plays again.")
        if self.tutor.replaying:
            return _("The bots are playing: 'Skip' shows the end of their turns.")
        if self.tutor.offers_finish_now:
            return _(
                "You have no troop pieces left, so you take no more turns. Choose 'Finish the game now' to "
                "see the end at once."
            )
        if not self.tutor.human_turn:
            return _(
                "{player} ({bot} bot) plays next: choose 'Bots play' to watch the bots' turns up to yours "
                "('Next step': one action at a time)."
            ).format(player=game.player.id, bot=bot_name(game.player.bot))
        if phase is Phase.ROLL:
            return _("Your turn: choose 'Roll the dice'.") + (
                " " + _("Or choose 'Finish the game': you still play your turns, the bots' turns are done at once.")
                if self.tutor.offers_finish
                else ""
            )
        if phase is Phase.CHOOSE:
            assert game.dice is not None
            offered = game.offered()
            if len(offered) == 1:
                return _(
                    "You rolled {dice}: only space {n} has a card for you, so you must take it. Choose its "
                    "pair (or the card on the board)."
                ).format(dice=dice_words(game.dice), n=offered[0])
            return _("You rolled {dice}: choose a pair, to take its card (or choose the card on the board).").format(
                dice=dice_words(game.dice)
            )
        if phase is Phase.AGAIN:
            if "odds" not in self.tutor.taught:
                return _("'Roll again' for another card, or 'Stop' and carry out your cards.")
            return _(
                "'Roll again' (bust chance {percent}, {pieces} at stake), or 'Stop' and carry out your cards."
            ).format(percent=percent(float(game.bust_probability()), 1), pieces=troop_pieces(game.at_stake()))
        if self.tutor.play_buttons:
            return _(
                "Play your cards in the order you choose, then choose 'End turn'. German cards you leave are "
                "carried out at the end of the turn."
            )
        if "retain" not in self.tutor.taught:
            return _("Choose 'End turn'.")
        return _("Choose 'End turn' (ticked May Retain cards are kept for a later turn).")

    def refusal(self, kind: str) -> str | None:
        """Why the learner's action ``kind`` ("roll", "stop", "take", "play", "end"; "bots": Next step) does
        nothing now (None: it may be tried; the engine still refuses what its rules forbid)."""
        game, phase = self.tutor.game, self.tutor.game.phase
        if self.tutor.bust_shown:
            return _("Look at the bust on the board, then choose 'Continue' for the next turn.")
        if kind == "bots":
            if phase is Phase.FINISHED:
                return _("The game is over ({players} won). Choose 'Restart' for a new game.").format(
                    players=and_list(game.winners)
                )
            if self.tutor.human_turn:
                return _("It is your turn ({player}): {hint}").format(player=game.player.id, hint=self.hint())
            return None
        if phase is Phase.FINISHED:
            return _(
                "The game is over ({players} won): choose 'Restart' for a new game, or 'Back' to look again."
            ).format(players=and_list(game.winners))
        if not self.tutor.human_turn:
            return _(
                "Not your turn: it is {player}'s turn ({bot}). Choose 'Bots play' to let the bots play until "
                "your turn, or 'Next step' for one action."
            ).format(player=game.player.id, bot=bot_name(game.player.bot) or _("another player"))
        wrong = {
            "roll": phase not in (Phase.ROLL, Phase.AGAIN),
            "stop": phase is not Phase.AGAIN,
            "take": phase is not Phase.CHOOSE or game.dice is None,
            "end": phase is not Phase.RESOLVE,
        }
        if not wrong.get(kind, False):
            return None
        if kind == "roll":
            return self._why_not_roll()
        why = {
            "stop": _("You can stop only after taking a card, when the choice is 'roll again or stop'."),
            "take": _("Roll the dice first: a card is taken with a pair of the dice just rolled."),
            "end": _("The turn ends after you stop and carry out your cards (or at a bust)."),
        }[kind]
        return f"{why} {self.hint()}"

    def _why_not_roll(self) -> str:
        phase = self.tutor.game.phase
        if phase is Phase.CHOOSE:
            return _("You have rolled: take a card first (one of the pairs), then you may roll again.")
        if phase is Phase.RESOLVE:
            return _("You stopped: no more rolls this turn. Carry out your cards, then choose 'End turn'.")
        return self.hint()
