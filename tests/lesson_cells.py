"""Build a lesson's widgets as its notebook builds them: run one code cell in the lesson's folder and return the
value of its last line (what Voila would display)."""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any

import nbformat

LESSONS = Path(__file__).resolve().parents[1] / "lessons"


def markdown(path: Path) -> list[str]:
    """The lesson's Markdown cells, in order."""
    return [c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown"]


def cell_widget(path: Path, marker: str) -> Any:
    """What the first code cell of ``path`` containing ``marker`` shows (its last expression), run as the lesson runs
    it: in the lesson's folder, after the code cells above it."""
    cells = [c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
    index = next(k for k, source in enumerate(cells) if marker in source)
    namespace: dict[str, Any] = {}
    cwd = os.getcwd()
    os.chdir(path.parent)
    try:
        for source in cells[:index]:
            exec(compile(source, str(path), "exec"), namespace)
        tree = ast.parse(cells[index])
        last = tree.body.pop()
        assert isinstance(last, ast.Expr)
        exec(compile(tree, str(path), "exec"), namespace)
        return eval(compile(ast.Expression(last.value), str(path), "eval"), namespace)
    finally:
        os.chdir(cwd)
