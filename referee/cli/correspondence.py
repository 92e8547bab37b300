"""The commands of correspondence by mail: mail, remind, receive, and the keys of signed moves
(SPEC §6, §9). They import the correspondence package (the email package) where they start."""

# No `from __future__ import annotations` here: typer reads every command's annotations at each
# start, and string annotations cost it an evaluation apiece (milliseconds of start-up).
from typing import Optional

import typer

from referee.cli.app import (
    PALETTE_HELP, Attachment, Palette, answer, app, guard, write_output,
)
from referee.cli.syntax import output_format
from referee.render.formats import DEFAULT_PALETTE
from referee.play.keys import new_key
from referee.text import plain


@app.command("mail")
@guard
def mail_command(
    file: str = typer.Argument(..., metavar="FILE", help="The record file."),
    to: Optional[str] = typer.Option(None, "--to", metavar="ADDRESS", help="Send to ADDRESS instead of the [players] address of the other seat."),
    seat: Optional[str] = typer.Option(None, "--as", metavar="SEAT", help="Whose copy this is, the mail's sender (default: the seat of the last move made by hand, not a pass or reply the referee wrote for a seat)."),
    output: Optional[str] = typer.Option(None, "-o", "--output", metavar="MESSAGE.eml", help="Write the message here instead of printing it."),
    attach: Optional[list[Attachment]] = typer.Option(None, "--attach", help="Also attach html: the review page of the whole game."),
    force: bool = typer.Option(False, "--force", help="Replace MESSAGE.eml if it exists."),
    palette: Palette = typer.Option(DEFAULT_PALETTE, "--palette", help=PALETTE_HELP),
) -> None:
    """Make the mail to send: the board and status in the body, the record, SVG and PNG attached.

    The mail is from the seat whose copy it is (the seat of the last move made by hand, or
    --as SEAT) to the other seat, also when a conditional reply of the other seat was played
    after that move. A game with a clock gets its deadline attached as a calendar event.
    Open MESSAGE.eml in your mail program (or send it with any tool that sends .eml files).

    Example: referee mail game.toml -o to-bo.eml --attach html
    """
    from referee.correspondence.sending import mail  # the email package: see the top

    output_format(output, None, "mail")
    message = mail(file, to, output, force, [a.value for a in attach or []], palette.value, seat)
    write_output(output, bytes(message))
    if output:
        typer.echo(f"{output}: to {message['To']}, subject \"{message['Subject']}\"")


@app.command("remind")
@guard
def remind_command(
    file: str = typer.Argument(..., metavar="FILE", help="The record file (a game with a clock)."),
    to: Optional[str] = typer.Option(None, "--to", metavar="ADDRESS", help="Send to ADDRESS instead of the [players] address of the seat to move."),
    output: Optional[str] = typer.Option(None, "-o", "--output", metavar="OUT.eml", help="Write the message here instead of printing it."),
    ics: Optional[str] = typer.Option(None, "--ics", metavar="OUT.ics", help="Also write the deadline as a calendar event to OUT.ics."),
    force: bool = typer.Option(False, "--force", help="Replace OUT.eml and OUT.ics if they exist."),
    palette: Palette = typer.Option(DEFAULT_PALETTE, "--palette", help=PALETTE_HELP),
) -> None:
    """Make a reminder mail to the seat to move: its time left and its deadline, attached as a
    calendar event (an alarm a day before).

    Example: referee remind game.toml -o reminder.eml --ics deadline.ics
    """
    from referee.correspondence.sending import remind  # the email package: see the top

    output_format(output, None, "remind")
    message = remind(file, to, output, force, palette.value, ics)
    write_output(output, bytes(message))
    if output:
        typer.echo(f"{output}: to {message['To']}, subject \"{message['Subject']}\"")


@app.command("receive")
@guard
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
    from referee.correspondence.receiving import receive  # the email package: see the top
    from referee.render.diagram import text_diagram  # drawing: see the top

    received = receive(message_file, output, mine, force, seat, accept_start)
    if received.saved_to is None:
        typer.echo(f"nothing new: your copy is ahead (ply {received.mine}); {mine} is unchanged.")
        return
    typer.echo(text_diagram(received.play), nl=False)
    for warning in received.warnings:
        typer.echo(f"Warning: {warning}")
    if received.first:
        # The opponent's first mail: nothing of ours to compare yet; from now on there is.
        typer.echo(f"Saved to {received.saved_to}, your first copy of this game.")
    else:
        typer.echo(f"Saved to {received.saved_to}.")
    for note in received.notes:
        typer.echo(plain(note))  # a note may name a player: safe for a terminal


@app.command("notes")
@guard
def notes_command(
    file: str = typer.Argument(..., metavar="FILE", help="The record file."),
    key: Optional[str] = typer.Option(None, "--key", metavar="KEYFILE", help="Your private key: shows your own sealed notes."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Show the sealed notes of a game: yours with --key, and every note of a seat that
    revealed them (referee reveal); the others stay "sealed".

    A note that does not open under its seat's key (moved to another ply or game, or changed)
    is refused, naming its ply.

    Example: referee notes game.toml --key ~/.ann.key
    """
    from referee.correspondence.notes import notes, notes_lines

    report = notes(file, key)
    answer(report, as_json, lambda: notes_lines(file, report))


@app.command("reveal")
@guard
def reveal_command(
    file: str = typer.Argument(..., metavar="FILE", help="The record file."),
    key: str = typer.Option(..., "--key", metavar="KEYFILE", help="Your private key (it stays yours: only the note key it makes is written)."),
) -> None:
    """Reveal your sealed notes: append your note key to FILE, signed by you, so that anyone's
    `referee notes FILE` shows them. Your private key is never written.

    Example: referee reveal game.toml --key ~/.ann.key
    """
    from referee.correspondence.notes import reveal, reveal_words

    from referee.text import wrap

    play, seat = reveal(file, key)
    for line in wrap(reveal_words(play, seat, file)):
        typer.echo(line)


key_app = typer.Typer(help="Keys for signed moves (needs `pip install 'referee[sign]'`).", no_args_is_help=True)
app.add_typer(key_app, name="key")


@key_app.command("new")
@guard
def key_new_command(
    output: str = typer.Option(..., "-o", "--output", metavar="KEYFILE", help="Where to keep the private key (keep it to yourself)."),
    force: bool = typer.Option(False, "--force", help="Replace KEYFILE if it exists."),
) -> None:
    """Make an Ed25519 key pair: the private key into KEYFILE, the public key printed for
    `referee new … --key SEAT=PUBLIC_KEY`.

    Example: referee key new -o ~/.ann.key
    """
    import shlex

    public = new_key(output, force)
    typer.echo(public)
    # The advice on stderr, so that `$(referee key new …)` is the key alone. A key is sealed
    # into a record when the game is made (digest 0, SPEC §9): one written into a record later
    # breaks its seal, so the only way to give it is `new --key`.
    typer.echo(f"Whoever makes the game gives this key to your seat:\n"
               f"  referee new GAME -o FILE --player \"SEAT=YOUR NAME\" --key SEAT={public}\n"
               f"Then sign each of your moves: referee move FILE MOVE --sign {shlex.quote(output)}\n"
               "A key is sealed into the record when the game is made; one added to a record "
               "later breaks its seal.", err=True)
