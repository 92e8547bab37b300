"""The engine's advice on a record (SPEC §10): `hint`, the move the search finds for the seat
to move. A hint reads the record and never writes it.
"""

from __future__ import annotations

from typing import Any

from referee.engine.search import Search
from referee.errors import IllegalMoveError, UsageError
from referee.render.header import who
from referee.replay import Replay

DEFAULT_SECONDS = 3.0
SECONDS = (0.1, 600.0)  # the range `--seconds` takes (SPEC §10)


def check_seconds(seconds: float) -> float:
    low, high = SECONDS
    if not low <= seconds <= high:
        raise UsageError(f"--seconds must be {low:g}–{high:g}, not {seconds:g}")
    return seconds


def hint(play: Replay, seconds: float = DEFAULT_SECONDS, iterations: int | None = None,
         seed: int = 0) -> dict[str, Any]:
    """`hint --json`: the move for the seat to move, its value for that seat (0–1), how many
    playouts went through it, the line the search expects and the time it took. With
    `iterations`, the search stops after that many (the same answer every time)."""
    if play.outcome() is not None:
        raise IllegalMoveError("the game is over: there is no move to hint")
    check_seconds(seconds)
    found = Search(play.game, play.state, seed=seed).run(
        seconds=None if iterations is not None else seconds, iterations=iterations)
    return {
        "move": str(found.move),
        "seat": found.seat,
        "value": round(found.value, 4),
        "visits": found.visits,
        "line": list(found.line),
        "seconds": round(found.seconds, 3),
        "iterations": found.iterations,
    }


def hint_lines(play: Replay, advice: dict[str, Any]) -> list[str]:
    """A hint in words: "Hint for Bo (seat 2): b e6 — wins 64 % of 12,000 playouts", then the
    line the search expects."""
    seat = advice["seat"]
    name = who(play, seat)
    whom = name if name.startswith("Seat ") else f"{name} (seat {seat})"
    lines = [f"Hint for {whom}: {advice['move']} — wins {round(advice['value'] * 100)} % of "
             f"{advice['visits']:,} playouts"]
    if len(advice["line"]) > 1:
        lines.append("Expected line: " + ", ".join(advice["line"]))
    lines.append(f"({advice['iterations']:,} playouts in {advice['seconds']:.1f} s)")
    return lines
