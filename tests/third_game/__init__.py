"""Count to Ten, a made-up third game that lives in the tests' own folder (tests/test_third_game.py).

It is a game as the README's "Adding a game" describes one: this package (an engine on ``tutor.core``, a ``cli``
module, thin widgets on ``tutor.ui``), its lessons in ``lessons/``, and one registry line, ``ENTRY``, which the
test registers (``tutor.core.games.register``) instead of adding it to ``tutor/core/games.py``.
"""

from tutor.core.games import GameEntry

ENTRY = GameEntry("count-to-ten", "Count to Ten", "tests.third_game", "count_to_ten",
                  "Add one or two in turn: whoever says ten wins.")
"""The registry line; ``lessons`` is the folder's name under the served lessons folder."""
