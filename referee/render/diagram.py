"""Diagrams of a replayed game, whatever the game: the words around the board come from the
replay (render/header.py), the board itself from the drawer the game's registry line names.

A drawer is a module of referee.render with three hooks:
  text(picture, head) -> str     the position as text for a mail body
  svg(picture, head) -> str      the position as SVG to attach
  paper(game, options, picture, paper) -> str   optional: the blank board as a printable
                                 SVG sheet in millimetres; a game without it has no board.
  lines(picture, head) -> list[str]   optional: the words the SVG writes under the board after
                                 the last move (what it did, the status), for the review
                                 page; without it, the header's status lines.
`picture` is whatever the game's `picture` and `blank_picture` hooks return; only its own
drawer looks inside it.
"""

from __future__ import annotations

import datetime as dt
from importlib import import_module
from types import ModuleType
from typing import Any, Mapping, NamedTuple

from referee.errors import UsageError
from referee.games import REGISTRY, Game
from referee.render.header import Header, header
from referee.replay import Replay


def drawer(game: Game) -> ModuleType:
    """The module that draws `game`, imported when first needed: a game's drawer loads that
    game's view models, which no other game needs."""
    return import_module(f"referee.render.{REGISTRY[game.id].drawer}")


def text_diagram(play: Replay, ply: int | None = None, now: dt.datetime | None = None) -> str:
    """The position after `ply` (default: the last) as text for a mail body; a clock as it
    stands at `now`."""
    picture, head = _picture(play, ply, now)
    return drawer(play.game).text(picture, head)


def svg_diagram(play: Replay, ply: int | None = None, now: dt.datetime | None = None) -> str:
    """The position after `ply` (default: the last) as an SVG picture to attach."""
    picture, head = _picture(play, ply, now)
    return drawer(play.game).svg(picture, head)


class Drawn(NamedTuple):
    """One ply drawn for the review page: the SVG, the words around the board, and the lines
    under it (the drawer's `lines` hook)."""

    svg: str
    head: Header
    lines: list[str]


def drawn(play: Replay, ply: int) -> Drawn:
    """The position after `ply` as SVG, with its words, the picture made once for both."""
    picture, head = _picture(play, ply, None)  # a clock as it stood when the ply was made
    module = drawer(play.game)
    lines = getattr(module, "lines", None)
    return Drawn(module.svg(picture, head), head, lines(picture, head) if lines else list(head.status))


def _picture(play: Replay, ply: int | None, now: dt.datetime | None) -> tuple[Any, Any]:
    ply = play.plies if ply is None else ply
    picture = play.game.picture(play.position(ply), play.last_move(ply))
    return picture, header(play, ply, picture, now)


def paper_board(game: Game, options: Mapping[str, Any], setup: Mapping[str, Any], paper: str) -> str:
    """The blank board to print, true to size. `setup` holds the game's data files, loaded
    (the board file of Hermetica): no drawer reads a file."""
    sheet = getattr(drawer(game), "paper", None)
    picture = game.blank_picture(options, setup)
    if sheet is None or picture is None:
        raise UsageError(f"{game.name} has no board to print")
    return sheet(game, options, picture, paper)
