"""Rules tutor: interactive lessons for tabletop games.

Layout: ``tutor.core`` holds what no game owns (errors, events citing rules, seeded
state with undo, data loading, the registry of games); ``tutor.ui`` the shared widgets
and canvas pieces, which import no game. Each game is one package with a pure engine
(no widget, canvas or numpy imports), its ``render`` and its ``widgets``:
``tutor.flamme_rouge`` and ``tutor.flanders``. Lessons in ``lessons/<game>/`` only
import and display. ``tutor.server`` serves them (``rules-tutor serve``), ``tutor.classroom`` keeps a class's data,
``tutor.i18n`` speaks the learner's language. Each layer imports only from those below it (tests/test_layers.py).
"""

__version__ = "0.1.0"
