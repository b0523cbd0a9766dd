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
from tutor.flanders.odds import ROLLS, SPACES
from tutor.i18n import _, and_list, ngettext
from tutor.i18n import percent as language_percent

from .picture import Picture


def card_words(cards: CardSet, card: CardId) -> str:
    """``"Tank (British)"``, ``"Machine Gun (German)"``, ``"the fixed card"``."""
    if card == FIXED:
        return _("the fixed card ({card})").format(card=cards.fixed.name)
    kind = cards[card]
    if kind.german:
        return _("{card} (German)").format(card=kind.name)
    return _("{card} (British)").format(card=kind.name)


def describe_picture(picture: Picture, cards: CardSet, battlefield: Battlefield) -> list[str]:
    """What the board shows, one sentence each."""
    lines = []
    current = picture.players[picture.current]
    if picture.winners:
        text = (
            _("The game is over: {winners} win together.")
            if len(picture.winners) > 1
            else _("The game is over: {winners} wins.")
        )
        lines.append(text.format(winners=and_list(picture.winners)))
    else:
        lines.append(_("Turn of {player}: {phase}.").format(player=current.label, phase=picture.phase.title))
    if picture.dice is not None:
        lines.append(_dice_words(picture))
    lines.append(
        _("Cards on the spaces: {spaces}.").format(spaces="; ".join(_space_words(picture, cards, s) for s in SPACES))
    )
    held = [
        _("{card} (carried out)").format(card=card_words(cards, c)) if c in picture.used else card_words(cards, c)
        for c in picture.held
    ]
    if picture.on_nine and not picture.winners:
        held.append(_("the fixed card on space {space} (second pawn on it)").format(space=NINE))
    if held:
        lines.append(_("{player} holds: {cards}.").format(player=current.label, cards=and_list(held)))
    for player in picture.players:
        space = _(battlefield.spaces[player.pawn].name) if 0 <= player.pawn < len(battlefield.spaces) else ""
        troops = ngettext(
            "{player}: pawn on space {pawn} ({space}), {n} troop piece of {start}",
            "{player}: pawn on space {pawn} ({space}), {n} troop pieces of {start}",
            player.troops,
        ).format(player=player.label, pawn=player.pawn, space=space, n=player.troops, start=player.start_troops)
        lost = picture.lost.get(player.id, 0)
        if lost:
            troops = _("{troops}, just lost {lost}").format(troops=troops, lost=lost)
        if player.out:
            troops = _("{troops}, out of the game").format(troops=troops)
        lines.append(_("{sentence}.").format(sentence=troops))
    if picture.odds is not None:
        bust = picture.odds.bust
        at_stake = picture.odds.at_stake
        lines.append(
            ngettext(
                "If {player} rolls again: chance of a bust {chance} ({busts} of the {rolls} rolls offer "
                "no card); {n} troop piece at stake.",
                "If {player} rolls again: chance of a bust {chance} ({busts} of the {rolls} rolls offer "
                "no card); {n} troop pieces at stake.",
                at_stake,
            ).format(
                player=current.id,
                chance=language_percent(float(bust), 1),
                busts=int(bust * ROLLS),
                rolls=ROLLS,
                n=at_stake,
            )
        )
    return lines


def _dice_words(picture: Picture) -> str:
    """``"Dice: 2, 4, 4. Pairs: ... Spaces offered ...: 6 and 8."``"""
    assert picture.dice is not None
    text = _("Dice: {dice}.").format(dice=", ".join(map(str, picture.dice)))
    if picture.judged and not picture.rolling:
        text += " " + _("Pairs: {pairs}.").format(pairs=_pair_words(picture))
    if picture.judged and picture.available:
        text += " " + _("Spaces offered (a pair of dice adds up to them and they hold a card): {spaces}.").format(
            spaces=and_list(picture.available)
        )
    elif picture.judged and picture.bust:
        text += " " + _("No pair adds up to a space with a card: a bust.")
    return text


def _pair_words(picture: Picture) -> str:
    """``"2 + 4 = 6 (chosen), 2 + 4 = 6, 4 + 4 = 8"``: each pair of the dice and its sum."""
    words = []
    for p in picture.pairs:
        a, b = p.values
        pair = f"{a} + {b} = {p.total}"
        words.append(_("{pair} (chosen)").format(pair=pair) if picture.chosen == p.dice else pair)
    return ", ".join(words)


def _space_words(picture: Picture, cards: CardSet, space: int) -> str:
    if space == NINE:
        if picture.on_nine:
            return _("{space}: the fixed card (a second pawn is on it)").format(space=space)
        return _("{space}: the fixed card").format(space=space)
    card = picture.spaces.get(space)
    return _("{space}: {card}").format(space=space, card=card_words(cards, card) if card is not None else _("empty"))
