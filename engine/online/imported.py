"""What importers return: imported games, the problems met, and small shared readers.

>>> Problem("sca20260404.log", 3, "not a Tenhou lobby result.")
Problem(source='sca20260404.log', line=3, message='not a Tenhou lobby result.')
>>> print(_)
sca20260404.log line 3: not a Tenhou lobby result.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from umaoka.engine.errors import UmaokaError

#: Bidirectional overrides: they reorder what a terminal shows after them.
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)$")


@dataclass(frozen=True)
class Problem:
    """Something an importer skipped: where (file, line from 1; 0 for the whole file), why."""

    source: str
    line: int
    message: str

    def __str__(self) -> str:
        where = f"{self.source} line {self.line}" if self.line else self.source
        return f"{where}: {self.message}" if where else self.message


@dataclass(frozen=True)
class ImportedGame:
    """One imported game (see the module help for the two kinds)."""

    names: tuple[str, ...]
    settled: bool  # True: keep ``finals``; False: settle ``scores`` under the league's rules
    finals: tuple[Decimal, ...] | None = None  # the platform's finals, in ``names`` order
    scores: tuple[int, ...] | None = None  # raw end points, in ``names`` order
    deposits: int = 0  # leftover riichi sticks at the end, in points (raw games)
    start: int | None = None  # starting points of the platform's rules, when known
    date: dt.date | None = None
    time: str | None = None  # "HH:MM" as the platform shows it
    source: str = ""
    line: int = 0
    rule: str = ""  # the platform's name for the rules, e.g. 四般南喰赤－
    lobby: str = ""  # e.g. L1002
    ref: str = ""  # the platform's game id, e.g. a Tenhou log id
    chips: tuple[int, ...] | None = None  # chip lobbies: chips won or lost (枚)
    session: object = None
    table: object = None
    game: object = None

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def places(self) -> tuple[int, ...] | None:
        """Places of a platform-settled game: the listed (finishing) order."""
        return tuple(range(1, len(self.names) + 1)) if self.settled else None

    def keys(self) -> set[tuple[object, ...]]:
        """What identifies this game: a later import sharing one of its :meth:`lookups`
        with these keys is the same game."""
        return self._keys(lookup=False)

    def lookups(self) -> set[tuple[object, ...]]:
        """Keys to look for among earlier imports' :meth:`keys`."""
        return self._keys(lookup=True)

    def _keys(self, lookup: bool) -> set[tuple[object, ...]]:
        # A platform result is the same game as another with the same date, time, table,
        # players and finals; a log is the same game as another with the same players and
        # raw points, or the same log id. Across the two kinds, the same day, players in
        # the same finishing order and the same finals (a log and its lobby line); two
        # results are not matched on that alone, as a night may repeat a result.
        keys: set[tuple[object, ...]] = set()
        ranked: tuple[object, ...] = ()
        if self.finals is not None:
            order = sorted(range(len(self.names)), key=lambda i: -self.finals[i])  # type: ignore
            ranked = (self.date, tuple(self.names[i] for i in order),
                      tuple(self.finals[i] for i in order))
        if self.settled:
            keys.add(("result", self.date, self.time, self.session, self.table, self.game,
                      self.lobby, self.names, self.finals))
            keys.add(("log", *ranked) if lookup else ("result", *ranked))
        else:
            if self.scores is not None:
                keys.add(("raw", self.names, self.scores, self.deposits))
            if ranked:
                keys.add(("result", *ranked) if lookup else ("log", *ranked))
        if self.ref:
            keys.add(("ref", self.ref))
        return keys

    def describe(self) -> str:
        """Where the game came from, for messages."""
        return f"{self.source} line {self.line}" if self.line else self.source


@dataclass
class ImportResult:
    """The games read (in file order) and the problems met (bad lines, duplicates)."""

    games: list[ImportedGame] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def extend(self, other: ImportResult) -> None:
        self.games += other.games
        self.problems += other.problems


# ------------------------------------------------------------------------------------------------
# Small shared readers.


def date_from_name(name: str) -> dt.date | None:
    """The date in a file or log name (``sca20260404.log`` -> 2026-04-04), if any.

    >>> date_from_name("sca20260404.log.gz"), date_from_name("2019021004gm-00a9-0000-e2f6516d")
    (datetime.date(2026, 4, 4), datetime.date(2019, 2, 10))
    >>> date_from_name("league.csv") is None
    True
    """
    for run in re.findall(r"\d{8,}", name):
        try:
            return dt.date(int(run[:4]), int(run[4:6]), int(run[6:8]))
        except ValueError:
            continue
    return None


def name_date_problem(name: str) -> str | None:
    """A message when ``name`` holds what looks like a date (8 digits from 1900 or 2000)
    but is none, and no real date: its games would silently get no date.

    >>> name_date_problem("sca20269999.log")
    'the file name holds 20269999, which is not a date (YYYYMMDD); rename the file, ...'
    >>> name_date_problem("sca20260404.log") is None, name_date_problem("night.log") is None
    (True, True)
    """
    if date_from_name(name) is not None:
        return None
    run = next((r for r in re.findall(r"\d{8,}", name) if r[:2] in ("19", "20")), None)
    if run is None:
        return None
    return (f"the file name holds {run[:8]}, which is not a date (YYYYMMDD); rename the file, "
            "e.g. sca20260404.log, so its games get their date.")


#: The longest player name read (online names are a dozen characters at most).
MAX_NAME = 200


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name, or None: control characters (an escape
    sequence, a line break) and broken characters never come from a real name, and no
    workbook, CSV or terminal can show them as text.

    >>> name_problem("しきさん") is None
    True
    >>> print(name_problem(chr(27) + "[2J"))
    the name "\\x1b[2J" holds a control character (\\x1b); names are printable text.
    """
    if len(name) > MAX_NAME:
        return (f'the name "{visible(name[:20])}..." is longer than {MAX_NAME} characters; '
                "shorten it.")
    if name.isprintable():  # the common case, fast: no control or broken character
        return None
    bad = next((c for c in name if unicodedata.category(c) in ("Cc", "Cs")), None)
    if bad is None:
        return None
    return (f'the name "{visible(name)}" holds a control character ({visible(bad)}); names are '
            "printable text.")


def visible(text: str) -> str:
    """``text`` with control characters (and broken ones) written out as ``\\x1b``, so it
    can be shown on a terminal or in a message without acting on it.

    >>> print(visible("a" + chr(27) + "]0;OWNED" + chr(7) + "b"))
    a\\x1b]0;OWNED\\x07b
    """
    if text.isprintable():
        return text
    return "".join(repr(c)[1:-1] if unicodedata.category(c) in ("Cc", "Cs") or c in _BIDI
                   else c for c in text)


#: First characters that make Excel or LibreOffice read a CSV cell as a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_text(text: str) -> str:
    """A text cell for a CSV that Excel opens: a text that would start a formula gets a
    leading ``'`` (OWASP's CSV-injection guard), and so does one starting with ``'``, so
    :func:`csv_plain` gives every text back exactly. Plain numbers are left alone.

    >>> print(csv_text('=HYPERLINK("http://x")'), csv_text("-2+3"), csv_text("+52.1"))
    '=HYPERLINK("http://x") '-2+3 +52.1
    >>> all(csv_plain(csv_text(t)) == t for t in ("@SUM(1+1)", "'", "''=", "'Aki", "-5"))
    True
    """
    if text.startswith("'") or (text.startswith(FORMULA_START) and not _NUMBER.match(text)):
        return "'" + text
    return text


def csv_name(text: str) -> str:
    """A name for a CSV that Excel opens: :func:`csv_text`'s guard, and a leading ``'`` too
    for a name that Excel would turn into something else (``007`` into 7, ``1/2`` into a
    date, ``1e3`` into 1000, ``TRUE`` into a boolean, ``-5`` into a number, ``#N/A`` into an
    error), so that :func:`csv_plain` gives every name back exactly. Excel shows the ``'``
    (it is text in a CSV, not its quote prefix) and keeps the name as it is.

    >>> print(csv_name("007"), csv_name("1/2"), csv_name("TRUE"), csv_name("-5"), csv_name("Aki"))
    '007 '1/2 'TRUE '-5 Aki
    >>> all(csv_plain(csv_name(t)) == t for t in ("007", "'007", "1e3", "Jan 2", "#N/A", "Aki"))
    True
    """
    guarded = csv_text(text)
    return guarded if guarded != text or not excel_converts(text) else "'" + text


def excel_converts(text: str) -> bool:
    """Whether Excel (or LibreOffice) opening a CSV would read ``text`` as something other
    than text: a number (``007``, ``1e3``, ``-5``, ``1,000``, ``50%``, ``$5``, ``(5)``,
    full-width digits), a date or a time (``1/2``, ``2026-04-04``, ``Jan 2``, ``12:30``,
    ``1月2日``), a boolean (``TRUE``) or an error value (``#N/A``). Errs on the side of
    yes: a guarded name only shows a ``'`` in Excel.

    >>> [excel_converts(t) for t in ("007", "1/2", "1e3", "true", "#n/a", "Aki", "Player 2")]
    [True, True, True, True, True, False, False]
    """
    t = unicodedata.normalize("NFKC", text).strip()
    if t.upper() in ("TRUE", "FALSE") or t.upper() in _EXCEL_ERRORS:
        return True
    if len(t) > 60 or not any(c.isdigit() for c in t):
        return False
    return _NUMBER_OR_DATE.fullmatch(_DATE_WORDS.sub("", t)) is not None


#: The error values Excel reads from a cell's text.
_EXCEL_ERRORS = frozenset(("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A",
                           "#GETTING_DATA", "#SPILL!", "#CALC!", "#FIELD!", "#BLOCKED!",
                           "#CONNECT!", "#BUSY!", "#UNKNOWN!", "#EXTERNAL!", "#PYTHON!"))
#: Words of dates and times Excel reads (month names, AM/PM, Japanese date units).
_DATE_WORDS = re.compile(r"january|february|march|april|may|june|july|august|september|"
                         r"october|november|december|sept|jan|feb|mar|apr|jun|jul|aug|sep|"
                         r"oct|nov|dec|(?<=[\d\s])(?:am|pm|a|p)\b|[年月日時分秒]", re.IGNORECASE)
#: What is left of a number, a date or a time once its words are taken out.
_NUMBER_OR_DATE = re.compile(r"[\d\s.,:/+\-()$%€£¥eE]*")


def csv_plain(text: str) -> str:
    """A CSV cell's text without the guard :func:`csv_text` or :func:`csv_name` adds (other
    texts unchanged)."""
    if text.startswith("'") and (text[1:2] in (*FORMULA_START, "'")
                                 or excel_converts(text[1:])):
        return text[1:]
    return text


def csv_rows(text: str | Any) -> Iterator[list[str]]:
    """The rows of a CSV text (or of a ``csv.reader``); what the csv module cannot read (a
    field over its 131,072 characters, say) is an :class:`UmaokaError` naming the line,
    never ``csv.Error``.

    >>> list(csv_rows("a,b\\r\\n1,2\\r\\n"))
    [['a', 'b'], ['1', '2']]
    """
    reader = csv.reader(io.StringIO(text, newline="")) if isinstance(text, str) else text
    try:
        yield from reader
    except csv.Error as e:
        raise UmaokaError(f"line {reader.line_num} cannot be read as CSV ({e}); save the "
                          "file from Excel as CSV UTF-8.") from None


def decimal(text: str) -> Decimal | None:
    """A final score as text (``+52.1``, ``-3``, ``▲19.4``, ``−7.5``), or None if not one."""
    t = text.strip().replace("−", "-").replace("－", "-").replace("＋", "+")
    if t.startswith("▲"):  # Japanese results write minus as ▲
        t = "-" + t[1:]
    if not _NUMBER.match(t):
        return None
    try:
        return Decimal(t)
    except InvalidOperation:  # pragma: no cover - the pattern admits only numbers
        return None


def check_order(finals: Sequence[Decimal]) -> str | None:
    """A message if finals listed in finishing order go up somewhere."""
    for a, b in zip(finals, finals[1:]):
        if b > a:
            return (f"the results are not in finishing order ({b:+} listed after {a:+}); "
                    "list players from 1st to last.")
    return None


def decode(data: bytes) -> str:
    """Text of a file as Excel and online lobbies save it: UTF-8 (with or without BOM),
    UTF-16 (with a BOM, or little-endian without), else Shift-JIS (cp932).

    Excel saves "CSV UTF-8" with a BOM, "Unicode text" as UTF-16 and plain "CSV" in the
    system's code page, which on Japanese Windows is Shift-JIS. Raises
    ``UnicodeDecodeError`` when the bytes are none of these.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    if len(data) >= 4 and data[1:4:2] == b"\x00\x00" and data[0:4:2] != b"\x00\x00":
        return data.decode("utf-16-le")  # UTF-16 without a BOM
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp932")
