"""What a post shows: a league's standings as tables and its cumulative-points chart, as
plain data that the picture (:mod:`.picture`) and the page (:mod:`.page`) draw alike.

Every number comes from the settled copy's path: a season's stages from
:func:`~umaoka.templates.book.season_book.season_result` (what the Season standings
sheet shows), a league tab's standings and chart from the settled copy's sheet writer
(:meth:`~umaoka.templates.sheets.base.SheetWriter.standings_of` and
:func:`~umaoka.templates.book.results.cumulative`). One league, one truth: the post
says what the settled copy says.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from umaoka.engine.season.ranking import StandingLine
from umaoka.engine.season.stages import SeasonResult, StageResult
from umaoka.engine.standings import PlayerStanding
from umaoka.templates.book.labels import label, place_label
from umaoka.templates.book.layout import CHART_SERIES
from umaoka.templates.book.model import Book
from umaoka.templates.book.results import cumulative
from umaoka.templates.book.season_book import season_result
from umaoka.templates.sheets.base import SheetWriter
from umaoka.templates.sheets.season_standings import carry_words, line_values


@dataclass(frozen=True)
class Cell:
    """One cell as shown: its text, and its sign where green/red applies (1, -1, 0)."""

    text: str
    sign: int = 0
    number: bool = False  # right-aligned


@dataclass(frozen=True)
class Table:
    """A titled table: a header row and rows of cells."""

    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    numeric: tuple[bool, ...]  # per column: right-aligned
    note: str = ""


@dataclass(frozen=True)
class Chart:
    """Each shown player's cumulative points after each session."""

    title: str
    x_label: str
    y_label: str
    sessions: tuple[str, ...]
    series: tuple[tuple[str, tuple[Decimal, ...]], ...]


@dataclass(frozen=True)
class Section:
    """One league tab or one stage: its tables, then its chart (if it has sessions)."""

    title: str
    tables: tuple[Table, ...]
    chart: Chart | None = None


@dataclass(frozen=True)
class Post:
    """A whole post: the league's name, the date of its last game, its sections."""

    name: str
    last_game: str  # "" when no game has a date
    lang: str
    sections: tuple[Section, ...]

    def names_and_totals(self) -> list[tuple[str, str]]:
        """(name, total) of every line of every table, in order (what a reader checks)."""
        out = []
        for s in self.sections:
            for t in s.tables:
                i = t.header.index(next(h for h in t.header if h in _TOTAL_HEADERS))
                out += [(r[1].text, r[i].text) for r in t.rows]
        return out


_TOTAL_HEADERS = {label("total", "en"), label("total", "ja")}


def points(value: Decimal | None, whole: bool) -> str:
    """Points as the workbook shows them: signed, one decimal for rulesets that keep
    tenths, whole numbers otherwise unless the value has decimals (a carried half).

    >>> points(Decimal("12.5"), True), points(Decimal(-3), False), points(Decimal(0), True)
    ('+12.5', '-3.0', '0')
    """
    if value is None:
        return ""
    if value == 0:
        return "0" if whole else "0.0"
    if whole and value == value.to_integral_value():
        return f"{int(value):+d}"
    text = f"{value:+f}"
    if "." not in text:
        text += ".0"
    return text


def _sign(value: Decimal | None) -> int:
    return 0 if value is None or value == 0 else (1 if value > 0 else -1)


def _date(value: Any) -> dt.date | None:
    """A game's date as a league tab holds it: a date, or Excel's serial number of one."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 1 <= value < 2958466:
        return (dt.datetime(1899, 12, 30) + dt.timedelta(days=int(value))).date()
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value.strip()[:10])
        except ValueError:
            return None
    return None


def last_game(writer: SheetWriter) -> str:
    """The date of the last counted game, ISO (``""`` when no game has a date)."""
    dates = [d for games in writer.counted for g, _ in games if (d := _date(g.date))]
    return max(dates).isoformat() if dates else ""


def _chart(writer: SheetWriter, index: int, names: list[str]) -> Chart | None:
    lang = writer.lang
    sessions, cum = cumulative(writer.counted[index], names[:CHART_SERIES])
    if not sessions:
        return None
    return Chart(label("chart_title", lang), label("chart_x", lang), label("chart_y", lang),
                 tuple(str(s) for s in sessions),
                 tuple((n, tuple(cum[n])) for n in names[:CHART_SERIES]))


def league_table(rows: list[PlayerStanding], title: str, whole: bool, lang: str,
                 n: int) -> Table:
    """A league tab's standings as its standings sheet shows them (the main columns)."""
    header = (label("post_rank", lang), label("player", lang), label("post_games", lang),
              label("total", lang), label("post_average", lang),
              label("post_average_place", lang),
              *(place_label(p, lang) for p in range(1, n + 1)))
    body = []
    for rank, p in enumerate(rows, 1):
        body.append((Cell(str(rank), number=True), Cell(p.name),
                     Cell(str(p.games), number=True),
                     Cell(points(p.total, whole), _sign(p.total), True),
                     Cell(f"{p.average:+.2f}" if p.average else "0", _sign(p.average), True),
                     Cell(f"{p.average_place:.2f}", number=True),
                     *(Cell(str(c), number=True) for c in p.places[:n])))
    numeric = tuple(h not in (label("player", lang),) for h in header)
    return Table(title, header, tuple(body), numeric)


#: A stage table's columns in a post (label keys); a column that is zero for every line
#: (no carry, no chips, no penalties) is left out, so the table fits a phone's width.
STAGE_COLUMNS = ("rank", "player", "team", "games", "carried", "stage_points", "chip_points",
                 "penalties", "total", "average", "advanced")
TEAM_STAGE_COLUMNS = ("rank", "team", "games", "carried", "stage_points", "chip_points",
                      "penalties", "total", "average", "advanced")
_OPTIONAL = {"carried": "carried", "stage_points": "points", "chip_points": "chips",
             "penalties": "penalties"}
#: Shorter headers where the sheet's own would not fit a phone's width.
_SHORT = {"rank": "post_rank", "games": "post_games", "penalties": "post_penalties",
          "average": "post_average", "advanced": "post_advanced"}
_POINT_KEYS = {"carried", "stage_points", "chip_points", "penalties", "total"}


def _stage_table(sr: StageResult, lines: tuple[StandingLine, ...], columns: tuple[str, ...],
                 title: str, lang: str, note: str = "") -> Table:
    whole = sr.stage.ruleset.rounding != "none"
    keep = [c for c in columns
            if c not in _OPTIONAL or any(getattr(p, _OPTIONAL[c]) for p in sr.players)]
    if "player" in keep and "team" in keep and not any(p.team for p in lines):
        keep.remove("team")
    if "advanced" in keep and not any(p.advanced for p in lines):
        keep.remove("advanced")
    body = []
    for p in lines:
        values = dict(zip(keep, line_values(p, tuple(keep), lang, sr.stage.game_caps,
                                            sr.stage.min_games)))
        row = []
        for c in keep:
            v = values[c]
            if c in _POINT_KEYS:
                d = Decimal(v) if v not in (None, "") else None
                row.append(Cell(points(d, whole), _sign(d) if c == "total" else 0, True))
            elif c == "average":
                row.append(Cell("" if v is None else f"{v:+.2f}" if v else "0", _sign(v), True))
            elif c == "rank":
                row.append(Cell("" if v is None else str(v), number=True))
            elif c == "games":
                row.append(Cell(str(v), number=True))
            elif c == "advanced":
                row.append(Cell("✓" if v else ""))
            else:
                row.append(Cell(str(v or "")))
        body.append(tuple(row))
    header = tuple(label(_SHORT.get(c, c), lang) for c in keep)
    numeric = tuple(c in _POINT_KEYS or c in ("rank", "games", "average") for c in keep)
    return Table(title, header, tuple(body), numeric, note)


def _stage_title(sr: StageResult, first: bool, lang: str) -> str:
    stage = sr.stage
    cut = (label("top_advance", lang, n=stage.advance) if stage.advance
           else label("all_advance", lang))
    title = label("stage_heading", lang, name=stage.name, games=sr.games)
    if not first:
        title += " (" + label("stage_rules", lang, carry=carry_words(stage.carry, lang),
                              advance=cut) + ")"
    elif stage.advance:
        title += f" ({cut})"
    return title


def _season_sections(writer: SheetWriter, result: SeasonResult) -> list[Section]:
    lang, book = writer.lang, writer.book
    tabs = {lg.name: i for i, lg in enumerate(book.leagues)}
    sections = []
    for k, sr in enumerate(result.stages):
        # as the Season standings sheet: the players (those not qualified apart), the teams
        ranked = tuple(p for p in sr.players if p.qualified)
        apart = tuple(p for p in sr.players if not p.qualified)
        tables = [_stage_table(sr, ranked, STAGE_COLUMNS, label("player", lang), lang)]
        if apart:
            tables.append(_stage_table(sr, apart, STAGE_COLUMNS, label(
                "not_qualified", lang, n=sr.stage.min_games), lang))
        if sr.teams:
            tables.append(_stage_table(sr, sr.teams, TEAM_STAGE_COLUMNS,
                                       label("team", lang), lang))
        index = tabs.get(sr.stage.name)
        chart = None
        if index is not None:
            chart = _chart(writer, index, [p.name for p in sr.players])
        sections.append(Section(_stage_title(sr, k == 0, lang), tuple(tables), chart))
    return sections


def post_of(book: Book, name: str) -> Post:
    """The post of a league workbook read by :func:`~umaoka.templates.settle_book.read_book`:
    a season's stages as the Season standings show them, or each league tab's standings.
    ``name``: what the post is called when the book has no season (the file's name)."""
    writer = SheetWriter(book, settled=True)
    lang = book.lang
    if book.season is not None:
        result = season_result(book)
        title = result.season.name or name
        return Post(title, last_game(writer), lang, tuple(_season_sections(writer, result)))
    sections = []
    for i, league in enumerate(book.leagues):
        rules = book.rules_of(league).ruleset
        rows = writer.standings_of(i)
        table = league_table(rows, label("player", lang), rules.rounding != "none", lang,
                             rules.players)
        games = len(writer.counted[i])
        sections.append(Section(label("stage_heading", lang, name=league.name, games=games),
                                (table,), _chart(writer, i, [p.name for p in rows])))
    return Post(name, last_game(writer), lang, tuple(sections))
