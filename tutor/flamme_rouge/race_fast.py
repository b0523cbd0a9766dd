"""The fast path of a Flamme Rouge race, for simulations: whole rounds with the same phase functions as the
step-by-step actions (so the same rules, random draws and results), but no events, no undo history and no
checks.
"""

from __future__ import annotations

from typing import Callable, Self


from . import rules
from .cards import Card
from .errors import WrongPhaseError
from .race_model import Phase
from .race_phases import RacePhases


class RaceFastPath(RacePhases):
    """``play_round`` and ``play_rounds``."""

    def play_round(self, choose: Callable[[Self, str], Card]) -> None:
        """Fast path for simulations: a whole round, every rider's card picked by ``choose(race, rider_id)``.

        The same phase functions as ``draw``/``play``/``step``, so the same rules, random
        draws and result (the tests check this), but no events, no undo history and no
        checks: call it at the start of an energy phase with a ``choose`` that returns a
        card from the rider's hand. Ends in the next energy phase, or finished.
        """
        self._require_fast_path("play_round")
        positions = self.positions()
        self._fast_round(choose, positions, rules.occupancy(positions))

    def play_rounds(self, choose: Callable[[Self, str], Card], limit: int) -> None:
        """``play_round`` until the race is over; the positions and the occupancy map carry from one round to the
        next. A race still running after round ``limit`` raises ``RuntimeError`` (every rider boxed in: a bug, not
        an endless loop)."""
        self._require_fast_path("play_rounds")
        positions = self.positions()
        occupied = rules.occupancy(positions)
        while self.phase is not Phase.FINISHED:
            if self.round > limit:
                raise RuntimeError(f"race did not finish in {limit} rounds")
            self._fast_round(choose, positions, occupied)

    def _require_fast_path(self, what: str) -> None:
        if self.phase is not Phase.ENERGY:
            raise WrongPhaseError(f"{what} needs the energy phase, not the {self.phase.name_in_words}")

    def _fast_round(
        self, choose: Callable[[Self, str], Card], positions: dict[str, tuple[int, int]], occupied: dict[int, list[int]]
    ) -> None:
        """One round of ``play_round``; ``positions`` (every rider's) and ``occupied`` are kept up to date."""
        deal, play = self._deal, self._play
        for rider in self._choosers:
            if rider.played is None:
                deal(rider)
                play(rider, choose(self, rider.id))
        if self._flippers:
            self._flip()
        self._reveal(positions)
        moves = self.move_values.items()  # in movement order
        furthest = self._ride(moves, occupied, positions)[3]
        self.to_move, self.move_values = [], {}
        finish = self.track.finish
        if finish is not None and furthest >= finish and self._check_finish():
            return
        self._remove_played()
        self._slipstream(positions, occupied)
        self._exhaustion(positions)
        self._next_round()
