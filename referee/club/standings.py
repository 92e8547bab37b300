"""`referee standings`: the standings over an archive of records (README, Club play).

The application side of club/ranking.py, which only computes: here the records are found, read
and replayed — each once, on every core for a big archive — and the page is written
(club/standings_page.py draws it). The command line makes one call here and prints what comes
back, and loads this module only for this command: the process pool and the page's template
engine are no part of any other command's start-up.
"""

from __future__ import annotations

import datetime as dt
import os
import time
from contextlib import AbstractContextManager, nullcontext
from typing import Any, Callable, NamedTuple, Protocol
from urllib.parse import quote

from referee.play import reports
from referee.record import seal
from referee.play.archive import internal_error, judge_each, workers_for
from referee.errors import UsageError
from referee.record.files import STDIN, check_output, record_files, write_atomic
from referee.club import standings_page as drawing
from referee.club.ranking import (
    DIGEST_BYTES,
    Judged,
    Standings,
    seat_label,
    standings as compute,
    to_json,
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
    referee raise: invalid, "internal error: …", counted nowhere (SPEC §9, play/archive.py)."""
    fault = internal_error(path, exc)
    return Judged(str(path), error=str(fault), exit_code=fault.exit_code)


def _chain(play) -> bytes:
    """The seal's digests of the header and of every ply (record/seal.py), each cut to its first 16
    bytes and all in one string: enough to tell whether one copy of a game is the start of
    another, in a few bytes a ply (SPEC §9; club/ranking.py compares them)."""
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
    workers = workers_for(files)  # play/archive.py: every core for a long list
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
