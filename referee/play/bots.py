"""Bot seats (SPEC §10, §14): seats the referee's engine plays. `referee new --bot SEAT[=SECONDS]`
writes the seat's `bot` table into [players] (sealed in digest 0, like a key); after every ply
that leaves a bot seat to move, the same `new` or `move` appends the engine's reply in the one
transaction, marked `bot = true` and stamped as the ply it answers (the engine takes no time on
the clock). In a cooperative game the engine places for its seats within each round: the player
gives the other seats' placements.

Nobody speaks for a bot seat (SPEC §14): its plies are the engine's moves and nothing else (no
resignation, draw, time claim or leave; replay.bot_fault), and a record needs a player.

A received record never makes the receiver's machine think: `receive` never runs the engine.
Where a record arrives with the engine's seat to move (a hand-typed record, or one whose sender
left the reply out), it is saved as it came, and the engine replies only when its owner asks,
with `referee move FILE` without a move; the same command lets it go on where one command's
thinking ran out (TURN_SECONDS).

The engine searches for the bot's seconds of one core, so its replies are not reproducible:
a bot seat is an opponent to practise with. Its moves are written by the player's own referee,
so they prove nothing about the player's strength.
"""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

from referee import __version__
from referee.record.clock import now
from referee.search.mcts import Search
from referee.errors import IllegalMoveError, NotationError, UsageError
from referee.record.values import BOT_SECONDS
from referee.play.words import who
from referee.play.replay import Replay
from referee.play.partner import winning_part
from referee.play.turn import TurnResult, take_turn

DEFAULT_SECONDS = 3.0
MIN_SECONDS = 0.05  # a search's least time, where the solver took the rest
NAME = "Engine"  # a bot seat's name where --player gives none
# One command's thinking, all the engine's replies together: where the player can only pass
# (Hermit, their stones used up) the engine moves again and again; past this, the command
# stops with the engine to move, and `referee move FILE` (without a move) lets it go on.
TURN_SECONDS = 60.0


def bot_table(seconds: float) -> dict[str, Any]:
    """The `bot` table of a seat the engine plays."""
    return {"engine": f"referee {__version__}", "seconds": seconds}


def check_bots(seats: list[tuple[int, float]], count: int) -> None:
    """`--bot` seats: known seats, each once, and a player left to play (engines against each
    other play in `referee match`)."""
    chosen = [seat for seat, _ in seats]
    if len(set(chosen)) != len(chosen):
        raise UsageError("--bot: a seat is given twice")
    for seat, seconds in seats:
        if not 1 <= seat <= count:
            raise UsageError(f"--bot {seat}: this game has seats 1–{count}")
        low, high = BOT_SECONDS
        if not low <= seconds <= high:
            raise UsageError(f"--bot {seat}={seconds:g}: the engine thinks {low:g}–{high:g} seconds a reply")
    if len(set(chosen)) == count:
        what = "every seat" if count > 1 else "the only seat"
        raise UsageError(f"--bot: {what} would be the engine's, and a game needs a player "
                         "(to let engines play each other: referee match)")


def replies(play: Replay, notes: list[str] | None = None) -> TurnResult:
    """The engine's moves while a seat it plays is to move (a forced pass of the player can
    leave it to move again), each stamped as the ply it answers (SPEC §14), thinking at most
    TURN_SECONDS in all (the first reply always: its seconds are at most that). A game without
    a bot to move comes back as it was."""
    notes = [] if notes is None else notes
    bots = play.record.bots()
    began, replied = time.monotonic(), 0
    # Where the engine replies again and again (the player cannot place), each search goes on
    # from the last one's tree: the moves since (its own reply, the player's forced passes)
    # are played in it (SPEC §11).
    search, seen = None, 0
    while bots and not play.game.cooperative and play.to_move() in bots:
        seat = play.to_move()
        seconds = bots[seat]["seconds"]
        if replied and time.monotonic() - began + seconds > TURN_SECONDS:
            notes.append(f"{who(play, seat)} is still to move: this command has let the engine think "
                         f"{TURN_SECONDS:g} seconds. To let it go on: referee move "
                         f"{play.record.path or 'FILE'} (without a move).")
            break
        since = [ply.move for ply in play.line[seen + 1:]]
        if search is None or not search.advance(since, play.state):
            search = Search(play.game, play.state, seed=play.plies)
        found = search.run(seconds=seconds)
        seen = play.plies
        done = take_turn(play, str(found.move), at=_answered_stamp(play), bot=True)
        replied += 1
        name = who(play, seat)
        engine = name if name == NAME else f"{name}, the engine,"
        notes += [f"{engine} plays {found.move} "
                  f"(it wins {round(found.value * 100)} % of {found.visits:,} playouts)."] + done.notes
        play = done.play
    return TurnResult(play, notes)


def _answered_stamp(play: Replay) -> dt.datetime | None:
    """The stamp of the engine's reply: that of the ply it answers (it takes no time); at the
    start, the clock's start, or now in a game without a clock."""
    if play.record.moves:
        return play.record.moves[-1].at
    return play.record.clock["start"] if play.record.clock is not None else now()


def partner_round(play: Replay, text: str) -> str:
    """A cooperative round whose other seats the engine places: the player's placements
    (`1: … | 3: …`) with the engine's for its seats, as the round's whole entry. Where the
    solver proves a winning round with the player's placements, the engine's seats play their
    part of it (partner.py, SPEC §11); only otherwise does the search choose, seat by seat."""
    game, state = play.game, play.state
    bots = play.record.bots()
    players = [seat for seat in play.seats if seat not in bots]
    parts = game.parse_part(state, text)
    if sorted(parts) != players:
        raise NotationError(
            f"give the placements of seats {', '.join(map(str, players))} ('1: 7 2,0 90'); "
            f"the engine places for seats {', '.join(map(str, bots))}")
    for seat, place in parts.items():  # the player's own placements judged before the engine thinks
        reason = game.why_not(state, seat, place)
        if reason:
            raise IllegalMoveError(reason)
    began = time.monotonic()
    seconds = min(bots[seat]["seconds"] for seat in play.seats if seat in bots)
    proven = winning_part(game, state, parts, [seat for seat in play.seats if seat in bots], seconds)
    spent = time.monotonic() - began
    turn = game.begin_turn(state)
    for seat in play.seats:
        if seat in parts:
            turn = game.act(turn, parts[seat])
        elif proven is not None:
            turn = game.act(turn, proven[seat])
        else:
            if not game.legal_actions(turn):
                raise IllegalMoveError(f"seat {seat}, the engine's, has no placement left")
            search = Search(game, state, seed=play.plies, turn=turn)
            search.run(seconds=max(bots[seat]["seconds"] - spent, MIN_SECONDS))
            turn = game.act(turn, search.first_action())
    return str(game.end_turn(turn)[0])
