"""Whole games of bots: for learners playing the computer, for tests and for benchmarks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .bots import autoplay, make_bot
from .game import PLAYER_IDS, Game


@dataclass(frozen=True)
class GameResult:
    winners: list[str]
    """Player ids of the winner, or of the joint winners."""
    turns: int
    """Turns played by all players together."""
    rounds: int
    troops: dict[str, int]
    """Final troop pieces per player."""
    pawns: dict[str, int]
    """Final battlefield space of each player's pawn."""
    reason: str
    """``"objective"``, ``"everyone-lost"`` or ``"two-players"``."""
    game: Game


def bot_names(players: int, bots: str | Sequence[str] | None) -> list[str]:
    """One checked bot name per player: ``None`` is all ``threshold``; one name is for everybody;
    a comma-separated string or a list gives one name per player. Raises ``ValueError`` naming a bad one."""
    if not 2 <= players <= 4:
        raise ValueError(f"In Flanders Field is for 2 to 4 players, not {players}")
    if bots is None:
        names = ["threshold"]
    elif isinstance(bots, str):
        names = [b.strip() for b in bots.split(",")]
    else:
        names = list(bots)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ValueError(
            f"give one bot for everybody or one per player: {players} players, {len(names)} bots ({', '.join(names)})"
        )
    for name in names:
        make_bot(name)  # raises ValueError naming an unknown bot
    return names


def simulate_game(
    players: int = 3,
    bots: str | Sequence[str] | None = None,
    seed: int = 0,
    *,
    beginners: bool = False,
    history: bool = False,
) -> GameResult:
    """Play one whole game of bots and return the result (``winners``, ``turns``, ``troops``, ...)."""
    names = dict(zip(PLAYER_IDS, bot_names(players, bots)))
    game = Game.new(players, bots=names, beginners=beginners, seed=seed, history=history)
    autoplay(game)
    return GameResult(
        list(game.winners),
        sum(p.turns for p in game.players),
        game.round,
        {p.id: p.troops for p in game.players},
        {p.id: p.pawn for p in game.players},
        game.end_reason or "",
        game,
    )
