"""Files: every input read with one limit, every output written whole or not at all, and one
writer at a time per record.

Records, mails, board and deck files and keys arrive from strangers, so each is read here with
the same cap (MAX_INPUT_BYTES) and the same messages; only regular files (and standard input,
named "-") are read, never a device or a pipe that might not end. Every file the referee writes
goes through `write_atomic`: a temporary file beside the target, then a rename, so a reader or
a crash sees the old file whole or the new one whole, never a mixture. Outputs go only onto new
names or regular files that have a write bit (SPEC §9). A turn holds the record's lock (a file
beside the resolved record) from reading to writing, so two commands on one record, by whatever
path, never lose a move.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import sys
import time
from pathlib import Path
from typing import Iterator

from referee.errors import RecordError, UsageError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows has no flock: records there are not locked
    fcntl = None  # type: ignore[assignment]

MAX_INPUT_BYTES = 5_000_000
STDIN = "-"
LOCK_WAIT = 30.0  # seconds a command waits for another one writing the same record


def read_input(path: str | os.PathLike[str], what: str = "file") -> bytes:
    """The bytes of an input (a record, a mail, a board or deck file, a key), at most
    MAX_INPUT_BYTES of them: every input a stranger may send is read here, with one limit and
    one set of messages. "-" is standard input. Raises UsageError when it cannot be read,
    RecordError when it is too long."""
    name = str(path)
    if name == STDIN:
        data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        name = "<stdin>"
    else:
        try:
            info = os.stat(path)
            if stat.S_ISDIR(info.st_mode):
                raise UsageError(f"is a directory, not a {what}", file=name)
            if not stat.S_ISREG(info.st_mode):
                # A FIFO would block until a writer comes, a device may never end.
                raise UsageError(f"not a regular file (a device or a pipe), not a {what}", file=name)
            with open(path, "rb") as handle:
                # One byte past the limit tells a file that is too long without reading it all.
                # Asked for the size the file has (Python sets aside as many bytes as asked
                # for, 5 MB a record in an archive), and for the rest if it grew meanwhile.
                data = handle.read(min(info.st_size, MAX_INPUT_BYTES) + 1)
                if len(data) > info.st_size:
                    data += handle.read(MAX_INPUT_BYTES + 1 - len(data))
        except FileNotFoundError:
            raise UsageError("no such file", file=name) from None
        except OSError as exc:
            raise UsageError(f"cannot read: {exc.strerror}", file=name) from None
    if len(data) > MAX_INPUT_BYTES:
        raise RecordError(f"larger than {MAX_INPUT_BYTES // 1_000_000} MB: not a {what}", file=name)
    return data


def looks_like_mail(data: bytes) -> bool:
    """Whether `data` is a mail rather than a record: a mail begins with header fields ("From:
    …"); a record with TOML ("game = …", "[…]", "moves = […]", a comment), which never has a
    colon right after its first word."""
    first = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:200].split(b"\n", 1)[0]
    return re.match(rb"[A-Za-z0-9-]+:", first) is not None


def record_files(paths: list[str]) -> list[str]:
    """The records named by `paths` (SPEC §8): a file as given, a folder searched through all
    its depth for *.toml in name order, hidden files and folders skipped. A missing path is
    kept, for its reader to report."""
    found: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            found += _records_under(path)
        else:
            found.append(path)
    return found


def _records_under(top: str) -> list[str]:
    """The *.toml files under the folder `top`, in the order os.walk gives them (a folder's own
    files in name order, then each subfolder's, in name order), found without recursion.

    Archives of any shape (SPEC §14): os.walk recurses once a level in Python 3.11, so a tree
    a thousand folders deep ended the run in a RecursionError. Here the folders still to be
    read wait on a list instead. A link to a folder is not entered (as os.walk does not), and
    each folder is read once whatever leads to it (a bind mount of a folder inside itself), so
    no loop of folders can make the walk endless. A folder that cannot be read is passed over,
    as os.walk passes it over, except one whose path is too long for the system (a tree
    deeper than PATH_MAX): that one is kept in the list, so its reader reports "File name too
    long" for it instead of the records below it vanishing without a word."""
    found: list[str] = []
    seen: set[tuple[int, int]] = set()
    waiting = [top]  # a stack: the next folder to read is last
    while waiting:
        folder = waiting.pop()
        try:
            with os.scandir(folder) as entries:
                listed = sorted(entries, key=lambda entry: entry.name)
            info = os.stat(folder)
        except OSError as exc:
            if exc.errno == errno.ENAMETOOLONG:
                found.append(folder)
            continue
        if (info.st_dev, info.st_ino) in seen:
            continue
        seen.add((info.st_dev, info.st_ino))
        subfolders = []
        for entry in listed:
            if entry.name.startswith("."):
                continue
            try:
                is_folder = entry.is_dir()  # a link to a folder is a folder here, not a record
            except OSError:
                is_folder = False
            if is_folder:
                if not entry.is_symlink():
                    subfolders.append(os.path.join(folder, entry.name))
            elif entry.name.endswith(".toml") and not _match_settings(folder, entry.name):
                found.append(os.path.join(folder, entry.name))
        waiting += reversed(subfolders)  # the first subfolder read next
    return found


# The first line of the settings that `referee match` keeps beside its records (SPEC §13): a
# folder of a match's records is read as records, without that file.
MATCH_SETTINGS = "match.toml"
MATCH_SETTINGS_HEAD = b"# referee match: the settings of the match in this folder"


def _match_settings(folder: str, name: str) -> bool:
    if name != MATCH_SETTINGS:
        return False
    try:
        with open(os.path.join(folder, name), "rb") as handle:
            return handle.read(len(MATCH_SETTINGS_HEAD)) == MATCH_SETTINGS_HEAD
    except OSError:
        return False


def check_output(path: str | os.PathLike[str] | None, force: bool) -> None:
    """Refuse an output before any work, so a refused run changes nothing at all: an existing
    file without --force, anything but a regular file (a device, a pipe, a folder), a file with
    no write bit (even for root), a link to nowhere."""
    if path is None:
        return
    target = Path(path)
    if str(target) == STDIN:
        raise UsageError("- (standard input) is read, never written: give a file to write")
    try:
        info = target.stat()
    except FileNotFoundError:
        if target.is_symlink():
            raise UsageError(f"{target}: a symbolic link to a missing file; give another output") from None
        return
    except OSError as exc:  # a loop of links, a folder we may not enter
        raise UsageError(f"{target}: cannot write: {exc.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise UsageError(f"{target}: not a regular file (a folder, a device or a pipe); give another output")
    if not force:
        raise UsageError(f"{target}: already exists (use --force to replace it)")
    _writable(target, info)


def _writable(target: Path, info: os.stat_result) -> None:
    """A file without a write bit is one its owner means to keep: refused even for root, whom
    the system itself would let replace it."""
    if not info.st_mode & 0o222 or not os.access(target, os.W_OK):
        raise UsageError(f"{target}: read-only (no write permission); the referee leaves it as it is")


@contextlib.contextmanager
def locked(path: str | os.PathLike[str]) -> Iterator[None]:
    """Hold the lock of the record at `path` while it is read, replayed and written: a second
    command writing the same record waits for the first, and gives up with exit 2 after
    LOCK_WAIT seconds. The lock is a hidden file beside the resolved record, so a record reached
    through a symbolic link and through its real path has one lock (SPEC §9).

    A command that leaves no record behind (a mistyped name: "no such file") takes its lock
    away too, so no `.typo.toml.lock` is left lying about. It does so while still holding it;
    a command that was waiting on that lock then finds the file gone from under it and takes
    the lock anew (`_hold`), so two commands never hold two different locks of one record."""
    target = Path(path)
    if fcntl is None or str(target) == STDIN:
        yield
        return
    real = Path(os.path.realpath(target))
    lock = real.parent / f".{real.name}.lock"
    fd = _hold(lock, target)
    try:
        yield
    finally:
        try:
            if not os.path.lexists(real):
                os.unlink(lock)
        except OSError:  # taken away already, or a folder we may not write: only litter left
            pass
        os.close(fd)  # closing the descriptor releases the lock


def _hold(lock: Path, target: Path) -> int:
    """The lock file `lock`, opened and locked: waits for the command holding it, at most
    LOCK_WAIT seconds in all. A lock removed (or replaced) while this one waited is opened
    again by its name."""
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        fd = _open_lock(lock, target)
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise UsageError(f"{target}: another referee command is still writing it; "
                                         "try again when it is done") from None
                    time.sleep(0.05)
            held = os.fstat(fd)
            try:
                named = os.stat(lock, follow_symlinks=False)
            except FileNotFoundError:
                named = None
        except BaseException:
            os.close(fd)
            raise
        if named is not None and (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino):
            return fd
        os.close(fd)  # the file this one locked is no longer the lock: try the one there now


def _open_lock(lock: Path, target: Path) -> int:
    """The lock file, opened (made when missing) without following a link: anyone who can
    write the folder could plant `.NAME.lock` as a link, and the referee would then make or
    open a file wherever the link points, with the player's rights. A link, a folder or a
    special file in its place is refused, never used."""
    try:
        # O_NOFOLLOW refuses a link even with O_CREAT; O_NONBLOCK keeps a FIFO from blocking
        # the open before it can be refused.
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY
                     | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        if os.path.islink(lock):
            raise UsageError(f"{lock}: the lock of {target} is a symbolic link; the referee does "
                             "not follow it (remove it and try again)") from None
        if os.path.isdir(lock):
            raise UsageError(f"{lock}: the lock of {target} is a folder, not a file "
                             "(remove it and try again)") from None
        raise UsageError(f"{target}: cannot write: {exc.strerror}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise UsageError(f"{lock}: the lock of {target} is not a regular file (a device or a "
                         "pipe); remove it and try again")
    return fd


def write_atomic(path: str | os.PathLike[str], text: str | bytes, *, force: bool = True,
                 mode: int | None = None) -> None:
    """Write `text` to `path` through a temporary file and a rename, so a reader (or a crash)
    sees either the old file whole or the new one whole, never a mixture. A new file gets
    `mode` (default: 0666 less the umask) before its first byte is written; a replaced file
    keeps its own."""
    target = Path(path)
    check_output(target, force)
    if target.is_symlink():
        # Replace what the link points to, not the link itself, so the link keeps working. A
        # link to nowhere, or a loop of links, is refused rather than followed or replaced.
        try:
            target = target.resolve(strict=True)
        except (OSError, RuntimeError):  # RuntimeError: a loop, on Python before 3.13
            raise UsageError(f"{target}: a symbolic link to a missing file or a loop of links; "
                             "give another output") from None
    # A new, private file beside the target (as tempfile.mkstemp makes one, without loading
    # tempfile and random at every start of the command line).
    tmp = target.with_name(f".{target.name}.{os.urandom(6).hex()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        raise UsageError(f"{target}: cannot write: {exc.strerror}") from None
    try:
        # The mode first (mkstemp makes the file 0600): a key is never readable by others.
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        else:
            os.chmod(tmp, (0o666 & ~_umask()) if mode is None else mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8") if isinstance(text, str) else text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise UsageError(f"{target}: cannot write: {exc.strerror}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


