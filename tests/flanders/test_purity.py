"""The engine is pure Python: importing it loads no widget or numeric library."""

from __future__ import annotations

import subprocess
import sys


def test_import_loads_no_ui_or_numpy():
    code = (
        "import sys, tutor.flanders, tutor.flanders.scenario, tutor.flanders.cli; "
        "bad = [m for m in ('ipywidgets', 'ipycanvas', 'numpy') if m in sys.modules]; print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_engine_modules_import_nothing_above_them():
    """Layers, no cycle: the rules and the state (game.py and below) never import the bots, the driver or the
    simulations that sit above them."""
    import ast
    from pathlib import Path

    package = Path(__file__).resolve().parents[2] / "tutor" / "flanders"
    above = {"bots", "simulate", "cli", "scenario", "widgets", "render"}
    for module in ("game", "game_state", "odds", "cards", "events", "rules", "battlefield", "errors"):
        tree = ast.parse((package / f"{module}.py").read_text())
        imported = {
            alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
        }
        imported |= {(node.module or "").split(".")[-1] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert not imported & above, (module, imported & above)
