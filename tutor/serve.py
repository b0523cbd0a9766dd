"""``tutor.serve``, as deploy configurations written before ``tutor.server`` name it: ``template_dir``,
``voila_command``, ``cmd_serve`` and ``python -m tutor.serve``. Everything else is in ``tutor.server``."""

from __future__ import annotations

import sys

from .server.class_mode import launch_voila
from .server.command import cmd_serve
from .server.process import template_dir, voila_command

__all__ = ["cmd_serve", "launch_voila", "template_dir", "voila_command"]

if __name__ == "__main__":
    sys.exit(launch_voila(sys.argv[1:]))
