"""A Season-sheet stage row as the engine's stage settings: the one reader for the league
workbook, the settled copy and MJ_SEASON, each with its own rule for an empty cell."""

from __future__ import annotations

from typing import Any

from umaoka.engine.season.settings import STAGE_TABLE


def blank_text(value: Any) -> bool:
    """An empty cell as a workbook file holds it: nothing, or text of spaces."""
    return value is None or (isinstance(value, str) and not value.strip())


def blank_or_zero(value: Any) -> bool:
    """An empty cell as an Excel function receives it: desktop Excel sends an empty cell
    as the number 0, so 0 is blank too (a stage's own 0 is typed as text, "0")."""
    return blank_text(value) or (type(value) in (int, float) and value == 0)


def stage_row(cells: Any, first: bool, blank: Any = blank_text) -> dict[str, Any] | None:
    """One row of the Season sheet's stage table (Stage, the ruleset it shows, Advance,
    Carry, then the stage's own settings in :data:`STAGE_TABLE` order) as the engine's
    stage settings for :func:`season_settings`, or None for a row without a stage.

    ``blank`` says which cells are empty: :func:`blank_text` for a workbook read from its
    file, :func:`blank_or_zero` for MJ_SEASON's cells. An empty Advance lets everyone go
    on; an empty Carry is zero, except on the ``first`` stage (nothing to carry); an empty
    setting cell, or the number 0 (the stage columns are text: a 0 of the stage's own is
    "0"), is the season's value. The ruleset cell is left to the caller (the tab's rules,
    or MJ_SEASON's ruleset arguments).

    >>> stage_row(["Final", "mleague", None, "half", "", 0, "points"], first=False)
    {'name': 'Final', 'carry': 'half', 'ranking': 'points'}
    >>> stage_row(["Final", None, 0, 0], first=False, blank=blank_or_zero)
    {'name': 'Final', 'carry': 'zero'}
    >>> stage_row(["Spring", None, 8], first=True)
    {'name': 'Spring', 'advance': 8}
    """
    width = 4 + len(STAGE_TABLE)
    row = (list(cells) + [None] * width)[:width]
    if blank(row[0]):
        return None
    stage: dict[str, Any] = {"name": str(row[0]).strip()}
    if not blank(row[2]):
        stage["advance"] = row[2]
    if not first or not blank(row[3]):
        stage["carry"] = "zero" if blank(row[3]) else row[3]
    stage.update({k: v for k, v in zip(STAGE_TABLE, row[4:])
                  if not blank(v) and not blank_or_zero(v)})
    return stage
