"""Imported results: the game records importers return, finals CSV files, duplicates.

Two kinds of imported game:

- **settled by the platform** (Tenhou lobby lines, a finals CSV): the platform's final
  scores are kept as they are; ``names`` and ``finals`` are in finishing order.
- **raw** (Tenhou game logs): raw end-of-game points in seat order, East (the first
  dealer) first, with the leftover riichi sticks as ``deposits``: the league settles them
  under its own ruleset, like typed games. The platform's own finals are kept for reference.

Parsers never raise on a bad line: they return the games they read and a list of
:class:`Problem` (file, line number, one sentence); a bad line is skipped whole.

The finals CSV (for platforms other than Tenhou, and what ``umaoka import`` writes for
platform-settled games) has a header row; names are case-insensitive (a cell that starts
with ``'`` followed by ``= + - @`` or ``'`` is read without that ``'``: see
:func:`~umaoka.engine.online.imported.csv_text`)::

    date,time,session,table,game,lobby,ref,first,first_final,second,second_final,
    third,third_final,fourth,fourth_final[,first_score,second_score,third_score,fourth_score]

Only ``date`` and the player and final columns are required; players are listed in
finishing order (1st first; the order decides places, equal finals included); a row
with a blank ``fourth`` is a three-player game; the optional ``*_score`` columns are raw
end points, used for bust rates and average raw points; the optional ``*_chips`` columns
(``first_chips``...) are a chip lobby's chips (枚), which ``umaoka import`` writes when a
game has them.

>>> result = parse_finals_csv("date,first,first_final,second,second_final,third,third_final,"
...     "fourth,fourth_final\\n2026-04-04,Aki,+52.1,Ben,8.3,Chie,▲19.4,Dan,-41.0\\n")
>>> game = result.games[0]
>>> game.names, game.finals, game.places
(('Aki', 'Ben', 'Chie', 'Dan'), (Decimal('52.1'), Decimal('8.3'), Decimal('-19.4'), \
Decimal('-41.0')), (1, 2, 3, 4))
"""

from __future__ import annotations

import datetime as dt
import gzip
import io
import zlib
from collections.abc import Iterable

from umaoka.engine.errors import UmaokaError
from umaoka.engine.online import tenhou
from umaoka.engine.online.imported import (
    ImportedGame,
    ImportResult,
    Problem,
    check_order,
    csv_plain,
    csv_rows,
    decimal,
    decode,
    name_problem,
    visible,
)

ORDINALS = ("first", "second", "third", "fourth")
FINALS_COLUMNS = ("date", "time", "session", "table", "game", "lobby", "ref",
                  *(c for o in ORDINALS for c in (o, f"{o}_final")),
                  *(f"{o}_score" for o in ORDINALS))
#: A chip lobby's chips (枚) per player, after the other columns when any game has them.
CHIPS_COLUMNS = tuple(f"{o}_chips" for o in ORDINALS)
#: The most chips a line may give a player (the lobby reader's own bound).
MOST_CHIPS = 10_000


# ------------------------------------------------------------------------------------------------
# Finals CSV.


def parse_finals_csv(text: str, source: str = "") -> ImportResult:
    """Read a finals CSV (see the module help); bad rows are problems with their line."""
    out = ImportResult()
    try:
        rows = list(csv_rows(text))
    except UmaokaError as e:
        out.problems.append(Problem(source, 0, str(e)))
        return out
    if not rows:
        out.problems.append(Problem(source, 0, "the file is empty; a finals CSV needs a "
                                    "header row (date,first,first_final,second,...)."))
        return out
    header = [h.strip().lower() for h in rows[0]]
    need = ["date", "first", "first_final", "second", "second_final", "third", "third_final"]
    missing = [c for c in need if c not in header]
    if missing:
        out.problems.append(Problem(source, 1, f"the header lacks {', '.join(missing)}; a "
                                    "finals CSV starts date,first,first_final,second,"
                                    "second_final,third,third_final,fourth,fourth_final."))
        return out
    col = {h: i for i, h in enumerate(header) if h}
    for line, row in enumerate(rows[1:], 2):
        cell = {h: (csv_plain(row[i].strip()) if i < len(row) else "") for h, i in col.items()}
        if not any(cell.values()):
            continue
        game, message = _finals_row(cell, source, line)
        if message:
            out.problems.append(Problem(source, line, message))
        else:
            out.games.append(game)  # type: ignore[arg-type]
    return out


def _finals_row(cell: dict[str, str], source: str, line: int
                ) -> tuple[ImportedGame | None, str | None]:
    for column, text in cell.items():
        message = name_problem(text) if column in ORDINALS else None
        if message:
            return None, message
        if len(text) > MAX_CELL:
            return None, (f"the {column} cell is longer than {MAX_CELL:,} characters; no "
                          "result needs that many.")
        if visible(text) != text:
            return None, (f'the {column} cell "{visible(_short(text))}" holds a control '
                          "character; cells are printable text.")
    date = None
    if cell.get("date"):
        try:
            date = dt.date.fromisoformat(cell["date"])
        except ValueError:
            return None, (f'the date "{_short(cell["date"])}" is not a date; write dates as '
                          "YYYY-MM-DD, e.g. 2026-04-04.")
    n = 4 if cell.get("fourth") or cell.get("fourth_final") else 3
    names, finals, scores, chips = [], [], [], []
    for o in ORDINALS[:n]:
        name, final = cell.get(o, ""), cell.get(f"{o}_final", "")
        if not name:
            return None, f"the {o} player's name is blank; fill in every player."
        value = decimal(final)
        if value is None or abs(value) >= MOST_FINAL:
            return None, (f'{name}\'s final score ("{_short(final)}") is not a number; write '
                          f"it like +52.1 or -19.4 (less than {MOST_FINAL:,} either way).")
        names.append(name)
        finals.append(value)
        raw = cell.get(f"{o}_score", "")
        if raw:
            points = decimal(raw.replace(",", ""))
            if points is None or points != points.to_integral_value() or \
                    abs(points) >= MOST_SCORE:
                return None, (f'{name}\'s raw score ("{_short(raw)}") is not whole points like '
                              "32400.")
            scores.append(int(points))
        count = cell.get(f"{o}_chips", "")
        if count:
            value = decimal(count)
            if value is None or value != value.to_integral_value() or \
                    abs(value) >= MOST_CHIPS:
                return None, (f'{name}\'s chips ("{_short(count)}") are not a whole number '
                              "like +2 or -1.")
            chips.append(int(value))
    if len(set(names)) < n:
        return None, f"the same player is listed twice ({', '.join(names)})."
    message = check_order(finals)
    if message:
        return None, message
    if scores and len(scores) != n:
        return None, "give raw scores for every player or for none."
    if chips and len(chips) != n:
        return None, "give chips for every player or for none (0 for none won or paid)."
    return ImportedGame(
        names=tuple(names), settled=True, finals=tuple(finals),
        scores=tuple(scores) if scores else None, date=date, time=cell.get("time") or None,
        source=source, line=line, lobby=cell.get("lobby", ""), ref=cell.get("ref", ""),
        session=cell.get("session") or None, table=cell.get("table") or None,
        game=cell.get("game") or None, chips=tuple(chips) if chips else None), None


#: Finals and raw scores a game can have; beyond them a cell is a typo, not a score.
MOST_FINAL = 100_000
MOST_SCORE = 10_000_000
#: The longest cell of a finals CSV read (a date, a name, a log id: a few dozen characters).
MAX_CELL = 1_000


def _short(text: str) -> str:
    """A cell's text for a message, cut to 30 characters."""
    return text if len(text) <= 30 else text[:30] + "..."


def finals_rows(games: Iterable[ImportedGame]) -> list[list[object]]:
    """Platform-settled games as finals CSV rows (header first), for writing out.

    >>> from decimal import Decimal
    >>> finals_rows([ImportedGame(("A", "B", "C"), True, (Decimal(30), Decimal(0),
    ...              Decimal(-30)))])[1][:13]
    ['', '', '', '', '', '', '', 'A', '+30', 'B', '0', 'C', '-30']
    """
    games = list(games)
    columns = FINALS_COLUMNS + (CHIPS_COLUMNS if any(g.chips for g in games) else ())
    rows: list[list[object]] = [list(columns)]
    for g in games:
        if not g.settled or g.finals is None:
            raise ValueError("finals_rows takes platform-settled games only")
        cells: dict[str, object] = {
            "date": g.date.isoformat() if g.date else "", "time": g.time or "",
            "session": _text(g.session), "table": _text(g.table), "game": _text(g.game),
            "lobby": g.lobby, "ref": g.ref}
        for i, o in enumerate(ORDINALS[:g.players]):
            cells[o] = g.names[i]
            final = g.finals[i]
            cells[f"{o}_final"] = f"{final:+}" if final else str(abs(final))
            if g.scores:
                cells[f"{o}_score"] = g.scores[i]
            if g.chips:
                cells[f"{o}_chips"] = f"{g.chips[i]:+}" if g.chips[i] else "0"
        rows.append([cells.get(c, "") for c in columns])
    return rows


def _text(value: object) -> object:
    return "" if value is None else value


# ------------------------------------------------------------------------------------------------
# Duplicates.


def drop_duplicates(result: ImportResult, seen: dict[tuple[object, ...], str] | None = None
                    ) -> ImportResult:
    """Keep the first import of each game; later ones become problems naming the first.

    ``seen`` maps keys (see :meth:`ImportedGame.keys`) of games imported before (say, from
    an earlier output file) to where they came from; it is updated.

    >>> from decimal import Decimal
    >>> line = ImportedGame(("A", "B", "C"), True, (Decimal(30), Decimal(0), Decimal(-30)),
    ...                     time="20:05", source="night.log", line=4)
    >>> result = drop_duplicates(ImportResult([line, line]))
    >>> len(result.games), str(result.problems[0])
    (1, 'night.log line 4: the same game as night.log line 4 (imported twice); skipped.')
    """
    seen = {} if seen is None else seen
    out = ImportResult(problems=list(result.problems))
    for g in result.games:
        first = next((seen[k] for k in g.lookups() if k in seen), None)
        if first is not None:
            out.problems.append(Problem(g.source, g.line, f"the same game as {first} "
                                        "(imported twice); skipped."))
            continue
        for k in g.keys():
            seen[k] = g.describe()
        out.games.append(g)
    return out


# ------------------------------------------------------------------------------------------------
# Whole files.

#: The formats ``read_results`` knows, by the name ``umaoka import --format`` takes.
FORMATS = ("tenhou-lobby", "tenhou-json", "mjlog", "csv")
#: Largest file (after unzipping) we read: a day of Tenhou lobby results is a few MB.
MAX_BYTES = 64 * 1024 * 1024


def detect_format(name: str, data: bytes) -> str:
    """The format of a results file, from its name and its first bytes.

    >>> detect_format("sca20260404.log", b"L1002 | 00:44 | ...")
    'tenhou-lobby'
    >>> detect_format("game.txt", b'{"name": ["A"]}'), detect_format("x.xml", b"<mjloggm")
    ('tenhou-json', 'mjlog')
    """
    head = data[:512]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or (
            len(head) >= 4 and head[1:4:2] == b"\x00\x00" and head[0:4:2] != b"\x00\x00"):
        # UTF-16 (Excel's "Unicode text", Windows Notepad): look at its characters
        head = head[:len(head) // 2 * 2]
        codec = "utf-16" if head.startswith((b"\xff\xfe", b"\xfe\xff")) else "utf-16-le"
        head = head.decode(codec, "replace").encode("utf-8")
    head = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    lower = name.lower()
    if head.startswith(b"{"):
        return "tenhou-json"
    if head.startswith(b"<") or lower.endswith((".mjlog", ".xml")):
        return "mjlog"
    if lower.endswith(".csv"):
        return "csv"
    return "tenhou-lobby"


def read_results(name: str, data: bytes, fmt: str | None = None) -> ImportResult:
    """Every game of one file (gzip-compressed or not); ``fmt`` is one of :data:`FORMATS`
    or None to detect it. Problems name the file (``name``) and the line."""
    if data[:2] == b"\x1f\x8b":  # gzip, as tenhou.net/sc/raw serves the daily files
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(data)) as fh:
                data = fh.read(MAX_BYTES + 1)
        except (OSError, EOFError, zlib.error):
            return ImportResult(problems=[Problem(name, 0, "the file looks gzip-compressed "
                                                  "but cannot be unpacked; download it again.")])
    if len(data) > MAX_BYTES:
        return ImportResult(problems=[Problem(name, 0, f"the file is larger than "
                                              f"{MAX_BYTES // 2**20} MB; split it.")])
    fmt = fmt or detect_format(name.removesuffix(".gz"), data)
    if fmt not in FORMATS:
        return ImportResult(problems=[Problem(name, 0, f'"{fmt}" is not a results format; '
                                              f"use one of {', '.join(FORMATS)}.")])
    if fmt == "mjlog":
        return tenhou.parse_mjlog(data, name)
    try:
        text = decode(data)
        if "\x00" in text:  # no text file holds a NUL: binary bytes decoded by chance
            raise UnicodeDecodeError("utf-8", data, 0, 1, "NUL")
    except UnicodeDecodeError:
        return ImportResult(problems=[Problem(name, 0, "the file is neither UTF-8, UTF-16 "
                                              "nor Shift_JIS text; save it as UTF-8.")])
    if fmt == "tenhou-json":
        return tenhou.parse_json(text, name)
    if fmt == "csv":
        return parse_finals_csv(text, name)
    return tenhou.parse_lobby(text, name)
