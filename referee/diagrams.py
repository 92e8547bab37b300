"""The diagram of one position (SPEC §7, §8): as text for a mail body or the terminal, as SVG
to attach, as PNG for mail clients that show no SVG, with the game's clock as it stands.

Drawing loads Jinja (the game's drawer and its templates); the command line imports this
module only in the commands that draw (cli.py). resvg is imported where a PNG is made.
"""

from __future__ import annotations

import datetime as dt

from referee.clock import now
from referee.render import diagram as drawing
from referee.replay import Replay


def text_diagram(play: Replay, ply: int | None = None, palette: str | None = None) -> str:
    """The diagram after `ply` (default the last) as text: the same in every palette."""
    return drawing.text_diagram(play, ply, _clock_moment(play, ply))


def svg_diagram(play: Replay, ply: int | None = None, palette: str | None = None) -> str:
    """The diagram after `ply` as SVG, in `palette` (render/palette.py; None: the default)."""
    return drawing.svg_diagram(play, ply, _clock_moment(play, ply), palette)


def png_diagram(play: Replay, ply: int | None = None, palette: str | None = None) -> bytes:
    return to_png(svg_diagram(play, ply, palette))


def to_png(svg: str) -> bytes:
    """An SVG picture as PNG, for mail clients that show no SVG."""
    from referee.render.png import svg_to_png  # resvg: only what draws a PNG loads it

    return svg_to_png(svg)


def _clock_moment(play: Replay, ply: int | None) -> dt.datetime | None:
    """When a diagram shows the clock: now at the last ply; at an earlier ply, as it stood
    when that ply was made (None: the drawer takes the ply's own stamp)."""
    if play.clock is None or ply not in (None, play.plies):
        return None
    return now()
