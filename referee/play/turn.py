"""A player's turn as one transaction: play on a fork, then build the new record once.

`take_turn` checks the move (and the seat, when given), plays it and the passes it forces
(R-G3), answers standing conditional moves, checks new ones, and only then builds the whole
new record: every entry in canonical form (SPEC §3), the new plies stamped, [result] once the
game ends, the conditions left standing, every ply sealed and the new ply signed. Nothing is
changed in place: on any error the caller's replay and record are exactly as they were, and
on success it gets a new replay whose record is ready to be written.

Conditional moves: correspondence players save a round trip by sending conditions openly with
their move: "if you play X, I reply Y". When the opponent's next move is one of the X, the
referee plays the matching Y at once; otherwise the conditions are dropped. If the reply is
played and the opponent sent conditions of their own, those are matched against that reply
straight away. The match is on the canonical text of the whole entry (a whole turn in games
with several actions).
"""

from __future__ import annotations

import datetime as dt
from typing import Any, NamedTuple

from referee.record import seal
from referee.errors import IllegalMoveError, RefereeError, UsageError
from referee.games.base import Pass, count
from referee.record.players import seat_problem
from referee.record.values import Entry, Record
from referee.play.words import in_words, result_words, who, who_and_seat
from referee.play.replay import Ending, Replay, bot_fault


class TurnResult(NamedTuple):
    play: Replay  # the game after the turn; its record is the new record
    notes: list[str]  # what the player should be told: passes, conditional replies


def take_turn(
    play: Replay,
    text: str,
    *,
    seat: int | None = None,
    comment: str | None = None,
    at: dt.datetime | None = None,
    conditions: list[tuple[str, str]] | tuple = (),
    key: Any = None,
    leave: tuple[dt.datetime, dt.datetime] | None = None,
    offer_draw: bool = False,
    bot: bool = False,
) -> TurnResult:
    """Play `text` for the seat to move (refused unless it is `seat`, when given) and whatever
    conditional replies it triggers; leave `conditions` standing for the opponent's reply;
    sign the new ply with `key` (a signing.Signer) when given; declare `leave` and offer a draw
    with it (SPEC §6); `bot`: the engine chose `text`, for a seat it plays (SPEC §10). Every
    new ply is stamped `at`: the passes it forces and the conditional replies it triggers carry
    the stamp of the move that made them. Raises a located RefereeError."""
    try:
        return _turn(play, text, seat=seat, comment=comment, at=at, conditions=conditions, key=key,
                     leave=leave, offer_draw=offer_draw, bot=bot)
    except RefereeError as exc:
        # The seats a refusal names, by their players' names (SPEC §8b).
        raise exc.named(lambda reason: in_words(play, reason))


def _turn(play: Replay, text: str, *, seat: int | None, comment: str | None, at: dt.datetime | None,
          conditions: list[tuple[str, str]] | tuple, key: Any,
          leave: tuple[dt.datetime, dt.datetime] | None, offer_draw: bool, bot: bool) -> TurnResult:
    work = play.fork()
    before = play.plies
    mover = work.to_move()
    _play(work, text, at, seat, leave=leave, offer="draw" if offer_draw else None)
    engine = play.record.bots()
    first = work.line[before + 1]
    # SPEC §14: nobody speaks for a bot seat. In a cooperative round the player's entry holds
    # the engine's placements (made by partner_round), and a resignation is the team's.
    ending = isinstance(first.move, Ending)
    if not bot and engine and (not ending if play.game.cooperative else first.mover in engine):
        how = "" if play.game.cooperative or ending else \
            f"; to let it reply: referee move {play.record.path or 'FILE'} (without a move)"
        refusal = IllegalMoveError(f"seat {first.mover} is played by the engine, which makes its own moves{how}")
        refusal.said = f"{who_and_seat(work, first.mover)} is played by the engine, which makes its own moves{how}"
        raise refusal.located(file=play.record.path, ply=before + 1, move=text.strip())
    if engine and conditions:
        raise UsageError("conditional moves wait for a player's reply; the engine replies at once")
    mine = work.entries[before]
    notes = [f"{who(work, ply.mover)} cannot act and passes (R-G3)."
             for ply in work.line[before + 1:] if isinstance(ply.move, Pass)]
    owner = play.line[-1].mover  # who left the standing conditions (None at the start)
    standing = play.record.standing_conditions()
    reply = None
    if standing:
        whose = f"{who(play, owner)}'s"
        then = next((p["then"] for p in standing if _canonical(work, before, p["if"]) == mine), None)
        if then is None:
            notes.append(f"{whose} conditional moves were dropped: none was for {mine}.")
        elif work.to_move() != owner:  # None once the game is over
            notes.append(f"{whose} conditional reply {then} was dropped: it is not their turn.")
        else:
            reply, note = _answer(work, whose, mine, then, at)
            notes.append(note)
    pending: list[dict[str, str]] = []
    if conditions and reply is not None:
        # The opponent's next move is already known: match the new conditions against it now.
        answer = next((t for i, t in conditions if _canonical(work, work.plies - 1, i) == reply), None)
        if answer is None or work.to_move() != mover:
            notes.append(f"Your conditional moves were dropped: {who(play, owner, capital=False)} replied {reply}.")
        else:
            notes.append(_answer(work, "Your", reply, answer, at)[1])
    elif conditions:
        pending = [_check_condition(work, mover, i, t) for i, t in conditions]
        notes.append(f"{count(len(pending), 'conditional move')} left for your opponent's reply "
                     f"({who(work, work.to_move(), capital=False)}).")
    work.record = _new_record(play, work, at=at, comment=comment, pending=pending, leave=leave,
                              offer="draw" if offer_draw else None, bot=bot)
    for ply in range(before + 1, work.plies + 1) if engine else ():
        fault = bot_fault(work, ply)  # a claim against the engine, say, or a reply stamped late
        if fault is not None:
            raise IllegalMoveError(fault).located(file=play.record.path, ply=ply, move=work.entries[ply - 1])
    work.digests = play.digests + seal.extend(
        play.digests[-1] if play.digests else seal.header_digest(play.record),
        before + 1, work.entries[before:], work.record.moves[before:],
    )
    _seal(work, first=before, key=key)
    return TurnResult(work, notes)


def _play(work: Replay, text: str, at: dt.datetime | None, seat: int | None = None, **extra: Any) -> None:
    """Check and play one entry and the passes it forces, on `work`; a refusal is located at
    the record's file, the new ply and the move."""
    ply = work.plies + 1  # the ply being played, named in any refusal
    try:
        if work.outcome() is not None:
            raise IllegalMoveError(f"the game is over ({result_words(work)})")
        problem = seat_problem(seat, work.seats, work.game.name) if seat is not None else None
        if problem:
            raise UsageError(f"--as {seat}: {problem}")
        to_move = work.to_move()
        work.push(text, at=at, **extra)
        # Checked once the entry is read: a time claim is made by the seat not to move. (A
        # refusal here leaves `work` changed, but only the player's own move has a seat, and
        # its refusal ends the whole turn.)
        if seat is not None and seat != work.line[-1].mover:
            refusal = IllegalMoveError(f"seat {seat} is not to move: seat {to_move} is")
            refusal.said = f"{who_and_seat(work, seat)} is not to move: {who(work, to_move)} is"
            raise refusal
    except RefereeError as exc:
        raise exc.located(file=work.record.path, ply=ply, move=text.strip())
    work.push_forced_passes(at)


def _new_record(
    play: Replay, work: Replay, *, at: dt.datetime | None, comment: str | None,
    pending: list[dict[str, str]], leave: tuple[dt.datetime, dt.datetime] | None, offer: str | None,
    bot: bool = False,
) -> Record:
    """The record after the turn: the old plies in canonical form with their stamps, comments,
    conditions and signatures, the new plies stamped `at` (the first with the comment, and the
    conditions it leaves standing: SPEC §9 seals them with it), and [result] once the game is
    over. An older record's top-level [[pending]] has been answered or dropped by this turn.
    Digests are added by `_seal`."""
    old = play.record
    before = play.plies
    entries = [
        Entry(move, entry.at, entry.comment, signature=entry.signature, line=entry.line,
              pending=entry.pending, leave=entry.leave, offer=entry.offer, bot=entry.bot)
        for move, entry in zip(work.entries, old.moves)
    ]
    entries += [Entry(move, at, comment, pending=pending, leave=leave, offer=offer, bot=bot) if ply == before
                else Entry(move, at) for ply, move in enumerate(work.entries[before:], before)]
    outcome = work.outcome()
    result = old.result
    if outcome is not None:
        result = {"winners": list(outcome.winners), "reason": outcome.reason}
    return Record(old.game, old.options, old.players, old.setup, entries, result=result,
                  path=old.path, id=old.id, clock=old.clock)


def _seal(work: Replay, *, first: int, key: Any) -> None:
    """Write every ply's digest into the new record (the referee seals whatever it writes) and
    sign the new plies that need a signature (SPEC §9: every ply of a seat with a key, bar
    forced passes and replies from its own sealed conditional moves) with `key`, which must be
    their seat's. A ply that needs another seat's signature is refused: nobody moves for you."""
    record = work.record
    for entry, digest in zip(record.moves, work.digests):
        entry.digest = digest
    keys = record.keys()
    if key is not None:
        seat = work.line[first + 1].mover
        if seat not in keys:
            raise UsageError(
                f"seat {seat} has no key in [players]: add  {seat} = {{ name = \"…\", key = "
                f"\"{key.public}\" }}  first"
            )
        if keys[seat] != key.public:
            raise UsageError(f"that key is not seat {seat}'s key in [players]")
    if not keys:
        return
    for ply in seal.needs_signature(record, work.movers, work.written_for()):
        if ply <= first:
            continue  # an earlier ply: its signature came with it (and the replay checked it)
        seat = work.line[ply].mover
        if key is None or keys[seat] != key.public:
            raise UsageError(
                f"seat {seat} signs every move (with the key in [players]): ply {ply} "
                f"({work.entries[ply - 1]}) needs --sign with seat {seat}'s key"
            )
        entry = record.moves[ply - 1]
        entry.signature = key.sign(entry.digest)


def _answer(work: Replay, whose: str, condition: str, then: str,
            at: dt.datetime | None) -> tuple[str | None, str]:
    """Play `then`, the conditional reply `whose` left for `condition`: the reply as played (or
    None when it cannot be, the position having changed in a way its sender could not foresee),
    and the note that says so."""
    start = work.plies
    try:
        _play(work, then, at)
    except RefereeError as exc:
        return None, f"{whose} conditional reply {then} was dropped: {in_words(work, exc.reason)}."
    reply = work.entries[start]
    return reply, f"{whose} conditional reply was played: if {condition} then {reply}."


def _canonical(work: Replay, ply: int, text: str) -> str | None:
    """`text` in canonical form as a move in the position after `ply`, or None if unreadable."""
    try:
        return str(work.game.parse(work.position(ply), text))
    except RefereeError:
        return None


def _check_condition(work: Replay, mover: int, if_text: str, then_text: str) -> dict[str, str]:
    """Check "if the opponent plays if_text, I reply then_text" on a copy of the game."""
    trial = work.fork()
    if trial.to_move() in (None, mover):  # None: the game is over
        raise IllegalMoveError("conditional moves need the opponent to move next")
    try:
        first = trial.push(if_text)
        trial.push_forced_passes()
    except RefereeError as exc:
        raise IllegalMoveError(f"--if {if_text.strip()}: {exc.reason}") from None
    if trial.to_move() != mover:  # None once the game is over
        raise IllegalMoveError(f"--if {first}: after it, it is not your turn, so --then cannot follow")
    try:
        second = trial.push(then_text)
    except RefereeError as exc:
        raise IllegalMoveError(f"--then {then_text.strip()}: {exc.reason}") from None
    return {"if": str(first), "then": str(second)}
