"""One update of a league at a time: the lock beside the league, links, and the checks
before its file is replaced.

An in-place update reads the league, builds umaoka's sheets and replaces the file. Two
runs at once (a script, a second terminal, a synced folder's other computer) would each
replace it, the later one dropping the earlier one's change without a word. So, for the
whole read-build-replace, :func:`updating`

- follows a symbolic link to the file it names (the update goes to that file, so the link
  keeps naming the league) and refuses a file with more than one name (a hard link: the
  update would give this name a new file and leave the other names on the old one);
- refuses a file Excel or LibreOffice has open (their lock files beside it, or beside
  the link), and a read-only one;
- holds a lock file beside the league, ``.NAME.umaoka.lock``, made with an exclusive
  create (every file system and system has one) and holding the run's process id,
  computer and start time. A second run is refused in one sentence while it is there;
  one left by a killed run (its process gone on this computer, or over an hour old) is
  taken over;
- notes the file's identity, size and time of change, and :func:`check_unchanged`
  refuses to replace it if another program changed it meanwhile.
"""

from __future__ import annotations

import datetime as dt
import os
import socket
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from umaoka.engine import UmaokaError
from umaoka.templates.xlsx.temporaries import process_alive

#: A lock whose run cannot be asked (another computer's, or a reused process id) is
#: taken as left over once this old: no update takes an hour.
STALE_LOCK = 3600
#: A lock file still empty this long after it was made was left by a run killed between
#: making it and writing into it.
EMPTY_LOCK = 10


# ------------------------------------------------------------------------------------------------
# Which file: links followed; open in Excel or LibreOffice?


def league_file(path: Path) -> Path:
    """The file an in-place update of ``path`` replaces: ``path`` itself, or the file a
    symbolic link names; a file with another name (a hard link) is refused."""
    path = Path(path)
    real = Path(os.path.realpath(path))
    try:
        st = os.stat(real)
    except OSError:
        return real  # missing: the reading says so
    if stat.S_ISREG(st.st_mode) and st.st_nlink > 1:
        raise UmaokaError(f"{path} is a file with {st.st_nlink} names (hard links); an update "
                          "would leave the other names on the old version, so make it a file "
                          "of its own (copy it, then delete the other names), or use -o "
                          "NEW.xlsx (nothing was written).")
    return real


def lock_files(path: Path) -> list[Path]:
    """The lock files Excel and LibreOffice keep beside a workbook they have open."""
    name = path.name
    names = [f"~${name}", f".~lock.{name}#"]
    if len(name) > 2:  # Word-style owner files drop the name's first two characters
        names.append(f"~${name[2:]}")
    return [path.with_name(n) for n in names]


def check_not_open(path: Path) -> None:
    """Refuse, in one sentence, a workbook Excel or LibreOffice has open (their lock files
    beside it, or beside the file a link names)."""
    path = Path(path)
    places = [path] + [p for p in (Path(os.path.realpath(path)),) if p != path.absolute()]
    for place in places:
        for lock in lock_files(place):
            if lock.exists():
                raise UmaokaError(f"{path} is open in Excel or LibreOffice ({lock.name} is "
                                  "beside it); save and close it there, then run the command "
                                  "again (nothing was written).")


def check_writable(path: Path, real: Path) -> None:
    """Refuse a read-only league (its permissions say so; Windows would refuse to replace
    it, and root may replace anything)."""
    try:
        mode = os.stat(real).st_mode
    except OSError:
        return
    if not mode & stat.S_IWUSR or not os.access(real, os.W_OK):
        raise UmaokaError(f"{path} is read-only; make it writable (chmod u+w, or untick "
                          "Read-only in its Properties) to update it, or use -o NEW.xlsx "
                          "(nothing was written).")


# ------------------------------------------------------------------------------------------------
# The lock beside the league


def lock_path(real: Path) -> Path:
    """umaoka's lock file beside the league file ``real``."""
    return real.with_name(f".{real.name}.umaoka.lock")


@dataclass
class Held:
    """An update in progress: the league as given, the file it is, our lock, and what the
    file was when it was read (device, inode, size, time of change)."""

    path: Path
    real: Path
    lock: Path
    token: bytes
    seen: tuple[int, int, int, int]


#: The updates this process holds, by league file.
_HELD: dict[Path, Held] = {}


def holding(real: Path) -> Held | None:
    """The update of ``real`` this process holds, if any."""
    return _HELD.get(Path(real))


def _identity(real: Path) -> tuple[int, int, int, int]:
    st = os.stat(real)
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


@contextmanager
def updating(path: Path) -> Iterator[Held]:
    """Hold the league at ``path`` for one read-build-replace (see the module)."""
    path = Path(path)
    real = league_file(path)
    if real in _HELD:  # already held by this run
        yield _HELD[real]
        return
    check_not_open(path)
    check_writable(path, real)
    lock = lock_path(real)
    token = _take(path, lock)
    try:
        try:
            seen = _identity(real)
        except OSError as e:
            raise UmaokaError(f"{path} cannot be read ({e.strerror or e}).") from None
        _HELD[real] = held = Held(path, real, lock, token, seen)
        try:
            yield held
        finally:
            _HELD.pop(real, None)
    finally:
        _give_back(lock, token)


def check_unchanged(held: Held) -> None:
    """Refuse to replace the league when its file changed since the update read it."""
    try:
        now = _identity(held.real)
    except OSError:
        now = (0, 0, 0, 0)
    if now != held.seen:
        raise UmaokaError(f"{held.path} was changed by another program while umaoka worked on "
                          "it; nothing was written: run the command again.")


def _take(path: Path, lock: Path) -> bytes:
    """Make the lock file (exclusive create), taking over one left by a killed run."""
    token = (f"umaoka {os.getpid()} {socket.gethostname()} "
             f"{dt.datetime.now().isoformat(timespec='seconds')} {time.time_ns()}\n").encode()
    for _ in range(5):
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            owner = _read(lock)
            if owner is _GONE:
                continue  # removed meanwhile: try again
            if owner is not None and _stale(lock, owner):
                _break(lock, owner)
                continue
            raise _busy(path, lock, owner) from None
        except OSError as e:  # a read-only folder, say: name the league, not our lock
            raise OSError(e.errno, e.strerror, str(path)) from None
        try:
            os.write(fd, token)
        finally:
            os.close(fd)
        return token
    raise _busy(path, lock, _read(lock))


#: What :func:`_read` gives for a lock file that is not there (any more).
_GONE = b"\0gone"


def _read(lock: Path) -> bytes | None:
    """The lock file's content (``_GONE`` when it is not there, None when unreadable)."""
    try:
        with open(lock, "rb") as f:
            return f.read(1024)
    except FileNotFoundError:
        return _GONE
    except OSError:
        return None


def _stale(lock: Path, owner: bytes) -> bool:
    """Whether the lock holding ``owner`` was left by a run that is gone."""
    if owner == b"":
        try:
            return time.time() - os.stat(lock).st_mtime > EMPTY_LOCK
        except OSError:
            return False
    words = owner.decode("utf-8", "replace").split()
    try:
        pid, host, started = int(words[1]), words[2], int(words[4]) / 1e9
    except (IndexError, ValueError):
        return False  # not ours to judge: refused, the message names the file
    if time.time() - started > STALE_LOCK:
        return True
    return host == socket.gethostname() and not process_alive(pid)


def _break(lock: Path, owner: bytes) -> None:
    """Remove a stale lock, unless another run replaced it meanwhile: it is moved aside
    first, and put back if it is not the one judged stale."""
    aside = lock.with_name(f"{lock.name}.{os.getpid()}-{time.time_ns()}")
    try:
        os.replace(lock, aside)
    except OSError:
        return  # gone already: try again
    if _read(aside) == owner:
        aside.unlink(missing_ok=True)
        return
    try:  # another run's fresh lock: give it back (never over a newer one)
        os.link(aside, lock)
        aside.unlink(missing_ok=True)
    except OSError:
        if not lock.exists():
            os.replace(aside, lock)


def _give_back(lock: Path, token: bytes) -> None:
    """Remove our lock file (only ours: one taken over as stale is not removed)."""
    if _read(lock) == token:
        try:
            lock.unlink()
        except OSError:
            pass


def _busy(path: Path, lock: Path, owner: bytes | None) -> UmaokaError:
    words = (owner or b"").decode("utf-8", "replace").split()
    who = ""
    if len(words) >= 4 and words[0] == "umaoka":
        since = words[3].replace("T", " ")
        where = "" if words[2] == socket.gethostname() else f" on {words[2]}"
        who = f" (process {words[1]}{where}, since {since})"
    return UmaokaError(f"{path} is being updated by another umaoka run{who}; wait for it to "
                       "finish, then run the command again (nothing was written; if no run "
                       f"is going on, delete {lock}).")


__all__ = ["check_not_open", "check_unchanged", "check_writable", "holding", "league_file",
           "lock_files", "lock_path", "updating"]
