"""What a league workbook holds, independent of any spreadsheet: rulesets, players, games.

The template generator writes a :class:`Book`; ``umaoka settle`` reads one back from a
filled workbook and writes it again with every result as a plain value.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from umaoka.engine import PRESETS, Ruleset, UmaokaError, ruleset
from umaoka.templates.book.labels import label
from umaoka.templates.book.runtime import Runtime

#: Excel's limit on sheet names, and the characters it refuses in them.
SHEET_NAME_MAX = 31
_BAD_SHEET_CHARS = re.compile(r"[\[\]:*?/\\]")


@dataclass
class Rules:
    """One ruleset sheet: a short name (used in the sheet and defined names) and the rules."""

    name: str
    ruleset: Ruleset

    @property
    def defined_name(self) -> str:
        """The workbook name of the key/value table, e.g. ``Rules_mleague``."""
        return "Rules_" + re.sub(r"\W", "_", self.name, flags=re.ASCII)

    def edits(self) -> dict[str, tuple[Any, Any]]:
        """Fields changed from the preset of the same name: ``{field: (preset, used)}``.

        Empty for an unchanged preset and for a ruleset that is not named after a preset.
        """
        if self.name not in PRESETS:
            return {}
        was, now = PRESETS[self.name].ruleset.values(), self.ruleset.values()
        return {k: (was.get(k), v) for k, v in now.items() if was.get(k) != v}


@dataclass(frozen=True)
class Origin:
    """What a settled copy was made from: the source file's name (None when it was not a
    workbook, e.g. CSV games), when (local time, to the minute) and by which umaoka."""

    source: str | None
    when: str
    version: str


@dataclass(slots=True)  # a league holds up to 50,000 of them: no __dict__ each
class Game:
    """One row of a league tab: seat order is East, South, West, North."""

    date: Any = None
    session: Any = None
    table: Any = None
    number: Any = None
    players: list[Any] = field(default_factory=list)
    scores: list[Any] = field(default_factory=list)
    deposits: Any = None
    penalties: list[Any] = field(default_factory=list)
    #: Final scores a platform settled (imported online games), per seat; empty otherwise.
    given: list[Any] = field(default_factory=list)
    #: Per seat: chips (祝儀) won or paid, and who sat in as a substitute (blank: nobody);
    #: empty unless the league tab has those blocks.
    chips: list[Any] = field(default_factory=list)
    subs: list[Any] = field(default_factory=list)
    #: Where the row came from when not a workbook row (e.g. ``"line 4"`` of a CSV file).
    source: str | None = None
    #: The sheet row it was read from (a settled copy closes long runs of blank rows up,
    #: so its warnings name the row of the input, not of the copy).
    row: int | None = field(default=None, compare=False, repr=False)

    def is_blank(self) -> bool:
        """No score, deposit nor penalty entered: a row not played yet."""
        return all(_blank(v) for v in [*self.scores, self.deposits, *self.penalties,
                                       *self.given])

    def has_given(self) -> bool:
        """Any platform final entered: the row is settled by the platform, not by the rules."""
        return any(not _blank(v) for v in self.given)


@dataclass
class League:
    """One league or season: its name, the index of its ruleset, its games."""

    name: str
    rules: int = 0
    games: list[Game] = field(default_factory=list)
    #: The tab has the platform-finals block (imported online games keep their finals).
    given: bool = False
    #: Optional blocks of its tab: chips per seat, substitutes per seat.
    chips: bool = False
    subs: bool = False


@dataclass(frozen=True)
class Night:
    """One night of the Seating sheet: its drawn schedule (an
    ``umaoka.engine.seating.Schedule``), its date and the league tab's session of its
    first round, when known."""

    schedule: Any
    date: dt.date | None = None
    session: int | None = None


def seating_nights(seating: Any) -> list[Night]:
    """The nights of ``Book.seating``: none, one bare schedule, or a list of nights."""
    if seating is None:
        return []
    if isinstance(seating, Night):
        return [seating]
    if isinstance(seating, (list, tuple)):
        return [n if isinstance(n, Night) else Night(n) for n in seating]
    return [Night(seating)]


@dataclass
class Book:
    """A whole league workbook."""

    rules: list[Rules]
    leagues: list[League]
    players: list[str] = field(default_factory=list)
    lang: str = "en"
    #: The add-in runtime its formulas are written for (see :mod:`.runtime`).
    runtime: Runtime = field(default_factory=Runtime)
    #: The Seating sheet: the nights seated so far (:class:`Night`; a bare
    #: ``umaoka.engine.seating.Schedule`` is one night without a date).
    seating: Any = None
    #: A season over the league tabs (stages, settings), when the book has a Season sheet;
    #: see :mod:`.season_book`.
    season: Any = None
    #: Each player's team (the Team column of the Players sheet), and the penalty log.
    teams: dict[str, str] = field(default_factory=dict)
    penalties: list[Any] = field(default_factory=list)

    def rules_of(self, league: League) -> Rules:
        return self.rules[league.rules]


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def check_sheet_name(name: str, what: str) -> str:
    """A league name usable as an Excel sheet name, or a one-line error."""
    name = name.strip()
    if not name:
        raise UmaokaError(f"{what} is blank; give every league a name.")
    if _BAD_SHEET_CHARS.search(name) or name.startswith("'") or name.endswith("'"):
        raise UmaokaError(f'{what} "{name}" cannot be a sheet name; leave out [ ] : * ? / \\ '
                          "and leading or trailing quotes.")
    return name


def rules_name(spec: str, taken: set[str]) -> str:
    """A short unique name for a ruleset text: the preset name, else a slug of the text."""
    text = spec.strip()
    key = text.lower()
    base = key if key in PRESETS else re.sub(r"[^0-9a-z]+", "-", key).strip("-") or "custom"
    base = base[:20]
    name, i = base, 2
    while name in taken:
        name = f"{base[:17]}-{i}"
        i += 1
    return name


#: Most rows holding data a league workbook's tabs hold together: what umaoka reads back
#: (``settle_book.MAX_GAMES``), so no command writes a workbook every later command refuses.
MAX_GAMES = 50_000
#: Most league tabs (a season's stages) in one workbook: a season has a handful; each tab
#: is a sheet of formulas and a standings sheet, so thousands would make gigabytes.
MAX_LEAGUES = 100
#: The largest session number a command writes or takes (a date such as 20260404 fits): a
#: session is one row of a chart, whatever its number, so this only keeps it a plain whole
#: number Excel shows exactly, and one ``--session`` takes again.
MAX_SESSION = 999_999_999


def check_names(names: Iterable[str], what: str) -> None:
    """One sentence for the first name no sheet can hold as text: a control character (which
    openpyxl refuses to write, and a terminal acts on) or over 200 characters."""
    from umaoka.engine.online.imported import name_problem

    for name in names:
        problem = name_problem(str(name))
        if problem:
            raise UmaokaError(f"{what}: {problem}")


def _holds_data(g: Game) -> bool:
    """A row the reader counts: any value in its date, numbers, players or inputs."""
    return not (g.is_blank() and all(_blank(v) for v in (g.date, g.session, g.table,
                                                          g.number, *g.players, *g.chips,
                                                          *g.subs)))


def check_size(book: Book) -> None:
    """Refuse, before anything is written, a workbook umaoka could not read back: more than
    :data:`MAX_LEAGUES` league tabs or :data:`MAX_GAMES` rows of games."""
    if len(book.leagues) > MAX_LEAGUES:
        raise UmaokaError(f"a league workbook holds at most {MAX_LEAGUES} leagues or stages, "
                          f"and this one would have {len(book.leagues):,}; give fewer stages "
                          "or split the season into workbooks.")
    if sum(len(lg.games) for lg in book.leagues) <= MAX_GAMES:
        return
    rows = sum(sum(map(_holds_data, lg.games)) for lg in book.leagues)
    if rows > MAX_GAMES:
        raise UmaokaError(f"a league workbook holds at most {MAX_GAMES:,} games, and this one "
                          f"would have {rows:,}; split the league into seasons, one workbook "
                          "each.")


def make_book(rulesets: list[str] | None = None, leagues: list[str] | None = None,
              players: list[str] | None = None, lang: str = "en",
              runtime: Runtime | None = None) -> Book:
    """A book from command-line style arguments, every ruleset checked by the engine.

    One ruleset serves every league; otherwise give one ruleset per league, in order.
    """
    specs = [s for s in (rulesets or ["standard"]) if s.strip()] or ["standard"]
    default = [label("default_league", lang)]
    names = [check_sheet_name(n, "league name") for n in (leagues or default)]
    if len({n.lower() for n in names}) != len(names):
        raise UmaokaError("two leagues have the same name; give every league its own name.")
    if len(specs) not in (1, len(names)):
        raise UmaokaError(f"{len(specs)} rulesets for {len(names)} leagues; give one ruleset "
                          "for all leagues or one per league, in the same order.")
    rules: list[Rules] = []
    index: dict[str, int] = {}
    for spec in specs:
        if spec in index:
            continue
        index[spec] = len(rules)
        rules.append(Rules(rules_name(spec, {r.name for r in rules}), ruleset(spec)))
    book_leagues = [League(n, index[specs[0] if len(specs) == 1 else specs[i]])
                    for i, n in enumerate(names)]
    clean_players: list[str] = []
    for p in players or []:
        p = str(p).strip()
        if p and p not in clean_players:
            clean_players.append(p)
    check_names(clean_players, "a player")
    return Book(rules, book_leagues, clean_players, lang, runtime or Runtime())
