"""What a match reads and writes besides its games (SPEC §10, §13, §14): the openings file,
and the records' folder — its default name, and what `--force` may replace in it."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from referee.play.choices import data_files
from referee.record.clock import now
from referee.engine.process import said
from referee.errors import RefereeError, UsageError
from referee.record.files import read_input
from referee.games import Game
from referee.record.values import Record
from referee.play.replay import start


@dataclass(frozen=True)
class Opening:
    """One line of an openings file: its number, and its moves in the record's notation."""

    line: int
    moves: tuple[str, ...]
    source: str  # the file's name, for the record's comment


def read_openings(path: str, game: Game, options: dict) -> list[Opening]:
    """The openings of FILE: one a line, moves in the wire form separated by spaces, blank
    lines and `#` comments skipped; each played out on an empty board, so an illegal one is
    refused (exit 2) naming its line."""
    try:
        text = read_input(path, "file of openings").decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError("not UTF-8 text: not an openings file", file=path) from None
    except RefereeError as exc:  # too long
        raise UsageError(exc.reason, file=path) from None
    empty = start(Record(game.id, options, {}, game.new_setup(options, data_files(game, options), 0)))
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        moves = tuple(word.replace("_", " ") for word in line.split("#", 1)[0].split())
        if not moves:
            continue
        # Judged as `move` judges a move, with the passes it forces, on a fork of the empty
        # game; but no record is made: take_turn builds the whole record at every move, so an
        # opening of k moves would cost k² (3,000 openings of 300 moves: minutes, not seconds).
        play = empty.fork()
        for index, move in enumerate(moves, 1):
            try:
                play.push(move)
                play.push_forced_passes()
            except RefereeError as exc:
                raise UsageError(f"opening move {index} ({said(move)}): {exc.reason}",
                                 file=path, line=number) from None
        if play.outcome() is not None:
            raise UsageError("this opening ends the game: nothing is left to play", file=path, line=number)
        found.append(Opening(number, moves, os.path.basename(path)))
    if not found:
        raise UsageError("no opening in it (one a line; blank lines and # comments are skipped)", file=path)
    return found


def default_folder(game: str) -> str:
    """match-<game>-<date>, or with -2, -3, … when a match of that day has the name already."""
    base = f"match-{game}-{now().date().isoformat()}"
    folder, n = base, 1
    while os.path.exists(folder):
        n += 1
        folder = f"{base}-{n}"
    return folder


RECORD_NAME = re.compile(r"[0-9]{3,}-[a-z0-9-]+-vs-[a-z0-9-]+\.toml")  # file_name's
LEFT_OVER = re.compile(r"\.[0-9]{3,}-[a-z0-9-]+-vs-[a-z0-9-]+\.toml\.[0-9a-f]{12}\.tmp")  # write_atomic's


def earlier_match(folder: str) -> list[str]:
    """The files of an earlier match in `folder` (its records, and a record's temporary file
    that a crash left), which --force replaces; none when there is no such folder. A folder
    that holds anything else is no match's: refused (exit 2), so that --force never removes a
    file that the referee did not write."""
    try:
        entries = list(os.scandir(folder))
    except FileNotFoundError:
        return []
    except NotADirectoryError:
        raise UsageError(f"{folder}: not a folder; give another --out") from None
    except OSError as exc:
        raise UsageError(f"{folder}: cannot read the folder: {exc.strerror}") from None
    for entry in sorted(entries, key=lambda e: e.name):
        if not (entry.is_file(follow_symlinks=False)
                and (RECORD_NAME.fullmatch(entry.name) or LEFT_OVER.fullmatch(entry.name))):
            raise UsageError(f"{folder}: --force replaces only an earlier match's records, and "
                             f"{said(entry.name)} is not one; give another --out")
    return [entry.path for entry in entries]


def remove(paths: list[str]) -> None:
    """The files of an earlier match removed, for --force (`earlier_match`)."""
    for path in paths:
        try:
            os.remove(path)
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise UsageError(f"{path}: cannot remove it: {exc.strerror}") from None
