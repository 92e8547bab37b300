"""The embedded default (SPEC §15): mail read from a Maildir folder IN and replies written into a
Maildir folder OUT, for a local mail system to send (any MTA's Maildir delivery on the way in,
a small script or `mutt`/`msmtp` queue on the way out). The standard library's `mailbox`
makes and opens the folders and reads each message.

A message waits in IN/new; once handled it is filed in IN/cur, flagged seen (`:2,S`), as a mail
program files what it has read. A reply is delivered into OUT as Maildir delivers — written in
OUT/tmp, then linked into OUT/new — under a name fixed when it was queued, so that delivering
it again after a crash finds it there and adds no second copy.
"""

from __future__ import annotations

import hashlib
import mailbox
import os
import time
from pathlib import Path
from typing import Callable, Iterator

from referee.errors import UsageError
from referee.serve.robot import MAX_BYTES, Incoming
from referee.serve.state import Unsent


def _open(path: str, what: str) -> mailbox.Maildir:
    try:
        return mailbox.Maildir(path, factory=None, create=True)
    except OSError as exc:
        raise UsageError(f"{path}: cannot open the {what} Maildir: {exc.strerror}") from None


class MaildirInbox:
    def __init__(self, path: str):
        self.path = Path(path)
        self.box = _open(path, "--maildir")

    def messages(self) -> Iterator[Incoming]:
        """The messages waiting in IN/new, oldest name first (Maildir names begin with the time
        of delivery); each read up to the cap."""
        for name in sorted(os.listdir(self.path / "new")):
            if name.startswith("."):
                continue
            try:
                size = os.path.getsize(self.path / "new" / name)
                with self.box.get_file(name.split(":", 1)[0]) as handle:
                    data = handle.read(MAX_BYTES + 1)  # of a longer one, its headers are enough
            except (KeyError, OSError):
                continue  # filed or taken away meanwhile
            yield Incoming(data, max(size, len(data)), name)

    def file(self, incoming: Incoming) -> None:
        """Step 6: IN/new/NAME → IN/cur/NAME:2,S, as a mail program marks a message read."""
        name = str(incoming.handle)
        try:
            os.rename(self.path / "new" / name, self.path / "cur" / f"{name.split(':', 1)[0]}:2,S")
        except FileNotFoundError:
            pass  # filed already

    def wait(self, seconds: float, stopping: Callable[[], bool]) -> None:
        """--watch: until something arrives in IN/new, `seconds` pass, or the robot is asked to stop."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not stopping():
            if any(not n.startswith(".") for n in os.listdir(self.path / "new")):
                return
            time.sleep(min(1.0, max(0.0, deadline - time.monotonic())))

    def close(self) -> None:
        self.box.close()


class MaildirOutbox:
    def __init__(self, path: str):
        self.path = Path(path)
        self.box = _open(path, "--outbox")

    def deliver(self, letter: Unsent) -> None:
        # Maildir's unique name: the time, then the queue's number (the order of replies) and
        # the reply's own digest, the same at every try.
        mark = f"R{letter.number:012d}_{hashlib.sha256(letter.key.encode()).hexdigest()[:24]}"
        for sub in ("new", "cur"):  # delivered before a crash (perhaps in another second)
            if any(mark in n for n in os.listdir(self.path / sub)):
                return
        name = f"{int(time.time())}.{mark}.referee-serve"
        tmp = self.path / "tmp" / name
        with open(tmp, "wb") as handle:
            handle.write(letter.data.replace(b"\r\n", b"\n"))
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(tmp, self.path / "new" / name)
        except FileExistsError:
            pass
        finally:
            os.unlink(tmp)

    def close(self) -> None:
        self.box.close()
