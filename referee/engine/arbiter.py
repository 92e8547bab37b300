"""One game of a match, and one pair of games, played under the referee's judgement (SPEC §10,
§13), as cutechess-cli referees chess engines: on the arbiter's machine, or on a cluster's
worker (cluster.py), alike.

The referee is the arbiter. It asks the engine whose seat is to move for a move (`position
startpos moves …`, then `go movetime MS`, or with a clock `go p1time … p2time … p1inc … p2inc
…`), judges the answer exactly as `referee move` judges a player's (`take_turn`: the move, the
passes it forces, the stamp, the seal), and writes the game as a sealed record after every
ply. An engine that answers with an illegal or unreadable move, crashes, gives no `bestmove`
within 3 × MS + 1 s, or lets its clock run out loses the game: the arbiter resigns for it —
`resign` is legal from the seat to move in every two-seat game — with the fault in the ply's
comment and in [result]'s reason (which replay does not check: only the winners). A game still
going at the ply cap is adjudicated a draw the only way a record can say so, by agreement
(SPEC §6): the move that reaches the cap carries a draw offer, and the arbiter accepts it for
the other seat at once.

With a clock (`--tc BASE+INC`) the arbiter keeps one per seat: it tells both to the engine to
move, counts the time from `go` to `bestmove` against that seat, adds the increment after the
move, and waits no longer than the seat has left.
"""

from __future__ import annotations

import queue
import shlex
import sys
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, Sequence

from referee.engine.match_files import GameLog, Opening, Settings
from referee.engine.process import READY_WAIT, EngineFault, EngineProcess, said
from referee.engine.tournament import Pair
from referee.engine.wire import wire
from referee.errors import NotationError, RefereeError, UsageError
from referee.play.game_file import check_size, new_game
from referee.play.replay import Replay
from referee.play.turn import take_turn
from referee.record.clock import now
from referee.record.files import write_atomic


REFEREE = "referee"  # as an ENGINE: the referee's own engine, run as a process like any other


class Aborted(Exception):
    """A game left unfinished because the match is being stopped."""


class Stop(Protocol):
    def is_set(self) -> bool: ...


@dataclass
class GameResult:
    """One game as the match counts it. `engines` gives the engine (0: ENGINE1, 1: ENGINE2, …)
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
    times: dict[int, list[float]] = field(default_factory=dict)

    def score(self, engine: int) -> float:
        """1 for a win of `engine`, ½ for a draw, 0 for a loss."""
        seat = self.engines.index(engine) + 1
        if seat in self.winners and 3 - seat not in self.winners:
            return 1.0
        return 0.0 if 3 - seat in self.winners and seat not in self.winners else 0.5


class Engines:
    """The engine processes of one worker: one for each ENGINE, started when first needed."""

    def __init__(self, argv: Sequence[Sequence[str]], settings: Settings):
        self.argv, self.settings = argv, settings
        self._processes: dict[int, EngineProcess] = {}

    def __getitem__(self, engine: int) -> EngineProcess:
        if engine not in self._processes:
            self._processes[engine] = EngineProcess(list(self.argv[engine]), f"{engine + 1}")
        return self._processes[engine]

    def start(self, engine: int) -> None:
        """Start the engine and set it up (the game, its options, its own); see process.py."""
        process = self[engine]
        process.start(self.settings.game, self.settings.given, self.settings.startup,
                      own=self.settings.options_for(engine))

    def close(self) -> None:
        """Every engine ended at once: each may take QUIT_WAIT + TERM_WAIT to end, and a
        stopped match ends within seconds however many games it plays at once."""
        closing = [threading.Thread(target=process.close, kwargs={"final": True}, daemon=True,
                                    name="engine ending") for process in list(self._processes.values())]
        for thread in closing:
            thread.start()
        for thread in closing:
            thread.join()


def play_pair(pair: Pair, numbers: Sequence[int], settings: Settings, names: Sequence[str], engines: Engines,
              path_of: Callable[[int], str], stop: Stop, logging: bool) -> list[tuple[GameResult, str | None]]:
    """The games `numbers` of the pair (both, or the one a stopped match left unfinished), each
    with its log when `logging`."""
    done = []
    for number in numbers:
        log = GameLog() if logging else None
        result = play_game(number, pair.seats(number), pair.opening, settings, names, engines,
                           path_of(number), stop, log)
        done.append((result, log.text() if log is not None else None))
    return done


def play_game(number: int, seats: tuple[int, int], opening: Opening | None, settings: Settings,
              names: Sequence[str], engines: Engines, path: str, stop: Stop,
              log: GameLog | None = None) -> GameResult:
    """Game `number`, from its opening to its end, written to `path` after every ply."""
    players = [(seat, names[engine]) for seat, engine in enumerate(seats, 1)]
    play = new_game(settings.game, settings.given, players, None, path, force=True).play
    if opening is not None:
        for index, move in enumerate(opening.moves):
            play = take_turn(play, move, at=now(), comment=opening.note() if index == 0 else None).play
        _write(play)
    for engine in set(seats):
        engines[engine].log = log.hook(engine) if log is not None else None
    try:
        return _played(number, seats, play, settings, names, engines, path, stop)
    finally:
        for engine in set(seats):
            engines[engine].log = None


def _played(number: int, seats: tuple[int, int], play: Replay, settings: Settings, names: Sequence[str],
            engines: Engines, path: str, stop: Stop) -> GameResult:
    heard = set()  # the engines told of this game
    times: dict[int, list[float]] = {seats[0]: [], seats[1]: []}
    clocks = {1: settings.clock[0] * 1000, 2: settings.clock[0] * 1000} if settings.clock else None
    fault, capped = None, False
    while play.outcome() is None:
        seat = play.to_move()
        engine = seats[seat - 1]
        process = engines[engine]
        moves = [wire(entry) for entry in play.entries]
        try:
            if engine not in heard:
                _ready(engines, engine)
                heard.add(engine)
            if clocks is None:
                text, ms, errors = process.go(moves, settings.movetime, 3 * settings.movetime / 1000 + 1)
            else:
                text, ms, errors = process.go(moves, _clock_words(clocks, settings), max(clocks[seat], 0) / 1000)
                if ms > clocks[seat]:
                    raise EngineFault("timeout", f"{ms:.0f} ms taken with {clocks[seat]:.0f} ms left")
                clocks[seat] += settings.clock[1] * 1000 - ms
        except EngineFault as exc:
            if stop.is_set():
                raise Aborted from None
            process.close()  # a crash or a hang: the next game starts it afresh
            fault = (engine, "timeout" if exc.kind == "timeout" else "crash")
            words = f"out of time: {exc.words}" if clocks is not None and exc.kind == "timeout" else exc.words
            play = _forfeit(play, seat, names[engine], words)
        else:
            if stop.is_set():
                raise Aborted
            times[engine].append(ms)
            try:
                play, capped = _judge(play, seat, text, settings.max_plies)
            except RefereeError as exc:
                fault = (engine, "illegal")
                play = _forfeit(play, seat, names[engine], _illegal(text, exc, errors))
        _write(play)
    outcome = play.outcome()
    reason = play.record.result["reason"] if play.record.result else outcome.reason
    return GameResult(number, path, seats, tuple(outcome.winners), reason, play.plies, fault, capped, times)


def _clock_words(clocks: dict[int, float], settings: Settings) -> str:
    increment = round(settings.clock[1] * 1000)
    return (f"p1time {max(0, round(clocks[1]))} p2time {max(0, round(clocks[2]))} "
            f"p1inc {increment} p2inc {increment}")


def _ready(engines: Engines, engine: int) -> None:
    """An engine ready for a new game: told so when it is running, else started afresh."""
    process = engines[engine]
    if process.running:
        process.new_game(max(READY_WAIT, engines.settings.startup or 0))
        return
    try:
        engines.start(engine)
    except OSError as exc:
        raise EngineFault("crash", f"could not be started again: {exc.strerror or exc}") from None

def next_result(results: queue.Queue[Any], timeout: float) -> Any:
    """What a runner (this machine's workers or a cluster) has finished next, from its queue:
    None when nothing came within `timeout`; an error a worker put there is raised here, in
    the arbiter's own thread."""
    try:
        item = results.get(timeout=timeout)
    except queue.Empty:
        return None
    if isinstance(item, BaseException):
        raise item
    return item


def starting_error(exc: BaseException, engine: int, commands: Sequence[str]) -> BaseException:
    """Why an engine did not start, as an error of the command (exit 2)."""
    number, command = engine + 1, commands[engine]
    if isinstance(exc, OSError):
        return UsageError(f"engine {number} ({command}) cannot be started: {exc.strerror or exc}")
    if isinstance(exc, EngineFault) and exc.kind == "refused":
        return UsageError(f"engine {number} ({command}) refused {exc.words}")
    if isinstance(exc, EngineFault):
        hint = "; is it a UGI engine?" if exc.kind == "timeout" else " before the match began"
        return UsageError(f"engine {number} ({command}): {exc.words}{hint}")
    return exc


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


def _judge(play: Replay, seat: int, text: str, max_plies: int) -> tuple[Replay, bool]:
    """The engine's move judged as `referee move` judges it, and whether it ended the game
    at the ply cap: then it carries a draw offer, which the arbiter accepts for the other
    seat. Where passes the rules force come between (they answer the offer), the next move
    tries again."""
    if not text:
        raise NotationError("bestmove without a move")
    move, at = from_wire(play, text), now()
    done = take_turn(play, move, seat=seat, at=at).play
    if done.plies < max_plies or done.outcome() is not None:
        return done, False
    try:
        offered = take_turn(play, move, seat=seat, at=at, offer_draw=True,
                            comment=f"{max_plies} plies: the arbiter offers a draw").play
        drawn = take_turn(offered, "accept draw", at=at, comment="the arbiter adjudicates a draw").play
    except RefereeError:
        return done, False
    drawn.record.result["reason"] = f"adjudicated a draw: no end after {max_plies} plies"
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


# -- a finished record, read back (--resume) ---------------------------------------------------


def fault_in(reason: str) -> str | None:
    """The kind of fault that a finished game's reason names, in the words _forfeit wrote."""
    _, forfeit, words = reason.partition(" forfeits: ")
    if not forfeit:
        return None
    if words.startswith(("crashed", "could not be started")):
        return "crash"
    if words.startswith(("no bestmove", "out of time")):
        return "timeout"
    return "illegal"


def read_back(play: Replay, number: int, seats: tuple[int, int], path: str) -> GameResult | None:
    """The result of a game that a stopped match finished (None while the record goes on)."""
    outcome = play.outcome()
    if outcome is None:
        return None
    reason = play.record.result["reason"] if play.record.result else outcome.reason
    kind = fault_in(reason)
    loser = next((seat for seat in (1, 2) if 3 - seat in outcome.winners and seat not in outcome.winners), None)
    fault = (seats[loser - 1], kind) if kind and loser else None
    return GameResult(number, path, seats, tuple(outcome.winners), reason, play.plies, fault,
                      reason.startswith("adjudicated a draw"), {})
