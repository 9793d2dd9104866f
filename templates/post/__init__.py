"""Standings ready to post after a league night: a picture for a chat group and a page
for a web site, from a league workbook (see :func:`write_post`).

:mod:`.content` says what a post shows (the settled copy's numbers), :mod:`.picture` draws
it as a PNG for a phone, :mod:`.page` writes it as one self-contained HTML page.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from umaoka.engine import __version__
from umaoka.engine.batch import paused_gc
from umaoka.templates.post.content import Post, post_of
from umaoka.templates.post.page import page
from umaoka.templates.post.picture import WIDTH, picture
from umaoka.templates.settle_book import read_book
from umaoka.templates.xlsx.io import check_target, write_atomic

__all__ = ["Posted", "WIDTH", "post_paths", "write_post"]


@dataclass(frozen=True)
class Posted:
    """What ``umaoka post`` wrote: the picture, the page, and a warning (a missing font)."""

    picture: Path
    page: Path
    post: Post
    warning: str | None = None


def post_paths(path: Path, out_dir: Path | None = None) -> tuple[Path, Path]:
    """``league_standings.png`` and ``.html`` beside ``league.xlsx`` (or in ``out_dir``)."""
    folder = out_dir if out_dir is not None else path.parent
    stem = f"{path.stem}_standings"
    return folder / f"{stem}.png", folder / f"{stem}.html"


def write_post(path: Path, out_dir: Path | None = None, lang: str | None = None,
               force: bool = False) -> Posted:
    """Write the standings picture and page of the league workbook ``path``.

    The numbers are the settled copy's (the workbook is read as ``umaoka settle`` reads
    it); ``lang`` overrides the workbook's language. Never over an existing file without
    ``force``; each file is written atomically.
    """
    path = Path(path)
    png, html = post_paths(path, out_dir)
    for target in (png, html):
        check_target(target, force, (path,))
    with paused_gc(collect=True):
        book = read_book(path)
    if lang is not None:
        book = replace(book, lang=lang)
    post = post_of(book, path.stem)
    image, warning = picture(post)
    text = page(post, path.name, __version__)
    write_atomic(png, lambda tmp: tmp.write_bytes(image), force=force)
    write_atomic(html, lambda tmp: tmp.write_text(text, encoding="utf-8"), force=force)
    return Posted(png, html, post, warning)
