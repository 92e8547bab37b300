"""The commands of the engine: hint, solve, analyse, engine (UGI) and match (SPEC §10, §11).
They import the engine where they start: no other command loads it."""

# No `from __future__ import annotations` here: typer reads every command's annotations at each
# start, and string annotations cost it an evaluation apiece (milliseconds of start-up).
import json
import sys
import time
from typing import Any, Optional

import typer

from referee.play import reports
from referee.record.files import check_output, write_atomic
from referee.render.formats import DEFAULT_PALETTE
from referee.cli.app import (
    PALETTE_HELP, Palette, answer, app, guard,
)
from referee.cli.syntax import option_values, ply_span


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
    answer(found, as_json, lambda: hint_lines(play, found))


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


@app.command("analyse")
@guard
def analyse_command(
    file: str = typer.Argument(..., metavar="FILE", help="The record file (- for standard input)."),
    seconds: Optional[float] = typer.Option(None, "--seconds", metavar="S", help="How long the engine searches each position, 0.1–600 seconds of one core (default 1)."),
    iterations: Optional[int] = typer.Option(None, "--iterations", metavar="N", help="Search each position for N playouts instead (1–1,000,000): the same analysis on every run."),
    plies: Optional[str] = typer.Option(None, "--plies", metavar="A..B", help="Only plies A to B (12.. from 12 on, ..30 up to 30); default every ply."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    html: Optional[str] = typer.Option(None, "--html", metavar="OUT", help="Also write the game's review page with the analysis on it to OUT: seat 1's chance as a graph under the board, the marks in the move list, the better move drawn at a marked ply."),
    force: bool = typer.Option(False, "--force", help="Replace OUT of --html if it exists."),
    palette: Palette = typer.Option(DEFAULT_PALETTE, "--palette", help="The colours of the --html page: " + PALETTE_HELP + " Words and JSON are the same in every palette."),
) -> None:
    """Every ply of the game judged by the engine: the mover's chance before it and after the
    move played, the best move found, and a mark where the move lost 10 points of the chance
    or more (inaccuracy), 20 (mistake) or 30 (blunder); a win by force given away is always a
    blunder, and in the crab game the solver judges each round. Forced passes are listed, not
    judged. Reads the record; never writes it, sealed, signed or not.

    Example: referee analyse game.toml --iterations 1000 --plies 1..10; referee analyse game.toml --iterations 200 --html analysis.html
    """
    from referee.play.analysis import analyse, analysis_lines  # the engine: only the commands that search load it

    span = ply_span(plies)
    check_output(html, force)  # before the search, not after it
    play = reports.load(file)
    found = analyse(play, seconds, iterations, span)
    if html is not None:
        from referee.render.analysis import analysis_page  # drawing: only where a page is asked for

        write_atomic(html, analysis_page(play, found.plies, palette.value))
    answer(found.json(), as_json, lambda: analysis_lines(play, found))


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
    engines: Optional[list[str]] = typer.Argument(None, metavar="ENGINE1 ENGINE2 [ENGINE…]", help="Programs that speak UGI, as commands: './mybot --level 3'; `referee` is the referee's own engine. More than two: a round robin (or --gauntlet)."),
    game_name: Optional[str] = typer.Option(None, "--game", metavar="GAME", help="A game of two seats, e.g. odd."),
    option: Optional[list[str]] = typer.Option(None, "-O", "--option", metavar="KEY=VALUE", help="Game option key=value, e.g. -O size=6 (also told to the engines)."),
    games: Optional[int] = typer.Option(None, "--games", metavar="N", help="Games of every two engines that meet, rounded up to whole pairs (each opening played from both sides); default 2, with --sprt the most it plays (10,000)."),
    movetime: Optional[int] = typer.Option(None, "--movetime", metavar="MS", help="Milliseconds a move (default 1000); no bestmove within 3 × MS + 1 s loses the game."),
    tc: Optional[str] = typer.Option(None, "--tc", metavar="BASE+INC", help="A clock per seat instead: BASE seconds, INC added a move; running out loses."),
    out: Optional[str] = typer.Option(None, "--out", metavar="DIR", help="Where the records go (default match-GAME-DATE/)."),
    seed: Optional[int] = typer.Option(None, "--seed", metavar="N", help="Shuffle the openings' order with this seed, or draw the random openings with it."),
    openings: Optional[str] = typer.Option(None, "--openings", metavar="FILE", help="One opening a line (wire moves), each played from both sides."),
    random_openings: Optional[int] = typer.Option(None, "--random-openings", metavar="N", help="Openings of N random legal plies, each distinct, each played from both sides."),
    sprt: Optional[str] = typer.Option(None, "--sprt", metavar="elo0=E0,elo1=E1[,alpha=A,beta=B]", help="Stop once a sequential probability ratio test decides between elo0 (H0) and elo1 (H1)."),
    gauntlet: bool = typer.Option(False, "--gauntlet", help="With three or more ENGINEs: the first plays each of the others (else every two meet)."),
    engine_option: Optional[list[str]] = typer.Option(None, "--engine-option", metavar="I:NAME=VALUE", help="Send `setoption name NAME value VALUE` to engine I (1 = ENGINE1)."),
    startup_seconds: Optional[float] = typer.Option(None, "--startup-seconds", metavar="S", help="Seconds an engine has to start and say ugiok and readyok (default 10)."),
    concurrency: int = typer.Option(1, "--concurrency", metavar="K", help="Play K games at once (each with engine processes of its own)."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", metavar="ADDRESS", help="Play the pairs on a Dask cluster (tcp://HOST:8786), or on local:K worker processes (pip install 'referee[cluster]')."),
    max_plies: Optional[int] = typer.Option(None, "--max-plies", metavar="N", help="A game with no end after N plies is adjudicated a draw (default 1000)."),
    log: Optional[str] = typer.Option(None, "--log", metavar="DIR-or-FILE", help="Keep every line to and from the engines: a file a game in DIR (a folder, or ending in /), else all in FILE."),
    resume: Optional[str] = typer.Option(None, "--resume", metavar="DIR", help="Go on with the stopped match in DIR, as its match.toml says."),
    force: bool = typer.Option(False, "--force", help="Replace the records of an earlier match in DIR (refused if DIR holds anything else)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Programs that speak UGI play GAME under the referee's judgement, in pairs of games from
    one opening with the seats swapped. Every move is judged as `move` judges it; an illegal or
    unreadable move, a crash, or no answer in time (an engine that stops reading its input
    included) loses that game. Every game is written as a sealed record in DIR, with the
    match's settings in DIR/match.toml for --resume; the standings, W–D–L, the pentanomial
    counts, the Elo difference (with its 95 % interval) and the SPRT close the run. Ctrl-C or
    SIGTERM ends the engines and all they started, keeps the records so far and exits 130 or
    143.

    Example: referee match referee "python3 mybot.py" --game odd --games 4 --movetime 200
    """
    from referee.engine import match, match_report  # the engines' processes: only this command
    from referee.errors import UsageError

    if resume is not None:
        given = {"ENGINE": engines, "--game": game_name, "-O": option, "--games": games, "--movetime": movetime,
                 "--tc": tc, "--out": out, "--seed": seed, "--openings": openings, "--random-openings": random_openings,
                 "--sprt": sprt, "--gauntlet": gauntlet or None, "--engine-option": engine_option,
                 "--startup-seconds": startup_seconds, "--max-plies": max_plies, "--force": force or None}
        extra = [name for name, value in given.items() if value]
        if extra:
            raise UsageError(f"--resume goes on as {resume}/match.toml says: {', '.join(extra)} cannot be "
                             "given with it (only --concurrency, --scheduler, --log and --json)")
        plan = match.resume_plan(resume, concurrency, scheduler, log)
    else:
        if not engines or len(engines) < 2:
            raise UsageError("give two ENGINEs or more (or --resume DIR)")
        if game_name is None:
            raise UsageError("give the game: --game GAME")
        plan = match.plan(tuple(engines), game_name, option_values(option), games, movetime, out, seed, openings,
                          concurrency, 1000 if max_plies is None else max_plies, force,
                          random_plies=random_openings, sprt=sprt, tc=tc, gauntlet=gauntlet,
                          engine_options=engine_option or (), startup=startup_seconds, scheduler=scheduler, log=log)
    watched = not as_json and sys.stderr.isatty()  # a progress line shows the games; forfeits after it

    def on_game(result: Any, names: tuple[str, ...]) -> None:
        if not as_json and not watched:
            typer.echo("\n".join(match_report.game_lines(result, names, plan.games)))

    def on_update(played: Any) -> None:
        if watched:
            sys.stderr.write("\r\x1b[K" + match_report.progress_line(played))
            sys.stderr.flush()

    try:
        played = match.run(plan, on_game, on_update)
    finally:
        if watched:
            sys.stderr.write("\n")
    for result in played.results if watched else []:
        if result.fault:
            typer.echo("\n".join(match_report.game_lines(result, played.names, plan.games)))
    report = match_report.judged(played)
    if as_json:
        typer.echo(json.dumps(match_report.to_json(played, report), indent=2, ensure_ascii=False))
    else:
        typer.echo("\n".join(match_report.lines(played, report)))
