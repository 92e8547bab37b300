"""The diagram of one position (SPEC §7, §8): as text for a mail body or the terminal, as SVG
to attach, as PNG for mail clients that show no SVG, with the game's clock as it stands. The
drawing itself is render/drawing.py's, by the drawer of the picture's style.

Drawing loads Jinja (the game's drawer and its templates); the command line imports this
module only in the commands that draw. resvg is imported where a PNG is made.
"""

from __future__ import annotations

import datetime as dt

from referee.record.clock import now
from referee.render import drawing
from referee.play.replay import Replay


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
    return svg_to_png(svg)


PNG_FONTS = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")


def svg_to_png(svg: str) -> bytes:
    """resvg (through resvg-py, a self-contained wheel) draws the PNG with the DejaVu fonts
    shipped in referee/data/fonts and never the machine's own, so the same diagram gives the
    same bytes everywhere."""
    from importlib import resources  # with resvg: only what draws a PNG loads them

    import resvg_py

    folder = resources.files("referee.data").joinpath("fonts")
    with resources.as_file(folder) as path:
        data = resvg_py.svg_to_bytes(
            svg_string=svg,
            skip_system_fonts=True,
            font_files=[str(path / name) for name in PNG_FONTS],
            sans_serif_family="DejaVu Sans",
            dpi=96.0,  # millimetre sizes (printable sheets) need a resolution
        )
    return bytes(data)


def _clock_moment(play: Replay, ply: int | None) -> dt.datetime | None:
    """When a diagram shows the clock: now at the last ply; at an earlier ply, as it stood
    when that ply was made (None: the drawer takes the ply's own stamp)."""
    if play.clock is None or ply not in (None, play.plies):
        return None
    return now()
