"""``rules-tutor serve``: the lessons as a Voila web app (settings in ``voila.json``)."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

DEFAULT_PORT = 8866


def lessons_dir() -> Path:
    """The lessons folder of a source checkout (the working directory's, else the package's parent's)."""
    for base in (Path.cwd(), Path(__file__).resolve().parent.parent):
        if (base / "lessons").is_dir():
            return base / "lessons"
    raise SystemExit("rules-tutor serve: no lessons/ folder found; run it from the repository's top folder")


def voila_command(directory: Path, port: int, open_browser: bool = False) -> list[str]:
    """The Voila command line serving ``directory`` with the settings of ``voila.json`` in its parent folder."""
    directory = directory.resolve()
    command = [sys.executable, "-m", "voila", str(directory), f"--port={port}",
               f"--Voila.config_file_paths={directory.parent}"]
    if not open_browser:
        command.append("--no-browser")
    return command


def cmd_serve(args: argparse.Namespace) -> int:
    directory = Path(args.directory) if args.directory else lessons_dir()
    print(f"Serving the lessons at http://localhost:{args.port}/  (Ctrl+C stops)", flush=True)
    try:
        return subprocess.call(voila_command(directory, args.port, args.open), cwd=directory.resolve().parent)
    except KeyboardInterrupt:
        return 0
