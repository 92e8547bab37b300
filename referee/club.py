"""Club play: standings over an archive of records, and the round robin of an event
(README, Club play).

The application side of referee/standings.py and referee/pairings.py, which only compute:
here the records are found, read and replayed — each once, on every core for a big archive —
and the page and the new records are written. The command line (cli.py) makes one call here
and prints what comes back. It loads this module only for these two commands: the process pool
and the page's template engine are no part of any other command's start-up.
"""

from __future__ import annotations

import datetime as dt
import os
import time
from contextlib import AbstractContextManager, nullcontext
from typing import Any, Callable, Mapping, NamedTuple, Protocol
from urllib.parse import quote

from referee import reports, seal
from referee.archive import internal_error, judge_each, workers_for
from referee.choices import game_named, game_options
from referee.errors import UsageError
from referee.files import STDIN, check_output, record_files, write_atomic
from referee.pairings import Round, berger_rounds, file_name
from referee.play import new_game
from referee.render import standings as drawing
from referee.render.header import plain
from referee.standings import (
    DIGEST_BYTES, Judged, Standings, identity, seat_label, standings as compute, to_json,
)


class Bar(Protocol):
    def update(self, n_steps: int) -> None: ...


# What the command line hands in to show progress: given the number of records, a context
# whose value counts them off (typer's progress bar, or nothing at all).
Progress = Callable[[int], AbstractContextManager[Bar]]


class _Silent:
    def update(self, n_steps: int) -> None:
        pass


def silent(total: int) -> AbstractContextManager[Bar]:
    return nullcontext(_Silent())


# -- standings -------------------------------------------------------------------------------


def judge(path: str) -> Judged:
    """One record judged as `validate` judges it (read, replay, seal and signatures), boiled
    down to what the standings need. Runs in the worker processes: small and picklable."""
    verdict = reports.judge(path)
    if verdict.fault is not None:
        return Judged(str(path), error=str(verdict.fault), exit_code=verdict.fault.exit_code)
    play = verdict.play
    outcome = play.outcome()
    stamps = [entry.at for entry in play.record.moves if entry.at is not None]
    return Judged(
        file=str(path),
        game=play.game.id,
        game_name=play.game.name,
        cooperative=play.game.cooperative,
        names=tuple(seat_label(play.record.players, seat) for seat in play.seats),
        over=outcome is not None,
        winners=tuple(outcome.winners) if outcome else (),
        ended=_posix(stamps[-1]) if stamps else None,
        plies=play.plies,
        id=play.record.id,
        content=verdict.content,
        chain=_chain(play) if play.record.id is not None else b"",
    )


def crashed(path: str, exc: Exception) -> Judged:
    """The standings' verdict on a record whose judging raised what no record should make the
    referee raise: invalid, "internal error: …", counted nowhere (SPEC §9, archive.py)."""
    fault = internal_error(path, exc)
    return Judged(str(path), error=str(fault), exit_code=fault.exit_code)


def _chain(play) -> bytes:
    """The seal's digests of the header and of every ply (seal.py), each cut to its first 16
    bytes and all in one string: enough to tell whether one copy of a game is the start of
    another, in a few bytes a ply (SPEC §9; standings.py compares them)."""
    digests = [seal.header_digest(play.record), *play.digests]
    return b"".join(bytes.fromhex(digest[len(seal.PREFIX):])[:DIGEST_BYTES] for digest in digests)


def _posix(at: dt.datetime) -> float:
    """A time stamp as seconds; a stamp without an offset (TOML's local date-time) is UTC."""
    return (at if at.tzinfo is not None else at.replace(tzinfo=dt.timezone.utc)).timestamp()


# Below this many records a run is over before its speed tells anything: no line on it.
SPEED_RECORDS = 1_000


class Report(NamedTuple):
    standings: Standings
    seconds: float  # reading and judging the records
    workers: int  # processes that judged them

    @property
    def exit_code(self) -> int:
        return self.standings.worst_exit

    def json(self) -> dict[str, Any]:
        return to_json(self.standings)

    def lines(self) -> list[str]:
        return drawing.text(self.standings)

    def speed(self) -> str | None:
        """How fast the records were judged, for stderr (never in the standings themselves):
        "no records found" when there were none, and a line of records per second for a large
        archive (SPEED_RECORDS or more), where it tells how long the next run will take; None
        for a handful of records."""
        count = self.standings.records
        if not count:
            return "no records found"
        if count < SPEED_RECORDS:
            return None
        rate = f"{count / self.seconds:,.0f}" if self.seconds > 0 else "∞"
        processes = "1 process" if self.workers == 1 else f"{self.workers} processes"
        return f"judged {count:,} records in {self.seconds:.1f} s: {rate} records/s ({processes})"


def standings(paths: list[str], html: str | None = None, force: bool = False,
              progress: Progress = silent) -> Report:
    """`referee standings`: every record under `paths` judged once, the standings of each
    game, and the page written to `html` when asked (refused before any work if it exists
    without `force`)."""
    check_output(html, force)
    if html is not None and not os.path.isdir(os.path.dirname(os.path.abspath(html))):
        raise UsageError(f"{html}: no such folder to write the page into")
    listed = _once_each(record_files(paths))
    files = [file for file, first in listed if first is None]
    started = time.perf_counter()
    workers = workers_for(files)  # archive.py: every core for a long list
    verdicts: dict[str, Judged] = {}
    with progress(len(files)) as bar:
        for verdict in judge_each(judge, files, crashed, workers):
            verdicts[verdict.file] = verdict
            bar.update(1)
    seconds = time.perf_counter() - started
    judged = [verdicts[file] if first is None else Judged(file, same_file=first) for file, first in listed]
    result = compute(judged)
    if html is not None:
        write_atomic(html, drawing.page(result, _links(files, html)))
    return Report(result, seconds, workers)


def _once_each(files: list[str]) -> list[tuple[str, str | None]]:
    """Each record file once, in their order, with the file it is another name of (None for
    the first name of a file). One path named twice (a folder and a file in it) is kept
    once; a hard or symbolic link to a file met before is kept with that file's first name, to
    be judged once and counted once (SPEC §9), and listed as the same file."""
    seen: set[str] = set()  # paths as named, made absolute: a link is not its target's name
    first_names: dict[tuple[int, int], str] = {}
    listed: list[tuple[str, str | None]] = []
    for file in files:
        named = file if file == STDIN else os.path.abspath(file)
        if named in seen:
            continue
        seen.add(named)
        try:
            info = None if file == STDIN else os.stat(file)
        except OSError:  # missing or unreadable: its reader reports it
            info = None
        inode = None if info is None else (info.st_dev, info.st_ino)
        if inode in first_names:
            listed.append((file, first_names[inode]))
            continue
        if inode is not None:
            first_names[inode] = file
        listed.append((file, None))
    return listed


def _links(files: list[str], page: str) -> dict[str, str]:
    """Each record's address from the page's folder: a relative link, so the page and the
    archive can move together."""
    folder = os.path.dirname(os.path.abspath(page))
    links = {}
    for file in files:
        target = os.path.abspath(file)
        try:
            relative = os.path.relpath(target, folder)
        except ValueError:  # pragma: no cover - another drive, on Windows
            relative = target
        links[file] = quote(relative.replace(os.sep, "/"))
    return links


# -- pairings --------------------------------------------------------------------------------


class Schedule(NamedTuple):
    players: list[str]
    rounds: list[Round]
    files: dict[tuple[int, int], str]  # (round, game) → the record written, with --new

    def lines(self) -> list[str]:
        """The schedule in words: each round's games, seat 1 first, and who sits out."""
        names = _labels(self.players)
        lines = []
        for round_ in self.rounds:
            lines.append(f"Round {round_.number}")
            for number, game in enumerate(round_.games, 1):
                lines.append(plain(f"  {number}. {names[game.first]} – {names[game.second]}"))
                written = self.files.get((round_.number, number))
                if written:
                    lines.append(plain(f"     {written}"))
            if round_.bye is not None:
                lines.append(plain(f"  bye: {names[round_.bye]}"))
        return lines

    def json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "rounds": [
                {
                    "round": r.number,
                    "games": [
                        {"seat1": self.players[g.first], "seat2": self.players[g.second],
                         "file": self.files.get((r.number, n))}
                        for n, g in enumerate(r.games, 1)
                    ],
                    "bye": None if r.bye is None else self.players[r.bye],
                }
                for r in self.rounds
            ],
        }


def pairings(players: list[str], double: bool = False, game: str | None = None,
             folder: str | None = None, options_given: Mapping[str, str] | None = None,
             force: bool = False) -> Schedule:
    """`referee pairings`: the rounds of a round robin by Berger tables; with `folder`, every
    game's blank record written there (as `referee new` writes one) with its players filled in.
    Everything is checked before the first record is written."""
    names = [name.strip() for name in players]
    _check_players(names)
    if folder is not None and game is None:
        raise UsageError("--new writes records: say of which game with --game, e.g. --game odd")
    if options_given and game is None:
        raise UsageError("-O sets a game's options: say which game with --game")
    if game is not None:
        chosen = game_named(game)
        options = game_options(chosen, options_given)
        if chosen.cooperative or chosen.seat_count(options) != 2:
            raise UsageError(f"{chosen.name} is not played one against one: no round robin to pair")
    rounds = berger_rounds(len(names), double)
    files: dict[tuple[int, int], str] = {}
    if folder is not None:
        files = _plan(folder, names, rounds)
        for path in files.values():
            check_output(path, force)
        os.makedirs(folder, exist_ok=True)
        for (number, index), path in files.items():
            pairing = rounds[number - 1].games[index - 1]
            seats = [(1, names[pairing.first]), (2, names[pairing.second])]
            new_game(game, options_given, seats, None, path, force)
    return Schedule(names, rounds, files)


def _labels(players: list[str]) -> list[str]:
    """Each player's name without the address, unless two would then look alike."""
    shorts = [identity(name).short for name in players]
    folded = [short.casefold() for short in shorts]
    return [short if folded.count(short.casefold()) == 1 else name for short, name in zip(shorts, players)]


def _check_players(names: list[str]) -> None:
    if len(names) < 2:
        raise UsageError("a round robin needs at least two players")
    seen: dict[str, str] = {}
    for name in names:
        person = identity(name)
        if person is None:
            raise UsageError("a player without a name: give each player a name, e.g. 'Ann <ann@example.org>'")
        if person.key in seen:
            raise UsageError(f"{seen[person.key]!r} and {name!r} are the same player (one address, or one name)")
        seen[person.key] = name


def _plan(folder: str, names: list[str], rounds: list[Round]) -> dict[tuple[int, int], str]:
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise UsageError(f"{folder}: not a folder; --new writes the records into a folder")
    plan = {}
    for round_ in rounds:
        for index, pairing in enumerate(round_.games, 1):
            name = file_name(round_.number, index, names[pairing.first], names[pairing.second], len(rounds))
            plan[(round_.number, index)] = os.path.join(folder, name)
    return plan

