"""The words around a board, the same in the text and the SVG diagram: title, players, last
move, the game's status lines and the result. A module of its own so that `referee status`,
which prints these words and no board, loads no drawing code.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any, NamedTuple

from referee.clock import sentences
from referee.errors import CONTROL

if TYPE_CHECKING:
    from referee.replay import Replay

# The control characters and line separators of error messages, and the two characters XML
# forbids outright, each to "?".
_CONTROL = {**CONTROL, 0xFFFE: "?", 0xFFFF: "?"}


def plain(value: Any) -> Any:
    """Make a value safe for a diagram or a terminal: control characters become '?', so a
    player's name can neither inject terminal escapes or fake lines into a mail nor make an
    SVG unreadable XML. (In SVG, Jinja's autoescaping then takes care of markup.)"""
    if isinstance(value, str):
        return value.translate(_CONTROL)
    return value


def option_summary(options: dict[str, object]) -> str:
    return ", ".join(f"{k} {v}" for k, v in options.items())


class Header(NamedTuple):
    """The words around a board: the same in text and SVG."""

    title: str
    players: list[str]
    legend: list[tuple[str, str, str]]  # (kind key, glyph, label)
    last: str | None
    status: list[str]
    result: str


def header(play: Replay, ply: int, picture: Any, now: dt.datetime | None = None) -> Header:
    """The words around the board after `ply`. A game with a clock shows it as it stood at
    `now` (by default, when that ply was made: a look back)."""
    game, record = play.game, play.record
    kinds = getattr(picture, "kinds", ())
    glyphs = {kind.seat: kind.glyph for kind in kinds if kind.seat}
    players = []
    for seat in play.seats:
        line = f"Seat {seat}" + (f" ({glyphs[seat]})" if seat in glyphs else "")
        name = record.player_name(seat)
        players.append(f"{line}: {name}" if name else line)
    last = None
    if ply:
        last = f"Ply {ply}: {play.last_move(ply)} (seat {play.movers[ply - 1]})"
    return Header(
        title=f"{game.name} ({game.credit}) · {option_summary(play.options)}",
        players=players,
        legend=[(k.key, k.glyph, k.label) for k in kinds],
        last=last,
        status=game.status_lines(play.states[ply]) + standing_lines(play, ply, now),
        result=play.result_sentence(ply),
    )


def standing_lines(play: Replay, ply: int, now: dt.datetime | None) -> list[str]:
    """What stands after `ply` besides the position (SPEC §6): a draw offer awaiting its
    answer, and the clock as it stands at `now` (by default when the ply was made)."""
    standing, to_move = play.standing[ply], play.to_move(ply)
    lines = []
    if standing.offer is not None and to_move is not None:
        lines.append(f"Seat {standing.offer} offers a draw: seat {to_move} may answer 'accept draw', "
                     "or play on to decline")
    if standing.clock is not None:
        names = {seat: f"Seat {seat}" for seat in (1, 2)}
        lines += sentences(standing.clock, to_move, standing.clock.last if now is None else now, names)
    return lines
