"""Batch generation: a folder of CSV files of games -> one settled league workbook per file.

CSV columns (a header row, names case-insensitive; 3-player rulesets leave out north)::

    date,session,table,game,east,east_score,south,south_score,west,west_score,
    north,north_score,deposits[,east_penalty,south_penalty,west_penalty,north_penalty]

``date`` is ``YYYY-MM-DD`` (or blank), ``session``/``table``/``game`` numbers, scores raw
points, ``deposits`` leftover riichi sticks in points (blank = 0), penalties in final points.
Each ``NAME.csv`` becomes ``NAME.xlsx``, a settled league workbook (league = file name).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from umaoka.engine import Ruleset, UmaokaError
from umaoka.engine.online.imported import csv_plain, csv_rows, decode
from umaoka.templates.book.model import (
    MAX_GAMES,
    SHEET_NAME_MAX,
    Book,
    Game,
    League,
    Rules,
    rules_name,
)
from umaoka.templates.settle_book import SettleReport, write_settled

SEATS = ("east", "south", "west", "north")
MAX_CSV_BYTES = 50 * 1024 * 1024


def csv_columns(players: int = 4) -> list[str]:
    cols = ["date", "session", "table", "game"]
    for seat in SEATS[:players]:
        cols += [seat, f"{seat}_score"]
    return cols + ["deposits"] + [f"{seat}_penalty" for seat in SEATS[:players]]


#: Columns holding numbers; every other column keeps its text exactly as written.
_NUMBER_COLUMNS = ("session", "table", "game")
_INTEGER = re.compile(r"[+-]?\d+")
_DECIMAL = re.compile(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?")
#: Characters XML 1.0 (and so an .xlsx file) cannot hold: C0 controls but tab, LF, CR.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
#: Excel's limit on the text of one cell.
CELL_TEXT_MAX = 32_767


def decode_csv(data: bytes) -> str:
    """The text of a CSV file (see :func:`umaoka.engine.online.imported.decode`), or one
    sentence."""
    try:
        return decode(data)
    except UnicodeDecodeError:
        raise UmaokaError("is not UTF-8, UTF-16 or Shift-JIS text; save it from Excel as "
                          "\"CSV UTF-8 (comma delimited)\".") from None


def _delimiter(header: str) -> str:
    """Comma, or the semicolon or tab that Excel writes in locales with a decimal comma."""
    counts = {d: header.count(d) for d in (",", ";", "\t")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def _number(text: str) -> Any:
    """A number column's text as an int or an exact Decimal; other text is kept as it is.

    Never a float: "NaN", "inf" and "1e999999" stay text, so the engine names the bad
    value in its own sentence instead of a conversion crashing.
    """
    t = text.replace(",", "").strip()  # no underscores: Python reads 1_000, Excel does not
    if _INTEGER.fullmatch(t) and len(t) <= 30:
        return int(t)
    if _DECIMAL.fullmatch(t) and len(t) <= 40:
        d = Decimal(t)
        if abs(d.adjusted()) <= 30:
            return int(d) if d == d.to_integral_value() else d
    return text.strip()


def _date(text: str) -> dt.date | str:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return text


@dataclass
class CsvLeague:
    """What one CSV file holds: the league, and a warning per doubtful line."""

    league: League
    warnings: list[str]


def _league_name(path: Path) -> str:
    name = path.stem.strip()
    for bad in "[]:*?/\\":
        name = name.replace(bad, "-")
    name = name.strip("'").strip()[:SHEET_NAME_MAX].strip()
    return name or "League"


def read_csv(path: Path, rules: Ruleset, skip_bad_rows: bool = False) -> CsvLeague:
    """The games of one CSV file as a league named after the file.

    Player names are kept exactly as written (``007`` stays ``007``); numbers are read
    exactly; a file that cannot be imported whole raises :class:`UmaokaError` naming the
    line, so nothing is half-imported. With ``skip_bad_rows`` (for reports such as
    ``umaoka stats``) such a row is a warning instead and the rest is read.
    """
    if path.stat().st_size > MAX_CSV_BYTES:
        raise UmaokaError(f"is larger than {MAX_CSV_BYTES // 2**20} MB; split it into smaller "
                          "files.")
    with open(path, "rb") as f:  # a device or pipe says its size is 0: read no further
        data = f.read(MAX_CSV_BYTES + 1)
    if len(data) > MAX_CSV_BYTES:
        raise UmaokaError(f"is larger than {MAX_CSV_BYTES // 2**20} MB; split it into smaller "
                          "files.")
    text = decode_csv(data)
    lines = text.splitlines(keepends=True)
    if not lines or not lines[0].strip():
        raise UmaokaError("is empty; its first line must be the header "
                          f"{','.join(csv_columns(rules.players))}.")
    if '"' not in text:  # then a line is a row: too many games refused before any is read
        _check_game_count(lines)
    n = rules.players
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(lines[0]))
    rows = csv_rows(reader)  # csv's own errors as a sentence naming the line
    header = [h.strip().lower() for h in next(rows)]
    need = [c for c in csv_columns(n) if not c.endswith("_penalty") and c != "deposits"]
    missing = [c for c in need if c not in header]
    if missing:
        raise UmaokaError(f"lacks the column{'s' if len(missing) > 1 else ''} "
                          f"{', '.join(missing)}; the header must be {','.join(csv_columns(n))} "
                          "(deposits and penalties optional).")
    col = {h: i for i, h in reversed(list(enumerate(header))) if h}
    league = League(_league_name(path))
    warnings: list[str] = []
    for row in rows:
        where = f"line {reader.line_num}"
        if not any(c.strip() for c in row):
            continue

        def cell(key: str, row: list[str] = row) -> str:
            i = col.get(key)
            return csv_plain(row[i]) if i is not None and i < len(row) else ""

        message = _row_problem(header, cell, where)
        if message and skip_bad_rows:
            warnings.append(f"{message}; the row was skipped.")
            continue
        if message:
            fix = "shorten it" if "longer than" in message else "remove it"
            raise UmaokaError(f"{message}; {fix} and run again.")
        values: dict[str, Any] = {}
        for key in _NUMBER_COLUMNS:
            text_value = cell(key).strip()
            values[key] = _number(text_value) if text_value else None
            if isinstance(values[key], str):
                warnings.append(f"{where}: {key} \"{text_value}\" is not a number; the "
                                "standings chart needs numbered sessions, tables and games.")
        date_text = cell("date").strip()
        date = _date(date_text) if date_text else None
        if isinstance(date, str):
            warnings.append(f"{where}: date \"{date_text}\" is not written as YYYY-MM-DD "
                            "(e.g. 2026-04-04); it is kept as text.")
        league.games.append(Game(
            date=date, session=values["session"], table=values["table"],
            number=values["game"],
            players=[cell(s).strip() or None for s in SEATS[:n]],
            scores=[_number(cell(f"{s}_score")) if cell(f"{s}_score").strip() else None
                    for s in SEATS[:n]],
            deposits=_number(cell("deposits")) if cell("deposits").strip() else None,
            penalties=[_number(cell(f"{s}_penalty")) if cell(f"{s}_penalty").strip()
                       else None for s in SEATS[:n]],
            source=where))
        if len(league.games) > MAX_GAMES:  # refused on reading, not after settling them all
            raise UmaokaError(f"{where}: a league workbook holds at most {MAX_GAMES:,} games; "
                              "split the file into seasons, one file each.")
    return CsvLeague(league, warnings)


def _check_game_count(lines: list[str]) -> None:
    """Refuse a file of more games than a workbook holds at once (the same sentence as the
    row-by-row check, without settling 50,000 rows first). Only for a file without quotes,
    where each line that is not blank is one game (the header aside)."""
    games = 0
    for number, line in enumerate(lines[1:], 2):
        if line.strip(" \t\r\n,;"):
            games += 1
            if games > MAX_GAMES:
                raise UmaokaError(f"line {number}: a league workbook holds at most "
                                  f"{MAX_GAMES:,} games; split the file into seasons, one "
                                  "file each.")


def _row_problem(header: list[str], cell: Any, where: str) -> str | None:
    """Why a row cannot go into a workbook (a control character, a text too long), or None."""
    for key in header:
        value = cell(key)
        if bad := _CONTROL.search(value):
            return (f"{where}: the {key} field holds a control character "
                    f"(U+{ord(bad.group()):04X}), which a workbook cannot store")
        if len(value) > CELL_TEXT_MAX:
            return (f"{where}: the {key} field is longer than Excel's "
                    f"{CELL_TEXT_MAX:,} characters a cell")
    return None


@dataclass
class BatchResult:
    """One CSV file's outcome: the settled workbook and its warnings, or why it was skipped."""

    source: Path
    report: SettleReport | None = None
    error: str | None = None
    warnings: list[str] = field(default_factory=list)


def csv_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        raise UmaokaError(f"{folder} is not a folder of .csv files.")
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() == ".csv" and p.is_file())
    if not files:
        raise UmaokaError(f"{folder} has no .csv files; see `umaoka batch --help` for the "
                          "columns.")
    return files


def run_batch(folder: Path, rules: Ruleset, spec: str, out_dir: Path | None = None,
              force: bool = False, lang: str = "en",
              progress: Callable[[Path], None] | None = None) -> Iterator[BatchResult]:
    """Settle every CSV of ``folder`` into ``out_dir`` (default: the same folder).

    A file that cannot be read is reported (``error``, without its own name: the caller
    names the file) and skipped; the other files are still written.
    """
    files = csv_files(folder)
    out_dir = out_dir or folder
    for path in files:
        target = out_dir / f"{path.stem}.xlsx"
        try:
            read = read_csv(path, rules)
            names: list[str] = []
            for g in read.league.games:
                for p in g.players:
                    if p and p.strip() and p.strip() not in names:
                        names.append(p.strip())
            book = Book([Rules(rules_name(spec, set()), rules)], [read.league], sorted(names),
                        lang)
            report = write_settled(book, target, force=force)
            yield BatchResult(path, report,
                              warnings=read.warnings + report.problems + report.warnings)
        except UmaokaError as e:
            yield BatchResult(path, error=str(e))
        except (OSError, csv.Error) as e:
            yield BatchResult(path, error=f"cannot be read or written ({e}).")
        except Exception as e:  # noqa: BLE001 - one odd file must not stop the others
            why = f"{type(e).__name__}: {e}"
            yield BatchResult(path, error=f"could not be settled: internal error ({why}); the "
                              "other files are not affected; please report this with the file.")
        finally:
            if progress:
                progress(path)
