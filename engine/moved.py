"""Module paths of umaoka 0.2 that moved into rooms, still importable.

umaoka 0.3 keeps each concept in a room of its own (``umaoka.engine.season``,
``umaoka.templates.xlsx`` ...). A script written for 0.2 that imports an old path such as
``umaoka.engine.stats`` or ``umaoka.templates.runtime`` gets the module at its new place:
the same module object, so its names and state are the same. New code should import the
new paths (see docs/architecture.md).

>>> import umaoka.engine.stats as old
>>> import umaoka.engine.season.stats as new
>>> old is new
True
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType

#: Old dotted path -> where the module lives now.
MOVED = {
    "umaoka.addin.embed": "umaoka.addin.install.embed",
    "umaoka.addin.league_cli": "umaoka.addin.cli.league",
    "umaoka.addin.lite": "umaoka.addin.install.lite",
    "umaoka.addin.parts": "umaoka.addin.install.parts",
    "umaoka.addin.recalc": "umaoka.addin.functions.recalc",
    "umaoka.addin.save": "umaoka.addin.install.save",
    "umaoka.addin.season_cache": "umaoka.addin.functions.season_cache",
    "umaoka.addin.season_cli": "umaoka.addin.cli.season",
    "umaoka.addin.setup": "umaoka.addin.install.setup",
    "umaoka.addin.tables": "umaoka.addin.cli.tables",
    "umaoka.addin.update": "umaoka.addin.install.update",
    "umaoka.engine.designs": "umaoka.engine.seating.designs",
    "umaoka.engine.draw": "umaoka.engine.seating.draw",
    "umaoka.engine.fu": "umaoka.engine.hands.fu",
    "umaoka.engine.gamelog": "umaoka.engine.season.gamelog",
    "umaoka.engine.hand_rules": "umaoka.engine.hands.rules",
    "umaoka.engine.imported": "umaoka.engine.online.imported",
    "umaoka.engine.imports": "umaoka.engine.online.imports",
    "umaoka.engine.pao": "umaoka.engine.hands.pao",
    "umaoka.engine.penalties": "umaoka.engine.season.penalties",
    "umaoka.engine.ranking": "umaoka.engine.season.ranking",
    "umaoka.engine.rankpoints": "umaoka.engine.online.rankpoints",
    "umaoka.engine.ranks": "umaoka.engine.online.ranks",
    "umaoka.engine.rating": "umaoka.engine.online.rating",
    "umaoka.engine.season_settings": "umaoka.engine.season.settings",
    "umaoka.engine.stats": "umaoka.engine.season.stats",
    "umaoka.engine.substitutes": "umaoka.engine.season.substitutes",
    "umaoka.engine.teams": "umaoka.engine.season.teams",
    "umaoka.engine.tenhou": "umaoka.engine.online.tenhou",
    "umaoka.templates.cells": "umaoka.templates.xlsx.cells",
    "umaoka.templates.charts": "umaoka.templates.xlsx.charts",
    "umaoka.templates.formats": "umaoka.templates.xlsx.formats",
    "umaoka.templates.io": "umaoka.templates.xlsx.io",
    "umaoka.templates.labels": "umaoka.templates.book.labels",
    "umaoka.templates.layout": "umaoka.templates.book.layout",
    "umaoka.templates.league_tab": "umaoka.templates.sheets.league_tab",
    "umaoka.templates.model": "umaoka.templates.book.model",
    "umaoka.templates.players_sheet": "umaoka.templates.sheets.players",
    "umaoka.templates.presets_sheet": "umaoka.templates.sheets.presets",
    "umaoka.templates.rating_sheet": "umaoka.templates.sheets.rating",
    "umaoka.templates.results": "umaoka.templates.book.results",
    "umaoka.templates.rules_sheet": "umaoka.templates.sheets.rules",
    "umaoka.templates.runtime": "umaoka.templates.book.runtime",
    "umaoka.templates.saved_values": "umaoka.templates.book.saved_values",
    "umaoka.templates.season_book": "umaoka.templates.book.season_book",
    "umaoka.templates.season_labels": "umaoka.templates.book.season_labels",
    "umaoka.templates.season_live": "umaoka.templates.sheets.season_live",
    "umaoka.templates.season_sheet": "umaoka.templates.sheets.season",
    "umaoka.templates.season_standings": "umaoka.templates.sheets.season_standings",
    "umaoka.templates.season_totals": "umaoka.templates.sheets.season_totals",
    "umaoka.templates.seating_sheet": "umaoka.templates.sheets.seating",
    "umaoka.templates.sheet_base": "umaoka.templates.sheets.base",
    "umaoka.templates.sheet_reader": "umaoka.templates.xlsx.reader",
    "umaoka.templates.standings_sheet": "umaoka.templates.sheets.standings",
    "umaoka.templates.start": "umaoka.templates.sheets.start",
    "umaoka.templates.stats_sheet": "umaoka.templates.sheets.stats",
    "umaoka.templates.styles": "umaoka.templates.xlsx.styles",
    "umaoka.templates.writer": "umaoka.templates.xlsx.writer",
}


class _OldPath(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old path and loads it as the module at its new place."""

    def find_spec(self, fullname: str, path: object = None,
                  target: object = None) -> importlib.machinery.ModuleSpec | None:
        if fullname in MOVED:
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        # The import system keeps a module's own __name__ and __spec__ when the loader
        # hands back a module that has them: the old name becomes a second key for it.
        return importlib.import_module(MOVED[spec.name])

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module ran at its new place."""


def install() -> None:
    """Let the old paths import (once per interpreter, whichever package comes first)."""
    if not any(isinstance(finder, _OldPath) for finder in sys.meta_path):
        sys.meta_path.append(_OldPath())
