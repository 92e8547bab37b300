"""The commands of club play: standings and pairings (SPEC §7). They import the club package (a
process pool, the page's template) where they start."""

# No `from __future__ import annotations` here: typer reads every command's annotations at each
# start, and string annotations cost it an evaluation apiece (milliseconds of start-up).
import json
import sys
from typing import Optional

import typer

from referee.cli.app import (
    app, guard,
)
from referee.cli.syntax import option_values


@app.command("standings")
@guard
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
    from referee.club import standings  # see the top

    watched = sys.stderr.isatty()

    def progress(total: int):
        if watched and total >= 50:
            return typer.progressbar(length=total, label="judging", file=sys.stderr)
        return standings.silent(total)

    report = standings.standings(paths, html, force, progress)
    if as_json:
        typer.echo(json.dumps(report.json(), indent=2))
    else:
        for line in report.lines():
            typer.echo(line)
    if report.speed():  # a line only for a large archive (standings.SPEED_RECORDS)
        typer.echo(report.speed(), err=True)
    if report.exit_code:
        raise typer.Exit(report.exit_code)


@app.command("pairings")
@guard
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
    from referee.club.pairings import pairings  # see the top

    schedule = pairings(players, double, game, new, option_values(option), force)
    if as_json:
        typer.echo(json.dumps(schedule.json(), indent=2))
        return
    for line in schedule.lines():
        typer.echo(line)
