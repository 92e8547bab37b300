"""Game records by e-mail: build the message a player sends, take the record out of one received.

Messages are standard MIME (the standard library's `email` package): a plain-text body with the
diagram and the status, the record attached as `application/toml`, the board as SVG and PNG,
and on request the review page as `text/html`.
"""

from __future__ import annotations

import datetime as dt
import email.policy
import email.utils
import re
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import PurePath
from typing import NamedTuple

from referee.record.clock import now as clock_now, short_words
from referee.errors import CONTROL, RecordError, UsageError
from referee.record.files import looks_like_mail
from referee.play.words import result_words, who, who_and_seat
from referee.play.replay import Replay

RECORD_TYPE = ("application", "toml")


def address_of(play: Replay, seat: int | None) -> str | None:
    """The mail address in a seat's [players] name ("Ann <ann@example.org>"), if it has one."""
    if seat is None:
        return None
    name = _header_safe(play.record.player_name(seat) or "")
    # "Bo <bo@…>, Eve <eve@…>" would add a recipient: that is no address of one seat. (A line
    # break is left for the header itself to refuse, in build_message.)
    if not re.search(r"[\r\n]", name) and len(email.utils.getaddresses([name])) > 1:
        return None
    _, address = email.utils.parseaddr(name)
    return name if "@" in address else None


def _header_safe(text: str) -> str:
    """A name for a header: no control, bidi-override or zero-width character (SPEC §9). A
    line break stays, for the header to refuse outright (build_message): it is never a name."""
    return "".join(ch if ch in "\r\n" else ch.translate(CONTROL) for ch in text)


def subject(play: Replay, now: dt.datetime | None = None) -> str:
    """"Odd: ply 3, b e6 (Bo to move, 12 days 4 h left)": the game, the ply, the move and the
    result sentence, with the players' names where the record has them, and the time left of
    the seat to move where the game has a clock."""
    game = play.game.name
    state = result_words(play) + time_left(play, now)
    if not play.plies:
        return f"{game}: a new game ({state})"
    return f"{game}: ply {play.plies}, {play.last_move()} ({state})"


def time_left(play: Replay, now: dt.datetime | None) -> str:
    """", 12 days 4 h left" for the seat to move of a game with a clock, else nothing."""
    seat = play.to_move()
    if play.clock is None or seat is None or now is None:
        return ""
    left = play.clock.left(seat, now, True)
    return f", {short_words(left)} left" if left > 0 else ", out of time"


def by_hand(play: Replay) -> list[int]:
    """The plies written by hand, each by the referee of the seat that made it: every ply but
    a pass the rules forced, a reply taken from a seat's own conditional moves (both written
    by the other side's referee, SPEC §9) and the engine's reply for a bot seat (SPEC §10). In
    a cooperative round the engine's placements ride in the player's own entry: that is hers."""
    written = set(play.written_for())
    cooperative = play.game.cooperative
    return [ply for ply, entry in enumerate(play.record.moves, 1)
            if ply not in written and not (entry.bot and not cooperative)]


def correspondents(play: Replay, sender: int | None = None) -> tuple[int | None, list[int]]:
    """Who a mail is from and to (SPEC §12): from the seat whose copy it is — `sender` (--as),
    else the seat of the last ply written by hand — to the other seat; in a game of more seats,
    to the seat to move, else every other seat. A copy with no ply by hand yet (a new game) is
    nobody's in particular: it goes to the seat to move."""
    if sender is None:
        hand = by_hand(play)
        sender = play.line[hand[-1]].mover if hand else None
    seats, to_move = list(play.seats), play.to_move()
    if sender is None:
        to = [to_move] if to_move is not None else [s for s in seats if s != play.line[-1].mover]
    else:
        others = [s for s in seats if s != sender]
        if len(seats) > 2 and to_move is not None and to_move != sender:
            to = [to_move]
        else:
            to = others or [sender]  # a game of one seat: its player keeps the copy
    return sender, to


def conditional_news(play: Replay, sender: int | None) -> list[str]:
    """What the other side's referee played after the sender's last ply by hand: each reply
    taken from a seat's own conditional moves, then who is to move (SPEC §12: "Ann's
    conditional reply was played: if w d4 then b c3. Bo to move.")."""
    if sender is None:
        return []
    hand = [ply for ply in by_hand(play) if play.line[ply].mover == sender]
    since = hand[-1] if hand else 0
    forced = play.forced_passes()
    replies = [ply for ply in play.written_for() if ply > since and not forced[ply - 1]]
    news = [f"{who(play, play.line[ply].mover)}'s conditional reply was played: "
            f"if {play.entries[ply - 2]} then {play.entries[ply - 1]}." for ply in replies]
    return [*news, f"{result_words(play)}."] if news else []


def build_message(
    play: Replay,
    *,
    record_name: str,
    record_data: bytes,
    body: str,
    svg: str,
    png: bytes | None,
    to: str | None = None,
    now: dt.datetime | None = None,
    title: str | None = None,
    seats: list[int] | None = None,
    html: str | None = None,
    sender: int | None = None,
    calendar: bytes | None = None,
) -> EmailMessage:
    """The message to `seats` from `sender` (by default, as `correspondents` says: from the
    seat whose copy it is to the other); `title` replaces the usual subject. `html`, when
    given, is the review page, and `calendar` the deadline (SPEC §12), attached too."""
    if seats is None:
        sender, seats = correspondents(play, sender)
    last = sender
    bots = play.record.bots()
    addresses = [a for a in (address_of(play, s) for s in seats) if a]
    recipient = _header_safe(to) if to else ", ".join(addresses)
    if not recipient:
        listed = " or ".join(who_and_seat(play, s) for s in seats)
        if all(s in bots for s in seats):
            raise UsageError(f"{listed} is played by the engine, which reads no mail: give an "
                             "address with --to")
        raise UsageError(f"{listed} has no mail address in [players]: give one with --to")
    for seat in sorted({*seats, last} - {None}):
        # A line break in a header would forge lines (other control characters are taken out).
        if re.search(r"[\r\n]", play.record.player_name(seat) or "") and (seat == last or not to):
            raise UsageError(
                f"{who_and_seat(play, seat)}'s name has a line break in it, so it cannot go into a "
                "mail header: write it on one line in the record's [players] (names are outside "
                "the seal)" + ("" if seat == last else ", or give the address with --to"))
    message = EmailMessage(policy=email.policy.SMTP)
    try:
        message["To"] = recipient
        sender = address_of(play, last)
        if sender:
            message["From"] = sender
        message["Subject"] = _header_safe(title or subject(play, now))
    except ValueError as exc:  # a name with a line break would forge headers: refuse it
        raise UsageError(f"cannot put that address in a mail header: {exc}") from None
    # SPEC §8b: "+0000", the zone known to be UTC ("-0000" would say it is unknown, and the
    # receiver could not weigh stamps against it), at the referee's now (REFEREE_NOW when set).
    message["Date"] = email.utils.format_datetime(now or clock_now())
    message["Message-ID"] = email.utils.make_msgid(domain="referee.invalid")
    message.set_content(body)
    # The attachments are named after the record file, whose name may hold a line break: in a
    # header that would forge lines, so control characters become '_'.
    record_name = PurePath(record_name).name.translate(dict.fromkeys(CONTROL, "_"))
    stem = PurePath(record_name).stem
    message.add_attachment(
        record_data, maintype=RECORD_TYPE[0], subtype=RECORD_TYPE[1],
        filename=record_name,
    )
    message.add_attachment(svg.encode("utf-8"), maintype="image", subtype="svg+xml",
                           filename=f"{stem}.svg")
    if png is not None:
        message.add_attachment(png, maintype="image", subtype="png", filename=f"{stem}.png")
    if html is not None:
        # An attachment, not an alternative body: the reader opens the whole game with a double
        # click, and mail programs that show HTML inline do not run its script anyway.
        message.add_attachment(html.encode("utf-8"), maintype="text", subtype="html",
                               filename=f"{stem}.html", params={"charset": "utf-8"})
    if calendar is not None:
        # The deadline of the seat to move as an event (SPEC §12): a mail program offers to
        # add it to the calendar.
        message.add_attachment(calendar, maintype="text", subtype="calendar",
                               filename=f"{stem}-deadline.ics", params={"charset": "utf-8", "method": "PUBLISH"})
    return message


MAX_PARTS = 50  # a game's mail has four; a few more where a mail program wraps it


class Attached(NamedTuple):
    record: bytes
    name: str  # the attachment's file name
    sent: dt.datetime | None  # the message's Date header, when it has a readable one
    to: list[str] = []  # the addresses in its To header


def record_from_message(data: bytes, name: str) -> Attached:
    """The record attached to a message (or the data itself when it already is a record),
    its file name and when the message says it was sent. Raises a RecordError naming the
    message when there is no record."""
    if not looks_like_mail(data):
        return Attached(data, PurePath(name).name, None)
    # The email package parses nested parts and header comments recursively: a hostile message
    # of a few kilobytes could nest them a thousand deep. Count before parsing, and treat what
    # still goes too deep as what it is.
    if len(re.findall(rb"(?im)^content-type:\s*multipart/", data)) > MAX_PARTS:
        raise RecordError(f"the message has more than {MAX_PARTS} nested parts: not a game's mail", file=name)
    try:
        message = BytesParser(policy=email.policy.default).parsebytes(data)
        found = []
        for part in message.walk():
            filename = part.get_filename() or ""
            if part.get_content_type() == "/".join(RECORD_TYPE) or filename.endswith(".toml"):
                found.append((part.get_payload(decode=True) or b"", PurePath(filename or "game.toml").name))
    except RecursionError:
        raise RecordError("the message is nested too deeply to be a game's mail", file=name) from None
    if not found:
        raise RecordError("a mail, but no record (.toml) is attached: ask the sender to send it "
                          "again with `referee mail`", file=name)
    if len(found) > 1:
        raise RecordError(f"the message has {len(found)} records attached; expected one", file=name)
    return Attached(*found[0], _date(message), _addresses(message))


def _date(message: EmailMessage) -> dt.datetime | None:
    try:
        sent = email.utils.parsedate_to_datetime(str(message["Date"] or ""))
    except (TypeError, ValueError, IndexError, RecursionError):
        return None
    return sent if sent.tzinfo is not None else None


def _addresses(message: EmailMessage) -> list[str]:
    try:
        return [address for _, address in email.utils.getaddresses([str(message["To"] or "")]) if address]
    except (TypeError, ValueError, IndexError, RecursionError):
        return []


