"""The correspondence clock (SPEC §6), worked out from the record's own time stamps, so every
copy of a record gives the same verdict.

Two controls: the ICCF form (`days` for every `moves` own moves, cumulative: 10 moves in 50
days) and a bank (`bank` days at the start, `increment` days added after each own move, never
more than `cap`). Each ply costs its mover the time since the ply before it, less the overlap
with that seat's declared leave. The flag is soft: a move made with no time left is legal, and
the overdraft stays on the clock; the opponent may then claim the game (`claim time`).

Pure but for `now()`, the one place the referee reads the time (the system clock, or
REFEREE_NOW); everything else is handed the moment. Times are aware datetimes in UTC, between
1970 and 9999 (SPEC §9: a date outside is a record error, and no sum of dates overflows);
durations are seconds inside, days outside.
"""

from __future__ import annotations

import datetime as dt
import math
import os
import re
from typing import Any, Mapping, NamedTuple

from referee.errors import UsageError

DAY = 86_400.0
UTC = dt.timezone.utc
MAX_DAYS = 3_650.0  # no control or leave of more than ten years
# SPEC §9: the dates a record may hold. Python's own limits are years 1 and 9999, and a time
# zone or a sum of days takes a date past them (OverflowError): the years before 1970 carry
# no correspondence game, and the end of 9999 is the last moment any sum is allowed to reach.
EARLIEST = dt.datetime(1970, 1, 1, tzinfo=UTC)
LATEST = dt.datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC)


def now() -> dt.datetime:
    """Now, in UTC to the second: the system clock, or REFEREE_NOW (an RFC 3339 date-time)
    wherever the referee needs now (SPEC §6): the stamps it writes, the clocks it shows, the
    limit of stamps it accepts (SPEC §9)."""
    given = os.environ.get("REFEREE_NOW")
    if not given:
        return dt.datetime.now(UTC).replace(microsecond=0)
    try:
        moment = dt.datetime.fromisoformat(given.strip().replace("z", "Z"))
    except ValueError:
        raise UsageError(f"REFEREE_NOW={given!r} is no date-time such as 2026-11-22T14:00:00Z") from None
    if moment.tzinfo is None:
        raise UsageError(f"REFEREE_NOW={given!r} needs its time zone, e.g. 2026-11-22T14:00:00Z")
    try:
        return bounded(moment, "REFEREE_NOW").astimezone(UTC)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def bounded(moment: dt.datetime, what: str) -> dt.datetime:
    """`moment` as it is, or ValueError when it lies outside the years 1970–9999 (SPEC §9); a
    moment without a time zone is taken as UTC."""
    try:
        utc = moment.astimezone(UTC) if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    except OverflowError:  # 9999-12-31T23:00:00-05:00 is in the year 10000
        utc = None
    if utc is None or not EARLIEST <= utc <= LATEST:
        raise ValueError(f"{what} {moment.isoformat()} is outside the years 1970–9999")
    return moment


def leave_span(text: str, flag: str = "--leave") -> tuple[dt.datetime, dt.datetime]:
    """`--leave 2026-12-20..2027-01-03` (and `leave …` in a mail to the robot, named by `flag`):
    two dates (00:00 UTC) or date-times, each within the years 1970–9999 (exit 2 otherwise)."""
    begin, sep, end = text.partition("..")

    def moment(part: str) -> dt.datetime:
        part = part.strip()
        try:
            value = dt.datetime.fromisoformat(part.replace("z", "Z"))
        except ValueError:
            raise UsageError(f"{flag} takes FROM..TO, e.g. 2026-12-20..2027-01-03, not {text!r}") from None
        try:
            bounded(value, flag)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)

    if not sep:
        raise UsageError(f"{flag} takes FROM..TO, e.g. 2026-12-20..2027-01-03, not {text!r}")
    return moment(begin), moment(end)


def later(moment: dt.datetime, seconds: float) -> dt.datetime:
    """`moment` plus `seconds`, but never past the end of 9999 (a deadline of a long game
    under a generous control may be counted past it: it is then "the end of time")."""
    if seconds >= (LATEST - moment).total_seconds():
        return LATEST
    return moment + dt.timedelta(seconds=seconds)


def days(seconds: float) -> float:
    return seconds / DAY


def words(seconds: float) -> str:
    """A span as a player says it: "12 days 4 hours", "5 hours 20 minutes", "40 minutes"."""
    seconds = max(0.0, seconds)
    d, rest = divmod(int(seconds), 86_400)
    h, rest = divmod(rest, 3_600)
    m = rest // 60
    parts = [(d, "day"), (h, "hour")] if d else [(h, "hour"), (m, "minute")] if h else [(m, "minute")]
    text = " ".join(f"{n} {unit}{'' if n == 1 else 's'}" for n, unit in parts if n)
    return text or "no time"


def short_words(seconds: float) -> str:
    """The same, short, for a mail subject: "12 days 4 h", "5 h 20 min"."""
    return words(seconds).replace(" hours", " h").replace(" hour", " h").replace(" minutes", " min").replace(" minute", " min")


def stamp(at: dt.datetime) -> str:
    """A moment as the text status gives it: 2026-12-04 18:00 UTC."""
    return at.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"[clock] {name} must be a number of days, not {value!r}")
    if not 0 <= value <= MAX_DAYS:
        raise ValueError(f"[clock] {name} must be 0–{MAX_DAYS:g} days, not {value}")
    return float(value)


class Control(NamedTuple):
    """A time control: the ICCF form (moves, days) or a bank (bank, increment, cap), and the
    leave each seat may take, in days."""

    moves: int | None = None
    days: float | None = None
    bank: float | None = None
    increment: float | None = None
    cap: float | None = None
    leave: float = 0.0

    @classmethod
    def from_table(cls, table: Mapping[str, Any]) -> "Control":
        """The control of a record's [clock] (its `start` is read apart); raises ValueError."""
        keys = set(table) - {"start", "leave"}
        leave = _number(table.get("leave", 0), "leave")
        if keys == {"moves", "days"}:
            moves = table["moves"]
            if isinstance(moves, bool) or not isinstance(moves, int) or not 1 <= moves <= 1000:
                raise ValueError(f"[clock] moves must be a whole number 1–1000, not {moves!r}")
            period = _number(table["days"], "days")
            if period <= 0:
                raise ValueError("[clock] days must be more than 0")
            return cls(moves=moves, days=period, leave=leave)
        if keys in ({"bank", "increment"}, {"bank", "increment", "cap"}):
            bank, increment = _number(table["bank"], "bank"), _number(table["increment"], "increment")
            cap = _number(table["cap"], "cap") if "cap" in table else None
            if bank <= 0:
                raise ValueError("[clock] bank must be more than 0")
            if cap is not None and cap < bank:
                raise ValueError("[clock] cap must be at least the bank")
            return cls(bank=bank, increment=increment, cap=cap, leave=leave)
        raise ValueError("[clock] takes start and either moves and days (10 moves in 50 days) or "
                         "bank, increment and an optional cap, and an optional leave")

    @classmethod
    def parse(cls, text: str, leave: float = 0.0) -> "Control":
        """A control as typed on the command line: "10/50d" (10 moves in 50 days), "3d+1d" or
        "3d+1d/30d" (a bank of 3 days, 1 more a move, at most 30); "h" for hours. Raises
        ValueError."""
        span = r"([0-9]+(?:\.[0-9]+)?)\s*([dh])"
        squeezed = text.strip().lower()
        iccf = re.fullmatch(rf"([0-9]+)\s*/\s*{span}", squeezed)
        bank = re.fullmatch(rf"{span}\s*\+\s*{span}(?:\s*/\s*{span})?", squeezed)

        def in_days(number: str, unit: str) -> float:
            return float(number) / (24 if unit == "h" else 1)

        if iccf:
            table: dict[str, Any] = {"moves": int(iccf[1]), "days": in_days(iccf[2], iccf[3])}
        elif bank:
            table = {"bank": in_days(bank[1], bank[2]), "increment": in_days(bank[3], bank[4])}
            if bank[5]:
                table["cap"] = in_days(bank[5], bank[6])
        else:
            raise ValueError(f"--clock takes 10/50d (10 moves in 50 days) or 3d+1d or 3d+1d/30d "
                             f"(bank + increment / cap; h for hours), not {text!r}")
        return cls.from_table({**table, "leave": leave})

    def table(self, start: dt.datetime) -> dict[str, Any]:
        """The record's [clock] for this control, starting at `start`."""
        table: dict[str, Any] = {"start": start}
        if self.moves is not None:
            table.update(moves=self.moves, days=_plain(self.days))
        else:
            table.update(bank=_plain(self.bank), increment=_plain(self.increment))
            if self.cap is not None:
                table["cap"] = _plain(self.cap)
        if self.leave:
            table["leave"] = _plain(self.leave)
        return table

    def describe(self) -> str:
        """"10 moves in 50 days", "3 days + 1 day a move, at most 30 days"."""
        if self.moves is not None:
            return f"{self.moves} move{'s' if self.moves != 1 else ''} in {_days_words(self.days)}"
        text = f"{_days_words(self.bank)} + {_days_words(self.increment)} a move"
        return text + (f", at most {_days_words(self.cap)}" if self.cap is not None else "")


def _plain(value: float | None) -> int | float | None:
    """2.0 → 2, so a record says `days = 50`, not `days = 50.0`."""
    return int(value) if value is not None and value == int(value) else value


def _days_words(value: float | None) -> str:
    value = value or 0.0
    if value < 1:
        return words(value * DAY)
    number = _plain(value)
    return f"{number} day{'' if number == 1 else 's'}"


class SeatClock(NamedTuple):
    used: float = 0.0  # seconds charged so far
    moves: int = 0  # own moves made (a pass the rules forced is none)
    balance: float = 0.0  # the bank form: seconds on the clock after the last own move
    leave: tuple[tuple[dt.datetime, dt.datetime], ...] = ()  # declared leave, in order

    def leave_taken(self) -> float:
        return sum((end - begin).total_seconds() for begin, end in self.leave)

    def off(self, begin: dt.datetime, end: dt.datetime) -> float:
        """Seconds of [begin, end] inside this seat's leave."""
        overlap = 0.0
        for start, stop in self.leave:
            low, high = max(begin, start), min(end, stop)
            if high > low:
                overlap += (high - low).total_seconds()
        return overlap


class ClockError(ValueError):
    """A stamp or a leave the clock refuses; the replay locates it at its ply."""


class Clock(NamedTuple):
    """The clock after some ply: the control, the stamp of the last ply (the start before
    ply 1), and each seat's account."""

    control: Control
    start: dt.datetime
    last: dt.datetime
    seats: tuple[SeatClock, SeatClock]

    @classmethod
    def from_table(cls, table: Mapping[str, Any]) -> "Clock":
        control = Control.from_table(table)
        start = table.get("start")
        if not isinstance(start, dt.datetime) or start.tzinfo is None:
            raise ValueError("[clock] start must be a date-time such as 2026-11-22T14:00:00Z")
        start = bounded(start, "[clock] start")
        bank = (control.bank or 0.0) * DAY
        return cls(control, start, start, (SeatClock(balance=bank), SeatClock(balance=bank)))

    def seat(self, seat: int) -> SeatClock:
        return self.seats[seat - 1]

    def charged(self, seat: int, begin: dt.datetime, end: dt.datetime) -> float:
        """Thinking time of `seat` from `begin` to `end`: the span less its leave."""
        if end <= begin:
            return 0.0
        return (end - begin).total_seconds() - self.seat(seat).off(begin, end)

    def after(self, seat: int, at: dt.datetime, *, own: bool,
              leave: tuple[dt.datetime, dt.datetime] | None = None) -> "Clock":
        """The clock after a ply of `seat` stamped `at` (`own`: a move of its own, not a pass
        the rules forced), which declares `leave`. Raises ClockError."""
        if at.tzinfo is None:
            raise ClockError("with a clock, a time stamp needs its time zone, e.g. 2026-11-22T14:01:00Z")
        if at < self.last:
            raise ClockError(f"stamped {stamp(at)}, before the ply or start before it "
                             f"({stamp(self.last)}): with a clock, stamps never go back")
        account = self.seat(seat)
        cost = self.charged(seat, self.last, at)
        # The bank loses every charge; an own move then earns its increment, up to the cap.
        account = account._replace(used=account.used + cost, balance=account.balance - cost)
        if own:
            balance = account.balance
            if self.control.bank is not None:
                balance += (self.control.increment or 0.0) * DAY
                if self.control.cap is not None:
                    balance = min(balance, self.control.cap * DAY)
            account = account._replace(moves=account.moves + 1, balance=balance)
        if leave is not None:
            account = account._replace(leave=account.leave + (self._checked_leave(account, at, leave),))
        seats = tuple(account if s == seat else self.seat(s) for s in (1, 2))
        return self._replace(last=at, seats=seats)

    def _checked_leave(self, account: SeatClock, at: dt.datetime,
                       leave: tuple[dt.datetime, dt.datetime]) -> tuple[dt.datetime, dt.datetime]:
        begin, end = leave
        if begin.tzinfo is None or end.tzinfo is None:
            raise ClockError("leave needs UTC times, e.g. [2026-12-20T00:00:00Z, 2027-01-03T00:00:00Z]")
        if end <= begin:
            raise ClockError(f"leave from {stamp(begin)} to {stamp(end)} ends before it begins")
        if begin < at:
            raise ClockError(f"leave from {stamp(begin)} begins before this move ({stamp(at)}): "
                             "leave is declared ahead, never afterwards")
        for start, stop in account.leave:
            if begin < stop and start < end:
                raise ClockError(f"leave from {stamp(begin)} overlaps the leave already taken from "
                                 f"{stamp(start)} to {stamp(stop)}")
        allowed = self.control.leave * DAY
        taken = account.leave_taken() + (end - begin).total_seconds()
        if taken > allowed + 1e-6:
            left = max(0.0, allowed - account.leave_taken())
            have = f"the {words(left)} of leave left" if left else "the leave left (none)"
            raise ClockError(f"leave of {words((end - begin).total_seconds())} is more than {have} "
                             f"(the control allows {self.control.leave:g} days in all)")
        return begin, end

    def available(self, seat: int) -> float:
        """Seconds `seat` may think in all, counted from its last charge: ICCF, the days of every
        period begun less the time used; a bank, its balance."""
        account = self.seat(seat)
        if self.control.moves is not None:
            periods = account.moves // self.control.moves + 1
            return (self.control.days or 0.0) * DAY * periods - account.used
        return account.balance

    def left(self, seat: int, now: dt.datetime, to_move: bool) -> float:
        """Seconds `seat` has left at `now`; the seat to move is charged the running time."""
        running = self.charged(seat, self.last, now) if to_move else 0.0
        return self.available(seat) - running

    def used(self, seat: int, now: dt.datetime, to_move: bool) -> float:
        running = self.charged(seat, self.last, now) if to_move else 0.0
        return self.seat(seat).used + running

    def deadline(self, seat: int) -> dt.datetime:
        """When `seat`, to move, runs out of time: its leave after the last ply not counted."""
        remaining = self.available(seat)
        moment = self.last
        for begin, end in sorted(self.seat(seat).leave):
            if end <= moment:
                continue
            if begin > moment:
                gap = (begin - moment).total_seconds()
                if remaining <= gap:
                    break
                remaining -= gap
            moment = max(moment, end)
        return later(moment, remaining)


def _iso(at: dt.datetime) -> str:
    return at.astimezone(UTC).isoformat().replace("+00:00", "Z")


def report(clock: Clock, to_move: int | None, now: dt.datetime) -> dict[str, Any]:
    """`status --json`'s "clock" (SPEC §6): days as numbers, the running time of the seat to
    move counted up to `now`, and its deadline (None once the game is over)."""
    body: dict[str, Any] = {
        "control": clock.control.describe(),
        "now": _iso(now),
        "deadline": _iso(clock.deadline(to_move)) if to_move is not None else None,
    }
    for seat in (1, 2):
        running = seat == to_move
        left = clock.left(seat, now, running)
        body[str(seat)] = {
            "used": round(days(clock.used(seat, now, running)), 5),
            "left": round(days(left), 5),
            "moves": clock.seat(seat).moves,
            "leave_left": round(clock.control.leave - days(clock.seat(seat).leave_taken()), 5),
            "out_of_time": left <= 0,
        }
    return body


def sentences(clock: Clock, to_move: int | None, now: dt.datetime, names: Mapping[int, str]) -> list[str]:
    """The clock in words, for the status, the diagrams and the mail: "Bo to move: 12 days 4
    hours left, until 2026-12-04 18:00 UTC". `names` gives each seat's word ("Seat 2", "Bo")."""
    lines = [f"Clock: {clock.control.describe()}"
             + (f", {clock.control.leave:g} days of leave each" if clock.control.leave else "")]
    for seat in ((to_move, 3 - to_move) if to_move else (1, 2)):
        left = clock.left(seat, now, seat == to_move)
        if seat != to_move:
            state = f"{words(left)} left" if left > 0 else "no time left" if left > -60 else f"{words(-left)} over time"
            lines.append(f"{names[seat]}: {state}")
        elif left > 0:
            lines.append(f"{names[seat]} to move: {words(left)} left, until {stamp(clock.deadline(seat))}")
        else:
            lines.append(f"{names[seat]} to move: out of time since {stamp(clock.deadline(seat))}; "
                         f"{names[3 - seat]} may claim the game ('claim time')")
    return lines
