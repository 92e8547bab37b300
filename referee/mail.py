"""Game records by e-mail: build the message a player sends, take the record out of one received.

Messages are standard MIME (the standard library's `email` package): a plain-text body with the
diagram and the status, the record attached as `application/toml`, the board as SVG and PNG.
"""

from __future__ import annotations

import email.policy
import email.utils
import re
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import PurePath

from referee.errors import RecordError, UsageError
from referee.replay import Replay

RECORD_TYPE = ("application", "toml")


def address_of(play: Replay, seat: int | None) -> str | None:
    """The mail address in a seat's [players] name ("Ann <ann@example.org>"), if it has one."""
    if seat is None:
        return None
    name = play.record.player_name(seat) or ""
    # "Bo <bo@…>, Eve <eve@…>" would add a recipient: that is no address of one seat. (A line
    # break is left for the header itself to refuse, in build_message.)
    if not re.search(r"[\r\n]", name) and len(email.utils.getaddresses([name])) > 1:
        return None
    _, address = email.utils.parseaddr(name)
    return name if "@" in address else None


def subject(play: Replay) -> str:
    game = play.game.name
    if not play.plies:
        return f"{game}: a new game ({play.result_sentence()})"
    return f"{game}: ply {play.plies}, {play.last_move()} ({play.result_sentence()})"


def build_message(
    play: Replay,
    *,
    record_name: str,
    record_data: bytes,
    body: str,
    svg: str,
    png: bytes | None,
    to: str | None = None,
) -> EmailMessage:
    """The message to the seat whose turn it is (once the game is over: to the other seats),
    from the seat that moved last."""
    last = play.movers[-1] if play.movers else None
    seats = [play.to_move()] if play.to_move() is not None else [s for s in play.seats if s != last]
    addresses = [a for a in (address_of(play, s) for s in seats) if a]
    recipient = to or ", ".join(addresses)
    if not recipient:
        listed = " or ".join(f"seat {s}" for s in seats)
        raise UsageError(f"{listed} has no mail address in [players]: give one with --to")
    message = EmailMessage(policy=email.policy.SMTP)
    try:
        message["To"] = recipient
        sender = address_of(play, last)
        if sender:
            message["From"] = sender
        message["Subject"] = subject(play)
    except ValueError as exc:  # a name with a line break would forge headers: refuse it
        raise UsageError(f"cannot put that address in a mail header: {exc}") from None
    message["Date"] = email.utils.formatdate(localtime=False)
    message["Message-ID"] = email.utils.make_msgid(domain="referee.invalid")
    message.set_content(body)
    # The attachments are named after the record file, whose name may hold a line break: in a
    # header that would forge lines, so control characters become '_'.
    record_name = re.sub(r"[\x00-\x1f\x7f]", "_", PurePath(record_name).name)
    stem = PurePath(record_name).stem
    message.add_attachment(
        record_data, maintype=RECORD_TYPE[0], subtype=RECORD_TYPE[1],
        filename=record_name,
    )
    message.add_attachment(svg.encode("utf-8"), maintype="image", subtype="svg+xml",
                           filename=f"{stem}.svg")
    if png is not None:
        message.add_attachment(png, maintype="image", subtype="png", filename=f"{stem}.png")
    return message


def record_from_message(data: bytes, name: str) -> tuple[bytes, str]:
    """The record attached to a message (or the data itself when it already is a record):
    its bytes and its file name. Raises a RecordError naming the message when there is none."""
    if _looks_like_record(data):
        return data, PurePath(name).name
    message = BytesParser(policy=email.policy.default).parsebytes(data)
    if not message.is_multipart() and not message.get("Content-Type"):
        raise RecordError("neither a record nor a mail message", file=name)
    found = []
    for part in message.walk():
        filename = part.get_filename() or ""
        if part.get_content_type() == "/".join(RECORD_TYPE) or filename.endswith(".toml"):
            found.append((part.get_payload(decode=True) or b"", PurePath(filename or "game.toml").name))
    if not found:
        raise RecordError(
            "the message has no record attached (a .toml attachment): ask the sender to "
            "send it again with `referee mail`", file=name,
        )
    if len(found) > 1:
        raise RecordError(f"the message has {len(found)} records attached; expected one", file=name)
    return found[0]


def _looks_like_record(data: bytes) -> bool:
    head = data.lstrip()[:200]
    return head.startswith((b"format", b"game", b"#", b"["))
