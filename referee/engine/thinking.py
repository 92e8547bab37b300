"""One `go` of `referee engine` (SPEC §10, §14): the search on a thread of its own, a watch that
answers by the deadline when an iteration runs late, and the one `bestmove` they give between
them — always given, whatever fails.
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

MARGIN = 0.05  # of a `movetime`, kept back: the answer comes within the time asked (SPEC §10)
LATE = 0.03  # seconds a search's last iteration and the answer may take past its deadline
WATCH = LATE + 0.04  # past the search's own deadline (and by the time asked for at the latest),
STOP_WAIT = 0.1  # or after `stop` this long, the best so far is given without the search


class Thinking:
    """One `go`: the search on a thread of its own, the watch that answers by the deadline if
    the search is late, and the one `bestmove` they give between them. It is always given: a
    GUI or an arbiter cannot tell a search still thinking from one that failed, and silence
    hangs a GUI and holds a match game to its timeout. A failed search says `info string error
    …` and answers with a random legal move, or, if even that fails, `bestmove (none)` (UCI's
    word for no move): an unreadable move to an arbiter, a clean loss at once, not a wait."""

    def __init__(self, say: Callable[[str], None], game: Game, state: Any, seed: int,
                 asked: float | None, iterations: int | None):
        self._say = say
        self.game, self.state, self.seed = game, state, seed
        self.seconds = None if asked is None else max(0.0, asked * (1 - MARGIN) - LATE)
        self.iterations = iterations
        self.infinite = asked is None and iterations is None  # only `stop` ends it
        self.search: Search | None = None
        self.stopping = threading.Event()
        self._answer = threading.Lock()  # who takes it first gives the bestmove
        self.answered = threading.Event()  # the bestmove has been said
        self._thread = threading.Thread(target=self._think, name="search", daemon=True)
        # One iteration of a slow game can run past the time asked for; the answer may not
        # (SPEC §10: within MS + 100 ms): then the watch gives the best so far.
        self._watch = None if asked is None else threading.Timer(min(self.seconds + WATCH, asked), self.answer_now)

    def start(self) -> None:
        if self._watch is not None:  # first: a search thread once started may keep the GIL
            self._watch.daemon = True
            self._watch.start()
        self._thread.start()

    def _think(self) -> None:
        try:
            self._give(self._find())
        except BaseException as exc:  # noqa: BLE001 - any failure still answers (see the class)
            self._failed(exc)

    def _find(self) -> list[str]:
        """The search's answer: the solver's winning line where a game can be solved (crab,
        asked first for half the time), else the search's best move."""
        self.search = Search(self.game, self.state, seed=self.seed)
        exact = None if self.infinite else settle(self.game, self.state, (self.seconds or 0.0) / 2, self.iterations)
        if exact is not None and exact.winnable:
            return [f"info string solver: a win in {len(exact.line)} rounds, "
                    f"{exact.searched} positions searched", f"bestmove {wire(exact.line[0])}"]
        left = None if self.seconds is None else max(self.seconds - (exact.seconds if exact else 0.0), 0.01)
        found = self.search.run(seconds=left, iterations=self.iterations, stop=self.stopping.is_set)
        return [f"info nodes {found.iterations} score {found.value:.3f} pv "
                + " ".join(wire(move) for move in found.line), f"bestmove {wire(found.move)}"]

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
        try:
            move = wire(self.search.quick_answer()) if self.search is not None else self._any_move()
        except Exception:  # noqa: BLE001 - the tree is mid-change or the rules failed: any move
            move = self._any_move()
        self._give([f"bestmove {move}"])

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
