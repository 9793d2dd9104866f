"""``umaoka season``: run a season from a season file and CSV files, print its standings.

The season file is INI (``[season]``, ``[stage NAME]``..., ``[teams]``) or JSON; games
are CSV files with the columns of ``umaoka batch`` plus ``stage``, ``east_chips``...
and ``east_sub``... (a game known only by its finals gives ``east_final``... instead of
scores, or is a row of ``umaoka import``'s finals CSV: ``first``, ``first_final``...);
the penalty log is a CSV file with the columns date, stage, player, team, points, reason.
Tables are plain text that fits 80 columns.
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
import textwrap
from collections.abc import Iterator, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

from rich.cells import cell_len, set_cell_size

from umaoka.addin.cli.base import (
    PROG,
)
from umaoka.addin.cli.tables import (
    shown,
)
from umaoka.engine import UmaokaError
from umaoka.engine.online.imported import csv_plain, visible
from umaoka.engine.season.gamelog import ORDER, SEATS
from umaoka.engine.season.ranking import SEEDED, TIE_BREAKS, TIE_BREAKS_JA, StandingLine
from umaoka.engine.season.settings import read_season
from umaoka.engine.season.stages import (
    Season,
    SeasonResult,
    Stage,
    StageResult,
    carry_rounding_of,
    run_season,
)
from umaoka.templates.book.labels import label
from umaoka.templates.xlsx.io import read_text

WIDTH = 80
MAX_BYTES = 50 * 1024 * 1024


def _read_text(path: Path, what: str) -> str:
    return read_text(path, f"the {what} file", MAX_BYTES)


def load_season(path: Path) -> Season:
    """The season file: JSON when it ends in .json, else INI."""
    text = _read_text(path, "season")
    try:
        return read_season(text, "json" if path.suffix.lower() == ".json" else "ini")
    except UmaokaError as e:
        raise UmaokaError(f"{path.name}: {e}") from None


def _rows(path: Path, what: str) -> tuple[list[str], Iterator[tuple[int, dict[str, Any]]]]:
    text = _read_text(path, what)
    if not text.strip():
        raise UmaokaError(f"{path.name} is empty; give a CSV file with a header row and one "
                          "game a line.")
    reader = csv.DictReader(io.StringIO(text, newline=""))

    def unreadable(e: csv.Error) -> UmaokaError:  # a field over 131,072 characters, say
        return UmaokaError(f"{path.name} line {reader.reader.line_num} cannot be read as CSV "
                           f"({e}); save the file from Excel as CSV UTF-8.")

    try:
        header = [str(h or "").strip().lower() for h in (reader.fieldnames or [])]
    except csv.Error as e:
        raise unreadable(e) from None
    reader.fieldnames = header

    def rows() -> Iterator[tuple[int, dict[str, Any]]]:
        try:
            for row in reader:
                if any(str(v or "").strip() for v in row.values()):
                    yield reader.line_num, {k: csv_plain(v) if isinstance(v, str) else v
                                            for k, v in row.items()}
        except csv.Error as e:
            raise unreadable(e) from None
    return header, rows()


def game_rows(path: Path, season: Season) -> list[dict[str, Any]]:
    """A games CSV as rows for the engine, each labelled with its file and line."""
    header, rows = _rows(path, "games CSV")
    n = season.stages[0].ruleset.players
    need = [c for s in SEATS[:n] for c in (s, f"{s}_score")]
    ways = [need, [c for s in SEATS[:n] for c in (s, f"{s}_final")],
            [c for s in ORDER[:n] for c in (s, f"{s}_final")]]  # scores, or finals only
    if any(all(c in header for c in way) for way in ways[1:]):
        need = next(w for w in ways if all(c in header for c in w))
    if len(season.stages) > 1:
        need.insert(0, "stage")
    missing = [c for c in need if c not in header]
    if missing:
        raise UmaokaError(f"{path.name} lacks the column(s) {', '.join(missing)}; it needs "
                          f"{','.join(need)} (and optionally date, deposits, east_penalty, "
                          "east_chips, east_sub... per seat; a game known only by its finals "
                          "gives east_final... or first,first_final... instead of scores).")
    return [{**row, "_label": f"{path.name} row {line}"} for line, row in rows]


def penalty_rows(path: Path) -> list[dict[str, Any]]:
    header, rows = _rows(path, "penalties CSV")
    if "points" not in header or not {"player", "team"} & set(header):
        raise UmaokaError(f"{path.name} needs the columns points and player (or team); the "
                          "penalty log's columns are date,stage,player,team,points,reason.")
    return [{**row, "_label": f"{path.name} row {line}"} for line, row in rows]


# ------------------------------------------------------------------------------------------------
# Plain-text tables that fit 80 columns (names are shortened with … when they must be).


def _num(v: Decimal | None, sign: bool = True) -> str:
    if v is None:
        return "-"
    if not v:
        return "0"
    return f"{v:+}" if sign else f"{v}"


def table(header: Sequence[str], rows: Sequence[Sequence[str]], left: Sequence[int] = (1,),
          width: int = WIDTH) -> list[str]:
    """Columns separated by two spaces; columns in ``left`` are left-aligned and shrink
    (widest first) until the table fits ``width``. Control characters in a cell (a name)
    are written out (``\\x1b``) before measuring, as the terminal will show them."""
    rows = [[visible(c) for c in r] for r in rows]
    widths = [max([cell_len(h)] + [cell_len(r[i]) for r in rows]) for i, h in enumerate(header)]
    while sum(widths) + 2 * (len(widths) - 1) > width:
        shrinkable = [i for i in left if widths[i] > 6]
        if not shrinkable:
            break
        widths[max(shrinkable, key=lambda i: widths[i])] -= 1

    def fmt(cells: Sequence[str]) -> str:
        out = []
        for i, c in enumerate(cells):
            if cell_len(c) > widths[i]:
                c = set_cell_size(c, widths[i] - 1).rstrip() + "…"
            pad = " " * (widths[i] - cell_len(c))
            out.append(c + pad if i in left else pad + c)
        return "  ".join(out).rstrip()
    return [fmt(header), *(fmt(r) for r in rows)]


def _note(line: StandingLine, lang: str = "en") -> str:
    notes = []
    if line.advanced:
        notes.append(label("r_on", lang))
    if line.tie_break:
        notes.append(f"tb:{line.tie_break}")
    if SEEDED in line.flags:
        notes.append(label("r_seed", lang))
    if any(f != SEEDED for f in line.flags):
        notes.append(label("r_caps", lang))
    return ",".join(notes)


def _places(lines: Sequence[StandingLine], unit: int) -> int:
    """Decimals for a stage table's points: the stage's unit (0 for whole points, 1 for
    tenths), more only when a number needs them (a carry kept exact: 4.35)."""
    need = unit
    for p in lines:
        for v in (p.carried, p.points, p.chips, p.penalties, p.total):
            if v:
                need = max(need, -min(0, int(v.normalize().as_tuple().exponent)))
    return need


def _fixed(v: Decimal | None, places: int) -> str:
    """A signed number with ``places`` decimals; 0 as 0, None as -."""
    if v is None:
        return "-"
    return f"{v:+.{places}f}" if v else "0"


def stage_table(lines: Sequence[StandingLine], kind: str, carries: bool,
                lang: str = "en", unit: int = 1) -> list[str]:
    """The standings of players or teams in one stage (``carries``: show a Carried column;
    ``kind``: "Player" or "Team"; ``unit``: the stage's decimals, 0 for whole points).
    Carried, Points, Chips, Pen. and Total share one number of decimals."""
    players = kind == "Player"
    show_team = players and any(p.team for p in lines)
    show_carry = carries or any(p.carried for p in lines)
    show_chips = any(p.chip_count for p in lines)
    show_pen = any(p.penalties for p in lines)
    keys = ["r_rank", "r_player" if players else "r_team"] + (["r_team"] if show_team else []) \
        + ["r_g"] + (["r_carried"] if show_carry else []) + ["r_points"] \
        + (["r_chips"] if show_chips else []) + (["r_pen"] if show_pen else []) \
        + ["r_total", "r_avg", "r_note"]
    header = [label(k, lang) for k in keys]
    places = _places(lines, unit)
    rows = []
    for p in lines:
        row = ["-" if p.rank is None else str(p.rank), p.name]
        row += [p.team or ""] if show_team else []
        row.append(str(p.games))
        row += [_fixed(p.carried, places)] if show_carry else []
        row.append(_fixed(p.points, places))
        row += [_fixed(p.chips, places)] if show_chips else []
        row += [_fixed(p.penalties, places)] if show_pen else []
        row += [_fixed(p.total, places), _num(p.average), _note(p, lang)]
        rows.append(row)
    return table(header, rows, left=(1, 2, len(header) - 1) if show_team else (1,
                                                                               len(header) - 1))


def _games(n: int, lang: str = "en") -> str:
    return label("r_game", lang) if n == 1 else label("r_games", lang, n=n)


def _share(factor: Decimal, lang: str = "en") -> str:
    key = {Decimal(1): "r_share_all", Decimal("0.5"): "r_share_half"}.get(factor)
    return label(key, lang) if key else label("r_share", lang, factor=f"{factor:f}")


def _rounded(stage: Stage, lang: str = "en") -> str:
    """How a stage's carried points are rounded, in words."""
    mode = carry_rounding_of(stage.carry_rounding, stage.ruleset)
    if mode == "exact":
        return label("r_exact", lang)
    unit = "0.1" if stage.ruleset.rounding == "none" else label("r_whole", lang)
    return label("r_rounded", lang, unit=unit, mode=mode)


def _wrap(line: str) -> list[str]:
    """A line cut to the report's width; Japanese characters take two columns each."""
    if cell_len(line) <= WIDTH:
        return [line]
    wide = cell_len(line) > len(line)  # then textwrap's character count is not the width
    return textwrap.wrap(line, WIDTH // 2 if wide else WIDTH, subsequent_indent="  ")


def stage_lines(result: StageResult, next_stage: str | None, competition: str,
                lang: str = "en") -> list[str]:
    st = result.stage
    head = label("r_stage", lang, name=st.name, games=_games(result.games, lang),
                 rules=st.ruleset.name, ranking=label(f"r_rank_{st.ranking}", lang))
    out = [head, "=" * min(cell_len(head), WIDTH)]
    if st.carry:
        unit = label("r_unit_team" if competition == "team" else "r_unit_player", lang)
        out.append(label("r_carried_in", lang, share=_share(st.carry, lang), unit=unit,
                         rounded=_rounded(st, lang)))
    for kind, lines in (("Team", result.teams), ("Player", result.players)):
        if not lines:
            continue
        out.append("")
        carries = bool(st.carry) and (kind == "Team") == (competition == "team")
        ranked = [p for p in lines if p.qualified]
        rest = [p for p in lines if not p.qualified]
        # one table for both, so the lines not ranked have the ranked lines' columns (a
        # table of their own dropped Chips and Pen. when they had none, and its numbers
        # then stood under the wrong headers)
        shown = stage_table([*ranked, *rest], kind, carries, lang,
                            0 if st.ruleset.rounding != "none" else 1)
        out += shown[:1 + len(ranked)] if ranked else []
        if rest:
            out += [""] if ranked else []
            out += [label("r_not_ranked", lang, games=_games(st.min_games, lang))]
            out += shown[1 + len(ranked):] if ranked else shown
    used = {p.tie_break for p in (*result.players, *result.teams) if p.tie_break}
    legend = []
    if result.advanced:
        n = len(result.advanced)  # advance = 100 with 4 players: all 4, not "top 100"
        who = label("r_top", lang, n=st.advance) if n >= (st.advance or 0) \
            else label("r_all", lang, n=n)
        legend.append(label("r_goes_on", lang, on=label("r_on", lang), stage=next_stage,
                            who=who))
    ties = TIE_BREAKS if lang == "en" else TIE_BREAKS_JA
    legend += [label("r_tie", lang, code=t, how=ties[t]) for t in sorted(used)]
    if any(SEEDED in p.flags for p in (*result.players, *result.teams)):
        legend.append(label("r_seeded", lang, seed=label("r_seed", lang)))
    if any(f != SEEDED for p in result.players for f in p.flags):
        legend.append(label("r_outside_caps", lang, caps=label("r_caps", lang),
                            range=st.game_caps.text() if st.game_caps else ""))
    out += [""] + legend if legend else []
    out += [label("r_stage_note", lang, text=n) for n in result.notes]
    return [w for line in out for w in _wrap(line)]


def season_flags(result: SeasonResult, lang: str = "en") -> list[str]:
    """The game-cap flags of every stage, ``Stage: NAME ...``, in ``lang`` (the engine's
    own words for them: :meth:`GameCaps.flag`)."""
    if lang != "ja":
        return list(result.flags)
    out = []
    for r in result.stages:
        caps = r.stage.game_caps
        for p in r.players:
            text = caps.flag(p.games - p.substituted, "ja") if caps and p.flags else None
            out += [f"{r.stage.name}: {p.name} {text}"] if text else [
                f"{r.stage.name}: {p.name} {f}" for f in p.flags]
    return out


def warning(text: str, lang: str | None = "en") -> None:
    """``umaoka: warning: TEXT`` on stderr (``警告`` in Japanese; the sentence itself is
    the engine's, in English)."""
    print(f"{PROG}: {label('r_warning_prefix', lang or 'en')}: {shown(text)}", file=sys.stderr)


def season_report(result: SeasonResult, stage: str | None = None,
                  lang: str = "en") -> list[str]:
    """Every stage (or one), then the penalty log and the game-cap flags, as lines of text
    in ``lang`` (the engine's other sentences, such as a stage's notes, stay English)."""
    stages = result.season.stages
    wanted = [result.season.stage(stage).name] if stage else [s.name for s in stages]
    out: list[str] = [result.season.name, ""]
    for i, r in enumerate(result.stages):
        if r.stage.name in wanted:
            nxt = stages[i + 1].name if i + 1 < len(stages) else None
            out += stage_lines(r, nxt, result.season.competition, lang) + [""]
    pens = [p for p in result.penalties if p.stage is None or not stage
            or p.stage.casefold() == stage.casefold()]
    if pens:
        head = label("r_penalty_log", lang)
        out += [head, "-" * cell_len(head)]
        rows = [[str(p.date or ""), p.stage or "", p.name, _num(p.points), p.reason]
                for p in pens]
        out += table([label(k, lang) for k in ("r_date", "r_stage_col", "r_who", "r_points",
                                               "r_reason")], rows, left=(0, 1, 2, 4)) + [""]
    flags = [f for f in season_flags(result, lang)
             if not stage or f.startswith(f"{wanted[0]}: ")]
    if flags:
        head = label("r_flags", lang)
        out += [head, "-" * cell_len(head)] + [w for f in flags for w in _wrap(f)] + [""]
    return out


def run(season_path: Path, games: Sequence[Path], penalties: Sequence[Path],
        stage: str | None = None, lang: str = "en") -> tuple[list[str], tuple[str, ...]]:
    """The report's lines and the problems (rows left out) of a season run from files."""
    season = load_season(season_path)
    game_list = [row for path in games for row in game_rows(path, season)]
    pen_list = [row for path in penalties for row in penalty_rows(path)]
    result = run_season(season, game_list, pen_list)
    return season_report(result, stage, lang), result.problems


#: What a league workbook's name ends in (``umaoka season league.xlsx``).
BOOK_SUFFIXES = (".xlsx", ".xlsm")


def run_book(path: Path, stage: str | None = None, lang: str | None = None
             ) -> tuple[list[str], tuple[str, ...]]:
    """The report's lines and problems of a league workbook's season: its Season sheet,
    its league tabs and its penalty log, run as the Season standings run them (``lang``:
    default the workbook's)."""
    from umaoka.templates.book.season_book import season_result
    from umaoka.templates.settle_book import read_book
    from umaoka.templates.xlsx.formats import check_spreadsheet

    check_spreadsheet(path)
    book = read_book(path)
    if book.season is None:
        raise UmaokaError(f"{path.name} has no Season sheet; add one with `umaoka add "
                          f"{path.name} --season season.ini` (or --teams, --chips), or give "
                          "a season file and CSV files of games.")
    result = season_result(book)
    return season_report(result, stage, lang or book.lang), result.problems


def cmd_season(args: argparse.Namespace) -> int:
    path = Path(args.season)
    if path.suffix.lower() in BOOK_SUFFIXES:
        if args.games or args.penalties:
            raise UmaokaError(f"{path.name} holds its own games and penalty log; leave out "
                              "the CSV files (or give a season file with them).")
        lines, problems = run_book(path, args.stage, args.lang)
    else:
        if not args.games:
            raise UmaokaError("give the CSV files of games after the season file, or a league "
                              "workbook (league.xlsx) instead of both.")
        lines, problems = run(path, [Path(p) for p in args.games],
                              [Path(p) for p in args.penalties or ()], args.stage,
                              args.lang or "en")

    for line in problems:
        warning(line, args.lang)
    print("\n".join(shown(line) for line in lines).rstrip())
    return 0


def add_commands(sub: Any) -> None:
    """Add ``umaoka season`` to the ``umaoka`` parser's subcommands."""

    season = sub.add_parser("season", help="run a league season (stages, teams, penalties, "
                            "chips) from a league workbook, or a season file and CSV files "
                            "of games",
                            description="SEASON is a league workbook (league.xlsx: its "
                            "Season sheet, league tabs and penalty log, as its Season "
                            "standings show them), or an INI file ([season], [stage NAME]..., "
                            "[teams]) or a .json file with GAMES, CSV files with the batch "
                            "columns plus stage, east_chips... and east_sub...")
    season.add_argument("season", metavar="SEASON", help="the league workbook (.xlsx), or the "
                        "season file (.ini or .json)")
    season.add_argument("games", metavar="GAMES.csv", nargs="*", help="games, one per row "
                        "(with a season file)")
    season.add_argument("--penalties", metavar="PENALTIES.csv", action="append",
                        help="the penalty log: date,stage,player,team,points,reason")
    season.add_argument("--stage", metavar="NAME", help="print only this stage")
    season.add_argument("--lang", choices=("en", "ja"), default=None,
                        help="language of the report's headings and columns (default: the "
                        "workbook's, or en)")
    season.set_defaults(func=cmd_season)
