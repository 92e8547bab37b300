"""`referee match`: programs that speak UGI play game pairs under the referee's judgement
(SPEC §10, §13), as cutechess-cli and fastchess referee chess engines.

The match is planned here (every setting checked before an engine starts), its engines are
started and named, and its pairs (tournament.py) are handed to K workers on this machine —
threads, each holding engine processes of its own — or to a cluster's workers (cluster.py).
One game is played and judged by arbiter.py. Results come back here, in whatever order they
finish: each is written down, the progress told, and with `--sprt` the test is brought up to
date pair by pair in the pairs' order — pair k counts once pairs 1…k have all finished —, so
that the same match stops after the same pair, with the same statistics, however many games
it plays at once and wherever. Once the test decides, what is still being played is called
off and its records removed: the folder holds exactly the games counted.

Everything that decides the games goes into DIR/match.toml before the first one, so that
`--resume DIR` can go on with a match that was stopped (Ctrl-C, a crash, a lost machine): the
games whose records are finished count as they are, the others are played again from their
opening, and a game's seats, opening and record depend on its number alone.
"""

from __future__ import annotations

import os
import queue
import random
import signal
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable

from referee.engine import tournament
from referee.engine.arbiter import (  # noqa: F401 - from_wire, REFEREE: this module's as before
    REFEREE, Aborted, Engines, GameResult, engine_argv, from_wire, play_pair, next_result, read_back, starting_error,
)
from referee.engine.match_files import (
    SETTINGS, GameLog, Opening, Settings, default_folder, earlier_match, left_over, log_target, parse_clock,
    parse_engine_option, random_openings, read_openings, read_settings, remove, write_log, write_settings,
)
from referee.engine.process import TERM_WAIT, adopting
from referee.engine.stats import Sprt, llr, parse_sprt
from referee.engine.tournament import Pair
from referee.errors import RefereeError, UsageError
from referee.play import reports
from referee.play.choices import game_named, game_options
from referee.record.files import check_output, write_atomic

PLY_CAP = 1000  # plies after which a game is adjudicated a draw; no game has come near it
MOST_GAMES = 100_000
MOST_AT_ONCE = 64
MOST_MOVETIME = 3_600_000  # ms: an hour a move
MOST_ENGINES = 64
SPRT_GAMES = 10_000  # the most games an SPRT plays when --games does not say


class Interrupted(RefereeError):
    """Ctrl-C (SIGINT) or SIGTERM during a match: the engines are ended, the records kept. The
    exit code is 128 + the signal's number, as a shell reports a command that a signal ended:
    130 after Ctrl-C, 143 after SIGTERM."""

    def __init__(self, reason: str, number: int = signal.SIGINT):
        super().__init__(reason)
        self.exit_code = 128 + number


class _Halt:
    """The signal handler of a match (SIGINT, SIGTERM): it notes the first signal and nothing
    more; the main thread, whose every wait is short, sees it and stops the match. Raising
    from the handler instead could cut short the ending of the engines, wherever it struck."""

    def __init__(self) -> None:
        self.number: int | None = None

    def __call__(self, number: int, frame: object) -> None:
        if self.number is None:
            self.number = number

    def check(self) -> None:
        if self.number is not None:
            raise _Stopped(self.number)


class _Stopped(Exception):
    def __init__(self, number: int):
        super().__init__(number)
        self.number = number


@dataclass(frozen=True)
class Plan:
    """A match, checked and ready to play (or to go on with)."""

    settings: Settings
    argv: tuple[tuple[str, ...], ...]
    folder: str | None  # None: match-<game>-<date>, chosen when the match starts
    concurrency: int = 1
    scheduler: str | None = None  # a Dask scheduler's address, or local:K
    force: bool = False  # replace an earlier match's records in `folder`
    resume: bool = False
    log: tuple[str, bool] | None = None  # match_files.log_target

    @property
    def openings(self) -> tuple[Opening, ...]:
        return self.settings.openings

    @property
    def pairs(self) -> list[Pair]:
        s = self.settings
        return tournament.schedule(len(s.commands), s.games, s.gauntlet, s.openings)

    @property
    def games(self) -> int:
        """Games in the whole match (for the width of the games' numbers)."""
        return 2 * len(self.pairs)


@dataclass
class Played:
    """A match that ran: its plan, the engines' names, the folder, the games counted (by
    number), the pairs they make, and the SPRT's standing when there is one."""

    plan: Plan
    names: tuple[str, ...]
    folder: str
    results: list[GameResult]
    pairs: list[Pair] = field(default_factory=list)
    llr: float | None = None
    verdict: str | None = None


# -- the plan --------------------------------------------------------------------------------


def plan(engines: tuple[str, ...], game_name: str, given: dict[str, str] | None, games: int | None = None,
         movetime: int | None = None, folder: str | None = None, seed: int | None = None,
         openings: str | None = None, concurrency: int = 1, max_plies: int = PLY_CAP,
         force: bool = False, *, random_plies: int | None = None, sprt: str | None = None,
         tc: str | None = None, gauntlet: bool = False, engine_options: list[str] | tuple = (),
         startup: float | None = None, scheduler: str | None = None, log: str | None = None) -> Plan:
    """Everything checked that can be without an engine; raises UsageError (exit 2). `force`:
    an earlier match's records in `folder` are replaced (refused for a folder that holds
    anything else)."""
    game = game_named(game_name)
    options = game_options(game, given)
    if game.cooperative or game.seat_count(options) != 2:
        raise UsageError(f"{game.name} is not played one against one: a match is for games of "
                         "two seats (odd, dustin, hermit, harmijan, hermetica)")
    if not 2 <= len(engines) <= MOST_ENGINES:
        raise UsageError(f"a match takes 2 to {MOST_ENGINES} ENGINEs, not {len(engines)}")
    if gauntlet and len(engines) < 3:
        raise UsageError("--gauntlet plays the first ENGINE against each of the others: give three or more")
    test = parse_sprt(sprt) if sprt is not None else None
    if test is not None and len(engines) != 2:
        raise UsageError("--sprt tests one engine against another: give exactly two ENGINEs")
    if tc is not None and movetime is not None:
        raise UsageError("give --movetime or --tc, not both")
    clock = parse_clock(tc) if tc is not None else None
    movetime = None if clock else (1000 if movetime is None else movetime)
    games = (SPRT_GAMES if test else 2) if games is None else games
    for value, least, most, what in ((games, 1, MOST_GAMES, "--games"),
                                     (movetime or 1, 1, MOST_MOVETIME, "--movetime"),
                                     (concurrency, 1, MOST_AT_ONCE, "--concurrency"),
                                     (max_plies, 1, PLY_CAP * 10, "--max-plies")):
        if not least <= value <= most:
            raise UsageError(f"{what} takes {least} to {most:,}, not {value}")
    if startup is not None and not 0.1 <= startup <= 600:
        raise UsageError(f"--startup-seconds takes 0.1 to 600, not {startup:g}")
    argv = tuple(engine_argv(text, n) for n, text in enumerate(engines, 1))
    own = tuple(parse_engine_option(text, len(engines)) for text in engine_options)
    if force and folder is not None:
        earlier_match(folder)  # refused now, before any engine starts
    if openings is not None and random_plies is not None:
        raise UsageError("give --openings or --random-openings, not both")
    pairs = tournament.pairs_per_pairing(games)
    if random_plies is not None:
        seed = random.SystemRandom().randrange(2**31) if seed is None else seed  # kept in match.toml
        lines = random_openings(game, options, random_plies, pairs, seed)
    else:
        lines = read_openings(openings, game, options) if openings else []
        if seed is not None:
            random.Random(seed).shuffle(lines)  # --seed: the order in which the openings are played
    settings = Settings(game.id, dict(given or {}), tuple(engines), 2 * pairs, movetime, clock, max_plies,
                        startup, gauntlet, test, seed, tuple(lines), own)
    if scheduler is not None:
        from referee.engine.cluster import check_scheduler

        check_scheduler(scheduler)
    at_once = min(concurrency, 2 * pairs * len(tournament.pairings(len(engines), gauntlet)))
    return Plan(settings, argv, folder, at_once, scheduler, force, False, log_target(log))


def resume_plan(folder: str, concurrency: int = 1, scheduler: str | None = None, log: str | None = None) -> Plan:
    """The plan of the match in `folder`, to go on with it (`--resume`)."""
    settings = read_settings(folder, lambda name, given: (game := game_named(name), game_options(game, given)))
    if not 1 <= concurrency <= MOST_AT_ONCE:
        raise UsageError(f"--concurrency takes 1 to {MOST_AT_ONCE}, not {concurrency}")
    argv = tuple(engine_argv(text, n) for n, text in enumerate(settings.commands, 1))
    if scheduler is not None:
        from referee.engine.cluster import check_scheduler

        check_scheduler(scheduler)
    return Plan(settings, argv, folder, concurrency, scheduler, False, True, log_target(log))


# -- the match -------------------------------------------------------------------------------


def run(plan: Plan, on_game: Callable[[GameResult, tuple[str, ...]], None],
        on_update: Callable[["Played"], None] = lambda played: None) -> Played:
    """Start the engines, name the records, play every game still to play, and end the engines
    and all they started, whatever happens. `on_game`: each game counted, in number order;
    `on_update`: the match so far, after each game that finishes. Raises UsageError when an
    engine does not start or answer, or a record cannot be written; Interrupted on Ctrl-C or
    SIGTERM, within seconds: every record is written whole after each ply, so the records so
    far are valid (an unfinished game as a game that goes on)."""
    halt = _Halt()
    # A signal handler lives in the main thread only; elsewhere the caller sees to Ctrl-C.
    in_main = threading.current_thread() is threading.main_thread()
    before = {number: signal.signal(number, halt) for number in (signal.SIGINT, signal.SIGTERM)} if in_main else {}
    folder = plan.folder
    try:
        with adopting():  # the engines' orphans are ours, and ended at the end
            source = _source(plan)
            try:
                names = source.introduce(halt)
                folder = _folder(plan, names)
                played = Played(plan, names, folder, [])
                done = _finished(plan, names, folder)
                _play(plan, played, done, source, on_game, on_update, halt)
            finally:
                source.close()
    except (_Stopped, KeyboardInterrupt) as exc:
        where = f"; the records so far are in {folder}" if folder and os.path.isdir(folder) else ""
        number = exc.number if isinstance(exc, _Stopped) else signal.SIGINT
        raise Interrupted(f"interrupted: the engines are ended{where}", number) from None
    finally:
        for number, handler in before.items():
            signal.signal(number, handler if handler is not None else signal.SIG_DFL)
    return played


def _source(plan: Plan):
    if plan.scheduler is not None:
        from referee.engine.cluster import Cluster

        return Cluster(plan)
    return Local(plan)


def _folder(plan: Plan, names: tuple[str, ...]) -> str:
    """The records' folder, made, with match.toml in it (a new match); every record's name
    checked before the first game."""
    if plan.resume:
        remove(left_over(plan.folder))
        return plan.folder
    folder = plan.folder or default_folder(plan.settings.game)
    if plan.force:
        remove(earlier_match(folder))
    for pair in plan.pairs:
        for number in pair.numbers:
            check_output(os.path.join(folder, tournament.file_name(number, pair.seats(number), names, plan.games)),
                         force=False)
    if os.path.exists(os.path.join(folder, SETTINGS)):
        raise UsageError(f"{folder} holds a match already: --resume {folder} goes on with it, "
                         "--force replaces it")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"{folder}: cannot make the folder: {exc.strerror}") from None
    write_settings(folder, plan.settings.with_names(names))
    return folder


def _finished(plan: Plan, names: tuple[str, ...], folder: str) -> dict[int, GameResult]:
    """The games a stopped match finished (--resume): each finished, valid record counts."""
    done: dict[int, GameResult] = {}
    if not plan.resume:
        return done
    for pair in plan.pairs:
        for number in pair.numbers:
            path = tournament.record_path(folder, pair, number, names, plan.games)
            if not os.path.exists(path):
                continue
            try:
                result = read_back(reports.load(path), number, pair.seats(number), path)
            except RefereeError:
                result = None  # a record that cannot be read is played again
            if result is not None:
                done[number] = result
    return done


def _play(plan: Plan, played: Played, done: dict[int, GameResult], source, on_game, on_update, halt: _Halt) -> None:
    """Every game not yet finished, handed to the workers; the results taken in as they come."""
    test = plan.settings.sprt
    pairs = plan.pairs
    state = _Counting(plan, played, done)
    state.advance()
    todo = [] if state.decided else [(pair, [n for n in pair.numbers if n not in done]) for pair in pairs]
    todo = [(pair, numbers) for pair, numbers in todo if numbers]
    told = 0
    try:
        if todo:
            source.begin(todo, played.names, played.folder)
        while todo and not state.decided and not state.all_done():
            halt.check()
            item = source.next(0.2)  # short: a signal is noticed between waits
            if item is None:
                continue
            result, log, text = item
            if text is not None:
                write_atomic(result.file, text)
            if log is not None and plan.log is not None:
                write_log(plan.log, result.file, result.number, log)
            done[result.number] = result
            state.advance()
            on_update(state.snapshot())
            told = _tell(state, done, told, on_game, played.names)
    finally:
        source.stop()
    if state.decided and test is not None:
        # What was still being played, and any game beyond the deciding pair: called off.
        for pair in pairs[state.counted:]:
            for number in pair.numbers:
                done.pop(number, None)
                path = tournament.record_path(played.folder, pair, number, played.names, plan.games)
                if os.path.exists(path):
                    remove([path])
    _tell(state, done, told, on_game, played.names)
    played.results = [done[n] for n in sorted(done) if n <= 2 * state.counted or test is None]
    played.pairs = pairs[:state.counted] if test is not None else [p for p in pairs if all(n in done for n in p.numbers)]
    played.llr, played.verdict = state.llr, state.verdict


def _tell(state: "_Counting", done: dict[int, GameResult], told: int, on_game, names) -> int:
    """Games told in number order, up to the last the SPRT still counts."""
    limit = 2 * state.counted if state.decided else None
    while told + 1 in done and (limit is None or told + 1 <= limit):
        told += 1
        on_game(done[told], names)
    return told


class _Counting:
    """The pairs counted so far, in the pairs' order, and the SPRT over them."""

    def __init__(self, plan: Plan, played: Played, done: dict[int, GameResult]):
        self.plan, self.played, self.done = plan, played, done
        self.pairs = plan.pairs
        self.counted = 0  # pairs 1…counted finished
        self.pentanomial = [0] * 5
        self.llr: float | None = 0.0 if plan.settings.sprt else None
        self.verdict: str | None = None

    @property
    def decided(self) -> bool:
        return self.verdict is not None

    def all_done(self) -> bool:
        return all(n in self.done for pair in self.pairs for n in pair.numbers)

    def advance(self) -> None:
        test: Sprt | None = self.plan.settings.sprt
        while not self.decided and self.counted < len(self.pairs):
            pair = self.pairs[self.counted]
            if not all(n in self.done for n in pair.numbers):
                return
            points = sum(self.done[n].score(pair.engines[0]) for n in pair.numbers)
            self.pentanomial[round(points * 2)] += 1
            self.counted += 1
            if test is not None:
                self.llr = llr(self.pentanomial, test.elo0, test.elo1)
                self.verdict = test.verdict(self.llr)

    def snapshot(self) -> Played:
        """The match so far, for the progress line: every game finished (in any order)."""
        return Played(self.plan, self.played.names, self.played.folder, [self.done[n] for n in sorted(self.done)],
                      self.pairs[:self.counted], self.llr, self.verdict)


# -- workers on this machine -----------------------------------------------------------------


class Local:
    """K workers on this machine: threads, each with engine processes of its own (the first
    worker's are those started to learn the engines' names), each taking the next game."""

    def __init__(self, plan: Plan):
        self.plan = plan
        self.workers = [Engines(plan.argv, plan.settings) for _ in range(plan.concurrency)]
        self.results: queue.Queue[Any] = queue.Queue()
        self.halted = threading.Event()
        self.threads: list[threading.Thread] = []

    def introduce(self, halt: _Halt) -> tuple[str, ...]:
        """Every engine started and set up at once (each takes a while to start); the first
        that fails, in the order given, is the error. Their names (resuming: those kept)."""
        first = self.workers[0]
        count = len(self.plan.argv)
        log = GameLog() if self.plan.log is not None else None
        for engine in range(count):
            first[engine].log = log.hook(engine) if log is not None else None
        pool = ThreadPoolExecutor(max_workers=count)
        try:
            futures = [pool.submit(first.start, engine) for engine in range(count)]
            for engine, future in enumerate(futures):
                while True:
                    try:
                        exc = future.exception(timeout=0.2)  # short: a signal is noticed between waits
                        break
                    except TimeoutError:
                        halt.check()
                if exc is not None:
                    raise starting_error(exc, engine, self.plan.settings.commands)
        finally:
            pool.shutdown(wait=False)
            for engine in range(count):
                first[engine].log = None
            if log is not None:
                write_log(self.plan.log, None, 0, log.text())
        if self.plan.resume:
            return self.plan.settings.names
        return tournament.told_apart([first[e].name for e in range(count)], self.plan.argv)

    def begin(self, todo: list[tuple[Pair, list[int]]], names: tuple[str, ...], folder: str) -> None:
        work: queue.Queue[tuple[Pair, list[int]]] = queue.Queue()
        for pair, numbers in todo:
            for number in numbers:  # a game at a time: K games at once, the two of a pair too
                work.put((pair, [number]))

        def worker(engines: Engines) -> None:
            while not self.halted.is_set():
                try:
                    pair, numbers = work.get_nowait()
                except queue.Empty:
                    return
                try:
                    for result, log in play_pair(pair, numbers, self.plan.settings, names, engines,
                                                 lambda n: tournament.record_path(folder, pair, n, names, self.plan.games),
                                                 self.halted, self.plan.log is not None):
                        self.results.put((result, log, None))
                except Aborted:
                    return
                except BaseException as exc:  # noqa: BLE001 - the match cannot go on: say why, in the main thread
                    self.halted.set()
                    self.results.put(exc)
                    return

        self.threads = [threading.Thread(target=worker, args=(engines,), daemon=True, name="match worker")
                        for engines in self.workers[:work.qsize()]]
        for thread in self.threads:
            thread.start()

    def next(self, timeout: float):
        return next_result(self.results, timeout)

    def stop(self) -> None:
        self.halted.set()
        self.close()  # a worker waiting on an engine is woken by its end
        for thread in self.threads:
            # Within moments: its engine is gone, and every wait on one gives up when it goes.
            # (A worker still busy is a daemon: it cannot keep the referee from ending.)
            thread.join(2 * TERM_WAIT)

    def close(self) -> None:
        closing = [threading.Thread(target=engines.close, daemon=True) for engines in self.workers]
        for thread in closing:
            thread.start()
        for thread in closing:
            thread.join()
