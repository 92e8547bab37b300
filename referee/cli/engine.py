"""The commands of the engine: hint, engine (UGI) and match (SPEC §10). They import the engine
where they start: no other command loads it."""

# No `from __future__ import annotations` here: typer reads every command's annotations at each
# start, and string annotations cost it an evaluation apiece (milliseconds of start-up).
import json
import sys
import time
from typing import Any, Optional

import typer

from referee.play import reports
from referee.cli.app import (
    app, guard,
)
from referee.cli.syntax import option_values


@app.command("hint")
@guard
def hint_command(
    file: str = typer.Argument(..., metavar="FILE", help="The record file (- for standard input)."),
    seconds: float = typer.Option(3.0, "--seconds", metavar="S", help="How long the engine thinks, 0.1–600 seconds of one core."),
    iterations: Optional[int] = typer.Option(None, "--iterations", metavar="N", help="Stop after N playouts instead of after S seconds: the same hint every time."),
    seed: int = typer.Option(0, "--seed", metavar="N", help="The engine's random seed."),
    lines: int = typer.Option(1, "--lines", metavar="K", help="Also the other moves tried most: K moves in all (1–10), each with its figures and line."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """The move the engine finds for the seat to move, ready to paste into `referee move`,
    with how often it won in the engine's playouts and the line it expects, or, where the
    engine proves it, "wins by force" and the forcing line. Reads the record; never writes it.

    Example: referee hint game.toml --seconds 10 --lines 3
    """
    from referee.engine.hint import hint, hint_lines  # the engine: only the commands that search load it

    began = time.monotonic()  # SPEC §14: the answer within S + 1 s, reading a long record too
    play = reports.load(file)
    found = hint(play, seconds, iterations, seed, began=began, lines=lines)
    if as_json:
        typer.echo(json.dumps(found, indent=2, ensure_ascii=False))
        return
    for line in hint_lines(play, found):
        typer.echo(line)


@app.command("solve")
@guard
def solve_command(
    file: str = typer.Argument(..., metavar="FILE", help="The record file (a crab game)."),
    seconds: float = typer.Option(3.0, "--seconds", metavar="S", help="Search for at most S seconds (0.1–600)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Whether the crab game can still be won from the record's position, over its known deal:
    a winning line (every remaining round, ready for `move`), a proof of loss, or unknown when
    S seconds were not enough. Never writes the record.

    Example: referee solve crab.toml --seconds 10
    """
    report = reports.solve(file, seconds)
    typer.echo(json.dumps(report) if as_json else "\n".join(reports.solve_lines(report)))


@app.command("engine")
@guard
def engine_command() -> None:
    """Speak UGI (the Universal Game Interface) on standard input and output, so that a
    program can play any game against the engine or ask it for moves: `ugi`, `isready`,
    `setoption name game value odd`, `position startpos moves b_e5 …`, `go movetime 1000`,
    `query gameover`, `quit`. Moves on the wire are canonical notation with `_` for spaces.

    \b
    Example:
      printf 'ugi\\nposition startpos moves b_e5\\ngo nodes 200\\nquit\\n' | referee engine
    """
    import os

    from referee.engine import ugi  # the engine: only the commands that search load it

    ugi.serve(end=os._exit)  # `quit`: the process ends, a search's thread with it (SPEC §14)


@app.command("match")
@guard
def match_command(
    engine1: str = typer.Argument(..., metavar="ENGINE1", help="A program that speaks UGI, as a command: './mybot --level 3'; `referee` is the referee's own engine."),
    engine2: str = typer.Argument(..., metavar="ENGINE2", help="The other program's command."),
    game_name: str = typer.Option(..., "--game", metavar="GAME", help="A game of two seats, e.g. odd."),
    option: Optional[list[str]] = typer.Option(None, "-O", "--option", metavar="KEY=VALUE", help="Game option key=value, e.g. -O size=6 (also told to the engines)."),
    games: int = typer.Option(2, "--games", metavar="N", help="How many games; the seats alternate game by game."),
    movetime: int = typer.Option(1000, "--movetime", metavar="MS", help="Milliseconds a move; no bestmove within 3 × MS + 1 s loses the game."),
    out: Optional[str] = typer.Option(None, "--out", metavar="DIR", help="Where the records go (default match-GAME-DATE/)."),
    seed: Optional[int] = typer.Option(None, "--seed", metavar="N", help="Shuffle the openings' order with this seed."),
    openings: Optional[str] = typer.Option(None, "--openings", metavar="FILE", help="One opening a line (wire moves), each played from both sides."),
    concurrency: int = typer.Option(1, "--concurrency", metavar="K", help="Play K games at once (K pairs of engine processes)."),
    max_plies: int = typer.Option(1000, "--max-plies", metavar="N", help="A game with no end after N plies is adjudicated a draw."),
    force: bool = typer.Option(False, "--force", help="Replace the records of an earlier match in DIR (refused if DIR holds anything else)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Two programs that speak UGI play GAME under the referee's judgement. Every move is
    judged as `move` judges it; an illegal or unreadable move, a crash, or no answer in time
    (an engine that stops reading its input included) loses that game. Every game is written
    as a sealed record in DIR; the standings and the Elo difference (with its 95 % interval)
    close the run. Ctrl-C or SIGTERM ends the engines and all they started, keeps the records
    so far and exits 130 or 143.

    Example: referee match referee "python3 mybot.py" --game odd --games 4 --movetime 200
    """
    from referee.club.standings import silent  # the engines' processes: only this command
    from referee.engine import match, match_report

    plan = match.plan((engine1, engine2), game_name, option_values(option), games, movetime, out,
                      seed, openings, concurrency, max_plies, force)
    watched = not as_json and sys.stderr.isatty()  # a bar shows the games; forfeits after it

    def on_game(result: Any, names: tuple[str, str]) -> None:
        if not as_json and not watched:
            typer.echo("\n".join(match_report.game_lines(result, names, plan.games)))

    played = match.run(plan, (lambda total: typer.progressbar(length=total, label="playing", file=sys.stderr))
                       if watched else silent, on_game)
    for result in played.results if watched else []:
        if result.fault:
            typer.echo("\n".join(match_report.game_lines(result, played.names, plan.games)))
    report = match_report.judged(played)
    if as_json:
        typer.echo(json.dumps(match_report.to_json(played, report), indent=2, ensure_ascii=False))
    else:
        typer.echo("\n".join(match_report.lines(played, report)))
