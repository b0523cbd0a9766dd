"""Peer benchmark: full bot races in the PyPI package ``flamme-rouge==0.1.2``.

Each race is 4 ``Muscle`` teams (the package's solo-rules bot teams: one
Sprinteur with the muscle deck, one Rouleur; hand size 1, i.e. they flip the
top card, and they never take exhaustion cards) on the package's own tracks.
A race ends, as in the package, after the round in which the first rider
crosses the finish line.

Notes on the peer:
* it draws all randomness from the global ``random`` module, so a race is
  reproduced by ``random.seed(seed)`` (this reseeds the process-wide RNG);
* its tracks are module-level singletons that ``Game`` resets and mutates,
  so races must not run concurrently;
* importing it calls ``colorama.init()``, which wraps ``sys.stdout`` and
  ``sys.stderr`` when they are not ttys; this module undoes that.

Run: ``python -m benchmarks.peer_flamme_rouge`` (or run this file directly).
"""

from __future__ import annotations

import contextlib
import io
import logging
import random
import sys
import time

_stdout, _stderr = sys.stdout, sys.stderr
import flamme_rouge  # noqa: E402,F401  (runs colorama.init(), which may wrap them)
from flamme_rouge.core import Game  # noqa: E402
from flamme_rouge.strategies import Muscle  # noqa: E402
from flamme_rouge.tracks import AVENUE_CORSO_PASEO, LA_HAUT_MONTAGNE  # noqa: E402

sys.stdout, sys.stderr = _stdout, _stderr  # undo colorama's stream wrapping

# The peer logs every move at INFO; never let that reach the host's handlers.
logging.getLogger("flamme_rouge").setLevel(logging.CRITICAL + 1)

#: our stage ids -> the peer's Track objects (note the peer spells it "HAUT").
PEER_TRACKS = {
    "avenue-corso-paseo": AVENUE_CORSO_PASEO,
    "la-haute-montagne": LA_HAUT_MONTAGNE,
}

#: guard against a hang: a race takes far fewer than this many bot actions.
MAX_ACTIONS = 10_000


def peer_race(stage: str, seed: int) -> int:
    """Play one seeded race of 4 ``Muscle`` teams; return the rounds played.

    Raises ``RuntimeError`` if the race has no winner after ``MAX_ACTIONS``.
    """
    track = PEER_TRACKS[stage]
    random.seed(seed)
    with contextlib.redirect_stdout(io.StringIO()):
        teams = [Muscle(name=f"MUS#{i}") for i in range(4)]
        game = Game(track, teams)
        for _ in range(MAX_ACTIONS):  # == game.play(), but bounded
            if game.finished:
                break
            game.play_action()
    if game.winner is None:
        raise RuntimeError(f"peer race did not finish: {stage} seed={seed}")
    return game.rounds_played


def peer_races_per_second(stage: str, seconds: float = 3.0) -> float:
    """Run seeded races (seeds 0, 1, 2, ...) back to back for about
    ``seconds``; return completed races per second."""
    races = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        peer_race(stage, races)
        races += 1
        now = time.perf_counter()
        if now >= deadline:
            return races / (now - start)


if __name__ == "__main__":
    for _stage in PEER_TRACKS:
        print(f"flamme-rouge 0.1.2 {_stage}: {peer_races_per_second(_stage):.1f} races/s")
