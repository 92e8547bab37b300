"""A player's turn as `referee move` takes it, with conditional moves (SPEC §3 [[pending]]).

Correspondence players save a round trip by sending conditions openly with their move: "if you
play X, I reply Y". They are stored as [[pending]] entries. When the opponent's next move is one
of the X, the referee plays the matching Y at once; otherwise the conditions are dropped. If the
reply is played and the opponent sent conditions of their own, those are matched against that
reply straight away. Every move is checked as usual; the match is on the canonical text of the
whole entry (a whole turn in games with several actions).
"""

from __future__ import annotations

import copy
import datetime as dt

from referee.errors import IllegalMoveError, RefereeError
from referee.replay import Replay, play_move


def take_turn(
    play: Replay,
    text: str,
    *,
    seat: int | None = None,
    comment: str | None = None,
    at: dt.datetime | None = None,
    conditions: list[tuple[str, str]] = (),
) -> list[str]:
    """Play `text` and whatever conditional replies it triggers; store the new conditions.
    Returns notes for the player. On any error nothing in `play` or its record has changed."""
    work = play.fork()
    work.record = copy.deepcopy(play.record)  # the record is only adopted once all is checked
    before = work.plies
    notes = _take_turn(work, text, seat, comment, at, conditions)
    passes = [
        f"Seat {seat} cannot act and passes (R-G3)."
        for seat, entry in zip(work.movers[before:], work.entries[before:])
        if entry == "pass"
    ]
    play.record, play.states, play.played = work.record, work.states, work.played
    play.movers, play.resigned = work.movers, work.resigned
    return passes + notes


def _take_turn(work, text, seat, comment, at, conditions) -> list[str]:
    record = work.record
    waiting = list(record.pending)
    owner = work.movers[-1] if work.movers else None  # who left the conditions
    before = work.plies
    mover = work.to_move()
    play_move(work, text, seat=seat, comment=comment, at=at)
    mine = work.entries[before]
    record.pending = []
    notes = []
    reply = None
    if waiting:
        then = next((p["then"] for p in waiting if _canonical(work, before, p["if"]) == mine), None)
        if then is None:
            notes.append(f"Seat {owner}'s conditional moves were dropped: none was for {mine}.")
        elif work.to_move() != owner:  # None once the game is over
            notes.append(f"Seat {owner}'s conditional reply {then} was dropped: it is not their turn.")
        else:
            reply, note = _answer(work, f"Seat {owner}'s", mine, then, at)
            notes.append(note)
    if conditions and reply is not None:
        # The opponent's next move is already known: match the new conditions against it now.
        answer = next((t for i, t in conditions if _canonical(work, work.plies - 1, i) == reply), None)
        if answer is None or work.to_move() != mover:
            notes.append(f"Your conditional moves were dropped: seat {owner} replied {reply}.")
        else:
            notes.append(_answer(work, "Your", reply, answer, at)[1])
    elif conditions:
        record.pending = [_check_condition(work, mover, i, t) for i, t in conditions]
        notes.append(f"{len(record.pending)} conditional move(s) left for seat {work.to_move()}'s reply.")
    return notes


def _answer(
    work: Replay, whose: str, condition: str, then: str, at: dt.datetime | None
) -> tuple[str | None, str]:
    """Play `then`, the conditional reply `whose` left for `condition`: the reply as played (or
    None when it cannot be, the position having changed in a way its sender could not foresee),
    and the note that says so."""
    start = work.plies
    try:
        play_move(work, then, at=at)
    except RefereeError as exc:
        return None, f"{whose} conditional reply {then} was dropped: {exc.reason}."
    reply = work.entries[start]
    return reply, f"{whose} conditional reply was played: if {condition} then {reply}."


def _canonical(work: Replay, ply: int, text: str) -> str | None:
    """`text` in canonical form as a move in the position after `ply`, or None if unreadable."""
    try:
        return str(work.game.parse(work.states[ply], text))
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
