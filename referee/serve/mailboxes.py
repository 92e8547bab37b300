"""Where the robot's mail comes from and goes to (SPEC §15): Maildir folders (the embedded
default), or an IMAP folder and an SMTP server.

**Maildir.** Mail is read from a Maildir folder IN and replies written into a Maildir folder OUT,
for a local mail system to send (any MTA's Maildir delivery on the way in; a small job handing
OUT's files to `sendmail` on the way out). The standard library's `mailbox` makes and opens the
folders and reads each message. A message waits in IN/new; once handled it is filed in IN/cur,
flagged seen (`:2,S`), as a mail program files what it has read. A reply is delivered into OUT
as Maildir delivers — written in OUT/tmp, then linked into OUT/new — under a name fixed when it
was queued, so that delivering it again after a crash finds it there and adds no second copy.

**IMAP and SMTP**, with the standard library's imaplib and smtplib:

    --imap imaps://user@host[:port]/FOLDER    TLS from the start (port 993)
    --imap imap://user@host[:port]/FOLDER     STARTTLS where the server offers it (port 143)
    --smtp smtps://user@host[:port]           TLS from the start (port 465)
    --smtp smtp://user@host[:port]            STARTTLS where offered (port 587)

Passwords come only from REFEREE_IMAP_PASSWORD and REFEREE_SMTP_PASSWORD, or from ~/.netrc
(`machine HOST login USER password …`), never from the command line, where any user of the
machine could read them. A password is never sent over a connection without TLS, but to the
machine itself (127.0.0.1, ::1, localhost). Certificates are checked against the system's
store (SSL_CERT_FILE names another). A handled message is flagged \\Seen and moved to
FOLDER.done. --watch waits with IDLE where the server has it, else polls.
"""

from __future__ import annotations

import hashlib
import imaplib
import mailbox
import netrc
import os
import re
import select
import smtplib
import ssl
import time
from pathlib import Path
from typing import Callable, Iterator, NamedTuple
from urllib.parse import unquote, urlsplit

from referee.errors import UsageError
from referee.serve.robot import MAX_BYTES, Incoming, Undeliverable
from referee.serve.state import Unsent


# -- Maildir --------------------------------------------------------------------------------------


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


# -- IMAP and SMTP --------------------------------------------------------------------------------

LOOPBACK = ("127.0.0.1", "::1", "localhost")
TIMEOUT = 60.0  # seconds a server may take to answer one command
IDLE_MOST = 25 * 60  # RFC 2177: re-issue IDLE at least every 29 minutes


class Server(NamedTuple):
    scheme: str
    user: str
    host: str
    port: int
    folder: str
    password: str | None


def server(url: str, kind: str) -> Server:
    """A --imap or --smtp URL taken apart, with the password from the environment or ~/.netrc."""
    schemes = {"imap": {"imaps": 993, "imap": 143}, "smtp": {"smtps": 465, "smtp": 587}}[kind]
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise UsageError(f"--{kind} {url}: not a URL such as {next(iter(schemes))}://user@host/INBOX") from None
    if parts.scheme not in schemes or not parts.hostname:
        raise UsageError(f"--{kind} {url}: give {' or '.join(s + '://user@host[:port]' for s in schemes)}"
                         + ("/FOLDER" if kind == "imap" else ""))
    if parts.password is not None:
        raise UsageError(f"--{kind}: no password on the command line (anyone on the machine could read it): "
                         f"set REFEREE_{kind.upper()}_PASSWORD or put it in ~/.netrc")
    user = unquote(parts.username or "")
    folder = unquote(parts.path.lstrip("/")) or "INBOX"
    if kind == "imap" and not re.fullmatch(r"[\x20-\x7e]{1,200}", folder):
        raise UsageError(f"--imap: the folder {folder!r} must be plain ASCII")
    password = os.environ.get(f"REFEREE_{kind.upper()}_PASSWORD") or _netrc(parts.hostname, user)
    if kind == "imap" and (not user or password is None):
        raise UsageError(f"--imap {url}: give the user in the URL, and the password in "
                         f"REFEREE_IMAP_PASSWORD or ~/.netrc (machine {parts.hostname} login {user or 'USER'} password …)")
    return Server(parts.scheme, user, parts.hostname, port or schemes[parts.scheme], folder, password)


def _netrc(host: str, user: str) -> str | None:
    try:
        found = netrc.netrc().authenticators(host)
    except (FileNotFoundError, netrc.NetrcParseError, OSError):
        return None
    if found is None or (user and found[0] and found[0] != user):
        return None
    return found[2]


def _tls() -> ssl.SSLContext:
    return ssl.create_default_context()


def _clear_ok(host: str) -> bool:
    return host in LOOPBACK


def _quoted(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


class ImapInbox:
    def __init__(self, url: str, log: Callable[[str], None]):
        self.server = server(url, "imap")
        self.log = log
        self.done = f"{self.server.folder}.done"
        self.imap = self._connect()

    def _connect(self) -> imaplib.IMAP4:
        s = self.server
        try:
            if s.scheme == "imaps":
                imap = imaplib.IMAP4_SSL(s.host, s.port, ssl_context=_tls(), timeout=TIMEOUT)
            else:
                imap = imaplib.IMAP4(s.host, s.port, timeout=TIMEOUT)
                if "STARTTLS" in imap.capabilities:
                    imap.starttls(ssl_context=_tls())
                elif not _clear_ok(s.host):
                    imap.logout()
                    raise UsageError(f"--imap: {s.host} offers no STARTTLS; the password is not sent in the "
                                     "clear (use imaps://)")
            imap.login(s.user, s.password)
            # A server may say more of itself once logged in (MOVE, say): ask again.
            typ, said = imap.capability()
            if typ == "OK" and said and said[-1]:
                imap.capabilities = tuple(said[-1].decode("ascii", "replace").upper().split())
            typ, _ = imap.select(_quoted(s.folder))
            if typ != "OK":
                raise UsageError(f"--imap: no folder {s.folder} on {s.host}")
            typ, found = imap.list('""', _quoted(self.done))
            if typ == "OK" and not any(found or []):
                imap.create(_quoted(self.done))
        except (OSError, imaplib.IMAP4.error, ssl.SSLError) as exc:
            raise UsageError(f"--imap: {s.host}:{s.port}: {exc}") from None
        return imap

    def _uid(self, *args: str) -> list:
        typ, data = self.imap.uid(*args)
        if typ != "OK":
            raise imaplib.IMAP4.error(f"UID {args[0]}: {data!r}")
        return data

    def messages(self) -> Iterator[Incoming]:
        """Every message in the folder (a handled one is moved out; one that is still there
        after a crash is known by its Message-ID and filed without being read twice)."""
        self.imap.noop()
        uids = b" ".join(d for d in self._uid("SEARCH", "UNDELETED") if d).split()
        for uid in uids:
            uid = uid.decode()
            sized = self._uid("FETCH", uid, "(RFC822.SIZE)")
            found = re.search(rb"RFC822\.SIZE (\d+)", b" ".join(x if isinstance(x, bytes) else x[0] for x in sized if x))
            if not found:
                continue  # expunged meanwhile
            size = int(found.group(1))
            part = "BODY.PEEK[HEADER]" if size > MAX_BYTES else "BODY.PEEK[]"
            data = next((x[1] for x in self._uid("FETCH", uid, f"({part})") if isinstance(x, tuple)), None)
            if data is not None:
                yield Incoming(data, size, uid)

    def file(self, incoming: Incoming) -> None:
        uid = str(incoming.handle)
        self._uid("STORE", uid, "+FLAGS", "(\\Seen)")
        if "MOVE" in self.imap.capabilities:
            self._uid("MOVE", uid, _quoted(self.done))
        else:
            self._uid("COPY", uid, _quoted(self.done))
            self._uid("STORE", uid, "+FLAGS", "(\\Deleted)")
            self.imap.expunge()

    def wait(self, seconds: float, stopping: Callable[[], bool]) -> None:
        """Until new mail arrives (IDLE), `seconds` pass, or the robot is asked to stop."""
        if "IDLE" not in self.imap.capabilities:
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline and not stopping():
                time.sleep(min(1.0, max(0.0, deadline - time.monotonic())))
            return
        imap = self.imap
        tag = imap._new_tag().decode()
        imap.send(f"{tag} IDLE\r\n".encode())
        if not imap.readline().startswith(b"+"):
            raise imaplib.IMAP4.abort("IDLE refused")
        sock = imap.sock
        deadline = time.monotonic() + min(seconds, IDLE_MOST)
        # A line read in one piece with the continuation would wait in imaplib's buffer, unseen
        # by select: then it is found when the wait ends, `seconds` later at most.
        while time.monotonic() < deadline and not stopping():
            pending = sock.pending() if isinstance(sock, ssl.SSLSocket) else 0
            if pending or select.select([sock], [], [], 1.0)[0]:
                line = imap.readline()
                if not line:
                    raise imaplib.IMAP4.abort("the server closed the connection")
                if re.match(rb"\* \d+ (EXISTS|RECENT)", line):
                    break
        imap.send(b"DONE\r\n")
        while True:
            line = imap.readline()
            if not line:
                raise imaplib.IMAP4.abort("the server closed the connection")
            if line.startswith(tag.encode()):
                break

    def reconnect(self) -> None:
        try:
            self.imap.shutdown()
        except (OSError, imaplib.IMAP4.error):
            pass
        self.imap = self._connect()

    def close(self) -> None:
        try:
            self.imap.logout()
        except (OSError, imaplib.IMAP4.error):
            pass


class SmtpOutbox:
    """Replies sent from the robot's address, a connection kept while there is mail to send."""

    def __init__(self, url: str, sender: str):
        self.server = server(url, "smtp")
        self.sender = sender
        self.smtp: smtplib.SMTP | None = None

    def _connect(self) -> smtplib.SMTP:
        s = self.server
        try:
            if s.scheme == "smtps":
                smtp = smtplib.SMTP_SSL(s.host, s.port, timeout=TIMEOUT, context=_tls())
            else:
                smtp = smtplib.SMTP(s.host, s.port, timeout=TIMEOUT)
                smtp.ehlo()
                if smtp.has_extn("starttls"):
                    smtp.starttls(context=_tls())
                    smtp.ehlo()
                elif s.password is not None and not _clear_ok(s.host):
                    smtp.quit()
                    raise UsageError(f"--smtp: {s.host} offers no STARTTLS; the password is not sent in the clear")
            if s.password is not None:
                smtp.login(s.user, s.password)
        except (OSError, smtplib.SMTPException) as exc:
            raise UsageError(f"--smtp: {s.host}:{s.port}: {exc}") from None
        return smtp

    def deliver(self, letter: Unsent) -> None:
        """Send one reply. Between the server's acceptance and the database's note that it was
        sent lies the one moment where a crash sends a reply twice: the copy keeps its
        Message-ID, so mail programs can tell it for one."""
        address = letter.address
        wire = letter.data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
        for attempt in (1, 2):
            if self.smtp is None:
                self.smtp = self._connect()
            try:
                self.smtp.sendmail(self.sender, [address], wire)
                return
            except smtplib.SMTPRecipientsRefused as exc:
                code, said = next(iter(exc.recipients.values()))
                _refused(address, code, said)
            except (smtplib.SMTPSenderRefused, smtplib.SMTPDataError) as exc:
                _refused(address, exc.smtp_code, exc.smtp_error)
            except (smtplib.SMTPException, OSError) as exc:
                self.smtp = None
                if attempt == 2:
                    raise UsageError(f"--smtp: {self.server.host}: {exc}") from None

    def close(self) -> None:
        if self.smtp is not None:
            try:
                self.smtp.quit()
            except (OSError, smtplib.SMTPException):
                pass
            self.smtp = None


def _refused(address: str, code: int, said: bytes | str) -> None:
    """A refusal for good (5xx) drops the reply; any other is tried again later."""
    text = said.decode("utf-8", "replace") if isinstance(said, bytes) else str(said)
    if 500 <= code < 600:
        raise Undeliverable(f"{address}: {code} {text}"[:300])
    raise UsageError(f"--smtp: {address}: {code} {text}"[:300])
