"""The command line (SPEC §4): arguments in, one library call, text out, errors to exit codes.

Every command runs inside `_guard`, the only place a RefereeError becomes a message on stderr and
an exit code; nothing below it prints or exits.
"""

from __future__ import annotations

import functools
import json
import secrets
from enum import Enum
from pathlib import Path
from typing import Any, Callable, Optional

import typer

from referee import __version__
from referee.errors import RefereeError, UsageError
from referee.games import GAMES, Game

app = typer.Typer(
    name="referee",
    help=(
        "Referee for board and card games played by correspondence. The record file is the "
        "game: `new` starts one, `move` checks and appends a move, `show` draws the board, "
        "`validate` judges records. Games: " + ", ".join(GAMES) + " (see `referee games`)."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class Format(str, Enum):
    text = "text"
    svg = "svg"


class Paper(str, Enum):
    a4 = "a4"
    letter = "letter"


def _guard(command: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except RefereeError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(exc.exit_code) from None

    return run


# -- helpers ---------------------------------------------------------------------------------


def _game(name: str) -> Game:
    game = GAMES.get(name.strip().lower())
    if game is None:
        raise UsageError(f"unknown game {name!r}; the games are: {', '.join(GAMES)}")
    return game


def _options(game: Game, pairs: list[str] | None) -> dict[str, Any]:
    known = {o.name: o for o in game.options}
    given: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep:
            raise UsageError(f"-O takes key=value, e.g. -O size=5, not {pair!r}")
        if key not in known:
            raise UsageError(f"{game.id} has no option {key!r} (options: {', '.join(known) or 'none'})")
        try:
            given[key] = known[key].from_text(value)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    try:
        return game.resolve_options(given)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _data_file(game: Game, option: str, kind: str, value: str) -> dict[str, Any]:
    """The content of a data option's file: built in, or a path read from the current folder
    (SPEC §1: its content is copied into the record, which never depends on the file again)."""
    import tomllib

    from referee.data import builtin_data

    content = builtin_data(kind, value)
    if content is not None:
        return content
    try:
        text = Path(value).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or "not UTF-8 text"
        raise UsageError(f"{value}: cannot read the {option} file for {game.name}: {reason}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{value}: the {option} file is not valid TOML: {exc}") from None


def _load(file: str):
    from referee.record import read_record
    from referee.replay import replay

    return replay(read_record(file))


def _write_output(path: str | None, text: str, force: bool) -> None:
    from referee.record import write_atomic

    if path is None:
        typer.echo(text, nl=not text.endswith("\n"))
    else:
        write_atomic(path, text, force=force)


def _refuse_existing(path: str | None, force: bool) -> None:
    """Check an output before any work, so a refused run changes nothing at all."""
    if path is not None and Path(path).exists() and not force:
        raise UsageError(f"{path}: already exists (use --force to replace it)")


def _status_json(play) -> dict[str, Any]:
    outcome = play.outcome()
    return {
        "game": play.game.id,
        "ply": play.plies,
        "to_move": play.to_move(),
        "over": outcome is not None,
        "winners": list(outcome.winners) if outcome else [],
        "result": play.result_sentence(),
        "score": play.game.score(play.state),
        **play.game.status_extra(play.state),
        "options": play.options,
        "players": {str(s): play.record.player_name(s) for s in play.record.players},
    }


# -- commands --------------------------------------------------------------------------------


@app.command("games")
@_guard
def games_command(as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """List the games, their seats and options with defaults."""
    if as_json:
        listing = [
            {
                "id": g.id, "name": g.name, "credit": g.credit, "seats": list(g.seats),
                "options": {o.name: o.default for o in g.options}, "notation": g.notation,
            }
            for g in GAMES.values()
        ]
        typer.echo(json.dumps(listing, indent=2))
        return
    for g in GAMES.values():
        seats = f"{g.seats[0]}" if g.seats[0] == g.seats[1] else f"{g.seats[0]}–{g.seats[1]}"
        typer.echo(f"{g.id:<10} {g.name} ({g.credit}), {seats} seats")
        for option in g.options:
            typer.echo(f"{'':<12}-O {option.describe()}: {option.help}")
        typer.echo(f"{'':<12}moves: {g.notation}")


@app.command("new")
@_guard
def new_command(
    game_name: str = typer.Argument(..., metavar="GAME", help="Game id, e.g. odd."),
    output: str = typer.Option(..., "-o", "--output", metavar="FILE", help="The record file to write."),
    option: Optional[list[str]] = typer.Option(None, "-O", "--option", metavar="KEY=VALUE", help="Game option key=value, e.g. -O size=6."),
    player: Optional[list[str]] = typer.Option(None, "--player", metavar="SEAT=NAME", help="SEAT=NAME, e.g. --player '1=Ann <ann@example.org>'."),
    force: bool = typer.Option(False, "--force", help="Replace FILE if it exists."),
) -> None:
    """Start a game: write a new record and print the empty board.

    Example: referee new odd -o game.toml -O size=6 --player 1=Ann --player 2=Bo
    """
    from referee.record import Record, write_atomic
    from referee.render.diagram import text_diagram
    from referee.replay import start

    game = _game(game_name)
    options = _options(game, option)
    players: dict[int, dict[str, str]] = {}
    for item in player or []:
        seat_text, sep, name = item.partition("=")
        if not sep or not seat_text.strip().isdigit() or not name.strip():
            raise UsageError(f"--player takes SEAT=NAME, e.g. --player 1=Ann, not {item!r}")
        seat, seats = int(seat_text), game.seat_count(options)
        if not 1 <= seat <= seats:
            raise UsageError(f"{game.name} has seats 1–{seats} here, not {seat}")
        players[seat] = {"name": name.strip()}
    _refuse_existing(output, force)
    files = {name: _data_file(game, name, kind, options[name]) for name, kind in game.data_options.items()}
    try:
        setup = game.new_setup(options, files, secrets.randbits(63))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    record = Record(game.id, options, players, setup, path=str(output))
    write_atomic(output, record.to_toml(), force=True)
    typer.echo(text_diagram(start(record)), nl=False)


@app.command("move")
@_guard
def move_command(
    file: str = typer.Argument(..., metavar="FILE", help="The record file."),
    move: str = typer.Argument(..., metavar="MOVE", help="The move, in the game's notation (see `referee games`)."),
    seat: Optional[int] = typer.Option(None, "--as", metavar="SEAT", help="Refuse the move unless SEAT is to move."),
    comment: Optional[str] = typer.Option(None, "--comment", metavar="TEXT", help="A comment stored with the move."),
    svg: Optional[str] = typer.Option(None, "--svg", metavar="OUT", help="Also write the new diagram as SVG to OUT."),
    force: bool = typer.Option(False, "--force", help="Replace the --svg file if it exists."),
) -> None:
    """Check MOVE against the rules, append it to FILE and print the new board.

    A refused move leaves FILE byte-for-byte unchanged. Passes of a seat that cannot act are
    appended for it.

    Example: referee move game.toml "b e5" --as 1
    """
    from referee.record import now, write_atomic
    from referee.render.diagram import svg_diagram, text_diagram
    from referee.replay import play_move

    _refuse_existing(svg, force)
    play = _load(file)
    passes = play_move(play, move, seat=seat, comment=comment, at=now())[1:]
    write_atomic(file, play.record.to_toml())
    typer.echo(text_diagram(play), nl=False)
    for mover in play.movers[len(play.movers) - len(passes):]:
        typer.echo(f"Seat {mover} cannot act and passes (R-G3).")
    if svg is not None:
        write_atomic(svg, svg_diagram(play))


@app.command("validate")
@_guard
def validate_command(
    files: list[str] = typer.Argument(..., metavar="FILE...", help="Record files to check."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON list, one object per file."),
) -> None:
    """Replay and check every record; exit 0 only if all are valid (2 if a file is missing)."""
    from referee.record import read_record
    from referee.replay import replay

    reports, worst = [], 0
    for file in files:
        report: dict[str, Any] = {"file": str(file), "valid": True, "plies": 0, "error": None}
        try:
            record = read_record(file)
            report["plies"] = len(record.moves)
            play = replay(record)
            summary = play.result_sentence()
        except RefereeError as exc:
            report["valid"] = False
            if exc.ply is not None:
                report["plies"] = exc.ply - 1
            report["error"] = {"ply": exc.ply, "move": exc.move, "message": exc.reason}
            if exc.action is not None:
                report["error"]["action"] = exc.action
            worst = max(worst, exc.exit_code)
            if not as_json:
                typer.echo(f"INVALID {exc}")
        else:
            if not as_json:
                typer.echo(f"valid   {file}: {play.plies} plies; {summary}")
        reports.append(report)
    if as_json:
        typer.echo(json.dumps(reports, indent=2))
    elif len(files) > 1:
        good = sum(r["valid"] for r in reports)
        typer.echo(f"{good} of {len(files)} records valid")
    if worst:
        raise typer.Exit(worst)


@app.command("status")
@_guard
def status_command(
    file: str = typer.Argument(..., metavar="FILE", help="The record file."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON (SPEC §4)."),
) -> None:
    """Whose turn it is, the score, and the result once the game is over."""
    play = _load(file)
    status = _status_json(play)
    if as_json:
        typer.echo(json.dumps(status, indent=2))
        return
    from referee.render.diagram import header

    head = header(play, play.plies, play.game.picture(play.state, play.last_move()))
    typer.echo(head.title)
    for line in head.players:
        typer.echo(line)
    typer.echo(f"Ply {play.plies}" + (f"; last move {play.last_move()}" if play.plies else ""))
    for line in head.status:
        typer.echo(line)
    typer.echo(head.result)


@app.command("moves")
@_guard
def moves_command(
    file: str = typer.Argument(..., metavar="FILE", help="The record file."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON (SPEC §4)."),
    after: Optional[str] = typer.Option(None, "--after", metavar="ACTIONS", help="Actions already chosen this turn (multi-action games)."),
) -> None:
    """List the legal moves of the seat to move, in canonical notation."""
    play = _load(file)
    to_move = play.to_move()
    listing = play.game.move_listing(play.state, after) if to_move is not None else {"moves": []}
    if as_json:
        typer.echo(json.dumps({"to_move": to_move, **listing}))
        return
    if to_move is None:
        typer.echo("The game is over: no moves.")
        return
    moves = listing["moves"]
    if "pattern" in listing:
        typer.echo(f"Seat {to_move} plays: {listing['pattern']}")
        return
    typer.echo(f"Seat {to_move} has {len(moves)} legal moves:")
    typer.echo(_wrap(moves))


def _wrap(words: list[str], width: int = 78) -> str:
    lines, line = [], ""
    for word in words:
        if line and len(line) + 2 + len(word) > width:
            lines.append(line)
            line = ""
        line = f"{line}, {word}" if line else word
    return "\n".join(lines + [line])


@app.command("show")
@_guard
def show_command(
    file: str = typer.Argument(..., metavar="FILE", help="The record file."),
    ply: Optional[int] = typer.Option(None, "--ply", metavar="N", help="Show the board after ply N (0 is the start; default the last)."),
    fmt: Format = typer.Option(Format.text, "--format", help="text for a mail body, svg to attach."),
    output: Optional[str] = typer.Option(None, "-o", "--output", metavar="OUT", help="Write to OUT instead of printing."),
    force: bool = typer.Option(False, "--force", help="Replace OUT if it exists."),
) -> None:
    """Draw the board after a ply, as text or SVG."""
    from referee.render.diagram import svg_diagram, text_diagram

    _refuse_existing(output, force)
    play = _load(file)
    if ply is not None and not 0 <= ply <= play.plies:
        raise UsageError(f"{file}: --ply {ply} is beyond the record, which has plies 0–{play.plies}")
    draw = svg_diagram if fmt is Format.svg else text_diagram
    _write_output(output, draw(play, ply), force=True)


@app.command("board")
@_guard
def board_command(
    game_name: str = typer.Argument(..., metavar="GAME", help="Game id, e.g. odd."),
    option: Optional[list[str]] = typer.Option(None, "-O", "--option", metavar="KEY=VALUE", help="Game option key=value, e.g. -O size=8."),
    paper: Paper = typer.Option(Paper.a4, "--paper", help="Sheet size."),
    output: Optional[str] = typer.Option(None, "-o", "--output", metavar="OUT", help="Write the SVG to OUT instead of printing it."),
    force: bool = typer.Option(False, "--force", help="Replace OUT if it exists."),
) -> None:
    """A blank board to print, true to size (SVG in millimetres), with coordinates."""
    from referee.render.paper import paper_board

    game = _game(game_name)
    options = _options(game, option)
    _refuse_existing(output, force)
    _write_output(output, paper_board(game, options, paper.value), force=True)


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
