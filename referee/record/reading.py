"""Reading a record (SPEC §3), strictly: the text parsed by toml_reading, then its shape
checked here — known keys, types, dates within 1970–9999, the players' and the bot seats'
tables, every ply — with the line of each move and of [result] located by toml_lines for
messages. The rules are the replay's.
"""

from __future__ import annotations

import base64
import datetime as dt
import os
import re
from typing import Any

from referee.errors import RecordError
from referee.record.clock import Clock, bounded
from referee.record.files import read_input
from referee.record.toml_lines import MoveLines, Where, header_line
from referee.record.toml_reading import load_toml
from referee.record.values import (
    BOT_KEYS, BOT_SECONDS, ENTRY_KEYS, FORMAT, MAX_LINE_DEPTH, MAX_MOVE_CHARS, MAX_PLIES, MAX_RECORD_BYTES,
    MAX_TEXT_CHARS, NOTE_PREFIX, PENDING_KEYS, PLAYER_KEYS, RESULT_KEYS, REVEAL_KEYS, TOP_KEYS, Entry, Record,
    _ENTRY_KEY_SET,
)


def read_record(path: str | os.PathLike[str]) -> Record:
    """Read and check the shape of a record file. The rules are checked later, by the replay."""
    return parse_record(read_input(path, "record"), str(path))


def parse_record(data: bytes, name: str = "<record>") -> Record:
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"larger than {MAX_RECORD_BYTES // 1_000_000} MB: not a game record", file=name)
    doc, text = load_toml(data, name)
    return _build(doc, text, name)


def _fail(reason: str, name: str, line: int | None = None) -> RecordError:
    return RecordError(reason, file=name, line=line)


def _check_keys(table: dict[str, Any], allowed: tuple[str, ...], where: str, name: str) -> None:
    unknown = [k for k in table if k not in allowed]
    if unknown:
        raise _fail(
            f"unknown key {unknown[0]!r} in {where} (allowed: {', '.join(allowed)})", name
        )


def _build(doc: dict[str, Any], text: str, name: str) -> Record:
    _check_keys(doc, TOP_KEYS, "the record", name)
    if "format" in doc and (type(doc["format"]) is not int or doc["format"] != FORMAT):
        raise _fail(f"format {doc['format']!r} is not supported (this referee reads format {FORMAT})", name)
    game = doc.get("game")
    if not isinstance(game, str):
        raise _fail("the record must name its game, e.g. game = \"odd\"", name)
    game_id = doc.get("id")
    if game_id is not None and not (isinstance(game_id, str) and re.fullmatch(r"[0-9a-f]{32}", game_id)):
        raise _fail("id must be 32 lower-case hex digits, as `referee new` writes it", name)
    options = _table(doc, "options", name)
    setup = _table(doc, "setup", name)
    clock = doc.get("clock")
    if clock is not None:
        if not isinstance(clock, dict):
            raise _fail("clock must be a table [clock]", name)
        try:
            Clock.from_table(clock)
        except ValueError as exc:
            raise _fail(str(exc), name, header_line(text, "clock")) from None
    players = _players(_table(doc, "players", name), name)
    moves = _moves(doc.get("moves", []), text, name)
    legacy_pending = _pending(doc.get("pending", []), "[[pending]]", name)
    reveals = _reveals(doc.get("reveal", []), players, text, name)
    result = doc.get("result")
    if result is not None:
        if not isinstance(result, dict):
            raise _fail("result must be a table [result]", name)
        _check_keys(result, RESULT_KEYS, "[result]", name)
        winners = result.get("winners")
        if not isinstance(winners, list) or not all(
            isinstance(w, int) and not isinstance(w, bool) for w in winners
        ):
            raise _fail("[result] winners must be a list of seat numbers, e.g. [1]", name)
        if "reason" in result and not isinstance(result["reason"], str):
            raise _fail("[result] reason must be text", name)
    return Record(
        game=game,
        options=options,
        players=players,
        setup=setup,
        moves=moves,
        legacy_pending=legacy_pending,
        result=result,
        path=name,
        result_line=None if result is None else header_line(text, "result"),
        id=game_id,
        clock=clock,
        reveals=reveals,
    )


def _table(doc: dict[str, Any], key: str, name: str) -> dict[str, Any]:
    value = doc.get(key, {})
    if not isinstance(value, dict):
        raise _fail(f"{key} must be a table [{key}]", name)
    return value


def _players(table: dict[str, Any], name: str) -> dict[int, dict[str, str]]:
    players = {}
    for seat_text, value in table.items():
        # ASCII digits only: "²" and "٣" are digits to str.isdigit but no seat a player means.
        if not re.fullmatch(r"[0-9]{1,9}", seat_text):
            raise _fail(f"[players] keys are seat numbers, not {seat_text[:20]!r}", name)
        if isinstance(value, str):
            value = {"name": value}
        if not isinstance(value, dict):
            raise _fail(f"player {seat_text} must be a name or a table {{ name = … }}", name)
        _check_keys(value, PLAYER_KEYS, f"player {seat_text}", name)
        texts = [v for k, v in value.items() if k != "bot"]
        if not all(isinstance(v, str) for v in texts) or "name" not in value:
            raise _fail(f"player {seat_text} needs a name, and name and key are text", name)
        if any(len(v) > MAX_TEXT_CHARS for v in texts):
            raise _fail(f"player {seat_text}: a name or key of over {MAX_TEXT_CHARS} characters", name)
        if "bot" in value:
            _bot(value, f"player {seat_text}", name)
        players[int(seat_text)] = value
    return players


def _bot(player: dict[str, Any], where: str, name: str) -> None:
    """A bot seat's table: `bot = { engine = "referee 0.1.0", seconds = 3 }` (SPEC §10)."""
    bot = player["bot"]
    if not isinstance(bot, dict):
        raise _fail(f"{where}: bot must be a table {{ engine = …, seconds = … }}", name)
    _check_keys(bot, BOT_KEYS, f"{where}'s bot", name)
    engine, seconds = bot.get("engine"), bot.get("seconds")
    if not isinstance(engine, str) or not 0 < len(engine) <= 200:
        raise _fail(f"{where}: bot.engine names the engine, as text", name)
    low, high = BOT_SECONDS
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not low <= seconds <= high:
        raise _fail(f"{where}: bot.seconds is a number of seconds a reply, {low:g}–{high:g}", name)
    if "key" in player:
        raise _fail(f"{where} is played by the engine, which never signs: a bot seat has no key", name)


def _moves(raw: Any, text: str, name: str) -> list[Entry]:
    if not isinstance(raw, list):
        raise _fail("moves must be a list of strings or [[moves]] tables", name)
    if len(raw) > MAX_PLIES:
        raise _fail(f"more than {MAX_PLIES} plies: not a game record", name)
    lines = MoveLines(text, len(raw))
    entries = []
    longest: list[int] = []  # each entry's longest text, held to its limit after the other faults
    for i, item in enumerate(raw):
        if isinstance(item, str):
            entries.append(Entry(item, line=Where(lines, i)))
            longest.append(len(item))
            continue
        line = Where(lines, i)  # its number is looked up only for a message
        if not isinstance(item, dict):
            raise RecordError(
                "each move is a string or a [[moves]] table", file=name, line=line.line(), ply=i + 1
            )
        if not _ENTRY_KEY_SET.issuperset(item):
            unknown = [k for k in item if k not in ENTRY_KEYS]
            raise RecordError(
                f"unknown key {unknown[0]!r} in [[moves]] (allowed: {', '.join(ENTRY_KEYS)})",
                file=name, line=line.line(), ply=i + 1,
            )
        if not isinstance(item.get("move"), str):
            raise RecordError("a [[moves]] table needs move = \"…\"", file=name, line=line.line(), ply=i + 1)
        at = item.get("at")
        if at is not None and not isinstance(at, dt.datetime):
            raise RecordError("at must be a date-time such as 2026-11-22T14:01:00Z",
                              file=name, line=line.line(), ply=i + 1, move=item["move"])
        moments = [at] if at is not None else []
        if isinstance(item.get("leave"), list):
            moments += item["leave"]
        for moment in moments:
            if isinstance(moment, dt.datetime):  # SPEC §9: no date a sum could overflow
                try:
                    bounded(moment, "the date")
                except ValueError as exc:
                    raise RecordError(str(exc), file=name, line=line.line(), ply=i + 1, move=item["move"]) from None
        for key in ("comment", "digest", "signature", "note"):
            if key in item and not isinstance(item[key], str):
                raise RecordError(f"{key} must be text", file=name, line=line.line(), ply=i + 1, move=item["move"])
        if "note" in item and not sealed_note_shape(item["note"]):
            raise RecordError('note must be "sealed:" and the base64 of a nonce and a ciphertext, as '
                              "`move --note` writes it", file=name, line=line.line(), ply=i + 1, move=item["move"])
        try:
            pending = _pending(item["pending"], "pending", name) if "pending" in item else []
        except RecordError as exc:
            raise exc.located(line=line.line(), ply=i + 1, move=item["move"]) from None
        leave = item.get("leave")
        if leave is not None:
            if not (isinstance(leave, list) and len(leave) == 2
                    and all(isinstance(t, dt.datetime) and t.tzinfo is not None for t in leave)):
                raise RecordError("leave must be two UTC date-times, [FROM, TO]",
                                  file=name, line=line.line(), ply=i + 1, move=item["move"])
            leave = (leave[0], leave[1])
        if "offer" in item and item["offer"] != "draw":
            raise RecordError('offer must be "draw"', file=name, line=line.line(), ply=i + 1, move=item["move"])
        if "bot" in item and item["bot"] is not True:
            raise RecordError("bot is true where the engine chose the move, else absent",
                              file=name, line=line.line(), ply=i + 1, move=item["move"])
        entries.append(Entry(item["move"], at, item.get("comment"), item.get("digest"),
                             item.get("signature"), line, pending, leave, item.get("offer"),
                             bot="bot" in item, note=item.get("note")))
        entry = entries[-1]
        longest.append(max(len(entry.move), len(entry.comment or ""), len(entry.digest or ""),
                           len(entry.signature or ""), len(entry.note or "")))
    if max(longest, default=0) > MAX_MOVE_CHARS:  # rare: find the first entry over its limit
        for ply, (entry, size) in enumerate(zip(entries, longest), 1):
            limit = MAX_MOVE_CHARS if len(entry.move) > MAX_MOVE_CHARS else MAX_TEXT_CHARS
            if size > limit:
                raise RecordError(f"a text of {size} characters is too long here (at most {limit})",
                                  file=name, line=entry.line, ply=ply)
    return entries


def _pending(raw: Any, where: str, name: str) -> list[dict[str, Any]]:
    """Conditional replies: `pending = [{ if = "…", then = "…", next = […] }, …]` in a ply, or
    an older record's top-level [[pending]] tables. `next` is the line going on (SPEC §12): the
    same shape, at most MAX_LINE_DEPTH deep. (Where a hand-written tree gives two replies to
    one move, the first is played: `move` never writes such a tree.)"""
    todo = [(raw, where, 1)]
    while todo:  # a loop, not recursion: the depth is checked before it can cost anything
        tree, at, depth = todo.pop()
        if depth > MAX_LINE_DEPTH:
            raise _fail(f"{where}: a conditional line more than {MAX_LINE_DEPTH} replies deep", name)
        if not isinstance(tree, list) or not all(isinstance(p, dict) for p in tree):
            raise _fail(f"{at} must be a list of {{ if = \"…\", then = \"…\" }} tables", name)
        for p in tree:
            _check_keys(p, PENDING_KEYS, at, name)
            moves = [p.get("if"), p.get("then")]
            if not all(isinstance(v, str) for v in moves):
                raise _fail(f"each {at} needs if = \"…\" and then = \"…\"", name)
            if any(len(v) > MAX_MOVE_CHARS for v in moves):
                raise _fail(f"a move of over {MAX_MOVE_CHARS} characters in {at}", name)
            if "next" in p:
                todo.append((p["next"], f"{at}'s next", depth + 1))
    return raw


NOTE_OVERHEAD = 12 + 16  # a note's nonce and its cipher's tag (record/notes.py)


def sealed_note_shape(note: str) -> bool:
    """Whether a ply's `note` has the shape `move --note` writes (SPEC §12); whether it opens
    is for whoever holds the key (record/notes.py)."""
    if not note.startswith(NOTE_PREFIX) or len(note) > MAX_TEXT_CHARS:
        return False
    try:
        return len(base64.b64decode(note[len(NOTE_PREFIX):], validate=True)) >= NOTE_OVERHEAD
    except ValueError:
        return False


def _reveals(raw: Any, players: dict[int, dict[str, Any]], text: str, name: str) -> list[dict[str, Any]]:
    """[[reveal]] tables (SPEC §12): `seat`, the seat's note key `key` (base64 of 32 bytes) and
    that seat's `signature`; one a seat, of a seat with a key. Whether the signature is the
    seat's and the key opens its notes is checked where the signing library is (play/keys.py)."""
    if not isinstance(raw, list) or not all(isinstance(r, dict) for r in raw):
        raise _fail("reveal must be [[reveal]] tables", name)
    seen = set()
    where = header_line(text, r"\[reveal\]") if raw else None  # the first [[reveal]]
    for reveal in raw:
        _check_keys(reveal, REVEAL_KEYS, "[[reveal]]", name)
        seat, key = reveal.get("seat"), reveal.get("key")
        if type(seat) is not int or not isinstance(key, str) or not isinstance(reveal.get("signature"), str):
            raise _fail("[[reveal]] needs seat = N, key = \"…\" and signature = \"…\", as `referee reveal` "
                        "writes them", name, where)
        try:
            raw_key = base64.b64decode(key, validate=True) if len(key) <= 100 else b""
        except ValueError:
            raw_key = b""
        if len(raw_key) != 32 or len(reveal["signature"]) > 200:
            raise _fail(f"[[reveal]] of seat {seat}: key is the base64 of a 32-byte note key", name, where)
        if "key" not in players.get(seat, {}):
            raise _fail(f"[[reveal]] of seat {seat}: only a seat with a key in [players] writes notes "
                        "and reveals them", name, where)
        if seat in seen:
            raise _fail(f"[[reveal]]: seat {seat} is revealed twice", name, where)
        seen.add(seat)
    return raw
