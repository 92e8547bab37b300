"""The command line (SPEC §4): arguments in, taken apart by their syntax (syntax.py), one call
into the packages below (play, render, correspondence, club, engine), text out, errors to exit
codes. It may import every package; none imports it.

  app.py             the typer app, `guard` (the only place a RefereeError becomes a message on
                     stderr and an exit code), the output helper and the shared choices
  records.py         a game and its record: games, rules, new, move, status, history, moves,
                     validate, verify, show, board
  correspondence.py  mail, remind, receive, notes, reveal, key
  club.py            standings, pairings
  engine.py          hint, solve, analyse, engine, match
  serve.py           serve (the play-by-mail robot)
  syntax.py          --leave, -O, SEAT=… and output formats taken apart

Each command module adds its commands to the one app; their order here is the order of
`referee --help`. No command reads, edits or writes a record here.
"""

# Each command module adds its commands to the app, in this order in `referee --help`.
from referee.cli import records  # noqa: F401, I001
from referee.cli import correspondence  # noqa: F401
from referee.cli import club  # noqa: F401
from referee.cli import engine  # noqa: F401
from referee.cli import serve  # noqa: F401
from referee.cli.app import app


def main() -> None:
    app()


__all__ = ["app", "main"]
