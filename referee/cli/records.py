"""The commands of a game and its record: games, rules, new, move, status, history, moves,
validate, verify, show and board (SPEC §4, §7, §8)."""

# No `from __future__ import annotations` here: typer reads every command's annotations at each
# start, and string annotations cost it an evaluation apiece (milliseconds of start-up).
import contextlib
import json
import sys
from functools import partial
from typing import Optional

import typer

from referee.play import reports
from referee.play.choices import game_named, games_lines, games_listing
from referee.cli.app import (
    PALETTE_HELP, Palette, Paper, SheetFormat, ShowFormat, app, guard, write_output,
)
from referee.cli.syntax import bot_seats, option_values, output_format, player_keys, player_names
from referee.record.clock import leave_span
from referee.errors import UsageError
from referee.record.files import record_files
from referee.render.formats import DEFAULT_PALETTE
from referee.games.base import count
from referee.text import plain
from referee.data.rules_text import rules_text

BOT_SECONDS = 3.0  # the engine's seconds a move on a bot seat, unless --bot gives them (SPEC §10)


@app.command("games")
@guard
def games_command(as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """List the games, their seats and options with defaults."""
    if as_json:
        typer.echo(json.dumps(games_listing(), indent=2))
        return
    for line in games_lines():
        typer.echo(line)


@app.command("rules")
@guard
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
@guard
def new_command(
    game_name: str = typer.Argument(..., metavar="GAME", help="Game id, e.g. odd."),
    output: str = typer.Option(..., "-o", "--output", metavar="FILE", help="The record file to write."),
    option: Optional[list[str]] = typer.Option(None, "-O", "--option", metavar="KEY=VALUE", help="Game option key=value, e.g. -O size=6."),
    player: Optional[list[str]] = typer.Option(None, "--player", metavar="SEAT=NAME", help="SEAT=NAME, e.g. --player '1=Ann <ann@example.org>'."),
    key: Optional[list[str]] = typer.Option(None, "--key", metavar="SEAT=KEY", help="A seat's public key for signed moves, from `referee key new`."),
    clock: Optional[str] = typer.Option(None, "--clock", metavar="CONTROL", help="A time control: 10/50d (10 moves in 50 days) or 3d+1d/30d (a bank of 3 days, 1 more a move, at most 30)."),
    leave: Optional[float] = typer.Option(None, "--leave", metavar="DAYS", help="Days of leave each seat may take (with --clock)."),
    bot: Optional[list[str]] = typer.Option(None, "--bot", metavar="SEAT[=SECONDS]", help="The engine plays SEAT, thinking SECONDS a reply (0.1–60, default 3): it replies within every `move`."),
    winnable: bool = typer.Option(False, "--winnable", help="crab: deal only a deal the solver proves winnable (the seed that gave it is recorded)."),
    force: bool = typer.Option(False, "--force", help="Replace FILE if it exists."),
) -> None:
    """Start a game: write a new record and print the empty board.

    Example: referee new odd -o game.toml -O size=6 --player 1=Ann --player 2=Bo --clock 10/50d

    Example, against the engine: referee new hermit -o game.toml --player 1=Ann --bot 2=5
    """
    from referee.play.game_file import new_game
    from referee.render.diagram import text_diagram  # drawing: see the top

    options, names, keys = option_values(option), player_names(player), player_keys(key)
    game = new_game(game_name, options, names, keys, output, force, clock, leave,
                         bot_seats(bot, BOT_SECONDS), winnable)
    for note in game.notes:
        typer.echo(plain(note))
    typer.echo(text_diagram(game.play), nl=False)
    if winnable:
        typer.echo(f"Seed {game.play.record.options['seed']}: a deal the solver proves winnable.")


@app.command("move")
@guard
def move_command(
    file: str = typer.Argument(..., metavar="FILE", help="The record file."),
    move: Optional[str] = typer.Argument(None, metavar="[MOVE]", help="The move, in the game's notation (see `referee games`). Without it, the engine replies where its seat is to move."),
    seat: Optional[str] = typer.Option(None, "--as", metavar="SEAT", help="Refuse the move unless SEAT is to move: a seat number, or a player's name or address as in [players]."),
    comment: Optional[str] = typer.Option(None, "--comment", metavar="TEXT", help="A comment stored with the move."),
    if_moves: Optional[list[str]] = typer.Option(None, "--if", metavar="MOVE", help="A conditional move: if the opponent replies MOVE … (repeatable, each with a --then)."),
    then_moves: Optional[list[str]] = typer.Option(None, "--then", metavar="MOVE", help="… then play this MOVE for me."),
    line: Optional[list[str]] = typer.Option(None, "--line", metavar="\"M1 M2 …\"", help="A conditional line: the opponent's move, your reply, the opponent's next, your reply … (moves with spaces written _, e.g. \"w_d4 b_c3 w_e7 b_f2\"; repeatable: lines that begin alike share it)."),
    sign: Optional[str] = typer.Option(None, "--sign", metavar="KEYFILE", help="Sign the move with the private key from `referee key new`."),
    note: Optional[str] = typer.Option(None, "--note", metavar="TEXT", help="A note for yourself, sealed in the move: only you can read it (referee notes), until you reveal it (referee reveal). Needs --key."),
    key: Optional[str] = typer.Option(None, "--key", metavar="KEYFILE", help="Your private key, which seals the --note (and signs the move)."),
    svg: Optional[str] = typer.Option(None, "--svg", metavar="OUT", help="Also write the new diagram as SVG to OUT (replaced at every move)."),
    palette: Palette = typer.Option(DEFAULT_PALETTE, "--palette", help="The colours of the --svg picture: " + PALETTE_HELP),
    leave: Optional[str] = typer.Option(None, "--leave", metavar="FROM..TO", help="Declare leave with this move, e.g. 2026-12-20..2027-01-03 (dates: 00:00 UTC)."),
    offer_draw: bool = typer.Option(False, "--offer-draw", help="Offer a draw with this move; the opponent answers 'accept draw' or plays on."),
    force: bool = typer.Option(False, "--force", hidden=True),
) -> None:
    """Check MOVE against the rules, append it to FILE and print the new board.

    A refused move leaves FILE byte-for-byte unchanged. Passes of a seat that cannot act are
    appended for it. Every ply is sealed with a digest; --sign adds your signature.

    Conditional moves (--if/--then pairs, and --line for replies several moves deep) are
    stored openly in FILE, visible to your opponent as on a postal card: when the opponent's
    next move is one of the --if moves, the referee plays your --then reply at once, and the
    rest of that line stands for their next move. Any other move ends the line.

    Against the engine (new --bot), its reply comes within the same move. Where the engine's
    seat is to move (a record received so, or one move's thinking ran out), `referee move FILE`
    without a move lets it reply: a received record never makes your machine think by itself.

    Example: referee move game.toml "b e5" --as 1 --if "w d4" --then "b c3"

    Example, a line two replies deep: referee move game.toml "b e5" --line "w_d4 b_c3 w_e7 b_f2"

    A --note is sealed with your --key: your opponent's copy holds it, but only you can read it
    (referee notes), until you reveal your note key (referee reveal), say once the game is over.
    """
    from referee.play.game_file import play_turn
    from referee.render.diagram import svg_diagram, text_diagram  # drawing: see the top

    if len(if_moves or []) != len(then_moves or []):
        raise UsageError("--if and --then come in pairs: one --then for each --if")
    span = leave_span(leave) if leave is not None else None
    picture = (svg, partial(svg_diagram, palette=palette.value)) if svg is not None else None
    turn = play_turn(file, move, seat=seat, comment=comment, key_file=sign, picture=picture,
                     force=force, conditions=list(zip(if_moves or [], then_moves or [])), lines=line or [],
                     leave=span, offer_draw=offer_draw, note=note, note_key_file=key)
    typer.echo(text_diagram(turn.play), nl=False)
    for note in turn.notes:
        typer.echo(plain(note))  # a note may name a player: safe for a terminal


@app.command("validate")
@guard
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


@app.command("status")
@guard
def status_command(
    file: str = typer.Argument(..., metavar="FILE", help="The record file."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    ics: Optional[str] = typer.Option(None, "--ics", metavar="OUT.ics", help="Also write the deadline of the seat to move as a calendar event (a game with a clock)."),
    force: bool = typer.Option(False, "--force", help="Replace OUT.ics if it exists."),
) -> None:
    """Whose turn it is, the score, and the result once the game is over.

    With --ics, the deadline of the seat to move goes into a calendar file, an alarm a day
    before; a newer file of the same turn updates the same event.

    Example: referee status game.toml --ics deadline.ics
    """
    play = reports.load(file)
    if ics is not None:
        from referee.correspondence.deadlines import write_calendar  # the calendar library

        write_calendar(play, file, ics, force)
    if as_json:
        typer.echo(json.dumps(reports.status(play), indent=2))
        return
    for line in reports.status_lines(play):
        typer.echo(line)


@app.command("history")
@guard
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
@guard
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


@app.command("show")
@guard
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

    The GIF shows a frame a ply for a second, the last for five; a pass changes nothing, so it
    only holds the frame before it longer. A game too long to draw every ply within seconds
    (a few dozen frames of a large board, at most 150) becomes a time-lapse: plies evenly
    spaced from the start to the last, each frame's heading saying its ply.

    Example: referee show game.toml --ply 12 -o ply12.svg; referee show game.toml -o game.html
    """
    from referee.render import show  # drawing: see the top

    chosen = output_format(output, fmt and fmt.value, "show")
    write_output(output, show.diagram(file, ply, chosen, output, force, palette.value))


@app.command("board")
@guard
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
    from referee.render import show  # drawing: see the top

    chosen = output_format(output, fmt and fmt.value, "board")
    sheet = show.blank_board(game_name, option_values(option), paper.value, chosen, output, force, palette.value)
    write_output(output, sheet)


@app.command("verify")
@guard
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
