"""Safe writing (atomic, never over an existing file without force) and safe reading.

openpyxl parses the workbook's XML with defusedxml when it is installed (it is a
dependency of umaoka) - but with lxml when that is installed too. So before openpyxl
sees a workbook, :func:`check_prologs` refuses any part that declares a DTD (entity
bombs and external entities both need one, and Excel never writes one), whichever
parser openpyxl picked. A file that is not a workbook, or a damaged one, gives a
one-line :class:`UmaokaError`.
"""

from __future__ import annotations

import os
import tempfile
import time
import warnings
import xml.parsers.expat
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from openpyxl import Workbook, load_workbook

from umaoka.engine import UmaokaError
from umaoka.engine.online.imported import decode
from umaoka.templates.xlsx.writer import AddParts, save_fast

#: Biggest workbook we read (bytes): league files are a few MB at most.
MAX_BYTES = 200 * 1024 * 1024
#: Biggest unpacked sheet we accept: a league tab of the most games we settle
#: (50,000) is about 100 MB of XML; sheets are read as a stream.
MAX_SHEET = 256 * 1024 * 1024
#: Biggest unpacked other part (styles, shared texts, workbook.xml: read whole; a league's
#: are well under 1 MB, media a few MB).
MAX_PART = 64 * 1024 * 1024
#: Most a workbook may unpack to, all parts together.
MAX_UNPACKED = 512 * 1024 * 1024
#: Spreadsheet XML packs 5 to 30 times; a part packed over this many times smaller (and
#: bigger than ``BOMB_FLOOR`` unpacked) is a zip bomb, not a workbook.
MAX_RATIO = 200
BOMB_FLOOR = 1024 * 1024


def check_target(path: Path, force: bool, inputs: tuple[Path, ...] = ()) -> None:
    """Refuse to overwrite an input file (ever) or an existing file (without force)."""
    for src in inputs:
        if _same(path, src):
            raise UmaokaError(f"{path} is the input workbook; choose another output name "
                              "(the input is never overwritten).")
    if path.exists() and not force:
        raise UmaokaError(f"{path} already exists; use --force to replace it.")
    if path.exists() and path.is_dir():
        raise UmaokaError(f"{path} is a folder; give a file name ending in .xlsx.")
    if not path.parent.exists():
        raise UmaokaError(f"folder {path.parent} does not exist; create it first.")


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and a.samefile(b))
    except OSError:
        return False


#: Temporary files of ours: ``.<name>.umaoka-<pid>-<random>.tmp`` beside the target.
_TMP_MARK = ".umaoka-"
#: A temporary of ours this old whose process is gone is left over from a crash.
STALE_SECONDS = 60


def write_atomic(path: Path, write: Callable[[Path], Any], force: bool = False) -> None:
    """Call ``write(tmp)`` on a temporary file in the same folder, then publish it as ``path``.

    The temporary file is flushed to disk before it is published, and the folder after,
    so a power cut leaves either the old state or the whole new file, never an empty one.
    Without ``force`` the publishing step itself refuses an existing file (a hard link
    cannot replace one), so two runs racing for the same name cannot silently replace
    each other's output: the later one gets a clear error. A crash or Ctrl+C leaves no
    half-written workbook; temporaries left by a killed run are removed on the next write.
    """
    path = Path(path)
    _remove_stale(path.parent)
    try:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}{_TMP_MARK}{os.getpid()}-",
                                    suffix=".tmp", dir=path.parent)
    except OSError as e:  # read-only or full folder: name the file asked for, not ours
        raise OSError(e.errno, e.strerror, str(path)) from None
    os.close(fd)
    tmp = Path(name)
    try:
        write(tmp)
        os.chmod(tmp, 0o666 & ~_umask())
        _fsync(tmp)
        if force:
            os.replace(tmp, path)
        else:
            _publish_new(tmp, path)
        _fsync(path.parent)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        if e.errno and e.filename in (None, str(tmp)):  # name the file asked for, not ours
            raise OSError(e.errno, e.strerror, str(path)) from None
        raise
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _publish_new(tmp: Path, path: Path) -> None:
    """Give ``tmp`` the name ``path`` only if nothing has that name yet (atomic, no clobber)."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise UmaokaError(f"{path} already exists (another run may have just written it); "
                          "use --force to replace it.") from None
    except OSError:
        # Folders without hard links (FAT, exFAT, some network shares): claim the name
        # exclusively, then move the finished file over our own claim.
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666)
        except FileExistsError:
            raise UmaokaError(f"{path} already exists (another run may have just written "
                              "it); use --force to replace it.") from None
        os.close(fd)
        os.replace(tmp, path)
        return
    tmp.unlink()


def _fsync(path: Path) -> None:
    """Flush a file, or a folder's entries, to disk (folders cannot be opened on Windows)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot flush a folder; the file itself was flushed
    finally:
        os.close(fd)


def _remove_stale(folder: Path) -> None:
    """Delete temporaries of ours left by a killed run (their process is gone, and old)."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    now = time.time()
    for entry in entries:
        name = entry.name
        if not (name.startswith(".") and name.endswith(".tmp") and _TMP_MARK in name):
            continue
        try:
            pid = int(name.rsplit(_TMP_MARK, 1)[1].split("-", 1)[0])
            if now - entry.stat(follow_symlinks=False).st_mtime < STALE_SECONDS \
                    or _alive(pid):
                continue
            os.unlink(entry.path)
        except (ValueError, OSError):
            continue


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, but not ours to signal
    return True


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def save_workbook(wb: Workbook, path: Path, force: bool = False,
                  inputs: tuple[Path, ...] = (),
                  after_save: Callable[[Path], Any] | None = None,
                  add_parts: AddParts | None = None) -> Path:
    """Save atomically, refusing to replace inputs or (without force) existing files.

    For parts openpyxl does not write: ``add_parts`` finishes the file in the same save
    (see :func:`~umaoka.templates.xlsx.writer.save_fast`); ``after_save(tmp)`` runs on the saved
    file before it is moved into place (it must leave a valid workbook at ``tmp``).
    """
    path = Path(path)
    if path.suffix.lower() != ".xlsx":
        raise UmaokaError(f"{path} should end in .xlsx (an Excel workbook).")
    check_target(path, force, inputs)

    def write(tmp: Path) -> None:
        save_fast(wb, tmp, add_parts)
        if after_save is not None:
            after_save(tmp)

    write_atomic(path, write, force=force)
    return path


#: The largest text input (CSV, season, import) a command reads.
MAX_INPUT = 64 * 1024 * 1024


def input_file(path: Path, what: str, limit: int = MAX_INPUT) -> Path:
    """An input file that exists, is a file and is not absurdly large; else one sentence.

    ``what`` names what the file should be ("a league workbook", "the season file").
    Every command checks its inputs this way, so they all say the same things.
    """
    path = Path(path)
    if not path.exists():
        raise UmaokaError(f"{path} does not exist.")
    if path.is_dir():
        raise UmaokaError(f"{path} is a folder, not {what}; give the file.")
    if path.stat().st_size > limit:
        raise UmaokaError(f"{path} is larger than {limit // 2**20} MB; that is not {what}.")
    return path


def read_input(path: Path, what: str, limit: int = MAX_INPUT) -> bytes:
    """The bytes of an input file checked by :func:`input_file`."""
    try:
        return input_file(path, what, limit).read_bytes()
    except OSError as e:
        raise UmaokaError(f"{path} cannot be read ({e.strerror or e}).") from None


def read_text(path: Path, what: str, limit: int = MAX_INPUT) -> str:
    """The text of an input file as Excel and online lobbies save it (UTF-8, UTF-16 or
    Shift-JIS: :func:`umaoka.engine.online.imported.decode`), or one sentence."""
    data = read_input(path, what, limit)
    try:
        text = decode(data)
    except UnicodeDecodeError:
        text = "\x00"
    if "\x00" in text:  # a NUL never is in a text file: a binary file decoded by chance
        raise UmaokaError(f"{path} is not text in UTF-8, UTF-16 or Shift-JIS; save it as "
                          "CSV UTF-8 in Excel.")
    return text


def load_quietly(source: Any, **kw: Any) -> Workbook:
    """openpyxl's ``load_workbook``, without its warning on a print area given as a formula
    (the live league tabs', :func:`.styles.growing_print_area`): openpyxl cannot hold one,
    says so on every read, and umaoka writes it anew whenever it writes the workbook."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Print area cannot be set to Defined name")
        return load_workbook(source, **kw)


def open_workbook(path: Path, read_only: bool = True) -> Workbook:
    """Open a workbook for reading (formulas as text), with one-line errors."""
    path = input_file(path, "an .xlsx league workbook", MAX_BYTES)
    if not zipfile.is_zipfile(path):
        raise UmaokaError(f"{path} is not an .xlsx workbook (not a zip file); save it from "
                          "Excel as an Excel Workbook (.xlsx).")
    try:
        with zipfile.ZipFile(path) as z:
            check_parts(z.infolist(), path)
            check_prologs(z, path)
        return load_quietly(path, read_only=read_only, data_only=False, keep_links=False)
    except UmaokaError:
        raise
    except Exception as e:  # zip, XML (defusedxml), openpyxl: all mean a damaged file
        reason = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise UmaokaError(f"{path} cannot be read as an Excel workbook ({reason}).") from None


def check_parts(infos: list[zipfile.ZipInfo], path: Path) -> None:
    """Refuse a workbook whose parts unpack to more than a league needs (zip bombs included).

    The sizes are the ones the zip declares; reading never unpacks more than declared.
    """
    total = 0
    for info in infos:
        size = info.file_size
        total += size
        sheet = info.filename.startswith("xl/worksheets/")
        limit = MAX_SHEET if sheet else MAX_PART
        if size > limit:
            raise UmaokaError(f"{path}: part {info.filename[:60]} unpacks to {size // 2**20:,} "
                              f"MB, over the {limit // 2**20} MB a league workbook needs; "
                              "refusing to read it.")
        if size > BOMB_FLOOR and size > MAX_RATIO * max(info.compress_size, 1):
            raise UmaokaError(f"{path}: part {info.filename[:60]} unpacks over {MAX_RATIO} "
                              "times its packed size (a zip bomb?); refusing to read it.")
    if total > MAX_UNPACKED:
        raise UmaokaError(f"{path} unpacks to {total // 2**20:,} MB, over the "
                          f"{MAX_UNPACKED // 2**20} MB a league workbook needs; refusing to "
                          "read it.")


class _Prolog(Exception):
    """Raised inside expat: the root element (done) or a DTD (refused) was reached."""


def check_prologs(z: zipfile.ZipFile, path: Path) -> None:
    """Refuse a workbook with a DTD (``<!DOCTYPE``) in any XML part.

    Only each part's prolog is parsed (expat, up to the root element), so a 100 MB sheet
    costs a few bytes. This keeps defusedxml's guarantee when openpyxl would parse with
    lxml instead. Parts that are not XML (images, VBA) are left alone.
    """
    for info in z.infolist():
        with z.open(info) as f:
            head = f.read(4096)
            if not head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
                continue
            parser = xml.parsers.expat.ParserCreate()

            def doctype(*_: Any) -> None:
                raise _Prolog("dtd")

            def root(*_: Any) -> None:
                raise _Prolog("root")

            parser.StartDoctypeDeclHandler = doctype
            parser.StartElementHandler = root
            chunk, seen = head, 0
            try:
                while chunk:
                    parser.Parse(chunk, False)
                    seen += len(chunk)
                    if seen > MAX_PART:
                        break  # no root element in sight: openpyxl will say it is damaged
                    chunk = f.read(65536)
            except _Prolog as e:
                if str(e) == "dtd":
                    raise UmaokaError(
                        f"{path} cannot be read: its part {info.filename[:60]} declares a "
                        "DTD (<!DOCTYPE>), which Excel never writes, so the file is damaged "
                        "or hostile.") from None
            except xml.parsers.expat.ExpatError:
                pass  # not XML after all, or damaged: openpyxl's own reading says so
