"""Count to Ten, a made-up third game that lives in the tests' own folder (tests/test_third_game.py).

It is a game as the README's "Adding a game" describes one: this package (an engine on ``tutor.core`` whose
refusals say why, a ``cli`` module, a lesson widget on the lesson shell ``tutor.ui.shell`` and a quiz on
``tutor.ui.quiz``), its lessons in ``lessons/``, its messages translated for every catalog (``locale/<code>.po``:
the test adds them to copies of ``tutor/locale/<code>/LC_MESSAGES/tutor.po``, where a game inside ``tutor/`` puts
them), and one registry line, ``ENTRY``, which the test registers (``tutor.core.games.register``) instead of adding
it to ``tutor/core/games.py``.
"""

from tutor.core.games import GameEntry

ENTRY = GameEntry(
    "count-to-ten", "Count to Ten", "tests.third_game", "count_to_ten", "Add one or two in turn: whoever says ten wins."
)
"""The registry line; ``lessons`` is the folder's name under the served lessons folder."""
