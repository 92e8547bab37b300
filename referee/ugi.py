"""`referee engine`: the engine over UGI, the Universal Game Interface (as cutegames defines
it; SPEC §10), on standard input and output, so that a program that speaks UGI can play any
of the referee's games against it, or ask it for moves.

On the wire a move is its canonical notation with every space written `_` (`b_e5`,
`c4-c6_f6`, `A_d4-d5*c5;_F_c1xc4`, `7_2,0_90`); a move written without `_` is read where the
game reads it so (Hermetica, Hermit) or where exactly one legal move is written so (`be5`).
A move that cannot be read or is illegal gets `info string error …`, and the position stays
as it was. `go` searches on a thread of its own, so `stop`, `isready` and `quit` are answered
while it thinks.
"""

from __future__ import annotations

import sys
import threading
from typing import Any, Callable, TextIO

from referee import __version__
from referee.choices import data_files, game_options
from referee.engine.search import Search
from referee.engine.solver import settle
from referee.errors import RefereeError
from referee.games import GAMES, Game
from referee.record import Record
from referee.replay import start

DEFAULT_GAME = "odd"
MARGIN = 0.05  # of a `movetime`, kept back: the answer comes within the time asked (SPEC §10)
LATE = 0.03  # seconds a search's last iteration and the answer may take past its deadline
WATCH = LATE + 0.04  # past the search's own deadline, the best so far is given without it


def wire(move: Any) -> str:
    """A move as UGI writes it: canonical notation, spaces as `_`."""
    return str(move).replace(" ", "_")


class UgiError(Exception):
    """A command the engine cannot follow; its words follow `info string error`."""


class Session:
    """One engine: the game and options chosen, the position, and the search thinking on it."""

    def __init__(self, say: Callable[[str], None]):
        self._say_lock = threading.Lock()
        self._raw_say = say
        self.game: Game = GAMES[DEFAULT_GAME]
        self.given: dict[str, str] = {}
        self.start_state: Any = None
        self.state: Any = None
        self.history: list[Any] = []
        self._thinking: threading.Thread | None = None
        self._watch: threading.Timer | None = None  # gives the answer if the search is late
        self._watch_answered = threading.Event()  # set once the watch has given the bestmove
        self._infinite = False  # the search under way has no limit but `stop`
        self._stop = threading.Event()
        self.new_game()

    def say(self, line: str) -> None:
        with self._say_lock:
            self._raw_say(line)

    # -- the commands ------------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Follow one command; False once the engine is to quit."""
        words = line.split()
        if not words:
            return True
        command, rest = words[0], words[1:]
        try:
            if command == "quit":
                self.settle()
                return False
            handler = self.COMMANDS.get(command)
            if handler is None:
                raise UgiError(f"unknown command {command!r}")
            handler(self, rest)
        except UgiError as exc:
            self.say(f"info string error {exc}")
        return True

    def _ugi(self, rest: list[str]) -> None:
        self.say(f"id name referee {__version__}")
        self.say("id author the referee's authors")
        self.say(f"option name game type string default {DEFAULT_GAME}")
        for option in GAMES[DEFAULT_GAME].options:
            self.say(f"option name {option.name} type string default {option.default}")
        self.say("ugiok")

    def _isready(self, rest: list[str]) -> None:
        self.say("readyok")

    def _setoption(self, rest: list[str]) -> None:
        if len(rest) < 4 or rest[0] != "name" or "value" not in rest:
            raise UgiError("setoption name <name> value <value>")
        at = rest.index("value")
        name, value = " ".join(rest[1:at]), " ".join(rest[at + 1:])
        self.settle()
        if name == "game":
            if value.lower() not in GAMES:
                raise UgiError(f"unknown game {value!r} (known: {', '.join(GAMES)})")
            self.game, self.given = GAMES[value.lower()], {}
        else:
            given = {**self.given, name: value}
            self._options(self.game, given)  # refused here, not at the next position
            self.given = given
        self.new_game()

    def _uginewgame(self, rest: list[str]) -> None:
        self.settle()
        self.new_game()

    def _position(self, rest: list[str]) -> None:
        self.settle()
        if not rest or rest[0] != "startpos":
            raise UgiError("position startpos [moves M1 M2 …]")
        if len(rest) > 1 and rest[1] != "moves":
            raise UgiError(f"position startpos: expected 'moves', not {rest[1]!r}")
        state, history = self.start_state, []
        for number, text in enumerate(rest[2:], 1):
            try:
                move = self.read_move(state, text)
                state = self.game.apply(state, move)
            except RefereeError as exc:
                raise UgiError(f"move {number} ({text}): {exc}") from None
            history.append(move)
        self.state, self.history = state, history

    def _go(self, rest: list[str]) -> None:
        self.settle()
        seconds, iterations, infinite = self._limits(rest)
        if self.game.outcome(self.state) is not None:
            raise UgiError("the game is over")
        search = Search(self.game, self.state, seed=len(self.history))
        self._stop.clear()
        answered = threading.Lock()  # who takes it first gives the bestmove
        watch_answered = self._watch_answered = threading.Event()  # the watch took it

        def think() -> None:
            # A game the solver can settle (crab) is asked first, for half the time: a proven
            # win answers with its winning line's first round.
            bounded = seconds is not None or iterations is not None
            exact = settle(self.game, self.state, (seconds or 0.0) / 2, iterations) if bounded else None
            if exact is not None and exact.winnable:
                if answered.acquire(blocking=False):
                    self.say(f"info string solver: a win in {len(exact.line)} rounds, "
                             f"{exact.searched} positions searched")
                    self.say(f"bestmove {wire(exact.line[0])}")
                return
            left = None if seconds is None else max(seconds - (exact.seconds if exact else 0.0), 0.01)
            found = search.run(seconds=left, iterations=iterations, stop=self._stop.is_set)
            if answered.acquire(blocking=False):
                self.say(f"info nodes {found.iterations} score {found.value:.3f} pv "
                         + " ".join(wire(move) for move in found.line))
                self.say(f"bestmove {wire(found.move)}")

        def in_time() -> None:
            # One iteration of a slow game can run past the time asked for; the answer may not
            # (SPEC §10: within MS + 100 ms). The best so far, then, and the search is stopped.
            if answered.acquire(blocking=False):
                self._stop.set()
                self.say(f"bestmove {wire(search.quick_answer())}")
                watch_answered.set()  # said: the search's last iteration need not be waited for

        # On a thread of its own, so that `isready`, `query` and `stop` are answered meanwhile.
        self._infinite = infinite
        self._thinking = threading.Thread(target=think, name="search", daemon=True)
        self._thinking.start()
        if seconds is not None:
            self._watch = threading.Timer(seconds + WATCH, in_time)
            self._watch.daemon = True
            self._watch.start()

    def _stop_search(self, rest: list[str]) -> None:
        self.stop()

    def _query(self, rest: list[str]) -> None:
        what = rest[0] if rest else ""
        outcome = self.game.outcome(self.state)
        if what == "gameover":
            self.say(f"response {'true' if outcome is not None else 'false'}")
        elif what == "p1turn":
            self.say(f"response {'true' if self.game.to_move(self.state) == 1 else 'false'}")
        elif what == "result":
            if outcome is None:
                self.say("response none")
            elif self.game.cooperative:
                # A solo or cooperative game is won or lost by its seats together; UGI has no
                # word for a loss to the game itself: p2win says "not won".
                self.say("response p1win" if outcome.winners else "response p2win")
            elif not outcome.winners:
                self.say("response draw")
            else:
                self.say(f"response p{outcome.winners[0]}win")
        else:
            raise UgiError("query gameover | p1turn | result")

    # -- the parts ---------------------------------------------------------------------------

    def new_game(self) -> None:
        """The start position of the game with the options given."""
        options = self._options(self.game, self.given)
        setup = self.game.new_setup(options, data_files(self.game, options), options.get("seed", 0))
        self.start_state = start(Record(self.game.id, options, {}, setup)).state
        self.state, self.history = self.start_state, []

    def _options(self, game: Game, given: dict[str, str]) -> dict[str, Any]:
        try:
            return game_options(game, given)
        except RefereeError as exc:
            raise UgiError(str(exc)) from None

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

    def _limits(self, rest: list[str]) -> tuple[float | None, int | None, bool]:
        """`go movetime MS | nodes N | infinite | p1time … p2time … [p1inc … p2inc …]`."""
        values: dict[str, int] = {}
        words = iter(rest)
        for word in words:
            if word == "infinite":
                return None, None, True
            number = next(words, None)
            if number is None or not number.lstrip("-").isdigit():
                raise UgiError(f"go: {word} needs a whole number")
            values[word] = int(number)
        if "nodes" in values:
            return None, max(1, values["nodes"]), False
        if "movetime" in values:
            return max(0.0, values["movetime"] / 1000 * (1 - MARGIN) - LATE), None, False
        seat = self.game.to_move(self.state) or 1
        if f"p{seat}time" in values:
            left = values[f"p{seat}time"] / 1000
            inc = values.get(f"p{seat}inc", 0) / 1000
            return max(0.0, min(left / 2, left / 25 + inc * 0.8) - LATE), None, False
        raise UgiError("go movetime MS | nodes N | infinite | p1time MS p2time MS [p1inc MS p2inc MS]")

    def stop(self) -> None:
        """End a search under way; its bestmove is still given."""
        if self._thinking is not None:
            self._stop.set()
            self._thinking.join()
            self._thinking = None
        self._cancel_watch()

    def _cancel_watch(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None

    def settle(self) -> None:
        """Before the position changes or the engine quits: a search under way finishes by its
        own limit (its answer given), or, searching without one, stops now. So a script that
        pipes `go nodes 200` and `quit` gets its answer."""
        if self._thinking is not None and self._infinite:
            self.stop()
        elif self._thinking is not None and self._watch_answered.is_set():
            # Answered by the watch while its last iteration goes on: that iteration ends on
            # its own, and nothing of it is said or kept, so the next command need not wait.
            self._thinking = None
        elif self._thinking is not None:
            self._thinking.join()
            self._thinking = None
        if self._watch is not None:
            self._watch.cancel()
            self._watch.join()  # a watch giving its bestmove this moment finishes saying it
            self._watch = None

    COMMANDS: dict[str, Callable[["Session", list[str]], None]] = {
        "ugi": _ugi,
        "isready": _isready,
        "setoption": _setoption,
        "uginewgame": _uginewgame,
        "position": _position,
        "go": _go,
        "stop": _stop_search,
        "query": _query,
    }


def serve(lines: TextIO = sys.stdin, out: TextIO = sys.stdout) -> None:
    """Read commands until `quit` or the end of input."""
    def say(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    session = Session(say)
    for line in lines:
        if not session.handle(line):
            break
    session.settle()  # the end of input: a search under way still answers
