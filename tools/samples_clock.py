"""Sample games with a clock (SPEC §6), written the way `referee move` writes them: every move
through the library's turn, stamped, sealed, with the game's id and its [clock].

- an ICCF game (10 moves in 50 days) in progress, with leave declared by both seats;
- a bank game (3 days + 1 a move, at most 30) played to its end;
- a game won on time: Bo lets his bank run out and Ann claims it;
- a game drawn by agreement: an offer, then `accept draw`.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
import sys
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

from referee.record.clock import Control  # noqa: E402
from referee.games import GAMES  # noqa: E402
from referee.record.values import Record  # noqa: E402
from referee.play.replay import Replay, start  # noqa: E402
from referee.play.turn import take_turn  # noqa: E402
from sample_people import ANN, BO, CHIDI, DAGNY, UTC  # noqa: E402

FOLDER = "clock"
DAY = dt.timedelta(days=1)


def _new(path: str, game: str, options: dict[str, Any], players: tuple[str, str], control: str,
         leave: float, begin: dt.datetime) -> Replay:
    """As `referee new … --clock CONTROL --leave DAYS` at `begin`, with an id drawn from the
    file's name so that the sample is the same at every run."""
    game_id = hashlib.sha256(path.encode("utf-8")).hexdigest()[:32]
    resolved = GAMES[game].resolve_options(options)
    players_table = {seat: {"name": name} for seat, name in enumerate(players, 1)}
    return start(Record(game, resolved, players_table, id=game_id,
                        clock=Control.parse(control, leave).table(begin)))


def _random_moves(play: Replay, rng: random.Random, stamps: Callable[[int], dt.datetime],
                  count: int | None = None, comments: dict[int, str] | None = None) -> Replay:
    """Random legal moves (all of them, or `count`), ply k stamped stamps(k)."""
    comments = comments or {}
    while play.outcome() is None and (count is None or count > 0):
        ply = play.plies + 1
        move = str(rng.choice(play.game.legal_moves(play.state)))
        play = take_turn(play, move, at=stamps(ply), comment=comments.get(ply)).play
        count = None if count is None else count - 1
    return play


def iccf_with_leave() -> Replay:
    path = f"{FOLDER}/odd-iccf-leave-in-progress.toml"
    begin = dt.datetime(2026, 10, 1, 9, 0, tzinfo=UTC)
    play = _new(path, "odd", {}, (ANN, BO), "10/50d", 14, begin)
    rng = random.Random(61)
    play = _random_moves(play, rng, lambda k: begin + k * 2 * DAY, count=8,
                         comments={1: "Ten moves in fifty days: plenty of time to think."})
    # Ann goes on holiday: declared with her move, not charged to her clock.
    play = take_turn(play, str(rng.choice(play.game.legal_moves(play.state))), at=begin + 16 * DAY,
                     comment="Away over the holidays; back on the 3rd.",
                     leave=(dt.datetime(2026, 12, 20, tzinfo=UTC), dt.datetime(2027, 1, 3, tzinfo=UTC))).play
    play = _random_moves(play, rng, lambda k: begin + 16 * DAY + (k - 9) * DAY, count=2)
    # Bo takes a few days in November, declared ahead with his move.
    play = take_turn(play, str(rng.choice(play.game.legal_moves(play.state))), at=begin + 21 * DAY,
                     leave=(dt.datetime(2026, 11, 1, tzinfo=UTC), dt.datetime(2026, 11, 5, tzinfo=UTC))).play
    return play


def bank_finished() -> Replay:
    path = f"{FOLDER}/odd-4-bank-finished.toml"
    begin = dt.datetime(2026, 9, 1, 18, 0, tzinfo=UTC)
    play = _new(path, "odd", {"size": 4, "min_group": 3}, (CHIDI, DAGNY), "3d+1d/30d", 0, begin)
    rng = random.Random(7)
    # Quick replies, a few hours each, and one slow one of two and a half days.
    return _random_moves(play, rng, lambda k: begin + k * dt.timedelta(hours=5) + (2.5 * DAY if k > 12 else dt.timedelta()))


def won_on_time() -> Replay:
    path = f"{FOLDER}/odd-won-on-time.toml"
    begin = dt.datetime(2026, 8, 3, 8, 0, tzinfo=UTC)
    play = _new(path, "odd", {}, (ANN, BO), "2d+1d/5d", 0, begin)
    rng = random.Random(17)
    play = _random_moves(play, rng, lambda k: begin + k * 12 * dt.timedelta(hours=1), count=9)
    # Bo, to move, lets his clock run down: Ann claims the game as soon as it is empty.
    left = play.clock.left(play.to_move(), play.clock.last, True)
    claim_at = play.clock.last + dt.timedelta(seconds=left)
    return take_turn(play, "claim time", at=claim_at, comment="Sorry, Bo: the clock is the clock.").play


def draw_agreed() -> Replay:
    path = f"{FOLDER}/dustin-draw-agreed.toml"
    begin = dt.datetime(2026, 7, 6, 20, 0, tzinfo=UTC)
    play = _new(path, "dustin", {}, (CHIDI, BO), "10/30d", 0, begin)
    rng = random.Random(3)
    play = _random_moves(play, rng, lambda k: begin + k * DAY, count=20)
    play = take_turn(play, str(rng.choice(play.game.legal_moves(play.state))), at=begin + 21 * DAY,
                     offer_draw=True, comment="The count will not move much now: a draw?").play
    return take_turn(play, "accept draw", at=begin + 22 * DAY, comment="Agreed, thank you for the game.").play


SAMPLES = {
    f"{FOLDER}/odd-iccf-leave-in-progress.toml": (iccf_with_leave, "in progress"),
    f"{FOLDER}/odd-4-bank-finished.toml": (bank_finished, "finished"),
    f"{FOLDER}/odd-won-on-time.toml": (won_on_time, "seat 2 ran out of time"),
    f"{FOLDER}/dustin-draw-agreed.toml": (draw_agreed, "draw agreed"),
}


def render() -> dict[str, str]:
    texts = {}
    for path, (make, expect) in SAMPLES.items():
        play = make()
        outcome = play.outcome()
        ended = "in progress" if outcome is None else outcome.reason
        if expect not in (ended, "finished" if outcome is not None and not play.ended else None):
            raise SystemExit(f"{path}: the sample is meant to be {expect!r} but is {ended!r}")
        texts[path] = play.record.to_toml()
    return texts
