"""An engine program run as a process that speaks UGI (SPEC §10), for `referee match`.

A reader thread turns the engine's output into lines on a queue, so that every wait for an
answer has a deadline: a hang is seen as one, not waited out. A second thread keeps the last
lines the engine wrote to its standard error, to say why it crashed. The engine runs in a
session of its own (POSIX), so a Ctrl-C at the terminal reaches the referee only, which then
ends the engines itself; and ending one ends its whole process group, so that nothing an
engine started is left behind: `quit`, a short wait, SIGTERM, a wait, SIGKILL.
"""

from __future__ import annotations

import collections
import os
import queue
import signal
import subprocess
import threading
import time
from typing import IO, Iterable

from referee.errors import CONTROL

START_WAIT = 10.0  # seconds for `ugiok` after the start: a Python engine on a busy machine is slow
READY_WAIT = 10.0  # seconds for `readyok` after `setoption` or `uginewgame`
QUIT_WAIT = 0.5  # seconds an engine has to end after `quit`
TERM_WAIT = 1.0  # seconds after SIGTERM before SIGKILL
MAX_LINE = 65_536  # bytes of one line read; the rest of a longer line is skipped
MAX_QUEUED = 10_000  # lines waiting to be read; an engine that floods us loses the excess
STDERR_KEPT = 5  # last lines of standard error kept, to say why an engine crashed
KILL = getattr(signal, "SIGKILL", signal.SIGTERM)  # Windows has no SIGKILL
WORDS = 200  # characters of an engine's own words (a name, an error) repeated anywhere


class EngineFault(Exception):
    """The engine failed to answer as UGI asks: `kind` is "crash" (it ended, or closed its
    output), "timeout" (no answer in time) or "refused" (it said `info string error` to a
    setting); the message is the words for a record or an error message."""

    def __init__(self, kind: str, words: str):
        super().__init__(words)
        self.kind, self.words = kind, words


def said(text: str) -> str:
    """An engine's own words, safe to repeat in a record, a terminal or a file name's source:
    control characters and their like made '?', cut to WORDS characters."""
    text = " ".join(text.translate(CONTROL).split())
    return text if len(text) <= WORDS else text[: WORDS - 1] + "…"


class EngineProcess:
    """One engine program: started, spoken to, restarted after a failure, ended. `name` is the
    `id name` it gave (None before it gave one). Safe to end from another thread (a Ctrl-C)."""

    def __init__(self, argv: list[str], label: str):
        self.argv, self.label = argv, label
        self.name: str | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._ended = False  # its output has closed
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_KEPT)
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()  # writing and ending, one at a time
        self._shut = False  # ended for good (the match is over): never started again

    # -- life --------------------------------------------------------------------------------

    def start(self, game: str, options: dict[str, str], wait: float | None = None) -> None:
        """Start the program, shake hands (`ugi` … `ugiok`, learning its name), choose the game
        and options, and wait for `readyok`. Raises OSError when the program cannot be
        started, EngineFault when it does not answer as asked. `wait`: START_WAIT."""
        wait = START_WAIT if wait is None else wait
        self.close()
        self._lines, self._ended = queue.Queue(), False
        self._stderr.clear()
        process = subprocess.Popen(
            self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            start_new_session=os.name == "posix", close_fds=True,
        )
        with self._lock:
            self._process = process
            shut = self._shut
        if shut:  # ended for good while it was starting (a Ctrl-C): it must not outlive us
            self.close()
            raise EngineFault("crash", "stopped")
        self._threads = [
            threading.Thread(target=self._read, args=(process.stdout,), daemon=True,
                             name=f"engine {self.label} output"),
            threading.Thread(target=self._read_errors, args=(process.stderr,), daemon=True,
                             name=f"engine {self.label} errors"),
        ]
        for thread in self._threads:
            thread.start()
        self.send("ugi")
        for line in self._until("ugiok", wait, "ugi"):
            if line.startswith("id name "):
                self.name = said(line[len("id name "):])
        self.send(f"setoption name game value {game}")
        for name, value in options.items():
            self.send(f"setoption name {name} value {value}")
        self._ready(wait, "setoption")

    def new_game(self, wait: float = READY_WAIT) -> None:
        """`uginewgame`, then `isready` … `readyok`: a game begins."""
        self.send("uginewgame")
        self._ready(wait, "uginewgame")

    @property
    def running(self) -> bool:
        return self._process is not None and not self._ended and self._process.poll() is None

    def close(self, final: bool = False) -> None:
        """End the engine and everything it started: `quit`, a short wait, SIGTERM to its
        process group, a wait, SIGKILL. Does nothing when there is no engine running. `final`:
        for good; an engine starting meanwhile (on another thread) is ended as it starts."""
        with self._lock:
            process, self._process = self._process, None
            self._shut = self._shut or final
        if process is None:
            return
        try:
            process.stdin.write(b"quit\n")
            process.stdin.flush()
        except (OSError, ValueError):
            pass  # it has gone already, or stopped reading
        try:
            process.stdin.close()
        except (OSError, ValueError):
            pass
        try:
            process.wait(QUIT_WAIT)
        except subprocess.TimeoutExpired:
            _signal(process, signal.SIGTERM)
            try:
                process.wait(TERM_WAIT)
            except subprocess.TimeoutExpired:
                _signal(process, KILL)
                process.wait()
        # The leader is gone: whatever it started and left in its group goes with it.
        _signal(process, KILL)
        for thread, stream in zip(self._threads, (process.stdout, process.stderr)):
            thread.join(TERM_WAIT)
            # A reader still blocked holds the stream's lock, and closing it would wait for
            # ever: that happens only if something outside the group (a program that made a
            # session of its own) holds the pipe open. Then the daemon thread keeps it.
            if not thread.is_alive():
                try:
                    stream.close()
                except OSError:
                    pass

    # -- speaking ----------------------------------------------------------------------------

    def send(self, line: str) -> None:
        with self._lock:
            process = self._process
            try:
                if process is not None:
                    process.stdin.write(line.encode("utf-8") + b"\n")
                    process.stdin.flush()
                    return
            except (OSError, ValueError):
                pass  # it has ended, or closed its input
        raise EngineFault("crash", self._crash_words())  # (which waits a little: not under the lock)

    def go(self, moves: Iterable[str], movetime: int, wait: float) -> tuple[str, float, list[str]]:
        """The engine's move in the position after `moves` (wire form), thinking `movetime`
        ms: (the move as written after `bestmove`, the milliseconds from `go` to the answer,
        what it said as `info string error` meanwhile). Raises EngineFault when no `bestmove`
        comes within `wait` seconds or the engine ends."""
        self._drain()
        listed = " ".join(moves)
        self.send("position startpos" + (f" moves {listed}" if listed else ""))
        began = time.monotonic()
        self.send(f"go movetime {movetime}")
        errors: list[str] = []
        deadline = began + wait
        while True:
            line = self._next(deadline, f"no bestmove within {_seconds(wait)}")
            word, _, rest = line.strip().partition(" ")
            if word == "bestmove":
                # `bestmove <move> [ponder <move>]`: the move, however it is spaced
                move = rest.split(" ponder ")[0].strip()
                return move, (time.monotonic() - began) * 1000, errors
            if line.startswith("info string error"):
                errors.append(said(line[len("info string error"):]))

    # -- the parts ---------------------------------------------------------------------------

    def _ready(self, wait: float, asked: str) -> None:
        """`isready`, then every line up to `readyok`: an `info string error` among them is the
        engine refusing what was asked."""
        self.send("isready")
        refusals = [said(line[len("info string error"):]) for line in self._until("readyok", wait, asked)
                    if line.startswith("info string error")]
        if refusals:
            raise EngineFault("refused", f"{asked}: {refusals[0]}")

    def _until(self, word: str, wait: float, asked: str) -> list[str]:
        """Every line up to and including the first that begins with `word`."""
        deadline = time.monotonic() + wait
        lines = []
        while True:
            line = self._next(deadline, f"no {word} within {_seconds(wait)} of {asked}")
            lines.append(line)
            if line.split(" ", 1)[0] == word:
                return lines

    def _next(self, deadline: float, late: str) -> str:
        if self._ended:
            raise EngineFault("crash", self._crash_words())
        try:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise EngineFault("timeout", late) from None
        if line is None:
            self._ended = True
            raise EngineFault("crash", self._crash_words())
        return line

    def _drain(self) -> None:
        """Lines left over (late `info`): read and forgotten, all but the end of the output."""
        while not self._ended:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self._ended = True

    def _crash_words(self) -> str:
        """Why the engine stopped answering, in a few words: its exit code, or that it closed
        its output, and the last line it wrote to standard error."""
        process = self._process
        code = None
        if process is not None:
            try:
                code = process.wait(QUIT_WAIT)
            except subprocess.TimeoutExpired:
                pass
        if code is None:
            words = "crashed (closed its output)" if process is not None else "crashed"
        elif code < 0:
            words = f"crashed (killed by signal {-code})"
        else:
            words = f"crashed (exit code {code})"
        for thread in self._threads[1:]:
            thread.join(0.2)  # its last words may still be on the way
        last = next((line for line in reversed(self._stderr) if line.strip()), None)
        return f"{words}: {said(last)}" if last else words

    def _read(self, stream: IO[bytes]) -> None:
        lines = self._lines
        for line in _lines_of(stream):
            if lines.qsize() < MAX_QUEUED:
                lines.put(line)
        lines.put(None)

    def _read_errors(self, stream: IO[bytes]) -> None:
        for line in _lines_of(stream):
            self._stderr.append(line[:WORDS])


def _lines_of(stream: IO[bytes]) -> Iterable[str]:
    """The lines of a stream, decoded (bad bytes replaced), each at most MAX_LINE bytes."""
    try:
        while line := stream.readline(MAX_LINE):
            if len(line) == MAX_LINE and not line.endswith(b"\n"):
                while (rest := stream.readline(MAX_LINE)) and not rest.endswith(b"\n"):
                    pass  # the rest of an overlong line
            yield line.decode("utf-8", "replace").rstrip("\r\n")
    except (OSError, ValueError):
        return  # the stream was closed under us


def _signal(process: subprocess.Popen[bytes], number: signal.Signals) -> None:
    """Send `number` to the engine's process group (its own session: see the top), or to the
    engine alone where there are no groups."""
    try:
        if os.name == "posix":
            os.killpg(process.pid, number)
        elif process.poll() is None:  # pragma: no cover - Windows
            process.kill()
    except (ProcessLookupError, PermissionError):
        pass  # the group is empty already


def _seconds(wait: float) -> str:
    """3.1 s, 1.15 s, 10 s."""
    return f"{wait:.2f}".rstrip("0").rstrip(".") + " s"
