"""The examples in the engine's docstrings run."""

from __future__ import annotations

import doctest

import pytest

import tutor.flanders
from tutor.flanders import odds


@pytest.mark.parametrize("module", [tutor.flanders, odds], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    failures, tried = doctest.testmod(module)
    assert tried and not failures
