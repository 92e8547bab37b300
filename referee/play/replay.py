"""The one replay pass that `validate`, `move`, `show`, `status` and `moves` all share.

It walks the record ply by ply through the game's hooks, keeps every position (so `show --ply`
is free), handles what is common to all games (resignation, the automatic passes, the end of the
game, the `[result]` check), and what is common to the two-seat games played by mail: the clock,
time claims and draw offers (SPEC §6). It locates every error at its file, line, ply and move.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, NamedTuple

from referee.record import seal
from referee.record.clock import Clock, ClockError, now as clock_now, stamp, words
from referee.data import builtin_data
from referee.errors import IllegalMoveError, NotationError, RecordError, RefereeError
from referee.games import GAMES, Game, Move, Outcome, Pass
from referee.record.players import named, names_of, seat_problem, short_name
from referee.record.values import MAX_MOVE_CHARS, Entry, Record, branch, plain_tree, toml_datetime

RESIGN = "resign"
CLAIM = "claim time"
ACCEPT = "accept draw"
DRAW = "draw"
FUTURE_SLACK = dt.timedelta(hours=1)  # SPEC §9: how far a stamp may run ahead of the reader's clock


@dataclass(frozen=True)
class Ending(Move):
    """An entry every game knows beside its own moves, which ends the game by the players' word
    or by the clock rather than on the board: `resign` (R-G2), and in two-seat games `claim
    time` and `accept draw` (SPEC §6). `seat` made it: for a claim, the seat not to move."""

    word: str  # RESIGN, CLAIM or ACCEPT
    seat: int

    def __str__(self) -> str:
        return self.word


class Standing(NamedTuple):
    """What stands between the players after a ply, besides the position: the clock (None in
    a game without one) and the seat whose draw offer awaits an answer."""

    clock: Clock | None = None
    offer: int | None = None


class Ply(NamedTuple):
    """The game after one ply: the move and the seat that made it (None for both at the start,
    before ply 1), the position it left, and what stands between the players then. A value:
    a fork shares it."""

    move: Move | None
    mover: int | None
    position: Any
    standing: Standing


class Replay:
    """A record replayed so far: `line[k]` is the game after k plies (`line[0]` the start), and
    `ended` how the game ended when the players or the clock ended it."""

    def __init__(self, record: Record, game: Game, options: dict[str, Any], line: list[Ply],
                 ended: tuple[int, Outcome] | None = None, digests: list[str] | None = None):
        self.record, self.game, self.options = record, game, options
        self.line = line
        self.ended = ended  # (ply, outcome) of a resignation, a time claim or an agreed draw
        # The seal of each ply of `record` (record/seal.py), as `replay` checked it or the turn that
        # wrote the record made it; None until asked for (`digests`). Plies tried on a fork
        # have none.
        self._digests = digests

    @property
    def digests(self) -> list[str]:
        if self._digests is None:
            # A record that stores no digest has nothing to check against its chain, so the
            # chain is worked out only when asked for (a turn, verify): `validate` of a
            # hand-typed record never needs it. (Of the plies replayed so far.)
            self._digests = seal.chain(self.record, self.entries[: len(self.record.moves)])
        return self._digests

    @digests.setter
    def digests(self, digests: list[str] | None) -> None:
        self._digests = digests

    @property
    def plies(self) -> int:
        return len(self.line) - 1

    @property
    def entries(self) -> list[str]:
        """The plies played so far, in canonical notation."""
        return [str(ply.move) for ply in self.line[1:]]

    @property
    def movers(self) -> list[int]:
        """The seat that made each ply, ply 1 first."""
        return [ply.mover for ply in self.line[1:]]

    def position(self, ply: int | None = None) -> Any:
        """The position after `ply` plies (default: all of them; 0: the start)."""
        return self.line[-1 if ply is None else ply].position

    @property
    def state(self) -> Any:
        return self.line[-1].position

    @property
    def clock(self) -> Clock | None:
        return self.line[-1].standing.clock

    def ended_by(self, word: str) -> bool:
        """Whether the game ended by `word`: RESIGN, CLAIM or ACCEPT."""
        return self.ended is not None and self.line[self.ended[0]].move.word == word

    def outcome(self, ply: int | None = None) -> Outcome | None:
        ply = self.plies if ply is None else ply
        if self.ended and ply >= self.ended[0]:
            return self.ended[1]
        return self.game.outcome(self.line[ply].position)

    def to_move(self, ply: int | None = None) -> int | None:
        ply = self.plies if ply is None else ply
        if self.outcome(ply) is not None:
            return None
        return self.game.to_move(self.line[ply].position)

    @property
    def seats(self) -> range:
        return range(1, self.game.seat_count(self.options) + 1)

    def forced_pass(self, ply: int) -> bool:
        """Whether ply `ply` is a pass the rules forced (R-G3), not one its seat chose."""
        return isinstance(self.line[ply].move, Pass) and self.game.must_pass(self.line[ply - 1].position)

    def forced_passes(self) -> list[bool]:
        return [self.forced_pass(ply) for ply in range(1, self.plies + 1)]

    def written_for(self) -> list[int]:
        """The plies the other side's referee wrote for their seat (seal.written_for)."""
        return seal.written_for(self.record, self.entries, self.movers, self.forced_passes())

    def last_move(self, ply: int | None = None) -> Move | None:
        """The move that made ply `ply` (default: the last); None at the start."""
        return self.line[-1 if ply is None else ply].move

    def fork(self) -> "Replay":
        """A copy to try moves on; plies are values, so only the list is copied."""
        return Replay(self.record, self.game, self.options, list(self.line), self.ended, list(self.digests))

    def push(self, text: str, *, at: dt.datetime | None = None,
             leave: tuple[dt.datetime, dt.datetime] | None = None, offer: str | None = None) -> Move:
        """Check and play one entry, stamped `at`, declaring `leave` and offering a draw when
        `offer` is "draw"; on any error the replay is left exactly as it was. Without `at`, the
        clock stands still (a move tried on a fork)."""
        last = self.line[-1]
        state, standing = last.position, last.standing
        word = " ".join(text.lower().split()) if len(text) <= MAX_MOVE_CHARS else ""
        ended = None
        if word in (RESIGN, CLAIM, ACCEPT):
            self._refuse_after_the_end()
            move, ended = self._ending(word, state, standing, at)
            mover, after = move.seat, state
        else:
            # The rules judge the move before the game is asked whether it is over: a legal
            # move shows that its seat can act, which is what a game such as Harmijan would
            # otherwise search the position for (R-HJ5). A move after the end is refused as
            # such either way.
            try:
                if len(text) > MAX_MOVE_CHARS:
                    # A record cannot hold such a move (record/reading.py); a command line must not either.
                    raise NotationError(f"a move of {len(text)} characters: at most {MAX_MOVE_CHARS}")
                move = self.game.parse(state, text)
                after = self.game.apply(state, move)
            except RefereeError:
                self._refuse_after_the_end()  # over before this move: that refusal comes first
                raise
            self._refuse_after_the_end()
            mover = self.game.mover(state, move)
        if offer is not None and (offer != DRAW or ended is not None or len(self.seats) != 2):
            raise IllegalMoveError("a draw can be offered with a move of a two-seat game that goes on")
        clock = standing.clock
        if leave is not None and clock is None:
            raise IllegalMoveError("this game has no clock: there is no leave to take")
        if clock is not None and at is not None:
            # A claim charges the seat that ran out its time up to the claim; it is nobody's move.
            claim = word == CLAIM
            seat = self.game.to_move(state) if claim else mover
            own = not (claim or isinstance(move, Pass) and self.game.must_pass(state))
            try:
                clock = clock.after(seat, at, own=own, leave=leave)
            except ClockError as exc:
                raise IllegalMoveError(str(exc)) from None
        offered = mover if offer == DRAW else None
        if clock is not standing.clock or offered != standing.offer:
            standing = Standing(clock, offered)
        # An unchanged standing (most plies of a game without a clock) is shared.
        self.line.append(Ply(move, mover, after, standing))
        if ended is not None:
            self.ended = (self.plies, ended)
        return move

    def _refuse_after_the_end(self) -> None:
        # self.outcome() for the position now, without its look-up of the ply (once a ply)
        if self.ended is not None or self.game.outcome(self.line[-1].position) is not None:
            raise IllegalMoveError("the game is already over")

    def _ending(self, word: str, state: Any, standing: Standing,
                at: dt.datetime | None) -> tuple[Move, Outcome]:
        """A resignation, a time claim or the acceptance of a draw offer, and how it ends the
        game; raises IllegalMoveError when it may not be made now."""
        to_move = self.game.to_move(state)
        others = tuple(s for s in self.seats if s != to_move)
        if word == RESIGN:
            # R-G2: only the seat to move may resign; everybody else wins.
            if self.game.cooperative:
                return Ending(RESIGN, to_move), Outcome((), f"seat {to_move} resigned",
                                                        summary=f"Lost: seat {to_move} resigned")
            return Ending(RESIGN, to_move), Outcome(others, f"seat {to_move} resigned")
        if len(self.seats) != 2 or self.game.cooperative:
            raise IllegalMoveError(f"{word}: only in a game of two seats")
        if word == ACCEPT:
            # SPEC §6: only as the very next entry after the offer, by the seat then to move.
            if standing.offer is None or standing.offer == to_move:
                raise IllegalMoveError("accept draw: no draw offer stands (an offer is answered "
                                       "by the very next move)")
            return Ending(ACCEPT, to_move), Outcome((), "draw agreed")
        # SPEC §6: claim time, by the seat not to move, at the claim's own time stamp.
        claimant = others[0]
        if standing.clock is None:
            raise IllegalMoveError("claim time: this game has no clock")
        if at is None:
            raise IllegalMoveError("claim time: the claim needs its time stamp")
        left = standing.clock.left(to_move, at, to_move=True)
        if left > 0:
            raise IllegalMoveError(
                f"claim time: seat {to_move} still has {words(left)} left, until "
                f"{stamp(standing.clock.deadline(to_move))}"
            )
        return Ending(CLAIM, claimant), Outcome((claimant,), f"seat {to_move} ran out of time")

    def push_forced_passes(self, at: dt.datetime | None = None) -> list[Move]:
        """The passes the referee writes for seats that cannot act (R-G3, SPEC §4), stamped
        like the move before them (SPEC §6: they cost nothing)."""
        passes = []
        while self.outcome() is None and self.game.must_pass(self.state):
            passes.append(self.push("pass", at=at))
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
        problem = seat_problem(seat, range(1, seats + 1), game.name)
        if problem:
            raise RecordError(f"[players] names a seat the game lacks: {problem}", **where)
    setup = dict(record.setup)
    try:
        for name, kind in game.data_options.items():
            if name not in setup:
                # SPEC §3: without [setup] content, the built-in file the option names is used.
                content = builtin_data(kind, options[name])
                if content is None:
                    value = options[name] if len(options[name]) <= 40 else options[name][:39] + "…"
                    raise ValueError(
                        f"option {name} = {value!r} names no built-in {kind.split('-')[-1]}, "
                        f"and the record's [setup] holds no {name} of its own"
                    )
                setup[name] = game.setup_from_file(name, content)
        state = game.start(options, setup)
    except ValueError as exc:
        raise RecordError(str(exc), **where) from None
    if record.bots() and all(seat in record.bots() for seat in range(1, seats + 1)):
        # SPEC §14: engines play each other in `referee match`; a record is a player's game.
        which = "every seat" if seats > 1 else "the only seat"
        raise RecordError(f"[players]: {which} is the engine's, but a game needs a player", **where)
    clock = None
    if record.clock is not None:
        if seats != 2 or game.cooperative:
            raise RecordError(f"[clock]: clocks are for games of two seats, not {game.name}", **where)
        clock = Clock.from_table(record.clock)
    return Replay(record, game, options, [Ply(None, None, state, Standing(clock))])


def replay(record: Record, now: dt.datetime | None = None) -> Replay:
    """Replay every entry of the record and check its [result]; raises a located RefereeError.
    `now` is the reader's now (default: clock.now()), which no stamp of a game with a clock
    may pass by more than an hour (SPEC §9)."""
    play = start(record)
    latest = None
    if record.clock is not None:
        latest = (now or clock_now()) + FUTURE_SLACK
    sealed = any(entry.digest is not None for entry in record.moves)
    try:
        for number, entry in enumerate(record.moves, 1):
            try:
                _push_entry(play, entry, number, record.path, latest)
            except RefereeError:
                if sealed:
                    # A sealed record changed at an earlier ply is refused at that ply (bad
                    # digest), not at the later move the change made illegal.
                    seal.check(record, play.entries)
                raise
        _check_result(play)
        play.digests = seal.check(record, play.entries) if sealed else None
        written = play.written_for()
        _check_written_plies(play, written)
        _check_signed_seats(play, written)
        if record.bots():
            _check_bot_plies(play)
    except RefereeError as exc:
        # The seats the reason names, by their players' names where a player reads it (SPEC
        # §8b); `validate --json` keeps the seat numbers.
        names = names_of(record.players)
        raise exc.named(lambda reason: named(reason, names))
    return play


def _check_written_plies(play: Replay, written: list[int]) -> None:
    """SPEC §9: a ply the other side's referee wrote for a seat (a forced pass, a reply from the
    seat's own sealed conditional moves) carries the move and the stamp of the ply that caused
    it, nothing more, unless the seat signed it: the writer may not offer a draw, take leave,
    comment, set conditions or spend time in that seat's name."""
    record = play.record
    keys = record.keys()
    for ply in written:
        entry, seat = record.moves[ply - 1], play.line[ply].mover
        if seat in keys and entry.signature is not None:
            continue  # the seat's own word (its signature is checked with the others)
        extras = [said for said in entry.declarations() if said != "conditional moves"]
        if not play.forced_pass(ply):
            # SPEC §12: a reply carries the rest of its line, exactly as its seat sealed it.
            rest = branch(record.moves[ply - 3].pending, play.entries[ply - 2], play.entries[ply - 1])
            if plain_tree(entry.pending) != plain_tree(rest.get("next") or []):
                extras.append(f"conditional moves other than the rest of the line seat {seat} set in ply {ply - 2}")
        elif entry.pending:
            extras.append("conditional moves")
        cause = record.moves[ply - 2].at if ply >= 2 else None
        if entry.at is not None and ply >= 2 and entry.at != cause:
            before = cause.isoformat() if cause is not None else "none"
            extras.append(f"a time stamp of its own ({entry.at.isoformat()}; ply {ply - 1}, "
                          f"which caused it, has {before})")
        if extras:
            what = "a pass the rules forced" if play.forced_pass(ply) else "a reply from the seat's own conditional moves"
            raise RecordError(
                f"{what}, written for seat {seat} by the other side, carries {' and '.join(extras)}: "
                f"only seat {seat} may add that, by signing the ply",
                file=record.path, line=entry.line, ply=ply, move=entry.move,
            )


def engine_chose(play: Replay, ply: int) -> bool:
    """Whether the engine chose ply `ply` (SPEC §10): a move of a seat it plays, or in a
    cooperative round, a round it placed for one of the seats; never a pass the rules forced
    nor a resignation, claim or acceptance."""
    bots = play.record.bots()
    step = play.line[ply]
    if not bots or isinstance(step.move, Ending) or play.forced_pass(ply):
        return False
    return play.game.cooperative or step.mover in bots


_ENDING_WORDS = {RESIGN: "a resignation", CLAIM: "a time claim", ACCEPT: "an acceptance of a draw"}


def bot_fault(play: Replay, ply: int) -> str | None:
    """Why ply `ply` of a game with bot seats cannot stand, None when it can (SPEC §10, §14).

    Nobody speaks for a bot seat: its plies are the engine's replies, written in the same
    transaction as the ply each answers, so each carries `bot = true`, the stamp of that ply
    and nothing else, and is a move the rules allow. The engine never resigns, offers or
    accepts a draw, claims time or takes leave; and as it replies at once, no time claim runs
    against it. A pass the rules forced in its seat is the referee's, as in any seat (R-G3).
    In a cooperative round the player's ply holds the engine's placements (no clock there);
    a resignation there is the team's."""
    bots = play.record.bots()
    entry, step = play.record.moves[ply - 1], play.line[ply]
    if isinstance(step.move, Ending) and not play.game.cooperative:
        before = play.game.to_move(play.line[ply - 1].position)
        if step.move.word == CLAIM and before in bots:
            return (f"a time claim against seat {before}, played by the engine: the engine replies "
                    "in the same transaction as the move it answers, so it never runs out of time")
        if step.mover in bots:
            return (f"{_ENDING_WORDS[step.move.word]} in the name of seat {step.mover}, played by the "
                    "engine: the engine makes moves only, and nobody speaks for its seat")
    chose = engine_chose(play, ply)
    if chose and not entry.bot:
        return f"seat {step.mover} is played by the engine, but this move is not marked as the engine's (bot = true)"
    if entry.bot and not chose:
        return "marked as the engine's (bot = true), but the engine plays no seat that made it"
    extras = entry.declarations() if chose else []
    if extras:
        return f"a move the engine chose carries {' and '.join(extras)}: nobody speaks for the engine's seat"
    if chose and not play.game.cooperative and (ply >= 2 or play.record.clock is not None):
        answered = play.record.moves[ply - 2].at if ply >= 2 else play.record.clock["start"]
        if entry.at != answered:
            what = f"ply {ply - 1}, which it answers," if ply >= 2 else "the clock's start"
            return (f"the engine's reply is stamped {_when(entry.at)}, but {what} is stamped "
                    f"{_when(answered)}: the engine replies in the same transaction, at once")
    return None


def _when(at: dt.datetime | None) -> str:
    return toml_datetime(at) if at is not None else "without a time"


def _check_bot_plies(play: Replay) -> None:
    """SPEC §14: every ply of a game with bot seats as `bot_fault` allows it."""
    record = play.record
    for ply, entry in enumerate(record.moves, 1):
        fault = bot_fault(play, ply)
        if fault is not None:
            raise RecordError(fault, file=record.path, line=entry.line, ply=ply, move=entry.move)


def _check_signed_seats(play: Replay, written: list[int]) -> None:
    """SPEC §9: a ply of a seat with a key carries a signature (whether it is that seat's is
    checked where the signing library is: keys.check_signatures)."""
    record = play.record
    keys = record.keys()
    for ply, entry in enumerate(record.moves, 1):
        if entry.note is not None and play.line[ply].mover not in keys:  # SPEC §12
            raise RecordError(f"a sealed note, but seat {play.line[ply].mover} has no key in [players] "
                              "to seal it with", file=record.path, line=entry.line, ply=ply, move=entry.move)
    if not keys:
        return
    for ply in seal.needs_signature(record, play.movers, written):
        entry = record.moves[ply - 1]
        if entry.signature is None:
            seat = play.line[ply].mover
            raise RecordError(
                f"unsigned, but seat {seat} signs every move (with the key in [players])",
                file=record.path, line=entry.line, ply=ply, move=entry.move,
            )


def _push_entry(play: Replay, entry: Entry, number: int, path: str | None,
                latest: dt.datetime | None = None) -> None:
    try:
        if play.clock is not None and entry.at is None:
            raise RecordError("with a clock, every ply needs its time stamp (at = …)")
        if latest is not None and entry.at.tzinfo is not None and entry.at > latest:
            # A claim or a move "made" in the future would charge the other seat time that
            # has not passed yet.
            raise RecordError(f"stamped {stamp(entry.at)}, later than now ({stamp(latest - FUTURE_SLACK)}) "
                              "by more than an hour: a time stamp from the future")
        play.push(entry.move, at=entry.at, leave=entry.leave, offer=entry.offer)
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


def who(play: Replay, seat: int, capital: bool = True) -> str:
    """A seat in a sentence: its player's name where the record has one, else "Seat N"."""
    return short_name(play.record.player_name(seat)) or f"{'Seat' if capital else 'seat'} {seat}"


def who_and_seat(play: Replay, seat: int) -> str:
    """A seat where its number matters too (an error, a refusal): "Ann (seat 1)", or "seat 1"
    when the record gives no name."""
    name = short_name(play.record.player_name(seat))
    return f"{name} (seat {seat})" if name else f"seat {seat}"
