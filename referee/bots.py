"""Bot seats (SPEC §10): seats the referee's engine plays. `referee new --bot SEAT[=SECONDS]`
writes the seat's `bot` table into [players] (sealed in digest 0, like a key); after every ply
that leaves a bot seat to move, the same `new`, `move` or `receive` appends the engine's reply,
stamped, in the one transaction, marked `bot = true`. In a cooperative game the engine places
for its seats within each round: the player gives the other seats' placements.

The engine searches for the bot's seconds of one core, so its replies are not reproducible:
a bot seat is an opponent to practise with. Its moves are written by the player's own referee,
so they prove nothing about the player's strength.
"""

from __future__ import annotations

from typing import Any

from referee import __version__
from referee.clock import now
from referee.engine.search import Search
from referee.errors import IllegalMoveError, NotationError, UsageError
from referee.render.header import who
from referee.replay import Replay
from referee.turn import TurnResult, take_turn

DEFAULT_SECONDS = 3.0
NAME = "Engine"  # a bot seat's name where --player gives none


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
        if not 0.1 <= seconds <= 600:
            raise UsageError(f"--bot {seat}={seconds:g}: the engine thinks 0.1–600 seconds a move")
    if len(set(chosen)) == count:
        what = "every seat" if count > 1 else "the only seat"
        raise UsageError(f"--bot: {what} would be the engine's, and a game needs a player "
                         "(to let engines play each other: referee match)")


def replies(play: Replay, notes: list[str] | None = None) -> TurnResult:
    """The engine's moves while a seat it plays is to move (a forced pass of the player can
    leave it to move again), each stamped when found. A game without a bot to move comes back
    as it was."""
    notes = [] if notes is None else notes
    bots = play.record.bots()
    while bots and not play.game.cooperative and play.to_move() in bots:
        seat = play.to_move()
        found = Search(play.game, play.state, seed=play.plies).run(seconds=bots[seat]["seconds"])
        done = take_turn(play, str(found.move), at=now(), bot=True)
        name = who(play, seat)
        engine = name if name == NAME else f"{name}, the engine,"
        notes += [f"{engine} plays {found.move} "
                  f"(it wins {round(found.value * 100)} % of {found.visits:,} playouts)."] + done.notes
        play = done.play
    return TurnResult(play, notes)


def partner_round(play: Replay, text: str) -> str:
    """A cooperative round whose other seats the engine places: the player's placements
    (`1: … | 3: …`) with the engine's for its seats, found seat by seat in order, as the
    round's whole entry."""
    game, state = play.game, play.state
    bots = play.record.bots()
    players = [seat for seat in play.seats if seat not in bots]
    parts = game.parse_part(state, text)
    if sorted(parts) != players:
        raise NotationError(
            f"give the placements of seats {', '.join(map(str, players))} ('1: 7 2,0 90'); "
            f"the engine places for seats {', '.join(map(str, bots))}")
    turn = game.begin_turn(state)
    for seat in play.seats:
        if seat in parts:
            turn = game.act(turn, parts[seat])
        else:
            if not game.legal_actions(turn):
                raise IllegalMoveError(f"seat {seat}, the engine's, has no placement left")
            search = Search(game, state, seed=play.plies, turn=turn)
            search.run(seconds=bots[seat]["seconds"])
            turn = game.act(turn, search.first_action())
    return str(game.end_turn(turn)[0])
