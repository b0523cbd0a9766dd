"""Layers you can see: no import loop in ``tutor`` and no import up a layer (the engines' purity tests,
tests/flanders/test_purity.py and tests/test_ui.py, extended to the whole package).

The graph is read from the source with ``ast``: every ``import`` and ``from ... import`` of a ``tutor`` module, at a
module's top, inside a function (a lazy import is still a dependency) or under ``if TYPE_CHECKING``.
``from package import name`` depends on the module ``package.name`` when there is one, else on ``package``; that
importing ``package.module`` runs ``package/__init__.py`` first is not counted (no module here relies on it).

The layers, each importing only from those below it (and from its own):

- ``languages`` (``tutor.i18n``): the gettext helpers, the catalogs, the lessons in other languages;
- ``core``: what no game owns;
- ``engines`` (each game's package but its ``render``, ``widgets`` and ``cli``) and, beside them, ``ui`` (the
  shared widgets and canvas pieces): neither imports the other;
- ``render``, then ``widgets`` (each game's);
- ``classroom`` (the class's data and endpoints), ``server`` (``rules-tutor serve``, the Jupyter server
  extensions), ``cli`` (the command line, each game's ``cli`` module, the package's top).

One game never imports another, and the package's top holds only the command line and the packages.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "tutor"

BELOW: dict[str, tuple[str, ...]] = {
    "languages": (),
    "core": ("languages",),
    "engines": ("core",),
    "ui": ("core",),
    "render": ("engines", "ui"),
    "widgets": ("render",),
    "classroom": ("widgets",),
    "server": ("classroom",),
    "cli": ("server",),
}
"""Each layer and the layers right below it (what it may import: those and everything below them)."""
LAYERS: dict[str, str] = {
    "tutor.i18n": "languages",
    "tutor.core": "core",
    "tutor.flamme_rouge": "engines",
    "tutor.flanders": "engines",
    "tutor.ui": "ui",
    "tutor.flamme_rouge.render": "render",
    "tutor.flanders.render": "render",
    "tutor.flamme_rouge.widgets": "widgets",
    "tutor.flanders.widgets": "widgets",
    "tutor.classroom": "classroom",
    "tutor.server": "server",
    "tutor.flamme_rouge.cli": "cli",
    "tutor.flanders.cli": "cli",
}
"""Where each module is: the layer of the longest of these names it starts with (or is)."""
TOP_MODULES = {"tutor": "cli", "tutor.__main__": "cli", "tutor.cli": "cli"}
"""The modules at the package's top, each by itself (anything else there is in no layer)."""
GAMES = ("tutor.flamme_rouge", "tutor.flanders")
TOP = {"__init__.py", "__main__.py", "cli.py"}

Graph = dict[str, dict[str, str]]
"""module -> {module it imports: how ("top", "function" or "type")}."""


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Every module of ``package`` by dotted name (a package by its own name: its ``__init__.py``)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def import_graph(package: Path = PACKAGE) -> Graph:
    """The imports between the modules of ``package`` (see the module's docstring for what counts)."""
    known = modules(package)
    graph: Graph = {name: {} for name in known}

    def owner(name: str) -> str:
        while name not in known:
            name = name.rpartition(".")[0]
        return name

    for name, path in known.items():
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]

        def visit(node: ast.AST, how: str) -> None:
            for child in ast.iter_child_nodes(node):
                inner = how
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and how == "top":
                    inner = "function"
                elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                    inner = "type"
                targets: list[str] = []
                if isinstance(child, ast.Import):
                    targets = [alias.name for alias in child.names]
                elif isinstance(child, ast.ImportFrom):
                    base = child.module or ""
                    if child.level:
                        start = here.split(".")[: len(here.split(".")) - (child.level - 1)]
                        base = ".".join(start + ([base] if base else []))
                    targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in child.names]
                for target in targets:
                    if target.split(".")[0] == package.name and (imported := owner(target)) != name:
                        graph[name].setdefault(imported, how)
                visit(child, inner)

        visit(ast.parse(path.read_text(encoding="utf-8")), "top")
    return graph


def import_loops(graph: Graph) -> list[list[str]]:
    """One loop through each group of modules that import each other (``[a, b, c, a]``), by Tarjan's strongly
    connected components; none when the graph layers."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph.get(node, {}):
            if other not in index:
                connect(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return [_loop_in(group, graph) for group in groups]


def _loop_in(group: set[str], graph: Graph) -> list[str]:
    """A shortest path from the group's first module back to itself, inside the group."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for other in sorted(graph.get(node, {})):
                if other == start:
                    return paths[node] + [start]
                if other in group and other not in paths:
                    paths[other] = paths[node] + [other]
                    following.append(other)
        frontier = following
    raise AssertionError(f"no loop in {group}")


def layer_of(module: str) -> str:
    if module in TOP_MODULES:
        return TOP_MODULES[module]
    home = max((name for name in LAYERS if module == name or module.startswith(name + ".")), key=len, default=None)
    assert home is not None, f"{module} is in no layer: put it in a package of one (tests/test_layers.py LAYERS)"
    return LAYERS[home]


def allowed(layer: str) -> set[str]:
    """``layer`` and every layer below it."""
    reach, todo = {layer}, [layer]
    while todo:
        for lower in BELOW[todo.pop()]:
            if lower not in reach:
                reach.add(lower)
                todo.append(lower)
    return reach


def _game(module: str) -> str | None:
    return next((game for game in GAMES if module == game or module.startswith(game + ".")), None)


def imports_up(graph: Graph) -> list[str]:
    """Each import that runs up (or across) the layers, or from one game into another."""
    wrong = []
    for module, imported in sorted(graph.items()):
        for other, how in sorted(imported.items()):
            here, there = layer_of(module), layer_of(other)
            if there not in allowed(here):
                wrong.append(f"{module} ({here}) imports {other} ({there}) [{how}]")
            elif _game(module) and _game(other) and _game(module) != _game(other):
                wrong.append(f"{module} imports another game's {other} [{how}]")
    return wrong


# ----- the package ------------------------------------------------------------------------------------------


@cache
def _tutor() -> Graph:
    return import_graph()


def test_no_module_of_tutor_is_in_an_import_loop():
    loops = import_loops(_tutor())
    assert loops == [], "\n".join(" -> ".join(loop) for loop in loops)


def test_no_import_runs_up_a_layer():
    assert imports_up(_tutor()) == []


def test_the_package_top_holds_only_the_command_line_and_the_packages():
    loose = sorted(path.name for path in PACKAGE.glob("*.py") if path.name not in TOP)
    assert loose == []


def test_the_graph_sees_the_imports_the_layers_rest_on():
    """The reading itself, on the package (else the tests above would pass on an empty graph; the planted package
    below shows the lazy and the typing imports found too)."""
    graph = _tutor()
    assert graph["tutor.flamme_rouge.bots"]["tutor.flamme_rouge.race"] == "top"  # from .race import ...
    assert graph["tutor.flamme_rouge.bots"]["tutor.flamme_rouge.rules"] == "top"  # from . import rules
    assert "tutor.i18n" in graph["tutor.core.events"]  # from tutor.i18n import ...
    assert sum(len(imported) for imported in graph.values()) > 300


# ----- the checks can fail: a tiny package with a planted loop and an import up a layer ---------------------


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root / "tutor"


def test_a_planted_loop_is_found_at_the_top_in_a_function_or_for_types(tmp_path: Path):
    package = _write(
        tmp_path,
        {
            "tutor/__init__.py": "",
            "tutor/flamme_rouge/__init__.py": "",
            "tutor/flamme_rouge/race.py": "from .race_actions import Actions\n",
            "tutor/flamme_rouge/race_actions.py": "def hand_to_bots():\n    from . import bots\n",
            "tutor/flamme_rouge/bots.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
            "    from tutor.flamme_rouge.race import Race\n",
            "tutor/flamme_rouge/cards.py": "import tutor.flamme_rouge.rules\n",
            "tutor/flamme_rouge/rules.py": "",
        },
    )
    graph = import_graph(package)
    assert graph["tutor.flamme_rouge.race_actions"] == {"tutor.flamme_rouge.bots": "function"}
    assert graph["tutor.flamme_rouge.bots"] == {"tutor.flamme_rouge.race": "type"}
    assert import_loops(graph) == [
        [
            "tutor.flamme_rouge.bots",
            "tutor.flamme_rouge.race",
            "tutor.flamme_rouge.race_actions",
            "tutor.flamme_rouge.bots",
        ]
    ]
    del graph["tutor.flamme_rouge.bots"]["tutor.flamme_rouge.race"]
    assert import_loops(graph) == []


def test_an_import_up_a_layer_across_or_into_another_game_is_named():
    graph: Graph = {
        "tutor.ui.quiz": {"tutor.classroom.kernel_report": "top"},  # up: the widgets' kit into the class server
        "tutor.flamme_rouge.rules": {"tutor.ui.drawing": "function"},  # across: an engine into the widgets' kit
        "tutor.flanders.render.draw": {"tutor.flamme_rouge.render.style": "top"},  # another game's
        "tutor.classroom.handlers": {"tutor.ui.lessons": "function", "tutor.i18n": "top"},  # down: fine
        "tutor.cli": {"tutor.server.command": "top"},
    }
    assert imports_up(graph) == [
        "tutor.flamme_rouge.rules (engines) imports tutor.ui.drawing (ui) [function]",
        "tutor.flanders.render.draw imports another game's tutor.flamme_rouge.render.style [top]",
        "tutor.ui.quiz (ui) imports tutor.classroom.kernel_report (classroom) [top]",
    ]


def test_a_module_in_no_layer_fails():
    with pytest.raises(AssertionError, match="tutor.third.engine is in no layer"):
        imports_up({"tutor.third.engine": {"tutor.core": "top"}})


def private_uses(package: Path = PACKAGE) -> list[str]:
    """``module._name`` where ``module`` is another ``tutor`` module imported by name (``from tutor.x import y``,
    ``import tutor.x as y``): a widget reaching into an engine's private function."""
    found = []
    for name, path in modules(package).items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {
            alias.asname or alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("tutor"))
            for alias in node.names
        }
        imported |= {
            alias.asname
            for node in ast.walk(tree)
            if isinstance(node, ast.Import)
            for alias in node.names
            if alias.asname and alias.name.startswith("tutor")
        }
        found += [
            f"{name}:{node.lineno}: {node.value.id}.{node.attr}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in imported
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
        ]
    return found


def test_no_module_calls_another_modules_private_names():
    """Issue 40: every change of a game goes through its public actions and queries (a quiz once called
    ``scenarios._action``)."""
    assert private_uses() == []


def test_a_planted_private_use_is_named(tmp_path: Path):
    root = _write(
        tmp_path,
        {
            "tutor/__init__.py": "",
            "tutor/engine.py": "def _secret():\n    pass\n",
            "tutor/widget.py": "from . import engine\nengine._secret()\n",
        },
    )
    assert private_uses(root) == ["tutor.widget:2: engine._secret"]


WIDGET_BOXES = {"widgets.VBox", "widgets.HBox", "widgets.Box"}


WIDGET_PACKAGES = ("tutor.flamme_rouge.widgets", "tutor.flanders.widgets")
"""The packages whose modules ``reaches_into_parts`` reads: both games' widgets (their tutors and workbenches)."""


def reaches_into_parts(package: Path = PACKAGE) -> list[str]:
    """``a._name`` or ``self.part._name`` in a widget module of either game, where ``a`` is not ``self`` or ``cls``:
    one object reading another's private state (a part its host's, a host its part's)."""
    found = []
    for name, path in modules(package).items():
        if not name.startswith(tuple(p + "." for p in WIDGET_PACKAGES)) and name not in WIDGET_PACKAGES:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [
            f"{name}:{node.lineno}: {ast.unparse(node)}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
        ]
    return found


def class_bases(module: str, name: str, package: Path = PACKAGE) -> list[str]:
    """The bases of the class ``name`` as written in ``module`` (a file of tutor/flamme_rouge/widgets)."""
    tree = ast.parse((package / "flamme_rouge" / "widgets" / f"{module}.py").read_text(encoding="utf-8"))
    found = next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == name)
    return [ast.unparse(base) for base in found.bases]


def race_tutor_bases(package: Path = PACKAGE) -> list[str]:
    """The bases of ``RaceTutor`` as written (race_tutor.py)."""
    return class_bases("race_tutor", "RaceTutor", package)


def test_the_race_tutor_is_composed_of_parts_not_mixins():
    """Issue 40, "Composition, not mixins": ``RaceTutor`` is the lesson shell and a box; its words, pace, placing and
    positions are parts (``tutor.words`` ...) that meet it through public names only."""
    bases = race_tutor_bases()
    assert bases[0] == "LessonShell" and len(bases) == 2 and bases[1] in WIDGET_BOXES, bases
    assert reaches_into_parts() == []


def test_every_lesson_widget_is_the_shell_and_a_box():
    """Issue 40: every class built on the shell (``LessonShell`` for both games' lessons and workbenches,
    ``ScreenShell`` for the quiz shell ``RevealQuiz``) has it and a widgets box as its only bases: whatever else it
    does is a part."""
    shells = {}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            bases = [ast.unparse(b) for b in node.bases] if isinstance(node, ast.ClassDef) else []
            if {"LessonShell", "ScreenShell"} & set(bases) and path.name != "shell.py":  # not the shell itself
                shells[f"{path.relative_to(PACKAGE)}:{node.name}"] = bases
    assert {"flanders/widgets/game_tutor.py:GameTutor", "ui/quiz.py:RevealQuiz"} <= set(shells), sorted(shells)
    mixed = {
        name: bases
        for name, bases in shells.items()
        if not (bases[0] in ("LessonShell", "ScreenShell") and len(bases) == 2 and bases[1] in WIDGET_BOXES)
    }
    assert mixed == {}


def test_a_quiz_has_no_back_steps_or_position_code_to_call_by_mistake():
    """Issue 40: a quiz is a screen with nothing to step through: the shell it is built on has no Back, stepper,
    secondary row of Back and Restart, or position code; the lessons' shell adds them to the same parts."""
    from tutor.ui.quiz import RevealQuiz
    from tutor.ui.shell import LessonShell, ScreenShell

    stepping = ("build_shell", "back_step", "secondary_row", "code_body")
    assert issubclass(LessonShell, ScreenShell) and not issubclass(RevealQuiz, LessonShell)
    assert [name for name in stepping if hasattr(RevealQuiz, name)] == []
    assert all(hasattr(LessonShell, name) for name in stepping)


def test_the_workbench_is_composed_of_parts_not_mixins():
    """Issue 40, "Composition, not mixins": the Flamme Rouge ``Workbench`` is the lesson shell and a box; its board's
    editing is a part (``bench.editing``, ``workbench_editing.BoardEditor``) that meets it through public names
    only. ``reaches_into_parts`` reads both workbenches' modules (In Flanders Field's ``PositionEditor`` is a part
    given callables too)."""
    bases = class_bases("workbench", "Workbench")
    assert bases[0] == "LessonShell" and len(bases) == 2 and bases[1] in WIDGET_BOXES, bases
    read = [name for name in modules() if name.startswith(WIDGET_PACKAGES)]
    assert {
        "tutor.flamme_rouge.widgets.workbench",
        "tutor.flamme_rouge.widgets.workbench_editing",
        "tutor.flanders.widgets.workbench",
        "tutor.flanders.widgets.position_editor",
    } <= set(read), read
    assert reaches_into_parts() == []


def test_a_planted_mixin_or_private_reach_is_named(tmp_path: Path):
    pace = "class RacePace:\n    def f(self):\n        self.tutor._round_end = None\n"
    tutor = (
        "class RaceTutor(LessonShell, RacePace, widgets.VBox):\n"
        "    def g(self, t):\n        return self._ok, t._events\n"
    )
    root = _write(
        tmp_path,
        {
            "tutor/__init__.py": "",
            "tutor/flamme_rouge/__init__.py": "",
            "tutor/flamme_rouge/widgets/__init__.py": "",
            "tutor/flamme_rouge/widgets/race_pace.py": pace,
            "tutor/flamme_rouge/widgets/race_tutor.py": tutor,
        },
    )
    assert reaches_into_parts(root) == [
        "tutor.flamme_rouge.widgets.race_pace:3: self.tutor._round_end",
        "tutor.flamme_rouge.widgets.race_tutor:3: t._events",
    ]
    assert race_tutor_bases(root) == ["LessonShell", "RacePace", "widgets.VBox"]


def test_a_planted_workbench_mixin_is_named(tmp_path: Path):
    editing = "class BoardEditing:\n    def f(self, bench):\n        return bench._cards\n"
    flanders = "class Workbench:\n    def f(self):\n        return self.editor._last\n"
    bench = "class Workbench(LessonShell, BoardEditing, widgets.VBox):\n    pass\n"
    root = _write(
        tmp_path,
        {
            "tutor/__init__.py": "",
            "tutor/flamme_rouge/__init__.py": "",
            "tutor/flamme_rouge/widgets/__init__.py": "",
            "tutor/flamme_rouge/widgets/workbench_editing.py": editing,
            "tutor/flamme_rouge/widgets/workbench.py": bench,
            "tutor/flanders/__init__.py": "",
            "tutor/flanders/widgets/__init__.py": "",
            "tutor/flanders/widgets/workbench.py": flanders,
            "tutor/flanders/game.py": "x = object()._private\n",
        },
    )  # an engine: not read
    assert reaches_into_parts(root) == [
        "tutor.flamme_rouge.widgets.workbench_editing:3: bench._cards",
        "tutor.flanders.widgets.workbench:3: self.editor._last",
    ]
    assert class_bases("workbench", "Workbench", root) == ["LessonShell", "BoardEditing", "widgets.VBox"]
