"""What every command shares: its errors, the program name, and common options."""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any, NoReturn

from umaoka.engine import UmaokaError

PROG = "umaoka"


class UsageError(Exception):
    """Bad command-line usage (exit status 2)."""


class WriteError(Exception):
    """A file or folder could not be written (exit status 1)."""


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # "-20,0,0,0" and "-1,200" are values, not options (argparse knows only "-20", "-1.5")
        self._negative_number_matcher = re.compile(r"^-\d[\d,._]*$|^-\.\d+$")

    def error(self, message: str) -> NoReturn:
        # a 5,000-digit --rounds is quoted by its first digits, not in full
        message = re.sub(r"'([^']{30})[^']{10,}'", r"'\1...'", message)
        raise UsageError(f"{message} (see `{self.prog} --help`)")


def whole(text: str) -> int:
    """An option's whole number (argparse's type): digits with an optional sign, as typed;
    not Python's ``int()``, which also reads ``1_000`` and full-width digits."""
    t = text.strip()
    digits = t[1:] if t[:1] in ("+", "-") else t
    if not (digits.isascii() and digits.isdigit()):
        raise argparse.ArgumentTypeError(f'"{_excerpt(t)}" is not a whole number')
    if len(digits) > 18:  # before int(): a 5,000-digit number costs nothing to refuse
        raise argparse.ArgumentTypeError(f'"{_excerpt(t)}" is far too large')
    return int(t)


def output_folder(text: str | None) -> Path | None:
    """``-o DIR``: the folder, made when it is not there yet (None without the option)."""
    if not text:
        return None
    folder = Path(text)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise WriteError(f"cannot create the output folder {folder} "
                         f"({e.strerror or e})") from None
    return folder


def _split(text: str | None) -> list[str]:
    return [t.strip() for t in (text or "").split(",") if t.strip()]


#: A roster file's header cell over its column of names (``Name,Team``).
NAME_HEADERS = frozenset(("name", "names", "player", "players", "名前", "氏名", "プレイヤー"))


def _roster(text: str | None) -> list[str]:
    """``--players``: names separated by commas, or a text file with one name a line
    (``#`` starts a comment; a CSV whose header names a Name or Player column gives that
    column); a name given twice (in any case), with a control character or over 200
    characters is refused, each in one sentence."""
    from umaoka.engine.online.imported import name_problem

    if text is None:
        return []
    names = _split(text)
    if len(names) == 1 and "," not in text and _is_file_name(names[0]):
        names = _roster_file(Path(names[0]))
    seen: dict[str, str] = {}
    for name in names:
        problem = name_problem(name)
        if problem:
            raise UmaokaError(f"--players: {problem}")
        if name.casefold() in seen:
            twice = (f"{name} is given twice" if seen[name.casefold()] == name else
                     f"{seen[name.casefold()]} and {name} differ only by case")
            raise UmaokaError(f"{twice} in --players; give each player once, spelt one way.")
        seen[name.casefold()] = name
    return names


def _is_file_name(text: str) -> bool:
    """Whether ``--players`` names a file: one that exists (a device or a pipe too: it is
    read as a file, no further than a file's limit, never taken as a player's name), or a
    .txt or .csv name (a name too long for a file, such as a 300-character player, is a
    player)."""
    try:
        path = Path(text)
        return path.exists() or (path.suffix.lower() in (".txt", ".csv") and
                                 len(path.name) <= 255)
    except (OSError, ValueError):  # too long for the system, or a NUL in it
        return False


def _roster_file(path: Path) -> list[str]:
    """The names of a roster file: one a line, or the Name column under a header."""
    from umaoka.templates.xlsx.io import read_text

    if not path.exists():
        raise UmaokaError(f"{path} does not exist; give --players names separated by "
                          "commas, or a text file with one name a line.")
    if path.is_dir():
        raise UmaokaError(f"{path} is a folder; give --players names separated by commas, "
                          "or a text file with one name a line.")
    lines = [(i, line.strip()) for i, line in enumerate(
        read_text(path, "a file of names").splitlines(), 1)
        if line.strip() and not line.lstrip().startswith("#")]
    column = None
    if lines:  # a header row (Name, or Name,Team) names the column of names; it is no player
        header = [c.strip().strip('"').casefold() for c in lines[0][1].split(",")]
        column = next((k for k, c in enumerate(header) if c in NAME_HEADERS), None)
        if column is not None:
            lines = lines[1:]
    names = []
    for i, line in lines:
        if column is not None:
            cells = line.split(",")
            names.append(cells[column].strip().strip('"') if column < len(cells) else "")
        elif "," in line:
            raise UmaokaError(f'{path} line {i} holds a comma ("{_excerpt(line)}"); write one '
                              "name a line, or head a CSV with a Name column.")
        else:
            names.append(line)
    names = [n for n in names if n]
    if not names:
        raise UmaokaError(f"{path} holds no names; write one name a line.")
    return names


def _excerpt(text: str) -> str:
    from umaoka.engine.online.imported import visible

    return visible(text if len(text) <= 40 else text[:37] + "...")


def _runtime(args: argparse.Namespace) -> Any:
    from umaoka.templates.book.runtime import runtime

    return runtime(args.runtime, args.namespace)


def _games(n: int) -> str:
    return f"{n} game{'s' if n != 1 else ''}"


def _runtime_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--runtime", choices=("lite", "classic", "server"), default="lite",
                   help="the add-in the formulas are written for: xlwings Lite (free, any "
                   "Excel 2021/365; default), classic xlwings (Windows, VBA functions) or "
                   "xlwings Server")
    p.add_argument("--namespace", metavar="NS", default=None,
                   help="with --runtime server: its function namespace: XLWINGS_DEV "
                   "(default, what `xlwings-server init` sets up), XLWINGS for "
                   'XLWINGS_ENVIRONMENT="prod"; see docs/runtimes.md')
