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
import stat
import struct
import tempfile
import warnings
import xml.parsers.expat
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from openpyxl import Workbook, load_workbook

from umaoka.engine import UmaokaError
from umaoka.engine.online.imported import decode
from umaoka.templates.xlsx.temporaries import STALE_SECONDS as STALE_SECONDS  # re-exported
from umaoka.templates.xlsx.temporaries import TMP_MARK, remove_stale, scratch_folder
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


def write_atomic(path: Path, write: Callable[[Path], Any], force: bool = False,
                 ready: Callable[[], Any] | None = None) -> None:
    """Call ``write(tmp)`` on a temporary file in the same folder, then publish it as ``path``.

    ``ready()``, if given, runs once the new file is whole and flushed, just before it is
    published (an in-place update checks the league is unchanged and keeps its backup
    there, so a full disk while writing touches neither the league nor its backup).

    The temporary file is flushed to disk before it is published, and the folder after,
    so a power cut leaves either the old state or the whole new file, never an empty one.
    Without ``force`` the publishing step itself refuses an existing file (a hard link
    cannot replace one), so two runs racing for the same name cannot silently replace
    each other's output: the later one gets a clear error. A crash or Ctrl+C leaves no
    half-written workbook; temporaries left by a killed run are removed on the next write.
    """
    path = Path(path)
    remove_stale(path.parent)
    try:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}{TMP_MARK}{os.getpid()}-",
                                    suffix=".tmp", dir=path.parent)
    except OSError as e:  # read-only or full folder: name the file asked for, not ours
        raise OSError(e.errno, e.strerror, str(path)) from None
    os.close(fd)
    tmp = Path(name)
    try:
        with scratch_folder(path):
            write(tmp)
        os.chmod(tmp, 0o666 & ~_umask())
        _fsync(tmp)
        if ready is not None:
            ready()
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
    """The bytes of an input file checked by :func:`input_file`, read no further than
    ``limit`` (a device, a pipe or ``/dev/stdin`` says its size is 0)."""
    try:
        return read_bounded(input_file(path, what, limit), what, limit)
    except OSError as e:
        raise UmaokaError(f"{path} cannot be read ({e.strerror or e}).") from None


def check_regular(path: Path) -> None:
    """Refuse, in one sentence, a workbook that is not a plain file: a zip is read from
    its end, and a device such as ``/dev/zero`` or a pipe has none."""
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        raise UmaokaError(f"{path} cannot be read ({e.strerror or e}).") from None
    if not stat.S_ISREG(mode):
        raise UmaokaError(f"{path} is not a file (a device or a pipe); give the workbook's "
                          "file.")


def read_bounded(path: Path, what: str, limit: int = MAX_INPUT) -> bytes:
    """At most ``limit`` bytes of ``path``; more is one sentence, whatever its size said."""
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise UmaokaError(f"{path} is larger than {limit // 2**20} MB; that is not {what}.")
    return data


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
    check_regular(path)
    if not zipfile.is_zipfile(path):
        raise UmaokaError(f"{path} is not an .xlsx workbook (not a zip file); save it from "
                          "Excel as an Excel Workbook (.xlsx).")
    try:
        with open_zip(path) as z:
            check_parts(z.infolist(), path)
            check_prologs(z, path)
        return load_quietly(path, read_only=read_only, data_only=False, keep_links=False)
    except UmaokaError:
        raise
    except Exception as e:  # zip, XML (defusedxml), openpyxl: all mean a damaged file
        reason = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise UmaokaError(f"{path} cannot be read as an Excel workbook ({reason}).") from None


#: Most parts a workbook may have: a league has under 100; a manager's workbook with its
#: own sheets, images and charts a few hundred.
MAX_ENTRIES = 10_000


def zip_entries(path: Path) -> int | None:
    """How many entries the zip at ``path`` says it holds (its end record, read before
    :mod:`zipfile` makes an object of each), or None when it has no end record."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - 65_557))
            tail = f.read()
    except OSError:
        return None
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) - at < 22:
        return None
    count = struct.unpack("<H", tail[at + 10:at + 12])[0]
    locator = tail.rfind(b"PK\x06\x07", 0, at)
    if count == 0xFFFF and locator >= 0 and len(tail) - locator >= 20:  # zip64
        where = struct.unpack("<Q", tail[locator + 8:locator + 16])[0]
        try:
            with open(path, "rb") as f:
                f.seek(where)
                record = f.read(56)
        except OSError:
            return None
        if record[:4] == b"PK\x06\x06" and len(record) == 56:
            count = struct.unpack("<Q", record[32:40])[0]
    return count


def open_zip(path: Path) -> zipfile.ZipFile:
    """The workbook at ``path`` as a zip, refused in one sentence when it has more parts
    than a workbook needs (counted before they are read: a million empty entries would
    take a minute and gigabytes) or two parts of one name (the copy kept would be a
    workbook no program reads back)."""
    count = zip_entries(path)
    if count is not None and count > MAX_ENTRIES:
        raise UmaokaError(f"{path} holds {count:,} parts, over the {MAX_ENTRIES:,} a workbook "
                          "needs; refusing to read it.")
    z = zipfile.ZipFile(path)
    try:
        infos = z.infolist()
        if len(infos) > MAX_ENTRIES:
            raise UmaokaError(f"{path} holds {len(infos):,} parts, over the {MAX_ENTRIES:,} a "
                              "workbook needs; refusing to read it.")
        seen: set[str] = set()
        for info in infos:
            key = info.filename.casefold()  # part names are not case-sensitive
            if key in seen:
                raise UmaokaError(f"{path} holds two parts named {info.filename[:60]} (a "
                                  "damaged or hostile file); open and save it in Excel.")
            seen.add(key)
    except BaseException:
        z.close()
        raise
    return z


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
            kind = _xml_kind(head)
            if kind is None:
                continue
            if kind == "UTF-32":  # expat cannot read it, lxml could: refused
                raise UmaokaError(f"{path} cannot be read: its part {info.filename[:60]} is "
                                  "UTF-32 text, which Excel never writes, so the file is "
                                  "damaged or hostile.")
            parser = xml.parsers.expat.ParserCreate(kind)

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


def _xml_kind(head: bytes) -> str | None:
    """The encoding of a part that is XML (``UTF-8``, ``UTF-16``, ``UTF-32``), from its
    first bytes, or None for a part that is not XML (an image, a VBA project)."""
    if head[:4] in (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff") \
            or head[:4] in (b"<\x00\x00\x00", b"\x00\x00\x00<"):
        return "UTF-32"
    if head[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "UTF-16"
    if head[:2] == b"<\x00":
        return "UTF-16LE"
    if head[:2] == b"\x00<":
        return "UTF-16BE"
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text.startswith(b"<"):
        return "UTF-8"
    for enc, lead in (("UTF-16LE", b" \x00"), ("UTF-16BE", b"\x00 ")):  # white space first
        if head.startswith(lead) or head.startswith(lead.replace(b" ", b"\n")):
            if head.decode(enc, "ignore").lstrip().startswith("<"):
                return enc
    return None
