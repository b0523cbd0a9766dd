"""How long a learner waits for animations nobody asked to watch step by step. A script, not a test.

    python benchmarks/bench_pace.py [--rounds N]

Drives the lessons' widgets headless, the scene paced by a recording clock (``LayeredScene.clock``: time moves
only when the animation asks for it), and prints the seconds each wait lasts, before (the slow pace: "Watch each
step" for In Flanders Field, no round budget for Flamme Rouge) and after (the default):

- In Flanders Field lesson 07 (4 players, seed 7): "Bots play" after each of the learner's turns.
- Flamme Rouge lessons 07 (red against three heuristic bots) and 12 (twelve single riders, a breakaway):
  "Finish round" each round, the whole race, and the race when the learner chooses "Finish the race" at round 3.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tutor.flamme_rouge import TEAM_COLOURS  # noqa: E402
from tutor.flamme_rouge.race import Phase as RacePhase  # noqa: E402
from tutor.flamme_rouge.widgets import RaceTutor  # noqa: E402
from tutor.flamme_rouge.widgets import race_tutor  # noqa: E402
from tutor.flanders import Phase  # noqa: E402
from tutor.flanders.widgets import GameTutor  # noqa: E402
from tutor.ui.scene import LayeredScene  # noqa: E402


class RecordingClock:
    """An event loop's clock for ``LayeredScene``: ``run_out`` runs every booked frame and returns how long the
    animation lasted (seconds)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.booked: list[tuple[float, int, Callable[[], None], list[bool]]] = []
        self._count = 0

    def time(self) -> float:
        return self.now

    def call_at(self, when: float, callback: Callable[[], None]) -> Any:
        cancelled = [False]
        self._count += 1
        self.booked.append((when, self._count, callback, cancelled))

        class Handle:
            def cancel(self) -> None:
                cancelled[0] = True

        return Handle()

    def run_out(self, scene: LayeredScene) -> float:
        start = self.now
        while scene.playing:
            self.booked.sort(key=lambda b: (b[0], b[1]))
            when, _, callback, cancelled = self.booked.pop(0)
            if not cancelled[0]:
                self.now = max(self.now, when)
                callback()
        return self.now - start


def flanders_turn(t: GameTutor) -> None:
    """The learner rolls once, takes the first card offered and stops (or busts), plays its cards, ends."""
    t.roll_button.click()
    if t.game.phase is Phase.CHOOSE:
        next(b for b in t.pair_buttons if not b.disabled).click()
    if t.continue_button.layout.display != "none":
        t.continue_button.click()
        return
    if t.game.phase is Phase.AGAIN:
        t.stop_button.click()
    while t.play_buttons:
        t.play_buttons[0].click()
    if t.game.phase is Phase.RESOLVE:
        t.end_button.click()


def flanders_bots_play(rounds: int, watch: bool) -> list[float]:
    """Seconds of each "Bots play" over ``rounds`` of lesson 07's game."""
    t = GameTutor.new_game(4, bots={"p2": "cautious", "p3": "bold", "p4": "threshold"}, seed=7)
    t.debounce_s = 0
    t.watch.value = watch
    t.board.clock = clock = RecordingClock()
    waits = []
    while t.game.round <= rounds and t.game.phase is not Phase.FINISHED:
        if t.human_turn:
            flanders_turn(t)
            clock.run_out(t.board)
        elif t.continue_button.layout.display != "none":
            t.continue_button.click()
            clock.run_out(t.board)
        else:
            t.finish_button.click()
            waits.append(clock.run_out(t.board))
    return waits


def lesson_07() -> RaceTutor:
    return RaceTutor.new_race(
        "avenue-corso-paseo",
        teams=("red", "blue", "green", "black"),
        bots={"blue": "heuristic", "green": "heuristic", "black": "heuristic"},
        seed=0,
    )


def lesson_12() -> RaceTutor:
    return RaceTutor.new_race(
        "paves-du-nord", teams=TEAM_COLOURS, human_teams=("red",), single_riders=True, breakaway=True, seed=0
    )


def race_rounds(make: Callable[[], RaceTutor], budget: bool, finish_at: int | None = None) -> tuple[list[float], int]:
    """Seconds of each "Finish round" of a lesson's race, and the rounds played; ``finish_at``: choose "Finish
    the race" at that round (then the learner only draws and plays cards)."""
    saved = race_tutor.round_budget
    if not budget:
        race_tutor.round_budget = lambda steps, speed: None  # type: ignore[assignment]
    try:
        t = make()
        t.debounce_s = 0
        t.scene.clock = clock = RecordingClock()
        waits = []
        while t.race.phase is not RacePhase.FINISHED:
            if finish_at is not None and t.race.round >= finish_at and t.offers_finish:
                t.finish_race_button.click()  # the rounds resolve at once; the learner still plays every card
                waits.append(clock.run_out(t.scene))
                continue
            if t.paused:
                t.next_round_button.click()
                continue
            while any(not b.disabled for b in t.draw_buttons.values()):
                next(b for b in t.draw_buttons.values() if not b.disabled).click()
                t.card_buttons[0].click()
            if t.race.phase.automatic:
                t.finish_button.click()
                waits.append(clock.run_out(t.scene))
        return waits, t.race.round
    finally:
        race_tutor.round_budget = saved


def summary(name: str, waits: list[float]) -> str:
    return (
        f"{name:<46} n={len(waits):>3}  mean {statistics.mean(waits):5.1f} s  max {max(waits):5.1f} s  "
        f"total {sum(waits):6.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=6, help="rounds of the Flanders game to time")
    args = parser.parse_args()
    print("In Flanders Field 07, 'Bots play' (three bots a round):")
    print("  " + summary("before: every step at its slow pace (Watch)", flanders_bots_play(args.rounds, True)))
    print("  " + summary("after: fitted (the default)", flanders_bots_play(args.rounds, False)))
    for name, make in (("Flamme Rouge 07 (8 riders)", lesson_07), ("Flamme Rouge 12 (12 single riders)", lesson_12)):
        print(f"{name}, 'Finish round':")
        slow, rounds = race_rounds(make, budget=False)
        fast, _ = race_rounds(make, budget=True)
        print("  " + summary("before: no round budget", slow))
        print("  " + summary("after: a round budget (the default)", fast))
        early, _ = race_rounds(make, budget=True, finish_at=3)
        print(
            f"  the whole race ({rounds} rounds) waiting on 'Finish round': before {sum(slow) / 60:.1f} min, "
            f"after {sum(fast) / 60:.1f} min; choosing 'Finish the race' at round 3: {sum(early):.1f} s in all"
        )


if __name__ == "__main__":
    main()
