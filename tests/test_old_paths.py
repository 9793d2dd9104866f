"""Scripts written for umaoka 0.2 keep working: every module path it documented still
imports, with the names in it (the code itself lives in the rooms of docs/architecture.md)."""

import importlib
import subprocess
import sys

import pytest

from umaoka.engine.moved import MOVED

#: Paths and names umaoka 0.2's README and docs showed.
DOCUMENTED = {
    "umaoka.engine": ["settle", "settle_many", "ruleset", "standings", "standings_table",
                      "shortcut", "UmaokaError"],
    "umaoka.engine.hands": ["hand", "hand_rules", "hand_table"],
    "umaoka.engine.season": ["run_season"],
    "umaoka.engine.season_settings": ["read_season", "season_settings"],
    "umaoka.engine.seating": ["schedule"],
    "umaoka.engine.imports": ["read_results"],
    "umaoka.engine.stats": ["player_stats"],
    "umaoka.engine.rating": ["rating_history"],
    "umaoka.engine.rankpoints": ["rank_points", "game_rank_points"],
    "umaoka.engine.ranking": ["standing_rows"],
    "umaoka.addin.udfs": ["MJ_SETTLE", "MJ_SEASON", "excel_description", "UmaokaExcelError"],
    "umaoka.addin.season_cache": ["SeasonRuns"],
    "umaoka.templates.runtime": ["runtime"],
    "umaoka.templates.cells": [],
    "umaoka.templates.writer": ["save_fast"],
    "umaoka.templates.sheet_reader": [],
}


@pytest.mark.parametrize("path", sorted(DOCUMENTED))
def test_documented_paths_import_with_their_names(path):
    module = importlib.import_module(path)
    for name in DOCUMENTED[path]:
        assert hasattr(module, name), (path, name)


@pytest.mark.parametrize("old", sorted(MOVED))
def test_every_moved_module_is_the_same_module_at_its_old_path(old):
    assert importlib.import_module(old) is importlib.import_module(MOVED[old])


def test_old_paths_in_a_fresh_interpreter():
    """A script's first import may be an old path of any of the three packages."""
    code = ("from umaoka.templates.runtime import runtime; "
            "from umaoka.addin.season_cache import SeasonRuns; "
            "from umaoka.engine.stats import player_stats; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.stdout.strip() == "ok", out.stderr
