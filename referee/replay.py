"""The one replay pass that `validate`, `move`, `show`, `status` and `moves` all share.

It walks the record ply by ply through the game's hooks, keeps every position (so `show --ply`
is free), handles what is common to all games (resignation, the automatic passes, the end of the
game, the `[result]` check) and locates every error at its file, line, ply and move.
"""

from __future__ import annotations

from typing import Any

from referee.errors import IllegalMoveError, NotationError, RecordError, RefereeError
from referee.games import GAMES, Game, Move, Outcome
from referee.data import builtin_data
from referee import seal
from referee.record import MAX_MOVE_CHARS, Entry, Record

RESIGN = "resign"


class Resign(Move):
    __slots__ = ("seat",)

    def __init__(self, seat: int):
        self.seat = seat

    def __str__(self) -> str:
        return RESIGN


class Replay:
    """A record replayed so far: the position after every ply, and who made each ply."""

    def __init__(self, record: Record, game: Game, options: dict[str, Any], states: list[Any],
                 played: list[Move] | None = None, movers: list[int] | None = None,
                 resigned: tuple[int, int] | None = None, digests: list[str] | None = None):
        self.record, self.game, self.options = record, game, options
        self.states = states  # states[k] is the position after k plies
        self.played = [] if played is None else played  # played[k-1] made ply k
        self.movers = [] if movers is None else movers  # movers[k-1] is the seat that made ply k
        self.resigned = resigned  # (ply, seat)
        # The seal of each ply of `record` (seal.py), as `replay` checked it or the turn that
        # wrote the record made it. Plies tried on a fork have none.
        self.digests = [] if digests is None else digests

    @property
    def plies(self) -> int:
        return len(self.played)

    @property
    def entries(self) -> list[str]:
        """The plies played so far, in canonical notation."""
        return [str(move) for move in self.played]

    @property
    def state(self) -> Any:
        return self.states[-1]

    def outcome(self, ply: int | None = None) -> Outcome | None:
        ply = self.plies if ply is None else ply
        if self.resigned and ply >= self.resigned[0]:
            seat = self.resigned[1]
            if self.game.cooperative:
                return Outcome((), f"seat {seat} resigned", summary=f"Lost: seat {seat} resigned")
            others = tuple(s for s in self.seats if s != seat)
            return Outcome(others, f"seat {seat} resigned")
        return self.game.outcome(self.states[ply])

    def result_sentence(self, ply: int | None = None) -> str:
        """`status`'s result: "Seat 1 to move", "Seat 2 wins: …", "Draw: …"."""
        outcome = self.outcome(ply)
        if outcome is None:
            return f"Seat {self.to_move(ply)} to move"
        if outcome.summary:
            return outcome.summary
        if not outcome.winners:
            return f"Draw: {outcome.reason}"
        if len(outcome.winners) == 1:
            return f"Seat {outcome.winners[0]} wins: {outcome.reason}"
        seats = ", ".join(str(s) for s in outcome.winners)
        return f"Seats {seats} win: {outcome.reason}"

    def to_move(self, ply: int | None = None) -> int | None:
        ply = self.plies if ply is None else ply
        if self.outcome(ply) is not None:
            return None
        return self.game.to_move(self.states[ply])

    @property
    def seats(self) -> range:
        return range(1, self.game.seat_count(self.options) + 1)

    def forced_pass(self, ply: int) -> bool:
        """Whether ply `ply` is a pass the rules forced (R-G3), not one its seat chose."""
        return str(self.played[ply - 1]) == "pass" and self.game.must_pass(self.states[ply - 1])

    def forced_passes(self) -> list[bool]:
        return [self.forced_pass(ply) for ply in range(1, self.plies + 1)]

    def last_move(self, ply: int | None = None) -> Move | None:
        ply = self.plies if ply is None else ply
        return self.played[ply - 1] if ply else None

    def fork(self) -> "Replay":
        """A copy to try moves on; positions are values, so only the lists are copied."""
        return Replay(self.record, self.game, self.options, list(self.states), list(self.played),
                      list(self.movers), self.resigned, list(self.digests))

    def push(self, text: str) -> Move:
        """Check and play one entry; on any error the replay is left exactly as it was."""
        state = self.state
        if self.outcome() is not None:
            raise IllegalMoveError("the game is already over")
        if len(text) > MAX_MOVE_CHARS:
            # A record cannot hold such a move (record.py); a command line must not either.
            raise NotationError(f"a move of {len(text)} characters: at most {MAX_MOVE_CHARS}")
        if text.strip().lower() == RESIGN:
            # R-G2: only the seat to move may resign; everybody else wins.
            move: Move = Resign(self.game.to_move(state))
            mover = move.seat
            self.resigned = (self.plies + 1, move.seat)
            self.states.append(state)
        else:
            move = self.game.parse(state, text)
            mover = self.game.mover(state, move)
            self.states.append(self.game.apply(state, move))
        self.played.append(move)
        self.movers.append(mover)
        return move

    def push_forced_passes(self) -> list[Move]:
        """The passes the referee writes for seats that cannot act (R-G3, SPEC §4)."""
        passes = []
        while self.outcome() is None and self.game.must_pass(self.state):
            passes.append(self.push("pass"))
        return passes


def start(record: Record) -> Replay:
    """The replay of an empty game for this record's game, options and setup."""
    game = GAMES.get(record.game.lower())
    where = {"file": record.path}
    if game is None:
        raise RecordError(f"unknown game {record.game!r} (known: {', '.join(GAMES)})", **where)
    try:
        options = game.resolve_options(record.options)
    except ValueError as exc:
        raise RecordError(str(exc), **where) from None
    unknown = [key for key in record.setup if key not in game.setup_keys]
    if unknown:
        allowed = ", ".join(game.setup_keys) or f"none for {game.name}"
        raise RecordError(f"unknown key {unknown[0]!r} in [setup] (allowed: {allowed})", **where)
    seats = game.seat_count(options)
    for seat in record.players:
        if not 1 <= seat <= seats:
            raise RecordError(f"[players] names seat {seat}, but {game.name} has seats 1–{seats}", **where)
    setup = dict(record.setup)
    try:
        for name, kind in game.data_options.items():
            if name not in setup:
                # SPEC §3: without [setup] content, the built-in file the option names is used.
                content = builtin_data(kind, options[name])
                if content is None:
                    raise ValueError(
                        f"option {name} = {options[name]!r} names no built-in {kind.split('-')[-1]}, "
                        f"and the record's [setup] holds no {name} of its own"
                    )
                setup[name] = game.setup_from_file(name, content)
        state = game.start(options, setup)
    except ValueError as exc:
        raise RecordError(str(exc), **where) from None
    return Replay(record, game, options, [state])


def replay(record: Record) -> Replay:
    """Replay every entry of the record and check its [result]; raises a located RefereeError."""
    play = start(record)
    for number, entry in enumerate(record.moves, 1):
        _push_entry(play, entry, number, record.path)
    _check_result(play)
    play.digests = seal.check(record, play.entries)
    _check_signed_seats(play)
    return play


def _check_signed_seats(play: Replay) -> None:
    """SPEC §9: a ply of a seat with a key carries a signature (whether it is that seat's is
    checked where the signing library is: session.check_signatures)."""
    record = play.record
    if not record.keys():
        return
    for ply in seal.needs_signature(record, play.entries, play.movers, play.forced_passes()):
        entry = record.moves[ply - 1]
        if entry.signature is None:
            seat = play.movers[ply - 1]
            raise RecordError(
                f"unsigned, but seat {seat} signs its moves (its key is in [players])",
                file=record.path, line=entry.line, ply=ply, move=entry.move,
            )


def _push_entry(play: Replay, entry: Entry, number: int, path: str | None) -> None:
    try:
        play.push(entry.move)
    except RefereeError as exc:
        raise exc.located(file=path, line=entry.line, ply=number, move=entry.move.strip())


def _check_result(play: Replay) -> None:
    record = play.record
    if record.result is None:
        return  # a finished record without [result] is valid (SPEC §3)
    outcome = play.outcome()
    where = {"file": record.path, "line": record.result_line}
    if outcome is None:
        raise RecordError("[result] is written but the game is not over", **where)
    recorded = sorted(record.result["winners"])
    if recorded != sorted(outcome.winners):
        raise RecordError(
            f"[result] gives winners {recorded} but the moves give {sorted(outcome.winners)} "
            f"({outcome.reason})",
            **where,
        )
