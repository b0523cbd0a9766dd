"""A Flamme Rouge race: the state, the phases and the actions (docs/rules.md: Flamme Rouge, Peloton expansion).

``Race`` is one point of a playthrough (a ``tutor.core.SeededState``): it holds its
seeded ``random.Random`` (shuffles) and a second one for bots (``bot_rng``, so a bot's
choice never shifts a later shuffle), copies with ``copy()``, serializes with
``to_dict()`` / ``from_dict()`` and keeps an undo history. Every action returns the
events it caused; an illegal action raises a ``RuleError`` subclass and changes nothing.

A round: ``draw`` and ``play`` for every rider (energy phase; teams act in any order,
each team finishing one rider before drawing for the next), then ``step`` resolves one
automatic step at a time, through the handlers of ``PHASE_STEPS``: one rider's move
(frontmost first), then the end phase's three parts (remove played cards, slipstream,
exhaustion). ``resolve_steps`` yields those steps one by one for a canvas to animate
(``ResolvedStep``: the positions before, the cards still to move, the events), and
``hand_to_bots`` gives the teams of people to bots. ``resolve(through)`` steps to the end of a phase;
``play_round`` (and ``play_rounds``, to the finish) is the fast path for simulations and calls the same phase
functions (``_deal``, ``_play``, ``_reveal``, ``_ride``, ``_check_finish``,
``_remove_played``, ``_slipstream``, ``_exhaustion``) without events or history. On that
path, which simulations run millions of times, loops stand where comprehensions would
read better: in Python 3.11 a comprehension is a function call.

``Race`` combines one class per concern, each in its module: ``race_model`` (the phases, teams,
riders and decks, the actions as values, the state and its queries: ``RaceModel``, the base of the
others), ``race_phases`` (the phase functions), ``race_setup`` (``new``, ``from_positions``, placing
the riders), ``race_actions`` (the actions and the automatic steps), ``race_fast`` (the fast path)
and ``race_json``. Every name is imported from here.

Identity is data: a ``Rider`` has a kind (sprinteur or rouleur), a team and a colour; a
``Team`` has a kind (a player's team, or the Peloton expansion's Peloton and Muscle bot teams) and,
separately, a controller (None for a person, else a bot policy). Cards live in ``Deck``
objects owned by a rider (or, in the Peloton expansion, by a team).

Tutor decisions (docs/rule_decisions.md; also in ``rules``, where each is a ``Rule`` with ``decision=True``):
- a move past the last square stops on the last square; once a rider crosses the
  finish, that round's end phase is skipped;
- Peloton expansion: the Peloton and
  Muscle teams place first, at the front of the start area, a team's second rider
  behind its first; a start area too small for everyone extends backwards by squares
  of the start's width; the breakaway takes the top bidder with 2-4 bidders and the
  top two with 5-12, ties going to the rider further back on the grid
  (``breakaway``); breakaway riders start on the first squares past the start line,
  the best bid frontmost, right lane first; an empty bot deck is refilled by
  shuffling its played cards; Attack! values are the card's own, so the descent and
  supply minimums apply to the rider moving 2 and the ascent limit to the one moving 9.
"""

from __future__ import annotations

from .race_actions import PHASE_STEPS, RaceActions, ResolvedStep
from .race_fast import RaceFastPath
from .race_json import RaceJson
from .cards import HAND_SIZE
from .race_model import (
    AUTOMATIC_PHASES,
    BOT_SEED_SALT,
    BREAKAWAY_EXHAUSTION,
    MAX_MUSCLE,
    MUSCLE_COLOURS,
    PAIR_TEAMS,
    PELOTON_COLOUR,
    ROUND_ORDER,
    TEAM_COLOURS,
    Action,
    Deck,
    Draw,
    Move,
    Phase,
    Place,
    Play,
    Rider,
    Step,
    Team,
    TeamKind,
)

__all__ = [
    "Race",
    "ResolvedStep",
    "PHASE_STEPS",
    "AUTOMATIC_PHASES",
    "BOT_SEED_SALT",
    "BREAKAWAY_EXHAUSTION",
    "HAND_SIZE",
    "MAX_MUSCLE",
    "MUSCLE_COLOURS",
    "PAIR_TEAMS",
    "PELOTON_COLOUR",
    "ROUND_ORDER",
    "TEAM_COLOURS",
    "Action",
    "Deck",
    "Draw",
    "Move",
    "Phase",
    "Place",
    "Play",
    "Rider",
    "Step",
    "Team",
    "TeamKind",
]


class Race(RaceActions, RaceFastPath, RaceJson):
    """One Flamme Rouge race. Build it with ``Race.new`` or ``Race.from_positions``."""
