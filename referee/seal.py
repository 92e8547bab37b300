"""Tamper evidence for records sent by mail: a SHA-256 chain over the header and every ply, and
optional Ed25519 signatures of the plies (README: "Sealed and signed records").

The chain: digest 0 is SHA-256 of the header text, digest k is SHA-256 of digest k−1 and the
text of ply k; ply k's [[moves]] entry stores digest k. Changing anything at ply k — the move,
its time stamp, its comment — or anything in the header changes digest k and every one after
it, so the first entry whose stored digest differs from the recomputed one is where the record
was altered. Player names are left out of the header (they may be completed later); public keys
are checked where it matters, by `receive --mine` and `verify --against`.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from referee.errors import RecordError
from referee.record import Entry, Record, toml_datetime

PREFIX = "sha256:"
KEY_PREFIX = "ed25519:"
HEADER_TAG = "referee record 1"


def canonical_json(value: Any) -> str:
    """The JSON the seal hashes, as the README defines it: keys sorted, no spaces, non-ASCII
    kept, dates and times as their str()."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


def header_text(record: Record) -> str:
    """What digest 0 covers: the game, its options and its setup."""
    body = {"game": record.game, "options": record.options, "setup": record.setup}
    return f"{HEADER_TAG}\n{canonical_json(body)}"


def entry_text(ply: int, move: str, entry: Entry) -> str:
    """What ply `ply` adds to the chain: its canonical move, time stamp and comment."""
    at = toml_datetime(entry.at) if entry.at is not None else None
    return canonical_json({"ply": ply, "move": move, "at": at, "comment": entry.comment})


def _digest(previous: str, text: str) -> str:
    return PREFIX + hashlib.sha256(f"{previous}\n{text}".encode("utf-8")).hexdigest()


def header_digest(record: Record) -> str:
    """Digest 0: the start of the chain."""
    return _digest("", header_text(record))


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
    return extend(header_digest(record), 1, moves, record.moves)


def check(record: Record, moves: list[str]) -> list[str]:
    """The digest of every ply; raises a located RecordError at the first ply whose stored
    digest differs. Entries without a digest (hand-written plies) are allowed: they are
    reported as unsealed."""
    digests = chain(record, moves)
    for ply, (entry, digest) in enumerate(zip(record.moves, digests), 1):
        if entry.digest is not None and entry.digest != digest:
            raise RecordError(
                "bad digest: the record was changed at this ply or before it "
                "(header, move, time or comment)",
                file=record.path, line=entry.line, ply=ply, move=entry.move,
            )
    return digests


def unsealed(record: Record) -> list[int]:
    return [ply for ply, entry in enumerate(record.moves, 1) if entry.digest is None]


def unsigned(record: Record) -> list[int]:
    return [ply for ply, entry in enumerate(record.moves, 1) if entry.signature is None]


def divergence(mine, theirs) -> str | None:
    """Where `theirs` (a replay) fails to extend `mine`: the same game, header and public keys,
    and every ply of `mine` unchanged. None when it extends it (or is the same)."""
    a, b = mine.record, theirs.record
    if header_text(a) != header_text(b):
        return "the game, its options or its setup differ"
    for seat, player in a.players.items():
        if "key" in player and b.players.get(seat, {}).get("key") != player["key"]:
            return f"seat {seat}'s public key differs"
    digests_a, digests_b = mine.digests, theirs.digests
    for ply in range(1, mine.plies + 1):
        if ply > theirs.plies:
            return (f"{b.path} stops at ply {theirs.plies}, but {a.path} goes on to ply "
                    f"{mine.plies}: plies are missing (truncated)")
        if mine.entries[ply - 1] != theirs.entries[ply - 1]:
            return (f"ply {ply} is {theirs.entries[ply - 1]} in {b.path} but "
                    f"{mine.entries[ply - 1]} in {a.path}")
        if digests_a[ply - 1] != digests_b[ply - 1]:
            return f"ply {ply} has another time stamp or comment in {b.path} than in {a.path}"
    return None
