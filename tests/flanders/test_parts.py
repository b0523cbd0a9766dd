"""Issue 40: the game tutor's bots' part (``replay.BotReplay``) is composed, not mixed in: it reaches the tutor only
through what its constructor is given, and the tutor reads it only through its public names."""

from __future__ import annotations

import ast
import inspect

from tutor.flanders.widgets import game_tutor, replay
from tutor.flanders.widgets.game_tutor import GameTutor
from tutor.flanders.widgets.replay import BotReplay


def _class(module, name: str) -> ast.ClassDef:
    tree = ast.parse(inspect.getsource(module))
    return next(node for node in ast.walk(tree) if isinstance(node, ast.ClassDef) and node.name == name)


def _self_names(cls: ast.ClassDef, context: type) -> set[str]:
    return {
        node.attr
        for node in ast.walk(cls)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
        and isinstance(node.ctx, context)
    }


def test_the_bots_part_is_not_a_base_of_the_tutor():
    assert BotReplay not in GameTutor.__mro__
    assert not any(base is BotReplay for base in GameTutor.__bases__)


def test_the_bots_part_reads_only_the_private_names_it_sets_or_defines():
    cls = _class(replay, "BotReplay")
    own = _self_names(cls, ast.Store) | {node.name for node in cls.body if isinstance(node, ast.FunctionDef)}
    read = {name for name in _self_names(cls, ast.Load) if name.startswith("_")}
    assert read <= own, f"BotReplay reads a private name it does not own: {sorted(read - own)}"


def test_the_tutor_reads_only_the_public_names_of_its_bots_part():
    cls = _class(game_tutor, "GameTutor")
    private = sorted(
        node.attr
        for node in ast.walk(cls)
        if isinstance(node, ast.Attribute)
        and node.attr.startswith("_")
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "bots"
    )
    assert private == []
    public = {
        node.attr
        for node in ast.walk(cls)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and node.value.attr == "bots"
    }
    assert public <= {name for name in dir(BotReplay) if not name.startswith("_")} | {
        "watch",
        "finish",
        "finish_now_button",
    }
