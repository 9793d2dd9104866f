"""Updating the manager's league workbook in place, keeping every part umaoka does not own.

A command that adds to a league (games, a seating plan, a stage, teams, another runtime's
formulas, the xlwings Lite code) writes umaoka's sheets anew and puts them into **the same
file**: every other part of the workbook is copied from the zip unchanged, byte for byte
(see :mod:`umaoka.addin.install.merge`).

The update is atomic (the file is replaced only when the new one is complete and flushed),
the previous version is kept beside it as ``NAME.bak.xlsx`` (``NAME.bak.xlsm``), and a file
that Excel or LibreOffice has open (their lock files ``~$NAME.xlsx`` and
``.~lock.NAME.xlsx#`` beside it) is refused, since the program would write over the update
when the manager saves. One update at a time holds the league (:func:`.lock.updating`):
a symbolic link is followed to its file, which is the one updated and locked.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from umaoka.addin.install.lock import (
    check_not_open,
    check_unchanged,
    league_file,
    lock_files,
    updating,
)
from umaoka.addin.install.merge import merge_into
from umaoka.addin.install.parts import (
    PKG_RELS,
    Package,
    rels_name,
    rels_xml,
)
from umaoka.engine import UmaokaError
from umaoka.templates.xlsx.io import check_target, write_atomic
from umaoka.templates.xlsx.temporaries import scratch_folder

# ------------------------------------------------------------------------------------------------
# The backup beside the file (which file, the lock and its checks: :mod:`.lock`)


def backup_path(path: Path) -> Path:
    """Where the previous version of ``path`` is kept: ``league.xlsx`` -> ``league.bak.xlsx``."""
    path = Path(path)
    return path.with_name(f"{path.stem}.bak{path.suffix}")


def backup_of(path: Path) -> Path:
    """Where an in-place update of ``path`` keeps the previous version: beside the file
    (the file a link names)."""
    return backup_path(Path(os.path.realpath(path)))


def keep_backup(path: Path) -> Path:
    """Copy ``path`` to its backup (atomically; an older backup is replaced)."""
    backup = backup_path(path)
    write_atomic(backup, lambda tmp: shutil.copyfile(path, tmp), force=True)
    return backup


def check_not_report(path: Path) -> None:
    """Refuse a settled copy (a report) as the league to add to."""
    from umaoka.templates.settle_book import settled_source

    source = settled_source(path)
    if source is not None:
        raise UmaokaError(f"{path} is a settled copy (a report, from {source or 'a league'}); "
                          "add to the league workbook it was settled from.")


def publish(src: Path, out: Path | None, force: bool, write: Callable[[Path], Any]) -> Path:
    """Write with ``write(tmp)`` to ``out`` (a new file, never over ``src``), or, when
    ``out`` is None or ``src`` itself, update ``src`` in place: refused while it is open,
    its previous version kept as the backup, replaced atomically."""
    src = Path(src)

    def written(tmp: Path) -> Any:
        try:
            return write(tmp)
        except UnicodeDecodeError:  # a part umaoka rewrites saved as UTF-16 by some program
            raise UmaokaError(f"{src} has a part that is not UTF-8 text, as Excel writes "
                              "it; open and save it in Excel, then run the command again "
                              "(nothing was written).") from None

    if out is None:
        with updating(src) as held:
            real = held.real
            mode = real.stat().st_mode & 0o7777

            def ready() -> None:  # the new file is whole: the league unchanged? Then back up
                check_unchanged(held)
                keep_backup(real)

            write_atomic(real, written, force=True, ready=ready)
            try:
                os.chmod(real, mode)  # the file keeps its permissions
            except OSError:
                pass
        return src
    out = Path(out)
    if out.suffix.lower() != src.suffix.lower():
        raise UmaokaError(f"{out} should end in {src.suffix} like {src.name}: Excel refuses a "
                          "workbook whose extension does not match its kind.")
    check_target(out, force, (src,))
    write_atomic(out, written, force=force)
    return out




# ------------------------------------------------------------------------------------------------
# Writing

def lite_extra(view: Package, changed: dict[str, bytes], drop: set[str]) -> None:
    """Put umaoka's xlwings Lite code into the merged workbook (replacing Lite code there)."""
    from umaoka.addin.install.embed import _lite_changes, lite_settings

    more, gone = _lite_changes(view, lite_settings())
    for part in gone:
        changed.pop(part, None)
    drop |= gone & view._old.names  # type: ignore[attr-defined]
    changed.update(more)


def unlite_extra(view: Package, changed: dict[str, bytes], drop: set[str]) -> None:
    """Take umaoka's xlwings Lite code out of the merged workbook (formulas for another
    runtime); Lite code of anyone else stays."""
    from umaoka.addin.install.embed import PREFIXES, WE, _lite_part, _remove_lite
    from umaoka.addin.install.parts import content_types_xml, tree_xml

    part = _lite_part(view)
    if part is None or not any("Generated by `umaoka lite`" in p.get("value", "")
                               for p in part.iter(f"{{{WE}}}property")):
        return
    panes, gone, dirty = _remove_lite(view)
    for name, (tree, rels) in panes.items():
        if name in dirty:
            changed[name] = tree_xml(tree, PREFIXES)
            changed[rels_name(name)] = rels_xml(rels)
    for name in gone:
        changed.pop(name, None)
    drop |= gone & view._old.names  # type: ignore[attr-defined]
    changed["[Content_Types].xml"] = content_types_xml(view.xml("[Content_Types].xml"), gone,
                                                       {})


def embed_lite_into(path: Path) -> Path:
    """Put umaoka's xlwings Lite code into the manager's workbook ``path`` itself (replacing
    Lite code there; every other part kept): refused while the file is open in Excel or
    LibreOffice, the previous version kept as ``NAME.bak.xlsx``, replaced atomically."""
    from umaoka.addin.install.embed import _check_book, _embed, lite_settings

    path = Path(path)
    _check_book(path)
    with Package(path):  # a clear message for a missing or broken input, first
        pass
    check_not_report(path)
    settings = lite_settings()
    return publish(path, None, False, lambda tmp: _embed(path, tmp, settings))


def say_left_out(line: str) -> None:
    """Tell the manager, on stderr, of one thing of theirs an update leaves out."""
    print(f"umaoka: warning: left out: {line}", file=sys.stderr)


def update_league(book: Any, path: Path, out: Path | None = None, force: bool = False,
                  season_run: Any = None, say: Callable[[str], None] = say_left_out) -> Path:
    """Write ``book`` (read from ``path`` and added to) into the workbook at ``path``: in
    place (``out`` None; backup kept, refused while open) or to the new file ``out``.

    umaoka's sheets are written anew; every other part of the file is kept as it is, and
    so are the manager's own cells, columns and comments inside umaoka's sheets. What of
    theirs cannot be kept is told to ``say``, one line each, before the file is written.
    """
    path = Path(path)
    if out is not None and Path(out).exists() and _same(Path(out), path):
        raise UmaokaError(f"{out} is the input workbook; leave out -o to update it in place.")
    if out is None:
        with updating(path):  # held already by a command that read the book under it
            return _update(book, path, None, force, season_run, say)
    return _update(book, path, out, force, season_run, say)


def _update(book: Any, path: Path, out: Path | None, force: bool,
            season_run: Any, say: Callable[[str], None]) -> Path:
    from umaoka.templates.build import build_workbook
    from umaoka.templates.xlsx.writer import save_fast

    lite = book.runtime.kind == "lite"
    target = Path(out) if out is not None else league_file(path)
    folder = target.parent
    if not folder.exists():
        raise UmaokaError(f"folder {folder} does not exist; create it first.")
    try:  # umaoka's sheets, written first to a temporary file of ours beside the target
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.umaoka-{os.getpid()}-",
                                    suffix=".tmp", dir=folder)
    except OSError as e:
        raise OSError(e.errno, e.strerror, str(target)) from None
    os.close(fd)
    fresh = Path(name)
    try:
        wb = build_workbook(book, lite_code_inside=lite, season_run=season_run)
        try:
            with scratch_folder(target):
                save_fast(wb, fresh)
        except OSError as e:  # name the file asked for, not ours
            if e.filename not in (None, name):
                raise
            raise OSError(e.errno, e.strerror, str(target)) from None
        del wb
        with contextlib.ExitStack() as stack:
            return publish(path, out, force, lambda tmp: merge_into(
                path, fresh, tmp, lite_extra if lite else unlite_extra, say,
                _as_it_was(path, folder, stack)))
    finally:
        fresh.unlink(missing_ok=True)


def _as_it_was(path: Path, folder: Path, stack: contextlib.ExitStack
               ) -> Callable[[], Package | None]:
    """The workbook as umaoka writes it for ``path`` as it is now (built when first asked
    for, into a temporary file of ours closed with ``stack``), or None if it cannot be."""
    from umaoka.templates.build import build_workbook
    from umaoka.templates.settle_book import read_book
    from umaoka.templates.xlsx.writer import save_fast

    got: dict[str, Package | None] = {}

    def build() -> Package | None:
        if "book" not in got:
            got["book"] = None
            try:
                book = read_book(path)
                wb = build_workbook(book, lite_code_inside=book.runtime.kind == "lite")
                fd, name = tempfile.mkstemp(prefix=f".{path.name}.umaoka-was-{os.getpid()}-",
                                            suffix=".tmp", dir=folder)
                os.close(fd)
                stack.callback(Path(name).unlink, missing_ok=True)
                save_fast(wb, Path(name))
                got["book"] = stack.enter_context(Package(Path(name)))
            except (UmaokaError, OSError):
                pass  # then the new layout alone tells umaoka's cells from the manager's
        return got["book"]

    return build


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or a.samefile(b)
    except OSError:
        return False


def update_writer(source: Path, out: Path | None) -> Callable[..., Path]:
    """A ``write(book, out, force=..., inputs=...)`` for :func:`import_into` and
    :func:`seat_into` that updates ``source`` in place (``out`` None) or writes ``out``."""

    def write(book: Any, _out: Path, force: bool = False, inputs: tuple[Path, ...] = (),
              **_: Any) -> Path:
        return update_league(book, source, out, force=force)

    return write


__all__ = ["backup_of", "backup_path", "check_not_open", "lock_files", "update_league",
           "update_writer", "PKG_RELS"]
