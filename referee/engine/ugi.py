"""`referee engine`: the engine over UGI, the Universal Game Interface (as cutegames defines
it; SPEC §10), on standard input and output, so that a program that speaks UGI can play any
of the referee's games against it, or ask it for moves.

On the wire a move is its canonical notation with every space written `_` (`b_e5`,
`c4-c6_f6`, `A_d4-d5*c5;_F_c1xc4`, `7_2,0_90`); a move written without `_` is read where the
game reads it so (Hermetica, Hermit) or where exactly one legal move is written so (`be5`).
A move that cannot be read or is illegal gets `info string error …`, and the position stays
as it was. `go` searches on a thread of its own, so `stop`, `isready` and `quit` are answered
while it thinks. Whoever writes to it (SPEC §14): a line over 5 MB is refused unread, a
number is ASCII digits within its bound, a command that fails says `info string error …` and
the engine goes on, a `go` is always answered, and `quit` or the end of input ends the process
within a second.
"""

from __future__ import annotations

import functools
import queue
import re
import sys
import threading
import time
from typing import Any, BinaryIO, Callable, Iterator

from referee import __version__
from referee.play.choices import data_files, game_options
from referee.errors import RefereeError
from referee.record.files import MAX_INPUT_BYTES, STDIN
from referee.games import GAMES, Game
from referee.record.values import Record
from referee.engine.thinking import Thinking, one_line
from referee.play.replay import start
from referee.search.mcts import Search
from referee.search.tree import ALGORITHMS, DEFAULT_ALGORITHM

DEFAULT_GAME = "odd"

MAX_LINE = MAX_INPUT_BYTES  # SPEC §14: a line longer than a record may be is not a command
MAX_NODES = 10**9
MAX_MOVETIME = 600_000  # ms, as `hint --seconds` 600
MAX_CLOCK = 10**9  # ms on a seat's clock (11½ days); a move thinks at most MAX_MOVETIME of it
LIMITS = {"nodes": MAX_NODES, "movetime": MAX_MOVETIME,
          **{f"p{seat}time": MAX_CLOCK for seat in range(1, 5)},
          **{f"p{seat}inc": MAX_MOVETIME for seat in range(1, 5)},
          "movestogo": 10**6}  # moves to the next time control, as UCI's GUIs send it
DIGITS = re.compile(r"[0-9]+")  # ASCII only: str.isdigit() takes '²', which int() refuses
SHOWN = 60  # characters of a stranger's word repeated in an error
# `quit` or the end of input, counted from when it is read: a search under way has QUIT_WAIT to
# end by its own limit and say its bestmove, then is stopped (its best so far said); by QUIT_END
# the process ends whatever it is doing (SPEC §14: within 1 s).
QUIT_WAIT = 0.4
QUIT_END = 0.75
MULTIPV = (1, 10)  # the moves a `go` may be asked to say its thinking of (as `hint --lines`)
# A search of the last `go` still ending its iteration (after the watch answered) is waited
# for this long before its tree is carried on; past it the next `go` starts a tree anew.
REUSE_WAIT = 0.2


def shown(text: str) -> str:
    """A stranger's word as an error repeats it: quoted, escaped, and cut short."""
    return repr(text if len(text) <= SHOWN else text[:SHOWN] + "…")


class UgiError(Exception):
    """A command the engine cannot follow; its words follow `info string error`."""


@functools.cache
def listed_options() -> dict[str, Any]:
    """The options `ugi` lists: every game's, each name once (an arbiter that sends only the
    options an engine lists must be able to send Hermit its `board`), with the default game's
    default, else the first game's that has the option."""
    listed: dict[str, Any] = {}
    for game in (GAMES[DEFAULT_GAME], *GAMES.values()):
        for option in game.options:
            listed.setdefault(option.name, option.default)
    return listed


class Session:
    """One engine: the game and options chosen, the position, and the search thinking on it."""

    def __init__(self, say: Callable[[str], None]):
        self.say_lock = threading.Lock()
        self._raw_say = say
        self.game: Game = GAMES[DEFAULT_GAME]
        # Every option set, by name, whichever game has it: a game chosen later gets its own.
        self.given: dict[str, str] = {}
        self.start_state: Any = None
        self.state: Any = None
        self.history: list[Any] = []
        self._thinking: Thinking | None = None
        self.quit_by: float | None = None  # once `quit` is read: when the answer must be said
        self.multipv = 1
        self.algorithm = DEFAULT_ALGORITHM
        # The last `go`'s search and the moves of its position: the next `go` carries the tree
        # on where its position extends that one (SPEC §11).
        self._searched: tuple[Thinking, list[Any]] | None = None
        self.new_game()

    def say(self, line: str) -> None:
        with self.say_lock:
            self._raw_say(line)

    # -- the commands ------------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Follow one command; False once the engine is to quit. Nothing a command does ends
        the engine but `quit`: a command that fails is answered `info string error …`."""
        words = line.split()
        if not words:
            return True
        command, rest = words[0], words[1:]
        try:
            if command == "quit":
                self.quit()
                return False
            handler = self.COMMANDS.get(command)
            if handler is None:
                raise UgiError(f"unknown command {shown(command)}")
            handler(self, rest)
        except UgiError as exc:
            self.say(f"info string error {one_line(str(exc))}")
        except Exception as exc:  # noqa: BLE001 - a fault of ours: said, and the engine goes on
            self.say(f"info string error {command}: {one_line(f'{type(exc).__name__}: {exc}')}")
        return True

    def _ugi(self, rest: list[str]) -> None:
        self.say(f"id name referee {__version__}")
        self.say("id author the referee's authors")
        # The engine's own options, in the form SPEC §10 gives every option: MultiPV (SPEC
        # §11: 1–10 moves said as the engine thinks), Algorithm (grave, or uct: the search as
        # it was before GRAVE, the solver and the kept tree, for comparisons).
        self.say("option name MultiPV type string default 1")
        self.say(f"option name Algorithm type string default {DEFAULT_ALGORITHM}")
        self.say(f"option name game type string default {DEFAULT_GAME}")
        for name, default in listed_options().items():
            self.say(f"option name {name} type string default {default}")
        self.say("ugiok")

    def _setoption(self, rest: list[str]) -> None:
        if len(rest) < 4 or rest[0] != "name" or "value" not in rest:
            raise UgiError("setoption name <name> value <value>")
        at = rest.index("value")
        name, value = " ".join(rest[1:at]), " ".join(rest[at + 1:])
        self.settle()
        if name.lower() == "multipv":
            low, high = MULTIPV
            if not DIGITS.fullmatch(value) or len(value) > 3 or not low <= int(value) <= high:
                raise UgiError(f"setoption name MultiPV: {shown(value)} is not a whole number {low}–{high}")
            self.multipv = int(value)
            return
        if name.lower() == "algorithm":
            if value.lower() not in ALGORITHMS:
                raise UgiError(f"setoption name Algorithm: {shown(value)} is none of {', '.join(ALGORITHMS)}")
            self.algorithm, self._searched = value.lower(), None
            return
        if name == "game":
            return self._choose_game(value)
        if name not in listed_options():
            raise UgiError(f"no game has an option {shown(name)} (options: game, {', '.join(listed_options())})")
        given = {**self.given, name: value}  # another game's option: kept for that game
        if name in self._names(self.game):
            state = self._start(self.game, given)  # refused here, not at the next position
            self.start_state, self.state, self.history = state, state, []
            self._searched = None
        self.given = given

    def _choose_game(self, value: str) -> None:
        """The game named, with the options set so far that it has. One it refuses is said
        and dropped: the game asked for is played, with that option's default."""
        game = GAMES.get(value.lower())
        if game is None:
            raise UgiError(f"unknown game {shown(value)} (known: {', '.join(GAMES)})")
        given = {name: text for name, text in self.given.items() if name not in self._names(game)}
        for name, text in self.given.items():
            if name in self._names(game):
                try:
                    self._start(game, {**given, name: text})
                except UgiError as exc:
                    self.say(f"info string error {game.id}: option {name} dropped: {one_line(str(exc))}")
                    continue
                given[name] = text
        self.game, self.given = game, given
        self.new_game()

    def _position(self, rest: list[str]) -> None:
        self.settle()
        if not rest or rest[0] != "startpos":
            raise UgiError("position startpos [moves M1 M2 …]")
        if len(rest) > 1 and rest[1] != "moves":
            raise UgiError(f"position startpos: expected 'moves', not {shown(rest[1])}")
        state, history = self.start_state, []
        for number, text in enumerate(rest[2:], 1):
            try:
                move = self.read_move(state, text)
                state = self.game.apply(state, move)
            except RefereeError as exc:
                raise UgiError(f"move {number} ({shown(text)}): {exc}") from None
            history.append(move)
        self.state, self.history = state, history

    def _go(self, rest: list[str]) -> None:
        asked, iterations = self._limits(rest)  # refused at once, a search under way or not
        self.settle()
        if self.game.outcome(self.state) is not None:
            raise UgiError("the game is over")
        # On a thread of its own, so that `isready`, `query` and `stop` are answered meanwhile.
        game, state, history, algorithm = self.game, self.state, list(self.history), self.algorithm
        last = self._searched

        def prepare() -> Search:
            """The last `go`'s tree carried on to this position where it extends that one's
            (and that search has ended), else a new tree — the old one let go first, so that
            two trees never hold memory at once (SPEC §14)."""
            nonlocal last
            previous, last = last, None
            if previous is not None and previous[0].search is not None and previous[0].join(REUSE_WAIT):
                search, before = previous[0].search, previous[1]
                previous[0].search = None
                if (search.game is game and search.settings.reuse and history[:len(before)] == before
                        and search.advance(history[len(before):], state)):
                    return search
                del search
            elif previous is not None:
                previous[0].search = None
            del previous
            return Search(game, state, seed=len(history), algorithm=algorithm)

        self._thinking = Thinking(self.say, game, state, len(history), asked, iterations,
                                  prepare=prepare, multipv=self.multipv)
        self._searched = (self._thinking, history)
        self._thinking.start()

    def _query(self, rest: list[str]) -> None:
        what, outcome = rest[0] if rest else "", self.game.outcome(self.state)
        if what == "gameover":
            answer = "true" if outcome is not None else "false"
        elif what == "p1turn":
            answer = "true" if self.game.to_move(self.state) == 1 else "false"
        elif what != "result":
            raise UgiError("query gameover | p1turn | result")
        elif outcome is None:
            answer = "none"
        elif self.game.cooperative:
            # A solo or cooperative game is won or lost by its seats together; UGI has no
            # word for a loss to the game itself: p2win says "not won".
            answer = "p1win" if outcome.winners else "p2win"
        else:
            answer = f"p{outcome.winners[0]}win" if outcome.winners else "draw"
        self.say(f"response {answer}")

    # -- the parts ---------------------------------------------------------------------------

    def new_game(self) -> None:  # the start position of the game with the options given
        self.settle()
        self._searched = None
        self.start_state = self._start(self.game, self.given)
        self.state, self.history = self.start_state, []

    @staticmethod
    def _names(game: Game) -> set[str]:
        return {option.name for option in game.options}

    def _start(self, game: Game, given: dict[str, str]) -> Any:
        """The start position of `game` under the options in `given` it has; UgiError, naming
        the option or the file, where one cannot be used (SPEC §14: a deck or board file that
        cannot be read is refused, and the engine goes on)."""
        try:
            options = game_options(game, {k: v for k, v in given.items() if k in self._names(game)})
            if any(options[name] == STDIN for name in game.data_options):  # the commands' stream
                raise UgiError(f"{game.id}: standard input (-) carries the engine's commands, not a file")
            setup = game.new_setup(options, data_files(game, options), options.get("seed", 0))
            state = start(Record(game.id, options, {}, setup)).state
            # Listed here, before `readyok`, not in the first `go`'s time: a first listing can
            # be slow (Harmijan's 55,000 setups take seconds, then are kept for the board size).
            game.legal_actions(game.begin_turn(state))
            return state
        except RefereeError as exc:
            raise UgiError(str(exc)) from None
        except (ValueError, OSError) as exc:  # a data file the game's own checks refuse
            raise UgiError(f"{game.id}: {exc}") from None

    def read_move(self, state: Any, text: str) -> Any:
        """A move from the wire: `_` as spaces, else the one legal move written so."""
        try:
            return self.game.parse(state, text.replace("_", " "))
        except RefereeError:
            if "_" in text:
                raise
        squeezed = text.lower()
        matches = [m for m in self.game.legal_moves(state) if str(m).replace(" ", "").lower() == squeezed]
        if len(matches) != 1:
            return self.game.parse(state, text)  # its error says why
        return matches[0]

    def _limits(self, rest: list[str]) -> tuple[float | None, int | None]:
        """`go movetime MS | nodes N | infinite | p1time … p2time … [p1inc … p2inc …]`: the
        seconds the answer is asked within and the iterations (both None: until `stop`)."""
        usage = "go movetime MS | nodes N | infinite | p1time MS p2time MS [p1inc MS p2inc MS …]"
        values: dict[str, int] = {}
        words = iter(rest)
        for word in words:
            if word == "infinite":
                return None, None
            if word not in LIMITS:
                raise UgiError(f"go: unknown limit {shown(word)} ({usage})")
            number = next(words, "")
            if not DIGITS.fullmatch(number):
                raise UgiError(f"go {word}: {shown(number)} is not a whole number in digits 0–9")
            # (the length first: int() of thousands of digits is slow, or refused)
            if len(number.lstrip("0")) > len(str(LIMITS[word])) or int(number) > LIMITS[word]:
                raise UgiError(f"go {word} {shown(number)}: at most {LIMITS[word]}")
            values[word] = int(number)
        if "nodes" in values:
            return None, max(1, values["nodes"])
        if "movetime" in values:
            return values["movetime"] / 1000, None
        seat = self.game.to_move(self.state) or 1
        if f"p{seat}time" in values:
            left = values[f"p{seat}time"] / 1000
            inc = values.get(f"p{seat}inc", 0) / 1000
            share = max(1, min(values.get("movestogo", 25), 25))  # the moves this time must last
            return min(left / 2, left / share + inc * 0.8, MAX_MOVETIME / 1000), None
        raise UgiError(usage)

    def stop(self) -> None:
        """End a search under way; its bestmove is still given."""
        thinking, self._thinking = self._thinking, None
        if thinking is not None:
            thinking.stop()

    def quit(self) -> None:
        """`quit` or the end of input: a search under way has QUIT_WAIT to answer by its own
        limit, then gives its best so far."""
        self.quit_by = time.monotonic() + QUIT_WAIT
        self.settle()

    def settle(self) -> None:
        """Before the position changes or the engine quits: a search under way finishes by its
        own limit (its answer given; by `quit_by` once `quit` is read, then its best so far),
        or, searching without one, stops now. A script piping `go nodes 200` and `quit` gets
        its answer."""
        thinking, self._thinking = self._thinking, None
        if thinking is not None:
            thinking.finish(lambda: self.quit_by)

    COMMANDS: dict[str, Callable[["Session", list[str]], None]] = {
        "ugi": _ugi,
        "isready": lambda self, rest: self.say("readyok"),
        "setoption": _setoption,
        "uginewgame": lambda self, rest: self.new_game(),
        "position": _position,
        "go": _go,
        "stop": lambda self, rest: self.stop(),
        "query": _query,
    }


# -- the process ------------------------------------------------------------------------------

TOO_LONG = object()  # a line over MAX_LINE, read and dropped


def read_lines(source: BinaryIO) -> Iterator[str | object]:
    """The lines of `source`, decoded, never holding more than MAX_LINE bytes of one: a longer
    line is read on in chunks, dropped up to its newline, and given as TOO_LONG."""
    while True:
        line = source.readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) <= MAX_LINE or line.endswith(b"\n"):
            yield line.decode("utf-8", errors="replace")
            continue
        del line  # and the rest of it, at most as much at a time
        while (rest := source.readline(MAX_LINE)) and not rest.endswith(b"\n"):
            pass
        yield TOO_LONG


def serve(source: BinaryIO | None = None, out: BinaryIO | None = None,
          end: Callable[[int], Any] | None = None) -> None:
    """Follow the commands of `source` until `quit` or the end of input. They are followed on
    a thread of their own while this one reads, so that `quit` and the end of input are seen
    whatever a command is doing (a long `position`, a search waited for). Those have QUIT_END;
    then `end` (os._exit for the process) ends the process, the searches' threads with it."""
    source = sys.stdin.buffer if source is None else source
    out = sys.stdout.buffer if out is None else out

    def say(line: str) -> None:
        try:
            out.write(line.encode("utf-8") + b"\n")
            out.flush()
        except (OSError, ValueError):
            pass  # the output is closed: nobody is listening, and the input decides the end

    session = Session(say)
    listed_options()  # every game's rules imported now, before `quit` can be read, not in `ugi`
    commands: queue.Queue[Any] = queue.Queue()  # lines, TOO_LONG, None: the end
    busy_since = [time.monotonic()]  # when the command being followed began

    def follow() -> None:
        while (line := commands.get()) is not None:
            busy_since[0] = time.monotonic()
            if line is TOO_LONG:
                session.say(f"info string error a line over {MAX_LINE // 1_000_000} MB: refused unread")
            else:
                session.handle(line)
        busy_since[0] = time.monotonic()
        session.quit()  # a search under way still answers

    worker = threading.Thread(target=follow, name="commands", daemon=True)
    worker.start()
    try:
        for line in read_lines(source):
            if line is not TOO_LONG and line.split(None, 1)[:1] == ["quit"]:
                break
            commands.put(line)
    except (KeyboardInterrupt, OSError):
        pass  # as the end of input
    # The commands sent before `quit` are followed, but none of them may take longer than
    # QUIT_END from now: a search one of them waits for is stopped at QUIT_WAIT.
    read_at = time.monotonic()
    session.quit_by = read_at + QUIT_WAIT
    commands.put(None)
    while worker.is_alive() and time.monotonic() < max(read_at, busy_since[0]) + QUIT_END:
        worker.join(0.02)
    if end is not None:
        # A line being said is finished first, unless nobody reads it (the write blocks).
        if session.say_lock.acquire(timeout=0.05):
            try:
                out.flush()
            except (OSError, ValueError):
                pass
        end(0)
