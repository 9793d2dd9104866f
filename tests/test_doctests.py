"""The docstring examples are documentation: run them against the installed package."""

import doctest
import importlib

import pytest

MODULES = [
    "umaoka.engine",
    "umaoka.engine.presets",
    "umaoka.engine.rules",
    "umaoka.engine.batch",
    "umaoka.engine.settle",
    "umaoka.engine.shortcut",
    "umaoka.engine.standings",
    "umaoka.engine.typed_numbers",
    "umaoka.engine.errors",
    "umaoka.engine.online.imported",
    "umaoka.engine.moved",
    "umaoka.engine.hands",
    "umaoka.engine.hands.payment",
    "umaoka.engine.season",
    "umaoka.engine.seating",
    "umaoka.engine.seating.nights",
    "umaoka.engine.seating.draw",
    "umaoka.addin.functions.recalc",
    "umaoka.addin.install.setup",
    "umaoka.addin.udfs",
    "umaoka.addin.functions.season_cache",
    "umaoka.templates.xlsx.cells",
    "umaoka.templates.book.runtime",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
