"""Tenhou results: lobby result lines, and game logs (tenhou.net/6 JSON and mjlog XML).

**Lobby lines** are what Tenhou publishes for a lobby: the daily ``sca*.log`` files of
tenhou.net/sc/raw (private lobbies: ``L1002 | 00:44 | 四般南喰赤－ | players``), the ranked
summary lines (``23:59 | 20 | 四般東喰赤－ | players``: start time, minutes played, rules), or
lines copied from a lobby page. Players are listed in finishing order with the lobby's
settled points, ``name(+61.0)`` (``0.0`` has no sign), or ``name(+57.0,+2枚)`` in chip
lobbies. Names may hold symbols and even parentheses: each result is read from the right
as the last ``(number)`` or ``(number,chips枚)`` before a space. The table type (四 or 三)
says how many players to expect; the date comes from the file name (``sca20260404.log``).

**Game logs** hold the raw end scores: the JSON that tenhou.net/6 shows (``name``, ``sc``
= raw points and Tenhou's finals by seat, ``log`` = the hands, ``rule``, ``ref``) and the
mjlog XML (``<UN n0=...>`` URL-encoded names, ``<GO type=...>`` flags for sanma and
east-only, ``owari="raw/100,final,..."`` on the last hand). Tenhou gives leftover riichi
sticks to 1st at the end; the importer takes them back out as ``deposits``, so the league
settles the game under its own rules (its ``leftover`` rule included).

>>> result = parse_lobby("L1002 | 00:44 | 四般南喰赤－ | しきさん(+61.0) NoName(0.0) "
...                      "あたまくん(-25.0) *芹澤六花*(-36.0)", "sca20260404.log")
>>> g = result.games[0]
>>> g.names, [str(f) for f in g.finals], g.date, g.time, g.lobby
(('しきさん', 'NoName', 'あたまくん', '*芹澤六花*'), ['61.0', '0.0', '-25.0', '-36.0'], \
datetime.date(2026, 4, 4), '00:44', 'L1002')
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from typing import Any
from urllib.parse import unquote
from xml.etree.ElementTree import Element

from defusedxml import ElementTree
from defusedxml.common import DefusedXmlException

from umaoka.engine.online.imported import (
    MAX_NAME,
    ImportedGame,
    ImportResult,
    Problem,
    check_order,
    date_from_name,
    name_date_problem,
    name_problem,
)

#: Longest lobby line read: four players, their results and the rules take under 200
#: characters; longer lines are not results (and are not scanned).
MAX_LINE = 1_000
_LOBBY = re.compile(r"[A-Z][0-9]{4}")
_TIME = re.compile(r"([0-9]{1,2}):([0-9]{2})")
_MINUTES = re.compile(r"[0-9]{1,3}")
# One result: (points) or (points,chips枚), followed by a space or the end of the line.
_RESULT = re.compile(r"\((?P<pt>[+-]?\d+(?:\.\d+)?)(?:,(?P<chip>[+-]?\d+)枚)?\)(?=\s|$)")
_LOG_ID = re.compile(r"\d{10}gm-[0-9a-f]{4}-\d{4}-[0-9a-f]{8}")
#: Lobby results are within a few hundred points; larger ones are a damaged line.
_MOST_POINTS = 10_000
_EXAMPLE = "L1002 | 21:05 | 四般南喰赤－ | name(+50.0) name(+10.0) name(-20.0) name(-40.0)"


def parse_lobby(text: str, source: str = "") -> ImportResult:
    """Every lobby result line of ``text`` (blank lines and ``#`` comments are skipped)."""
    out = ImportResult()
    message = name_date_problem(source)
    if message:
        out.problems.append(Problem(source, 0, message))
        return out
    date = date_from_name(source)
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        game = _lobby_line(line, number, source, date, out)
        if game:
            out.games.append(game)
    return out


def _fields(line: str) -> tuple[str, str, str, str] | None:
    """(lobby, time, rules, players) of a lobby line, or None if it is not one.

    The line is ``[lobby |] time | [minutes |] rules | players``; players may hold ``|``
    themselves. Split on ``|`` (no pattern over the whole line, so time is linear).
    """
    parts = line.split("|")
    lobby = ""
    if len(parts) > 1 and _LOBBY.fullmatch(parts[0].strip()):
        lobby = parts.pop(0).strip()
    if len(parts) < 3 or not _TIME.fullmatch(parts[0].strip()):
        return None
    time = parts.pop(0).strip()
    if len(parts) >= 3 and _MINUTES.fullmatch(parts[0].strip()):
        parts.pop(0)  # the ranked summary's minutes played
    return lobby, time, parts[0].strip(), "|".join(parts[1:]).strip()


def _lobby_line(line: str, number: int, source: str, date: Any, out: ImportResult
                ) -> ImportedGame | None:
    def problem(message: str) -> None:
        out.problems.append(Problem(source, number, message))

    if len(line) > MAX_LINE:
        problem(f"the line is longer than {MAX_LINE:,} characters, which no lobby result is; "
                "check the file is a Tenhou lobby log.")
        return None
    fields = _fields(line)
    if fields is None:
        problem(f'not a Tenhou lobby result; expected a line like "{_EXAMPLE}".')
        return None
    lobby, time, rule, players = fields
    hours, minutes = (int(t) for t in time.split(":"))
    if hours > 23 or minutes > 59:
        problem(f'the time "{time}" is not a time of day (00:00 to 23:59); check the line.')
        return None
    n = {"四": 4, "三": 3}.get(rule[:1])
    if n is None:
        problem(f'the table type "{rule}" should start with 四 (four players) or 三 '
                "(three players).")
        return None
    names, finals, chips = [], [], []
    start = 0
    for r in _RESULT.finditer(players):
        names.append(players[start:r.start()].strip())
        finals.append(Decimal(r["pt"]))
        chips.append(r["chip"])
        start = r.end()
    if players[start:].strip() or len(names) != n:
        problem(f"expected {n} players each with a result like name(+12.0), found "
                f"{len(names)}; check the line is complete.")
        return None
    if any(abs(f) >= _MOST_POINTS for f in finals) or \
            any(c is not None and len(c.lstrip("+-")) > 4 for c in chips):
        problem("a result is out of range (points from -9,999.9 to +9,999.9, at most 9,999 "
                "chips); check the line.")
        return None
    if any(not name for name in names):
        problem("a player has no name before their result.")
        return None
    message = next(filter(None, map(name_problem, names)), None)
    if message:
        problem(message)
        return None
    if len(set(names)) < n:
        problem(f"the same player is listed twice ({' '.join(names)}).")
        return None
    message = check_order(finals)
    if message:
        problem(message)
        return None
    if any(c is None for c in chips) and any(c is not None for c in chips):
        problem("some players have chips (枚) and some do not; check the line is complete.")
        return None
    return ImportedGame(
        names=tuple(names), settled=True, finals=tuple(finals), date=date,
        time=time.zfill(5), source=source, line=number, rule=rule, lobby=lobby,
        chips=tuple(int(c) for c in chips) if chips[0] is not None else None)


# ------------------------------------------------------------------------------------------------
# Game logs.


class _Bad(Exception):
    """A log that cannot be imported: the message says why."""


class _Number(ValueError):
    """A number JSON cannot hold as an exact score (NaN, infinity, too many digits)."""


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > _MOST_DIGITS:
        raise _Number(text)
    return int(text)


def _json_float(text: str) -> Decimal:
    value = Decimal(text)
    if abs(value.adjusted()) > _MOST_DIGITS:
        raise _Number(text)
    return value


def _json_constant(text: str) -> Any:
    raise _Number(text)


#: The most digits a score in a log has (raw points: 6; a few more allowed).
_MOST_DIGITS = 12


def parse_json(text: str, source: str = "") -> ImportResult:
    """One game from the JSON of tenhou.net/6 (``mjlog2json``).

    Numbers are read exactly (no floats): NaN, infinity and numbers of more than a dozen
    digits are refused, as is nesting deeper than Python's JSON reader goes.
    """
    out = ImportResult()
    try:
        data = json.loads(text, parse_int=_json_int, parse_float=_json_float,
                          parse_constant=_json_constant)
    except json.JSONDecodeError as e:
        out.problems.append(Problem(source, e.lineno, f"not valid JSON ({e.msg}); save the "
                                    "log exactly as tenhou.net/6 shows it."))
        return out
    except _Number as e:
        shown = str(e) if len(str(e)) <= 20 else str(e)[:20] + "..."
        out.problems.append(Problem(source, 0, f"the number {shown} is not a score (a "
                                    "Tenhou log holds whole points and finals like 45.7); "
                                    "the log looks damaged."))
        return out
    except (RecursionError, ValueError):
        out.problems.append(Problem(source, 0, "the JSON is nested too deeply (or otherwise "
                                    "unreadable) for a Tenhou game log; save the log exactly "
                                    "as tenhou.net/6 shows it."))
        return out
    try:
        out.games.append(_json_game(data, source))
    except _Bad as e:
        out.problems.append(Problem(source, 0, str(e)))
    return out


def _whole(value: Any) -> int:
    """A whole number of points from a parsed log: an int, or a Decimal with no fraction."""
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        raise TypeError(value)
    if isinstance(value, Decimal) and value != value.to_integral_value():
        raise ValueError(value)
    return int(value)


def _json_game(data: Any, source: str) -> ImportedGame:
    if not isinstance(data, dict) or not all(k in data for k in ("name", "sc", "log")):
        raise _Bad("not a Tenhou game log: the JSON lacks name, sc or log.")
    names = data["name"]
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise _Bad('the log\'s "name" is not a list of player names (["A", "B", "C", "D"]); '
                   "save the log exactly as tenhou.net/6 shows it.")
    sc, log = data["sc"], data["log"]
    rule = data.get("rule") if isinstance(data.get("rule"), dict) else {}
    disp = rule.get("disp", "")
    disp = disp if isinstance(disp, str) else ""
    n = 3 if disp.startswith("三") or (len(names) == 4 and not names[3]) else 4
    if len(names) < n or not isinstance(sc, list) or len(sc) < 2 * n or not log \
            or not isinstance(log, list):
        raise _Bad("the log's names or final scores (sc) are incomplete.")
    try:
        points = [_whole(sc[2 * i]) for i in range(n)]
    except (TypeError, ValueError):
        raise _Bad("the log's raw points (sc) are not whole numbers like 35700; save the "
                   "log exactly as tenhou.net/6 shows it.") from None
    finals = [sc[2 * i + 1] for i in range(n)]
    if any(isinstance(f, bool) or not isinstance(f, (int, Decimal)) for f in finals):
        raise _Bad("the log's finals (sc) are not numbers like 45.7.")
    finals = [Decimal(f) for f in finals]
    try:
        first, last = log[0], log[-1]
        dealer = _whole(first[0][0]) % n
        total = sum(_whole(v) for v in first[1][:n])
        result = last[-1]
        check = None
        if result[0] == "和了":
            leftover = 0
        else:  # the sticks on the table, plus riichi declared in the last hand (r tiles)
            declared = [sum(1 for tile in last[4 + 3 * seat + 2]
                            if isinstance(tile, str) and tile.startswith("r"))
                        for seat in range(n)]
            leftover = (_whole(last[0][2]) + sum(declared)) * 1000
            deltas = result[1] if len(result) > 1 else [0] * n
            check = [_whole(last[1][i]) + _whole(deltas[i]) - 1000 * declared[i]
                     for i in range(n)]
    except (TypeError, ValueError, IndexError, KeyError):
        raise _Bad("the log's hands are not in the tenhou.net/6 layout; save the log "
                   "exactly as tenhou.net/6 shows it.") from None
    ref = data.get("ref", "")
    ref = ref if isinstance(ref, str) else ""
    message = None if date_from_name(ref) else name_date_problem(source)
    if message:
        raise _Bad(message)
    return _raw_game(names[:n], points, finals, leftover, total, dealer, source, check,
                     rule=disp, ref=ref, date=date_from_name(ref) or date_from_name(source),
                     start=total // n)


def parse_mjlog(data: bytes | str, source: str = "") -> ImportResult:
    """One game from a Tenhou mjlog (XML), parsed with defusedxml."""
    out = ImportResult()
    try:
        root = ElementTree.fromstring(data, forbid_dtd=True)
    except DefusedXmlException:
        out.problems.append(Problem(source, 0, "the XML declares entities or a DTD, which a "
                                    "Tenhou log never does; it was not read."))
        return out
    except ElementTree.ParseError as e:
        line = getattr(e, "position", (0, 0))[0]
        out.problems.append(Problem(source, line, f"not valid XML ({e}); save the mjlog file "
                                    "as Tenhou gives it."))
        return out
    try:
        out.games.append(_mjlog_game(root, source))
    except _Bad as e:
        out.problems.append(Problem(source, 0, str(e)))
    return out


_TABLES = ("般", "上", "特", "鳳")


def _mjlog_game(root: Element, source: str) -> ImportedGame:
    if root.tag != "mjloggm":
        raise _Bad(f"not a Tenhou mjlog: the XML root is <{root.tag}>, not <mjloggm>.")
    go = root.find("GO")
    un = next((e for e in root.iter("UN") if "n0" in e.attrib), None)
    init = root.find("INIT")
    end = next((e for e in root if "owari" in e.attrib), None)
    if go is None or un is None or init is None or end is None:
        raise _Bad("the mjlog lacks the game type, the players or the final result "
                   "(owari); is the game finished?")
    try:
        flags = int(go.get("type", "0"))
        n = 3 if flags & 0x10 else 4
        # a name is URL-encoded UTF-8: at most 12 characters a character
        names = [unquote(un.get(f"n{i}", "")[:12 * MAX_NAME + 1]) for i in range(n)]
        owari = [_number(v) for v in end.get("owari", "").split(",")]
        points = [int(owari[2 * i].to_integral_value()) * 100 for i in range(n)]
        finals = [owari[2 * i + 1] for i in range(n)]
        taikyoku = root.find("TAIKYOKU")
        dealer = _int((taikyoku if taikyoku is not None else init).get("oya", "0")) % n
        total = sum(_int(v) * 100 for v in init.get("ten", "").split(",")[:n])
        sticks = _int(end.get("ba", "0,0").split(",")[1])
    except (ValueError, IndexError):
        raise _Bad("the mjlog's players or final result are malformed.") from None
    if any(not name for name in names):
        raise _Bad("the mjlog lacks a player's name.")
    leftover = 0 if end.tag == "AGARI" else sticks * 1000
    check = None
    if end.tag == "RYUUKYOKU":  # the hand's own before/after points, for a cross-check
        try:
            sc = [_int(v) for v in end.get("sc", "").split(",")]
            check = [(sc[2 * i] + sc[2 * i + 1]) * 100 for i in range(n)]
        except (ValueError, IndexError):
            raise _Bad("the mjlog's last hand has malformed scores (sc).") from None
    table = _TABLES[(flags & 0x20) >> 4 | (flags & 0x80) >> 7]
    rule = ("三" if n == 3 else "四") + table + ("南" if flags & 0x08 else "東") + \
        ("" if flags & 0x04 else "喰") + ("" if flags & 0x02 else "赤")
    lobby = go.get("lobby", "")
    lobby = f"L{int(lobby):04d}" if _DIGITS.fullmatch(lobby) and int(lobby) else ""
    message = name_date_problem(source)
    if message:
        raise _Bad(message)
    ref_match = _LOG_ID.search(source)
    ref = ref_match.group() if ref_match else ""
    return _raw_game(names, points, finals, leftover, total, dealer, source, check, rule=rule,
                     ref=ref, date=date_from_name(source), start=total // n,
                     lobby=lobby)


#: A number in an mjlog attribute: points/100 and finals such as ``357`` or ``-25.7``.
_MJLOG_NUMBER = re.compile(r"-?[0-9]{1,9}(?:\.[0-9]{1,3})?")
_DIGITS = re.compile(r"[0-9]{1,4}")


def _number(text: str) -> Decimal:
    """An mjlog number, exactly; "inf", "nan", "1e400" and long numbers are refused."""
    text = text.strip()
    if not _MJLOG_NUMBER.fullmatch(text):
        raise ValueError(text)
    return Decimal(text)


def _int(text: str) -> int:
    value = _number(text)
    if value != value.to_integral_value():
        raise ValueError(text)
    return int(value)


#: Raw points, totals and leftover sticks beyond these are a damaged log, not a game.
_MOST_RAW = 10_000_000
_MOST_FINAL = 100_000


def _raw_game(names: list[str], points: list[int], finals: list[Decimal], leftover: int,
              total: int, dealer: int, source: str, check: list[int] | None,
              **extra: Any) -> ImportedGame:
    """Seat order from the first dealer; leftover sticks taken back from 1st as deposits.

    ``check``: the raw end points the last hand itself shows, when it ended in a draw.
    """
    n = len(names)
    for name in names:
        message = name_problem(name) if name else "the log lacks a player's name."
        if message:
            raise _Bad(message)
    if any(abs(v) >= _MOST_RAW for v in [*points, total // n, leftover, *(check or ())]) \
            or any(abs(f) >= _MOST_FINAL for f in finals):
        raise _Bad("the log's scores are out of range (raw points in the millions or more); "
                   "the log looks damaged.")
    order = [(dealer + k) % n for k in range(n)]
    names = [names[i] for i in order]
    points = [points[i] for i in order]
    finals = [finals[i] for i in order]
    check = [check[i] for i in order] if check else None
    if len(set(names)) < n:
        raise _Bad(f"two seats have the same player name ({', '.join(names)}).")
    raw = list(points)
    if sum(points) == total:  # Tenhou gave the leftover sticks to 1st (earlier seat on ties)
        top = max(range(n), key=lambda i: (points[i], -i))
        raw[top] -= leftover
    elif sum(points) + leftover != total:
        raise _Bad(f"the final points add up to {sum(points):,}, not {total:,} (with "
                   f"{leftover:,} in leftover sticks); the log looks damaged.")
    if check and check != raw:
        raise _Bad(f"the final points ({', '.join(f'{p:,}' for p in points)}) do not match "
                   "the last hand's scores; the log looks damaged.")
    return ImportedGame(names=tuple(names), settled=False, finals=tuple(finals),
                        scores=tuple(raw), deposits=leftover, source=source, **extra)
