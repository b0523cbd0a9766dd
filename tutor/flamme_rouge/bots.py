"""Computer players, and ``autoplay``: the one driver of everything no person decides.

A bot picks a card from a rider's drawn hand; its randomness comes from the race's
``bot_rng``, never from the shuffles' ``rng``.

``random`` plays any drawn card. ``heuristic`` scores each card by the squares
its move allows from the rider's square (after the ascent, descent and supply-zone
limits, counting at most 6 squares past the finish line) minus the value of spending
it, weighted by the distance still to go (nothing in the last 12 squares, so it
spends freely near the finish); an exhaustion card costs nothing, so it is shed when
it loses little. It does not look at the other riders: a card that a full square
would block scores as if the road were clear.
"""

from __future__ import annotations

from math import floor
from typing import Callable, Iterable

from . import rules
from .cards import Card
from .events import Event
from .race import Phase, Race

Bot = Callable[[Race, str], Card]


def random_bot(race: Race, rider_id: str) -> Card:
    hand = race.riders[rider_id].deck.hand
    return hand[floor(race.bot_rng.random() * len(hand))]  # floor: int() for x >= 0, a cheaper call


def heuristic_bot(race: Race, rider_id: str) -> Card:
    rider = race.riders[rider_id]
    square = rider.square
    assert square is not None
    track = race.track
    finish = track.finish if track.finish is not None else len(track)
    to_go = finish - square
    # Weight of a card's value: high far from the finish (save big cards), zero in the final sprint.
    thrift = 0.0 if to_go <= 12 else min(0.8, (to_go - 12) / 40)
    best, best_score = None, None
    for card in dict.fromkeys(rider.hand):
        gain, _ = rules.move_distance(track, square, card.value)
        gain = min(gain, finish + 6 - square)
        cost = 0 if card.is_exhaustion else card.value
        score = gain - thrift * cost
        if best_score is None or score > best_score:
            best, best_score = card, score
    assert best is not None, f"{rider_id} has no cards in hand"
    return best


MAX_ROUNDS = 200
"""A stalled race (every rider boxed in) is a bug, not an endless loop."""

BOTS: dict[str, Bot] = {"random": random_bot, "heuristic": heuristic_bot}


def get_bot(name: str) -> Bot:
    try:
        return BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(BOTS)}") from None


def place_bot_riders(race: Race) -> list[Event]:
    """Setup: while a bot team is to place, put its riders on the frontmost free lanes behind the start line."""
    events: list[Event] = []
    while race.phase is Phase.SETUP and (team := race.placing_team) is not None and team.controller:
        rid = next(r for r in team.riders if race.riders[r].square is None)
        events += race.place(rid, *race.front_spot(rid))
    return events


def play_energy_phase(race: Race, bot: Bot | None = None, teams: Iterable[str] | None = None) -> list[Event]:
    """Draw and play (or bid, in the breakaway) for every rider of the given player teams (default: every
    team a bot plays) with its bot. In a bid a bot bids with its team's first rider.

    Returns the events, including the reveal when these plays complete the phase.
    """
    events: list[Event] = []
    chosen = None if teams is None else set(teams)
    phase = race.phase
    for team in race.teams.values():
        if team.kind.flips or (chosen is not None and team.name not in chosen):
            continue
        choose = bot or (get_bot(team.controller) if team.controller else None)
        if choose is None:
            continue
        for rid in team.riders:
            if race.phase is not phase or rid not in race.waiting_riders():
                continue
            if not race.riders[rid].hand:
                events += race.draw(rid)
            events += race.play(rid, choose(race, rid))
    return events


def autoplay(race: Race, *, steps: bool = True, fast: bool = False) -> list[Event]:
    """Run everything no person decides, in the rules' order, until a person must act or the race is over.

    Bot teams place their riders (setup), bid (breakaway) and draw and play (energy
    phase); with ``steps``, the automatic steps are resolved too (flips, moves, end
    phase), round after round while only bots are racing. ``fast=True`` plays whole
    rounds of an all-bot race with ``Race.play_rounds`` (same phase functions, no
    events or history: for simulations); those rounds return no events.
    """
    events: list[Event] = []
    all_bots = all(t.controller for t in race.teams.values())
    while not race.is_over:
        if race.phase is Phase.SETUP:
            placed = place_bot_riders(race)
            events += placed
            if not placed:
                break
        elif race.phase.choosing:
            if fast and all_bots and race.phase is Phase.ENERGY:
                _play_rounds(race)
                continue
            played = play_energy_phase(race)
            events += played
            if not played:  # a person still has to play
                break
        elif steps:
            events += race.step()
        else:
            break
    return events


def _play_rounds(race: Race) -> None:
    """Whole rounds of an all-bot race on the fast path, until the finish."""
    policies = {t.controller for t in race.teams.values() if not t.kind.flips}
    if len(policies) == 1:
        choose = get_bot(policies.pop() or "")
    else:
        by_team = {t.name: get_bot(t.controller or "") for t in race.teams.values() if not t.kind.flips}
        riders = race.riders
        choose = lambda r, rid: by_team[riders[rid].team](r, rid)  # noqa: E731
    race.play_rounds(choose, MAX_ROUNDS)
