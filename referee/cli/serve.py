"""`referee serve`: the referee as a play-by-mail robot on a mailbox (SPEC §15)."""

# No `from __future__ import annotations` here: typer reads every command's annotations at each
# start, and string annotations cost it an evaluation apiece (milliseconds of start-up).
from typing import Optional

import typer

from referee.cli.app import app, guard


@app.command("serve")
@guard
def serve_command(
    games: str = typer.Option(..., "--games", metavar="DIR", help="The folder of the records (GAMEID.toml) and the robot's database (serve.sqlite)."),
    maildir: Optional[str] = typer.Option(None, "--maildir", metavar="IN", help="Read mail from the Maildir folder IN (made if missing)."),
    outbox: Optional[str] = typer.Option(None, "--outbox", metavar="OUT", help="Write replies into the Maildir folder OUT, for a local mail system to send."),
    imap: Optional[str] = typer.Option(None, "--imap", metavar="URL", help="Read mail by IMAP: imaps://user@host[:port]/FOLDER (imap://: STARTTLS). Password: REFEREE_IMAP_PASSWORD or ~/.netrc."),
    smtp: Optional[str] = typer.Option(None, "--smtp", metavar="URL", help="Send replies by SMTP: smtps://user@host[:port] (smtp://: STARTTLS). Password: REFEREE_SMTP_PASSWORD or ~/.netrc."),
    address: Optional[str] = typer.Option(None, "--address", metavar="ADDR", help="The robot's own address, the From: of its mails (default: the IMAP user, when it is an address)."),
    once: bool = typer.Option(False, "--once", help="Handle what is waiting, send the reminders due, and exit (for cron)."),
    watch: bool = typer.Option(False, "--watch", help="Keep going: IMAP IDLE where the server has it, else a look every --interval seconds; SIGTERM stops it between two mails."),
    interval: float = typer.Option(60.0, "--interval", metavar="SECONDS", help="With --watch: seconds between two looks at the mailbox (1–3600)."),
) -> None:
    """Referee games by mail: read the commands in each mail, judge them as `move` does, write
    the records into DIR and mail each player the game, its record attached.

    Players send commands in the text of a mail, one a line: `new odd vs bo@example.org`,
    then `move b e5` with `token …` (the token each player gets by mail), `resign`, `if X then
    Y` (kept hidden until played), `status`, `help`. A second robot on one DIR exits 2.

    Example: referee serve --games games --maildir in --outbox out --address referee@club.example --once
    """
    from referee.errors import UsageError
    from referee.serve.service import serve

    if once == watch:
        raise UsageError("give --once (handle what is waiting, then exit) or --watch (keep going)")
    serve(games, maildir=maildir, outbox=outbox, imap=imap, smtp=smtp, address=address, watch=watch,
          interval=interval)
