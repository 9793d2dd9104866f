"""One game, one hand, online rank points: presets, calc, hand and rankpoints."""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path
from typing import Any

from umaoka.addin.cli.base import (
    PROG,
    UsageError,
    _split,
)
from umaoka.addin.cli.tables import (
    _console,
    _fmt,
    _fmt_row,
    markup,
    shown,
)
from umaoka.engine import PRESETS, UmaokaError, ruleset, settle


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
        t = s.replace(",", "").strip()
        # plain digits only: int() would also read 1_000; the engine says what is wrong
        digits = t[1:] if t[:1] in ("+", "-") else t
        scores.append(int(t) if digits.isdecimal() and len(t) <= 15 else s)
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


def _rank_title(p: Any) -> str:
    client = "Tenhou" if p.system == "tenhou" else "Mahjong Soul"
    return f"{client} rank points: {p.room} room, {p.length}, {p.players} players"


def cmd_rankpoints(args: argparse.Namespace) -> int:
    from rich.table import Table

    from umaoka.engine.online.rankpoints import game_rank_points, rank_points
    from umaoka.engine.online.ranks import (
        SOUL_START,
        SOUL_UMA,
        player_count,
        room_system,
        system_name,
    )

    n = player_count(args.players)
    # `--room jade` with the default system (tenhou): the flag to add, not just the rooms
    home = room_system(args.room)
    if home is not None and home != system_name(args.system):
        client = "Mahjong Soul" if home == "mahjongsoul" else "Tenhou"
        default = " (the default system is tenhou)" if args.system == "tenhou" else ""
        raise UsageError(f"{shown(args.room)} is a {client} room; "
                         f"{'add' if default else 'use'} --system {home}{default}.")
    if args.csv:
        return _rankpoints_csv(args, n)
    ranks = _split(args.rank) or [args.rank or ""]
    results = [r.replace(",", "") for r in args.results]
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
    rows = sorted(standings(games, rank_points=rule, shared_place=rules.shared_place),
                  key=lambda p: -(p.rank_points or 0))
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


def add_commands(sub: Any) -> None:
    """Add this module's commands to the ``umaoka`` parser's subcommands."""

    pr = sub.add_parser("presets", help="list the built-in rulesets")
    pr.set_defaults(func=cmd_presets)

    calc = sub.add_parser("calc", help="settle one game and show every step")
    calc.add_argument("scores", metavar="SCORE", nargs="+",
                      help="raw points in seat order, East first (negative allowed)")
    calc.add_argument("--ruleset", default="standard", metavar="NAME_OR_TEXT")
    calc.add_argument("--deposits", default=0, metavar="N",
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
    hd.add_argument("--honba", default=0, metavar="N", help="honba counters")
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
