"""Deadlines in the calendar (SPEC §12): the deadline of the seat to move as an iCalendar (RFC
5545) event, with an alarm a day before, for `status --ics`, `remind --ics` and the mails of a
game with a clock. Written with the icalendar library (imported here alone).

One event a turn: its UID is the game's `id` and the ply that began the turn — the last ply
made by hand by another seat — so every file written during one seat's turn (a reminder, a
status, a mail after a conditional reply gave that seat the move back) updates the same event
in a calendar, its SEQUENCE (the ply) telling the newer; the next turn is a new event.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from referee import __version__
from referee.correspondence.mail import by_hand
from referee.errors import UsageError
from referee.play.replay import Replay
from referee.play.words import result_words, who
from referee.record import seal
from referee.record.clock import UTC, now as clock_now, stamp, words
from referee.record.files import check_output, write_atomic
from referee.text import plain

ALARM_BEFORE = dt.timedelta(hours=24)


def turn_began(play: Replay, seat: int) -> int:
    """The ply after which `seat`'s turn began: the last ply made by hand by another seat (0
    at the start). Passes the rules forced and replies the referee wrote change nothing."""
    hand = [ply for ply in by_hand(play) if play.line[ply].mover != seat]
    return hand[-1] if hand else 0


def uid(play: Replay, seat: int) -> str:
    """The event's UID: the game (its id; a record made before ids, its digest 0) and the turn."""
    game = play.record.id or seal.header_digest(play.record)[len(seal.PREFIX):][:32]
    return f"referee-{game}-ply{turn_began(play, seat)}-seat{seat}@referee.invalid"


def has_deadline(play: Replay) -> bool:
    return play.clock is not None and play.to_move() is not None


def calendar(play: Replay, now: dt.datetime, name: str = "FILE") -> bytes:
    """The .ics of the deadline of the seat to move; exit 2 where there is none."""
    from icalendar import Alarm, Calendar, Event  # the library: only where a calendar is made

    if play.clock is None:
        raise UsageError(f"{play.record.path}: the game has no clock, so no deadline for a calendar")
    seat = play.to_move()
    if seat is None:
        raise UsageError(f"{play.record.path}: the game is over ({result_words(play)}): no deadline")
    deadline = play.clock.deadline(seat).astimezone(UTC).replace(microsecond=0)
    left = play.clock.left(seat, now, True)
    game = play.game.name
    state = f"{words(left)} left" if left > 0 else "out of time"
    event = Event()
    event.add("uid", uid(play, seat))
    event.add("sequence", play.plies)
    event.add("dtstamp", now.astimezone(UTC).replace(microsecond=0))
    event.add("dtstart", deadline)  # no end: the deadline is an instant (RFC 5545 §3.6.1)
    event.add("summary", plain(f"{game}: {who(play, seat)}'s move, deadline"))
    event.add("description", plain(
        f"{game}, ply {play.plies}: {who(play, seat)} to move, {state}, until {stamp(deadline)}. "
        f"Answer with: referee move {name} MOVE"))
    alarm = Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("description", plain(f"{game}: {who(play, seat)} to move within a day"))
    alarm.add("trigger", -ALARM_BEFORE)
    event.add_component(alarm)
    cal = Calendar()
    cal.add("prodid", f"-//referee//referee {__version__}//EN")
    cal.add("version", "2.0")
    cal.add("method", "PUBLISH")
    cal.add_component(event)
    return cal.to_ical()


def write_calendar(play: Replay, path: str, output: str, force: bool) -> None:
    """`--ics OUT.ics`: the deadline of the seat to move as a calendar file (SPEC §12)."""
    check_output(output, force)
    write_atomic(output, calendar(play, clock_now(), Path(path).name))
