"""The engine's advice on a record (SPEC §10): `hint`, the move the search finds for the seat
to move. A hint reads the record and never writes it.
"""

from __future__ import annotations

import time
from typing import Any

from referee.search.mcts import Search
from referee.search.solver import settle
from referee.errors import IllegalMoveError, UsageError
from referee.text import plain, wrap_all
from referee.play.words import who
from referee.play.replay import Replay

DEFAULT_SECONDS = 3.0
SECONDS = (0.1, 600.0)  # the range `--seconds` takes (SPEC §10)
MIN_SECONDS = 0.05  # a search's least time, however little is left


def check_seconds(seconds: float) -> float:
    low, high = SECONDS
    if not low <= seconds <= high:
        raise UsageError(f"--seconds must be {low:g}–{high:g}, not {seconds:g}")
    return seconds


def hint(play: Replay, seconds: float = DEFAULT_SECONDS, iterations: int | None = None,
         seed: int = 0, began: float | None = None) -> dict[str, Any]:
    """`hint --json`: the move for the seat to move, its value for that seat (0–1), how many
    playouts went through it, the line the search expects and the time it took. With
    `iterations`, the search stops after that many (the same answer every time).

    A game the solver can settle (crab: its deal is in the record) is asked first, for half
    the time: a proven win gives the first round of the winning line, so that following the
    hints stays on a winning line; otherwise the search looks for the best try, and the hint
    says whether the game is lost (`winnable` false) or not settled in time (null).

    `began`: when the command began (time.monotonic()), where reading the record took part of
    the seconds: the engine thinks for what is left of them (SPEC §14), 0.05 s at least."""
    if play.outcome() is not None:
        raise IllegalMoveError("the game is over: there is no move to hint")
    check_seconds(seconds)
    if began is not None:
        seconds = max(seconds - (time.monotonic() - began), MIN_SECONDS)
    exact = settle(play.game, play.state, seconds / 2, iterations)
    if exact is not None and exact.winnable:
        return {"move": exact.line[0], "seat": play.game.to_move(play.state), "value": 1.0,
                "visits": exact.searched, "line": list(exact.line[:4]), "seconds": exact.seconds,
                "iterations": 0, "winnable": True, "proven": True}
    left = seconds - exact.seconds if exact is not None else seconds
    found = Search(play.game, play.state, seed=seed).run(
        seconds=None if iterations is not None else max(left, MIN_SECONDS), iterations=iterations)
    advice = {
        "move": str(found.move),
        "seat": found.seat,
        "value": round(found.value, 4),
        "visits": found.visits,
        "line": list(found.line),
        "seconds": round(found.seconds + (exact.seconds if exact is not None else 0.0), 3),
        "iterations": found.iterations,
    }
    if exact is not None:
        advice["winnable"] = exact.winnable
    return advice


def hint_lines(play: Replay, advice: dict[str, Any]) -> list[str]:
    """A hint in words, wrapped to a mail's width (a player's name is safe for a terminal)."""
    return wrap_all([plain(line) for line in _hint_lines(play, advice)])


def _hint_lines(play: Replay, advice: dict[str, Any]) -> list[str]:
    """A hint in words: "Hint for Bo (seat 2): b e6 — wins 64 % of 12,000 playouts", then the
    line the search expects."""
    seat = advice["seat"]
    name = who(play, seat)
    whom = name if name.startswith("Seat ") else f"{name} (seat {seat})"
    if advice.get("proven"):
        rounds = len(advice["line"])
        return [f"Hint for {whom}: {advice['move']} — the game can be won, and this keeps it won",
                "Winning line: " + ", ".join(advice["line"]) + (" …" if rounds == 4 else ""),
                f"(the solver, {advice['visits']:,} positions in {advice['seconds']:.1f} s; "
                "`referee solve` gives the whole line)"]
    lines = [f"Hint for {whom}: {advice['move']} — wins {round(advice['value'] * 100)} % of "
             f"{advice['visits']:,} playouts"]
    if len(advice["line"]) > 1:
        lines.append("Expected line: " + ", ".join(advice["line"]))
    if advice.get("winnable") is False:
        lines.append("The solver proves the game lost from here: no way on wins.")
    elif "winnable" in advice:
        lines.append("Whether the game can still be won was not settled in the time "
                     "(`referee solve` with more --seconds).")
    lines.append(f"({advice['iterations']:,} playouts in {advice['seconds']:.1f} s)")
    return lines
