"""`referee serve` (SPEC §15): the robot's round — finish what a crash left, handle every message
waiting, send the reminders due — once (`--once`), or again and again (`--watch`: IDLE where the
IMAP server has it, else every `interval` seconds), until SIGTERM or Ctrl-C, which it obeys
between two messages, never in the middle of one.
"""

from __future__ import annotations

import email.utils
import imaplib
import signal
import sys
import time
from typing import Callable

from referee.errors import CONTROL, UsageError
from referee.record.clock import now
from referee.serve import robot as steps
from referee.serve.letters import Robot
from referee.serve.newgame import ADDRESS
from referee.serve.state import Store

DEFAULT_INTERVAL = 60.0  # seconds between two looks at a mailbox that cannot say when mail comes


def log_line(text: str) -> None:
    print(f"{now().strftime('%Y-%m-%d %H:%M:%S')} serve: {text}", file=sys.stderr, flush=True)


def robot_named(address: str | None, imap_url: str | None) -> Robot:
    """The robot's own address (--address, else the IMAP user's when it is one)."""
    if address is None and imap_url is not None:
        from referee.serve.mailboxes import server

        user = server(imap_url, "imap").user
        address = user if ADDRESS.fullmatch(user) else None
    if address is None:
        raise UsageError("give the robot's own address: --address referee@club.example")
    name, bare = email.utils.parseaddr(address)
    if not ADDRESS.fullmatch(bare or "") or address.translate(CONTROL) != address:
        raise UsageError(f"--address {address!r}: not a mail address such as referee@club.example")
    return Robot(bare.lower(), email.utils.formataddr((name, bare)) if name else bare)


def serve(games: str, *, maildir: str | None = None, outbox: str | None = None, imap: str | None = None,
          smtp: str | None = None, address: str | None = None, watch: bool = False,
          interval: float = DEFAULT_INTERVAL, log: Callable[[str], None] = log_line) -> None:
    """Run the robot on the records folder `games` and one pair of mailboxes."""
    if (maildir is None) != (outbox is None) or (imap is None) != (smtp is None) \
            or (maildir is None) == (imap is None):
        raise UsageError("give --maildir IN --outbox OUT, or --imap URL --smtp URL")
    if not 1 <= interval <= 3600:
        raise UsageError(f"--interval {interval:g}: 1–3600 seconds")
    me = robot_named(address, imap)
    store = Store(games)  # the lock: a second robot on this folder stops here, exit 2
    source = sink = None
    stopping = _Stopper()
    try:
        if maildir is not None:
            from referee.serve.mailboxes import MaildirInbox, MaildirOutbox

            source, sink = MaildirInbox(maildir), MaildirOutbox(outbox)
        else:
            from referee.serve.mailboxes import ImapInbox, SmtpOutbox

            source, sink = ImapInbox(imap, log), SmtpOutbox(smtp, me.address)
        stopping.install()
        steps.recover(store)
        steps.deliver(store, sink, log)
        while True:
            try:
                _round(store, me, source, sink, log, stopping)
            except (OSError, imaplib.IMAP4.abort, imaplib.IMAP4.error) as exc:
                if not watch:
                    raise UsageError(f"the mailbox failed: {exc}") from None
                log(f"the mailbox failed ({exc}); again in {interval:g} s")
                _sleep(interval, stopping)
                if hasattr(source, "reconnect") and not stopping():
                    _again(source, log)
                continue
            if not watch or stopping():
                break
            source.wait(interval, stopping)
        if stopping():
            log("stopped (SIGTERM)")
    finally:
        stopping.uninstall()
        for part in (source, sink):
            if part is not None:
                part.close()
        store.close()


def _round(store: Store, me: Robot, source, sink, log: Callable[[str], None], stopping: "_Stopper") -> None:
    for incoming in source.messages():
        if stopping():
            return
        steps.handle(store, me, sink, incoming, log)
        source.file(incoming)
        steps.checkpoint("filed")
    steps.sweep(store, me, sink, log)


def _again(source, log: Callable[[str], None]) -> None:
    try:
        source.reconnect()
    except UsageError as exc:
        log(f"cannot reconnect: {exc}")


def _sleep(seconds: float, stopping: "_Stopper") -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not stopping():
        time.sleep(min(1.0, max(0.0, deadline - time.monotonic())))


class _Stopper:
    """SIGTERM and Ctrl-C ask the robot to stop; it does so between two messages."""

    def __init__(self):
        self.asked = False
        self.before: dict[int, object] = {}

    def __call__(self) -> bool:
        return self.asked

    def _ask(self, number: int, frame: object) -> None:
        self.asked = True

    def install(self) -> None:
        try:
            for number in (signal.SIGTERM, signal.SIGINT):
                self.before[number] = signal.signal(number, self._ask)
        except ValueError:  # not the main thread (a test): no signals to take
            self.before.clear()

    def uninstall(self) -> None:
        for number, handler in self.before.items():
            signal.signal(number, handler)
        self.before.clear()
