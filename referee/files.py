"""Files: every input read with one limit, every output written whole or not at all.

Records, mails, board and deck files and keys arrive from strangers, so each is read here with
the same cap (MAX_INPUT_BYTES) and the same messages. Every file the referee writes goes through
`write_atomic`: a temporary file beside the target, then a rename, so a reader or a crash sees
the old file whole or the new one whole, never a mixture.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from referee.errors import RecordError, UsageError

MAX_INPUT_BYTES = 5_000_000


def read_input(path: str | os.PathLike[str], what: str = "file") -> bytes:
    """The bytes of an input file (a record, a mail, a board or deck file, a key), at most
    MAX_INPUT_BYTES of them: every input a stranger may send is read here, with one limit and
    one set of messages. Raises UsageError when it cannot be read, RecordError when too long."""
    name = str(path)
    try:
        # Read one byte past the limit rather than trust the size on disk: a device or a pipe
        # (/dev/zero, /dev/stdin) has no size and might never end.
        with open(path, "rb") as handle:
            data = handle.read(MAX_INPUT_BYTES + 1)
    except FileNotFoundError:
        raise UsageError("no such file", file=name) from None
    except IsADirectoryError:
        raise UsageError(f"is a directory, not a {what}", file=name) from None
    except OSError as exc:
        raise UsageError(f"cannot read: {exc.strerror}", file=name) from None
    if len(data) > MAX_INPUT_BYTES:
        raise RecordError(f"larger than {MAX_INPUT_BYTES // 1_000_000} MB: not a {what}", file=name)
    return data


def write_atomic(path: str | os.PathLike[str], text: str | bytes, *, force: bool = True) -> None:
    """Write `text` to `path` through a temporary file and a rename, so a reader (or a crash)
    sees either the old file whole or the new one whole, never a mixture."""
    target = Path(path)
    if not force and target.exists():
        raise UsageError(f"{target}: already exists (use --force to replace it)")
    if target.is_symlink():
        # Replace what the link points to, not the link itself, so the link keeps working. A
        # link to nowhere, or a loop of links, is refused rather than followed or replaced.
        try:
            target = target.resolve(strict=True)
        except (OSError, RuntimeError):  # RuntimeError: a loop, on Python before 3.13
            raise UsageError(f"{target}: a symbolic link to a missing file or a loop of links; "
                             "give another output") from None
    directory = target.parent
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise UsageError(f"{target}: cannot write: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8") if isinstance(text, str) else text)
            handle.flush()
            os.fsync(handle.fileno())
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        else:
            os.chmod(tmp, 0o666 & ~_umask())
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


