"""The In Flanders Field board in words, for the text view beside the canvas (``tutor.ui.text_view``).

``describe_picture(picture, cards, battlefield)`` tells what the canvas shows, from the same ``Picture`` the
canvas draws (built from the engine's state and events, never from sentences): whose turn it is, the dice,
their pairs and the spaces they offer, the card on each space, the cards held, every player's pawn (space and
its name) and troop pieces, and the odds of a bust before "roll again or stop". What a picture hides, the text
hides too: a quiz's picture before Reveal marks no offered space and no pair (``judged=False``) and shows no
odds, so neither does its text.
"""

from __future__ import annotations

from tutor.flanders.battlefield import Battlefield
from tutor.flanders.cards import FIXED, CardId, CardSet
from tutor.flanders.game import NINE
from tutor.flanders.odds import PAIRS, ROLLS, SPACES
from tutor.ui.narration import and_list, plural

from .pen import percent
from .picture import Picture

def card_words(cards: CardSet, card: CardId) -> str:
    """``"Tank (British)"``, ``"Machine Gun (German)"``, ``"the fixed card"``."""
    if card == FIXED:
        return f"the fixed card ({cards.fixed.name})"
    kind = cards[card]
    return f"{kind.name} ({'German' if kind.german else 'British'})"


def describe_picture(picture: Picture, cards: CardSet, battlefield: Battlefield) -> list[str]:
    """What the board shows, one sentence each."""
    lines = []
    current = picture.players[picture.current]
    if picture.winners:
        lines.append(f"The game is over: {and_list(picture.winners)} "
                     f"{'win together' if len(picture.winners) > 1 else 'wins'}.")
    else:
        lines.append(f"Turn of {current.label}: {picture.phase.title}.")
    if picture.dice is not None:
        dice = ", ".join(map(str, picture.dice))
        offered = f" Pairs: {_pair_words(picture)}." if picture.judged and not picture.rolling else ""
        if picture.judged and picture.available:
            offered += f" Spaces offered (a pair of dice adds up to them and they hold a card): " \
                      f"{and_list(picture.available)}."
        elif picture.judged and picture.bust:
            offered += " No pair adds up to a space with a card: a bust."
        lines.append(f"Dice: {dice}.{offered}")
    lines.append("Cards on the spaces: " + "; ".join(_space_words(picture, cards, s)
                                                     for s in SPACES) + ".")
    held = [card_words(cards, c) + (" (carried out)" if c in picture.used else "") for c in picture.held]
    if picture.on_nine and not picture.winners:
        held.append(f"the fixed card on space {NINE} (second pawn on it)")
    if held:
        lines.append(f"{current.label} holds: {and_list(held)}.")
    for player in picture.players:
        space = battlefield.spaces[player.pawn].name if 0 <= player.pawn < len(battlefield.spaces) else ""
        out = ", out of the game" if player.out else ""
        lost = picture.lost.get(player.id, 0)
        just = f", just lost {lost}" if lost else ""
        lines.append(f"{player.label}: pawn on space {player.pawn} ({space}), "
                     f"{plural(player.troops, 'troop piece')} of {player.start_troops}{just}{out}.")
    if picture.odds is not None:
        bust = picture.odds.bust
        lines.append(f"If {current.id} rolls again: chance of a bust {percent(float(bust))} "
                     f"({int(bust * ROLLS)} of the {ROLLS} rolls offer no card); "
                     f"{plural(picture.odds.at_stake, 'troop piece')} at stake.")
    return lines


def _pair_words(picture: Picture) -> str:
    """``"2 + 4 = 6 (chosen), 2 + 4 = 6, 4 + 4 = 8"``: each pair of the dice and its sum."""
    assert picture.dice is not None
    dice = picture.dice
    return ", ".join(f"{dice[i]} + {dice[j]} = {dice[i] + dice[j]}" + (" (chosen)" if picture.chosen == (i, j) else "")
                     for i, j in PAIRS)


def _space_words(picture: Picture, cards: CardSet, space: int) -> str:
    if space == NINE:
        return f"{space}: the fixed card" + (" (a second pawn is on it)" if picture.on_nine else "")
    card = picture.spaces.get(space)
    return f"{space}: {card_words(cards, card) if card is not None else 'empty'}"
