"""What a match reads and writes besides its games (SPEC §10, §13, §14): the openings (from a
file, or random), `match.toml` — the settings that decide the games, so that `--resume` can
go on with them —, the records' folder (its default name, and what `--force` may replace in
it), and the logs of what each engine heard and said."""

from __future__ import annotations

import os
import random
import re
import threading
import time
import tomllib
from dataclasses import dataclass, field, replace
from typing import Any

import tomli_w

from referee.play.choices import data_files
from referee.record.clock import now
from referee.engine.process import said
from referee.engine.stats import Sprt, parse_sprt
from referee.errors import CONTROL, RefereeError, UsageError
from referee.record.files import MATCH_SETTINGS, MATCH_SETTINGS_HEAD, read_input, write_atomic
from referee.games import Game
from referee.record.values import Record
from referee.play.replay import Replay, start

SETTINGS = MATCH_SETTINGS  # record/files.py knows it too: a folder of records is read without it
MOST_RANDOM_PLIES = 100
LOG_CHARS = 5_000_000  # of one game's log: an engine that floods its output is cut there


@dataclass(frozen=True)
class Opening:
    """An opening: its number (the line of its file, or its place among random ones), and its
    moves in the record's notation."""

    line: int
    moves: tuple[str, ...]
    source: str  # the file's name, for the record's comment; for random ones, the seed
    random: bool = False

    def note(self) -> str:
        """The comment of a game's first ply."""
        if self.random:
            return f"random opening {self.line} ({self.source})"
        return f"opening from line {self.line} of {self.source}"


def _empty(game: Game, options: dict) -> Replay:
    return start(Record(game.id, options, {}, game.new_setup(options, data_files(game, options), 0)))


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
    empty = _empty(game, options)
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        moves = tuple(word.replace("_", " ") for word in line.split("#", 1)[0].split())
        if moves:
            _played_out(empty, moves, path, number)
            found.append(Opening(number, moves, os.path.basename(path)))
    if not found:
        raise UsageError("no opening in it (one a line; blank lines and # comments are skipped)", file=path)
    return found


def _played_out(empty: Replay, moves: tuple[str, ...], path: str, line: int) -> None:
    """An opening judged as `move` judges a move, with the passes it forces, on a fork of the
    empty game; but no record is made: take_turn builds the whole record at every move, so an
    opening of k moves would cost k² (3,000 openings of 300 moves: minutes, not seconds)."""
    play = empty.fork()
    for index, move in enumerate(moves, 1):
        try:
            play.push(move)
            play.push_forced_passes()
        except RefereeError as exc:
            raise UsageError(f"opening move {index} ({said(move)}): {exc.reason}", file=path, line=line) from None
    if play.outcome() is not None:
        raise UsageError("this opening ends the game: nothing is left to play", file=path, line=line)


def random_openings(game: Game, options: dict, plies: int, count: int, seed: int) -> list[Opening]:
    """`count` distinct openings of `plies` plies each, every ply chosen uniformly among the
    legal ones (the passes the rules force come on top), from `seed` alone; none that ends the
    game. Where the game has fewer such openings than asked for, those it has (they come round
    again, as a file's do). A game whose turn is several actions (Hermetica) is given turns of
    one action: its whole turns are too many to list."""
    if not 1 <= plies <= MOST_RANDOM_PLIES:
        raise UsageError(f"--random-openings takes 1 to {MOST_RANDOM_PLIES} plies, not {plies}")
    rng = random.Random(seed)
    empty = _empty(game, options)
    found: dict[tuple[str, ...], None] = {}
    for _ in range(20 * count + 100):
        if len(found) == count:
            break
        play, moves = empty.fork(), []
        while len(moves) < plies and play.outcome() is None:
            choices = play.game.legal_moves(play.state)
            move = str(rng.choice(choices)) if choices else str(play.game.random_move(play.state, rng))
            play.push(move)
            play.push_forced_passes()
            moves.append(move)
        if play.outcome() is None:
            found.setdefault(tuple(moves), None)
    if not found:
        raise UsageError(f"--random-openings {plies}: every opening that long ends the game")
    return [Opening(n, moves, f"seed {seed}", random=True) for n, moves in enumerate(found, 1)]


# -- match.toml ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """Everything that decides a match's games: what `match.toml` keeps for `--resume`."""

    game: str  # the game's id
    given: dict[str, str]  # the -O values as typed: for `new` and for `setoption`
    commands: tuple[str, ...]  # the ENGINEs as typed
    games: int  # a pairing's games: whole pairs
    movetime: int | None  # ms a move; None with a clock
    clock: tuple[float, float] | None = None  # --tc: seconds at the start, seconds added a move
    max_plies: int = 1000
    startup: float | None = None  # seconds to start and be ready; None: process.START_WAIT
    gauntlet: bool = False
    sprt: Sprt | None = None
    seed: int | None = None
    openings: tuple[Opening, ...] = ()
    engine_options: tuple[tuple[int, str, str], ...] = ()  # (engine 0, 1, …, NAME, VALUE)
    names: tuple[str, ...] = field(default=())  # as the records show them, once known

    def options_for(self, engine: int) -> list[tuple[str, str]]:
        return [(name, value) for index, name, value in self.engine_options if index == engine]

    def with_names(self, names: tuple[str, ...]) -> "Settings":
        return replace(self, names=names)


def parse_clock(text: str) -> tuple[float, float]:
    """`--tc BASE+INC` in seconds (`60+0.5`; `60` alone: no increment)."""
    base, _, increment = text.partition("+")
    try:
        clock = float(base), float(increment or 0)
    except ValueError:
        raise UsageError(f"--tc {text!r}: give BASE+INC in seconds, e.g. --tc 10+0.1") from None
    if not (0 < clock[0] <= 86_400 and 0 <= clock[1] <= 3_600):
        raise UsageError(f"--tc {text!r}: BASE is 0–86,400 seconds (more than 0), INC 0–3,600")
    return clock


def parse_engine_option(text: str, engines: int) -> tuple[int, str, str]:
    """`--engine-option I:NAME=VALUE` → (I − 1, NAME, VALUE)."""
    number, colon, rest = text.partition(":")
    name, equals, value = rest.partition("=")
    if not (colon and equals and number.strip().isdigit() and name.strip()):
        raise UsageError(f"--engine-option {text!r}: give I:NAME=VALUE, e.g. --engine-option 2:Threads=1")
    if not 1 <= int(number) <= engines:
        raise UsageError(f"--engine-option {text!r}: there is no engine {int(number)} (1 to {engines})")
    if any(c in name + value for c in "\r\n\0"):
        raise UsageError(f"--engine-option {text!r}: a name or value on one line")
    return int(number) - 1, name.strip(), value.strip()


def write_settings(folder: str, settings: Settings) -> None:
    data: dict[str, Any] = {
        "format": 1, "game": settings.game, "engines": list(settings.commands),
        "names": list(settings.names), "games": settings.games, "max_plies": settings.max_plies,
        "gauntlet": settings.gauntlet,
    }
    if settings.movetime is not None:
        data["movetime"] = settings.movetime
    if settings.clock is not None:
        data["tc"] = {"base": settings.clock[0], "increment": settings.clock[1]}
    if settings.startup is not None:
        data["startup_seconds"] = settings.startup
    if settings.sprt is not None:
        data["sprt"] = settings.sprt.text()
    if settings.seed is not None:
        data["seed"] = settings.seed
    data["options"] = dict(settings.given)
    data["engine_options"] = [{"engine": e + 1, "name": n, "value": v} for e, n, v in settings.engine_options]
    data["openings"] = [{"line": o.line, "source": o.source, "random": o.random, "moves": list(o.moves)}
                        for o in settings.openings]
    head = MATCH_SETTINGS_HEAD.decode() + "; `referee match --resume DIR` reads them\n"
    write_atomic(os.path.join(folder, SETTINGS), head + tomli_w.dumps(data))


def read_settings(folder: str, game_of: Any) -> Settings:
    """The settings of the match in `folder` (`game_of(name, given)`: the game and its options,
    checked); UsageError (exit 2) when there are none or they cannot be read."""
    path = os.path.join(folder, SETTINGS)
    if not os.path.isdir(folder):
        raise UsageError(f"{folder}: no such folder: --resume takes the folder of a match")
    if not os.path.exists(path):
        raise UsageError(f"{folder}: no {SETTINGS} in it: not the folder of a match that can be resumed")
    try:
        data = tomllib.loads(read_input(path, "match settings").decode("utf-8"))
        game, options = game_of(data["game"], {str(k): str(v) for k, v in data.get("options", {}).items()})
        tc = data.get("tc")
        openings = tuple(Opening(int(o["line"]), tuple(map(str, o["moves"])), str(o["source"]), bool(o.get("random")))
                         for o in data.get("openings", []))
        empty = _empty(game, options)
        for opening in openings:
            _played_out(empty, opening.moves, path, opening.line)
        settings = Settings(
            game.id, {str(k): str(v) for k, v in data.get("options", {}).items()},
            tuple(map(str, data["engines"])), int(data["games"]),
            int(data["movetime"]) if "movetime" in data else None,
            (float(tc["base"]), float(tc["increment"])) if tc else None,
            int(data.get("max_plies", 1000)),
            float(data["startup_seconds"]) if "startup_seconds" in data else None,
            bool(data.get("gauntlet", False)),
            parse_sprt(data["sprt"]) if "sprt" in data else None,
            int(data["seed"]) if "seed" in data else None,
            openings,
            tuple((int(o["engine"]) - 1, str(o["name"]), str(o["value"])) for o in data.get("engine_options", [])),
            tuple(map(str, data.get("names", []))),
        )
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, KeyError, TypeError, ValueError, RefereeError) as exc:
        why = exc.reason if isinstance(exc, RefereeError) else f"{type(exc).__name__}: {exc}"
        raise UsageError(f"cannot be read as a match's settings ({why})", file=path) from None
    if len(settings.names) != len(settings.commands) or len(settings.commands) < 2:
        raise UsageError("cannot be read as a match's settings (engines and names differ)", file=path)
    return settings


# -- the folder ------------------------------------------------------------------------------


def default_folder(game: str) -> str:
    """match-<game>-<date>, or with -2, -3, … when a match of that day has the name already."""
    base = f"match-{game}-{now().date().isoformat()}"
    folder, n = base, 1
    while os.path.exists(folder):
        n += 1
        folder = f"{base}-{n}"
    return folder


RECORD_NAME = re.compile(r"[0-9]{3,}-[a-z0-9-]+-vs-[a-z0-9-]+\.toml")  # file_name's
LEFT_OVER = re.compile(r"\.([0-9]{3,}-[a-z0-9-]+-vs-[a-z0-9-]+|match)\.toml\.[0-9a-f]{12}\.tmp")  # write_atomic's


def earlier_match(folder: str) -> list[str]:
    """The files of an earlier match in `folder` (its records, its match.toml, and a temporary
    file that a crash left), which --force replaces; none when there is no such folder. A
    folder that holds anything else is no match's: refused (exit 2), so that --force never
    removes a file that the referee did not write."""
    try:
        entries = list(os.scandir(folder))
    except FileNotFoundError:
        return []
    except NotADirectoryError:
        raise UsageError(f"{folder}: not a folder; give another --out") from None
    except OSError as exc:
        raise UsageError(f"{folder}: cannot read the folder: {exc.strerror}") from None
    for entry in sorted(entries, key=lambda e: e.name):
        if not (entry.is_file(follow_symlinks=False) and (
                entry.name == SETTINGS or RECORD_NAME.fullmatch(entry.name) or LEFT_OVER.fullmatch(entry.name))):
            raise UsageError(f"{folder}: --force replaces only an earlier match's records, and "
                             f"{said(entry.name)} is not one; give another --out")
    return [entry.path for entry in entries]


def left_over(folder: str) -> list[str]:
    """Temporary files that a killed match left in its folder (write_atomic's), for --resume."""
    try:
        return [e.path for e in os.scandir(folder) if LEFT_OVER.fullmatch(e.name)]
    except OSError:
        return []


def remove(paths: list[str]) -> None:
    """The files of an earlier match removed, for --force (`earlier_match`)."""
    for path in paths:
        try:
            os.remove(path)
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise UsageError(f"{path}: cannot remove it: {exc.strerror}") from None


# -- logs ------------------------------------------------------------------------------------


class GameLog:
    """Every line each way between the arbiter and the engines during one game, in order:
    `12.345 e2 < bestmove b_e5` — seconds since the game began, the engine (its place among
    the ENGINEs), `>` for what the arbiter sent, `<` for what the engine wrote on its output,
    `!` on its standard error. Kept in memory up to LOG_CHARS, then cut (said once)."""

    def __init__(self) -> None:
        self._began = time.monotonic()
        self._lines: list[str] = []
        self._chars = 0
        self._cut = False
        self._lock = threading.Lock()  # the engines' reader threads write at once

    def hook(self, engine: int):
        """What an engine's process calls with each line: (direction, line)."""
        return lambda direction, line: self.add(engine, direction, line)

    def add(self, engine: int, direction: str, line: str) -> None:
        # Control characters made visible: a log read with `cat` must not steer the terminal.
        entry = f"{time.monotonic() - self._began:.3f} e{engine + 1} {direction} {line.translate(CONTROL)}"
        with self._lock:
            if self._cut:
                return
            if self._chars + len(entry) > LOG_CHARS:
                self._cut, entry = True, f"… the rest is left out: over {LOG_CHARS:,} characters"
            self._lines.append(entry)
            self._chars += len(entry) + 1

    def text(self) -> str:
        with self._lock:
            return "".join(line + "\n" for line in self._lines)


def log_target(path: str | None) -> tuple[str, bool] | None:
    """Where `--log` writes: (a folder, True) — one file a game — when PATH is a folder or
    ends with "/", else (a file, False) that every game is added to; checked before any game."""
    if path is None:
        return None
    if path.endswith(("/", os.sep)) or os.path.isdir(path):
        try:
            os.makedirs(path, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"--log {path}: cannot make the folder: {exc.strerror}") from None
        return path, True
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UsageError(f"--log {path}: no such folder to write the log into")
    if os.path.exists(path) and not os.path.isfile(path):
        raise UsageError(f"--log {path}: not a regular file")
    return path, False


def write_log(target: tuple[str, bool], record_file: str | None, number: int, text: str) -> None:
    """A game's log: NNN-…-vs-….log in the folder, or added to the one file under a heading;
    the engines' first start (before any game: `record_file` None) as start.log."""
    where, folder = target
    name = os.path.basename(record_file).removesuffix(".toml") if record_file else "start"
    heading = f"== game {number}: {name}.toml" if record_file else "== the engines start"
    try:
        if folder:
            with open(os.path.join(where, name + ".log"), "w", encoding="utf-8") as handle:
                handle.write(text)
        else:
            with open(where, "a", encoding="utf-8") as handle:
                handle.write(f"{heading}\n{text}")
    except OSError as exc:
        raise UsageError(f"--log {where}: cannot write: {exc.strerror}") from None
