"""``umaoka post``: the standings as a PNG for a phone and a self-contained HTML page.

Run as a user runs it (a subprocess, a plain environment), on the demo league and on a
league without a season; every name and total on the page is checked against the settled
copy that ``umaoka settle`` writes from the same workbook (one league, one truth), and the
picture against its documented width.
"""

from __future__ import annotations

import os
import re
import struct
import subprocess
import sys
from decimal import Decimal
from html.parser import HTMLParser
from pathlib import Path

import pytest
from openpyxl import load_workbook

from umaoka.templates.post import WIDTH
from umaoka.templates.post.content import points

UMAOKA = [sys.executable, "-c", "import sys; from umaoka.addin.cli.app import main; "
          "sys.exit(main())"]


def _env() -> dict[str, str]:
    """The user's environment: no test-only variable of ours or of xlwings'."""
    return {k: v for k, v in os.environ.items() if not k.startswith("XLWINGS")}


def run(*args: str, cwd: Path, ok: bool = True) -> subprocess.CompletedProcess[str]:
    r = subprocess.run([*UMAOKA, *args], cwd=cwd, env=_env(), capture_output=True,
                       text=True, timeout=300)
    if ok:
        assert r.returncode == 0, r.stdout + r.stderr
    return r


class _Tables(HTMLParser):
    """Every table of a page: its header and its rows, as text."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def page_lines(html: str, total: str = "Total") -> list[tuple[str, Decimal]]:
    """(name, total) of every line of every table of the page."""
    parser = _Tables()
    parser.feed(html)
    out = []
    for table in parser.tables:
        header, *rows = table
        t = header.index(total)
        out += [(r[1], Decimal(r[t])) for r in rows]
    return out


def settled_lines(path: Path, sheet: str, total: str = "Total") -> list[tuple[str, Decimal]]:
    """(name, total) of every line under a header row that has a Total column."""
    ws = load_workbook(path, read_only=True)[sheet]
    out, t = [], None
    for row in ws.iter_rows(values_only=True):
        if total in row:
            t = row.index(total)
            continue
        if t is not None and len(row) > t and row[1] not in (None, "") and isinstance(
                row[t], (int, float)):
            out.append((str(row[1]), Decimal(str(row[t]))))
        elif all(v in (None, "") for v in row):  # a table ends at a blank row
            t = None
    return out


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("post")
    run("demo", "demo", cwd=folder)
    return folder / "demo"


def test_demo_post_says_what_the_settled_copy_says(demo: Path) -> None:
    r = run("post", "demo_league.xlsx", cwd=demo)
    assert "demo_league_standings.png" in r.stdout and "demo_league_standings.html" in r.stdout
    html = (demo / "demo_league_standings.html").read_text(encoding="utf-8")
    # the settled copy is the demo's own (written from the same workbook)
    expected = settled_lines(demo / "demo_league_settled.xlsx", "Season standings")
    got = page_lines(html)
    assert len(expected) >= 16  # two stages, teams and players
    assert sorted(got) == sorted(expected)
    width, height = png_size(demo / "demo_league_standings.png")
    assert width == WIDTH == 1080 and height > 1500
    # self-contained: no script, nothing fetched
    for fetching in ("<script", "src=", "<link", "@import"):
        assert fetching not in html
    assert not re.search(r'(?:url\(|href=")(?!#)', html)  # only the page's own parts
    assert html.count("<svg") == 2  # a chart a stage
    assert "2026-08-08" in html  # the last game's date
    assert "<h1>Season 2026</h1>" in html


def test_post_never_overwrites_without_force(demo: Path) -> None:
    out = demo / "again"
    run("post", "demo_league.xlsx", "-o", str(out), cwd=demo)
    r = run("post", "demo_league.xlsx", "-o", str(out), cwd=demo, ok=False)
    assert r.returncode == 2
    assert r.stderr.strip() == (f"umaoka: error: {out / 'demo_league_standings.png'} already "
                                "exists; use --force to replace it.")
    run("post", "demo_league.xlsx", "-o", str(out), "--force", cwd=demo)


def test_post_in_japanese(demo: Path) -> None:
    run("post", "demo_league.xlsx", "--lang", "ja", "-o", "ja", cwd=demo)
    html = (demo / "ja" / "demo_league_standings.html").read_text(encoding="utf-8")
    assert "2026-08-08 までの成績" in html and "<th>プレイヤー</th>" in html
    assert sorted(page_lines(html, "合計")) == sorted(
        settled_lines(demo / "demo_league_settled.xlsx", "Season standings"))
    assert png_size(demo / "ja" / "demo_league_standings.png")[0] == 1080


def test_a_league_without_season_and_names_that_look_like_markup(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    rows = ["date,session,table,game,east,east_score,south,south_score,west,west_score,"
            "north,north_score",
            "2026-04-04,1,1,1,<b>Aki</b>,35700,Ben & Co,32400,Chie,22200,Dan,9700",
            "2026-04-11,2,1,1,Dan,41000,Chie,30000,Ben & Co,20000,<b>Aki</b>,9000",
            # a dollar sign is text, never matplotlib's math (an odd one would stop it)
            "2026-04-18,3,1,1,$x^2$,30000,Chie,30000,Dan$,20000,<b>Aki</b>,20000"]
    (games / "club.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    run("batch", "games", "--ruleset", "standard", cwd=tmp_path)
    settled = next(games.glob("*.xlsx"))
    run("post", str(settled), cwd=tmp_path)
    html = settled.with_name(f"{settled.stem}_standings.html").read_text(encoding="utf-8")
    assert "<b>Aki</b>" not in html and "&lt;b&gt;Aki&lt;/b&gt;" in html
    assert "Ben &amp; Co" in html
    sheet = next(s for s in load_workbook(settled, read_only=True).sheetnames
                 if s.endswith("Standings") or s == "Standings")
    assert sorted(page_lines(html)) == sorted(settled_lines(settled, sheet))
    assert {name for name, _ in page_lines(html)} == {
        "<b>Aki</b>", "Ben & Co", "Chie", "Dan", "$x^2$", "Dan$"}


def test_points_read_as_the_workbook_shows_them() -> None:
    assert points(Decimal("45.3"), True) == "+45.3"
    assert points(Decimal(45), True) == "+45"
    assert points(Decimal(-45), False) == "-45.0"
    assert points(None, True) == ""


def test_a_missing_japanese_font_is_said_in_one_sentence(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    from umaoka.templates.post.content import Post, Section

    pic = importlib.import_module("umaoka.templates.post.picture")

    monkeypatch.setattr(pic, "cjk_font", lambda: None)
    family, warning = pic.font_family(Post("秋季リーグ", "", "ja", (Section("第1節", ()),)))
    assert family == ["DejaVu Sans"]
    assert warning is not None and "apt install fonts-noto-cjk" in warning
    assert pic.font_family(Post("Spring", "", "en", ()))[1] is None
