"""Diagrams of a replayed game, whatever the game: the words around the board come from the
replay (play/words.py), the board itself from the drawer of the picture's board style.

A game's `picture` hook returns plain data whose `style` says what kind of board it shows:
"grid" (the hex-hex and square boards of odd, dustin, hermit and harmijan, referee.picture),
"hermetica" (the Hermetica mat) or "crab" (cards on a table). Each style has one drawer, a
module of referee.render with these hooks:
  text(picture, head) -> str     the position as text for a mail body
  svg(picture, head, palette) -> str   the position as SVG to attach, in a palette of
                                 render/palette.py (None: the default)
  paper(game, options, picture, paper, palette) -> str   optional: the blank board as a
                                 printable SVG sheet in millimetres; a game without it has no
                                 board.
  svg(picture, head, palette, bare=True) the board alone, for the review page (which
                                 writes the words around it as text)
  lines(picture, head) -> list[str]   optional: the words the SVG writes under the board after
                                 the last move (what it did, the status), for the review
                                 page; without it, the header's status lines.
  key(picture, head, palette) -> list[(swatch SVG or None, words)]   the legend, for the
                                 review page to write as text.
  words(picture) -> str          the position in words (every SVG's <desc>), for the review
                                 page's panel.
`picture` is whatever the game's `picture` and `blank_picture` hooks return; only its own
drawer looks inside it.
"""

from __future__ import annotations

import datetime as dt
from types import ModuleType
from typing import Any, Mapping, NamedTuple

from referee.errors import UsageError
from referee.games import Game
from referee.play.words import Header, header
from referee.play.replay import Replay


# Each drawer is imported when a picture of its style is first drawn: the Hermetica and crab
# drawers load their games' view models, which no other game needs.

def _grid() -> ModuleType:
    from referee.render.drawers import grid
    return grid


def _hermetica() -> ModuleType:
    from referee.render.drawers import hermetica
    return hermetica


def _crab() -> ModuleType:
    from referee.render.drawers import crab
    return crab


DRAWERS = {"grid": _grid, "hermetica": _hermetica, "crab": _crab}


def drawer(picture: Any) -> ModuleType:
    """The drawer of a picture: the one of its board style."""
    return DRAWERS[picture.style]()


def text_diagram(play: Replay, ply: int | None = None, now: dt.datetime | None = None) -> str:
    """The position after `ply` (default: the last) as text for a mail body; a clock as it
    stands at `now`."""
    picture, head = _picture(play, ply, now)
    return drawer(picture).text(picture, head)


def svg_diagram(play: Replay, ply: int | None = None, now: dt.datetime | None = None,
                palette: str | None = None) -> str:
    """The position after `ply` (default: the last) as an SVG picture to attach."""
    picture, head = _picture(play, ply, now)
    return drawer(picture).svg(picture, head, palette)


class Drawn(NamedTuple):
    """One ply drawn for the review page: the board alone as SVG, the words around it, the
    lines under it (the drawer's `lines` hook) and the legend (its `key` hook)."""

    svg: str
    head: Header
    lines: list[str]
    key: list[tuple[str | None, str]]
    words: str


def drawn(play: Replay, ply: int, palette: str | None = None) -> Drawn:
    """The position after `ply` as SVG, with its words, the picture made once for both."""
    picture, head = _picture(play, ply, None)  # a clock as it stood when the ply was made
    module = drawer(picture)
    lines = getattr(module, "lines", None)
    return Drawn(module.svg(picture, head, palette, bare=True), head,
                 lines(picture, head) if lines else list(head.status), module.key(picture, head, palette),
                 module.words(picture))


def _picture(play: Replay, ply: int | None, now: dt.datetime | None) -> tuple[Any, Any]:
    ply = play.plies if ply is None else ply
    picture = play.game.picture(play.position(ply), play.last_move(ply))
    return picture, header(play, ply, picture, now)


def paper_board(game: Game, options: Mapping[str, Any], setup: Mapping[str, Any], paper: str,
                palette: str | None = None) -> str:
    """The blank board to print, true to size. `setup` holds the game's data files, loaded
    (the board file of Hermetica): no drawer reads a file."""
    picture = game.blank_picture(options, setup)
    sheet = None if picture is None else getattr(drawer(picture), "paper", None)
    if sheet is None:
        raise UsageError(f"{game.name} has no board to print")
    return sheet(game, options, picture, paper, palette)
