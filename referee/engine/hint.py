"""The engine's advice on a record (SPEC §10): `hint`, the move the search finds for the seat
to move. A hint reads the record and never writes it.
"""

from __future__ import annotations

import time
from typing import Any

from referee.search.mcts import Search
from referee.search.solver import settle
from referee.errors import IllegalMoveError, within
from referee.text import plain, wrap_all
from referee.play.words import who
from referee.play.replay import Replay

DEFAULT_SECONDS = 3.0
SECONDS = (0.1, 600.0)  # the range `--seconds` takes (SPEC §10)
MIN_SECONDS = 0.05  # a search's least time, however little is left
LINES = (1, 10)  # the range `--lines` takes (SPEC §11)


def hint(play: Replay, seconds: float = DEFAULT_SECONDS, iterations: int | None = None,
         seed: int = 0, began: float | None = None, lines: int = 1,
         algorithm: str = "grave") -> dict[str, Any]:
    """`hint --json`: the move for the seat to move, its value for that seat (0–1), how many
    playouts went through it, the line the search expects, whether the value is proven (1.0:
    a forced win, the line then the forcing one; 0.0: lost against best play), the time it
    took, and `lines`: the `lines` moves tried most (SPEC §11), the first the hint's own.
    With `iterations`, the search stops after that many (the same answer every time).

    A game the solver can settle (crab: its deal is in the record) is asked first, for half
    the time: a proven win gives the first round of the winning line, so that following the
    hints stays on a winning line; otherwise the search looks for the best try, and the hint
    says whether the game is lost (`winnable` false) or not settled in time (null).

    `began`: when the command began (time.monotonic()), where reading the record took part of
    the seconds: the engine thinks for what is left of them (SPEC §14), 0.05 s at least."""
    if play.outcome() is not None:
        raise IllegalMoveError("the game is over: there is no move to hint")
    within("--seconds", seconds, SECONDS)
    within("--lines", lines, LINES, spec="")
    if began is not None:
        seconds = max(seconds - (time.monotonic() - began), MIN_SECONDS)
    exact = settle(play.game, play.state, seconds / 2, iterations)
    if exact is not None and exact.winnable:
        line = list(exact.line[:4])
        return {"move": exact.line[0], "seat": play.game.to_move(play.state), "value": 1.0,
                "visits": exact.searched, "line": line, "seconds": exact.seconds,
                "iterations": 0, "winnable": True, "proven": True,
                "lines": [{"move": exact.line[0], "value": 1.0, "visits": exact.searched,
                           "line": line, "proven": True}]}
    left = seconds - exact.seconds if exact is not None else seconds
    search = Search(play.game, play.state, seed=seed, algorithm=algorithm)
    found = search.run(seconds=None if iterations is not None else max(left, MIN_SECONDS),
                       iterations=iterations)
    advice = {
        "move": str(found.move),
        "seat": found.seat,
        "value": round(found.value, 4),
        "visits": found.visits,
        "line": list(found.line),
        "proven": found.proven,
        "seconds": round(found.seconds + (exact.seconds if exact is not None else 0.0), 3),
        "iterations": found.iterations,
        "lines": [{"move": str(c.move), "value": round(c.value, 4), "visits": c.visits,
                   "line": list(c.line), "proven": c.proven} for c in search.candidates(lines)],
    }
    if exact is not None:
        advice["winnable"] = exact.winnable
    return advice


def hint_lines(play: Replay, advice: dict[str, Any]) -> list[str]:
    """A hint in words, wrapped to a mail's width (a player's name is safe for a terminal)."""
    return wrap_all([plain(line) for line in _hint_lines(play, advice)])


def _figures(line: dict[str, Any]) -> str:
    """A move's figures in words: "wins 64 % of 12,000 playouts", or what is proven."""
    if line["proven"]:
        if line["value"] >= 1.0:
            return "wins by force: " + ", ".join(line["line"])
        if line["value"] <= 0.0:
            return "loses against best play (proven): " + ", ".join(line["line"])
        return "draws against best play (proven): " + ", ".join(line["line"])
    return f"wins {round(line['value'] * 100)} % of {line['visits']:,} playouts"


def _hint_lines(play: Replay, advice: dict[str, Any]) -> list[str]:
    """A hint in words: "Hint for Bo (seat 2): b e6 — wins 64 % of 12,000 playouts", then the
    line the search expects (or, proven, "wins by force: …" and the forcing line), then the
    other moves asked for with `--lines`."""
    seat = advice["seat"]
    name = who(play, seat)
    whom = name if name.startswith("Seat ") else f"{name} (seat {seat})"
    if advice.get("winnable"):  # the crab solver's
        rounds = len(advice["line"])
        return [f"Hint for {whom}: {advice['move']} — the game can be won, and this keeps it won",
                "Winning line: " + ", ".join(advice["line"]) + (" …" if rounds == 4 else ""),
                f"(the solver, {advice['visits']:,} positions in {advice['seconds']:.1f} s; "
                "`referee solve` gives the whole line)"]
    lines = [f"Hint for {whom}: {advice['move']} — {_figures(advice)}"]
    if len(advice["line"]) > 1 and not advice["proven"]:
        lines.append("Expected line: " + ", ".join(advice["line"]))
    others = advice.get("lines", [])[1:]
    if others:
        lines.append("Other moves tried:")
        for number, other in enumerate(others, 2):
            expected = "" if other["proven"] or len(other["line"]) < 2 else "; line " + ", ".join(other["line"][1:])
            lines.append(f"  {number}. {other['move']} — {_figures(other)}{expected}")
    if advice.get("winnable") is False:
        lines.append("The solver proves the game lost from here: no way on wins.")
    elif "winnable" in advice:
        lines.append("Whether the game can still be won was not settled in the time "
                     "(`referee solve` with more --seconds).")
    lines.append(f"({advice['iterations']:,} playouts in {advice['seconds']:.1f} s)")
    return lines
