"""The robot's own state (SPEC §15): one SQLite database beside the records, `DIR/serve.sqlite`
(the standard library's sqlite3, in WAL mode), and the lock that keeps a second robot off DIR.

What it holds, and nothing of it is in a record: the games the robot referees, each seat's
address and the salted hash of its token, the hidden conditional moves, every message handled
(by Message-ID), the replies queued and whether each went out, the reminders sent. A reply's
text (a new game's tokens in plain words among them) is kept only until it is sent; then it is
overwritten (secure_delete) and the write-ahead log emptied.

How a message is acted on exactly once, wherever the robot is killed (robot.py walks these
steps; each is one transaction or an idempotent act):

  1. decide   — read the records, judge the commands, build the new records and the replies;
                nothing is written.
  2. commit   — one transaction: the message marked decided, the new records' text, the
                replies queued, the tokens, conditionals and reminders it changes.
  3. write    — each new record written atomically from the text committed (again after a
                crash: the same text, so the same file).
  4. handled  — the message marked handled and its texts forgotten, in one transaction.
  5. send     — each queued reply sent, then marked sent (into a Maildir under a name fixed
                when it was queued, so a second delivery after a crash finds it there).
  6. file     — the message moved out of the inbox; a handled message found there again is
                filed without being read twice.

A crash before 2 leaves nothing (the message is decided again); after 2, a restart finishes 3
and 4 before reading any mail; after 4, it sends what is unsent and files what is handled.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sqlite3
from pathlib import Path
from typing import Any, NamedTuple

from referee.errors import UsageError

try:
    import fcntl
except ImportError:  # not a POSIX system
    fcntl = None  # type: ignore[assignment]

DATABASE = "serve.sqlite"
LOCK = "serve.lock"
KEEP_SENT = dt.timedelta(days=1)  # a sent reply's row is kept this long (the hourly count needs an hour)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, short TEXT UNIQUE NOT NULL, path TEXT NOT NULL, created TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS seats (
    game TEXT NOT NULL, seat INTEGER NOT NULL, address TEXT NOT NULL, token_hash TEXT NOT NULL,
    PRIMARY KEY (game, seat));
CREATE TABLE IF NOT EXISTS conditionals (
    game TEXT NOT NULL, seat INTEGER NOT NULL, stand INTEGER NOT NULL, tree TEXT NOT NULL,
    PRIMARY KEY (game, seat));
CREATE TABLE IF NOT EXISTS messages (
    id TEXT PRIMARY KEY, state TEXT NOT NULL, summary TEXT NOT NULL, at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS writes (
    message TEXT NOT NULL, path TEXT NOT NULL, text TEXT NOT NULL, PRIMARY KEY (message, path));
CREATE TABLE IF NOT EXISTS outbox (
    key TEXT PRIMARY KEY, message TEXT NOT NULL, address TEXT NOT NULL, data BLOB,
    queued TEXT NOT NULL, sent TEXT);
CREATE INDEX IF NOT EXISTS outbox_address ON outbox (address, queued);
CREATE TABLE IF NOT EXISTS reminders (
    game TEXT NOT NULL, ply INTEGER NOT NULL, days INTEGER NOT NULL, PRIMARY KEY (game, ply, days));
"""


class Game(NamedTuple):
    id: str  # all 32 hex digits
    short: str  # the first 8: GAMEID
    path: str  # the record's file, in DIR


class Seat(NamedTuple):
    address: str  # lower case
    token_hash: str


class Letter(NamedTuple):
    key: str  # unique: the message it answers and its place among the replies
    address: str  # the one recipient, lower case
    data: bytes  # the whole message


class Unsent(NamedTuple):
    key: str
    address: str
    data: bytes | None  # None once let go (sent long ago)
    number: int  # its place in the queue, for the order of delivery


class Decision:
    """What handling one message changes, gathered while deciding and committed at once."""

    def __init__(self, message: str, summary: str = ""):
        self.message = message
        self.summary = summary
        self.writes: dict[str, str] = {}  # record path → its new text
        self.letters: list[Letter] = []
        self.games: list[tuple[Game, str]] = []  # (game, created)
        self.seats: list[tuple[str, int, Seat]] = []
        self.conditionals: dict[tuple[str, int], tuple[int, list[dict[str, Any]]] | None] = {}
        self.reminders: list[tuple[str, int, int]] = []

    def letter(self, address: str, data: bytes) -> None:
        self.letters.append(Letter(f"{self.message}#{len(self.letters) + 1}", address.lower(), data))


class Store:
    """The database of a games folder, held by this robot alone while it runs."""

    def __init__(self, folder: str | os.PathLike[str]):
        self.folder = Path(folder)
        try:
            self.folder.mkdir(exist_ok=True)  # a new robot's folder: made, as the Maildirs are
        except OSError as exc:
            raise UsageError(f"--games {self.folder}: cannot make the folder of the records: {exc.strerror}") from None
        if not self.folder.is_dir():
            raise UsageError(f"--games {self.folder}: not a folder")
        self._lock = _hold_lock(self.folder / LOCK)
        try:
            self.db = sqlite3.connect(self.folder / DATABASE, isolation_level=None, timeout=30)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")  # a reply marked sent stays marked
            # A sent reply's text (a token mail's among them) is overwritten, not merely freed.
            self.db.execute("PRAGMA secure_delete=ON")
            self.db.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            os.close(self._lock)
            raise UsageError(f"{self.folder / DATABASE}: cannot open the robot's database: {exc}") from None

    def close(self) -> None:
        self.db.close()
        os.close(self._lock)

    # -- reading ---------------------------------------------------------------------------

    def game(self, given: str) -> Game | None:
        """The game of an id as a player gives it: its first 8 hex digits or all 32."""
        column = "id" if len(given) == 32 else "short"
        row = self.db.execute(f"SELECT id, short, path FROM games WHERE {column} = ?", (given.lower(),)).fetchone()
        return Game(*row) if row else None

    def games(self) -> list[Game]:
        return [Game(*row) for row in self.db.execute("SELECT id, short, path FROM games ORDER BY created, id")]

    def seats(self, game: str) -> dict[int, Seat]:
        rows = self.db.execute("SELECT seat, address, token_hash FROM seats WHERE game = ?", (game,))
        return {seat: Seat(address, token_hash) for seat, address, token_hash in rows}

    def conditionals(self, game: str) -> dict[int, tuple[int, list[dict[str, Any]]]]:
        rows = self.db.execute("SELECT seat, stand, tree FROM conditionals WHERE game = ?", (game,))
        return {seat: (stand, json.loads(tree)) for seat, stand, tree in rows}

    def state_of(self, message: str) -> str | None:
        row = self.db.execute("SELECT state FROM messages WHERE id = ?", (message,)).fetchone()
        return row[0] if row else None

    def replies_since(self, address: str, since: dt.datetime) -> int:
        row = self.db.execute("SELECT count(*) FROM outbox WHERE address = ? AND queued > ?",
                              (address.lower(), _iso(since))).fetchone()
        return row[0]

    def reminded(self, game: str, ply: int, days: int) -> bool:
        return self.db.execute("SELECT 1 FROM reminders WHERE game = ? AND ply = ? AND days = ?",
                               (game, ply, days)).fetchone() is not None

    def decided(self) -> list[str]:
        """Messages decided but not yet marked handled (a crash came between)."""
        return [row[0] for row in self.db.execute("SELECT id FROM messages WHERE state = 'decided'")]

    def writes(self, message: str) -> list[tuple[str, str]]:
        return list(self.db.execute("SELECT path, text FROM writes WHERE message = ? ORDER BY path", (message,)))

    def unsent(self, message: str | None = None) -> list[Unsent]:
        query = "SELECT key, address, data, rowid FROM outbox WHERE sent IS NULL"
        rows = self.db.execute(query + (" AND message = ?" if message else "") + " ORDER BY rowid",
                               (message,) if message else ())
        return [Unsent(*row) for row in rows]

    # -- writing ---------------------------------------------------------------------------

    def commit(self, decision: Decision, now: dt.datetime) -> None:
        """Step 2: everything `decision` changes, in one transaction. A decision that writes
        no record is handled at once."""
        state = "decided" if decision.writes else "handled"
        with self._transaction() as db:
            db.execute("INSERT INTO messages (id, state, summary, at) VALUES (?, ?, ?, ?)",
                       (decision.message, state, decision.summary[:500], _iso(now)))
            db.executemany("INSERT INTO writes (message, path, text) VALUES (?, ?, ?)",
                           [(decision.message, path, text) for path, text in decision.writes.items()])
            db.executemany("INSERT INTO outbox (key, message, address, data, queued) VALUES (?, ?, ?, ?, ?)",
                           [(l.key, decision.message, l.address, l.data, _iso(now)) for l in decision.letters])
            db.executemany("INSERT INTO games (id, short, path, created) VALUES (?, ?, ?, ?)",
                           [(g.id, g.short, g.path, created) for g, created in decision.games])
            db.executemany("INSERT INTO seats (game, seat, address, token_hash) VALUES (?, ?, ?, ?)",
                           [(game, seat, s.address, s.token_hash) for game, seat, s in decision.seats])
            for (game, seat), standing in decision.conditionals.items():
                db.execute("DELETE FROM conditionals WHERE game = ? AND seat = ?", (game, seat))
                if standing is not None:
                    db.execute("INSERT INTO conditionals (game, seat, stand, tree) VALUES (?, ?, ?, ?)",
                               (game, seat, standing[0], json.dumps(standing[1])))
            db.executemany("INSERT OR IGNORE INTO reminders (game, ply, days) VALUES (?, ?, ?)",
                           decision.reminders)

    def handled(self, message: str) -> None:
        """Step 4: the records are written; the message is done but for its replies."""
        with self._transaction() as db:
            db.execute("UPDATE messages SET state = 'handled' WHERE id = ?", (message,))
            db.execute("DELETE FROM writes WHERE message = ?", (message,))

    def sent(self, key: str, now: dt.datetime) -> None:
        """Step 5, after the reply went out: its text is let go at once (a token mail's too);
        its row stays a day, for the hourly count of replies to an address."""
        with self._transaction() as db:
            db.execute("UPDATE outbox SET sent = ?, data = NULL WHERE key = ?", (_iso(now), key))
            db.execute("DELETE FROM outbox WHERE sent IS NOT NULL AND sent < ?", (_iso(now - KEEP_SENT),))

    def forget(self) -> None:
        """Move the write-ahead log into the database and empty it, so that the texts of the
        replies sent (and the tokens in them) are in no file any more."""
        self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def _transaction(self) -> "_Transaction":
        return _Transaction(self.db)


class _Transaction:
    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, kind: Any, value: Any, trace: Any) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")


def _iso(moment: dt.datetime) -> str:
    return moment.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _hold_lock(path: Path) -> int:
    """DIR's lock, held while the robot runs: a second robot on the same folder exits 2."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise UsageError(f"{path}: cannot open the robot's lock: {exc.strerror}") from None
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise UsageError(f"{path.parent}: another `referee serve` is already running on this "
                             "folder; one robot a folder") from None
    return fd

