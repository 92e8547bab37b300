"""Reminders (SPEC §15): in a game with a clock, the seat to move is reminded once when its
deadline is 3 days away and once when it is 1 day away, as `referee remind` words it. The
robot never claims time for anyone: a seat out of time gets no more reminders, and its
opponent may send `claim time`.

A ply's own mail tells the seat to move its time left, so thresholds already passed when the
ply is made count as reminded (turns.py marks them with the ply).
"""

from __future__ import annotations

import datetime as dt

from referee.errors import RefereeError
from referee.play.replay import Replay
from referee.record.clock import DAY
from referee.serve.letters import Context
from referee.serve.letters import game_mail, pictures, reminder_news
from referee.serve.state import Game

THRESHOLDS = (3, 1)  # days before the deadline


def due_thresholds(play: Replay, now: dt.datetime) -> list[int]:
    """The thresholds (days) the seat to move has passed at `now`: its deadline is nearer."""
    seat = play.to_move()
    if play.clock is None or seat is None:
        return []
    left = (play.clock.deadline(seat) - now).total_seconds()
    return [days for days in THRESHOLDS if left <= days * DAY]


def remind(ctx: Context, game: Game, play: Replay) -> bool:
    """Queue the reminder the game's seat to move is due, if one is: True when one was."""
    seat = play.to_move()
    due = [d for d in due_thresholds(play, ctx.now) if not ctx.store.reminded(game.id, play.plies, d)]
    seats = ctx.store.seats(game.id)
    if not due or seat not in seats:
        return False
    for days in due:
        ctx.decision.reminders.append((game.id, play.plies, days))
    if play.clock.left(seat, ctx.now, True) <= 0:
        return True  # out of time: the opponent may claim; the robot says nothing more
    try:
        subject, news = reminder_news(play, seat, min(due))
    except RefereeError:
        return True
    address = seats[seat].address
    message = game_mail(ctx.robot, play, game.short, seat, play.record.player_name(seat) or address,
                        news, None, pictures(play, game.short))
    del message["Subject"]
    message["Subject"] = f"[{game.short}] {subject}"
    ctx.send(address, message)
    return True
