"""The one typer app of the command line, and what its commands share: `guard`, the only place a
RefereeError becomes a message on stderr and an exit code (nothing below it prints or exits),
the output helper, the choices of --format, --paper and --palette, and --version.

The commands that draw import render/ (and with it Jinja), the correspondence package (the
email package) where they start, `standings` and `pairings` import club/ (a process pool, the
page's template), and the engine's commands the engine: those libraries are no part of the
start of `status`, `validate` and the other commands that draw nothing (docs/performance.md).
"""

# No `from __future__ import annotations` here: typer reads every command's annotations at each
# start, and string annotations cost it an evaluation apiece (milliseconds of start-up).
import functools
import json
from enum import Enum
from typing import Any, Callable, Iterable

import typer

from referee import __version__
from referee.errors import RefereeError
from referee.record.files import write_atomic
from referee.render.formats import PALETTES, written_by
from referee.games import GAMES

app = typer.Typer(
    name="referee",
    help=(
        "Referee for board and card games played by correspondence. The record file is the "
        "game: `new` starts one, `move` checks and appends a move, `show` draws the board, "
        "`validate` judges records. Games: " + ", ".join(GAMES) + " (see `referee games`)."
    ),
    no_args_is_help=True,
    # Shell completion (README: Shell completion): building its two options costs about 0.2 ms
    # in-process, below what start-up timing can see (measured with and without).
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


# The choices of each command's --format, from the one table of formats (render/formats.py); those of
# `mail --attach` and `board --paper`.
ShowFormat = Enum("ShowFormat", [(name, name) for name in written_by("show")], type=str)
SheetFormat = Enum("SheetFormat", [(name, name) for name in written_by("board")], type=str)
Attachment = Enum("Attachment", [("html", "html")], type=str)
Paper = Enum("Paper", [("a4", "a4"), ("letter", "letter")], type=str)
# --palette of every command that draws a picture (SPEC §8b); text is the same in every palette.
Palette = Enum("Palette", [(name, name) for name in PALETTES], type=str)
PALETTE_HELP = "default, colourblind (colours told apart in every colour vision) or mono (greys; pieces differ by shape)."


def guard(command: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except RefereeError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(exc.exit_code) from None

    return run


def write_output(path: str | None, data: str | bytes) -> None:
    """Write to the -o file (refused earlier if it existed without --force), else print."""
    if path is not None:
        write_atomic(path, data)  # whole or not at all
    elif isinstance(data, bytes):
        typer.get_binary_stream("stdout").write(data)
    else:
        typer.echo(data, nl=not data.endswith("\n"))


def answer(data: Any, as_json: bool, words: Callable[[], Iterable[str]]) -> None:
    """A report as the command was asked for it: with --json, `data` as JSON (indented, every
    character as itself); else the lines `words` gives, each printed as a line."""
    if as_json:
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    for line in words():
        typer.echo(line)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"referee {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version."),
) -> None:
    pass
