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
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from umaoka.engine import Ruleset, UmaokaError

from .model import SHEET_NAME_MAX, Book, Game, League, Rules, rules_name
from .settle_book import SettleReport, write_settled

SEATS = ("east", "south", "west", "north")
MAX_CSV_BYTES = 50 * 1024 * 1024


def csv_columns(players: int = 4) -> list[str]:
    cols = ["date", "session", "table", "game"]
    for seat in SEATS[:players]:
        cols += [seat, f"{seat}_score"]
    return cols + ["deposits"] + [f"{seat}_penalty" for seat in SEATS[:players]]


def _cell(text: str | None) -> Any:
    """A CSV field as a number, a date or text (blank: None)."""
    if text is None:
        return None
    t = text.strip()
    if not t:
        return None
    try:
        return int(t.replace(",", "")) if t.lstrip("+-").replace(",", "").isdigit() else float(t)
    except ValueError:
        pass
    try:
        return dt.date.fromisoformat(t)
    except ValueError:
        return t


def read_csv(path: Path, rules: Ruleset) -> League:
    """The games of one CSV file as a league named after the file."""
    name = path.stem.strip()[:SHEET_NAME_MAX] or "League"
    for bad in "[]:*?/\\":
        name = name.replace(bad, "-")
    if path.stat().st_size > MAX_CSV_BYTES:
        raise UmaokaError(f"{path} is larger than {MAX_CSV_BYTES // 2**20} MB.")
    n = rules.players
    with path.open(newline="", encoding="utf-8-sig") as fh:
        reader = csv.DictReader(fh)
        header = [h.strip().lower() for h in (reader.fieldnames or [])]
        need = [c for c in csv_columns(n) if not c.endswith("_penalty")]
        missing = [c for c in need if c not in header]
        if missing:
            raise UmaokaError(f"{path.name} lacks the column(s) {', '.join(missing)}; the "
                              f"header must be {','.join(csv_columns(n))} (penalties optional).")
        reader.fieldnames = header
        league = League(name)
        for row in reader:
            v = {k: _cell(row.get(k)) for k in header if k}
            league.games.append(Game(
                date=v.get("date"), session=v.get("session"), table=v.get("table"),
                number=v.get("game"),
                players=[None if v.get(s) is None else str(v.get(s)) for s in SEATS[:n]],
                scores=[v.get(f"{s}_score") for s in SEATS[:n]],
                deposits=v.get("deposits"),
                penalties=[v.get(f"{s}_penalty") for s in SEATS[:n]]))
    return league


@dataclass
class BatchResult:
    source: Path
    report: SettleReport | None = None
    error: str | None = None


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
    """Settle every CSV of ``folder`` into ``out_dir`` (default: the same folder)."""
    files = csv_files(folder)
    out_dir = out_dir or folder
    for path in files:
        target = out_dir / f"{path.stem}.xlsx"
        try:
            league = read_csv(path, rules)
            names: list[str] = []
            for g in league.games:
                for p in g.players:
                    if p and p.strip() and p.strip() not in names:
                        names.append(p.strip())
            book = Book([Rules(rules_name(spec, set()), rules)], [league], sorted(names), lang)
            yield BatchResult(path, write_settled(book, target, force=force))
        except (UmaokaError, OSError, csv.Error, UnicodeDecodeError) as e:
            yield BatchResult(path, error=f"{path.name}: {e}")
        finally:
            if progress:
                progress(path)
