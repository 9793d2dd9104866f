"""The ``umaoka`` command line: templates, the demo league, settling workbooks, one game.

Every error is one line on stderr and a non-zero exit status, never a traceback: 2 for bad
usage or bad input (a missing or unreadable input file included), 1 when a file cannot be
written (no permission, disk full).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import textwrap
import zipfile
from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any, NoReturn

from umaoka.addin.cli.league import add_commands as add_league_commands
from umaoka.addin.install.save import write_league_file as _write_league
from umaoka.engine import PRESETS, UmaokaError, __version__, ruleset, settle

PROG = "umaoka"


class UsageError(Exception):
    """Bad command-line usage (exit status 2)."""


class WriteError(Exception):
    """A file or folder could not be written (exit status 1)."""


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # "-20,0,0,0" and "-1,200" are values, not options (argparse knows only "-20", "-1.5")
        self._negative_number_matcher = re.compile(r"^-\d[\d,._]*$|^-\.\d+$")

    def error(self, message: str) -> NoReturn:
        # a 5,000-digit --rounds is quoted by its first digits, not in full
        message = re.sub(r"'([^']{30})[^']{10,}'", r"'\1...'", message)
        raise UsageError(f"{message} (see `{self.prog} --help`)")


def _split(text: str | None) -> list[str]:
    return [t.strip() for t in (text or "").split(",") if t.strip()]


def _roster(text: str | None) -> list[str]:
    """``--players``: names separated by commas, or a text file with one name a line
    (``#`` starts a comment); a name given twice (in any case) is refused."""
    if text is None:
        return []
    names = _split(text)
    if len(names) == 1 and "," not in text and (Path(names[0]).is_file() or Path(
            names[0]).suffix.lower() in (".txt", ".csv")):
        from umaoka.templates.xlsx.io import read_text

        path = Path(names[0])
        if not path.is_file():
            raise UmaokaError(f"{path} does not exist; give --players names separated by "
                              "commas, or a text file with one name a line.")
        names = [line.split(",")[0].strip() for line in read_text(path, "a file of names")
                 .splitlines() if line.strip() and not line.lstrip().startswith("#")]
        if not names:
            raise UmaokaError(f"{path} holds no names; write one name a line.")
    seen: dict[str, str] = {}
    for name in names:
        if name.casefold() in seen:
            twice = (f"{name} is given twice" if seen[name.casefold()] == name else
                     f"{seen[name.casefold()]} and {name} differ only by case")
            raise UmaokaError(f"{twice} in --players; give each player once, spelt one way.")
        seen[name.casefold()] = name
    return names


def _console(stderr: bool = False) -> Any:
    from rich.console import Console

    console = Console(stderr=stderr, highlight=False)
    if not console.is_terminal:
        console = Console(stderr=stderr, highlight=False, width=max(console.width, 160))
    return console


def _fmt(v: Any) -> str:
    if isinstance(v, Decimal):
        return f"{v:+}" if v else "0"
    return str(v)


def _fmt_row(values: Sequence[Any]) -> list[str]:
    """Numbers side by side in one format: every Decimal with the same decimals and a sign."""
    places = max((-int(v.as_tuple().exponent) for v in values  # type: ignore[arg-type]
                  if isinstance(v, Decimal)), default=0)
    out = []
    for v in values:
        if isinstance(v, Decimal):
            out.append(f"{v:+.{places}f}" if v else f"{0:.{places}f}")
        else:
            out.append(str(v))
    return out


#: Standings columns in the terminal: short header, and priority (higher goes first when the
#: terminal is narrow; 0 always stays).
_STANDINGS_COLUMNS = {
    "Rank": ("#", 0), "Player": ("Player", 0), "Games": ("Games", 0), "Total": ("Total", 0),
    "Average": ("Avg", 2), "Avg place": ("Place", 1), "1st": ("1st", 4), "2nd": ("2nd", 4),
    "3rd": ("3rd", 4), "4th": ("4th", 4), "Top rate": ("Top", 3),
    "Last-avoid rate": ("No last", 3), "Best": ("Best", 5), "Worst": ("Worst", 5),
    "Rank pts": ("Rank pts", 0),
}
_SIGNED = {"Total", "Average", "Best", "Worst", "Rank pts"}
#: The same short headers in Japanese (``--lang ja``).
_STANDINGS_JA = {
    "Rank": "順位", "Player": "選手", "Games": "対局数", "Total": "合計", "Average": "平均",
    "Avg place": "平均着順", "1st": "1着", "2nd": "2着", "3rd": "3着", "4th": "4着",
    "Top rate": "トップ率", "Last-avoid rate": "ラス回避率", "Best": "ベスト",
    "Worst": "ワースト", "Rank pts": "段位pt",
}


def _standings_table(rows: Sequence[Any], title: str, wide: bool = False,
                     lang: str = "en") -> Any:
    """The standings for the terminal, fitted to its width (``wide``: every column)."""
    from umaoka.engine import standings_table

    from umaoka.addin.cli.tables import Column, fit

    data = standings_table(list(rows))
    header = data[0]
    def head(h: str) -> str:
        if lang == "ja" and h in _STANDINGS_JA:
            return _STANDINGS_JA[h]
        return _STANDINGS_COLUMNS.get(h, (h, 0))[0]

    columns = [Column(head(h),
                      "left" if h == "Player" else "right",
                      _STANDINGS_COLUMNS.get(h, (h, 0))[1], elastic=h == "Player")
               for h in header]
    texts = []
    for row in data[1:]:
        cells = []
        for h, v in zip(header, row):
            if h in ("Top rate", "Last-avoid rate"):
                cells.append(f"{v * 100:.1f}%")
            elif h in _SIGNED:
                cells.append(_fmt(v))
            else:
                cells.append(str(v))
        texts.append(cells)

    def colour(i: int, text: str) -> str:
        if header[i] not in _SIGNED or text in ("0", ""):
            return text
        return f"[{'red' if text.startswith('-') else 'green'}]{text}[/]"

    return fit(_console(), title, columns, texts, colour, wide)


# ------------------------------------------------------------------------------------------------
# Commands


def _runtime(args: argparse.Namespace) -> Any:
    from umaoka.templates.book.runtime import runtime

    return runtime(args.runtime, args.namespace)


def cmd_new(args: argparse.Namespace) -> int:
    from umaoka.templates.book.model import make_book

    season = None
    if args.season:  # its stages are the league tabs, each with its ruleset
        from umaoka.addin.cli.season import load_season

        season = load_season(Path(args.season))
        args.leagues = args.leagues or ",".join(st.name for st in season.stages)
        # a preset keeps its name (the Rules sheet's, and "mleague rules" in reports)
        args.ruleset = args.ruleset or [
            st.ruleset.name if st.ruleset.name in PRESETS
            and PRESETS[st.ruleset.name].ruleset == st.ruleset else st.ruleset.text()
            for st in season.stages]
    book = make_book(args.ruleset, _split(args.leagues) or None, _roster(args.players), args.lang,
                     _runtime(args))
    from umaoka.templates.book.season_book import add_season

    add_season(book, season, args.teams, args.chips, args.subs)
    path = _write_league(book, Path(args.path), args.force)
    print(f"wrote {path} (formulas for {book.runtime.title}; see its Start sheet)")
    return 0


def cmd_add(args: argparse.Namespace) -> int:
    from umaoka.addin.cli.league import _into_output, _wrote
    from umaoka.addin.install.update import update_league
    from umaoka.templates.xlsx.formats import check_spreadsheet
    from umaoka.templates.book.season_book import extend_book
    from umaoka.templates.settle_book import read_book

    if args.ruleset and not args.stage:
        raise UsageError("--ruleset goes with --stage NAME (the new stage's rules)")
    src = Path(args.book)
    check_spreadsheet(src)
    season = None
    if args.season:
        from umaoka.addin.cli.season import load_season

        season = load_season(Path(args.season))
    out = _into_output(src, args.output)
    book = read_book(src)
    done = extend_book(book, season, args.stage, args.ruleset, args.teams, args.chips,
                       args.subs, _roster(args.players))
    update_league(book, src, out, force=args.force)
    games = sum(1 for lg in book.leagues for g in lg.games if not g.is_blank())
    print(f"{_wrote(src, out)}: added {', '.join(done)} ({_games(games)} kept)")
    return 0


def cmd_runtime(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from umaoka.addin.cli.league import _into_output, _wrote
    from umaoka.addin.install.update import update_league
    from umaoka.templates.xlsx.formats import check_spreadsheet
    from umaoka.templates.book.runtime import runtime
    from umaoka.templates.settle_book import read_book

    src = Path(args.input)
    check_spreadsheet(src)
    target = runtime(args.to, args.namespace)
    out = _into_output(src, args.output)
    book = read_book(src)
    was = book.runtime
    update_league(replace(book, runtime=target), src, out, force=args.force)
    print(f"{_wrote(src, out)}: formulas for {target.title} (they were for {was.title})")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from umaoka.engine.season.stages import SettledGames
    from umaoka.templates.demo import demo_book
    from umaoka.templates.xlsx.io import check_target
    from umaoka.templates.book.season_book import season_result
    from umaoka.templates.settle_book import write_settled

    if args.games < 1 or args.games > 200_000:
        raise UsageError("--games must be between 1 and 200000")
    rules = ruleset(args.ruleset)  # a bad ruleset is said before any folder is made
    folder = Path(args.dir)
    if folder.exists() and not folder.is_dir():
        raise UmaokaError(f"{folder} is a file; give a folder for the demo workbooks.")
    folder.mkdir(parents=True, exist_ok=True)
    filled, settled = folder / "demo_league.xlsx", folder / "demo_league_settled.xlsx"
    for path in (filled, settled):
        check_target(path, args.force)
    seen = SettledGames()  # the regular season, settled to find the finalists
    book = replace(demo_book(args.games, lang=args.lang, rules=args.ruleset, season=True,
                             settled=seen), runtime=_runtime(args))
    # the season is run once more, for the template's saved values and the settled copy
    run = season_result(book, seen) if book.season is not None else None
    del seen
    _write_league(book, filled, args.force, season_run=run)
    report = write_settled(book, settled, force=args.force, source=filled.name, season_run=run)
    out = _console()
    title = (f"Demo league: {_games(report.games)}, {len(book.leagues)} stages, "
             f"ruleset {rules.name}")
    out.print(_standings_table(report.standings, title, lang=args.lang))
    _season_lines(report)
    print(f"wrote {filled} (formulas for {book.runtime.title}, results saved in the file; "
          "see its Start sheet)")
    print(f"wrote {settled} (settled copy: a report with plain values, opens anywhere)")
    return 0


def _games(n: int) -> str:
    return f"{n} game{'s' if n != 1 else ''}"


def _settled_line(games: int, problems: int) -> str:
    """``5 games settled, 3 rows need attention``: the two never overlap."""
    rows = f", {problems} row{'s need' if problems != 1 else ' needs'} attention" \
        if problems else ""
    return f"{_games(games)} settled{rows}"


def _season_lines(report: Any) -> None:
    """A season workbook's stage and team standings (as `umaoka season` prints them)."""
    if getattr(report, "season", None) is not None:
        from umaoka.addin.cli.season import season_report

        from umaoka.addin.cli.tables import shown

        print("\n".join(shown(line) for line in season_report(report.season)))


def cmd_settle(args: argparse.Namespace) -> int:
    from umaoka.templates.xlsx.formats import check_spreadsheet
    from umaoka.templates.settle_book import settle_file

    check_spreadsheet(Path(args.input))
    report = settle_file(Path(args.input), Path(args.output) if args.output else None,
                         force=args.force)
    from umaoka.addin.cli.tables import shown

    for line in report.problems:
        print(f"{PROG}: warning: {shown(line)}", file=sys.stderr)
    if report.standings:
        title = f"{Path(args.input).name}: {_games(report.games)}"
        _console().print(_standings_table(report.standings, title, lang=args.lang))
    _season_lines(report)
    print(f"wrote {report.path}: {_settled_line(report.games, len(report.problems))}")
    return 0


#: How batch's messages about a CSV file begin: they read on from the file's name.
_CSV_VERBS = ("is ", "lacks ", "line ", "cannot ", "could ", "has ", "holds ")


def cmd_batch(args: argparse.Namespace) -> int:
    from rich.progress import Progress
    from umaoka.templates.batch import csv_files, run_batch

    from umaoka.addin.cli.tables import shown

    folder = Path(args.spec)
    rules = ruleset(args.ruleset)
    files = csv_files(folder)
    out_dir = Path(args.output) if args.output else None
    if out_dir:
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise WriteError(f"cannot create the output folder {out_dir} "
                             f"({e.strerror or e})") from None
    failures = 0
    with Progress(console=_console(stderr=True), transient=True,
                  disable=not sys.stderr.isatty()) as progress:
        task = progress.add_task("Settling", total=len(files))
        for result in run_batch(folder, rules, args.ruleset, out_dir, args.force, args.lang,
                                progress=lambda _p: progress.advance(task)):
            name = result.source.name
            if result.error:
                failures += 1
                # "junk.csv lacks the columns ...", but "junk.csv: out/junk.xlsx already exists"
                glue = " " if result.error.startswith(_CSV_VERBS) else ": "
                print(f"{PROG}: error: {shown(name)}{glue}{shown(result.error)}",
                      file=sys.stderr)
                continue
            assert result.report is not None
            for line in result.warnings:
                print(f"{PROG}: warning: {shown(name)} {shown(line)}", file=sys.stderr)
            bad = len(result.report.problems)
            print(f"wrote {result.report.path}: {_settled_line(result.report.games, bad)}")
    return 2 if failures else 0


def cmd_presets(args: argparse.Namespace) -> int:
    from rich.table import Table

    # Three columns (the rules as one ruleset text each) so the table fits 80 columns.
    table = Table(title="umaoka presets", header_style="bold", show_lines=True)
    table.add_column("preset", style="bold", no_wrap=True)
    table.add_column("rules (usable as --ruleset)", min_width=32, overflow="fold")
    table.add_column("source", max_width=20)
    for p in PRESETS.values():
        table.add_row(p.name, p.ruleset.text(), p.source)
    _console().print(table)
    return 0


def cmd_calc(args: argparse.Namespace) -> int:
    from rich.table import Table

    rules = ruleset(args.ruleset)
    scores: list[Any] = []
    for s in args.scores:
        try:
            scores.append(int(s.replace(",", "").replace("_", "")))
        except ValueError:
            scores.append(s)  # the engine says what is wrong with it
    penalties: list[Any] | None = None
    if args.penalties is not None:
        penalties = [p.strip() for p in args.penalties.split(",")]
        if len(penalties) != len(scores):
            raise UsageError(f"--penalties needs one value per seat ({len(scores)}, comma "
                             f"separated, e.g. -20,0,0,0), not {len(penalties)}")
    game = settle(scores, rules, args.deposits, penalties)
    rows = game.explain()
    # One column per seat and one row per step, so the table fits 80 columns.
    table = Table(title=f"{rules.name}: {rules.text()}", header_style="bold")
    table.add_column("Step", justify="left")
    for row in rows[1:]:
        table.add_column(str(row[0]), justify="right")
    for k, step in enumerate(rows[0][1:], 1):
        cells = _fmt_row([row[k] for row in rows[1:]])
        if step == "Final":
            cells = [f"[bold {'green' if v > 0 else 'red' if v < 0 else ''}]{c}[/]"
                     for v, c in zip(game.final, cells)]
        table.add_row(step, *cells)
    out = _console()
    out.print(table)
    for line in game.steps():
        out.print(line)
    out.print("Final: " + "  ".join(_fmt_row(game.final)))
    return 0


def _hand_title(r: Any, rules_text: str | None) -> str:
    if r.yakuman and not r.han:
        what = r.limit
    else:
        what = f"{r.han} han" + (f" {r.fu} fu" if r.fu else "")
        if r.limit:
            what += f" ({r.limit})"
    how = ("dealer" if r.dealer else "non-dealer") + (" tsumo" if r.tsumo else " ron")
    honba = f", {r.honba} honba" if r.honba else ""
    honba += f", {r.riichi} riichi stick{'s' * (r.riichi != 1)}" if r.riichi else ""
    return f"{what}, {how}{honba}" + (f"; rules: {rules_text}" if rules_text else "")


_PAYER = {"discarder": "the discarder", "dealer": "the dealer", "non-dealer": "a non-dealer",
          "liable": "the liable player (pao)"}


def cmd_hand(args: argparse.Namespace) -> int:
    from rich import box
    from rich.table import Table
    from umaoka.engine.hands.payment import hand

    words = [*args.han, *([args.fu] if args.fu else [])]
    fu = None
    if len(words) > 1 and words[-1].isdigit():  # `umaoka hand 3 40`: the last number is fu
        fu = words.pop()
    han = " ".join(words)  # `umaoka hand double yakuman`
    r = hand(han, fu, dealer=args.dealer, tsumo=args.tsumo, honba=args.honba,
             rules=args.rules, pao=args.pao or 0, liable_dealer=args.liable_dealer,
             riichi=args.riichi)
    out = _console()
    table = Table(box=box.SIMPLE_HEAD, header_style="bold", pad_edge=False)
    table.add_column("Who pays", justify="left")
    table.add_column("Points", justify="right")
    for who, points in r.payers:
        table.add_row(_PAYER.get(who, who), f"{points:,}")
    if r.riichi:
        table.add_row(f"riichi sticks ({r.riichi})", f"{r.total - sum(p for _, p in r.payers):,}")
    table.add_section()
    table.add_row("[bold]the winner gains[/]", f"[bold green]{r.total:,}[/]")
    notes = [f"Called at the table: {r.label}."]
    if r.basic:
        notes.append(f"Basic points {r.basic:,}.")
    if r.riichi:
        notes.append(("Honba and riichi sticks" if r.honba else "Riichi sticks") + " included.")
    elif r.honba:
        notes.append("Honba included; riichi sticks on the table are not (--riichi N).")
    if r.pao:
        notes.append(f"Pao: the liable player answers for {r.pao} yakuman and pays "
                     f"{r.liable:,} in all.")
    # Short lines of our own, so the output fits 80 columns even when piped.
    for line in textwrap.wrap(_hand_title(r, args.rules), 78):
        out.print(f"[bold]{line}[/]")
    out.print(table)
    for line in textwrap.wrap(" ".join(notes), 78):
        out.print(line)
    return 0


def cmd_season(args: argparse.Namespace) -> int:
    from umaoka.addin.cli.season import run

    lines, problems = run(Path(args.season), [Path(p) for p in args.games],
                          [Path(p) for p in args.penalties or ()], args.stage)
    from umaoka.addin.cli.tables import shown

    for line in problems:
        print(f"{PROG}: warning: {shown(line)}", file=sys.stderr)
    print("\n".join(shown(line) for line in lines).rstrip())
    return 0


def cmd_addin(args: argparse.Namespace) -> int:
    from umaoka.addin.install.setup import addin_config, addin_instructions

    if args.config:
        for key, value in addin_config():
            print(f"{key}\t{value}")
    else:
        print(addin_instructions(), end="")
    return 0


def cmd_lite(args: argparse.Namespace) -> int:
    if args.into:
        from umaoka.addin.install.embed import embed_lite, extract_lite
        from umaoka.addin.install.update import embed_lite_into

        if args.dir:
            raise UsageError("give either DIR or --into BOOK.xlsx, not both")
        from umaoka.templates.xlsx.formats import check_spreadsheet

        src = Path(args.into)
        check_spreadsheet(src)
        try:
            own = "Generated by `umaoka lite`" not in extract_lite(src)[0]
        except UmaokaError:
            own = False  # no Lite code there (or a broken file: embed_lite says why)
        if args.output:
            path = embed_lite(src, Path(args.output), force=args.force)
            keeper = src.name
            print(f"wrote {path} (umaoka's xlwings Lite code inside)")
        else:  # the workbook itself, its previous version kept beside it
            from umaoka.addin.install.update import backup_path

            path = embed_lite_into(src)
            keeper = f"the previous version, {backup_path(src).name},"
            print(f"updated {path} (previous version kept as {backup_path(src).name}): "
                  "umaoka's xlwings Lite code inside")
        if own:
            print(f"{PROG}: note: {path} has umaoka's code in place of {src.name}'s own "
                  f"xlwings Lite code ({keeper} keeps it)", file=sys.stderr)
        return 0
    from umaoka.addin.install.lite import write_lite

    if not args.dir:
        raise UsageError("give a folder for main.py, or --into BOOK.xlsx")
    if args.output:
        raise UsageError("-o/--output goes with --into BOOK.xlsx")
    for path in write_lite(args.dir, force=args.force):
        print(f"wrote {path}")
    return 0


def _rank_title(p: Any) -> str:
    client = "Tenhou" if p.system == "tenhou" else "Mahjong Soul"
    return f"{client} rank points: {p.room} room, {p.length}, {p.players} players"


def cmd_rankpoints(args: argparse.Namespace) -> int:
    from rich.table import Table
    from umaoka.engine.online.rankpoints import game_rank_points, rank_points
    from umaoka.engine.online.ranks import SOUL_START, SOUL_UMA, player_count

    n = player_count(args.players)
    if args.csv:
        return _rankpoints_csv(args, n)
    ranks = _split(args.rank) or [args.rank or ""]
    results = [r.replace(",", "").replace("_", "") for r in args.results]
    if not results:  # each rank's points by place
        rows = [[rank_points(place, SOUL_START[n], args.system, args.room, rank, args.length, n)
                 for place in range(1, n + 1)] for rank in ranks]
        title = _rank_title(rows[0][0])
        table = Table(title=title, header_style="bold", title_style="bold",
                      min_width=len(title))
        for h in ("Rank", "Place", "Room pts", "Last place"):
            table.add_column(h, justify="left" if h == "Rank" else "right")
        for by_place in rows:
            for p in by_place:
                table.add_row(p.rank if p.place == 1 else "", str(p.place),
                              _fmt(p.place_points) + (" SP" if p.unit == "SP" else ""),
                              _fmt(p.penalty))
        _console().print(table)
        if any(p.system == "mahjongsoul" and p.unit == "pt" for p in rows[0]):
            print(f"Rank points = room pts + ceil((score - {SOUL_START[n]:,})/1000 + uma) + last "
                  f"place; uma {'/'.join(f'{u:+}' for u in SOUL_UMA[n])}.")
        return 0
    if len(results) == 1:
        points = [rank_points(results[0], args.score, args.system, args.room, ranks[0],
                              args.length, n)]
    else:
        points = list(game_rank_points(results, args.system, args.room,
                                       ranks if len(ranks) > 1 else ranks[0], args.length, n))
    scored = any(p.system == "mahjongsoul" and p.unit == "pt" for p in points)
    heads = ["Seat", "Rank", "Score", "Place", "Room", "Score pts", "Last place", "Points"]
    if not scored:
        heads.remove("Score pts")
    if all(p.score is None for p in points):
        heads.remove("Score")
    table = Table(title=_rank_title(points[0]), header_style="bold", title_style="bold")
    for h in heads:
        table.add_column(h, justify="left" if h in ("Seat", "Rank") else "right")
    seats = ("East", "South", "West", "North") if len(points) > 1 else ("",)
    for seat, p in zip(seats, points):
        cells = {"Seat": seat, "Rank": p.rank, "Place": str(p.place),
                 "Score": "" if p.score is None else f"{p.score:,}",
                 "Room": _fmt(p.place_points), "Last place": _fmt(p.penalty),
                 "Score pts": _fmt(p.score_points) if p.unit == "pt" else "",
                 "Points": f"[bold]{_fmt(p.points)}{' SP' if p.unit == 'SP' else ''}[/]"}
        table.add_row(*(cells[h] for h in heads))
    _console().print(table)
    return 0


def _rankpoints_csv(args: argparse.Namespace, n: int) -> int:
    """Cumulative rank points per player from a CSV of games (`umaoka batch`'s columns)."""
    from rich.table import Table
    from umaoka.engine import standings
    from umaoka.engine.online.rankpoints import rank_point_rule
    from umaoka.templates.batch import read_csv

    rule = rank_point_rule(args.system, args.room, args.rank, args.length, n)
    preset = {"tenhou": "tenhou", "mahjongsoul": "mahjongsoul"}[rule.system]
    rules = ruleset(preset if n == 4 else f"{preset}-sanma")
    from umaoka.templates.xlsx.io import MAX_INPUT, read_input

    path = Path(args.csv)
    read_input(path, "a CSV file of games", MAX_INPUT)  # missing or unreadable: one sentence
    games = []
    try:
        read = read_csv(path, rules)
    except UmaokaError as e:  # batch's sentences read on from the file's name
        raise UmaokaError(f"{path.name} {e}") from None
    from umaoka.addin.cli.tables import markup, shown

    for warning in read.warnings:
        print(f"{PROG}: warning: {shown(path.name)} {shown(warning)}", file=sys.stderr)
    for game in read.league.games:
        if game.is_blank():
            continue
        try:
            settled = settle(game.scores, rules, game.deposits or 0)
            names = [("" if p is None else str(p)).strip() for p in game.players]
            rule(names, settled.points, settled.places)  # this game's problem, said here
            games.append((names, settled))
        except UmaokaError as e:
            print(f"{PROG}: warning: {shown(path.name)} {game.source}: {shown(e)}",
                  file=sys.stderr)
    rows = sorted(standings(games, rank_points=rule), key=lambda p: -(p.rank_points or 0))
    client = "Tenhou" if rule.system == "tenhou" else "Mahjong Soul"
    table = Table(title=f"{client} rank points: {rule.room} room, {rule.length}, {n} players, "
                  f"{len(games)} games", header_style="bold", title_style="bold")
    for h in ("#", "Player", "Games", "Avg place", *("1st", "2nd", "3rd", "4th")[:n],
              "Rank pts"):
        table.add_column(h, justify="left" if h == "Player" else "right")
    for i, p in enumerate(rows, 1):
        table.add_row(str(i), markup(p.name), str(p.games), str(p.average_place),
                      *(str(c) for c in p.places[:n]), f"[bold]{_fmt(p.rank_points)}[/]")
    _console().print(table)
    return 0


# ------------------------------------------------------------------------------------------------
# The parser


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description="Riichi mahjong final scores (oka and uma) and league "
                "standings, in Excel workbooks and on the command line.")
    p.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    new = sub.add_parser("new", help="write a fresh league template workbook")
    new.add_argument("path", metavar="PATH", help="the .xlsx file to write")
    new.add_argument("--ruleset", action="append", metavar="NAME_OR_TEXT",
                     help='a preset or ruleset text such as "mleague; ties=seat"; repeat to '
                     "give one per league (default: standard)")
    new.add_argument("--leagues", metavar="NAME,NAME", help='league tabs, e.g. '
                     '"Spring 2026,Summer 2026" (default: League)')
    new.add_argument("--players", metavar="NAME,NAME|FILE", help="the roster: names "
                     "separated by commas, or a text file with one name a line")
    new.add_argument("--lang", choices=("en", "ja"), default="en")
    new.add_argument("--season", metavar="FILE", help="a season file (.ini or .json, as for "
                     "`umaoka season`): its stages become the league tabs, with a Season sheet")
    new.add_argument("--teams", metavar="TEAM=NAME,NAME;...", help="teams, e.g. "
                     '"Dragons=Aki,Ben;Tigers=Chie,Dan" (adds a Season sheet)')
    new.add_argument("--chips", action="store_true", help="chip columns (祝儀) in the league "
                     "tabs (adds a Season sheet)")
    new.add_argument("--subs", action="store_true", help="substitute columns in the league "
                     "tabs (adds a Season sheet)")
    _runtime_options(new)
    new.add_argument("--force", action="store_true", help="replace an existing file")
    new.set_defaults(func=cmd_new)

    demo = sub.add_parser("demo", help="write a sample league (filled and settled) and print "
                          "its standings")
    demo.add_argument("dir", metavar="DIR", nargs="?", default=".", help="folder (default: .)")
    demo.add_argument("--games", type=int, default=120, metavar="N", help="games (default 120)")
    demo.add_argument("--ruleset", default="mleague", metavar="NAME_OR_TEXT",
                      help='a preset or ruleset text such as "ema" (default: mleague)')
    demo.add_argument("--lang", choices=("en", "ja"), default="en")
    _runtime_options(demo)
    demo.add_argument("--force", action="store_true", help="replace existing files")
    demo.set_defaults(func=cmd_demo)

    add = sub.add_parser("add", help="add stages, teams, chip or substitute columns, or "
                         "players to a league workbook that has games (in place)",
                         description="Reads the league workbook like `settle`, adds what you "
                         "give and writes umaoka's sheets again into the same file: the games "
                         "typed so far stay, the previous version is kept as BOOK.bak.xlsx, "
                         "and sheets, charts, names and macros of your own are kept as they "
                         "are. Examples: `umaoka add league.xlsx --stage Final --ruleset "
                         "mleague`, `umaoka add league.xlsx --teams \"Dragons=Aki,Ben;"
                         "Tigers=Chie,Dan\"`, `umaoka add league.xlsx --season season.ini`.")
    add.add_argument("book", metavar="BOOK.xlsx", help="the league workbook")
    add.add_argument("--season", metavar="FILE", help="a season file (as for `umaoka "
                     "season`): its stages (new ones become league tabs; every tab must be "
                     "one) and settings")
    add.add_argument("--stage", metavar="NAME", help="one more stage (a league tab) after "
                     "the others")
    add.add_argument("--ruleset", metavar="NAME_OR_TEXT", help="the new stage's ruleset "
                     "(default: the last tab's)")
    add.add_argument("--teams", metavar="TEAM=NAME,NAME;...", help="teams, e.g. "
                     '"Dragons=Aki,Ben;Tigers=Chie,Dan"')
    add.add_argument("--chips", action="store_true", help="chip columns (祝儀) in every tab")
    add.add_argument("--subs", action="store_true", help="substitute columns in every tab")
    add.add_argument("--players", metavar="NAME,NAME|FILE", help="players for the roster "
                     "(names separated by commas, or a text file with one name a line)")
    add.add_argument("-o", "--output", metavar="OUT.xlsx",
                     help="write a new file instead of updating BOOK")
    add.add_argument("--force", action="store_true", help="with -o: replace an existing file")
    add.set_defaults(func=cmd_add)

    rt = sub.add_parser("runtime", help="give a league workbook formulas for another add-in "
                        "runtime (in place)",
                        description="Reads the rules, roster and games like `settle` and "
                        "writes umaoka's sheets again with formulas for the chosen runtime, "
                        "into the same file (previous version kept as IN.bak.xlsx; sheets, "
                        "charts, names and macros of your own are kept as they are). With -o "
                        "the result goes to a new file and IN is not changed.")
    rt.add_argument("input", metavar="IN.xlsx")
    rt.add_argument("--to", required=True, choices=("lite", "classic", "server"),
                    help="the runtime the new file's formulas are for")
    rt.add_argument("--namespace", metavar="NS", default=None,
                    help="xlwings Server's function namespace: XLWINGS_DEV (default, what "
                    "`xlwings-server init` sets up), XLWINGS for XLWINGS_ENVIRONMENT=\"prod\"; "
                    "see docs/runtimes.md")
    rt.add_argument("-o", "--output", metavar="OUT.xlsx",
                    help="write a new file instead of updating IN")
    rt.add_argument("--force", action="store_true", help="replace an existing output file")
    rt.set_defaults(func=cmd_runtime)

    st = sub.add_parser("settle", help="write a settled copy of a filled template (plain "
                        "values, no formulas)",
                        description="Writes a report beside the league workbook: every result, "
                        "place and standing as a plain value, readable anywhere. The league "
                        "workbook is not changed (keep typing games there); a settled copy "
                        "cannot be settled again.")
    st.add_argument("input", metavar="IN.xlsx")
    st.add_argument("-o", "--output", metavar="OUT.xlsx",
                    help="output file (default: IN_settled.xlsx)")
    st.add_argument("--force", action="store_true", help="replace an existing output file")
    st.add_argument("--lang", choices=("en", "ja"), default="en",
                    help="language of the standings printed in the terminal")
    st.set_defaults(func=cmd_settle)

    batch = sub.add_parser("batch", help="settle a folder of CSV files of games into one "
                           "league workbook each",
                           description="CSV columns: date,session,table,game,east,east_score,"
                           "south,south_score,west,west_score,north,north_score[,deposits]"
                           "[,east_penalty,south_penalty,west_penalty,north_penalty]; "
                           "comma or semicolon separated; UTF-8, UTF-16 or Shift-JIS (cp932)")
    batch.add_argument("spec", metavar="FOLDER", help="folder of .csv files")
    batch.add_argument("--ruleset", default="standard", metavar="NAME_OR_TEXT")
    batch.add_argument("-o", "--output", metavar="DIR", help="output folder (default: FOLDER)")
    batch.add_argument("--lang", choices=("en", "ja"), default="en")
    batch.add_argument("--force", action="store_true", help="replace existing workbooks")
    batch.set_defaults(func=cmd_batch)

    pr = sub.add_parser("presets", help="list the built-in rulesets")
    pr.set_defaults(func=cmd_presets)

    calc = sub.add_parser("calc", help="settle one game and show every step")
    calc.add_argument("scores", metavar="SCORE", nargs="+",
                      help="raw points in seat order, East first (negative allowed)")
    calc.add_argument("--ruleset", default="standard", metavar="NAME_OR_TEXT")
    calc.add_argument("--deposits", type=int, default=0, metavar="N",
                      help="leftover riichi sticks in points")
    calc.add_argument("--penalties", metavar="P,P,P,P",
                      help="penalties in final points, one per seat, e.g. -20,0,0,0 (added "
                      "after settlement)")
    calc.set_defaults(func=cmd_calc)

    hd = sub.add_parser("hand", help="what a winning hand pays, and who pays what",
                        usage="%(prog)s HAN [FU] [--dealer] [--tsumo] [--honba N] "
                        "[--riichi N]\n       [--rules TEXT] [--pao N|all] [--liable-dealer]",
                        description="HAN: a number, a limit (mangan, haneman, baiman, "
                        "sanbaiman) or a yakuman (yakuman, \"double yakuman\"); FU is needed "
                        "below mangan. Examples: `umaoka hand 3 40 --tsumo --honba 1`, "
                        "`umaoka hand yakuman --tsumo --pao all`, "
                        "`umaoka hand 26 --rules kazoe=unlimited`.")
    hd.add_argument("han", metavar="HAN", nargs="+",
                    help="han, limit or yakuman (double yakuman may be two words)")
    hd.add_argument("fu", metavar="FU", nargs="?", help="fu (20 to 140; 170 with aotenjou)")
    hd.add_argument("--dealer", action="store_true", help="the winner is the dealer")
    hd.add_argument("--tsumo", action="store_true", help="self-drawn win (default: ron)")
    hd.add_argument("--honba", type=int, default=0, metavar="N", help="honba counters")
    hd.add_argument("--riichi", default=0, metavar="N", help="1,000-point riichi sticks the "
                    "winner collects, this hand's declarations included (each adds 1,000 "
                    "to the winner's gain; the payments do not change)")
    hd.add_argument("--rules", metavar="TEXT", help='hand rules, e.g. "kiriage", '
                    '"kazoe=unlimited", "aotenjou"')
    hd.add_argument("--pao", metavar="N|all", help="yakuman a liable player answers for "
                    "(sekinin barai): a number or all")
    hd.add_argument("--liable-dealer", action="store_true",
                    help="the liable player is the dealer")
    hd.set_defaults(func=cmd_hand)

    season = sub.add_parser("season", help="run a league season (stages, teams, penalties, "
                            "chips) from a season file and CSV files of games",
                            description="SEASON is an INI file ([season], [stage NAME]..., "
                            "[teams]) or a .json file; GAMES are CSV files with the batch "
                            "columns plus stage, east_chips... and east_sub...")
    season.add_argument("season", metavar="SEASON", help="the season file (.ini or .json)")
    season.add_argument("games", metavar="GAMES.csv", nargs="+", help="games, one per row")
    season.add_argument("--penalties", metavar="PENALTIES.csv", action="append",
                        help="the penalty log: date,stage,player,team,points,reason")
    season.add_argument("--stage", metavar="NAME", help="print only this stage")
    season.set_defaults(func=cmd_season)

    addin = sub.add_parser("addin", help="how to set up umaoka's Excel functions (xlwings)")
    addin.add_argument("--config", action="store_true",
                       help="print only the xlwings.conf rows (key<TAB>value)")
    addin.set_defaults(func=cmd_addin)

    lite = sub.add_parser("lite", help="write main.py and requirements.txt for xlwings Lite, "
                          "or put them into a copy of a workbook (--into)")
    lite.add_argument("dir", metavar="DIR", nargs="?", help="folder for main.py and "
                      "requirements.txt")
    lite.add_argument("--into", metavar="BOOK.xlsx", help="put the code into BOOK.xlsx, as "
                      "xlwings Lite keeps it (updated in place; previous version kept as "
                      "BOOK.bak.xlsx)")
    lite.add_argument("-o", "--output", metavar="OUT.xlsx",
                      help="with --into: write a copy with the code instead (BOOK is not "
                      "changed)")
    lite.add_argument("--force", action="store_true", help="replace existing files")
    lite.set_defaults(func=cmd_lite)

    rp = sub.add_parser("rankpoints", help="online rank points (Tenhou dan points, Mahjong "
                        "Soul rank points) of a game, a rank's table, or a CSV's players",
                        description="RESULT: one place, or a table's places or raw end scores "
                        "in seat order. Without RESULT: the points by place for each --rank. "
                        "--csv: cumulative rank points of every player of a CSV of games "
                        "(the columns of `umaoka batch`).")
    rp.add_argument("results", metavar="RESULT", nargs="*", help="place or raw score")
    rp.add_argument("--system", default="tenhou", metavar="NAME",
                    help="tenhou or mahjongsoul (default: tenhou)")
    rp.add_argument("--room", required=True, metavar="NAME",
                    help="Tenhou: general, upper, expert, phoenix; Mahjong Soul: bronze, silver, "
                    "gold, jade, throne")
    rp.add_argument("--rank", metavar="RANK[,RANK...]",
                    help="dan or rank: one for all, one per seat (七段,六段,...); with --csv "
                    "one per player (Aki=七段,Ben=六段,...)")
    rp.add_argument("--length", default="south", metavar="east|south",
                    help="east (東風) or south (hanchan, default)")
    rp.add_argument("--players", default="4", metavar="4|3", help="4 (default) or 3")
    rp.add_argument("--score", metavar="N", help="raw end score with one place (Mahjong Soul)")
    rp.add_argument("--csv", metavar="FILE", help="a CSV of games: standings by rank points")
    rp.set_defaults(func=cmd_rankpoints)

    add_league_commands(sub)  # seating, import, stats
    return p


def _runtime_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--runtime", choices=("lite", "classic", "server"), default="lite",
                   help="the add-in the formulas are written for: xlwings Lite (free, any "
                   "Excel 2021/365; default), classic xlwings (Windows, VBA functions) or "
                   "xlwings Server")
    p.add_argument("--namespace", metavar="NS", default=None,
                   help="with --runtime server: its function namespace: XLWINGS_DEV "
                   "(default, what `xlwings-server init` sets up), XLWINGS for "
                   'XLWINGS_ENVIRONMENT="prod"; see docs/runtimes.md')


def _fail(message: str, status: int) -> int:
    from umaoka.engine.online.imported import visible  # the same as tables.shown, without rich

    text = visible(" ".join(str(message).split()))
    print(f"{PROG}: error: {text}", file=sys.stderr)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(list(sys.argv[1:] if argv is None else argv))
        if extra:  # point to the help of the command that was given, not the top level's
            where = f"{PROG} {args.command}" if getattr(args, "command", None) else PROG
            raise UsageError(f"unrecognized arguments: {' '.join(extra)} "
                             f"(see `{where} --help`)")
        if not getattr(args, "func", None):
            parser.print_help()
            return 2
        return int(args.func(args))
    except SystemExit as e:  # --help and --version
        return int(e.code or 0) if isinstance(e.code, int) else 0
    except UsageError as e:
        return _fail(str(e), 2)
    except UmaokaError as e:
        return _fail(str(e), 2)
    except WriteError as e:
        return _fail(str(e), 1)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except BrokenPipeError:  # `umaoka demo | head`: the reader left; nothing to report
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    # Inputs are checked before reading (a missing or unreadable input is bad input, 2), so
    # what reaches here is a file that could not be written: status 1.
    except PermissionError as e:
        return _fail(f"permission denied: {e.filename or e}", 1)
    except OSError as e:  # one line, status 1, for every file-system error
        where = f": {e.filename}" if getattr(e, "filename", None) else ""
        hint = {28: "; free some space or write elsewhere (no file was written)",
                30: "; the folder is read-only: write elsewhere (no file was written)"}
        return _fail(f"cannot write: {e.strerror or e}{where}{hint.get(e.errno or 0, '')}", 1)
    except (zipfile.BadZipFile, ValueError, KeyError) as e:
        return _fail(f"{type(e).__name__}: {e}", 2)
    except Exception as e:  # never a traceback for the person at the terminal
        if os.environ.get("UMAOKA_DEBUG"):
            raise
        return _fail(f"unexpected {type(e).__name__}: {e} (set UMAOKA_DEBUG=1 for details)", 1)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
