"""``python -m tutor.server ARGS``: Voila with class mode and the project's template (what ``voila_command`` runs)."""

import sys

from .class_mode import launch_voila

sys.exit(launch_voila(sys.argv[1:]))
