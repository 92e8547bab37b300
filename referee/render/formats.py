"""The formats the referee writes (SPEC §8), in one table: each format's name, the extension
that names it, and the commands that write it.

The command line reads it to offer `--format` and to tell a format from an output's name; the
drawing (render/show.py) reads it to know what `show` and `board` draw. It is read at every start,
so it names the formats and loads none of their writers.
"""

from __future__ import annotations

from typing import NamedTuple


class Format(NamedTuple):
    name: str
    extension: str  # with its dot, lower case
    commands: tuple[str, ...]  # the commands that write it


# In the order `--format` lists them; a command's first format is what it writes by default.
FORMATS = (
    Format("text", ".txt", ("show",)),
    Format("svg", ".svg", ("show", "board")),
    Format("png", ".png", ("show",)),
    Format("html", ".html", ("show",)),
    Format("gif", ".gif", ("show",)),
    Format("pdf", ".pdf", ("board",)),
    Format("eml", ".eml", ("mail", "remind")),
)


def written_by(command: str) -> tuple[str, ...]:
    """The names of the formats `command` writes, its default first."""
    return tuple(f.name for f in FORMATS if command in f.commands)


def named_by(extension: str) -> str | None:
    """The format an extension names (`.SVG` as `.svg`), or None."""
    return next((f.name for f in FORMATS if f.extension == extension.lower()), None)


def extension(name: str) -> str:
    return next(f.extension for f in FORMATS if f.name == name)


# The palettes a picture is drawn in (SPEC §8b; render/palette.py holds their colours).
PALETTES = ("default", "colourblind", "mono")
DEFAULT_PALETTE = "default"
