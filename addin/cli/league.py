"""The league-night commands: ``umaoka seating``, ``umaoka import`` and ``umaoka stats``.

Thin layers over the engine (umaoka.engine.seating, online.imports, season.stats,
online.rating): read files, print tables that fit 80 columns, write CSV files atomically
and never over an existing file without --force. ``umaoka.addin.cli.app`` registers
them with :func:`add_commands`.

One module, not two: the three league-night commands share their CSV reading and
writing and their tables; each command is a function of a screen or two.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import io
import os
import sys
from collections.abc import Sequence
from contextlib import ExitStack
from decimal import Decimal
from pathlib import Path
from typing import Any

from umaoka.addin.cli.base import whole
from umaoka.addin.install.lock import updating
from umaoka.addin.install.update import backup_of, check_not_report, update_writer
from umaoka.engine import UmaokaError, ruleset
from umaoka.engine.errors import excerpt
from umaoka.engine.online.imported import csv_name, csv_plain, csv_rows, csv_text
from umaoka.engine.online.imports import (
    FORMATS,
    ImportedGame,
    ImportResult,
    Problem,
    drop_duplicates,
    finals_rows,
    parse_finals_csv,
    read_results,
)
from umaoka.engine.online.rating import rating_history, ratings
from umaoka.engine.season.stats import head_to_head, player_stats
from umaoka.engine.seating.plan import MAX_PLAYERS, parse_avoid, parse_pins, schedule
from umaoka.engine.standings import shared_place_words
from umaoka.templates.book.model import MAX_SESSION
from umaoka.templates.xlsx.io import MAX_INPUT, read_input, read_text

PROG = "umaoka"
WIDTH = 80
#: Tables longer than this show their first and last rows and how many are between.
LONG_TABLE = 40


def session_number(text: str) -> int:
    """``--session``: a whole number from 1 to :data:`MAX_SESSION` (argparse's type)."""
    t = text.strip()
    if not t.isascii() or not t.isdigit() or len(t) > 9 or int(t) < 1:
        raise argparse.ArgumentTypeError(
            f'"{excerpt(text)}" is not a session number; give a whole number from 1 to '
            f"{MAX_SESSION:,}")
    return int(t)


def _console() -> Any:
    """A console no wider than 80 columns (narrower if the terminal is)."""
    from rich.console import Console

    console = Console(highlight=False)
    return Console(highlight=False, width=min(console.width, WIDTH) if console.is_terminal
                   else WIDTH)


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]], title: str | None = None,
           left: Sequence[str] = (), narrow: bool = False) -> Any:
    from rich import box
    from rich.table import Table

    from umaoka.addin.cli.tables import markup

    table = Table(title=markup(title) if title else None, box=box.SIMPLE_HEAD,
                  header_style="bold", title_style="bold", pad_edge=False,
                  padding=(0, 1, 0, 0) if narrow else (0, 1))
    for h in headers:
        table.add_column(h, justify="left" if h in left else "right", overflow="fold")
    for row in rows:
        table.add_row(*(markup(_cell(v)) for v in row))
    return table


def _cell(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, Decimal):
        return f"{v:+}" if v else str(abs(v))  # 0.0 as the platform shows it, unsigned
    return str(v)


def _pct(v: Decimal | None) -> str:
    return "-" if v is None else f"{v * 100:.1f}%"


def _warn(problems: Sequence[Problem | str]) -> None:
    from umaoka.addin.cli.tables import shown

    for p in problems:
        print(f"{PROG}: warning: {shown(p)}", file=sys.stderr)


def _read(path: Path) -> bytes:
    """An input file's bytes; a missing or unreadable one is bad input (one sentence)."""
    return read_input(path, "an input file", MAX_INPUT)


def _text(path: Path) -> str:
    """An input text file (UTF-8, UTF-16 or Shift-JIS); missing, unreadable or binary
    files are bad input, in one sentence naming the file."""
    return read_text(path, "an input file", MAX_INPUT)


#: Columns of the CSVs we write that hold player names (seats, finishing order).
NAME_COLUMNS = frozenset(("east", "south", "west", "north", "first", "second", "third",
                          "fourth"))


def write_csv(path: Path, rows: Sequence[Sequence[Any]], force: bool = False) -> Path:
    """Write rows (header first) as UTF-8 CSV with a BOM (Excel reads Japanese names right),
    atomically, refusing to replace an existing file without ``force``."""
    from umaoka.templates.xlsx.io import write_atomic

    path = Path(path)
    if path.exists() and path.is_dir():
        raise UmaokaError(f"{path} is a folder; give a file name ending in .csv.")
    if path.exists() and not force:
        raise UmaokaError(f"{path} already exists; use --force to replace it.")
    if not path.parent.exists():
        raise UmaokaError(f"folder {path.parent} does not exist; create it first.")
    buf = io.StringIO()
    # texts that would start a formula in Excel get a leading ' (CSV injection), and so do
    # names that Excel would turn into a number, a date or a boolean (007, 1/2, TRUE); our
    # readers take it off again
    names = {i for i, h in enumerate(rows[0]) if str(h) in NAME_COLUMNS}
    csv.writer(buf, lineterminator="\r\n").writerows(
        [rows[0], *([(csv_name(v) if i in names else csv_text(v)) if isinstance(v, str) else v
                     for i, v in enumerate(r)] for r in rows[1:])])
    write_atomic(path, lambda tmp: tmp.write_bytes(buf.getvalue().encode("utf-8-sig")),
                 force=force)
    return path


# ------------------------------------------------------------------------------------------------
# umaoka seating


def _players(spec: str) -> int | list[str]:
    text = spec.strip()
    if text.isdecimal():  # int() reads every decimal digit, full-width ones too
        if len(text) > 6:
            raise UmaokaError(f"the player count ({text[:10]}...) must be between 1 and "
                              f"{MAX_PLAYERS}.")
        return int(text)
    if "," in text:
        return [t.strip() for t in text.split(",") if t.strip()]
    path = Path(text)
    if not path.is_file():
        raise UmaokaError(f'"{spec}" is not a player count, names separated by commas, or a '
                          "file of names (one a line).")
    return [line.strip() for line in _text(path).splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def _day(text: str | None) -> dt.date | None:
    """``--date`` as a date (YYYY-MM-DD), or one sentence."""
    if text is None:
        return None
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise UmaokaError(f'--date "{excerpt(text)}" is not a date; give it as YYYY-MM-DD, '
                          "e.g. 2026-04-04.") from None


def cmd_seating(args: argparse.Namespace) -> int:
    with ExitStack() as held:  # an update in place holds the league until it is written
        return _seating(args, held)


def _seating(args: argparse.Namespace, held: ExitStack) -> int:
    from umaoka.addin.cli.tables import markup, shown

    day = _day(args.date)
    book = so_far = None
    players = _present(_players(args.players), args.absent)
    pins = parse_pins(_text(Path(args.fixed)), args.tables_of) if args.fixed else []
    options = {"table_size": args.tables_of, "seed": args.seed, "pins": pins,
               "avoid": parse_avoid(args.avoid or ""), "steps": args.steps}
    if args.into:  # the workbook and its league are checked before the plan is shown
        from umaoka.engine.seating.nights import draw_night
        from umaoka.templates.import_book import seating_so_far, seating_target
        from umaoka.templates.settle_book import read_book
        from umaoka.templates.xlsx.formats import check_spreadsheet

        src = Path(args.into)
        check_spreadsheet(src)
        into_out = _into_output(src, args.output, held)
        book = read_book(src)
        target = seating_target(book, args.league, args.tables_of)
        # tonight continues the season: who already met (the Seating sheet's nights and the
        # tab's games), sit-outs and seats so far, a design in progress
        so_far = seating_so_far(book, target)
        s = draw_night(so_far, players, args.rounds, **options)
    else:
        s = schedule(players, args.rounds, **options)
    out = _console()
    rows = s.rows()
    out.print(_table([str(h) for h in rows[0]], rows[1:], title="Seating",
                     left=rows[0][2:]))  # type: ignore[arg-type]
    for number, names in enumerate(s.sit_outs, 1):
        if names:
            out.print(markup(f"Round {number} sits out: {', '.join(names)}"))
    for line in s.summary():
        out.print(markup(line))
    if args.csv:
        from umaoka.templates.batch import SEATS, csv_columns

        header = csv_columns(s.table_size)
        body = []
        for t in s.tables:
            cells = {"date": day.isoformat() if day else "", "session": args.session or 1,
                     "table": t.number,
                     "game": t.round}
            cells.update({seat: name for seat, name in zip(SEATS, t.seats)})
            body.append([cells.get(c, "") for c in header])
        print(f"wrote {write_csv(Path(args.csv), [header, *body], args.force)} "
              f"({len(body)} games; fill in the scores, then `umaoka batch`)")
    if args.into:
        from umaoka.templates.import_book import seat_into

        done = seat_into(src, s, args.league, into_out or src, force=args.force,
                         session=args.session, write=update_writer(src, into_out), date=day,
                         book=book)
        from umaoka.templates.book.model import seating_nights

        night = len(seating_nights(book.seating))
        print(shown(f"{_wrote(src, into_out)}: night {night} on the Seating sheet and "
                    f"{done.rows} game rows of "
                    f"{done.league} filled in (sessions {done.sessions[0]}-{done.sessions[1]}; "
                    "type the scores)"))
        if done.new_players:
            print(shown(f"new on the Players sheet: {', '.join(done.new_players)}"))
        if so_far is not None:
            print(shown(_season_spread(book, target, s)))
    return 0


def _season_spread(book: Any, target: Any, tonight: Any) -> str:
    """The season's meeting spread after tonight, and the fewest repeats possible."""
    from umaoka.engine.seating.nights import fewest_repeats, season_line, season_tables
    from umaoka.templates.import_book import nights_as_played, seating_played

    nights = nights_as_played(book, target)
    played = seating_played(target)  # tonight's rows are in the tab now
    line = season_line(season_tables(nights, played), len(nights),
                       sum(n.rounds for n in nights))
    return (f"{line} No seating of these nights repeats fewer than "
            f"{fewest_repeats(nights, played)}.")


def _present(players: int | list[str], absent: str | None) -> int | list[str]:
    """Tonight's players: ``players`` less those named in ``--absent``."""
    if not absent:
        return players
    if isinstance(players, int):
        raise UmaokaError("--absent takes names out of a list of names; give the players as "
                          "names (a file or A,B,C), not a count.")
    away = {a.strip().casefold() for a in absent.split(",") if a.strip()}
    unknown = sorted(away - {p.casefold() for p in players})
    if unknown:
        raise UmaokaError(f'--absent names "{unknown[0]}", who is not in the player list; '
                          "check the spelling.")
    return [p for p in players if p.casefold() not in away]


# ------------------------------------------------------------------------------------------------
# umaoka import


def _existing_keys(paths: Sequence[str]) -> dict[tuple[object, ...], str]:
    """Keys of games in earlier output files (finals CSV or batch CSV), to spot re-imports."""
    seen: dict[tuple[object, ...], str] = {}
    for name in paths:
        path = Path(name)
        text = _text(path)
        try:
            header = next(csv_rows(text), [])
            if "first" in [h.strip().lower() for h in header]:
                games = parse_finals_csv(text, path.name).games
            else:
                games = _batch_games(path, text)
        except UmaokaError as e:
            raise UmaokaError(f"{path.name} {e}") from None
        for g in games:
            for k in g.keys():
                seen.setdefault(k, g.describe())
    return seen


def _batch_games(path: Path, text: str) -> list[ImportedGame]:
    reader = csv_rows(text)
    fields = [f.strip().lower() for f in next(reader, [])]
    if "east" not in fields or "east_score" not in fields:
        raise UmaokaError("is neither a finals CSV (date,first,first_final,...) nor a "
                          "batch CSV (date,session,table,game,east,east_score,...).")
    seats = [s for s in ("east", "south", "west", "north") if s in fields]
    out = []
    for line, cells in enumerate(reader, 2):
        row = dict(zip(fields, cells))
        try:
            names = tuple(csv_plain((row.get(s) or "").strip()) for s in seats)
            scores = tuple(int((row.get(f"{s}_score") or "").replace(",", "")) for s in seats)
            deposits = int((row.get("deposits") or "0").replace(",", "") or 0)
        except ValueError:
            continue  # rows without scores yet cannot be re-imports
        if all(names):
            out.append(ImportedGame(names, False, scores=scores, deposits=deposits,
                                    source=path.name, line=line))
    return out


def _describe(g: ImportedGame) -> str:
    if g.settled:
        return ", ".join(f"{n} {_cell(f)}" for n, f in zip(g.names, g.finals or ()))
    text = ", ".join(f"{n} {s:,}" for n, s in zip(g.names, g.scores or ()))
    return text + (f" (+{g.deposits:,} sticks)" if g.deposits else "")


def cmd_import(args: argparse.Namespace) -> int:
    result = ImportResult()
    for name in args.files:
        path = Path(name)
        result.extend(read_results(path.name, _read(path), args.format))
    if args.into:
        with ExitStack() as held:  # an update in place holds the league until it is written
            return _import_into(args, result, held)
    if not args.keep_duplicates:
        result = drop_duplicates(result, _existing_keys(args.existing or []))
    _warn(result.problems)
    games = result.games
    if not games:
        raise UmaokaError("no game could be imported; see the warnings above.")
    shown_games = games if len(games) <= LONG_TABLE else \
        [*games[:LONG_TABLE // 2], None, *games[-LONG_TABLE // 2:]]
    rows = [[g.date.isoformat() if g.date else "", g.time or "", _describe(g)] if g else
            ["...", "", f"{len(games) - LONG_TABLE // 2 * 2:,} more games"]
            for g in shown_games]
    players = "Players (results: finishing order, finals; logs: seats, raw points)"
    _console().print(_table(["Date", "Time", players], rows, left=[players],
                            title=f"Imported {len(games)} games"))
    if args.strict and result.problems:
        raise UmaokaError(f"{len(result.problems)} problem(s) and --strict: nothing written.")
    if args.output:
        kinds = {g.settled for g in games}
        if len(kinds) > 1:
            raise UmaokaError("the files mix platform results (lobby lines, finals CSV) and "
                              "game logs; import them into separate files.")
        rows_out = finals_rows(games) if games[0].settled else _batch_rows(games)
        kind = "finals CSV" if games[0].settled else "batch CSV: settle with `umaoka batch`"
        print(f"wrote {write_csv(Path(args.output), rows_out, args.force)} "
              f"({len(games)} games, {kind})")
    return 0


def _into_output(src: Path, output: str | None, held: ExitStack) -> Path | None:
    """Where an ``--into`` command writes: None to update ``src`` in place (the default),
    else the new file ``-o`` names. A settled copy (a report) is refused, and a workbook
    open in Excel or LibreOffice before any work is done. For an update in place, the
    league is held (:func:`~umaoka.addin.install.lock.updating`) until ``held`` closes:
    the command reads, builds and replaces it under one lock."""
    if output is None:  # refused while open in Excel or LibreOffice, or updated by a run
        held.enter_context(updating(src))
    check_not_report(src)
    return Path(output) if output else None


def _wrote(src: Path, out: Path | None) -> str:
    """``updated league.xlsx (previous version: league.bak.xlsx)`` or ``wrote out.xlsx``."""
    if out is None:
        backup = backup_of(src)
        beside = backup.parent == Path(os.path.realpath(Path(src).absolute().parent))
        shown = backup.name if beside else backup
        return f"updated {src} (previous version kept as {shown})"
    return f"wrote {out}"


def _import_into(args: argparse.Namespace, result: ImportResult, held: ExitStack) -> int:
    """``--into BOOK.xlsx``: append the games to a league tab, write a new workbook."""
    from umaoka.templates.import_book import import_into
    from umaoka.templates.xlsx.formats import check_spreadsheet

    book_path = Path(args.into)
    check_spreadsheet(book_path)
    out = _into_output(book_path, args.output, held)
    report = import_into(book_path, result, args.league, out or book_path, force=args.force,
                         keep_duplicates=args.keep_duplicates, strict=args.strict,
                         session=args.session, warn=_warn, write=update_writer(book_path, out))
    from umaoka.addin.cli.tables import shown

    kinds = sorted({"platform finals" if g.settled else "game logs" for g in report.added})
    added = len(report.added)
    print(shown(f"{_wrote(book_path, out)}: {added} game{'' if added == 1 else 's'} added to "
                f"{report.league} ({', '.join(kinds)}); {len(report.problems)} skipped"))
    if report.respelt:
        print(shown("spelt as on the Players sheet: " + ", ".join(
            f"{typed} as {known}" for typed, known in report.respelt)))
    if report.new_players:
        print(shown(f"new on the Players sheet: {', '.join(report.new_players)}"))
    if report.chips_left_out:
        _warn([f"the chips (枚) of {report.chips_left_out} chip-lobby game(s) were left out: "
               f"{report.league} has no Chips block (`umaoka add {book_path.name} --chips` "
               "adds one; type those chips there)."])
    return 0


def _batch_rows(games: Sequence[ImportedGame]) -> list[list[Any]]:
    from umaoka.templates.batch import SEATS, csv_columns

    sizes = {g.players for g in games}
    if len(sizes) > 1:
        raise UmaokaError("the logs mix four- and three-player games; import them into "
                          "separate files.")
    header = csv_columns(sizes.pop())
    rows: list[list[Any]] = [header]
    for number, g in enumerate(games, 1):
        cells: dict[str, Any] = {"date": g.date.isoformat() if g.date else "", "game": number,
                                 "deposits": g.deposits}
        for seat, name, score in zip(SEATS, g.names, g.scores or ()):
            cells[seat], cells[f"{seat}_score"] = name, score
        rows.append([cells.get(c, "") for c in header])
    return rows


# ------------------------------------------------------------------------------------------------
# umaoka stats


def _stat_games(path: Path, spec: str, season_path: Path | None = None,
                stage: str | None = None) -> tuple[list[Any], str]:
    """The games of a CSV as the stats take them, and the shared-place rule they count by.

    A finals CSV (``umaoka import``'s ``first``, ``first_final``...) gives (names, finals,
    places, scores). Any other CSV is read as ``umaoka season`` reads a games CSV (the batch
    columns; session, table and game optional; ``east_final``... for a game known only by
    its finals; ``stage``): each row settled under its stage's ruleset from ``season_path``,
    or under ``spec`` without one. Rows that cannot be used are warnings."""
    from umaoka.addin.cli.season import game_rows, load_season
    from umaoka.engine.online.imported import name_problem
    from umaoka.engine.season.gamelog import check_players, game_record, result_of
    from umaoka.engine.season.stages import Season, Stage

    text = _text(path)
    try:
        header = [h.strip().lower() for h in next(csv_rows(text), [])]
    except UmaokaError as e:
        raise UmaokaError(f"{path.name} {e}") from None
    if season_path is None:
        if stage:
            raise UmaokaError("--stage needs --season: give the season file that names the "
                              "stages, e.g. --season season.ini --stage Final.")
        season = Season("stats", (Stage("games", ruleset(spec)),))
    else:
        season = load_season(season_path)
    chosen = season.stage(stage) if stage else None
    rule = (chosen or season.stages[0]).ruleset.shared_place
    if "first" in header and "east" not in header and season_path is None:
        result = parse_finals_csv(text, path.name)
        _warn(result.problems)
        return [(g.names, g.finals, g.places, g.scores) for g in result.games], rule
    n = season.stages[0].ruleset.players
    games: list[Any] = []
    problems: list[str] = []
    staged: set[str] = set()
    for row in game_rows(path, season):
        # "FILE line N", as the other stats messages and umaoka batch name a row
        where = f"{path.name} line {row.pop('_label').rsplit(' ', 1)[-1]}"
        if not any(str(v or "").strip() for k, v in row.items()
                   if k.endswith(("_score", "_final"))):
            continue  # a game not played yet: no scores
        try:
            g = game_record(row, n, where)
            if season_path is None:
                if g.stage:
                    staged.add(g.stage)
                rules = season.stages[0].ruleset
            else:
                of = season.stage(g.stage)
                if chosen is not None and of is not chosen:
                    continue
                rules = of.ruleset
            check_players(g)
            for name in g.players:  # a control character or a runaway name: not a player
                if (why := name_problem(name)) is not None:
                    raise UmaokaError(f"{where}: {why}")
            result = result_of(g, rules)
            if hasattr(result, "scores"):
                games.append((list(g.players), result))
            else:  # finals given: no raw scores
                games.append((list(g.players), result.final, result.places, None))
        except UmaokaError as e:  # the season's messages name the row already
            message = str(e)
            problems.append(message if message.startswith(where) else f"{where}: {message}")
    _warn(problems)
    if staged:
        _warn([f"{path.name} names stages ({', '.join(sorted(staged))}) but no season file "
               f"was given: every game is settled under {spec}; give --season SEASON.ini to "
               "settle each stage under its own ruleset."])
    return games, rule


def cmd_stats(args: argparse.Namespace) -> int:
    games, rule = _stat_games(Path(args.file), args.ruleset,
                              Path(args.season) if args.season else None, args.stage)
    if not games:
        raise UmaokaError(f"{args.file} has no settled game to count.")
    out = _console()
    rows = [[p.name, p.games, _pct(p.top_two_rate), _pct(p.bust_rate),
             "-" if p.average_raw is None else f"{p.average_raw:,.0f}",
             "-" if p.best_raw is None else f"{p.best_raw:,}",
             f"{_cell(p.best)} #{p.best_game}", f"{_cell(p.worst)} #{p.worst_game}",
             f"{p.top_streak}/{p.top_two_streak}/{p.no_last_streak}"]
            for p in player_stats(games, rule)]
    out.print(_table(["Player", "Games", "Top-2", "Bust", "Avg raw", "Top raw", "Best",
                      "Worst", "Streaks"], rows, title=f"Stats: {len(games)} games",
                     left=["Player"], narrow=True))
    out.print("Top-2 = 1st or 2nd (連対率); Bust = raw score below 0 (トビ率); Top raw = "
              "highest raw score (最高素点); Streaks = longest runs of 1st / 1st-2nd / not "
              "last; #n = game number.")
    out.print(shared_place_words(rule))
    if args.h2h is not None:
        pairs = head_to_head(games, args.h2h or None, rule)
        rows = [[h.player, h.opponent, h.games, h.ahead, h.behind, _cell(h.place_diff),
                 _cell(h.points)] for h in pairs]
        out.print(_table(["Player", "Opponent", "Games", "Ahead", "Behind", "Place +/-",
                          "Points"], rows, title="Head to head", left=["Player", "Opponent"]))
        out.print("Place +/- = average places finished ahead of the opponent; Points = sum "
                  "of own final minus the opponent's.")
    # Tenhou rates four- and three-player games apart: one rating per table size.
    by_size: dict[int, list[tuple[int, Any]]] = {}
    for number, g in enumerate(games, 1):
        by_size.setdefault(len(g[0]), []).append((number, g))
    for size, numbered in sorted(by_size.items(), reverse=True):
        kind = f"{size}-player games" if len(by_size) > 1 else "start 1500"
        sized = [g for _, g in numbered]
        if args.rating:
            rows = [[r.name, r.games, f"{r.rating:.2f}", _cell(r.change), f"{r.peak:.2f}",
                     f"{r.low:.2f}"] for r in ratings(sized)]
            out.print(_table(["Player", "Games", "R", "Change", "Peak", "Low"], rows,
                             title=f"Tenhou R rating ({kind})", left=["Player"]))
        steps = [s for s in rating_history(sized) if s.name == args.history]
        if steps:
            rows = [[numbered[s.game - 1][0], s.place, f"{s.before:.2f}",
                     f"{s.table_average:.2f}", f"{s.factor:.3f}", _cell(s.change),
                     f"{s.after:.2f}"] for s in steps]
            out.print(_table(["Game", "Place", "R before", "Table avg", "Factor", "Change",
                              "R after"], rows, title=f"R of {args.history} ({kind})"))
    if args.history and not any(args.history in g[0] for g in games):
        raise UmaokaError(f'"{args.history}" played no game here; check the spelling.')
    return 0


# ------------------------------------------------------------------------------------------------
# Registration


def add_commands(sub: Any) -> None:
    """Add seating, import and stats to the ``umaoka`` sub-command parser."""
    seat = sub.add_parser(
        "seating", help="draw seating for a league night or season (tables, winds, sit-outs)",
        description="PLAYERS is a count (16), names separated by commas, or a text file with "
        "one name per line. --fixed takes a CSV of round,table,east,south,west,north with "
        "the seats to pin (blank cells are free).")
    seat.add_argument("players", metavar="PLAYERS")
    seat.add_argument("--rounds", type=whole, required=True, metavar="R")
    seat.add_argument("--tables-of", type=whole, choices=(4, 3), default=4,
                      help="players per table (3 for sanma)")
    seat.add_argument("--seed", type=whole, default=0, help="same seed, same schedule")
    seat.add_argument("--absent", metavar="A,B", help="players of the list who are not "
                      "here tonight (left out of tonight's tables)")
    seat.add_argument("--fixed", metavar="FILE", help="pinned seats (CSV)")
    seat.add_argument("--avoid", metavar="A+B,C+D", help="players to keep apart (teammates)")
    seat.add_argument("--steps", type=whole, metavar="N",
                      help="search steps (default: by size)")
    seat.add_argument("--csv", metavar="OUT.csv", help="write the games as a batch CSV "
                      "with blank scores")
    seat.add_argument("--date", metavar="YYYY-MM-DD", help="date of the games (the CSV rows, "
                      "and the rows --into fills in)")
    seat.add_argument("--session", type=session_number, metavar="N",
                      help="session number for the CSV rows (default 1; game = round); with "
                      "--into the session of round 1 (default: after the tab's last)")
    seat.add_argument("--into", metavar="BOOK.xlsx", help="add tonight to the Seating sheet "
                      "of this workbook, going on from the season so far (who met on earlier "
                      "nights and in the tab's games), and fill in the players of its game "
                      "rows (session = round); BOOK is updated in place (previous version "
                      "kept as BOOK.bak.xlsx) unless -o")
    seat.add_argument("--league", metavar="NAME", help="the league tab for --into")
    seat.add_argument("-o", "--output", metavar="OUT.xlsx", help="write --into's workbook to "
                      "this new file instead (BOOK is not changed)")
    seat.add_argument("--force", action="store_true", help="replace an existing output")
    seat.set_defaults(func=cmd_seating)

    imp = sub.add_parser(
        "import", help="import online results (Tenhou lobby lines and logs, finals CSV)",
        description="Reads Tenhou lobby results (sca*.log, .gz too), tenhou.net/6 JSON "
        "logs, mjlog XML and finals CSV files; bad lines and games imported twice are "
        "warnings and are skipped. -o writes platform results as a finals CSV and game logs "
        "as a batch CSV for `umaoka batch`.")
    imp.add_argument("files", metavar="FILE", nargs="+")
    imp.add_argument("--format", choices=FORMATS, help="the files' format (default: detect)")
    imp.add_argument("-o", "--output", metavar="OUT", help="write the games here (a CSV; "
                     "with --into a new workbook instead of updating BOOK)")
    imp.add_argument("--into", metavar="BOOK.xlsx", help="append the games to a league tab "
                     "of this workbook, updated in place (previous version kept as "
                     "BOOK.bak.xlsx; platform results keep their finals, logs are settled "
                     "under the league's rules)")
    imp.add_argument("--league", metavar="NAME", help="the league tab for --into (needed "
                     "when the workbook has several)")
    imp.add_argument("--session", type=session_number, metavar="N", help="session number of "
                     "the games added with --into (default: the session after the tab's last)")
    imp.add_argument("--existing", action="append", metavar="CSV",
                     help="an earlier import or batch CSV: its games count as imported")
    imp.add_argument("--keep-duplicates", action="store_true",
                     help="import games seen twice anyway")
    imp.add_argument("--strict", action="store_true", help="write nothing if any line is bad")
    imp.add_argument("--force", action="store_true", help="replace an existing output file")
    imp.set_defaults(func=cmd_import)

    st = sub.add_parser(
        "stats", help="player stats, head to head and Tenhou R ratings from a CSV of games",
        description="FILE is a games CSV as umaoka season reads it (raw scores, settled with "
        "--ruleset or each stage's ruleset with --season; east_final... for a game known "
        "only by its finals) or a finals CSV (platform results). Games count in file order.")
    st.add_argument("file", metavar="FILE")
    st.add_argument("--ruleset", default="standard", metavar="NAME_OR_TEXT",
                    help="the ruleset of every game (without --season); its shared_place "
                    "says how a shared place counts")
    st.add_argument("--season", metavar="SEASON", help="a season file (.ini or .json): each "
                    "game settled under its stage's ruleset, as umaoka season does")
    st.add_argument("--stage", metavar="NAME", help="with --season: count only this stage's "
                    "games")
    st.add_argument("--h2h", nargs="?", const="", metavar="NAME",
                    help="head to head: NAME against each opponent, or every pair")
    st.add_argument("--rating", action="store_true", help="Tenhou R ratings")
    st.add_argument("--history", metavar="NAME", help="NAME's R rating game by game")
    st.set_defaults(func=cmd_stats)
