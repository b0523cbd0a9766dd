"""Computer players: each picks a card from a rider's drawn hand.

``random`` plays any drawn card. ``heuristic`` scores each card by the
squares it actually gains (after mountain limits and blocking by riders who
have already moved) minus the value of spending it, spends freely near the
finish, and sheds exhaustion cards when they lose little.
"""

from __future__ import annotations

from typing import Callable

from . import rules
from .cards import Card
from .events import Event
from .race import Phase, Race

Bot = Callable[[Race, str], Card]


def random_bot(race: Race, rider_id: str) -> Card:
    hand = race.riders[rider_id].hand
    return hand[int(race.rng.random() * len(hand))]


def heuristic_bot(race: Race, rider_id: str) -> Card:
    rider = race.riders[rider_id]
    track = race.track
    finish = track.finish if track.finish is not None else len(track)
    to_go = finish - rider.square
    # Weight of a card's value: high far from the finish (save big cards), zero in the final sprint.
    thrift = 0.0 if to_go <= 12 else min(0.8, (to_go - 12) / 40)
    best, best_score = None, None
    for card in dict.fromkeys(rider.hand):
        gain, _ = rules.move_distance(track, rider.square, card.value)
        gain = min(gain, finish + 6 - rider.square)
        cost = 0 if card.is_exhaustion else card.value
        score = gain - thrift * cost
        if best_score is None or score > best_score:
            best, best_score = card, score
    return best


BOTS: dict[str, Bot] = {"random": random_bot, "heuristic": heuristic_bot}


def get_bot(name: str) -> Bot:
    try:
        return BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(BOTS)}") from None


def place_bot_riders(race: Race) -> list[Event]:
    """Setup: while a bot team is to place, put its riders on the frontmost free lanes behind the start line."""
    events: list[Event] = []
    while race.phase is Phase.SETUP and race.placing_team.bot:
        spot = min(race.legal_actions(), key=lambda a: (-a.square, a.lane))
        events += race.place(spot.rider, spot.square, spot.lane)
    return events


def play_energy_phase(race: Race, bot: Bot | None = None, teams=None) -> list[Event]:
    """Draw and play for every rider of the given teams (default: every bot team) with its bot.

    Returns the events, including the reveal when these plays complete the energy phase.
    """
    events: list[Event] = []
    for team in race.teams.values():
        if teams is not None and team.name not in teams:
            continue
        choose = bot or (get_bot(team.bot) if team.bot else None)
        if choose is None:
            continue
        for rid in team.riders:
            rider = race.riders[rid]
            if rider.played is None:
                if not rider.hand:
                    events += race.draw(rid)
                events += race.play(rid, choose(race, rid))
    return events
