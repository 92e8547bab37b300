"""The robot's mails (SPEC §15), built and queued: after a ply, each player's (the mover's confirmation, the other's
"your move"), each built as `referee mail` builds one (correspondence/mail.py: the text diagram
and status in the body; the record, the SVG and the PNG attached); the tokens of a new game;
errors to the sender; a refusal to the seat a mail tried to act for; help; reminders.

Every mail is from the robot's address, carries `[GAMEID]` in its subject where it is about a
game, and `Auto-Submitted:` (RFC 3834: `auto-replied` on a reply, with `In-Reply-To`;
`auto-generated` on a reminder). What a player may do next stands below a signature line
("-- "), where the robot stops reading a reply, so its own words are never read as commands.

`Context` is what judging one message has at hand: the robot, its database, the sender, and the
decision being gathered (state.py), into which each mail is queued — at most RATE an hour to
one address (RFC 3834).
"""

from __future__ import annotations

import datetime as dt
import email.policy
import email.utils
import hashlib
import re
from email.message import EmailMessage
from pathlib import Path
from typing import Callable, NamedTuple

from referee.correspondence.deadlines import calendar, has_deadline
from referee.correspondence.mail import build_message, subject as game_subject
from referee.correspondence.sending import reminder_words
from referee.play.replay import Replay
from referee.play.words import result_words, who
from referee.record.clock import now as clock_now
from referee.render.diagram import svg_diagram, text_diagram, to_png
from referee.serve.state import Decision, Store
from referee.text import plain, wrap

SIGNATURE = "-- "
_MESSAGE_ID = re.compile(r"<[!-;=?-~]{1,250}>")  # printable ASCII, no spaces or angle brackets


class Robot(NamedTuple):
    """Who the robot is in its mails."""

    address: str  # the bare address, lower case
    header: str  # its From: as given ("Referee <robot@club.example>" or the bare address)


class Reply(NamedTuple):
    """What a reply answers: the message's Message-ID (None when it had no usable one)."""

    message_id: str | None


def safe_message_id(value: str | None) -> str | None:
    """A Message-ID fit to be quoted in In-Reply-To, or None (a stranger's header may carry
    anything, a line break included)."""
    found = _MESSAGE_ID.search(str(value or ""))
    return found.group(0) if found else None


class Pictures(NamedTuple):
    record: bytes
    svg: str
    png: bytes
    calendar: bytes | None  # the deadline of the seat to move (SPEC §12), in a clocked game


def pictures(play: Replay, short: str) -> Pictures:
    """A game's attachments, drawn once for every mail about the same ply: the record, its
    pictures, and in a game with a clock the calendar file `status --ics` writes (SPEC §12)."""
    svg = svg_diagram(play)
    event = calendar(play, clock_now(), f"{short}.toml") if has_deadline(play) else None
    return Pictures(play.record.to_toml().encode("utf-8"), svg, to_png(svg), event)


def game_mail(robot: Robot, play: Replay, short: str, seat: int, to: str, news: list[str],
              reply: Reply | None, drawn: Pictures, extra: list[str] = ()) -> EmailMessage:
    """A mail about game `short` to `seat`: `news` at the top, then the diagram and the status,
    the record, the pictures and (with a clock) the deadline attached, as `mail` attaches them."""
    body = _lines(news) + ("\n" if news else "") + _lines(extra) + ("\n" if extra else "")
    body += text_diagram(play)
    body += _footer(short, play, seat)
    message = build_message(play, record_name=f"{short}.toml", record_data=drawn.record, body=body,
                            svg=drawn.svg, png=drawn.png, calendar=drawn.calendar, to=to, seats=[seat], now=clock_now(),
                            title=f"[{short}] {game_subject(play, clock_now())}")
    return _from_robot(message, robot, reply)


def plain_mail(robot: Robot, to: str, subject: str, body: str, reply: Reply | None,
               generated: bool = False) -> EmailMessage:
    """A mail of words alone: an error, a refusal, help."""
    message = EmailMessage(policy=email.policy.SMTP)
    message["To"] = to
    message["Subject"] = plain(subject)[:200]
    message["Date"] = email.utils.format_datetime(clock_now())
    message["Message-ID"] = email.utils.make_msgid(domain="referee.invalid")
    message.set_content(body)
    return _from_robot(message, robot, reply, generated)


def _from_robot(message: EmailMessage, robot: Robot, reply: Reply | None, generated: bool = False) -> EmailMessage:
    del message["From"]
    message["From"] = robot.header
    domain = robot.address.rpartition("@")[2] or "referee.invalid"
    del message["Message-ID"]
    message["Message-ID"] = email.utils.make_msgid(domain=domain)
    # RFC 3834: a reply says it is one, so that no responder answers it, and what it answers.
    message["Auto-Submitted"] = "auto-generated" if generated or reply is None else "auto-replied"
    if reply is not None and reply.message_id:
        message["In-Reply-To"] = reply.message_id
        message["References"] = reply.message_id
    return message


def deterministic_id(message: EmailMessage, key: str, robot: Robot) -> None:
    """The mail's Message-ID from its key in the outbox: the same mail queued again after a
    crash keeps its id, so that a mail program can tell a copy for what it is."""
    domain = robot.address.rpartition("@")[2] or "referee.invalid"
    del message["Message-ID"]
    message["Message-ID"] = f"<{hashlib.sha256(key.encode()).hexdigest()[:32]}.serve@{domain}>"


def _lines(lines: list[str] | tuple[str, ...]) -> str:
    return "".join(line + "\n" for text in lines for line in wrap(plain(text)))


def _footer(short: str, play: Replay, seat: int) -> str:
    """What a player may send next, below the signature line (never read back as a command)."""
    turn = play.to_move()
    lines = [SIGNATURE, f"To answer: reply to this mail, keeping [{short}] in the subject, with"]
    if turn == seat:
        lines += ["  move MOVE      your move (or resign, accept draw; offer draw with a move)"]
    elif turn is not None:
        lines += ["  if X then Y    conditional moves, hidden until played (or line M1 M2 …)"]
        if play.clock is not None:
            lines += ["  claim time     once your opponent's time has run out"]
    else:
        lines += ["  status         the final position"]
    lines += ["and your token, from the mail that began the game, on a line of its own:",
              "  token YOUR-TOKEN",
              f"The record is attached: `referee validate {short}.toml` checks it.",
              "Send help for every command."]
    return "\n" + "\n".join(lines) + "\n"


def token_news(play: Replay, short: str, seat: int, token: str, starter: int) -> list[str]:
    """The first mail of a game to one of its players: who plays whom, and the token."""
    names = [f"{who(play, s)} (seat {s})" for s in play.seats]
    started = who(play, starter)
    return [f"A new game of {play.game.name}, {short}: {' against '.join(names)}, started by {started}.",
            "",
            "Your token for this game. Copy this line into every mail you send about it,",
            "and keep it to yourself (with it and your address anyone could move for you):",
            "",
            f"token {token}",
            "",
            "It is your move." if play.to_move() == seat else f"{result_words(play)}."]


def reminder_news(play: Replay, seat: int, days_before: int) -> tuple[str, list[str]]:
    """A reminder to the seat to move of a clocked game: `referee remind`'s subject and words."""
    subject, news = reminder_words(play, seat, clock_now())
    return subject, [news, f"(The robot reminds you {days_before} day{'s' if days_before != 1 else ''} before "
                           "your deadline; it never claims time for anyone.)"]


HELP = """\
Commands for the referee robot, one a line (other lines are ignored):

  new GAME [-O key=value …] vs ADDRESS [clock CONTROL [leave DAYS]] [bot [SECONDS]]
        a game between you (seat 1) and ADDRESS; `bot` instead of ADDRESS: against the
        engine. GAME: odd, dustin, hermit, harmijan, hermetica. CONTROL: 10/50d (10 moves
        in 50 days) or 3d+1d/30d (a bank of 3 days, 1 more a move, at most 30).
        Each player gets a token by mail: keep it.
  GAMEID move MOVE                 your move, in the game's notation
  GAMEID if X then Y               if your opponent plays X, the robot replies Y for you
  GAMEID line M1 M2 M3 M4 …        a line: opponent, you, opponent, you … (spaces as _)
  GAMEID resign | accept draw | claim time | status
  GAMEID offer draw                with a move, in the same mail
  GAMEID leave FROM..TO            with a move: leave, e.g. 2026-12-20..2027-01-03
  token TOKEN                      on a line of its own in every mail about a game
  signature ed25519:SIG at TIME    instead of the token, for a seat with a key: the
                                   signature `referee move --sign` made, and its `at`
  help                             this text

GAMEID is the game's id (8 characters), and may be left out when the subject carries it as
[GAMEID], as the robot's own mails do: answer them and keep the subject.
Conditional moves stay with the robot, unseen by your opponent, until they are played.
Every mail carries the game's record: `referee validate FILE` checks it offline.
"""


RATE = 30  # SPEC §15: replies an hour to one address, at most
HOUR = dt.timedelta(hours=1)


class Context:
    def __init__(self, store: Store, robot: Robot, decision: Decision, sender: str, sender_name: str,
                 reply: Reply | None, log: Callable[[str], None]):
        self.store = store
        self.robot = robot
        self.decision = decision
        self.sender = sender  # the bare address of From:, lower case
        self.sender_name = sender_name  # "Ann <ann@example.org>", fit for [players]
        self.reply = reply
        self.log = log
        self.now = clock_now()

    @property
    def folder(self) -> Path:
        return self.store.folder

    def send(self, address: str, message: EmailMessage) -> bool:
        """Queue `message` for `address` (its one recipient), unless RATE replies went to that
        address within the hour: then it is dropped, and the log says so."""
        address = address.lower()
        queued = sum(1 for letter in self.decision.letters if letter.address == address)
        if self.store.replies_since(address, self.now - HOUR) + queued >= RATE:
            self.log(f"not sent to {address}: {RATE} replies within the hour already ({message['Subject']})")
            return False
        deterministic_id(message, f"{self.decision.message}#{len(self.decision.letters) + 1}", self.robot)
        self.decision.letter(address, bytes(message))
        return True

    def tell_sender(self, subject: str, body: str) -> None:
        """A mail of words to the sender: an error, help."""
        self.send(self.sender, plain_mail(self.robot, self.sender, subject, body, self.reply))
