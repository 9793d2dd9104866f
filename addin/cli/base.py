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


def _split(text: str | None) -> list[str]:
    return [t.strip() for t in (text or "").split(",") if t.strip()]


def _roster(text: str | None) -> list[str]:
    """``--players``: names separated by commas, or a text file with one name a line
    (``#`` starts a comment); a name given twice (in any case) is refused."""
    if text is None:
        return []
    names = _split(text)
    if len(names) == 1 and "," not in text and (Path(names[0]).is_file() or Path(
            names[0]).suffix.lower() in (".txt", ".csv")):
        from umaoka.templates.xlsx.io import read_text

        path = Path(names[0])
        if not path.is_file():
            raise UmaokaError(f"{path} does not exist; give --players names separated by "
                              "commas, or a text file with one name a line.")
        names = [line.split(",")[0].strip() for line in read_text(path, "a file of names")
                 .splitlines() if line.strip() and not line.lstrip().startswith("#")]
        if not names:
            raise UmaokaError(f"{path} holds no names; write one name a line.")
    seen: dict[str, str] = {}
    for name in names:
        if name.casefold() in seen:
            twice = (f"{name} is given twice" if seen[name.casefold()] == name else
                     f"{seen[name.casefold()]} and {name} differ only by case")
            raise UmaokaError(f"{twice} in --players; give each player once, spelt one way.")
        seen[name.casefold()] = name
    return names




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
