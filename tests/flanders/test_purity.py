"""The engine is pure Python: importing it loads no widget or numeric library."""

from __future__ import annotations

import subprocess
import sys


def test_import_loads_no_ui_or_numpy():
    code = ("import sys, tutor.flanders, tutor.flanders.scenario, tutor.flanders.cli; "
            "bad = [m for m in ('ipywidgets', 'ipycanvas', 'numpy') if m in sys.modules]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
