"""The TOML record (SPEC §3): read it strictly, write it canonically, replace it atomically.

The values (Entry, Record) and their canonical TOML; the reading (`parse_record`): the text
parsed by toml_reading, then its shape checked here, with the line of each move and of
[result] located by toml_lines for messages. The rules are the replay's.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from typing import Any

from referee.clock import Clock, bounded
from referee.errors import RecordError
from referee.files import MAX_INPUT_BYTES, read_input
from referee.toml_lines import MoveLines, Where, header_line
from referee.toml_reading import load_toml

FORMAT = 1
TOP_KEYS = ("format", "game", "id", "options", "players", "setup", "clock", "moves", "pending", "result")
ENTRY_KEYS = ("move", "at", "comment", "leave", "offer", "pending", "bot", "digest", "signature")
_ENTRY_KEY_SET = frozenset(ENTRY_KEYS)
PENDING_KEYS = ("if", "then")
RESULT_KEYS = ("winners", "reason")
PLAYER_KEYS = ("name", "key", "bot")
BOT_KEYS = ("engine", "seconds")  # SPEC §10: a seat the referee's engine plays
BOT_SECONDS = (0.1, 60.0)  # SPEC §14: a reply is bounded, whoever wrote the record

# Records arrive from strangers by mail: anything beyond these is refused before it costs much.
MAX_RECORD_BYTES = MAX_INPUT_BYTES
MAX_PLIES = 20_000
MAX_MOVE_CHARS = 500  # a whole Hermetica turn is well under 100
MAX_TEXT_CHARS = 10_000  # comments, names, reasons


class Entry:
    """One ply as recorded. `pending` holds the conditional replies its mover left standing
    (SPEC §9: sealed with the ply). `line` is the TOML line of its move, for messages only."""

    def __init__(self, move: str, at: dt.datetime | None = None, comment: str | None = None,
                 digest: str | None = None, signature: str | None = None,
                 line: int | Where | None = None,
                 pending: list[dict[str, str]] | None = None,
                 leave: tuple[dt.datetime, dt.datetime] | None = None, offer: str | None = None,
                 bot: bool = False):
        self.move, self.at, self.comment = move, at, comment
        self.digest, self.signature, self._line = digest, signature, line
        self.pending = [] if pending is None else pending
        self.leave, self.offer = leave, offer  # SPEC §6: leave declared, a draw offered
        self.bot = bot  # SPEC §10: the engine chose this move, for a bot seat

    @property
    def line(self) -> int | None:
        where = self._line
        return where.line() if isinstance(where, Where) else where

    def __repr__(self) -> str:
        return f"Entry({self.move!r}, at={self.at!r}, comment={self.comment!r})"

    def declarations(self) -> list[str]:
        """What the ply says besides its move and stamp, in a player's words (SPEC §9 holds
        the plies written for a seat to none)."""
        return [word for word, present in (("a comment", self.comment is not None),
                                           ("a draw offer", self.offer is not None),
                                           ("leave", self.leave is not None),
                                           ("conditional moves", bool(self.pending))) if present]

    def to_toml(self) -> str:
        lines = [_dumps({"move": self.move})]
        if self.at is not None:
            lines.append(f"at = {toml_datetime(self.at)}\n")
        if self.comment is not None:
            lines.append(_dumps({"comment": self.comment}))
        if self.leave is not None:
            lines.append(f"leave = [{toml_datetime(self.leave[0])}, {toml_datetime(self.leave[1])}]\n")
        if self.offer is not None:
            lines.append(_dumps({"offer": self.offer}))
        if self.pending:
            # Inline tables written by hand: tomli-w turns a long array of tables into
            # [[pending]] headers, which would end this ply's table and take its digest along.
            # (The layout is tomli-w's for short ones.)
            rows = "".join(f"    {{ if = {_string(p['if'])}, then = {_string(p['then'])} }},\n" for p in self.pending)
            lines.append(f"pending = [\n{rows}]\n")
        if self.bot:
            lines.append("bot = true\n")
        for key in ("digest", "signature"):
            value = getattr(self, key)
            if value is not None:
                lines.append(_dumps({key: value}))
        return "".join(lines)


def toml_datetime(at: dt.datetime) -> str:
    """A TOML date-time in the RFC 3339 form players know: 2026-11-22T14:01:00Z."""
    text = at.isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


class Record:
    """A game record (SPEC §3): the header, the plies and the result. `id` is the game's random
    identity (SPEC §9), None in records made before it. `legacy_pending` holds the conditional
    replies of an older record's top-level [[pending]] (read, never written: the referee keeps
    them in the ply that set them). `path` is where it was read from and `result_line` the TOML
    line of [result], for messages."""

    def __init__(
        self,
        game: str,
        options: dict[str, Any] | None = None,
        players: dict[int, dict[str, str]] | None = None,
        setup: dict[str, Any] | None = None,
        moves: list[Entry] | None = None,
        legacy_pending: list[dict[str, str]] | None = None,
        result: dict[str, Any] | None = None,
        path: str | None = None,
        result_line: int | None = None,
        id: str | None = None,
        clock: dict[str, Any] | None = None,
    ):
        self.game, self.id = game, id
        self.clock = clock  # SPEC §6: the [clock] table as written, None without a clock
        self.options = {} if options is None else options
        self.players = {} if players is None else players
        self.setup = {} if setup is None else setup
        self.moves = [] if moves is None else moves
        self.legacy_pending = [] if legacy_pending is None else legacy_pending
        self.result, self.path, self.result_line = result, path, result_line

    def __repr__(self) -> str:
        return f"Record({self.game!r}, {self.options!r}, {len(self.moves)} plies, path={self.path!r})"

    def player_name(self, seat: int) -> str | None:
        player = self.players.get(seat)
        return player.get("name") if player else None

    def keys(self) -> dict[int, str]:
        """The public key of every seat that signs its moves."""
        return {seat: p["key"] for seat, p in sorted(self.players.items()) if "key" in p}

    def bots(self) -> dict[int, dict[str, Any]]:
        """The engine and its seconds a move of every seat the engine plays (SPEC §10)."""
        return {seat: p["bot"] for seat, p in sorted(self.players.items()) if "bot" in p}

    def standing_conditions(self) -> list[dict[str, str]]:
        """The conditional replies waiting for the next ply: those the last ply set (an older
        record's top-level [[pending]] where it has none)."""
        if self.moves and self.moves[-1].pending:
            return self.moves[-1].pending
        return self.legacy_pending

    def to_toml(self) -> str:
        """The record as the referee writes it: header, [options], [players], [setup], one
        [[moves]] table per ply, [result]. tomli-w would inline short tables, so the arrays of
        tables get their headers here."""
        head = {"format": FORMAT, "game": self.game}
        if self.id is not None:
            head["id"] = self.id
        parts = [_dumps(head)]
        if self.options:
            parts.append(_dumps({"options": self.options}))
        if self.players:
            # A player with only a name is written in the short form `1 = "Ann"`.
            players = {
                str(seat): p["name"] if set(p) == {"name"} else p
                for seat, p in sorted(self.players.items())
            }
            parts.append(_dumps({"players": players}))
        if self.setup:
            parts.append(_dumps({"setup": self.setup}))
        if self.clock is not None:
            parts.append("[clock]\n" + "".join(
                f"{key} = {toml_datetime(value)}\n" if isinstance(value, dt.datetime) else _dumps({key: value})
                for key, value in self.clock.items()))
        for entry in self.moves:
            parts.append("[[moves]]\n" + entry.to_toml())
        if self.result is not None:
            # Seat lists are short: `winners = [1]` reads better than tomli-w's one-per-line.
            winners = ", ".join(str(seat) for seat in self.result["winners"])
            rest = {k: v for k, v in self.result.items() if k != "winners"}
            parts.append(f"[result]\nwinners = [{winners}]\n" + _dumps(rest))
        return "\n".join(parts)


def _dumps(table: dict[str, Any]) -> str:
    import tomli_w  # the writer: only commands that write a record load it

    return tomli_w.dumps(table)


def _string(text: str) -> str:
    """A TOML string as tomli-w writes one (quotes, escapes), for a value inside an inline table."""
    return _dumps({"s": text})[len("s = "):-1]


# -- reading ---------------------------------------------------------------------------------


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
        for key in ("comment", "digest", "signature"):
            if key in item and not isinstance(item[key], str):
                raise RecordError(f"{key} must be text", file=name, line=line.line(), ply=i + 1, move=item["move"])
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
                             bot="bot" in item))
        entry = entries[-1]
        longest.append(max(len(entry.move), len(entry.comment or ""), len(entry.digest or ""),
                           len(entry.signature or "")))
    if max(longest, default=0) > MAX_MOVE_CHARS:  # rare: find the first entry over its limit
        for ply, (entry, size) in enumerate(zip(entries, longest), 1):
            limit = MAX_MOVE_CHARS if len(entry.move) > MAX_MOVE_CHARS else MAX_TEXT_CHARS
            if size > limit:
                raise RecordError(f"a text of {size} characters is too long here (at most {limit})",
                                  file=name, line=entry.line, ply=ply)
    return entries


def _pending(raw: Any, where: str, name: str) -> list[dict[str, str]]:
    """Conditional replies: `pending = [{ if = "…", then = "…" }, …]` in a ply, or an older
    record's top-level [[pending]] tables."""
    if not isinstance(raw, list) or not all(isinstance(p, dict) for p in raw):
        raise _fail(f"{where} must be a list of {{ if = \"…\", then = \"…\" }} tables", name)
    for p in raw:
        _check_keys(p, PENDING_KEYS, where, name)
        if set(p) != set(PENDING_KEYS) or not all(isinstance(v, str) for v in p.values()):
            raise _fail(f"each {where} needs if = \"…\" and then = \"…\"", name)
        if any(len(v) > MAX_MOVE_CHARS for v in p.values()):
            raise _fail(f"a move of over {MAX_MOVE_CHARS} characters in {where}", name)
    return raw
