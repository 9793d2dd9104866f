"""A league's Rating sheet in the settled copy: Tenhou's R per player (start 1500; after
every game, see :mod:`umaoka.engine.online.rating`), a chart of the ratings game by game, and the
head-to-head table of every pair that shared a table.

Values only, worked out by the engine when ``umaoka settle`` writes the copy: R depends on
every earlier game of every player at the table, a recursion native formulas would need a
helper block per game and player for. The template's Stats sheet says so; ``umaoka stats``
shows the same figures in the terminal.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from openpyxl.utils import get_column_letter as col_letter

from umaoka.engine.online.rating import RatingStep, ratings
from umaoka.engine.season.stats import head_to_head
from umaoka.templates.book.labels import label
from umaoka.templates.book.layout import CHART_SERIES, HEADER_ROW
from umaoka.templates.book.model import League
from umaoka.templates.sheets.base import SheetWriter
from umaoka.templates.xlsx.charts import axis_range, line_chart
from umaoka.templates.xlsx.styles import num, put

#: The most games the R chart plots (bigger leagues: every few games, and the last).
CHART_POINTS = 1000
#: Where the head-to-head table starts (columns), right of the ratings.
H2H_COL = 8


class RatingSheets(SheetWriter):
    def rating_sheet(self, index: int, league: League) -> None:
        """Only in the settled copy (see the module help)."""
        if not self.settled:
            return
        st, lang = self.st, self.lang
        games = self.stat_games(index)  # type: ignore[attr-defined]
        name = self.league_sheet_name(index, "sheet_league_rating")
        ws = self.wb.create_sheet(name)
        self._title(ws, self.suffix(label("title_rating", lang, name=league.name)),
                    label("note_rating", lang), across=H2H_COL + 6)
        heads = [label(f"rating_{k}", lang) for k in ("player", "games", "r", "change",
                                                      "peak", "low")]
        for c, text in enumerate(heads, 1):
            put(ws, HEADER_ROW, c, text, st.get("header"), text=True)
        r_fmt = st.get("formula", "0.00")
        history = _History(len(games))
        rated = ratings(games, each=history.step)  # the chart's points in the same pass
        history.close()
        for k, p in enumerate(rated):
            row = HEADER_ROW + 1 + k
            values = [p.name, p.games, p.rating, p.change, p.peak, p.low]
            for c, v in enumerate(values, 1):
                style = st.get("key") if c == 1 else (st.get("formula", "0") if c == 2
                                                      else r_fmt)
                put(ws, row, c, v, style, text=(c == 1))
        self._head_to_head(ws, games, self.book.rules_of(league).ruleset.shared_place)
        top = HEADER_ROW + max(len(rated), 1) + 3
        self._rating_chart(ws, history, [p.name for p in rated[:CHART_SERIES]], top)
        self._widths(ws, {1: 16, 2: 7, 3: 9, 4: 9, 5: 9, 6: 9, H2H_COL: 16,
                          H2H_COL + 1: 16, **{H2H_COL + k: 9 for k in range(2, 7)}})
        ws.freeze_panes = f"A{HEADER_ROW + 1}"
        self._print(ws, f"{HEADER_ROW}:{HEADER_ROW}")
        self._protect(ws)

    def _head_to_head(self, ws: Any, games: list[Any], shared_place: str = "better") -> None:
        st, lang = self.st, self.lang
        heads = [label(f"h2h_{k}", lang) for k in ("player", "opponent", "games", "ahead",
                                                   "behind", "place_diff", "points")]
        put(ws, HEADER_ROW - 1, H2H_COL, label("h2h_title", lang), st.get("group"), text=True)
        for c, text in enumerate(heads, H2H_COL):
            put(ws, HEADER_ROW, c, text, st.get("header"), text=True)
        pts = self._pts(all(r.ruleset.rounding != "none" for r in self.book.rules))
        styles = [st.get("key"), st.get("key"), st.get("formula", "0"), st.get("formula", "0"),
                  st.get("formula", "0"), st.get("formula", "+0.00;-0.00;0.00"),
                  st.get("result", pts)]
        for k, h in enumerate(head_to_head(games, shared_place=shared_place)):
            values = [h.player, h.opponent, h.games, h.ahead, h.behind, h.place_diff,
                      num(h.points)]
            for c, v in enumerate(values):
                put(ws, HEADER_ROW + 1 + k, H2H_COL + c, v, styles[c], text=c < 2)

    def _rating_chart(self, ws: Any, history: _History, names: list[str], top: int) -> None:
        """R of the top-rated players after every game of the league (carried forward)."""
        st, lang = self.st, self.lang
        data_row = top + 20
        hdr = data_row + 1
        put(ws, data_row, 1, label("rating_chart", lang), st.get("title"), text=True)
        put(ws, hdr, 1, label("rating_game", lang), st.get("header"), text=True)
        for k, p in enumerate(names):
            put(ws, hdr, 2 + k, p, st.get("header"), text=True)
        for count, (j, after) in enumerate(zip(history.plotted, history.points), 1):
            put(ws, hdr + count, 1, j, st.get("key", "0"))
            for k, p in enumerate(names):
                put(ws, hdr + count, 2 + k, after.get(p), st.get("formula", "0.00"))
        count = len(history.plotted)
        # beside the head-to-head table, not over it
        line_chart(ws, f"A{top}", hdr, len(names), count, title=label("rating_chart", lang),
                   x_title=label("rating_game", lang), y_title="R", width=12.5, height=9,
                   y_range=axis_range(after.get(p) for after in history.points for p in names))
        ws.print_area = f"A1:{col_letter(H2H_COL + 6)}{data_row - 1}"


class _History:
    """The R chart's points, taken while the ratings are worked out: every player's R
    after each plotted game (a chart cannot show more points than a page has room for:
    over CHART_POINTS games, every few games and the last are plotted, R carried forward
    as ever)."""

    def __init__(self, games: int) -> None:
        total = max(games, 1)
        every = -(-total // CHART_POINTS)
        self.plotted = [j for j in range(1, total + 1) if not j % every or j == total]
        self.points: list[dict[str, Decimal]] = []
        self._now: dict[str, Decimal] = {}

    def step(self, step: RatingStep) -> None:
        while len(self.points) < len(self.plotted) \
                and step.game > self.plotted[len(self.points)]:
            self.points.append(dict(self._now))
        self._now[step.name] = step.after

    def close(self) -> None:
        while len(self.points) < len(self.plotted):
            self.points.append(dict(self._now))
