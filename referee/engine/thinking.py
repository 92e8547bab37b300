"""One `go` of `referee engine` (SPEC §10, §11, §14): the search on a thread of its own, its
thinking said every half second (`info nodes … score wdl … pv …`, one line for each of the
MultiPV moves), a watch that answers by the deadline when an iteration runs late, and the one
`bestmove` they give between them — always given, whatever fails.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any, Callable

from referee.games import Game
from referee.search.mcts import Search
from referee.engine.wire import one_line, wire
from referee.search.solver import settle

# The time of a `movetime` is used nearly whole: the search stops LATE before it (its last
# iteration and the answer's lines fit in that), and GRACE past it a watch gives the best so
# far if the search has not answered (SPEC §10: `bestmove` within MS + 100 ms). The rest of
# the 100 ms is left for a loaded machine, which can keep a process waiting for a core for
# tens of milliseconds (measured on two busy cores: docs/engine-strength.md).
LATE = 0.03
GRACE = 0.02
STOP_WAIT = 0.1  # after `stop` this long, the best so far is given without the search
# Seconds between thinking lines (SPEC §11: at least every 500 ms), with room for an
# iteration and the line's writing.
EVERY = 0.45


def info_lines(search: Search, multipv: int, elapsed: float) -> list[str]:
    """`info` lines of a search so far: for each of the `multipv` moves tried most, the nodes
    (iterations of this `go`), their rate, the time, the score as win/draw/loss per mille for
    the side to move, and the line (SPEC §11). The engine's values are chances to win; a draw
    is told apart only where it is proven."""
    lines = []
    nodes = search.iterations
    head = (f"nodes {nodes} nps {int(nodes / elapsed) if elapsed > 0 else 0} "
            f"time {int(elapsed * 1000)}")
    for number, candidate in enumerate(search.candidates(multipv), 1):
        if candidate.proven and 0.0 < candidate.value < 1.0:
            wdl = "0 1000 0"
        else:
            win = min(1000, max(0, round(candidate.value * 1000)))
            wdl = f"{win} 0 {1000 - win}"
        which = f"multipv {number} " if multipv > 1 else ""
        lines.append(f"info {which}{head} score wdl {wdl} pv " + " ".join(wire(m) for m in candidate.line))
    return lines


class Thinking:
    """One `go`: the search on a thread of its own, the watch that answers by the deadline if
    the search is late, and the one `bestmove` they give between them. It is always given: a
    GUI or an arbiter cannot tell a search still thinking from one that failed, and silence
    hangs a GUI and holds a match game to its timeout. A failed search says `info string error
    …` and answers with a random legal move, or, if even that fails, `bestmove (none)` (UCI's
    word for no move): an unreadable move to an arbiter, a clean loss at once, not a wait.

    `prepare` gives the search (the tree of the last `go` carried on, or a new one); it is
    called on the search's thread."""

    def __init__(self, say: Callable[[str], None], game: Game, state: Any, seed: int,
                 asked: float | None, iterations: int | None,
                 prepare: Callable[[], Search] | None = None, multipv: int = 1):
        self._say = say
        self.game, self.state, self.seed = game, state, seed
        self.began = time.perf_counter()
        self.asked = asked
        self.seconds = None if asked is None else max(0.0, asked - LATE)
        self.iterations = iterations
        self.multipv = multipv
        self.prepare = prepare if prepare is not None else (lambda: Search(game, state, seed=seed))
        self.infinite = asked is None and iterations is None  # only `stop` ends it
        self.search: Search | None = None
        self.stopping = threading.Event()
        self._answer = threading.Lock()  # who takes it first gives the bestmove
        self.answered = threading.Event()  # the bestmove has been said
        self._thread = threading.Thread(target=self._think, name="search", daemon=True)
        # One iteration of a slow game can run past the time asked for; the answer may not
        # (SPEC §10: within MS + 100 ms): then the watch gives the best so far.
        self._watch = None if asked is None else threading.Timer(asked + GRACE, self.answer_now)

    def start(self) -> None:
        if self._watch is not None:  # first: a search thread once started may keep the GIL
            self._watch.daemon = True
            self._watch.start()
        self._thread.start()

    def join(self, seconds: float) -> bool:
        """Wait up to `seconds` for the search's thread to end; whether it has."""
        self._thread.join(seconds)
        return not self._thread.is_alive()

    def _think(self) -> None:
        try:
            self._give(self._find())
        except BaseException as exc:  # noqa: BLE001 - any failure still answers (see the class)
            self._failed(exc)

    def _elapsed(self) -> float:
        return time.perf_counter() - self.began

    def _find(self) -> list[str]:
        """The search's answer: the solver's winning line where a game can be solved (crab,
        asked first for half the time), else the search's best move, with its thinking lines."""
        self.search = search = self.prepare()
        exact = None if self.infinite else settle(self.game, self.state, (self.seconds or 0.0) / 2, self.iterations)
        if exact is not None and exact.winnable:
            elapsed = self._elapsed()
            return [f"info string solver: a win in {len(exact.line)} rounds, "
                    f"{exact.searched} positions searched",
                    f"info nodes {exact.searched} nps {int(exact.searched / elapsed) if elapsed > 0 else 0} "
                    f"time {int(elapsed * 1000)} score wdl 1000 0 0 pv " + " ".join(wire(m) for m in exact.line),
                    f"bestmove {wire(exact.line[0])}"]
        left = None if self.seconds is None else max(self.seconds - self._elapsed(), 0.001)

        def report(_: float) -> None:
            for line in info_lines(search, self.multipv, self._elapsed()):
                self._say(line)

        found = search.run(seconds=left, iterations=self.iterations, stop=self.stopping.is_set,
                           report=report, every=EVERY)
        return [*info_lines(search, self.multipv, self._elapsed()), f"bestmove {wire(found.move)}"]

    def _give(self, lines: list[str]) -> None:
        if self._answer.acquire(blocking=False):  # else the answer has been given
            try:
                for line in lines:
                    self._say(line)
            finally:
                self.answered.set()
                if self._watch is not None:
                    self._watch.cancel()

    def _failed(self, exc: BaseException) -> None:
        move, reason = self._any_move(), one_line(f"{type(exc).__name__}: {exc}", 200)
        instead = "no move to give" if move == "(none)" else "a random legal move instead"
        self._give([f"info string error the search failed ({reason}); {instead}", f"bestmove {move}"])

    def _any_move(self) -> str:
        """A legal move found without the search, or `(none)`."""
        try:
            return wire(self.game.random_move(self.state, random.Random(self.seed)))
        except Exception:  # noqa: BLE001 - the rules failed too: there is nothing to give
            return "(none)"

    def answer_now(self) -> None:
        """The best decision so far, now, and the search told to stop (its last iteration ends
        unheard). For the watch, `stop` and `quit`."""
        self.stopping.set()
        if self.answered.is_set() or self._answer.locked():
            return
        lines = []
        try:
            if self.search is not None:
                move = wire(self.search.quick_answer())
                try:  # the thinking so far, read while the last iteration may change the tree
                    lines = info_lines(self.search, 1, self._elapsed())[:1]
                except Exception:  # noqa: BLE001 - no line rather than no answer
                    lines = []
            else:
                move = self._any_move()
        except Exception:  # noqa: BLE001 - the tree is mid-change or the rules failed: any move
            move = self._any_move()
        self._give([*lines, f"bestmove {move}"])

    def finish(self, by: Callable[[], float | None]) -> None:
        """Until the bestmove is said: by the search's own limit, or the best so far once the
        time `by()` (None: none yet) has come; at once for a search without a limit."""
        while not self.answered.is_set():
            deadline = by()
            if self.infinite or (deadline is not None and time.monotonic() >= deadline):
                self.stop()
                return
            self.answered.wait(0.02)

    def stop(self) -> None:
        """`stop`: the search's answer after its iteration, or the best so far after STOP_WAIT."""
        self.stopping.set()
        if not self.answered.wait(STOP_WAIT):
            self.answer_now()
        self.answered.wait(STOP_WAIT)  # a bestmove being said this moment is said in full
