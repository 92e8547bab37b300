"""`referee match`: two programs that speak UGI play a series of games under the referee's
judgement (SPEC §10), as cutechess-cli referees chess engines.

The referee is the arbiter. It asks the engine whose seat is to move for a move (`position
startpos moves …`, `go movetime MS`), judges the answer exactly as `referee move` judges a
player's (`take_turn`: the move, the passes it forces, the stamp, the seal), and writes the
game as a sealed record after every ply. An engine that answers with an illegal or unreadable
move, crashes, or gives no `bestmove` within 3 × MS + 1 s loses the game: the arbiter resigns
for it — `resign` is legal from the seat to move in every two-seat game — with the fault in
the ply's comment and in [result]'s reason (which replay does not check: only the winners).
A game still going at the ply cap is adjudicated a draw the only way a record can say so, by
agreement (SPEC §6): the move that reaches the cap carries a draw offer, and the arbiter
accepts it for the other seat at once.

Each of K workers (threads: the engines think in processes of their own) holds a pair of
engine processes and takes the next game number; games are reported in number order, and a
game's seats, opening and records depend on its number alone, so K games at once give the
records one at a time would (with engines that always answer a position alike).
"""

from __future__ import annotations

import os
import queue
import random
import shlex
import signal
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable

from referee.play.choices import game_named, game_options
from referee.record.clock import now
from referee.club.standings import Progress
from referee.engine.process import TERM_WAIT, EngineFault, EngineProcess, adopting, said
from referee.errors import NotationError, RefereeError, UsageError
from referee.record.files import check_output, write_atomic
from referee.games import Game
from referee.engine.match_files import Opening, default_folder, earlier_match, read_openings, remove
from referee.club.berger import slug
from referee.play.game_file import check_size, new_game
from referee.record.players import identity
from referee.play.replay import Replay
from referee.play.turn import take_turn
from referee.engine.wire import wire

REFEREE = "referee"  # as an ENGINE: the referee's own engine, run as a process like any other
PLY_CAP = 1000  # plies after which a game is adjudicated a draw; no game has come near it
MOST_GAMES = 100_000
MOST_AT_ONCE = 64
MOST_MOVETIME = 3_600_000  # ms: an hour a move
ENGINE = " (engine)"  # after an engine's name in the records (SPEC §14)


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
    """The match stopped by a signal (`number`)."""

    def __init__(self, number: int):
        super().__init__(number)
        self.number = number


class _Aborted(Exception):
    """A game left unfinished because the match is being stopped."""


@dataclass(frozen=True)
class Plan:
    """A match, checked and ready to play."""

    commands: tuple[str, str]  # as typed, for messages
    argv: tuple[tuple[str, ...], tuple[str, ...]]
    game: Game
    given: dict[str, str]  # the -O values as typed: for `new` and for `setoption`
    games: int
    movetime: int  # ms
    folder: str | None  # None: match-<game>-<date>, chosen when the match starts
    openings: tuple[Opening, ...]
    concurrency: int
    max_plies: int
    force: bool = False  # replace an earlier match's records in `folder`

    @property
    def wait(self) -> float:
        """Seconds an engine has for its `bestmove` (SPEC §10)."""
        return 3 * self.movetime / 1000 + 1

    def opening_for(self, number: int) -> Opening | None:
        """Games 2i−1 and 2i start from opening i (seats swapped between them), round again
        once every opening has been played from both sides."""
        if not self.openings:
            return None
        return self.openings[(number - 1) // 2 % len(self.openings)]


@dataclass
class GameResult:
    """One game as the match counts it. `engines` gives the engine (0: ENGINE1, 1: ENGINE2)
    at seat 1 and at seat 2; `fault` the engine that lost by a fault and its kind ("illegal",
    "crash", "timeout"); `times` every answer's milliseconds, by engine."""

    number: int
    file: str
    engines: tuple[int, int]
    winners: tuple[int, ...]
    reason: str
    plies: int
    fault: tuple[int, str] | None = None
    capped: bool = False
    times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))

    def score(self, engine: int) -> float:
        """1 for a win of `engine`, ½ for a draw, 0 for a loss."""
        seat = self.engines.index(engine) + 1
        if seat in self.winners and 3 - seat not in self.winners:
            return 1.0
        return 0.0 if 3 - seat in self.winners and seat not in self.winners else 0.5


@dataclass
class Played:
    """A match that ran: its plan, the engines' names (told apart), the folder and the games."""

    plan: Plan
    names: tuple[str, str]
    folder: str
    results: list[GameResult]


# -- the plan --------------------------------------------------------------------------------


def plan(engines: tuple[str, str], game_name: str, given: dict[str, str] | None, games: int = 2,
         movetime: int = 1000, folder: str | None = None, seed: int | None = None,
         openings: str | None = None, concurrency: int = 1, max_plies: int = PLY_CAP,
         force: bool = False) -> Plan:
    """Everything checked that can be without an engine; raises UsageError (exit 2). `force`:
    an earlier match's records in `folder` are replaced (refused for a folder that holds
    anything else)."""
    game = game_named(game_name)
    options = game_options(game, given)
    if game.cooperative or game.seat_count(options) != 2:
        raise UsageError(f"{game.name} is not played one against one: a match is for games of "
                         "two seats (odd, dustin, hermit, harmijan, hermetica)")
    for value, least, most, what in ((games, 1, MOST_GAMES, "--games"),
                                     (movetime, 1, MOST_MOVETIME, "--movetime"),
                                     (concurrency, 1, MOST_AT_ONCE, "--concurrency"),
                                     (max_plies, 1, PLY_CAP * 10, "--max-plies")):
        if not least <= value <= most:
            raise UsageError(f"{what} takes {least} to {most:,}, not {value}")
    argv = tuple(engine_argv(text, n) for n, text in enumerate(engines, 1))
    if force and folder is not None:
        earlier_match(folder)  # refused now, before any engine starts
    lines = read_openings(openings, game, options) if openings else []
    if seed is not None:
        random.Random(seed).shuffle(lines)  # --seed: the order in which the openings are played
    return Plan(engines, argv, game, dict(given or {}), games, movetime, folder, tuple(lines),
                min(concurrency, games), max_plies, force)


def engine_argv(text: str, number: int) -> tuple[str, ...]:
    """An ENGINE's command as the shell would split it (run without a shell); `referee` is
    the referee's own engine, run with this Python."""
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise UsageError(f"engine {number} ({text!r}): {exc}") from None
    if not words:
        raise UsageError(f"engine {number}: an empty command")
    if words == [REFEREE]:
        return (sys.executable, "-m", "referee", "engine")
    return tuple(words)


# -- the match -------------------------------------------------------------------------------


def run(plan: Plan, progress: Progress, on_game: Callable[[GameResult, tuple[str, str]], None]) -> Played:
    """Start the engines (a pair for each game played at once), name the records, play every
    game, and end the engines and all they started, whatever happens. Raises UsageError when
    an engine does not start or answer, or a record cannot be written; Interrupted on Ctrl-C or
    SIGTERM, within seconds: every record is written whole after each ply, so the records so
    far are valid (an unfinished game as a game that goes on)."""
    pairs = [tuple(EngineProcess(list(plan.argv[e]), f"{e + 1}") for e in (0, 1))
             for _ in range(plan.concurrency)]
    folder = plan.folder
    halt = _Halt()
    # A signal handler lives in the main thread only; elsewhere the caller sees to Ctrl-C.
    in_main = threading.current_thread() is threading.main_thread()
    before = {number: signal.signal(number, halt) for number in (signal.SIGINT, signal.SIGTERM)} if in_main else {}
    try:
        with adopting():  # the engines' orphans are ours, and ended at the end
            try:
                _start_all(pairs, plan, halt)
                names = told_apart(pairs[0], plan)
                folder = folder or default_folder(plan.game.id)
                if plan.force:
                    remove(earlier_match(folder))
                files = {n: os.path.join(folder, file_name(plan, n, names)) for n in range(1, plan.games + 1)}
                for path in files.values():
                    check_output(path, force=False)
                try:
                    os.makedirs(folder, exist_ok=True)
                except OSError as exc:
                    raise UsageError(f"{folder}: cannot make the folder: {exc.strerror}") from None
                results = _play_all(pairs, plan, names, files, progress, on_game, halt)
            finally:
                _close_all(pairs)
    except (_Stopped, KeyboardInterrupt) as exc:
        where = f"; the records so far are in {folder}" if folder and os.path.isdir(folder) else ""
        number = exc.number if isinstance(exc, _Stopped) else signal.SIGINT
        raise Interrupted(f"interrupted: the engines are ended{where}", number) from None
    finally:
        for number, handler in before.items():
            signal.signal(number, handler if handler is not None else signal.SIG_DFL)
    return Played(plan, names, folder, results)


def _close_all(pairs: list[tuple[EngineProcess, ...]]) -> None:
    """Every engine ended at once: each may take QUIT_WAIT + TERM_WAIT to end, and a stopped
    match ends within seconds however many games it plays at once."""
    closing = [threading.Thread(target=engine.close, kwargs={"final": True}, daemon=True,
                                name="engine ending") for pair in pairs for engine in pair]
    for thread in closing:
        thread.start()
    for thread in closing:
        thread.join()


def _start_all(pairs: list[tuple[EngineProcess, ...]], plan: Plan, halt: _Halt) -> None:
    """Every engine started and set up at once (each takes a while to start); the first that
    fails, in the order given, is the error."""
    engines = [engine for pair in pairs for engine in pair]
    pool = ThreadPoolExecutor(max_workers=len(engines))
    try:
        futures = [pool.submit(engine.start, plan.game.id, plan.given) for engine in engines]
        for index, future in enumerate(futures):
            while True:
                try:
                    exc = future.exception(timeout=0.2)  # short: a signal is noticed between waits
                    break
                except TimeoutError:
                    halt.check()
            if exc is None:
                continue
            number = index % 2 + 1
            command = plan.commands[number - 1]
            if isinstance(exc, OSError):
                raise UsageError(f"engine {number} ({command}) cannot be started: {exc.strerror or exc}")
            if isinstance(exc, EngineFault) and exc.kind == "refused":
                raise UsageError(f"engine {number} ({command}) refused {exc.words}")
            if isinstance(exc, EngineFault):
                hint = "; is it a UGI engine?" if exc.kind == "timeout" else " before the match began"
                raise UsageError(f"engine {number} ({command}): {exc.words}{hint}")
            raise exc
    finally:
        pool.shutdown(wait=False)


def told_apart(pair: tuple[EngineProcess, ...], plan: Plan) -> tuple[str, str]:
    """The players' names: each engine's `id name` (else its program's name) shown as an
    engine's, "(engine)" added (SPEC §14): an engine may call itself "Bob <bob@example.org>",
    but it is no person, and the standings must not count its games as Bob's. "(engine 1)"
    and "(engine 2)" when the standings would take the two for one player."""
    names = [engine.name or os.path.basename(argv[0]) or "engine" for engine, argv in zip(pair, plan.argv)]
    shown = [name if name.endswith(ENGINE) else name + ENGINE for name in names]
    first, second = identity(shown[0]), identity(shown[1])
    if first is None or second is None or first.key == second.key:
        bare = [name.removesuffix(ENGINE) for name in names]
        return f"{bare[0]} (engine 1)", f"{bare[1]} (engine 2)"
    return shown[0], shown[1]


def file_name(plan: Plan, number: int, names: tuple[str, str]) -> str:
    """`003-referee-0-1-0-vs-random.toml`: the game's number, then seat 1's engine and seat 2's."""
    first, second = (names[e].removesuffix(ENGINE) for e in seated(number))
    width = max(3, len(str(plan.games)))
    return f"{number:0{width}d}-{slug(first)}-vs-{slug(second)}.toml"


def seated(number: int) -> tuple[int, int]:
    """The engines at seat 1 and seat 2 of game `number`: ENGINE1 has seat 1 in odd games."""
    return (0, 1) if number % 2 else (1, 0)


def _play_all(pairs, plan: Plan, names: tuple[str, str], files: dict[int, str], progress: Progress,
              on_game: Callable[[GameResult, tuple[str, str]], None], halt: _Halt) -> list[GameResult]:
    """The games, on a worker thread per pair of engines; reported in number order."""
    numbers: queue.Queue[int] = queue.Queue()
    for number in files:
        numbers.put(number)
    finished: queue.Queue[GameResult | BaseException] = queue.Queue()
    stop = threading.Event()

    def work(pair: tuple[EngineProcess, ...]) -> None:
        while not stop.is_set():
            try:
                number = numbers.get_nowait()
            except queue.Empty:
                return
            try:
                finished.put(play_game(number, pair, plan, names, files[number], stop))
            except _Aborted:
                return
            except BaseException as exc:  # noqa: BLE001 - the match cannot go on: say why, in the main thread
                stop.set()
                finished.put(exc)
                return

    workers = [threading.Thread(target=work, args=(pair,), daemon=True, name="match worker") for pair in pairs]
    for worker in workers:
        worker.start()
    results: dict[int, GameResult] = {}
    told = 1
    try:
        with progress(plan.games) as bar:
            while len(results) < plan.games:
                halt.check()
                try:
                    item = finished.get(timeout=0.2)  # short: a signal is noticed between waits
                except queue.Empty:
                    continue
                if isinstance(item, BaseException):
                    raise item
                results[item.number] = item
                bar.update(1)
                while told in results:
                    on_game(results[told], names)
                    told += 1
    finally:
        stop.set()
        _close_all(pairs)  # a worker waiting on an engine is woken by its end
        for worker in workers:
            # Within moments: its engine is gone, and every wait on one gives up when it goes.
            # (A worker still busy is a daemon: it cannot keep the referee from ending.)
            worker.join(2 * TERM_WAIT)
    return [results[n] for n in sorted(results)]


# -- one game --------------------------------------------------------------------------------


def play_game(number: int, pair: tuple[EngineProcess, ...], plan: Plan, names: tuple[str, str],
              path: str, stop: threading.Event) -> GameResult:
    """Game `number`, from its opening to its end, written after every ply."""
    engines = seated(number)
    players = [(seat, names[engine]) for seat, engine in enumerate(engines, 1)]
    play = new_game(plan.game.id, plan.given, players, None, path, force=False).play
    opening = plan.opening_for(number)
    if opening is not None:
        for index, move in enumerate(opening.moves):
            note = f"opening from line {opening.line} of {opening.source}" if index == 0 else None
            play = take_turn(play, move, at=now(), comment=note).play
        _write(play)
    heard = [False, False]  # whether each engine has been told of this game
    times: tuple[list[float], list[float]] = ([], [])
    fault, capped = None, False
    while play.outcome() is None:
        seat = play.to_move()
        engine = engines[seat - 1]
        process = pair[engine]
        try:
            if not heard[engine]:
                _ready(process, plan)
                heard[engine] = True
            text, ms, errors = process.go([wire(entry) for entry in play.entries], plan.movetime, plan.wait)
        except EngineFault as exc:
            if stop.is_set():
                raise _Aborted from None
            process.close()  # a crash or a hang: the next game starts it afresh
            fault = (engine, "timeout" if exc.kind == "timeout" else "crash")
            play = _forfeit(play, seat, names[engine], exc.words)
        else:
            if stop.is_set():
                raise _Aborted
            times[engine].append(ms)
            try:
                play, capped = _judge(play, seat, text, plan)
            except RefereeError as exc:
                fault = (engine, "illegal")
                play = _forfeit(play, seat, names[engine], _illegal(text, exc, errors))
        _write(play)
    outcome = play.outcome()
    reason = play.record.result["reason"] if play.record.result else outcome.reason
    return GameResult(number, path, engines, tuple(outcome.winners), reason, play.plies, fault, capped, times)


def _ready(process: EngineProcess, plan: Plan) -> None:
    """An engine ready for a new game: told so when it is running, else started afresh."""
    if process.running:
        process.new_game()
        return
    try:
        process.start(plan.game.id, plan.given)
    except OSError as exc:
        raise EngineFault("crash", f"could not be started again: {exc.strerror or exc}") from None


def from_wire(play: Replay, text: str) -> str:
    """A move as an engine wrote it, for the referee to judge: `_` read as spaces; a compact
    form without them (`be5`) read as the one legal move it spells, as `referee engine` reads
    one (SPEC §10)."""
    spaced = text.replace("_", " ")
    if "_" in text or not text:
        return spaced
    try:
        play.game.parse(play.state, spaced)
        return spaced
    except RefereeError:
        pass
    squeezed = text.lower()
    matches = [m for m in play.game.legal_moves(play.state) if str(m).replace(" ", "").lower() == squeezed]
    return str(matches[0]) if len(matches) == 1 else spaced


def _judge(play: Replay, seat: int, text: str, plan: Plan) -> tuple[Replay, bool]:
    """The engine's move judged as `referee move` judges it, and whether it ended the game
    at the ply cap: then it carries a draw offer, which the arbiter accepts for the other
    seat. Where passes the rules force come between (they answer the offer), the next move
    tries again."""
    if not text:
        raise NotationError("bestmove without a move")
    move, at = from_wire(play, text), now()
    done = take_turn(play, move, seat=seat, at=at).play
    if done.plies < plan.max_plies or done.outcome() is not None:
        return done, False
    try:
        offered = take_turn(play, move, seat=seat, at=at, offer_draw=True,
                            comment=f"{plan.max_plies} plies: the arbiter offers a draw").play
        drawn = take_turn(offered, "accept draw", at=at, comment="the arbiter adjudicates a draw").play
    except RefereeError:
        return done, False
    drawn.record.result["reason"] = f"adjudicated a draw: no end after {plan.max_plies} plies"
    return drawn, True


def _illegal(text: str, exc: RefereeError, errors: list[str]) -> str:
    kind = "unreadable move" if isinstance(exc, NotationError) else "illegal move"
    shown = said(text.replace("_", " "))
    words = f"{kind} {shown[:60]}: {exc.reason}" if shown else f"{exc.reason}"
    return words + (f" (it said: {errors[-1]})" if errors else "")


def _forfeit(play: Replay, seat: int, name: str, words: str) -> Replay:
    """The game lost by `seat`'s engine: the arbiter resigns for it, and says why."""
    done = take_turn(play, "resign", seat=seat, at=now(), comment=f"forfeit: {words}").play
    done.record.result["reason"] = f"{name} (seat {seat}) forfeits: {words}"
    return done


def _write(play: Replay) -> None:
    text = play.record.to_toml()
    check_size(text, play.plies)
    write_atomic(play.record.path, text)
