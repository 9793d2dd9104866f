"""Where things are: sheet names, column numbers of league and standings tabs, row
numbers of the players and rules sheets, sizes of a fresh template."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from umaoka.engine import FIELDS
from umaoka.engine.season.settings import STAGE_TABLE
from umaoka.templates.book.labels import label
from umaoka.templates.book.model import SHEET_NAME_MAX, Book, League

#: The add-in module named in the xlwings.conf sheet (umaoka.addin.install.setup.UDF_MODULE).
UDF_MODULE = "umaoka.addin.udfs"
META_SHEET = "_umaoka"
CONF_SHEET = "xlwings.conf"
FORMAT_VERSION = 1
HEADER_ROW = 4
#: Chart series: the top players of the standings.
CHART_SERIES = 8
#: Spare rows for games in a fresh template, and spare player rows.
SPARE_GAMES = 100
MIN_GAMES = 200
#: Roster slots of a fresh template (the standings have a helper row per slot).
ROSTER_MIN = 40

# ------------------------------------------------------------------------------------------------
# Layout


@dataclass(frozen=True)
class LeagueCols:
    """Column numbers of a league tab with ``n`` seats (players, scores, ... blocks).

    Three optional input blocks follow the penalties, in this order, when a league uses
    them: ``chips`` (chips per seat, 祝儀), ``subs`` (per seat, the substitute who sat in
    for the named player) and ``given`` (per seat, the final score a platform settled, for
    imported online games). Without them the layout is the plain one.
    """

    n: int
    chips: bool = False
    subs: bool = False
    given: bool = False

    @cached_property
    def players(self) -> list[int]:
        return list(range(5, 5 + self.n))

    @cached_property
    def scores(self) -> list[int]:
        return list(range(5 + self.n, 5 + 2 * self.n))

    @cached_property
    def deposits(self) -> int:
        return 5 + 2 * self.n

    @cached_property
    def penalties(self) -> list[int]:
        return list(range(6 + 2 * self.n, 6 + 3 * self.n))

    def _block(self, which: str) -> list[int]:
        """The columns of an optional block (empty when the league does not use it)."""
        col = 6 + 3 * self.n
        for name in ("chips", "subs", "given"):
            if getattr(self, name):
                if name == which:
                    return list(range(col, col + self.n))
                col += self.n
        return []

    @cached_property
    def chip_cols(self) -> list[int]:
        return self._block("chips")

    @cached_property
    def sub_cols(self) -> list[int]:
        return self._block("subs")

    @cached_property
    def given_cols(self) -> list[int]:
        return self._block("given")

    @cached_property
    def check(self) -> int:
        return 6 + 3 * self.n + self.n * (self.chips + self.subs + self.given)

    @cached_property
    def results(self) -> list[int]:
        return list(range(self.check + 1, self.check + 1 + self.n))

    @cached_property
    def places(self) -> list[int]:
        return list(range(self.check + 1 + self.n, self.check + 1 + 2 * self.n))

    @cached_property
    def last(self) -> int:
        """Hidden helper: the last place of the row (0 when unsettled)."""
        return self.check + 1 + 2 * self.n

    # The Check's hidden helper cells, one per kind of check, after ``last``: each shows its
    # check's message for the row or "", and the Check shows the first message (one formula
    # for them all passed Excel's 8,192 characters: the escaped name of every seat, again
    # in every branch)
    @cached_property
    def check_scores(self) -> int:
        """Hidden helper: the scores' message (missing, thousands, off by, not 100s)."""
        return self.last + 1

    @cached_property
    def check_names(self) -> int:
        """Hidden helper: the first seat's name not on the roster or in another case."""
        return self.last + 2

    @cached_property
    def check_caps(self) -> int:
        """Hidden helper (season workbooks): the first seat's player over the game cap."""
        return self.last + 3

    # Each seat's shared place in two hidden helpers, after the Check's: the worst place it
    # shares (how many seats have a place at most its own: 4 for a player tied for 3rd-4th)
    # and how many seats share it. The standings count a shared place by them under the
    # Rules sheet's shared_place (worse, split); working them out inside each standings
    # formula repeated every seat's range per seat and passed Excel's 8,192 characters with
    # long tab names.
    @cached_property
    def worst(self) -> list[int]:
        """Hidden helpers: each seat's worst shared place (0 in a row without places)."""
        return list(range(self.last + 4, self.last + 4 + self.n))

    @cached_property
    def tied(self) -> list[int]:
        """Hidden helpers: how many seats share each seat's place (1 without places)."""
        return list(range(self.last + 4 + self.n, self.last + 4 + 2 * self.n))

    @cached_property
    def helpers(self) -> list[int]:
        """Every hidden helper column of the tab."""
        return [self.last, self.check_scores, self.check_names, self.check_caps,
                *self.worst, *self.tied]


@dataclass(frozen=True)
class StandCols:
    """Columns of a standings tab: the visible table, then hidden helpers."""

    n: int

    @property
    def visible(self) -> int:
        return 6 + 2 * self.n + 1

    def count(self, place: int) -> int:
        return 6 + place

    def rate(self, place: int) -> int:
        return 6 + self.n + place

    @property
    def last_avoid(self) -> int:
        return 7 + 2 * self.n

    # hidden helpers, one row per roster slot
    @property
    def h_name(self) -> int:
        return self.visible + 3

    @property
    def h_games(self) -> int:
        return self.h_name + 1

    @property
    def h_total(self) -> int:
        return self.h_name + 2

    @property
    def h_psum(self) -> int:
        return self.h_name + 3

    def h_count(self, place: int) -> int:
        return self.h_name + 3 + place

    @property
    def h_last(self) -> int:
        return self.h_name + 4 + self.n

    @property
    def h_avgp(self) -> int:
        return self.h_last + 1

    @property
    def h_key(self) -> int:
        return self.h_last + 2

    @property
    def h_order(self) -> int:
        return self.h_last + 3

    @property
    def h_idx(self) -> int:
        return self.h_last + 4


def league_cols(league: League, n: int) -> LeagueCols:
    """The columns of this league's tab (with the optional blocks it uses)."""
    return LeagueCols(n, chips=league.chips, subs=league.subs, given=league.given)


#: First row of the Season sheet's stage table and of the penalty log.
SEASON_FIRST = 5
PENALTIES_FIRST = 5
#: Spare penalty rows of a template.
SPARE_PENALTIES = 100
PENALTY_COLUMNS = ("date", "stage", "player", "team", "points", "reason")


def settings_first(stage_rows: int) -> int:
    """First row of the Season sheet's settings: below the stages, a blank row and two
    headings."""
    return SEASON_FIRST + stage_rows + 3


def season_stage_rows(book: Book) -> int:
    """Rows of the Season sheet's stage table: one per league tab or listed stage."""
    return max(len(book.leagues), len(book.season.stages))


#: The Season sheet's hidden helper columns, one row per league tab (from
#: :data:`SEASON_FIRST`, in tab order): the tab's stage's game cap maximum (0: none), chip
#: value and min_games, each its stage row's cell or else the settings table's. The league
#: tabs' check column and standings and the live Season standings read them. The settings
#: table's game_caps row holds the season's maximum in the first (GameCapMax). One blank
#: column lies between the stage table and them: a hidden number right beside the table's
#: last column is printed by LibreOffice as "###" at the table's edge.
_HELPERS_FROM = 4 + len(STAGE_TABLE) + 2
STAGE_HELPERS = {"game_caps": _HELPERS_FROM, "chip_value": _HELPERS_FROM + 1,
                 "min_games": _HELPERS_FROM + 2}


def stage_helper(book: Book, league: League, key: str) -> str:
    """The Season sheet's helper cell of ``key`` (see :data:`STAGE_HELPERS`) for a league
    tab, as an absolute reference."""
    from openpyxl.utils import get_column_letter

    sheet = "'" + label("sheet_season", book.lang).replace("'", "''") + "'"
    row = SEASON_FIRST + next(i for i, lg in enumerate(book.leagues) if lg is league)
    return f"{sheet}!${get_column_letter(STAGE_HELPERS[key])}${row}"


RULES_FIRST = 5  # first row of the key/value table of a rules sheet
PLAYERS_FIRST = 5


def rules_row(key: str) -> int:
    return RULES_FIRST + FIELDS.index(key)


def sheet_names(book: Book) -> dict[str, Any]:
    """Every sheet's name for this book (checked for Excel's 31-character limit)."""
    lang = book.lang
    names: dict[str, Any] = {
        "start": label("sheet_start", lang),
        "players": label("sheet_players", lang),
        "presets": label("sheet_presets", lang),
        "overall": label("sheet_overall", lang),
        "rules": [label("sheet_rules", lang, name=r.name)[:SHEET_NAME_MAX] for r in book.rules],
        "standings": [],
    }
    taken = {names["start"].lower(), names["players"].lower(), names["presets"].lower(),
             names["overall"].lower(), CONF_SHEET, META_SHEET.lower(),
             *(n.lower() for n in names["rules"])}
    for league in book.leagues:
        if len(league.name) > SHEET_NAME_MAX:
            from umaoka.engine import UmaokaError

            raise UmaokaError(f'league name "{league.name}" is longer than Excel\'s '
                              f"{SHEET_NAME_MAX} characters for a sheet name; shorten it.")
        if league.name.lower() in taken:
            from umaoka.engine import UmaokaError

            raise UmaokaError(f'league name "{league.name}" is already a sheet of the '
                              "template; choose another name.")
        taken.add(league.name.lower())
    for league in book.leagues:
        base = label("sheet_league_standings", book.lang, name=league.name)
        if len(base) > SHEET_NAME_MAX:
            base = label("sheet_league_standings", book.lang,
                         name=league.name[: SHEET_NAME_MAX - len(base) + len(league.name)])
        name, i = base, 2
        while name.lower() in taken:
            name = f"{base[: SHEET_NAME_MAX - 3]} {i}"
            i += 1
        taken.add(name.lower())
        names["standings"].append(name)
    return names


def roster_size(book: Book) -> int:
    """Roster slots: room for a big club, and always 20 free rows for new players."""
    return max(ROSTER_MIN, len(book.players) + 20)


def game_rows(league: League, settled: bool) -> int:
    if settled:
        return max(len(league.games), 1)
    return max(MIN_GAMES, len(league.games) + SPARE_GAMES)
