"""The ``umaoka`` command line: its parser and ``main``; each command group has a module.

Every error is one line on stderr and a non-zero exit status, never a traceback: 2 for bad
usage or bad input (a missing or unreadable input file included), 1 when a file cannot be
written (no permission, disk full).
"""

from __future__ import annotations

import argparse
import os
import sys
import zipfile
from collections.abc import Sequence

from umaoka.addin.cli import excel, game, league, post, season, workbook
from umaoka.addin.cli.base import (
    PROG,
    UsageError,
    WriteError,
    _Parser,
)
from umaoka.engine import UmaokaError, __version__


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description="Riichi mahjong final scores (oka and uma) and league "
                "standings, in Excel workbooks and on the command line.")
    p.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for group in (workbook, post, game, season, excel, league):  # the order of `umaoka --help`
        group.add_commands(sub)
    return p


def _fail(message: str, status: int) -> int:
    from umaoka.engine.online.imported import visible  # the same as tables.shown, without rich

    text = visible(" ".join(str(message).split()))
    print(f"{PROG}: error: {text}", file=sys.stderr)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(list(sys.argv[1:] if argv is None else argv))
        if extra:  # point to the help of the command that was given, not the top level's
            where = f"{PROG} {args.command}" if getattr(args, "command", None) else PROG
            raise UsageError(f"unrecognized arguments: {' '.join(extra)} "
                             f"(see `{where} --help`)")
        if not getattr(args, "func", None):
            parser.print_help()
            return 2
        return int(args.func(args))
    except SystemExit as e:  # --help and --version
        return int(e.code or 0) if isinstance(e.code, int) else 0
    except UsageError as e:
        return _fail(str(e), 2)
    except UmaokaError as e:
        return _fail(str(e), 2)
    except WriteError as e:
        return _fail(str(e), 1)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except BrokenPipeError:  # `umaoka demo | head`: the reader left; nothing to report
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    # Inputs are checked before reading (a missing or unreadable input is bad input, 2), so
    # what reaches here is a file that could not be written: status 1.
    except PermissionError as e:
        return _fail(f"permission denied: {e.filename or e}", 1)
    except OSError as e:  # one line, status 1, for every file-system error
        where = f": {e.filename}" if getattr(e, "filename", None) else ""
        hint = {28: "; free some space or write elsewhere (no file was written)",
                30: "; the folder is read-only: write elsewhere (no file was written)"}
        return _fail(f"cannot write: {e.strerror or e}{where}{hint.get(e.errno or 0, '')}", 1)
    except (zipfile.BadZipFile, ValueError, KeyError) as e:
        return _fail(f"{type(e).__name__}: {e}", 2)
    except Exception as e:  # never a traceback for the person at the terminal
        if os.environ.get("UMAOKA_DEBUG"):
            raise
        return _fail(f"unexpected {type(e).__name__}: {e} (set UMAOKA_DEBUG=1 for details)", 1)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
