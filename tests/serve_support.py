"""What the tests of `referee serve` share: a post office for the robot — its Maildir folders, or
a real IMAP server (Dovecot, started here on 127.0.0.1 with a configuration in a temporary
folder) and a real SMTP server (aiosmtpd) catching its replies — and players who read the
robot's mails and answer them as a person with a mail program would.
"""

from __future__ import annotations

import datetime as dt
import email
import email.policy
import email.utils
import itertools
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

import pytest

from referee.play.reports import record_in
from referee.play.replay import Replay, replay
from referee.serve.service import serve

ROBOT = "referee@club.example"
PASSWORD = "robot-secret"
_numbers = itertools.count(1)


def message(sender: str, body: str, subject: str = "", *, message_id: str | None = None,
            headers: dict[str, str] | None = None) -> bytes:
    """A mail as a player's mail program sends it."""
    mail = EmailMessage(policy=email.policy.SMTP)
    mail["From"] = sender
    mail["To"] = ROBOT
    mail["Subject"] = subject
    mail["Date"] = email.utils.format_datetime(dt.datetime.now(dt.timezone.utc))
    mail["Message-ID"] = message_id or f"<{next(_numbers)}.{os.urandom(4).hex()}@players.example>"
    for name, value in (headers or {}).items():
        mail[name] = value
    mail.set_content(body)
    return bytes(mail)


def parsed(data: bytes) -> EmailMessage:
    return email.message_from_bytes(data, policy=email.policy.default)


def text_of(mail: EmailMessage) -> str:
    return mail.get_body(("plain",)).get_content()


def record_of(mail: EmailMessage) -> bytes | None:
    for part in mail.iter_attachments():
        if part.get_content_type() == "application/toml":
            return part.get_payload(decode=True)
    return None


def game_id(mail: EmailMessage) -> str | None:
    found = re.search(r"\[([0-9a-f]{8})\]", str(mail["Subject"]))
    return found.group(1) if found else None


class Post:
    """The robot's mailboxes: mail goes in with `send`, the robot runs a round with `round`,
    and each reply reaches the player it is addressed to."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.games = folder / "games"
        self.games.mkdir(parents=True, exist_ok=True)
        self.players: dict[str, "Player"] = {}
        self.log: list[str] = []
        self.all: list[tuple[str, bytes]] = []  # every reply: (recipient, data)

    def deliver(self, data: bytes) -> None:
        raise NotImplementedError

    def collect(self) -> list[tuple[str, bytes]]:
        raise NotImplementedError

    def arguments(self) -> dict[str, str]:
        raise NotImplementedError

    def cli_arguments(self) -> list[str]:
        raise NotImplementedError

    def round(self) -> list[tuple[str, bytes]]:
        """One run of `referee serve --once`; each reply handed to its player."""
        serve(str(self.games), address=ROBOT, log=self.log.append, **self.arguments())
        return self.distribute()

    def distribute(self) -> list[tuple[str, bytes]]:
        new = self.collect()
        self.all += new
        for address, data in new:
            if address in self.players:
                self.players[address].inbox.append(parsed(data))
        return new


class MaildirPost(Post):
    def __init__(self, folder: Path):
        super().__init__(folder)
        self.inbox, self.outbox = folder / "in", folder / "out"
        for sub in ("new", "cur", "tmp"):
            (self.inbox / sub).mkdir(parents=True, exist_ok=True)
        self.seen: set[str] = set()

    def deliver(self, data: bytes) -> None:
        name = f"{time.time():.6f}.{next(_numbers)}.players"
        (self.inbox / "tmp" / name).write_bytes(data)
        os.rename(self.inbox / "tmp" / name, self.inbox / "new" / name)

    def collect(self) -> list[tuple[str, bytes]]:
        found = []
        if not (self.outbox / "new").is_dir():
            return found
        for name in sorted(os.listdir(self.outbox / "new"), key=lambda n: n.split(".")[1]):  # queue order
            if name not in self.seen:
                self.seen.add(name)
                data = (self.outbox / "new" / name).read_bytes()
                found.append((email.utils.parseaddr(str(parsed(data)["To"]))[1].lower(), data))
        return found

    def arguments(self) -> dict[str, str]:
        return {"maildir": str(self.inbox), "outbox": str(self.outbox)}

    def cli_arguments(self) -> list[str]:
        return ["--maildir", str(self.inbox), "--outbox", str(self.outbox)]


class Player:
    """A player with a mail program: reads what the robot sends, keeps each game's token and
    latest record, and answers with commands."""

    def __init__(self, post: Post, name: str, address: str):
        self.post, self.name, self.address = post, name, address
        self.inbox: list[EmailMessage] = []
        self.read = 0
        self.tokens: dict[str, str] = {}
        self.records: dict[str, bytes] = {}
        post.players[address] = self

    @property
    def sender(self) -> str:
        return f"{self.name} <{self.address}>"

    def new_mail(self) -> list[EmailMessage]:
        """What came since the last look; tokens and records noted."""
        mails = self.inbox[self.read:]
        self.read = len(self.inbox)
        for mail in mails:
            short = game_id(mail)
            token = re.search(r"(?m)^token ([a-z]+(?:-[a-z]+)+)$", text_of(mail))
            if short and token:
                self.tokens[short] = token.group(1)
            record = record_of(mail)
            if short and record is not None:
                self.records[short] = record
        return mails

    def send(self, body: str, short: str | None = None, *, token: bool = True, **extra) -> bytes:
        """A mail to the robot about game `short` (its [GAMEID] in the subject), with this
        player's token for it unless `token` is False."""
        self.new_mail()
        if short and token and short in self.tokens:
            body += f"\ntoken {self.tokens[short]}\n"
        subject = extra.pop("subject", f"Re: [{short}] our game" if short else "to the referee")
        data = message(extra.pop("sender", self.sender), body, subject, **extra)
        self.post.deliver(data)
        return data

    def game(self, short: str) -> Replay:
        """My latest copy of the game, as the robot last mailed it."""
        self.new_mail()
        return replay(record_in(self.records[short], f"{short}.toml"))


def start_game(post: Post, ann: Player, bo: Player, line: str) -> str:
    """Ann starts a game against Bo; both read the tokens. Returns GAMEID."""
    ann.send(line)
    post.round()
    mails = ann.new_mail()
    short = game_id(mails[-1])
    bo.new_mail()
    assert short in ann.tokens and short in bo.tokens, [text_of(m) for m in mails]
    return short


def play_on(post: Post, players: dict[int, Player], short: str, rng: random.Random,
            most: int | None = None) -> Replay:
    """Random legal moves by mail until the game ends or `most` plies are played (then the
    seat to move resigns). Every record a player received must replay (validate offline)."""
    plies = 0
    while True:
        play = players[1].game(short)
        seat = play.to_move()
        if seat is None:
            return play
        player = players[seat]
        if most is not None and plies >= most:
            player.send("resign", short)
        else:
            player.send(f"move {play.game.random_move(play.state, rng)}", short)
        post.round()
        plies += 1
        for p in set(players.values()):
            p.new_mail()
        after = players[1].game(short)
        assert after.plies > play.plies, post.log[-3:]


# -- a real IMAP server and a real SMTP server -----------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID
    import ipaddress

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = dt.datetime.now(dt.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - dt.timedelta(days=1))
            .not_valid_after(now + dt.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                        x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


DOVECOT_CONF = """\
base_dir = {d}/run
state_dir = {d}/state
instance_name = referee-test-{port}
log_path = {d}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = yes
ssl_cert = <{d}/cert.pem
ssl_key = <{d}/key.pem
disable_plaintext_auth = no
auth_mechanisms = plain login
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {d}/users
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={d}/home/%u
}}
mail_location = maildir:~/Maildir
{root}
service imap-login {{
  inet_listener imap {{
    port = {plain_port}
  }}
  inet_listener imaps {{
    port = {port}
    ssl = yes
  }}
}}
"""


class Dovecot:
    """Dovecot as a process of the test's own, on unprivileged ports of 127.0.0.1."""

    def __init__(self):
        binary = shutil.which("dovecot") or next((p for p in ("/usr/sbin/dovecot",) if os.path.exists(p)), None)
        if binary is None:
            pytest.skip("dovecot is not installed (Debian: apt-get install dovecot-imapd); .ci/run installs it")
        # Dovecot's login processes run as an unprivileged user, who must reach the folder.
        self.folder = Path(tempfile.mkdtemp(prefix="referee-dovecot-"))
        self.folder.chmod(0o755)
        self.cert, key = certificate(self.folder)
        self.port, self.plain_port = free_port(), free_port()
        (self.folder / "users").write_text(f"{ROBOT}:{{PLAIN}}{PASSWORD}\n")
        home = self.folder / "home"
        home.mkdir()
        root = ""
        if os.geteuid() == 0:
            import pwd

            # As root, Dovecot runs its parts as its own users (never root), the mail as `dovecot`.
            mail_user = pwd.getpwnam("dovecot")
            os.chown(home, mail_user.pw_uid, mail_user.pw_gid)
            uid, gid = mail_user.pw_uid, mail_user.pw_gid
            root = ("first_valid_uid = 1\ndefault_internal_user = dovecot\ndefault_internal_group = dovecot\n"
                    "default_login_user = dovenull\n")
        else:
            uid, gid = os.getuid(), os.getgid()
        (self.folder / "dovecot.conf").write_text(DOVECOT_CONF.format(
            d=self.folder, port=self.port, plain_port=self.plain_port, uid=uid, gid=gid, root=root))
        self.process = subprocess.Popen([binary, "-F", "-c", str(self.folder / "dovecot.conf")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    break
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(f"dovecot did not start: {self.process.stderr.read()!r} "
                                       f"{(self.folder / 'dovecot.log').read_text(errors='replace')[-2000:]}")
                time.sleep(0.1)

    def url(self, folder: str = "INBOX") -> str:
        return f"imaps://{ROBOT.replace('@', '%40')}@127.0.0.1:{self.port}/{folder}"

    def client(self):
        import imaplib
        import ssl

        context = ssl.create_default_context(cafile=str(self.cert))
        imap = imaplib.IMAP4_SSL("127.0.0.1", self.port, ssl_context=context)
        imap.login(ROBOT, PASSWORD)
        return imap

    def stop(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


class Catcher:
    """An SMTP server (aiosmtpd) on 127.0.0.1, STARTTLS and a password required, keeping
    every message it is given; `refuse` lists addresses it refuses for good (550)."""

    def __init__(self, cert: Path, key: Path):
        import ssl

        from aiosmtpd.controller import Controller
        from aiosmtpd.smtp import AuthResult

        self.messages: list[tuple[str, list[str], bytes]] = []
        self.refuse: set[str] = set()
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(str(cert), str(key))
        catcher = self

        class Handler:
            async def handle_RCPT(self, server, session, envelope, address, options):
                if address.lower() in catcher.refuse:
                    return "550 5.1.1 no such user"
                envelope.rcpt_tos.append(address)
                return "250 OK"

            async def handle_DATA(self, server, session, envelope):
                catcher.messages.append((envelope.mail_from, list(envelope.rcpt_tos), bytes(envelope.content)))
                return "250 OK"

        def authenticate(server, session, envelope, mechanism, auth_data):
            ok = getattr(auth_data, "login", None) == ROBOT.encode() and auth_data.password == PASSWORD.encode()
            return AuthResult(success=ok)

        self.port = free_port()
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=self.port, tls_context=context,
                                     require_starttls=True, authenticator=authenticate, auth_require_tls=True)
        self.controller.start()

    def url(self) -> str:
        return f"smtp://{ROBOT.replace('@', '%40')}@127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.controller.stop()


class NetPost(Post):
    """Mail delivered into the robot's IMAP folder; replies caught by the SMTP server."""

    def __init__(self, folder: Path, dovecot: Dovecot, catcher: Catcher, monkeypatch):
        super().__init__(folder)
        self.dovecot, self.catcher = dovecot, catcher
        self.taken = len(catcher.messages)
        monkeypatch.setenv("SSL_CERT_FILE", str(dovecot.cert))
        monkeypatch.setenv("REFEREE_IMAP_PASSWORD", PASSWORD)
        monkeypatch.setenv("REFEREE_SMTP_PASSWORD", PASSWORD)
        imap = dovecot.client()
        imap.select("INBOX")
        typ, data = imap.uid("SEARCH", None, "ALL")  # a fresh folder for each test
        for uid in (data[0] or b"").split():
            imap.uid("STORE", uid, "+FLAGS", "(\\Deleted)")
        imap.expunge()
        imap.logout()

    def deliver(self, data: bytes) -> None:
        imap = self.dovecot.client()
        imap.append("INBOX", None, None, data)
        imap.logout()

    def collect(self) -> list[tuple[str, bytes]]:
        new = self.catcher.messages[self.taken:]
        self.taken = len(self.catcher.messages)
        found = []
        for sender, recipients, data in new:
            assert sender == ROBOT, sender
            found += [(r.lower(), data.replace(b"\r\n", b"\n")) for r in recipients]  # as a mail program keeps it
        return found

    def arguments(self) -> dict[str, str]:
        return {"imap": self.dovecot.url(), "smtp": self.catcher.url()}

    def cli_arguments(self) -> list[str]:
        return ["--imap", self.dovecot.url(), "--smtp", self.catcher.url()]
