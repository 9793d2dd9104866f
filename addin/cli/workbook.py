"""The workbook commands: new, demo, add, runtime, settle and batch."""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from umaoka.addin.cli.base import (
    PROG,
    UsageError,
    _games,
    _roster,
    _runtime,
    _runtime_options,
    _split,
    output_folder,
    whole,
)
from umaoka.addin.cli.tables import (
    _console,
    _standings_table,
    shown,
)
from umaoka.addin.install.save import write_league_file as _write_league
from umaoka.engine import PRESETS, UmaokaError, ruleset


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
    from umaoka.templates.book.season_book import extend_book
    from umaoka.templates.settle_book import read_book
    from umaoka.templates.xlsx.formats import check_spreadsheet

    if args.ruleset and not args.stage:
        raise UsageError("--ruleset goes with --stage NAME (the new stage's rules)")
    src = Path(args.book)
    check_spreadsheet(src)
    season = None
    if args.season:
        from umaoka.addin.cli.season import load_season

        season = load_season(Path(args.season))
    with ExitStack() as held:  # an update in place holds the league until it is written
        out = _into_output(src, args.output, held)
        book = read_book(src)
        done = extend_book(book, season, args.stage, args.ruleset, args.teams, args.chips,
                           args.subs, _roster(args.players), args.carry, args.advance)
        flow = None
        if args.stage and book.season is not None:
            from umaoka.templates.book.season_book import stage_flow

            flow = stage_flow(book, book.leagues[-1].name)  # a bad Season sheet: nothing written
        update_league(book, src, out, force=args.force)
    games = sum(1 for lg in book.leagues for g in lg.games if not g.is_blank())
    print(shown(f"{_wrote(src, out)}: added {', '.join(done)} ({_games(games)} kept)"))
    if flow:
        print(shown(flow))
    return 0


def cmd_runtime(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from umaoka.addin.cli.league import _into_output, _wrote
    from umaoka.addin.install.update import update_league
    from umaoka.templates.book.runtime import runtime
    from umaoka.templates.settle_book import read_book
    from umaoka.templates.xlsx.formats import check_spreadsheet

    src = Path(args.input)
    check_spreadsheet(src)
    target = runtime(args.to, args.namespace)
    with ExitStack() as held:  # an update in place holds the league until it is written
        out = _into_output(src, args.output, held)
        book = read_book(src)
        was = book.runtime
        update_league(replace(book, runtime=target), src, out, force=args.force)
    print(f"{_wrote(src, out)}: formulas for {target.title} (they were for {was.title})")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from umaoka.engine.season.stages import SettledGames
    from umaoka.templates.book.season_book import season_result
    from umaoka.templates.demo import demo_book
    from umaoka.templates.settle_book import write_settled
    from umaoka.templates.xlsx.io import check_target

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
    from umaoka.addin.cli.season import _games as games_text
    from umaoka.templates.book.labels import label

    out, lang = _console(), args.lang
    title = label("r_demo", lang, games=games_text(report.games, lang),
                  stages=len(book.leagues), rules=rules.name)
    out.print(_standings_table(report.standings, title, lang=lang))
    _shared_place_line(report, lang)
    _season_lines(report, lang)
    print(label("r_demo_league", lang, path=filled, runtime=book.runtime.title))
    print(label("r_demo_settled", lang, path=settled))
    return 0


def _settled_line(games: int, problems: int, warnings: int = 0, lang: str = "en") -> str:
    """``5 games settled, 3 rows not settled, 1 warning``: a row is settled or not, never
    both, and a warning is about a row that is settled (and counts)."""
    from umaoka.addin.cli.season import _games as games_text
    from umaoka.templates.book.labels import label

    parts = [label("r_settled", lang, games=games_text(games, lang))]
    if problems:
        parts.append(label("r_not_settled_one", lang) if problems == 1
                     else label("r_not_settled", lang, n=problems))
    if warnings:
        parts.append(label("r_warning", lang) if warnings == 1
                     else label("r_warnings", lang, n=warnings))
    return ("、" if lang == "ja" else ", ").join(parts)


def _shared_place_line(report: Any, lang: str = "en") -> None:
    """Under the standings: how they count a place shared by tied players."""
    from rich.text import Text

    from umaoka.templates.book.labels import label

    rule = getattr(report, "shared_place", None)
    if rule:  # wrapped to the terminal's width (80 columns when piped), as the tables are
        _console().print(Text(label(f"shared_place_{rule}", lang)))


def _season_lines(report: Any, lang: str = "en") -> None:
    """A season workbook's stage and team standings (as `umaoka season` prints them)."""
    if getattr(report, "season", None) is not None:
        from umaoka.addin.cli.season import season_report

        print("\n".join(shown(line) for line in season_report(report.season, lang=lang)))


def cmd_settle(args: argparse.Namespace) -> int:
    from umaoka.addin.cli.season import _games as games_text
    from umaoka.addin.cli.season import warning
    from umaoka.templates.book.labels import label
    from umaoka.templates.settle_book import settle_file
    from umaoka.templates.xlsx.formats import check_spreadsheet

    check_spreadsheet(Path(args.input))
    report = settle_file(Path(args.input), Path(args.output) if args.output else None,
                         force=args.force)

    for line in [*report.problems, *report.warnings]:
        warning(line, args.lang)
    if report.standings:
        title = f"{Path(args.input).name}: {games_text(report.games, args.lang)}"
        _console().print(_standings_table(report.standings, title, lang=args.lang))
        _shared_place_line(report, args.lang)
    _season_lines(report, args.lang)
    what = _settled_line(report.games, len(report.problems), len(report.warnings), args.lang)
    print(label("r_wrote", args.lang, path=report.path, what=what))
    return 0


#: How batch's messages about a CSV file begin: they read on from the file's name.
_CSV_VERBS = ("is ", "lacks ", "line ", "cannot ", "could ", "has ", "holds ")


def cmd_batch(args: argparse.Namespace) -> int:
    from rich.progress import Progress

    from umaoka.addin.cli.season import warning
    from umaoka.templates.batch import csv_files, run_batch
    from umaoka.templates.book.labels import label

    folder = Path(args.spec)
    rules = ruleset(args.ruleset)
    files = csv_files(folder)
    out_dir = output_folder(args.output)
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
                warning(f"{name} {line}", args.lang)
            bad, doubtful = len(result.report.problems), len(result.report.warnings)
            print(label("r_wrote", args.lang, path=result.report.path,
                        what=_settled_line(result.report.games, bad, doubtful, args.lang)))
    return 2 if failures else 0


def add_commands(sub: Any) -> None:
    """Add this module's commands to the ``umaoka`` parser's subcommands."""

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
    demo.add_argument("--games", type=whole, default=120, metavar="N",
                      help="games (default 120)")
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
    add.add_argument("--carry", metavar="SHARE", help="what the new stage carries of the "
                     "stage before's points: full, half, zero (the default), 0.5, 1/3, 50%%")
    add.add_argument("--advance", metavar="N", help="the cut of the stage before the new one: "
                     "how many go on to it (default: as the Season sheet says, everyone when "
                     "blank)")
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
