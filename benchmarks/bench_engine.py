"""Engine speed: whole bot races per second, ours against flamme-rouge 0.1.2 in the same run.

Each race is 4 two-rider teams. Ours: ``simulate_race`` with the ``random`` bot
(draws 4, plays any one: the same decision power as the peer's ``Muscle`` teams,
which flip a random card) and with the ``heuristic`` bot. Ours and the peer run
in alternating blocks, timed in CPU seconds of this process so that a busy
machine slows both alike; the best block counts. Target (issue 14): ours at least 25 times the peer's races per
second with random bots.

Where the time goes (random bots, 4 teams, Dec 2026; pyinstrument, and instruction counts from
``valgrind --tool=cachegrind``, which a shared machine does not disturb): a race is ~14 rounds (~16 on
la-haute-montagne) and ~4.8-5.2 M instructions, against ~121-126 M for a peer race (23-24x in instructions,
17-22x in CPU time). ``Race.new`` is ~11% (~550 k instructions; seeding the two generators, ``rng`` and
``bot_rng``, is 73 k of it; the 8 shuffles, 16 Rider/Deck objects and the placement the rest). In a round:
moving (``_move`` + ``rules.destination`` + ``rules.move_distance``) ~21%, drawing ~19% (half of it the
reshuffles, one ``rng.random()`` per card), slipstream ~13%, the loop of ``play_round`` itself ~11%, the reveal
(movement order) ~9%, the random bot ~6%, playing ~5%, ``positions()`` ~5%, exhaustion ~4%.

It also times the Peloton expansion's biggest race (issue 8): 12 single riders
with the Peloton team, a Muscle team and the breakaway bids, on the tutor's
Pavés du Nord stage (no peer plays the expansion).

Run: ``python benchmarks/bench_engine.py [--seconds 2] [--blocks 3]``
(the peer needs ``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.peer_flamme_rouge import peer_race  # noqa: E402
from tutor.flamme_rouge import simulate_race  # noqa: E402

STAGES = ("avenue-corso-paseo", "la-haute-montagne")


def races_per_second(run_one, seconds: float) -> float:
    """Races per second of this process's CPU time (other processes on a busy machine barely count)."""
    races, start = 0, time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        run_one(races)
        races += 1
    return races / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one timed block")
    parser.add_argument("--blocks", type=int, default=3, help="alternating blocks per engine")
    args = parser.parse_args()
    print(f"{'stage':<20} {'engine':<28} {'races/s':>9}")
    for stage in STAGES:
        best = {"random": 0.0, "heuristic": 0.0, "peer": 0.0}
        for _ in range(args.blocks):
            for bot in ("random", "heuristic"):
                rate = races_per_second(lambda s: simulate_race(stage, teams=4, bot=bot, seed=s), args.seconds)
                best[bot] = max(best[bot], rate)
            best["peer"] = max(best["peer"], races_per_second(lambda s: peer_race(stage, s), args.seconds))
        print(f"{stage:<20} {'tutor, random bots':<28} {best['random']:>9.0f}")
        print(f"{stage:<20} {'tutor, heuristic bots':<28} {best['heuristic']:>9.0f}")
        print(f"{stage:<20} {'flamme-rouge 0.1.2, Muscle':<28} {best['peer']:>9.1f}")
        print(f"{stage:<20} {'ratio (random / peer)':<28} {best['random'] / best['peer']:>9.1f}x  (target 25x)")
    for bot in ("random", "heuristic"):
        rate = max(races_per_second(lambda s: simulate_race(
            "paves-du-nord", teams=12, bot=bot, seed=s, single_riders=True, peloton=True, muscle=1,
            breakaway=True), args.seconds) for _ in range(args.blocks))
        print(f"{'paves-du-nord':<20} {'12 singles+Peloton+Muscle, ' + bot[:4]:<28} {rate:>9.0f}")


if __name__ == "__main__":
    main()
