"""The command line (SPEC §4): arguments in, taken apart by their syntax (cli_syntax.py), one
call into the application layer (play, reports, pictures, correspondence, keys, club), text out,
errors to exit codes.

Every command runs inside `_guard`, the only place a RefereeError becomes a message on stderr and
an exit code; nothing below it prints or exits. No command reads, edits or writes a record here.

The commands that draw import diagrams.py or pictures.py (and with them Jinja), play.py or
correspondence.py (the email package) where they start, and `standings` and `pairings` import club.py (a process pool,
the page's template): those libraries are no part of the start of `status`, `validate` and the
other commands that draw nothing (README: Performance).
"""

# No `from __future__ import annotations` here: typer reads every command's annotations at each
# start, and string annotations cost it an evaluation apiece (milliseconds of start-up).
import contextlib
import functools
import json
import sys
from enum import Enum
from typing import Any, Callable, Optional

import typer

from referee import __version__, reports
from referee.choices import game_named, games_lines, games_listing
from referee.cli_syntax import leave_span, option_values, output_format, player_keys, player_names
from referee.errors import RefereeError, UsageError
from referee.files import record_files, write_atomic
from referee.formats import DEFAULT_PALETTE, PALETTES, written_by
from referee.games import GAMES
from referee.games.base import count
from referee.keys import new_key
from referee.render.header import plain
from referee.rules_text import rules_text

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


# The choices of each command's --format, from the one table of formats (formats.py); those of
# `mail --attach` and `board --paper`.
ShowFormat = Enum("ShowFormat", [(name, name) for name in written_by("show")], type=str)
SheetFormat = Enum("SheetFormat", [(name, name) for name in written_by("board")], type=str)
Attachment = Enum("Attachment", [("html", "html")], type=str)
Paper = Enum("Paper", [("a4", "a4"), ("letter", "letter")], type=str)
# --palette of every command that draws a picture (SPEC §8b); text is the same in every palette.
Palette = Enum("Palette", [(name, name) for name in PALETTES], type=str)
PALETTE_HELP = "default, colourblind (colours told apart in every colour vision) or mono (greys; pieces differ by shape)."


def _guard(command: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except RefereeError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(exc.exit_code) from None

    return run


def _write_output(path: str | None, data: str | bytes) -> None:
    """Write to the -o file (refused earlier if it existed without --force), else print."""
    if path is not None:
        write_atomic(path, data)  # whole or not at all
    elif isinstance(data, bytes):
        typer.get_binary_stream("stdout").write(data)
    else:
        typer.echo(data, nl=not data.endswith("\n"))


# -- commands --------------------------------------------------------------------------------


@app.command("games")
@_guard
def games_command(as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """List the games, their seats and options with defaults."""
    if as_json:
        typer.echo(json.dumps(games_listing(), indent=2))
        return
    for line in games_lines():
        typer.echo(line)


@app.command("rules")
@_guard
def rules_command(
    game_name: str = typer.Argument(..., metavar="GAME", help="Game id, e.g. hermetica."),
) -> None:
    """The rules of a game in the referee's own words: how it plays them, the rulings (R-…)
    that settle what the official rules leave open, the move notation with examples, and
    where the official rules are found.

    Example: referee rules hermetica
    """
    typer.echo(rules_text(game_named(game_name)), nl=False)


@app.command("new")
@_guard
def new_command(
    game_name: str = typer.Argument(..., metavar="GAME", help="Game id, e.g. odd."),
    output: str = typer.Option(..., "-o", "--output", metavar="FILE", help="The record file to write."),
    option: Optional[list[str]] = typer.Option(None, "-O", "--option", metavar="KEY=VALUE", help="Game option key=value, e.g. -O size=6."),
    player: Optional[list[str]] = typer.Option(None, "--player", metavar="SEAT=NAME", help="SEAT=NAME, e.g. --player '1=Ann <ann@example.org>'."),
    key: Optional[list[str]] = typer.Option(None, "--key", metavar="SEAT=KEY", help="A seat's public key for signed moves, from `referee key new`."),
    clock: Optional[str] = typer.Option(None, "--clock", metavar="CONTROL", help="A time control: 10/50d (10 moves in 50 days) or 3d+1d/30d (a bank of 3 days, 1 more a move, at most 30)."),
    leave: Optional[float] = typer.Option(None, "--leave", metavar="DAYS", help="Days of leave each seat may take (with --clock)."),
    force: bool = typer.Option(False, "--force", help="Replace FILE if it exists."),
) -> None:
    """Start a game: write a new record and print the empty board.

    Example: referee new odd -o game.toml -O size=6 --player 1=Ann --player 2=Bo --clock 10/50d
    """
    from referee import diagrams, play  # drawing: see the top

    options, names, keys = option_values(option), player_names(player), player_keys(key)
    game = play.new_game(game_name, options, names, keys, output, force, clock, leave)
    typer.echo(diagrams.text_diagram(game), nl=False)


@app.command("move")
@_guard
def move_command(
    file: str = typer.Argument(..., metavar="FILE", help="The record file."),
    move: str = typer.Argument(..., metavar="MOVE", help="The move, in the game's notation (see `referee games`)."),
    seat: Optional[str] = typer.Option(None, "--as", metavar="SEAT", help="Refuse the move unless SEAT is to move: a seat number, or a player's name or address as in [players]."),
    comment: Optional[str] = typer.Option(None, "--comment", metavar="TEXT", help="A comment stored with the move."),
    if_moves: Optional[list[str]] = typer.Option(None, "--if", metavar="MOVE", help="A conditional move: if the opponent replies MOVE … (repeatable, each with a --then)."),
    then_moves: Optional[list[str]] = typer.Option(None, "--then", metavar="MOVE", help="… then play this MOVE for me."),
    sign: Optional[str] = typer.Option(None, "--sign", metavar="KEYFILE", help="Sign the move with the private key from `referee key new`."),
    svg: Optional[str] = typer.Option(None, "--svg", metavar="OUT", help="Also write the new diagram as SVG to OUT (replaced at every move)."),
    leave: Optional[str] = typer.Option(None, "--leave", metavar="FROM..TO", help="Declare leave with this move, e.g. 2026-12-20..2027-01-03 (dates: 00:00 UTC)."),
    offer_draw: bool = typer.Option(False, "--offer-draw", help="Offer a draw with this move; the opponent answers 'accept draw' or plays on."),
    force: bool = typer.Option(False, "--force", hidden=True),
) -> None:
    """Check MOVE against the rules, append it to FILE and print the new board.

    A refused move leaves FILE byte-for-byte unchanged. Passes of a seat that cannot act are
    appended for it. Every ply is sealed with a digest; --sign adds your signature.

    Conditional moves (--if/--then pairs) are stored openly in FILE: when the opponent's next
    move is one of the --if moves, the referee plays your --then reply at once.

    Example: referee move game.toml "b e5" --as 1 --if "w d4" --then "b c3"
    """
    from referee import diagrams, play  # drawing: see the top

    if len(if_moves or []) != len(then_moves or []):
        raise UsageError("--if and --then come in pairs: one --then for each --if")
    span = leave_span(leave) if leave is not None else None
    turn = play.play_turn(file, move, seat=seat, comment=comment, key_file=sign, svg=svg,
                          force=force, conditions=list(zip(if_moves or [], then_moves or [])),
                          leave=span, offer_draw=offer_draw)
    typer.echo(diagrams.text_diagram(turn.play), nl=False)
    for note in turn.notes:
        typer.echo(plain(note))  # a note may name a player: safe for a terminal


@app.command("validate")
@_guard
def validate_command(
    paths: list[str] = typer.Argument(..., metavar="FILE|FOLDER...", help="Record files, or folders to search for *.toml records."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON list, one object per file."),
) -> None:
    """Replay and check every record; exit 0 only if all are valid (2 if a file is missing).

    Every record is checked, whatever faults come before it; a summary line closes the list.
    Folders are searched recursively, in name order (hidden files are skipped).
    """
    files = record_files(paths)
    verdicts = reports.validations(files)  # in the order of `files`
    # A progress bar only where a person watches a long run (then only faults are listed);
    # pipes and files get one line per record.
    watched = len(files) >= 50 and not as_json and sys.stderr.isatty()
    progress = (
        typer.progressbar(verdicts, length=len(files), label="validating", file=sys.stderr)
        if watched else contextlib.nullcontext(verdicts)
    )
    kept, good, worst = [], 0, 0  # the reports, kept only for --json: an archive may be long
    with progress as items:
        for report, fault, summary in items:
            good += report["valid"]
            if as_json:
                kept.append(report)
            if fault is not None:
                worst = max(worst, fault.exit_code)
                if not as_json:
                    typer.echo(f"INVALID {fault}")
            elif not as_json and not watched:
                typer.echo(f"valid   {report['file']}: {count(report['plies'], 'ply', 'plies')}; {summary}")
    if as_json:
        typer.echo(json.dumps(kept, indent=2))
    elif len(files) > 1:
        typer.echo(f"{good} of {len(files)} records valid")
    if worst:
        raise typer.Exit(worst)


@app.command("standings")
@_guard
def standings_command(
    paths: list[str] = typer.Argument(..., metavar="PATH...", help="Record files, or folders to search for *.toml records."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of the crosstables."),
    html: Optional[str] = typer.Option(None, "--html", metavar="OUT", help="Also write the standings as one HTML page, every result linked to its record."),
    force: bool = typer.Option(False, "--force", help="Replace OUT if it exists."),
) -> None:
    """Standings, crosstables and Elo ratings of every game under the paths.

    Records are judged as `validate` judges them; invalid ones are listed and counted nowhere
    (exit 1). A player is known by the mail address in [players], else by the name. Folders
    are searched recursively (hidden files are skipped).

    Example: referee standings club/ --html standings.html
    """
    from referee import club  # see the top

    watched = sys.stderr.isatty()

    def progress(total: int):
        if watched and total >= 50:
            return typer.progressbar(length=total, label="judging", file=sys.stderr)
        return club.silent(total)

    report = club.standings(paths, html, force, progress)
    if as_json:
        typer.echo(json.dumps(report.json(), indent=2))
    else:
        for line in report.lines():
            typer.echo(line)
    if report.speed():  # a line only for a large archive (club.SPEED_RECORDS)
        typer.echo(report.speed(), err=True)
    if report.exit_code:
        raise typer.Exit(report.exit_code)


@app.command("pairings")
@_guard
def pairings_command(
    players: list[str] = typer.Argument(..., metavar="PLAYER...", help="The players, e.g. 'Ann <ann@example.org>', numbered in this order."),
    double: bool = typer.Option(False, "--double", help="A double round robin: every round again, seats swapped."),
    game: Optional[str] = typer.Option(None, "--game", metavar="GAME", help="The game (for --new), e.g. odd."),
    new: Optional[str] = typer.Option(None, "--new", metavar="DIR", help="Write every game's blank record into DIR, players filled in."),
    option: Optional[list[str]] = typer.Option(None, "-O", "--option", metavar="KEY=VALUE", help="Game option key=value for the new records, e.g. -O size=6."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    force: bool = typer.Option(False, "--force", help="Replace records in DIR that exist."),
) -> None:
    """A round robin by Berger tables: every pair meets once (twice with --double).

    Seat 1 alternates as the tables give it; with an odd number of players one sits out each
    round. --new DIR starts the event: one record a game, named r01-g1-ann-vs-bo.toml.

    Example: referee pairings Ann Bo Cy Dee --double --game odd --new autumn/
    """
    from referee import club  # see the top

    schedule = club.pairings(players, double, game, new, option_values(option), force)
    if as_json:
        typer.echo(json.dumps(schedule.json(), indent=2))
        return
    for line in schedule.lines():
        typer.echo(line)


@app.command("status")
@_guard
def status_command(
    file: str = typer.Argument(..., metavar="FILE", help="The record file."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Whose turn it is, the score, and the result once the game is over."""
    play = reports.load(file)
    if as_json:
        typer.echo(json.dumps(reports.status(play), indent=2))
        return
    for line in reports.status_lines(play):
        typer.echo(line)


@app.command("history")
@_guard
def history_command(
    file: str = typer.Argument(..., metavar="FILE", help="The record file (- for standard input)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Every ply: its number, move, player, time and comment."""
    play = reports.load(file)
    if as_json:
        typer.echo(json.dumps(reports.history(play), indent=2, ensure_ascii=False))
        return
    for line in reports.history_lines(play):
        typer.echo(line)


@app.command("moves")
@_guard
def moves_command(
    file: str = typer.Argument(..., metavar="FILE", help="The record file."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    after: Optional[str] = typer.Option(None, "--after", metavar="ACTIONS", help="Actions already chosen this turn (multi-action games)."),
) -> None:
    """List the legal moves of the seat to move, in canonical notation."""
    play = reports.load(file)
    listing = reports.moves(play, after)
    if as_json:
        typer.echo(json.dumps(listing))
        return
    for line in reports.moves_lines(play, listing):
        typer.echo(line)


@app.command("hint")
@_guard
def hint_command(
    file: str = typer.Argument(..., metavar="FILE", help="The record file (- for standard input)."),
    seconds: float = typer.Option(3.0, "--seconds", metavar="S", help="How long the engine thinks, 0.1–600 seconds of one core."),
    iterations: Optional[int] = typer.Option(None, "--iterations", metavar="N", help="Stop after N playouts instead of after S seconds: the same hint every time."),
    seed: int = typer.Option(0, "--seed", metavar="N", help="The engine's random seed."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """The move the engine finds for the seat to move, ready to paste into `referee move`,
    with how often it won in the engine's playouts and the line it expects. Reads the record;
    never writes it.

    Example: referee hint game.toml --seconds 10
    """
    from referee import advice  # the engine: only the commands that search load it

    play = reports.load(file)
    found = advice.hint(play, seconds, iterations, seed)
    if as_json:
        typer.echo(json.dumps(found, indent=2, ensure_ascii=False))
        return
    for line in advice.hint_lines(play, found):
        typer.echo(line)


@app.command("engine")
@_guard
def engine_command() -> None:
    """Speak UGI (the Universal Game Interface) on standard input and output, so that a
    program can play any game against the engine or ask it for moves: `ugi`, `isready`,
    `setoption name game value odd`, `position startpos moves b_e5 …`, `go movetime 1000`,
    `query gameover`, `quit`. Moves on the wire are canonical notation with `_` for spaces.

    Example: printf 'ugi\nposition startpos moves b_e5\ngo nodes 200\nquit\n' | referee engine
    """
    from referee import ugi  # the engine: only the commands that search load it

    ugi.serve()


@app.command("match")
@_guard
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
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Two programs that speak UGI play GAME under the referee's judgement. Every move is
    judged as `move` judges it; an illegal or unreadable move, a crash, or no answer in time
    loses that game. Every game is written as a sealed record in DIR; the standings and the
    Elo difference (with its 95 % interval) close the run.

    Example: referee match referee "python3 mybot.py" --game odd --games 10 --movetime 500
    """
    from referee import club, match, match_report  # the engines' processes: only this command

    plan = match.plan((engine1, engine2), game_name, option_values(option), games, movetime, out,
                      seed, openings, concurrency, max_plies)
    watched = not as_json and sys.stderr.isatty()  # a bar shows the games; forfeits after it

    def on_game(result: Any, names: tuple[str, str]) -> None:
        if not as_json and not watched:
            typer.echo("\n".join(match_report.game_lines(result, names, plan.games)))

    played = match.run(plan, (lambda total: typer.progressbar(length=total, label="playing", file=sys.stderr))
                       if watched else club.silent, on_game)
    for result in played.results if watched else []:
        if result.fault:
            typer.echo("\n".join(match_report.game_lines(result, played.names, plan.games)))
    report = match_report.judged(played)
    if as_json:
        typer.echo(json.dumps(match_report.to_json(played, report), indent=2, ensure_ascii=False))
    else:
        typer.echo("\n".join(match_report.lines(played, report)))


@app.command("show")
@_guard
def show_command(
    file: str = typer.Argument(..., metavar="FILE", help="The record file."),
    ply: Optional[int] = typer.Option(None, "--ply", metavar="N", help="Show the board after ply N (0 is the start, -1 the last, the default); html opens at N, gif ends at N."),
    fmt: Optional[ShowFormat] = typer.Option(None, "--format", help="text for a mail body (the default), svg or png to attach, html for the review page of the whole game, gif for an animation; by default OUT's extension says."),
    output: Optional[str] = typer.Option(None, "-o", "--output", metavar="OUT", help="Write to OUT (.txt, .svg, .png, .html, .gif) instead of printing."),
    force: bool = typer.Option(False, "--force", help="Replace OUT if it exists."),
    palette: Palette = typer.Option(DEFAULT_PALETTE, "--palette", help=PALETTE_HELP),
) -> None:
    """Draw the board after a ply, as text, SVG or PNG; or the whole game as a review page
    (HTML: step through it with Home, End and the arrow keys) or an animated GIF.

    Example: referee show game.toml --ply 12 -o ply12.svg; referee show game.toml -o game.html
    """
    from referee import pictures  # drawing: see the top

    chosen = output_format(output, fmt and fmt.value, "show")
    _write_output(output, pictures.diagram(file, ply, chosen, output, force, palette.value))


@app.command("board")
@_guard
def board_command(
    game_name: str = typer.Argument(..., metavar="GAME", help="Game id, e.g. odd."),
    option: Optional[list[str]] = typer.Option(None, "-O", "--option", metavar="KEY=VALUE", help="Game option key=value, e.g. -O size=8."),
    paper: Paper = typer.Option(Paper.a4, "--paper", help="Sheet size."),
    fmt: Optional[SheetFormat] = typer.Option(None, "--format", help="svg (the default) or pdf; by default OUT's extension says."),
    output: Optional[str] = typer.Option(None, "-o", "--output", metavar="OUT", help="Write the sheet to OUT (.svg, .pdf) instead of printing it."),
    force: bool = typer.Option(False, "--force", help="Replace OUT if it exists."),
    palette: Palette = typer.Option(DEFAULT_PALETTE, "--palette", help=PALETTE_HELP),
) -> None:
    """A blank board to print, true to size, with coordinates and a 100 mm scale bar: an SVG
    in millimetres, or a PDF page of the paper's exact size. Print at 100 % (actual size).

    Example: referee board odd -o sheet.pdf --paper letter
    """
    from referee import pictures  # drawing: see the top

    chosen = output_format(output, fmt and fmt.value, "board")
    sheet = pictures.blank_board(game_name, option_values(option), paper.value, chosen, output, force, palette.value)
    _write_output(output, sheet)


# -- correspondence by mail -----------------------------------------------------------------


@app.command("mail")
@_guard
def mail_command(
    file: str = typer.Argument(..., metavar="FILE", help="The record file."),
    to: Optional[str] = typer.Option(None, "--to", metavar="ADDRESS", help="Send to ADDRESS instead of the [players] address of the seat to move."),
    output: Optional[str] = typer.Option(None, "-o", "--output", metavar="MESSAGE.eml", help="Write the message here instead of printing it."),
    attach: Optional[list[Attachment]] = typer.Option(None, "--attach", help="Also attach html: the review page of the whole game."),
    force: bool = typer.Option(False, "--force", help="Replace MESSAGE.eml if it exists."),
    palette: Palette = typer.Option(DEFAULT_PALETTE, "--palette", help=PALETTE_HELP),
) -> None:
    """Make the mail to send: the board and status in the body, the record, SVG and PNG attached.

    Open MESSAGE.eml in your mail program (or send it with any tool that sends .eml files).

    Example: referee mail game.toml -o to-bo.eml --attach html
    """
    from referee import correspondence  # the email package: see the top

    output_format(output, None, "mail")
    message = correspondence.mail(file, to, output, force, [a.value for a in attach or []], palette.value)
    _write_output(output, bytes(message))
    if output:
        typer.echo(f"{output}: to {message['To']}, subject \"{message['Subject']}\"")


@app.command("remind")
@_guard
def remind_command(
    file: str = typer.Argument(..., metavar="FILE", help="The record file (a game with a clock)."),
    to: Optional[str] = typer.Option(None, "--to", metavar="ADDRESS", help="Send to ADDRESS instead of the [players] address of the seat to move."),
    output: Optional[str] = typer.Option(None, "-o", "--output", metavar="OUT.eml", help="Write the message here instead of printing it."),
    force: bool = typer.Option(False, "--force", help="Replace OUT.eml if it exists."),
    palette: Palette = typer.Option(DEFAULT_PALETTE, "--palette", help=PALETTE_HELP),
) -> None:
    """Make a reminder mail to the seat to move: its time left and its deadline.

    Example: referee remind game.toml -o reminder.eml
    """
    from referee import correspondence  # the email package: see the top

    output_format(output, None, "remind")
    message = correspondence.remind(file, to, output, force, palette.value)
    _write_output(output, bytes(message))
    if output:
        typer.echo(f"{output}: to {message['To']}, subject \"{message['Subject']}\"")


@app.command("receive")
@_guard
def receive_command(
    message_file: str = typer.Argument(..., metavar="MESSAGE", help="A received .eml message, or a record file."),
    output: Optional[str] = typer.Option(None, "-o", "--output", metavar="FILE", help="Where to save the record (default: the --mine file)."),
    mine: Optional[str] = typer.Option(None, "--mine", metavar="MY_COPY", help="The copy you last sent: the received record must extend it, ply for ply."),
    force: bool = typer.Option(False, "--force", help="Replace FILE if it exists (the --mine file is always replaced)."),
    seat: Optional[str] = typer.Option(None, "--as", metavar="SEAT", help="Your seat, for --mine: a seat number, or your name or address as in [players] (default: the mail's To, when it is one seat's address)."),
    accept_start: bool = typer.Option(False, "--accept-start", help="Accept a clock that started more than a day before the game reached you."),
) -> None:
    """Take the record out of a received message, check it, and save it.

    With --mine, every ply of your own copy must be in the received record unchanged (moves
    and digests), so an opponent cannot alter the past, and no new ply may have been made in
    your seat's name: your seat is --as SEAT, or the seat whose address the mail was sent to.
    If MY_COPY does not exist yet (the first mail of a game), the record is saved there.

    Example: referee receive from-bo.eml --mine game.toml --as Ann
    """
    from referee import correspondence, diagrams  # the email package, drawing: see the top

    received = correspondence.receive(message_file, output, mine, force, seat, accept_start)
    if received.saved_to is None:
        typer.echo(f"nothing new: your copy is ahead (ply {received.mine}); {mine} is unchanged.")
        return
    typer.echo(diagrams.text_diagram(received.play), nl=False)
    for warning in received.warnings:
        typer.echo(f"Warning: {warning}")
    if received.first:
        # The opponent's first mail: nothing of ours to compare yet; from now on there is.
        typer.echo(f"Saved to {received.saved_to}, your first copy of this game.")
    else:
        typer.echo(f"Saved to {received.saved_to}.")


@app.command("verify")
@_guard
def verify_command(
    file: str = typer.Argument(..., metavar="FILE", help="The record file."),
    against: Optional[str] = typer.Option(None, "--against", metavar="OTHER", help="Another copy of the same game to compare, ply by ply."),
) -> None:
    """Check a record's digests and signatures, and compare it with another copy.

    Reports unsealed plies (no digest: typed by hand) and unsigned ones; exits 1 at the first
    ply where digests, signatures or the two copies disagree.
    """
    for line in reports.verify(file, against):
        typer.echo(line)


key_app = typer.Typer(help="Keys for signed moves (needs `pip install 'referee[sign]'`).", no_args_is_help=True)
app.add_typer(key_app, name="key")


@key_app.command("new")
@_guard
def key_new_command(
    output: str = typer.Option(..., "-o", "--output", metavar="KEYFILE", help="Where to keep the private key (keep it to yourself)."),
    force: bool = typer.Option(False, "--force", help="Replace KEYFILE if it exists."),
) -> None:
    """Make an Ed25519 key pair: the private key into KEYFILE, the public key printed for [players].

    Example: referee key new -o ~/.ann.key
    """
    public = new_key(output, force)
    typer.echo(public)
    typer.echo(f'Put it in the record\'s [players]: 1 = {{ name = "…", key = "{public}" }}', err=True)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"referee {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version."),
) -> None:
    pass


def main() -> None:
    app()
