"""The TOML record (SPEC §3) as values: its plies (`Entry`) and the whole record (`Record`),
each written back as canonical TOML, and the limits a record keeps. Reading one is
record/reading.py's; the rules are the replay's.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from referee.record.files import MAX_INPUT_BYTES
from referee.record.toml_lines import Where

FORMAT = 1
TOP_KEYS = ("format", "game", "id", "options", "players", "setup", "clock", "moves", "pending", "reveal", "result")
ENTRY_KEYS = ("move", "at", "comment", "leave", "offer", "note", "pending", "bot", "digest", "signature")
REVEAL_KEYS = ("seat", "key", "signature")  # SPEC §12: a seat's note key, made public
NOTE_PREFIX = "sealed:"  # SPEC §12: a note as the ply stores it
_ENTRY_KEY_SET = frozenset(ENTRY_KEYS)
PENDING_KEYS = ("if", "then", "next")  # next: the line going on (SPEC §12), a list like pending
MAX_LINE_DEPTH = 50  # replies set ahead in one conditional line: 100 plies, far within TOML's nesting
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
                 bot: bool = False, note: str | None = None):
        self.move, self.at, self.comment = move, at, comment
        self.digest, self.signature, self._line = digest, signature, line
        self.pending = [] if pending is None else pending
        self.leave, self.offer = leave, offer  # SPEC §6: leave declared, a draw offered
        self.bot = bot  # SPEC §10: the engine chose this move, for a bot seat
        self.note = note  # SPEC §12: "sealed:…", a note only its writer reads until revealed

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
                                           ("a sealed note", self.note is not None),
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
        if self.note is not None:
            lines.append(_dumps({"note": self.note}))
        if self.pending:
            # Inline tables written by hand: tomli-w turns a long array of tables into
            # [[pending]] headers, which would end this ply's table and take its digest along.
            # (The layout is tomli-w's for short ones.)
            rows = "".join(f"    {_node(p)},\n" for p in self.pending)
            lines.append(f"pending = [\n{rows}]\n")
        if self.bot:
            lines.append("bot = true\n")
        for key in ("digest", "signature"):
            value = getattr(self, key)
            if value is not None:
                lines.append(_dumps({key: value}))
        return "".join(lines)


def _node(node: dict) -> str:
    """One branch of conditional moves as an inline table on one line (TOML 1.0 keeps an
    inline table on its line), its `next` branches nested inside it."""
    after = node.get("next")
    rest = f", next = [{', '.join(_node(n) for n in after)}]" if after is not None else ""
    return f"{{ if = {_string(node['if'])}, then = {_string(node['then'])}{rest} }}"


def branch(tree: list[dict], if_move: str, then_move: str | None = None) -> dict | None:
    """The branch of a tree of conditional moves (SPEC §12) for the opponent's move `if_move`
    (and, when given, with the reply `then_move`); None when the tree has none."""
    return next((node for node in tree if node["if"] == if_move
                 and (then_move is None or node["then"] == then_move)), None)


def plain_tree(tree: list[dict]) -> list[dict]:
    """A tree of conditional moves with `next = []` left out, to compare two trees."""
    return [{"if": n["if"], "then": n["then"], **({"next": plain_tree(n["next"])} if n.get("next") else {})}
            for n in tree]


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
        reveals: list[dict[str, Any]] | None = None,
    ):
        self.game, self.id = game, id
        # SPEC §12: [[reveal]] tables, each a seat's note key made public, signed by that seat.
        self.reveals = [] if reveals is None else reveals
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
        for reveal in self.reveals:
            parts.append("[[reveal]]\n" + _dumps(reveal))
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
