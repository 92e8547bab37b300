"""The command line (SPEC §4): arguments in, one library call, text out, errors to exit codes.

Every command runs inside `_guard`, the only place a RefereeError becomes a message on stderr and
an exit code; nothing below it prints or exits.
"""

# No `from __future__ import annotations` here: typer reads every command's annotations at each
# start, and string annotations cost it an evaluation apiece (milliseconds of start-up).
import contextlib
import functools
import sys
from enum import Enum
from pathlib import Path
from typing import Any, Callable, Optional

import typer

from referee import __version__
from referee.errors import RefereeError, UsageError
from referee.games import GAMES, Game

_APP_SETTINGS: dict[str, Any] = dict(
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
app = typer.Typer(**_APP_SETTINGS)


class Format(str, Enum):
    text = "text"
    svg = "svg"
    png = "png"


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


def _is_seat(text: str) -> bool:
    """A seat number as a player types it: ASCII digits ("²" is a digit to str.isdigit, but
    no number to int), short enough to be a seat."""
    text = text.strip()
    return text.isascii() and text.isdigit() and len(text) <= 9


def _data_file(game: Game, option: str, kind: str, value: str) -> dict[str, Any]:
    """The content of a data option's file: built in, or a path read from the current folder
    (SPEC §1: its content is copied into the record, which never depends on the file again)."""
    import tomllib

    from referee.data import builtin_data

    content = builtin_data(kind, value)
    if content is not None:
        return content
    from referee.record import MAX_RECORD_BYTES

    try:
        with open(value, "rb") as handle:
            data = handle.read(MAX_RECORD_BYTES + 1)  # a device such as /dev/zero never ends
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or "not UTF-8 text"
        raise UsageError(f"{value}: cannot read the {option} file for {game.name}: {reason}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise UsageError(f"{value}: the {option} file is larger than {MAX_RECORD_BYTES // 1_000_000} MB")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{value}: the {option} file is not valid TOML: {exc}") from None
    except (ValueError, RecursionError):  # a number of thousands of digits, nesting too deep
        raise UsageError(f"{value}: the {option} file is not valid TOML: a number too long "
                         "or arrays nested too deeply") from None


def _load(file: str):
    from referee.record import read_record
    from referee.replay import replay

    return replay(read_record(file))


def _write_output(path: str | None, data: str | bytes, force: bool) -> None:
    from referee.record import write_atomic

    if path is not None:
        write_atomic(path, data, force=force)
    elif isinstance(data, bytes):
        typer.get_binary_stream("stdout").write(data)
    else:
        typer.echo(data, nl=not data.endswith("\n"))


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
        typer.echo(_json(listing, indent=2))
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
    key: Optional[list[str]] = typer.Option(None, "--key", metavar="SEAT=KEY", help="A seat's public key for signed moves, from `referee key new`."),
    force: bool = typer.Option(False, "--force", help="Replace FILE if it exists."),
) -> None:
    """Start a game: write a new record and print the empty board.

    Example: referee new odd -o game.toml -O size=6 --player 1=Ann --player 2=Bo
    """
    import secrets

    from referee.record import Record, write_atomic
    from referee.render.diagram import text_diagram
    from referee.replay import start

    game = _game(game_name)
    options = _options(game, option)
    players: dict[int, dict[str, str]] = {}
    for item in player or []:
        seat_text, sep, name = item.partition("=")
        if not sep or not _is_seat(seat_text) or not name.strip():
            raise UsageError(f"--player takes SEAT=NAME, e.g. --player 1=Ann, not {item!r}")
        seat, seats = int(seat_text), game.seat_count(options)
        if not 1 <= seat <= seats:
            raise UsageError(f"{game.name} has seats 1–{seats} here, not {seat}")
        players[seat] = {"name": name.strip()}
    for item in key or []:
        seat_text, sep, public = item.partition("=")
        if not sep or not _is_seat(seat_text) or not public.strip().startswith("ed25519:"):
            raise UsageError(f"--key takes SEAT=ed25519:…, e.g. --key 1=ed25519:AAAA…, not {item!r}")
        seat = int(seat_text)
        if seat not in players:
            raise UsageError(f"--key {seat}=…: give seat {seat} a name with --player too")
        players[seat]["key"] = public.strip()
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
    if_moves: Optional[list[str]] = typer.Option(None, "--if", metavar="MOVE", help="A conditional move: if the opponent replies MOVE … (repeatable, each with a --then)."),
    then_moves: Optional[list[str]] = typer.Option(None, "--then", metavar="MOVE", help="… then play this MOVE for me."),
    sign: Optional[str] = typer.Option(None, "--sign", metavar="KEYFILE", help="Sign the move with the private key from `referee key new`."),
    svg: Optional[str] = typer.Option(None, "--svg", metavar="OUT", help="Also write the new diagram as SVG to OUT."),
    force: bool = typer.Option(False, "--force", help="Replace the --svg file if it exists."),
) -> None:
    """Check MOVE against the rules, append it to FILE and print the new board.

    A refused move leaves FILE byte-for-byte unchanged. Passes of a seat that cannot act are
    appended for it. Every ply is sealed with a digest; --sign adds your signature.

    Conditional moves (--if/--then pairs) are stored openly in FILE: when the opponent's next
    move is one of the --if moves, the referee plays your --then reply at once.

    Example: referee move game.toml "b e5" --as 1 --if "w d4" --then "b c3"
    """
    from referee.record import now, write_atomic
    from referee.render.diagram import svg_diagram, text_diagram
    from referee.turn import take_turn

    if len(if_moves or []) != len(then_moves or []):
        raise UsageError("--if and --then come in pairs: one --then for each --if")
    _refuse_existing(svg, force)
    key = _private_key(sign) if sign else None
    play = _load(file)
    before = play.plies
    notes = take_turn(
        play, move, seat=seat, comment=comment, at=now(),
        conditions=list(zip(if_moves or [], then_moves or [])),
    )
    if key is not None:
        _sign_ply(play, before + 1, key)
    # The picture first: if it cannot be written the command fails before the record changes,
    # so an exit code other than 0 always means the move was not recorded.
    if svg is not None:
        write_atomic(svg, svg_diagram(play))
    write_atomic(file, play.record.to_toml())
    typer.echo(text_diagram(play), nl=False)
    for note in notes:
        typer.echo(note)


def _private_key(path: str):
    from referee import seal

    try:
        pem = Path(path).read_bytes()
    except OSError as exc:
        raise UsageError(f"{path}: cannot read the key: {exc.strerror}") from None
    try:
        return seal.load_private_key(pem)
    except seal.SigningUnavailable as exc:
        raise UsageError(str(exc)) from None
    except ValueError as exc:
        raise UsageError(f"{path}: {exc}") from None


def _sign_ply(play, ply: int, key) -> None:
    """Sign ply `ply` with `key`, which must be the public key of the seat that made it."""
    from referee import seal

    seat = play.movers[ply - 1]
    public = play.record.players.get(seat, {}).get("key")
    if public is None:
        raise UsageError(
            f"seat {seat} has no key in [players]: add  {seat} = {{ name = \"…\", key = "
            f"\"{seal.public_key_text(key)}\" }}  first"
        )
    if public != seal.public_key_text(key):
        raise UsageError(f"that key is not seat {seat}'s key in [players]")
    entry = play.record.moves[ply - 1]
    entry.signature = seal.sign(key, entry.digest)


@app.command("validate")
@_guard
def validate_command(
    files: list[str] = typer.Argument(..., metavar="FILE...", help="Record files to check."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON list, one object per file."),
) -> None:
    """Replay and check every record; exit 0 only if all are valid (2 if a file is missing).

    Every record is checked, whatever faults come before it; a summary line closes the list.
    """
    # A progress bar only where a person watches a long run (then only faults are listed);
    # pipes and files get one line per record.
    watched = len(files) >= 50 and not as_json and sys.stderr.isatty()
    progress = (
        typer.progressbar(files, label="validating", file=sys.stderr)
        if watched else contextlib.nullcontext(files)
    )
    reports, worst = [], 0
    with progress as items:
        for file in items:
            report, fault, summary = _validate_one(file)
            reports.append(report)
            if fault is not None:
                worst = max(worst, fault.exit_code)
                if not as_json:
                    typer.echo(f"INVALID {fault}")
            elif not as_json and not watched:
                typer.echo(f"valid   {file}: {report['plies']} plies; {summary}")
    if as_json:
        typer.echo(_json(reports, indent=2))
    elif len(files) > 1:
        good = sum(r["valid"] for r in reports)
        typer.echo(f"{good} of {len(files)} records valid")
    if worst:
        raise typer.Exit(worst)


def _validate_one(file: str) -> tuple[dict[str, Any], RefereeError | None, str]:
    """One record's `validate --json` object (SPEC §4), its fault if any, and its result."""
    from referee.record import read_record
    from referee.replay import replay

    report: dict[str, Any] = {"file": str(file), "valid": True, "plies": 0, "error": None}
    try:
        record = read_record(file)
        report["plies"] = len(record.moves)
        play = replay(record)
        return report, None, play.result_sentence() + _signature_note(play)
    except RefereeError as exc:
        report["valid"] = False
        if exc.ply is not None:
            report["plies"] = exc.ply - 1
        report["error"] = {"ply": exc.ply, "move": exc.move, "message": exc.reason}
        if exc.action is not None:
            report["error"]["action"] = exc.action
        return report, exc, ""


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
        typer.echo(_json(status, indent=2))
        return
    from referee.render.header import header
    from referee.render.templates import plain  # a name from the record must not forge lines

    head = header(play, play.plies, play.game.picture(play.state, play.last_move()))
    typer.echo(plain(head.title))
    for line in head.players:
        typer.echo(plain(line))
    typer.echo(f"Ply {play.plies}" + (f"; last move {play.last_move()}" if play.plies else ""))
    for line in head.status:
        typer.echo(plain(line))  # e.g. the deck's file name, which the record gives
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
        typer.echo(_json({"to_move": to_move, **listing}))
        return
    if to_move is None:
        typer.echo("The game is over: no moves.")
        return
    moves = listing["moves"]
    if "pattern" in listing:
        typer.echo(f"Seat {to_move} plays: {listing['pattern']}")
        # A cooperative round takes one placement per seat: each seat's own choices.
        for seat, placements in listing.get("placements", {}).items():
            typer.echo(f"Seat {seat} can place ({len(placements)}):")
            typer.echo(_wrap(placements))
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
    if fmt is Format.text:
        _write_output(output, text_diagram(play, ply), force=True)
    elif fmt is Format.svg:
        _write_output(output, svg_diagram(play, ply), force=True)
    else:
        from referee.render.png import svg_to_png

        _write_output(output, svg_to_png(svg_diagram(play, ply)), force=True)


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


# -- correspondence by mail -----------------------------------------------------------------


@app.command("mail")
@_guard
def mail_command(
    file: str = typer.Argument(..., metavar="FILE", help="The record file."),
    to: Optional[str] = typer.Option(None, "--to", metavar="ADDRESS", help="Send to ADDRESS instead of the [players] address of the seat to move."),
    output: Optional[str] = typer.Option(None, "-o", "--output", metavar="MESSAGE.eml", help="Write the message here instead of printing it."),
    force: bool = typer.Option(False, "--force", help="Replace MESSAGE.eml if it exists."),
) -> None:
    """Make the mail to send: the board and status in the body, the record, SVG and PNG attached.

    Open MESSAGE.eml in your mail program (or send it with any tool that sends .eml files).

    Example: referee mail game.toml -o to-bo.eml
    """
    from referee.mail import build_message
    from referee.render.diagram import svg_diagram, text_diagram
    from referee.render.png import svg_to_png

    _refuse_existing(output, force)
    play = _load(file)
    svg = svg_diagram(play)
    name = Path(file).name
    body = text_diagram(play) + (
        "\nThe record is attached. To answer:\n"
        f"  referee receive THIS-MESSAGE.eml --mine {name}\n"
        f"  referee move {name} \"<your move>\"\n"
        f"  referee mail {name} -o reply.eml\n"
    )
    message = build_message(
        play, record_name=name, record_text=Path(file).read_text(encoding="utf-8"),
        body=body, svg=svg, png=svg_to_png(svg), to=to,
    )
    _write_output(output, bytes(message), force=True)
    if output:
        typer.echo(f"{output}: to {message['To']}, subject \"{message['Subject']}\"")


@app.command("receive")
@_guard
def receive_command(
    message_file: str = typer.Argument(..., metavar="MESSAGE", help="A received .eml message, or a record file."),
    output: Optional[str] = typer.Option(None, "-o", "--output", metavar="FILE", help="Where to save the record (default: the --mine file)."),
    mine: Optional[str] = typer.Option(None, "--mine", metavar="MY_COPY", help="The copy you last sent: the received record must extend it, ply for ply."),
    force: bool = typer.Option(False, "--force", help="Replace FILE if it exists (the --mine file is always replaced)."),
) -> None:
    """Take the record out of a received message, check it, and save it.

    With --mine, every ply of your own copy must be in the received record unchanged (moves
    and digests), so an opponent cannot alter the past. If MY_COPY does not exist yet (the
    first mail of a game), the record is saved there.

    Example: referee receive from-bo.eml --mine game.toml
    """
    from referee import seal
    from referee.mail import record_from_message
    from referee.record import parse_record, read_record, write_atomic
    from referee.render.diagram import text_diagram
    from referee.replay import replay

    target = output or mine
    if target is None:
        raise UsageError("say where to save the record: -o FILE, or --mine MY_COPY")
    if output and output != mine:
        _refuse_existing(output, force)
    try:
        data = Path(message_file).read_bytes()
    except OSError as exc:
        raise UsageError(f"{message_file}: cannot read: {exc.strerror}") from None
    record_bytes, name = record_from_message(data, message_file)
    label = message_file if name == Path(message_file).name else f"{message_file} ({name})"
    theirs = replay(parse_record(record_bytes, label))
    _check_signatures(theirs)
    first = mine is not None and not Path(mine).exists()
    if mine is not None and not first:
        problem = seal.divergence(replay(read_record(mine)), theirs)
        if problem:
            raise RefereeError(f"{message_file} does not extend {mine}: {problem}")
    write_atomic(target, record_bytes)
    typer.echo(text_diagram(theirs), nl=False)
    if first:
        # The opponent's first mail: nothing of ours to compare yet; from now on there is.
        typer.echo(f"Saved to {target}, your first copy of this game.")
    else:
        typer.echo(f"Saved to {target}.")


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
    from referee import seal

    play = _load(file)  # a bad digest is found here, at its ply
    record = play.record
    loose = seal.unsealed(record)
    typer.echo(f"{file}: {play.plies} plies, " + (
        "all sealed" if not loose else f"{len(loose)} unsealed (no digest): plies {_ranges(loose)}"
    ))
    if any(e.signature for e in record.moves):
        _check_signatures(play)
        bare = seal.unsigned(record)
        typer.echo("signatures: all valid" + (f"; unsigned plies {_ranges(bare)}" if bare else ""))
    else:
        typer.echo("signatures: none")
    if against is not None:
        problem = seal.divergence(_load(against), play)
        if problem:
            raise RefereeError(f"{file} does not extend {against}: {problem}")
        typer.echo(f"{against}: agrees with {file} up to its last ply")


def _check_signatures(play) -> None:
    from referee import seal

    if not any(e.signature for e in play.record.moves):
        return
    try:
        problems = seal.signature_problems(play.record, play.entries, play.movers)
    except seal.SigningUnavailable as exc:
        raise UsageError(f"{play.record.path}: has signed plies; {exc}") from None
    if problems:
        raise problems[0]


def _signature_note(play) -> str:
    """Check a record's signatures where the signing library is installed; say so where not."""
    from referee import seal

    try:
        _check_signatures(play)
    except UsageError:
        return " (signatures not checked: pip install 'referee[sign]')"
    return ""


def _ranges(plies: list[int]) -> str:
    spans, start = [], None
    for i, ply in enumerate(plies):
        if start is None:
            start = ply
        if i + 1 == len(plies) or plies[i + 1] != ply + 1:
            spans.append(str(start) if start == ply else f"{start}–{ply}")
            start = None
    return ", ".join(spans)


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
    import os

    from referee import seal
    from referee.record import write_atomic

    _refuse_existing(output, force)
    try:
        pem, public = seal.new_key_pair()
    except seal.SigningUnavailable as exc:
        raise UsageError(str(exc)) from None
    write_atomic(output, pem, force=True)
    os.chmod(output, 0o600)
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


def _json(value: Any, indent: int | None = None) -> str:
    import json  # here, not at the top: only --json output needs it

    return json.dumps(value, indent=indent)


def main() -> None:
    _app_for(sys.argv[1:])()


def _app_for(args: list[str]) -> typer.Typer:
    """The app with only the command asked for, when one is named: typer builds every
    registered command at each start, and a player runs one command at a time. Help, no
    command or an unknown one get the whole app, so they list every command."""
    name = args[0] if args else None
    commands = [c for c in app.registered_commands if c.name == name]
    groups = [g for g in app.registered_groups if g.name == name]
    if not commands and not groups:
        return app
    slim = typer.Typer(**_APP_SETTINGS)
    slim.registered_commands, slim.registered_groups = commands, groups
    slim.registered_callback = app.registered_callback
    return slim
