"""``umaoka post``: the standings as a picture and a page, ready to share after a league
night (see :mod:`umaoka.templates.post`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from umaoka.addin.cli.base import PROG, output_folder
from umaoka.addin.cli.tables import shown


def cmd_post(args: argparse.Namespace) -> int:
    from umaoka.templates.book.labels import label
    from umaoka.templates.post import write_post
    from umaoka.templates.xlsx.formats import check_spreadsheet

    path = Path(args.input)
    check_spreadsheet(path)
    out_dir = output_folder(args.output)
    done = write_post(path, out_dir, lang=args.lang, force=args.force)
    if done.warning:
        print(f"{PROG}: warning: {done.warning}", file=sys.stderr)
    print(label("r_posted", args.lang or done.post.lang, picture=shown(str(done.picture)),
                page=shown(str(done.page))))
    return 0


def add_commands(sub: Any) -> None:
    """Add ``umaoka post`` to the ``umaoka`` parser's subcommands."""
    post = sub.add_parser(
        "post", help="write the standings as a picture (PNG) and a web page (HTML) to share",
        description="Writes LEAGUE_standings.png (1080 pixels wide, for a phone or a chat "
        "group) and LEAGUE_standings.html (one page with no outside files: a club web site, "
        "or print it) beside the league workbook: each stage's standings (or each league "
        "tab's), the team tables and the cumulative-points chart, with the numbers of the "
        "settled copy.")
    post.add_argument("input", metavar="LEAGUE.xlsx", help="the league workbook (or a "
                      "settled copy)")
    post.add_argument("-o", "--output", metavar="DIR", help="the folder to write them in "
                      "(default: the league workbook's folder)")
    post.add_argument("--lang", choices=("en", "ja"), default=None,
                      help="language of the labels (default: the workbook's)")
    post.add_argument("--force", action="store_true", help="replace existing files")
    post.set_defaults(func=cmd_post)
