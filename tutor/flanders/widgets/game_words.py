"""What the game tutor says (``GameTutorWords``, a mixin of ``GameTutor``): the prompt that names the one next
step, why Roll is off, the names of the pair and card buttons, and the results table.

It reads the tutor's state and changes nothing; ``GameTutor`` (game_tutor.py) owns that state and the controls.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from tutor.core.events import Event
from tutor.flanders import rules as R
from tutor.flanders.cards import FIXED
from tutor.flanders.events import GameOver
from tutor.flanders.game import NINE, Game, Phase, Play
from tutor.flanders.render import Picture
from tutor.ui.narration import and_list, cite, plural

from .narration import dice_words


class GameTutorWords:
    """The sentences of ``GameTutor``, from the state it declares here."""

    game: Game
    humans: tuple[str, ...]
    play_buttons: list[widgets.Button]
    _paused: tuple[list[Event], Picture] | None
    _replay: bool
    _over: GameOver | None

    @property
    def human_turn(self) -> bool:
        raise NotImplementedError

    @property
    def offers_finish(self) -> bool:
        raise NotImplementedError

    def _pair_words(self, total: int, offered: set[int], seen: set[int]) -> str:
        """What a pair button does: ``"take Infantry"``, ``"empty"``, ``"same sum"``."""
        if total in seen:
            return "same sum"
        if total in offered:
            return "second pawn on the fixed card" if total == NINE else f"take {self._space_words(total)}"
        if total == NINE:
            return "second pawn already there"
        return "empty" if 3 <= total <= 11 else "no space"

    def _space_words(self, total: int) -> str:
        if total == NINE:
            return "the fixed card"
        if 3 <= total <= 11:
            card = self.game.spaces.get(total)
            return self.game.cards[card].name if card is not None else "empty"
        return "no space"

    def play_words(self, action: Play) -> str:
        """The name of a card button: ``"Play Tank: move 2"``, ``"Play Machine Gun: lose 1 troop piece"``."""
        game = self.game
        card = game.cards[action.card]
        name = "the fixed card on 9" if action.card == FIXED else card.name
        if card.german:
            return f"Play {name}: lose {plural(card.losses, 'troop piece')}"
        words = f"Play {name}: move {action.spaces}"
        if action.spaces > card.move:
            words += " (sacrifice 1 troop piece)"
        if action.mines:
            words += f" + {len(action.mines)} Mines"
        return words

    def _hint(self) -> str:
        """The prompt: the one next step, naming its control."""
        game = self.game
        phase = game.phase
        if self._paused is not None:
            return "Bust: the troop pieces lost are crossed out on the board. Choose 'Continue' for the next turn."
        if phase is Phase.FINISHED:
            return (f"Game over: {and_list(game.winners)} {'win' if len(game.winners) > 1 else 'wins'}. "
                    "The results are below; 'Restart' plays again.")
        if self._replay:
            return "The bots are playing: 'Skip' shows the end of their turns."
        if not self.human_turn:
            return (f"{game.player.id} ({game.player.bot} bot) plays next: choose 'Bots play' to watch the bots' "
                    "turns up to yours ('Next step': one action at a time).")
        if phase is Phase.ROLL:
            return "Your turn: choose 'Roll the dice'." + (
                " Or choose 'Finish the game': the bots play every turn to the end." if self.offers_finish else "")
        if phase is Phase.CHOOSE:
            assert game.dice is not None
            offered = game.offered()
            if len(offered) == 1:
                return (f"You rolled {dice_words(game.dice)}: only space {offered[0]} has a card for you, so you "
                        "must take it. Choose its pair (or the card on the board).")
            return f"You rolled {dice_words(game.dice)}: choose a pair, to take its card (or choose the card on the board)."
        if phase is Phase.AGAIN:
            p = game.bust_probability()
            return (f"'Roll again' (bust chance {float(p) * 100:.1f}%, {plural(game.at_stake(), 'troop piece')} at "
                    "stake), or 'Stop' and carry out your cards.")
        if self.play_buttons:
            return ("Play your cards in the order you choose, then choose 'End turn'. German cards you leave are "
                    "carried out at the end of the turn.")
        return "Choose 'End turn' (ticked May Retain cards are kept for a later turn)."

    def _why_not_roll(self) -> str:
        phase = self.game.phase
        if phase is Phase.CHOOSE:
            return "You have rolled: take a card first (one of the pairs), then you may roll again."
        if phase is Phase.RESOLVE:
            return "You stopped: no more rolls this turn. Carry out your cards, then choose 'End turn'."
        return self._hint()

    def _results(self) -> str:
        game = self.game
        objective = game.battlefield.objective
        order = sorted(game.players, key=lambda p: (p.id not in game.winners, p.troops == 0, -p.pawn, -p.troops))
        rows = "".join(
            f"<tr><td>{k + 1}{' (winner)' if p.id in game.winners else ''}</td><td>{html.escape(p.id)}"
            f"{' (you)' if p.id in self.humans else f' · {p.bot} bot'}</td>"
            f"<td>{p.pawn}{' (Objective line)' if p.pawn == objective else ''}</td><td>{p.troops}</td>"
            f"<td>{p.turns}</td></tr>"
            for k, p in enumerate(order))
        return ("<table><caption>Results</caption><tr><th>Rank</th><th>Player</th><th>Pawn on space</th>"
                f"<th>Troop pieces</th><th>Turns</th></tr>{rows}</table>"
                f"<p class='tutor-rule'>{html.escape(cite(self._over.rules if self._over else (R.OBJECTIVE,)))}</p>")
