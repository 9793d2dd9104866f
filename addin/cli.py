"""The ``umaoka`` command line: templates, the demo league, settling workbooks, one game.

Every error is one line on stderr and a non-zero exit status (2 for bad usage or input),
never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
import zipfile
from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any, NoReturn

from umaoka.engine import PRESETS, UmaokaError, __version__, ruleset, settle

PROG = "umaoka"


class UsageError(Exception):
    """Bad command-line usage (exit status 2)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see `{self.prog} --help`)")


def _split(text: str | None) -> list[str]:
    return [t.strip() for t in (text or "").split(",") if t.strip()]


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


def _standings_table(rows: Sequence[Any], title: str) -> Any:
    from rich.table import Table
    from umaoka.engine import standings_table

    table = Table(title=title, header_style="bold", title_style="bold")
    data = standings_table(list(rows))
    header = data[0]
    for h in header:
        table.add_column(h, justify="left" if h == "Player" else "right")
    for row in data[1:]:
        cells = []
        for h, v in zip(header, row):
            if h in ("Top rate", "Last-avoid rate"):
                cells.append(f"{v * 100:.1f}%")
            elif h in ("Total", "Average", "Best", "Worst"):
                colour = "green" if v > 0 else "red" if v < 0 else ""
                text = _fmt(v)
                cells.append(f"[{colour}]{text}[/]" if colour else text)
            else:
                cells.append(str(v))
        table.add_row(*cells)
    return table


# ------------------------------------------------------------------------------------------------
# Commands


def _runtime(args: argparse.Namespace) -> Any:
    from umaoka.templates.runtime import runtime

    return runtime(args.runtime, args.namespace)


def _write_league(book: Any, path: Path, force: bool, inputs: tuple[Path, ...] = ()) -> Path:
    """Save a league workbook with formulas: the one save step of new, demo and runtime."""
    from umaoka.templates.build import write_league

    return write_league(book, path, force=force, inputs=inputs)


def cmd_new(args: argparse.Namespace) -> int:
    from umaoka.templates.model import make_book

    book = make_book(args.ruleset, _split(args.leagues) or None, _split(args.players), args.lang,
                     _runtime(args))
    path = _write_league(book, Path(args.path), args.force)
    print(f"wrote {path} (formulas for {book.runtime.title}; see its Start sheet)")
    return 0


def cmd_runtime(args: argparse.Namespace) -> int:
    from umaoka.templates.runtime import runtime
    from umaoka.templates.settle_book import switch_runtime

    target = runtime(args.to, args.namespace)
    out, was = switch_runtime(Path(args.input), target,
                              Path(args.output) if args.output else None, force=args.force,
                              after_save=None)
    print(f"wrote {out}: formulas for {target.title} (the input's are for {was.title})")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from umaoka.templates.demo import demo_book
    from umaoka.templates.io import check_target
    from umaoka.templates.settle_book import write_settled

    if args.games < 1 or args.games > 200_000:
        raise UsageError("--games must be between 1 and 200000")
    folder = Path(args.dir)
    if folder.exists() and not folder.is_dir():
        raise UmaokaError(f"{folder} is a file; give a folder for the demo workbooks.")
    folder.mkdir(parents=True, exist_ok=True)
    filled, settled = folder / "demo_league.xlsx", folder / "demo_league_settled.xlsx"
    for path in (filled, settled):
        check_target(path, args.force)
    book = replace(demo_book(args.games, lang=args.lang), runtime=_runtime(args))
    _write_league(book, filled, args.force)
    report = write_settled(book, settled, force=args.force, source=filled.name)
    out = _console()
    title = (f"Demo league: {report.games} games, {len(book.leagues)} seasons, "
             f"ruleset {book.rules[0].name}")
    out.print(_standings_table(report.standings, title))
    print(f"wrote {filled} (formulas for {book.runtime.title}, results saved in the file; "
          "see its Start sheet)")
    print(f"wrote {settled} (settled copy: a report with plain values, opens anywhere)")
    return 0


def cmd_settle(args: argparse.Namespace) -> int:
    from umaoka.templates.settle_book import settle_file

    report = settle_file(Path(args.input), Path(args.output) if args.output else None,
                         force=args.force)
    for line in report.problems:
        print(f"{PROG}: warning: {line}", file=sys.stderr)
    print(f"wrote {report.path}: {report.games} games settled"
          + (f", {len(report.problems)} rows need attention" if report.problems else ""))
    return 0


def cmd_batch(args: argparse.Namespace) -> int:
    from rich.progress import Progress
    from umaoka.templates.batch import csv_files, run_batch

    folder = Path(args.spec)
    rules = ruleset(args.ruleset)
    files = csv_files(folder)
    out_dir = Path(args.output) if args.output else None
    if out_dir:
        out_dir.mkdir(parents=True, exist_ok=True)
    failures = 0
    with Progress(console=_console(stderr=True), transient=True,
                  disable=not sys.stderr.isatty()) as progress:
        task = progress.add_task("Settling", total=len(files))
        for result in run_batch(folder, rules, args.ruleset, out_dir, args.force, args.lang,
                                progress=lambda _p: progress.advance(task)):
            if result.error:
                failures += 1
                print(f"{PROG}: error: {result.error}", file=sys.stderr)
                continue
            assert result.report is not None
            for line in result.report.problems:
                print(f"{PROG}: warning: {result.source.name}: {line}", file=sys.stderr)
            print(f"wrote {result.report.path}: {result.report.games} games")
    return 2 if failures else 0


def cmd_presets(args: argparse.Namespace) -> int:
    from rich.table import Table
    from umaoka.engine import FIELDS

    table = Table(title="umaoka presets", header_style="bold")
    table.add_column("preset", style="bold")
    for f in FIELDS:
        table.add_column(f, overflow="fold")
    table.add_column("source", overflow="fold")
    for p in PRESETS.values():
        table.add_row(p.name, *(str(v) for v in p.ruleset.values().values()), p.source)
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
    game = settle(scores, rules, args.deposits)
    rows = game.explain()
    table = Table(title=f"{rules.name}: {rules.text()}", header_style="bold")
    for h in rows[0]:
        table.add_column(h, justify="left" if h == "Seat" else "right")
    for row in rows[1:]:
        cells = [str(v) if not isinstance(v, Decimal) else _fmt(v) for v in row]
        final = row[-1]
        cells[-1] = f"[bold {'green' if final > 0 else 'red' if final < 0 else ''}]{cells[-1]}[/]"
        table.add_row(*cells)
    out = _console()
    out.print(table)
    for line in game.steps():
        out.print(line)
    out.print("Final: " + "  ".join(_fmt(v) for v in game.final))
    return 0


def cmd_addin(args: argparse.Namespace) -> int:
    from umaoka.addin.setup import addin_config, addin_instructions

    if args.config:
        for key, value in addin_config():
            print(f"{key}\t{value}")
    else:
        print(addin_instructions(), end="")
    return 0


def cmd_lite(args: argparse.Namespace) -> int:
    from umaoka.addin.lite import write_lite

    for path in write_lite(args.dir, force=args.force):
        print(f"wrote {path}")
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
    new.add_argument("--players", metavar="NAME,NAME", help="the roster")
    new.add_argument("--lang", choices=("en", "ja"), default="en")
    _runtime_options(new)
    new.add_argument("--force", action="store_true", help="replace an existing file")
    new.set_defaults(func=cmd_new)

    demo = sub.add_parser("demo", help="write a sample league (filled and settled) and print "
                          "its standings")
    demo.add_argument("dir", metavar="DIR", nargs="?", default=".", help="folder (default: .)")
    demo.add_argument("--games", type=int, default=120, metavar="N", help="games (default 120)")
    demo.add_argument("--lang", choices=("en", "ja"), default="en")
    _runtime_options(demo)
    demo.add_argument("--force", action="store_true", help="replace existing files")
    demo.set_defaults(func=cmd_demo)

    rt = sub.add_parser("runtime", help="write a copy of a league workbook with formulas for "
                        "another add-in runtime",
                        description="Reads the rules, roster and games like `settle` and "
                        "writes the workbook again with formulas for the chosen runtime (sheets "
                        "added by hand are not copied). The input is never changed.")
    rt.add_argument("input", metavar="IN.xlsx")
    rt.add_argument("--to", required=True, choices=("lite", "classic", "server"),
                    help="the runtime the new file's formulas are for")
    rt.add_argument("--namespace", metavar="NS", default=None,
                    help="xlwings Server's function namespace (default XLWINGS; \"\" for none)")
    rt.add_argument("-o", "--output", metavar="OUT.xlsx",
                    help="output file (default: IN_<runtime>.xlsx)")
    rt.add_argument("--force", action="store_true", help="replace an existing output file")
    rt.set_defaults(func=cmd_runtime)

    st = sub.add_parser("settle", help="write a settled copy of a filled template (plain "
                        "values, no formulas)")
    st.add_argument("input", metavar="IN.xlsx")
    st.add_argument("-o", "--output", metavar="OUT.xlsx",
                    help="output file (default: IN_settled.xlsx)")
    st.add_argument("--force", action="store_true", help="replace an existing output file")
    st.set_defaults(func=cmd_settle)

    batch = sub.add_parser("batch", help="settle a folder of CSV files of games into one "
                           "league workbook each",
                           description="CSV columns: date,session,table,game,east,east_score,"
                           "south,south_score,west,west_score,north,north_score,deposits"
                           "[,east_penalty,south_penalty,west_penalty,north_penalty]")
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
    calc.set_defaults(func=cmd_calc)

    addin = sub.add_parser("addin", help="how to set up umaoka's Excel functions (xlwings)")
    addin.add_argument("--config", action="store_true",
                       help="print only the xlwings.conf rows (key<TAB>value)")
    addin.set_defaults(func=cmd_addin)

    lite = sub.add_parser("lite", help="write main.py and requirements.txt for xlwings Lite")
    lite.add_argument("dir", metavar="DIR")
    lite.add_argument("--force", action="store_true", help="replace existing files")
    lite.set_defaults(func=cmd_lite)
    return p


def _runtime_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--runtime", choices=("lite", "classic", "server"), default="lite",
                   help="the add-in the formulas are written for: xlwings Lite (free, any "
                   "Excel 2021/365; default), classic xlwings (Windows, VBA functions) or "
                   "xlwings Server")
    p.add_argument("--namespace", metavar="NS", default=None,
                   help="with --runtime server: its function namespace (default XLWINGS; "
                   '"" for none)')


def _fail(message: str, status: int) -> int:
    text = " ".join(str(message).split())
    print(f"{PROG}: error: {text}", file=sys.stderr)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
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
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except PermissionError as e:
        return _fail(f"permission denied: {e.filename or e}", 1)
    except OSError as e:
        where = f": {e.filename}" if getattr(e, "filename", None) else ""
        return _fail(f"{e.strerror or e}{where}", 1)
    except (zipfile.BadZipFile, ValueError, KeyError) as e:
        return _fail(f"{type(e).__name__}: {e}", 2)
    except Exception as e:  # never a traceback for the person at the terminal
        if os.environ.get("UMAOKA_DEBUG"):
            raise
        return _fail(f"unexpected {type(e).__name__}: {e} (set UMAOKA_DEBUG=1 for details)", 1)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
