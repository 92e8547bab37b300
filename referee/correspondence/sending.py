"""Sending a game by mail (SPEC §4, §6, §8): the message that carries a game to the next player,
and the reminder to a seat whose clock runs, each with the diagram in the body and the record,
the SVG and the PNG attached (correspondence/mail.py builds the message).

Loading this module loads the email package and Jinja (a mail carries the diagram); the command
line imports it only in `mail` and `remind`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.correspondence.mail import build_message, conditional_news, correspondents
from referee.errors import UsageError
from referee.play.choices import seat_named
from referee.play.replay import Replay, replay
from referee.play.reports import record_in
from referee.play.words import result_words, who
from referee.record.clock import now, short_words, stamp, words
from referee.correspondence.deadlines import calendar, has_deadline, write_calendar
from referee.record.files import check_output, read_input
from referee.render.diagram import svg_diagram, text_diagram, to_png
from referee.render.show import review_page
from referee.text import plain, wrap

ATTACHMENTS = ("html",)


def mail(path: str, to: str | None, output: str | None = None, force: bool = False,
         attach: list[str] | None = None, palette: str | None = None, seat: str | None = None):
    """`referee mail`: the message to send, as an EmailMessage (the record read once), from
    the seat whose copy it is (`seat`, --as, else the seat of the last ply written by hand) to
    the other (SPEC §12). `attach` names extra attachments: "html", the review page of the
    whole game; the pictures are drawn in `palette` (SPEC §8b; None: the default)."""
    for extra in attach or []:
        if extra not in ATTACHMENTS:
            raise UsageError(f"--attach takes {', '.join(ATTACHMENTS)}, not {extra!r}")
    check_output(output, force)
    data = read_input(path, "record")
    play = replay(record_in(data, path))
    sender, seats = correspondents(play, seat_named(play, seat) if seat is not None else None)
    name = Path(path).name
    news = "".join(plain(line) + "\n" for line in wrap(" ".join(conditional_news(play, sender)))
                   if line)
    receive = f"  referee receive THIS-MESSAGE.eml --mine {name}\n"
    if play.to_move() is not None and play.to_move() not in seats:
        # The sender is still to move (a conditional reply gave the move back): this mail
        # keeps the other copy in step, and nothing is asked of its reader yet.
        answer = "\nThe record is attached. To keep your copy in step:\n" + receive
    else:
        answer = ("\nThe record is attached. To answer:\n" + receive +
                  f"  referee move {name} \"<your move>\"\n  referee mail {name} -o reply.eml\n")
    body = text_diagram(play) + (news and "\n" + news) + answer
    page = review_page(play, palette=palette) if "html" in (attach or []) else None
    if page is not None:
        body += "The review page of the whole game is attached: open it in a web browser.\n"
    return _message(play, data, name, body, to, palette, html=page, seats=seats, sender=sender)


def remind(path: str, to: str | None = None, output: str | None = None, force: bool = False,
           palette: str | None = None, ics: str | None = None):
    """`referee remind`: a reminder to the seat to move of a game with a clock, with its time
    left and deadline (SPEC §6), the deadline attached as a calendar event and, with `ics`,
    written there too (SPEC §12)."""
    check_output(output, force)
    check_output(ics, force)
    data = read_input(path, "record")
    play = replay(record_in(data, path))
    seat, clock = play.to_move(), play.clock
    if clock is None:
        raise UsageError(f"{path}: the game has no clock: there is no time to remind of")
    if seat is None:
        raise UsageError(f"{path}: the game is over ({result_words(play)}): nobody is to move")
    name = Path(path).name
    title, news = reminder_words(play, seat, now())
    news = "\n".join(plain(line) for line in wrap(news))
    body = (news + "\n\n" + text_diagram(play) + "\nTo answer:\n"
            f"  referee move {name} \"<your move>\"\n  referee mail {name} -o reply.eml\n")
    if ics is not None:
        write_calendar(play, path, ics, True)
    # From the seat waiting for the move (clocks are for two seats).
    return _message(play, data, name, body, to, palette, title=title, seats=[seat], sender=3 - seat)


def reminder_words(play: Replay, seat: int, moment) -> tuple[str, str]:
    """A reminder's subject and its first sentence, for `seat` (to move in a game with a clock)
    at `moment`: its time left and its deadline, or that its time ran out (SPEC §6). `remind`
    and the robot's reminders (serve/reminders.py) say the same."""
    left = play.clock.left(seat, moment, True)
    when = stamp(play.clock.deadline(seat))
    if left > 0:
        return (f"Reminder: {play.game.name}, your move ({short_words(left)} left, until {when})",
                f"{who(play, seat)}, it is your move in {play.game.name}: {words(left)} left, until {when}.")
    return (f"Reminder: {play.game.name}, your move (out of time since {when})",
            f"{who(play, seat)}, it is your move in {play.game.name}, and your time ran out at {when}: "
            "your opponent may claim the game (claim time).")


def _message(play: Replay, data: bytes, name: str, body: str, to: str | None, palette: str | None,
             **extra: Any):
    picture = svg_diagram(play, palette=palette)
    # A game with a clock carries the deadline of the seat to move for the calendar (SPEC §12).
    event = calendar(play, now(), name) if has_deadline(play) else None
    return build_message(play, record_name=name, record_data=data, body=body, svg=picture,
                         png=to_png(picture), to=to, now=now(), calendar=event, **extra)
