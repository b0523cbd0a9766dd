"""The rules of In Flanders Field as ``Rule`` constants, cited by every event (docs/rules.md, In Flanders Field).

Ids are short and stable (``"iff.bust"``); lessons and tests refer to them.
Rules with ``decision=True`` are the tutor's where the rulebook is silent; the
engine's module docstring (``tutor.flanders.game``) lists them with reasons.
"""

from __future__ import annotations

from tutor.core.events import Rule
from tutor.i18n import N_

_SETUP = N_("Starting the Game")
_PLAY = N_("Playing the Game")
_CARDS = N_("The cards")
"""The rulebook's "Notes (1)": a learner reads "The cards: ..." on the board."""
_END = N_("Ending and Winning the Game")

SETUP_DEAL = Rule(
    "iff.setup.deal",
    _SETUP,
    N_("Shuffle the cards and place one on each space 3 to 11 except space 9, which holds the fixed card."),
)
GERMAN_ROW = Rule(
    "iff.rows",
    _SETUP,
    N_("A row of only German cards (3-5 or 6-8) is discarded and redrawn, at setup and at every refill."),
)

ROLL = Rule("iff.roll", _PLAY, N_("On your turn roll the three dice."))
TAKE = Rule("iff.take", _PLAY, N_("Choose two dice and take the card on the space of their sum."))
MUST_TAKE = Rule(
    "iff.take.forced", _PLAY, N_("You must take a card if you can, so a German card may be forced on you.")
)
VACATED = Rule("iff.take.vacated", _PLAY, N_("A vacated space is not refilled during the turn."))
NINE = Rule("iff.nine", _PLAY, N_("Space 9 holds a fixed card: instead of taking it, place your second pawn on it."))
AGAIN = Rule("iff.again", _PLAY, N_("After taking a card, roll again or stop."))
BUST = Rule("iff.bust", _PLAY, N_("A roll that offers no card is a bust."))
BUST_RISK = Rule(
    "iff.bust.risk", _PLAY, N_("At a bust lose one troop piece per grey symbol on the British cards you hold.")
)
BUST_GERMAN = Rule("iff.bust.german", _PLAY, N_("At a bust apply the German cards taken this turn."))
BUST_DISCARD = Rule(
    "iff.bust.discard", _PLAY, N_('At a bust discard all your British cards, including those kept with "May Retain".')
)
BUST_NINE = Rule("iff.bust.nine", _PLAY, N_("At a bust remove your pawn from space 9."))
STOP = Rule("iff.stop", _PLAY, N_("When you stop, carry out the cards you hold, British and German."))

MOVE = Rule(
    "iff.move", _CARDS, N_("A movement card moves your pawn up to its number of spaces; you need not use them all.")
)
SACRIFICE = Rule("iff.sacrifice", _CARDS, N_("Some cards move one more space if you sacrifice a troop piece."))
LINE = Rule("iff.line", _CARDS, N_("A pawn that moves into a defensive line cannot move further this turn."))
TANK = Rule("iff.tank", _CARDS, N_("A Tank card's movement ignores defensive lines."))
MINES = Rule("iff.mines", _CARDS, N_("A Mines card lets a move continue past a defensive line."))
LOSSES = Rule("iff.losses", _CARDS, N_("Each black symbol on a German card costs one troop piece."))
RETAIN = Rule("iff.retain", _CARDS, N_('Cards marked "May Retain" may be kept until your next turn.'))
NINE_MOVE = Rule(
    "iff.nine.move", _CARDS, N_("A pawn on space 9 uses the fixed card as an Infantry card, then is removed.")
)
DISCARD = Rule("iff.discard", _CARDS, N_("At the end of your turn discard the cards you used, German ones too."))
REFILL = Rule("iff.refill", _CARDS, N_("Refill the empty spaces (3 to 11 except 9) from the draw pile."))
RESHUFFLE = Rule(
    "iff.reshuffle", _CARDS, N_("When the draw pile is exhausted, shuffle the discard pile into a new one.")
)

OBJECTIVE = Rule(
    "iff.end.objective",
    _END,
    N_("Reaching the Objective line ends the game once every player has had the same number of turns."),
)
ONE_ARRIVAL = Rule("iff.end.one", _END, N_("If one player reached the Objective line, that player wins."))
SEVERAL_ARRIVALS = Rule(
    "iff.end.several", _END, N_("If several players reached the Objective line, the one with most troop pieces wins.")
)
EVERYONE_LOST = Rule(
    "iff.end.everyone-lost",
    _END,
    N_("If every player has lost all troop pieces the game ends at once; the most advanced pawn wins."),
)
TWO_PLAYERS = Rule(
    "iff.end.two-players", _END, N_("With two players the game also ends when a player has no troop pieces left.")
)
TIE = Rule("iff.end.tie", _END, N_("Tied players are joint winners."))

# Tutor decisions (the rulebook is silent; docs/rule_decisions.md). Each sits in the part of the rules it belongs
# to, so a learner reads it as the rule that is played; its ``decision=True`` flag names it for teachers.
OUT_OF_TROOPS = Rule(
    "iff.d.out",
    _PLAY,
    N_(
        "With three or four players, a player with no troop pieces left takes no more turns; "
        "the pawn stays where it is."
    ),
    decision=True,
)
TWO_PLAYER_WINNER = Rule(
    "iff.d.two-player-winner",
    _END,
    N_(
        "When a two-player game ends because a player has no troops, the other player wins, "
        "unless a pawn reached the Objective line (then the arrival rules decide)."
    ),
    decision=True,
)
OBJECTIVE_CAP = Rule(
    "iff.d.objective-cap", _CARDS, N_("A pawn stops on the Objective line; movement beyond it is lost."), decision=True
)
LINE_HALT = Rule(
    "iff.d.line-halt",
    _CARDS,
    N_(
        "A pawn halted on a defensive line this turn needs a Tank or a Mines card to move on; "
        "a line entered by a Tank does not halt it."
    ),
    decision=True,
)
ORDER = Rule(
    "iff.d.order",
    _PLAY,
    N_(
        "When stopping, the player plays the cards one at a time in any order; German cards not played "
        "by the end of the turn are applied then."
    ),
    decision=True,
)
RETAINED_IN_HAND = Rule(
    "iff.d.retained",
    _CARDS,
    N_('Cards kept with "May Retain" are in hand: they count at a bust and may be played when stopping.'),
    decision=True,
)
FULL_ROW = Rule(
    "iff.d.full-row",
    _SETUP,
    N_(
        "Only a full row of three German cards is redrawn; the redraw stops when no British card is "
        "left in the draw and discard piles."
    ),
    decision=True,
)
NINE_NO_RISK = Rule(
    "iff.d.nine-risk",
    _PLAY,
    N_("The fixed card on space 9 is never held, so it has no grey symbol at a bust."),
    decision=True,
)
