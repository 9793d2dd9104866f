"""Shared places (the ruleset's ``shared_place``): two players tied for 3rd-4th, and two
tied for 2nd-3rd, counted by one rule in every statistic and every view.

Three games under M.League rules (ties split), so tied players share a place:

- game 1: Aki 45,000, Ben 30,000, Chie and Dan 12,500 each (Chie and Dan tied for 3rd-4th)
- game 2: Ben 40,000, Chie 25,000, Aki 20,000, Dan 15,000
- game 3: Aki 40,000, Ben and Chie 25,000 each (tied for 2nd-3rd), Dan 10,000

The expected figures are worked out by hand for each rule (``better``: a shared place is
the better one; ``worse``: the worse one; ``split``: half of each) and checked in the
engine's standings and stats, MJ_STANDINGS, ``umaoka stats``, ``umaoka batch`` (the
settled copy), the template's saved values and the template recalculated by LibreOffice.
Before ``shared_place``, the batch standings counted Dan's game 1 as a 3rd in the place
counts but as a last in the last-avoid rate: these figures hold every view to one rule.
"""

from __future__ import annotations

import shutil
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

from umaoka.addin.cli.app import main
from umaoka.addin.functions.standings import MJ_STANDINGS
from umaoka.engine import ruleset, settle
from umaoka.engine.season.stats import head_to_head, player_stats
from umaoka.engine.standings import standings
from umaoka.templates.book.layout import league_cols
from umaoka.templates.book.model import Book, Game, League, Rules
from umaoka.templates.book.results import settle_league
from umaoka.templates.build import build_workbook
from umaoka.templates.settle_book import write_settled
from umaoka.templates.xlsx.io import save_workbook

NAMES = [["Aki", "Ben", "Chie", "Dan"], ["Ben", "Chie", "Aki", "Dan"],
         ["Aki", "Ben", "Chie", "Dan"]]
SCORES = [[45000, 30000, 12500, 12500], [40000, 25000, 20000, 15000],
          [40000, 25000, 25000, 10000]]
RULES = ("better", "worse", "split")

#: rule -> player -> (1st, 2nd, 3rd, 4th counts, average place, top rate, last-avoid rate,
#: top-two rate)
EXPECTED: dict[str, dict[str, tuple[Any, ...]]] = {
    "better": {
        "Aki": ((2, 0, 1, 0), "1.67", "0.6667", "1.0000", "0.6667"),
        "Ben": ((1, 2, 0, 0), "1.67", "0.3333", "1.0000", "1.0000"),
        "Chie": ((0, 2, 1, 0), "2.33", "0.0000", "1.0000", "0.6667"),
        "Dan": ((0, 0, 1, 2), "3.67", "0.0000", "0.3333", "0.0000"),
    },
    "worse": {
        "Aki": ((2, 0, 1, 0), "1.67", "0.6667", "1.0000", "0.6667"),
        "Ben": ((1, 1, 1, 0), "2.00", "0.3333", "1.0000", "0.6667"),
        "Chie": ((0, 1, 1, 1), "3.00", "0.0000", "0.6667", "0.3333"),
        "Dan": ((0, 0, 0, 3), "4.00", "0.0000", "0.0000", "0.0000"),
    },
    "split": {
        "Aki": ((2, 0, 1, 0), "1.67", "0.6667", "1.0000", "0.6667"),
        "Ben": ((1, "1.5", "0.5", 0), "1.83", "0.3333", "1.0000", "0.8333"),
        "Chie": ((0, "1.5", 1, "0.5"), "2.67", "0.0000", "0.8333", "0.5000"),
        "Dan": ((0, 0, "0.5", "2.5"), "3.83", "0.0000", "0.1667", "0.0000"),
    },
}


def rules_text(rule: str) -> str:
    return f"mleague; shared_place={rule}"


def close(got: Any, want: Any, within: str) -> bool:
    return abs(Decimal(str(got)) - Decimal(str(want))) <= Decimal(within)


def check_line(rule: str, name: str, counts: Any, average_place: Any, top: Any,
               last_avoid: Any, within: str = "0") -> None:
    """One standings line against the expected figures (``within``: 0 for the engine's
    rounded values, a little for a live cell's unrounded ratio)."""
    want = EXPECTED[rule][name]
    assert [Decimal(str(c)) for c in counts] == [Decimal(str(c)) for c in want[0]], \
        (rule, name, counts)
    # a live cell's average place is unrounded, the engine's to 0.01
    assert close(average_place, want[1], "0.005" if within != "0" else "0"), \
        (rule, name, average_place)
    assert close(top, want[2], within or "0"), (rule, name, top)
    assert close(last_avoid, want[3], within or "0"), (rule, name, last_avoid)


def games(rule: str) -> list[tuple[list[str], Any]]:
    return [(n, settle(s, rules_text(rule))) for n, s in zip(NAMES, SCORES)]


@pytest.mark.parametrize("rule", RULES)
def test_engine_standings_and_stats(rule: str) -> None:
    lines = standings(games(rule), shared_place=rule)
    for p in lines:
        check_line(rule, p.name, p.places, p.average_place, p.top_rate, p.last_avoid_rate)
    stats = {p.name: p for p in player_stats(games(rule), rule)}
    for name, want in EXPECTED[rule].items():
        assert stats[name].top_two_rate == Decimal(want[4]), (rule, name)
    # the ruleset carries the rule: standings of the same games agree through it
    assert ruleset(rules_text(rule)).shared_place == rule


def test_head_to_head_place_difference_follows_the_rule() -> None:
    # Ben against Chie: game 1 2nd vs 3rd-4th, game 2 1st vs 2nd, game 3 tied for 2nd-3rd
    diffs = {rule: next(h for h in head_to_head(games(rule), "Ben", rule) if h.opponent == "Chie")
             for rule in RULES}
    assert {r: h.place_diff for r, h in diffs.items()} == {
        "better": Decimal("0.67"),   # (1 + 1 + 0) / 3
        "worse": Decimal("1.00"),    # (2 + 1 + 0) / 3
        "split": Decimal("0.83")}    # (1.5 + 1 + 0) / 3
    assert all((h.ahead, h.behind) == (2, 0) for h in diffs.values())


@pytest.mark.parametrize("rule", RULES)
def test_mj_standings(rule: str) -> None:
    finals = [[float(f) for f in s.final] for _, s in games(rule)]
    for given in (rule, rules_text(rule)):  # the rule itself, or a ruleset
        table = MJ_STANDINGS(NAMES, finals, True, SCORES, given)
        head = table[0]
        for row in table[1:]:
            got = dict(zip(head, row))
            check_line(rule, got["Player"], [got["1st"], got["2nd"], got["3rd"], got["4th"]],
                       got["Avg place"], got["Top rate"], got["Last-avoid rate"])
            assert got["Top-two rate"] == float(EXPECTED[rule][got["Player"]][4])
    if rule == "better":  # blank: better, as the standings always counted places
        assert MJ_STANDINGS(NAMES, finals) == MJ_STANDINGS(NAMES, finals, None, None, "better")


def write_csv(path: Path) -> Path:
    rows = ["date,session,table,game,east,east_score,south,south_score,west,west_score,"
            "north,north_score,deposits"]
    for k, (names, scores) in enumerate(zip(NAMES, SCORES), 1):
        seats = ",".join(f"{n},{s}" for n, s in zip(names, scores))
        rows.append(f"2026-04-04,1,1,{k},{seats},")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("rule", RULES)
def test_cli_stats(rule: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    csv = write_csv(tmp_path / "night.csv")
    assert main(["stats", str(csv), "--ruleset", rules_text(rule), "--h2h", "Ben"]) == 0
    out, err = capsys.readouterr()
    assert not err
    for name, want in EXPECTED[rule].items():
        line = next(x for x in out.splitlines() if x.strip().startswith(name + " "))
        assert f"{Decimal(want[4]) * 100:.1f}%" in line.split()[2], (rule, line)
    assert f"counts as the {rule} place" in " ".join(out.split()) if rule != "split" else \
        "a shared place is split" in " ".join(out.split())


def standings_rows(ws: Any) -> dict[str, list[Any]]:
    """A Standings sheet's visible lines by player (row 5 on)."""
    return {row[1]: list(row) for row in ws.iter_rows(min_row=5, max_row=20, values_only=True)
            if row[1] not in (None, "")}


def stats_rows(ws: Any) -> dict[str, list[Any]]:
    return {row[0]: list(row) for row in ws.iter_rows(min_row=5, max_row=20, values_only=True)
            if row[0] not in (None, "")}


def check_sheets(rule: str, standings_ws: Any, stats_ws: Any, within: str = "0") -> None:
    lines = standings_rows(standings_ws)
    assert sorted(lines) == sorted(EXPECTED[rule])
    for name, row in lines.items():
        # Rank, Player, Games, Total, Average, Avg place, 1st-4th, top rate, 2nd-4th rates,
        # last-avoid rate
        check_line(rule, name, row[6:10], row[5], row[10], row[14], within or "0.00005")
        for k in range(4):  # every place's rate from the same counts
            assert close(row[10 + k], Decimal(str(row[6 + k])) / 3, "0.00005")
    for name, row in stats_rows(stats_ws).items():
        assert close(row[2], EXPECTED[rule][name][4], "0.00005"), (rule, name, row)
    note = standings_ws["A3"].value
    assert f"the {rule} place" in note if rule != "split" else "are split" in note
    assert stats_ws["A3"].value == note


@pytest.mark.parametrize("rule", RULES)
def test_batch_settled_copy(rule: str, tmp_path: Path,
                            capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "csv"
    folder.mkdir()
    write_csv(folder / "night.csv")
    assert main(["batch", str(folder), "--ruleset", rules_text(rule)]) == 0
    capsys.readouterr()
    wb = load_workbook(folder / "night.xlsx")
    check_sheets(rule, wb["night Standings"], wb["night Stats"])
    streaks = {r[0]: r[9] for r in stats_rows(wb["night Stats"]).values()}
    # no-last streak: Dan is never wholly clear of last except under better (game 1 3rd)
    assert streaks["Dan"] == (1 if rule == "better" else 0)


def three_rule_book() -> Book:
    """One league tab per rule, the same three games in each."""
    rules = [Rules(f"r-{rule}", ruleset(rules_text(rule))) for rule in RULES]
    leagues = [League(rule, rules=k, games=[Game(session=1, players=list(n), scores=list(s),
                                                 penalties=[None] * 4)
                                            for n, s in zip(NAMES, SCORES)])
               for k, rule in enumerate(RULES)]
    return Book(rules, leagues, players=["Aki", "Ben", "Chie", "Dan"])


def test_settled_copy_of_a_book_with_a_rule_per_league(tmp_path: Path) -> None:
    book = three_rule_book()
    write_settled(book, tmp_path / "settled.xlsx")
    wb = load_workbook(tmp_path / "settled.xlsx")
    for rule in RULES:
        check_sheets(rule, wb[f"{rule} Standings"], wb[f"{rule} Stats"])
    # the overall standings add each league's games under its own rule: Dan, 9 games
    overall = standings_rows(wb["Standings"])["Dan"]
    assert overall[6:10] == [0, 0, 1.5, 7.5]
    assert close(overall[14], Decimal(1) - Decimal("7.5") / 9, "0.00005")


def test_template_saved_values(tmp_path: Path) -> None:
    path = tmp_path / "template.xlsx"
    save_workbook(build_workbook(three_rule_book()), path)
    wb = load_workbook(path, data_only=True)
    for rule in RULES:
        check_sheets(rule, wb[f"{rule} Standings"], wb[f"{rule} Stats"], "0.00005")
    formulas = load_workbook(path)
    for rule in RULES:
        ws = formulas[f"{rule} Standings"]
        assert f"'Rules - r-{rule}'!$B$17" in ws["A3"].value  # follows the Rules cell
        longest = max(len(str(c.value)) for row in ws.iter_rows() for c in row
                      if isinstance(c.value, str) and c.value.startswith("="))
        assert longest <= 8192


SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_template_recalculated_by_libreoffice(tmp_path: Path) -> None:
    """The live formulas (the standings' SUMPRODUCTs over the tab's places, the Stats
    sheet's top-two rate from the standings' counts) give the same figures as the engine,
    once MJ_SETTLE's finals are in the tabs as values; then the Rules sheet's shared_place
    of the better league is changed to split and the formulas follow it."""
    from test_libreoffice import convert

    book = three_rule_book()
    src = tmp_path / "template.xlsx"
    save_workbook(build_workbook(book), src)
    wb = load_workbook(src)
    for league in book.leagues:
        cols = league_cols(league, 4)
        outcomes = settle_league(league, book.rules_of(league).ruleset)
        for i, o in enumerate(outcomes):
            for seat, c in enumerate(cols.results):
                wb[league.name].cell(5 + i, c).value = float(o.settlement.final[seat])
    wb["Rules - r-better"]["B17"].value = "split"  # the better league now splits
    filled = tmp_path / "filled.xlsx"
    wb.save(filled)
    back = load_workbook(convert(filled, "xlsx", tmp_path), data_only=True)
    for rule, sheet in (("worse", "worse"), ("split", "split"), ("split", "better")):
        check_sheets(rule, back[f"{sheet} Standings"], back[f"{sheet} Stats"], "0.00005")
