"""Tamper evidence for records sent by mail: a SHA-256 chain over the header and every ply, and
optional Ed25519 signatures of the plies (README: "Sealed and signed records").

The chain: digest 0 is SHA-256 of the header text, digest k is SHA-256 of digest k−1 and the
text of ply k; ply k's [[moves]] entry stores digest k. Changing anything at ply k — the move,
its time stamp, its comment, the conditional replies it set — or anything in the header (the
game, its id, the seats' public keys, options, setup) changes digest k and every one after it,
so the first entry whose stored digest differs from the recomputed one is where the record was
altered (SPEC §9). Player names are left out (they may be completed later).

Signatures (record/signing.py) are made over a ply's digest, so a signed ply cannot be moved into
another game or kept under another key. Which plies must be signed is `unsigned_problems`.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from typing import Any

from referee.errors import RecordError
from referee.record.values import Entry, Record, branch, toml_datetime

PREFIX = "sha256:"
KEY_PREFIX = "ed25519:"
HEADER_TAG = "referee record 1"


# The encoder `json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
# default=str)` would build at every call, built once: the seal encodes a text a ply, and making
# the encoder cost a third of that. The same bytes (tests/test_mail.py compares them).
_CANONICAL = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


def canonical_json(value: Any) -> str:
    """The JSON the seal hashes, as the README defines it: keys sorted, no spaces, non-ASCII
    kept, dates and times as their str()."""
    return _CANONICAL.encode(value)


def header_text(record: Record, *, keys: bool = True) -> str:
    """What digest 0 covers: the game, its id, the seats' public keys and the seats the engine
    plays when the record has them, its options and its setup. (keys=False: as a referee
    before SPEC §9 sealed it.)"""
    body: dict[str, Any] = {"game": record.game, "options": record.options, "setup": record.setup}
    if record.clock is not None:  # SPEC §6: times written as `at` is
        body["clock"] = {k: toml_datetime(v) if isinstance(v, dt.datetime) else v for k, v in record.clock.items()}
    if record.id is not None:
        body["id"] = record.id
    if keys and record.keys():
        body["keys"] = {str(seat): key for seat, key in record.keys().items()}
    if record.bots():  # SPEC §10: which seats the engine plays, sealed like the keys
        body["bots"] = {str(seat): bot for seat, bot in record.bots().items()}
    return f"{HEADER_TAG}\n{canonical_json(body)}"


def entry_text(ply: int, move: str, entry: Entry) -> str:
    """What ply `ply` adds to the chain: its canonical move, time stamp and comment, and the
    leave, draw offer, sealed note and conditional replies it carries when it has any (SPEC §6,
    §9, §12), and that the engine chose it (SPEC §10)."""
    at = toml_datetime(entry.at) if entry.at is not None else None
    body: dict[str, Any] = {"ply": ply, "move": move, "at": at, "comment": entry.comment}
    if entry.leave is not None:
        body["leave"] = [toml_datetime(t) for t in entry.leave]
    if entry.offer is not None:
        body["offer"] = entry.offer
    if entry.note is not None:  # SPEC §12: a sealed note cannot be changed later
        body["note"] = entry.note
    if entry.pending:
        body["pending"] = entry.pending
    if entry.bot:
        body["bot"] = True
    return canonical_json(body)


def _digest(previous: str, text: str) -> str:
    return PREFIX + hashlib.sha256(f"{previous}\n{text}".encode("utf-8")).hexdigest()


def header_digest(record: Record) -> str:
    """Digest 0: the start of the chain."""
    return _digest("", header_text(record))


def _sealed_before_keys(record: Record, moves: list[str]) -> bool:
    """A record sealed by a referee that left the keys out of digest 0: it has keys but no id
    (every record made since carries an id), and its first sealed ply matches that header."""
    if record.id is not None or not record.keys():
        return False
    first = next((k for k, e in enumerate(record.moves) if e.digest is not None), None)
    if first is None:
        return False
    legacy = extend(_digest("", header_text(record, keys=False)), 1, moves[: first + 1],
                    record.moves[: first + 1])
    return legacy[-1] == record.moves[first].digest


def reveal_digest(record: Record, seat: int, key: str) -> str:
    """What a seat signs to reveal its note key (SPEC §12): the key and the seat, chained to
    digest 0, so that a reveal belongs to this game (its id) and these keys."""
    return _digest(header_digest(record), canonical_json({"reveal": seat, "key": key}))


def extend(previous: str, first_ply: int, moves: list[str], entries: list[Entry]) -> list[str]:
    """The digests of plies first_ply, first_ply + 1, … given the digest before them, their
    canonical moves and their entries."""
    digests = []
    for ply, (move, entry) in enumerate(zip(moves, entries), first_ply):
        previous = _digest(previous, entry_text(ply, move, entry))
        digests.append(previous)
    return digests


def chain(record: Record, moves: list[str]) -> list[str]:
    """The digest of every ply, given the plies' canonical moves."""
    start = header_digest(record)
    if _sealed_before_keys(record, moves):
        start = _digest("", header_text(record, keys=False))
    return extend(start, 1, moves, record.moves)


def check(record: Record, moves: list[str]) -> list[str]:
    """The digest of every ply; raises a located RecordError at the first ply whose stored
    digest differs. Entries without a digest (hand-written plies) are allowed: they are
    reported as unsealed."""
    digests = chain(record, moves)
    for ply, (entry, digest) in enumerate(zip(record.moves, digests), 1):
        if entry.digest is not None and entry.digest != digest:
            raise RecordError(
                "bad digest: the record was changed at this ply or before it "
                "(header, keys, move, time, comment or conditional moves)",
                file=record.path, line=entry.line, ply=ply, move=entry.move,
            )
    return digests


def written_for(record: Record, moves: list[str], movers: list[int], forced: list[bool]) -> list[int]:
    """The plies the other side's referee wrote for their seat (SPEC §9): a pass the rules
    forced (`forced[k-1]` for ply k) and a reply taken from the seat's own sealed conditional
    moves (set in its ply just before the opponent's, or carried there as the line's `next`,
    SPEC §12). Such a ply carries the seat's choice only as far as the rules or its own earlier
    ply made it, so it needs no signature, and it may carry nothing else but the rest of that
    line (play/replay.py holds it to that)."""
    plies = []
    for ply, seat in enumerate(movers, 1):
        if forced[ply - 1]:
            plies.append(ply)
        elif ply >= 3 and movers[ply - 2] != seat and movers[ply - 3] == seat:
            if branch(record.moves[ply - 3].pending, moves[ply - 2], moves[ply - 1]) is not None:
                plies.append(ply)
    return plies


def needs_signature(record: Record, movers: list[int], written: list[int]) -> list[int]:
    """The plies that must carry their mover's signature (SPEC §9): every ply of a seat with a
    key in [players], except those written for it (`written`, as `written_for` gives them)."""
    keys = record.keys()
    exempt = set(written)
    return [ply for ply, seat in enumerate(movers, 1) if seat in keys and ply not in exempt]


def unsealed(record: Record) -> list[int]:
    return [ply for ply, entry in enumerate(record.moves, 1) if entry.digest is None]


def unsigned(record: Record) -> list[int]:
    return [ply for ply, entry in enumerate(record.moves, 1) if entry.signature is None]


def divergence(mine, theirs) -> str | None:
    """Where `theirs` (a replay) fails to extend `mine`: the same game, header and public keys,
    and every ply of `mine` unchanged. None when it extends it (or is the same)."""
    a, b = mine.record, theirs.record
    if header_text(a) != header_text(b):
        return "the game, its id, its keys, its options or its setup differ"
    for seat, key in a.keys().items():
        if b.keys().get(seat) != key:
            return f"seat {seat}'s public key differs"
    moves_a, moves_b = mine.entries, theirs.entries  # built once: each is a list of every ply
    for ply in range(1, mine.plies + 1):
        if ply > theirs.plies:
            return (f"{b.path} stops at ply {theirs.plies}, but {a.path} goes on to ply "
                    f"{mine.plies}: plies are missing (truncated)")
        if moves_a[ply - 1] != moves_b[ply - 1]:
            return f"ply {ply} is {moves_b[ply - 1]} in {b.path} but {moves_a[ply - 1]} in {a.path}"
        if mine.digests[ply - 1] != theirs.digests[ply - 1]:
            return (f"ply {ply} has another time stamp, comment or conditional moves in {b.path} "
                    f"than in {a.path}")
    return None


def moved_for(mine, theirs, seat: int, written: list[int]) -> str | None:
    """SPEC §9, whose copy it is: the first new ply of `theirs` (beyond `mine`, a replay of the
    receiver's copy, or None when the receiver has none yet) made for `seat`, the receiver's,
    by someone else: any ply of that seat but those written for it (`written`, of `theirs`).
    None when there is none."""
    known = mine.plies if mine is not None else 0
    exempt = set(written)
    for ply in range(known + 1, theirs.plies + 1):
        if theirs.line[ply].mover == seat and ply not in exempt:
            said = theirs.record.moves[ply - 1].declarations()
            what = theirs.entries[ply - 1] + (f" with {' and '.join(said)}" if said else "")
            name = theirs.record.player_name(seat)
            whose = f"{name} (seat {seat})" if name else f"seat {seat}"
            return f"ply {ply} ({what}) was made for {whose}, your seat, by someone else"
    return None

