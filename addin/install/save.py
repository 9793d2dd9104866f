"""Saving a league workbook with formulas for its runtime: the one save step of ``new``,
``demo``, ``runtime``, ``seating --into`` and ``import --into``."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def lite_code(runtime: Any) -> dict[str, Any]:
    """For an xlwings Lite workbook: put the functions' code inside, as Lite keeps it."""
    if runtime.kind != "lite":
        return {"add_parts": None}
    from umaoka.addin.install.embed import lite_parts

    return {"add_parts": lite_parts, "lite_code_inside": True}


def write_league_file(book: Any, path: Path, force: bool, inputs: tuple[Path, ...] = (),
                      season_run: Any = None) -> Path:
    """Save a league workbook with formulas: the one save step of new, demo and runtime
    (``season_run``: the book's season already run, if the caller has it)."""
    from umaoka.templates.build import write_league

    return write_league(book, path, force=force, inputs=inputs, season_run=season_run,
                        **lite_code(book.runtime))
