"""One message, handled exactly once (SPEC §15), through the steps state.py lists: decided (its
commands judged, nothing written), committed (one transaction), records written, marked
handled, replies sent, filed. `checkpoint` marks the places between steps: a crash at any of
them is finished on the next start by `recover`, and tests kill the robot at each.

What is never answered (RFC 3834): mail with `Auto-Submitted:` other than `no`, `Precedence:
bulk`, `list` or `junk`, mail from the robot's own address or from a mailer daemon. A message
over 5 MB, or with more than 20 commands, is refused once, unread.
"""

from __future__ import annotations

import email.policy
import email.utils
import hashlib
import os
import re
import traceback
from email.message import EmailMessage
from email.parser import BytesParser
from typing import Callable, NamedTuple, Protocol

from referee.errors import CONTROL, RefereeError
from referee.record.clock import now
from referee.record.files import MAX_INPUT_BYTES, locked, write_atomic
from referee.serve import commands as reading
from referee.serve.letters import Context
from referee.serve.letters import HELP, SIGNATURE, Reply, Robot, safe_message_id
from referee.serve.newgame import ADDRESS, new_game
from referee.serve.reminders import remind
from referee.serve.state import Decision, Store, Unsent
from referee.serve.turns import game_commands, record_in_folder
from referee.text import plain

MAX_BYTES = MAX_INPUT_BYTES  # SPEC §15: a message over 5 MB is refused once, unread
MAX_PARTS = 50  # parts of a message, as correspondence/mail.py counts them
DAEMONS = re.compile(r"^(mailer-daemon|postmaster|no-?reply|bounces?)([+-].*)?@", re.IGNORECASE)


def checkpoint(step: str) -> None:
    """A place between two steps, where a crash must leave nothing that a restart cannot
    finish. Nothing happens here; tests kill the robot at each (tests/test_serve_crash.py)."""


class Incoming(NamedTuple):
    """A message as the inbox gives it: `data` is the whole of it, or its header section
    alone when it is over MAX_BYTES (`size`); `handle` is the inbox's own name for it."""

    data: bytes
    size: int
    handle: object


class Undeliverable(Exception):
    """A reply the mail system refuses for good (an address that does not exist): dropped."""


class Sink(Protocol):
    def deliver(self, letter: Unsent) -> None: ...


def identity(incoming: Incoming) -> str:
    """The message's identity in the database: its Message-ID, else a digest of its bytes (a
    replayed message is the same message)."""
    found = safe_message_id(_header(_headers(incoming.data), "Message-ID"))
    return "id:" + found if found else "sha256:" + hashlib.sha256(incoming.data).hexdigest()


def handle(store: Store, robot: Robot, sink: Sink, incoming: Incoming, log: Callable[[str], None]) -> str:
    """Steps 1–5 for one message (filing, step 6, is the inbox's); returns its identity."""
    ident = identity(incoming)
    if store.state_of(ident) is None:
        decision = decide(store, robot, incoming, ident, log)
        store.commit(decision, now())
        checkpoint("committed")
    else:
        log(f"{ident}: handled already (a message read twice is acted on once)")
    recover(store)
    deliver(store, sink, log)
    return ident


def recover(store: Store) -> None:
    """Steps 3 and 4 for every message decided but not yet handled (after a crash, at start)."""
    for message in store.decided():
        for path, text in store.writes(message):
            with locked(path):
                write_atomic(path, text)
            checkpoint("written")
        store.handled(message)
        checkpoint("handled")


def deliver(store: Store, sink: Sink, log: Callable[[str], None] = print) -> None:
    """Step 5: every reply not yet sent. One the mail system refuses for good is dropped (and
    logged); any other failure stops here, the rest waiting for the next round."""
    for letter in store.unsent():
        if letter.data is not None:
            try:
                sink.deliver(letter)
            except Undeliverable as exc:
                log(f"reply dropped: {exc}")
            checkpoint("sent")
        store.sent(letter.key, now())
        checkpoint("marked sent")
    store.forget()


def sweep(store: Store, robot: Robot, sink: Sink, log: Callable[[str], None]) -> None:
    """The reminders due in every game with a clock, committed and sent like replies."""
    moment = now()
    decision = Decision(f"reminders:{moment.isoformat()}:{os.urandom(4).hex()}", "reminders")
    ctx = Context(store, robot, decision, robot.address, robot.address, None, log)
    for game in store.games():
        try:
            play = record_in_folder(game.path, f"{game.short}.toml")
        except (RefereeError, OSError) as exc:
            log(f"{game.short}: cannot read its record: {exc}")
            continue
        if remind(ctx, game, play):
            log(f"{game.short}: reminder due")
    if decision.letters or decision.reminders:
        store.commit(decision, moment)
        checkpoint("committed")
        deliver(store, sink, log)


# -- deciding ---------------------------------------------------------------------------------


def decide(store: Store, robot: Robot, incoming: Incoming, ident: str, log: Callable[[str], None]) -> Decision:
    """Step 1: what the message asks, judged; nothing written. An unexpected fault in judging
    is this message's (the sender is told), never the robot's end."""
    try:
        head = _headers(incoming.data)
        sender_name, sender = _sender(_header(head, "From"))
    except Exception as exc:  # noqa: BLE001 — a message no parser can read is filed, unanswered
        log(f"{ident}: unreadable ({exc!r}): not answered")
        return Decision(ident, "unreadable: not answered")
    decision = Decision(ident, f"from {sender or '?'}")
    ignored = _never_answered(head, sender, robot)
    if ignored:
        decision.summary += f": not answered ({ignored})"
        log(f"{ident}: {decision.summary}")
        return decision
    reply = Reply(safe_message_id(_header(head, "Message-ID")))
    ctx = Context(store, robot, decision, sender, sender_name, reply, log)
    try:
        _decide(ctx, incoming, head)
    except Exception as exc:  # noqa: BLE001 — one message's fault is told, and the robot goes on
        log(f"{ident}: internal error: {exc!r}\n{traceback.format_exc()}")
        decision.writes.clear()
        decision.letters.clear()
        decision.games.clear()
        decision.seats.clear()
        decision.conditionals.clear()
        ctx.tell_sender("Refused: the robot could not handle your mail",
                        f"internal error: {plain(repr(exc))[:300]}\nNothing in your mail was played; the "
                        "robot's keeper can read why in its log.\n")
    log(f"{ident}: {decision.summary}; {len(decision.letters)} to send")
    return decision


def _decide(ctx: Context, incoming: Incoming, head: EmailMessage) -> None:
    subject = plain(_header(head, "Subject"))[:300]
    if incoming.size > MAX_BYTES:
        ctx.decision.summary += ": refused (over 5 MB)"
        ctx.tell_sender(f"Refused: {subject[:80]}", f"Your mail of {incoming.size:,} bytes is over the robot's "
                        f"limit of {MAX_BYTES // 1_000_000} MB: nothing in it was read. Send the commands alone, "
                        "in plain text.\n")
        return
    mail = reading.read_commands(_body(incoming.data), subject)
    if len(mail.commands) > reading.MAX_COMMANDS:
        ctx.decision.summary += ": refused (too many commands)"
        ctx.tell_sender(f"Refused: {subject[:80]}", f"Your mail holds more than {reading.MAX_COMMANDS} commands: "
                        "nothing in it was played. Send fewer at a time.\n")
        return
    acts = [c for c in mail.commands if c.verb not in ("token", "signature", "key")]
    ctx.decision.summary += ": " + ("; ".join(plain(c.text)[:60] for c in acts) or "no command")
    if not acts:
        ctx.tell_sender(f"Re: {subject[:80]}", "Your mail holds no command for the robot.\n"
                        f"{SIGNATURE}\n{HELP}")
        return
    if any(c.verb == "help" for c in acts):
        ctx.tell_sender("Help: the referee robot's commands", f"The referee robot's commands follow.\n{SIGNATURE}\n{HELP}")
    key = next((c.args[0] for c in mail.commands if c.verb == "key"), None)
    for command in acts:
        if command.verb == "new":
            new_game(ctx, command, key)
    _games(ctx, mail)


def _games(ctx: Context, mail: reading.Mail) -> None:
    """The commands for games, game by game in the order they first appear."""
    named = {c.game for c in mail.commands if c.game}
    only = next(iter(named)) if len(named) == 1 else None
    groups: dict[str, list[reading.Command]] = {}
    loose = [c for c in mail.commands if c.verb in ("token", "signature") and not c.game]
    lost = []
    for command in mail.commands:
        if command.verb in ("new", "help", "key") or command in loose:
            continue
        game = command.game or mail.subject_game or only
        if game is None:
            lost.append(command)
        else:
            groups.setdefault(game, []).append(command)
    if lost:
        ctx.tell_sender("Refused: which game?", "".join(f"{plain(c.text)[:120]}\n" for c in lost)
                        + "\nSay which game: put the game's id before the command (3f2a0c6d move …), or "
                        "answer the robot's mail about the game, keeping [GAMEID] in its subject.\n")
    for given, commands in groups.items():
        game = ctx.store.game(given)
        if game is None:
            ctx.tell_sender(f"Refused: no game {given}", f"There is no game {given} here: the id is in the "
                            "subject of the robot's mails about the game, as [GAMEID].\n")
            continue
        if all(c.verb in ("token", "signature") for c in commands):
            continue  # a token alone asks nothing
        game_commands(ctx, game, commands + [c for c in loose if c not in commands])


# -- reading a message ------------------------------------------------------------------------


def _headers(data: bytes) -> EmailMessage:
    end = re.search(rb"\r?\n\r?\n", data)
    section = data[: end.end()] if end else data
    return BytesParser(policy=email.policy.default).parsebytes(section[:MAX_BYTES], headersonly=True)


def _header(message: EmailMessage, name: str) -> str:
    """A header's text, whatever a stranger put in it ("" when absent or unreadable)."""
    try:
        value = message.get(name)
        return "" if value is None else str(value)
    except Exception:  # noqa: BLE001 — the email package raises many kinds on a malformed header
        raw = message.get_all(name, failobj=[]) if hasattr(message, "get_all") else []
        return str(raw[0]) if raw else ""


def _sender(value: str) -> tuple[str, str]:
    """The From: as a [players] name ("Ann <ann@example.org>") and its bare address, lower case;
    ("", "") when there is no usable address."""
    name, address = email.utils.parseaddr(value)
    if not ADDRESS.fullmatch(address or ""):
        return "", ""
    address = address.lower()
    name = re.sub(r"[<>\"\\,;:@()\[\]]", "", name.translate(CONTROL).replace("?", "")).strip()[:60]
    return (f"{name} <{address}>" if name else address), address


def _never_answered(head: EmailMessage, sender: str, robot: Robot) -> str | None:
    """Why a message must not be answered (RFC 3834), or None."""
    auto = _header(head, "Auto-Submitted").strip().lower()
    if auto and auto.split(";")[0].strip() != "no":
        return f"Auto-Submitted: {auto[:40]}"
    precedence = _header(head, "Precedence").strip().lower()
    if precedence in ("bulk", "list", "junk"):
        return f"Precedence: {precedence}"
    if not sender:
        return "no From: address to answer"
    if sender == robot.address:
        return "from the robot's own address"
    if DAEMONS.match(sender) or _header(head, "Return-Path").strip() == "<>":
        return "from a mail system"
    if _header(head, "List-Id") or _header(head, "List-Unsubscribe"):
        return "from a mailing list"
    return None


def _body(data: bytes) -> str:
    """The message's text: its first text/plain part that is no attachment ("" when none)."""
    if len(re.findall(rb"(?im)^content-type:\s*multipart/", data)) > MAX_PARTS:
        return ""
    try:
        message = BytesParser(policy=email.policy.default).parsebytes(data)
        for part in message.walk():
            if part.get_content_type() == "text/plain" and not part.is_attachment():
                payload = part.get_payload(decode=True) or b""
                charset = part.get_content_charset() or "utf-8"
                try:
                    return payload.decode(charset, errors="replace")
                except LookupError:  # a charset nobody knows
                    return payload.decode("utf-8", errors="replace")
    except (RecursionError, ValueError, TypeError, LookupError):
        return ""
    return ""
