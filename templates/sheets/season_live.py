"""The template's Season standings, live: each stage's player and team table reads one
``MJ_SEASON`` block (a legacy array formula in hidden columns, beside the table).

With umaoka's functions on, the visible table is the engine's standings of the games as
they are now; with them off (the block holds a short "off" text), every visible cell shows the value
it had when the workbook was written, and row 3 warns once the games change. The visible
cells map the block's columns by header name (``INDEX``/``MATCH``), so a three- or
four-player table reads the same. A row of the block with text in its Rank column and no
name is one of the stage's notes (a row left out, a cut inside a tie): it is shown in the
table's last column. :func:`shown` computes in Python exactly what a visible formula
shows, for the saved values.

The settled copy does not use this module: it writes the engine's values.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from openpyxl.utils import get_column_letter as col_letter

from umaoka.engine.season.settings import STAGE_TABLE
from umaoka.templates.book.labels import label
from umaoka.templates.book.layout import (
    PENALTIES_FIRST,
    PLAYERS_FIRST,
    SEASON_FIRST,
    SPARE_PENALTIES,
    game_rows,
    league_cols,
    settings_first,
    stage_helper,
)
from umaoka.templates.book.model import Book
from umaoka.templates.book.results import FIRST_ROW
from umaoka.templates.xlsx.styles import num, quote

#: First hidden column of the blocks (column R; the tables end at column O).
LIVE_FIRST = 18
#: Columns a block spans: MJ_SEASON's table has 19 (three players) or 20.
LIVE_WIDTH = 20
#: Rows kept below a table's lines for the stage's notes.
NOTE_ROWS = 10
#: MJ_SEASON's header for each visible column (``team`` is "Name" in a team table).
HEADERS = {"rank": "Rank", "player": "Name", "team": "Team", "games": "Games",
           "carried": "Carried", "stage_points": "Points", "chip_points": "Chips",
           "penalties": "Penalties", "total": "Total", "average": "Average",
           "average_place": "Avg place", "advanced": "Advanced", "tie_break": "Tie-break",
           "flags": "Flags"}
#: MJ_SEASON takes the games of this many stages.
MAX_STAGES = 4


def live_possible(book: Book) -> bool:
    """Whether MJ_SEASON can compute this workbook's season: at most four stages, each a
    league tab (platform finals included: MJ_SEASON's ``platform`` names those tabs)."""
    if book.season is None:
        return False
    named = [s for s in book.season.stages if s.name is not None and str(s.name).strip()]
    tabs = {lg.name.casefold(): lg for lg in book.leagues}
    return 0 < len(named) <= MAX_STAGES and all(
        str(s.name).strip().casefold() in tabs for s in named)


def season_call(book: Book, function: str, stage: str, what: str, roster: int) -> str:
    """The MJ_SEASON call for one table (``function``: its saved name in this runtime)."""
    from umaoka.templates.book.season_book import SETTINGS

    lang = book.lang
    stage_rows = max(len(book.leagues), len(book.season.stages))  # as the Season sheet
    season = quote(label("sheet_season", lang))
    first = settings_first(stage_rows)
    pen = quote(label("sheet_penalties", lang))
    last_pen = PENALTIES_FIRST + len(book.penalties) + SPARE_PENALTIES - 1
    # the stage rows with their own settings' columns (MJ_SEASON reads them by position)
    stage_end = col_letter(4 + len(STAGE_TABLE))
    args = [f"{season}!$A${SEASON_FIRST}:${stage_end}${SEASON_FIRST + stage_rows - 1}",
            f"{season}!$A${first}:$B${first + len(SETTINGS) - 1}",
            f"{quote(label('sheet_players', lang))}!$A${PLAYERS_FIRST}:$B$"
            f"{PLAYERS_FIRST + roster - 1}",
            f"{pen}!$A${PENALTIES_FIRST}:$F${last_pen}", _text(stage), f'"{what}"']
    tabs = {lg.name.casefold(): lg for lg in book.leagues}
    platform = []  # the stages whose range ends with the platform-finals block
    for s in book.season.stages:
        if s.name is None or not str(s.name).strip():
            continue
        lg = tabs[str(s.name).strip().casefold()]
        rules = book.rules_of(lg)
        cols = league_cols(lg, rules.ruleset.players)
        end = (cols.given_cols or cols.sub_cols or cols.chip_cols or cols.penalties)[-1]
        if cols.given_cols:
            platform.append(str((len(args) - 6) // 2 + 1))
        rows = game_rows(lg, False)
        args += [f"{quote(lg.name)}!${col_letter(cols.players[0])}${FIRST_ROW}:"
                 f"${col_letter(end)}${FIRST_ROW + rows - 1}", rules.defined_name]
    args += [""] * (6 + 2 * MAX_STAGES - len(args)) + [f'"{lang}"']
    args += [f'"{",".join(platform)}"'] if platform else []
    return f"{function}({','.join(args)})"


def min_games_cell(book: Book, stage: str) -> str:
    """The min_games of a stage (a league tab's name) as a number: the Season sheet's
    helper cell of that tab (its stage row's min_games, else the season's)."""
    league = next(lg for lg in book.leagues if lg.name.casefold() == stage.casefold())
    return stage_helper(book, league, "min_games")


def _text(value: str) -> str:
    return '"' + value.replace('"', '""') + '"'


def constant(value: Any) -> str:
    """A saved value as a formula constant."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, Decimal, float)):
        return str(num(value)) if isinstance(value, Decimal) else str(value)
    return _text("" if value is None else str(value))


def _split(lang: str) -> tuple[str, str]:
    """The not-qualified flag around its number of games."""
    pre, _, post = label("not_ranked", lang, n="\x00").partition("\x00")
    return pre, post


def shown(block: Sequence[Sequence[Any]], i: int, key: str, last: str, team: bool,
          lang: str, min_games: int) -> Any:
    """What the visible cell of column ``key`` shows for the block's data row ``i`` (0 =
    first line): the Python twin of :func:`live_formula`. ``last``: the table's last
    column, where notes go."""
    header = list(block[0])
    if i + 1 >= len(block):
        return ""
    row = list(block[i + 1]) + [""] * (len(header) - len(block[i + 1]))

    def get(name: str) -> Any:
        return row[header.index(name)]

    note = get("Rank") != "" and get("Name") == ""
    if note:
        return get("Rank") if key == last else ""
    if key == "stage_total":
        return get("Total") - get("Carried")
    if key == "advanced":
        return label("advanced_mark", lang) if get("Advanced") == "yes" else ""
    if key == "flags":
        if get("Rank") == "" and get("Name") != "":
            pre, post = _split(lang)
            flag = get("Flags")
            return f"{pre}{min_games}{post}" + (f"; {flag}" if flag != "" else "")
        return get("Flags")
    return get("Name" if team and key == "team" else HEADERS[key])


def live_formula(key: str, r: int, hdr: int, last: str, team: bool, lang: str,
                 min_cell: str, saved: Any) -> str:
    """The visible cell of column ``key`` on sheet row ``r`` (block header on row
    ``hdr``): the block's value while it computes, else the saved value."""
    a, b = col_letter(LIVE_FIRST), col_letter(LIVE_FIRST + 1)
    z = col_letter(LIVE_FIRST + LIVE_WIDTH - 1)
    head, row = f"${a}${hdr}:${z}${hdr}", f"${a}{r}:${z}{r}"

    def get(name: str) -> str:
        return f'INDEX({row},MATCH("{name}",{head},0))'

    note = f'AND(${a}{r}<>"",${b}{r}="")'
    if key == last:
        empty = f"${a}{r}"
    else:
        empty = '""'
    if key == "stage_total":
        value = f'{get("Total")}-{get("Carried")}'
    elif key == "advanced":
        value = f'IF({get("Advanced")}="yes",{_text(label("advanced_mark", lang))},"")'
    elif key == "flags":
        pre, post = _split(lang)
        value = (f'IF(AND({get("Rank")}="",{get("Name")}<>""),{_text(pre)}&{min_cell}&'
                 f'{_text(post)}&IF({get("Flags")}<>"","; "&{get("Flags")},""),'
                 f'{get("Flags")})')
    else:
        value = get("Name" if team and key == "team" else HEADERS[key])
    return (f'=IF(IFERROR(${a}${hdr},"")<>"Rank",{constant(saved)},'
            f'IFERROR(IF({note},{empty},{value}),""))')


def flag_cell(hdr: int) -> str:
    """The block's first header cell: "Rank" while MJ_SEASON computes, #NAME? while the
    functions are off, MJ_SEASON's error when it fails."""
    return f"${col_letter(LIVE_FIRST)}${hdr}"


def block_formula(call: str) -> str:
    """A table's block: the MJ_SEASON call, named once. Excel evaluates every call a
    formula names (custom functions run asynchronously), so a wrapper that named it three
    times (to show a short text while the functions are off) cost up to three season runs
    a recalculation. The cells that read the block tell its errors apart instead: the
    visible table shows the saved values unless the block's first cell is "Rank", and row
    3 says MJ_SEASON failed for any error but #NAME? (the functions are off), see
    :func:`flag_cell`."""
    return f"={call}"


def block_range(hdr: int, rows: int) -> str:
    """A block's cells: its header row and ``rows`` rows."""
    return (f"{col_letter(LIVE_FIRST)}{hdr}:"
            f"{col_letter(LIVE_FIRST + LIVE_WIDTH - 1)}{hdr + rows}")
