"""In Flanders Field: a pure rules engine (docs/rules.md, In Flanders Field).

A push-your-luck game for 2-4 players: roll three dice, take the card on the
sum of two of them, roll again or stop, and carry the cards out to advance a
pawn across the battlefield while keeping your troop pieces. The card set and
the battlefield are data files (``data/cards.json``, ``data/battlefield.json``)
that a teacher can replace with their edition's. The turn's phases and the
tutor's decisions are listed in ``tutor.flanders.game``.

    >>> from tutor.flanders import Game, Phase
    >>> game = Game.new(3, seed=1)
    >>> game.phase is Phase.ROLL
    True
    >>> result = simulate_game(players=3, seed=0)
    >>> set(result.winners) <= {"p1", "p2", "p3"}
    True
"""

from . import odds, rules
from .battlefield import Battlefield, Space, SpaceKind, load_battlefield
from .bots import BOTS, BoldBot, Bot, CautiousBot, ThresholdBot, autoplay, make_bot
from .cards import EFFECTS, FIXED, Card, CardId, CardSet, Side, load_cards
from .errors import (
    BoardDataError,
    CardDataError,
    CardNotHeldError,
    DiceError,
    IllegalMoveError,
    RetainError,
    RuleError,
    ScenarioError,
    SpaceNotAvailableError,
    WrongPhaseError,
)
from .events import (
    Busted,
    CardsDiscarded,
    CardsRetained,
    CardTaken,
    DiceRolled,
    GameOver,
    ObjectiveReached,
    PawnMoved,
    PawnPlacedOnNine,
    PawnRemovedFromNine,
    Reshuffled,
    RowRedrawn,
    SpaceFilled,
    Stopped,
    TroopsLost,
    TurnEnded,
    TurnSkipped,
    TurnStarted,
)
from .game import CARD_SPACES, ROWS, Action, EndTurn, Game, Phase, Play, Player, Roll, Stop, Take
from .odds import SPACES, bust_probability, expected_bust_loss
from .simulate import GameResult, simulate_game

__all__ = [
    "odds",
    "rules",
    "Battlefield",
    "Space",
    "SpaceKind",
    "load_battlefield",
    "BOTS",
    "BoldBot",
    "Bot",
    "CautiousBot",
    "ThresholdBot",
    "make_bot",
    "autoplay",
    "EFFECTS",
    "FIXED",
    "Card",
    "CardId",
    "CardSet",
    "Side",
    "load_cards",
    "BoardDataError",
    "CardDataError",
    "CardNotHeldError",
    "DiceError",
    "IllegalMoveError",
    "RetainError",
    "RuleError",
    "ScenarioError",
    "SpaceNotAvailableError",
    "WrongPhaseError",
    "Busted",
    "CardsDiscarded",
    "CardsRetained",
    "CardTaken",
    "DiceRolled",
    "GameOver",
    "ObjectiveReached",
    "PawnMoved",
    "PawnPlacedOnNine",
    "PawnRemovedFromNine",
    "Reshuffled",
    "RowRedrawn",
    "SpaceFilled",
    "Stopped",
    "TroopsLost",
    "TurnEnded",
    "TurnSkipped",
    "TurnStarted",
    "CARD_SPACES",
    "ROWS",
    "SPACES",
    "Action",
    "EndTurn",
    "Game",
    "Phase",
    "Play",
    "Player",
    "Roll",
    "Stop",
    "Take",
    "bust_probability",
    "expected_bust_loss",
    "GameResult",
    "simulate_game",
]
