"""Receiving a mailed record (SPEC §9, §14): the record taken out of the mail, checked against my
own copy so that nobody alters the past or moves in my name, and saved. A received record never
makes my machine think: the engine is never run here.

Loading this module loads the email package; the command line imports it only in `receive`.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import NamedTuple

from referee.record import seal
from referee.play.choices import seat_named
from referee.record.clock import now, stamp
from referee.errors import RecordError, RefereeError, UsageError
from referee.record.files import check_output, locked, read_input, write_atomic
from referee.play.keys import check_signatures
from referee.correspondence.mail import record_from_message
from referee.record.players import seats_at
from referee.record.reading import parse_record
from referee.play.words import in_words, who_and_seat
from referee.play.replay import CLAIM, Replay, replay
from referee.play.reports import load

# SPEC §9: how long before the game reached a receiver its clock may have started, unasked.
START_SLACK = 86_400.0


class Received(NamedTuple):
    play: Replay
    saved_to: str | None  # None when nothing was saved: my copy is ahead
    first: bool  # the first mail of a game: no copy of ours to compare yet
    mine: int | None = None  # the plies of my copy, when it was compared
    warnings: list[str] = []  # stamps that do not fit when the mail was sent
    notes: list[str] = []  # what stands: the engine's seat to move, say


def receive(message_file: str, output: str | None, mine: str | None, force: bool,
            seat: str | None = None, accept_start: bool = False) -> Received:
    """`referee receive`: take the record out of a message, check it, and, with `mine`, check
    that it extends my copy and that nobody moved for me (SPEC §9: my seat from `seat`, else
    from the mail's To; a clock that ran before the game reached me only with `accept_start`);
    then save it as it came, under the lock of the file written. An older mail, whose record my
    copy already extends, changes nothing.

    A received record never makes this machine think (SPEC §14): the engine is never run here.
    A record that makes my seat the engine's, or adds or changes a bot seat against my copy, is
    refused; one that leaves the engine's seat to move is saved as it is, and the note says that
    `referee move FILE` without a move lets the engine reply (play/bots.py)."""
    target = output or mine
    if target is None:
        raise UsageError("say where to save the record: -o FILE, or --mine MY_COPY")
    if mine is None and (seat is not None or accept_start):
        raise UsageError("--as and --accept-start say whose copy --mine is: give --mine MY_COPY too")
    if output and output != mine:
        check_output(output, force)
    attached = record_from_message(read_input(message_file, "message"), message_file)
    name = attached.name
    label = message_file if name == Path(message_file).name else f"{message_file} ({name})"
    theirs = replay(parse_record(attached.record, label))
    check_signatures(theirs)
    if mine is None:
        addressed = seats_at(theirs.record.players, attached.to)
        _check_not_the_engine(theirs, addressed[0] if len(addressed) == 1 else None, message_file)
        with locked(target):  # written as one with any move on it: no move made meanwhile is lost
            write_atomic(target, attached.record)
        return Received(theirs, target, False, warnings=_odd_stamps(theirs, 0, attached.sent),
                        notes=_engine_to_move(theirs, target))
    with locked(target):
        first = not Path(mine).exists()
        my_copy = None if first else load(mine)
        if my_copy is not None:
            _check_same_bots(my_copy, theirs, mine, message_file)
            if theirs.plies < my_copy.plies and seal.divergence(theirs, my_copy) is None:
                return Received(theirs, None, False, my_copy.plies)  # an older mail: nothing new
            problem = seal.divergence(my_copy, theirs)
            if problem:
                raise RefereeError(f"{message_file} does not extend {mine}: {in_words(theirs, problem)}")
        me = _receiver(theirs, seat, attached.to)
        _check_not_the_engine(theirs, me, message_file)
        if me is not None and len(theirs.seats) == 2 and not theirs.game.cooperative:
            _check_not_moved_for(theirs, my_copy, me, attached.sent, accept_start, message_file)
        write_atomic(target, attached.record)
    known = my_copy.plies if my_copy is not None else 0
    return Received(theirs, target, first, warnings=_odd_stamps(theirs, known, attached.sent),
                    notes=_engine_to_move(theirs, target))


def _check_not_the_engine(theirs: Replay, me: int | None, message_file: str) -> None:
    """SPEC §14: a received record never makes the receiver's seat the engine's (its moves
    would be made on the receiver's machine, in the receiver's name)."""
    if me is not None and me in theirs.record.bots():
        raise RecordError(f"{who_and_seat(theirs, me)}, your seat, is played by the engine in this record: "
                          "a received record may not give your seat to the engine", file=message_file)


def _check_same_bots(mine: Replay, theirs: Replay, mine_file: str, message_file: str) -> None:
    """SPEC §14: the seats the engine plays, and how, are those of my copy."""
    ours, new = mine.record.bots(), theirs.record.bots()
    for seat in sorted(set(ours) | set(new)):
        if seat not in ours:
            change = f"{who_and_seat(mine, seat)} is played by the engine in this record, but not in {mine_file}"
        elif seat not in new:
            change = f"{who_and_seat(mine, seat)} is played by the engine in {mine_file}, but not in this record"
        elif ours[seat] != new[seat]:
            change = f"the engine of {who_and_seat(mine, seat)} or its seconds differ from {mine_file}'s"
        else:
            continue
        raise RecordError(f"{change}: a received record may not add or change a bot seat",
                          file=message_file)


def _engine_to_move(play: Replay, target: str) -> list[str]:
    """What stands when the received game leaves the engine's seat to move: it replies only
    when the receiver asks (SPEC §14: receiving never runs the engine)."""
    seat = play.to_move()
    if play.game.cooperative or seat not in play.record.bots():
        return []
    return [f"{who_and_seat(play, seat)} is to move, played by the engine. A received record never "
            f"makes your machine think: to let the engine reply here, referee move {target} "
            "(without a move)."]


def _receiver(play: Replay, seat: str | None, to: list[str]) -> int | None:
    """The receiver's seat (SPEC §9): from --as, else from the mail's To when it names the
    address of exactly one seat; never guessed from the record. In games where nobody can
    move for another (one seat, or partners) it may stay unknown (None)."""
    if seat is not None:
        return seat_named(play, seat)
    found = seats_at(play.record.players, to)
    if len(found) == 1:
        return found[0]
    if len(play.seats) != 2 or play.game.cooperative:
        return None
    why = "the mail's To is the address of no seat, or of both" if to else "a file, or a mail without To"
    raise UsageError(f"say which seat is yours: --as SEAT (a seat number, or your name or address "
                     f"as in [players]); the record does not tell ({why})")


def _check_not_moved_for(theirs: Replay, mine: Replay | None, me: int, sent: dt.datetime | None,
                         accept_start: bool, message_file: str) -> None:
    """Refuse what was done in my seat's name (SPEC §9): a new ply of mine that I did not make,
    and, while I had no move of my own yet, a clock that started long before the game reached
    me (unless I accept it) or a time claim against me."""
    written = theirs.written_for()
    problem = seal.moved_for(mine, theirs, me, written)
    if problem:
        raise RecordError(problem, file=message_file)
    exempt = set(written)
    if any(seat == me and ply not in exempt for ply, seat in enumerate(theirs.movers, 1)):
        return  # I have moved in this game: its clock is one I have played under
    clock = theirs.record.clock
    if clock is None:
        return
    if theirs.ended_by(CLAIM):
        ply = theirs.ended[0]
        raise RecordError(f"ply {ply} (claim time) claims a win on time against {who_and_seat(theirs, me)}, "
                          "your seat, which had not moved yet: the game never reached you in time to play",
                          file=message_file)
    reached = sent or now()
    if not accept_start and (reached - clock["start"]).total_seconds() > START_SLACK:
        raise RecordError(
            f"the clock started {stamp(clock['start'])}, more than a day before this game reached you "
            f"({stamp(reached)}): it would charge you time you never had; receive it with "
            "--accept-start if you agreed to that start", file=message_file)


def _odd_stamps(play: Replay, known: int, sent: dt.datetime | None) -> list[str]:
    """Warnings for the plies after `known` stamped in the future, or more than a day before
    the message's Date header: a clock cannot be cheated by backdating a move unnoticed."""
    moment, warnings = now(), []
    for ply, entry in enumerate(play.record.moves[known:], known + 1):
        if entry.at is None or entry.at.tzinfo is None:
            continue
        # Differences, not sums: a Date of year 1 or 9999 must not overflow (SPEC §9).
        if (entry.at - moment).total_seconds() > 300:
            warnings.append(f"ply {ply} ({play.entries[ply - 1]}) is stamped {stamp(entry.at)}, in the future")
        elif sent is not None and (sent - entry.at).total_seconds() > 86_400:
            warnings.append(f"ply {ply} ({play.entries[ply - 1]}) is stamped {stamp(entry.at)}, more than a "
                            f"day before the mail was sent ({stamp(sent)}): a backdated move?")
    return warnings


