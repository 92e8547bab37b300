"""An engine program run as a process that speaks UGI (SPEC §10), for `referee match`.

No engine can hold the arbiter (SPEC §14):

- Every wait has a deadline. A reader thread turns the engine's output into lines on a queue,
  so a hang is seen as one, not waited out; writes go to a non-blocking pipe, so an engine that
  stops reading its input is seen by the move's deadline too (it forfeits on time), and a
  write under way gives up as soon as the engine is ended from another thread (a Ctrl-C).
- Its output is read in bounded pieces: a line is cut at MAX_LINE bytes (the rest skipped
  as it comes, never held), only the lines the arbiter listens to are kept, and those up to
  MAX_QUEUED lines and MAX_QUEUED_CHARS characters: an engine that floods its output loses
  the excess, not the arbiter its memory.
- Nothing it started outlives it. It runs in a session of its own (POSIX), so a Ctrl-C at the
  terminal reaches the referee only, which ends the engines itself: `quit`, a short wait,
  SIGTERM to its process group, a wait, SIGKILL. A program that left the group or the session
  (setsid, a double fork) is found as a descendant of the arbiter, which `adopting` makes the
  child subreaper: such an orphan is re-parented to the arbiter instead of to init, so psutil
  still lists it among our descendants; it carries the engine's TAG in its environment,
  which tells whose it is. It is killed with its engine, and whatever is left at the match's
  end with the match; the arbiter reaps them.
"""

from __future__ import annotations

import collections
import contextlib
import ctypes
import os
import queue
import select
import signal
import subprocess
import sys
import threading
import time
import uuid
from typing import IO, Callable, Iterable, Iterator

import psutil

from referee.errors import CONTROL

START_WAIT = 10.0  # seconds for `ugiok` after the start: a Python engine on a busy machine is slow
READY_WAIT = 10.0  # seconds for `readyok` after `setoption` or `uginewgame`
QUIT_WAIT = 0.5  # seconds an engine has to end after `quit`
TERM_WAIT = 1.0  # seconds after SIGTERM before SIGKILL
MAX_LINE = 65_536  # bytes of one line read; the rest of a longer line is skipped
MAX_QUEUED = 10_000  # lines waiting to be read; an engine that floods us loses the excess
MAX_QUEUED_CHARS = 1_000_000  # and their characters (a move, a name or an error is short)
HEARD = ("id name ", "ugiok", "readyok", "bestmove", "info string error")  # all else is dropped
ERRORS_KEPT = 5  # `info string error` lines kept during one wait (only the last is repeated)
STDERR_KEPT = 5  # last lines of standard error kept, to say why an engine crashed
SLICE = 0.05  # seconds a blocked write waits at a time before it looks whether it was called off
KILL = getattr(signal, "SIGKILL", signal.SIGTERM)  # Windows has no SIGKILL
WORDS = 200  # characters of an engine's own words (a name, an error) repeated anywhere
TAG = "REFEREE_ENGINE"  # in each engine's environment: a token of its own, inherited by its children


class EngineFault(Exception):
    """The engine failed to answer as UGI asks: `kind` is "crash" (it ended, or closed its
    output), "timeout" (no answer in time, or it stopped reading) or "refused" (it said `info
    string error` to a setting); the message is the words for a record or an error message."""

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
        self._tag = ""
        self._lines = _Output()
        self._ended = False  # its output has closed
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_KEPT)
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()  # the process: taken, started and ended one at a time
        self._writing = threading.Lock()  # one write at a time; never held past a deadline
        self._shut = False  # ended for good (the match is over): never started again
        # Each line each way, as it goes (`--log`): called with ">" (sent), "<" (its output)
        # or "!" (its standard error) and the line; None: nothing kept.
        self.log: Callable[[str, str], None] | None = None

    # -- life --------------------------------------------------------------------------------

    def start(self, game: str, options: dict[str, str], wait: float | None = None,
              own: Iterable[tuple[str, str]] = ()) -> None:
        """Start the program, shake hands (`ugi` … `ugiok`, learning its name), choose the game
        and options, then its `own` options (`--engine-option`), and wait for `readyok`. Raises
        OSError when the program cannot be started, EngineFault when it does not answer as
        asked. `wait`: START_WAIT."""
        wait = START_WAIT if wait is None else wait
        self.close()
        self._lines, self._ended = _Output(), False
        self._stderr.clear()
        tag = uuid.uuid4().hex
        process = subprocess.Popen(
            self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            start_new_session=os.name == "posix", close_fds=True, env={**os.environ, TAG: tag},
        )
        if os.name == "posix":
            os.set_blocking(process.stdin.fileno(), False)  # see _write
        with self._lock:
            self._process, self._tag = process, tag
            shut = self._shut
        if shut:  # ended for good while it was starting (a Ctrl-C): it must not outlive us
            self.close()
            raise EngineFault("crash", "stopped")
        self._threads = [
            threading.Thread(target=self._read, args=(process.stdout, self._lines), daemon=True,
                             name=f"engine {self.label} output"),
            threading.Thread(target=self._read_errors, args=(process.stderr,), daemon=True,
                             name=f"engine {self.label} errors"),
        ]
        for thread in self._threads:
            thread.start()
        deadline = time.monotonic() + wait
        self.send("ugi", deadline)
        for line in self._until("ugiok", wait, "ugi", keep="id name "):
            self.name = said(line[len("id name "):])
        self.send(f"setoption name game value {game}", deadline)
        for name, value in [*options.items(), *own]:
            self.send(f"setoption name {name} value {value}", deadline)
        self._ready(wait, "setoption")

    def new_game(self, wait: float = READY_WAIT) -> None:
        """`uginewgame`, then `isready` … `readyok`: a game begins."""
        self.send("uginewgame", time.monotonic() + wait)
        self._ready(wait, "uginewgame")

    @property
    def running(self) -> bool:
        return self._process is not None and not self._ended and self._process.poll() is None

    def close(self, final: bool = False) -> None:
        """End the engine and everything it started: `quit`, a short wait, SIGTERM to its
        process group, a wait, SIGKILL; then every process of its own that is left, wherever
        it went. Does nothing when there is no engine running. `final`: for good; an engine
        starting meanwhile (on another thread) is ended as it starts."""
        with self._lock:
            process, tag, self._process = self._process, self._tag, None
            self._shut = self._shut or final
        if process is None:
            return
        self._lines.end()  # a thread waiting for an answer hears the end at once
        tree = _descendants(process.pid)  # before the leader ends: then they are no longer its
        with self._writing:  # a write under way gives up within SLICE: the process is not ours now
            _write_now(process, b"quit\n")  # never waiting: an engine that does not read is not asked
            try:
                process.stdin.close()
            except OSError:
                pass
        try:
            process.wait(QUIT_WAIT)
        except subprocess.TimeoutExpired:
            _signal(process, signal.SIGTERM)
            try:
                process.wait(TERM_WAIT)
            except subprocess.TimeoutExpired:
                tree += _descendants(process.pid)
                _signal(process, KILL)
                process.wait()
        # The leader is gone: whatever it started, in its group or out of it, goes with it.
        _signal(process, KILL)
        _end_all(tree + _carrying(tag))
        for thread, stream in zip(self._threads, (process.stdout, process.stderr)):
            thread.join(TERM_WAIT)
            # A reader still blocked holds the stream's lock, and closing it would wait for
            # ever: that happens only if something we could not find (no subreaper, and an
            # environment of its own) holds the pipe open. Then the daemon thread keeps it.
            if not thread.is_alive():
                try:
                    stream.close()
                except OSError:
                    pass

    # -- speaking ----------------------------------------------------------------------------

    def send(self, line: str, deadline: float | None = None, late: str | None = None) -> None:
        """Write a line to the engine by `deadline` (time.monotonic(); default READY_WAIT
        from now), else EngineFault "timeout" saying `late`; "crash" when it has gone."""
        deadline = time.monotonic() + READY_WAIT if deadline is None else deadline
        with self._writing:
            process = self._process
            try:
                if process is not None:
                    if self.log is not None:
                        self.log(">", line)
                    self._write(process, line.encode("utf-8") + b"\n", deadline,
                                late or f"it stopped reading its input ({line.split(' ', 1)[0]})")
                    return
            except (OSError, ValueError):
                pass  # it has ended, or closed its input
        raise EngineFault("crash", self._crash_words())  # (which waits a little: not under the lock)

    def go(self, moves: Iterable[str], movetime: int | str, wait: float) -> tuple[str, float, list[str]]:
        """The engine's move in the position after `moves` (wire form), thinking `movetime`
        ms (or as the rest of `go` says, e.g. "p1time 9000 p2time 9100"): (the move as written
        after `bestmove`, the milliseconds from `go` to the answer, the last things it said as
        `info string error` meanwhile). Raises EngineFault when no `bestmove` comes within
        `wait` seconds — the position and `go` written in that time too — or the engine ends."""
        self._drain()
        listed = " ".join(moves)
        deadline = time.monotonic() + wait
        late = f"no bestmove within {_seconds(wait)}"
        deaf = f"{late}: it stopped reading its input"
        self.send("position startpos" + (f" moves {listed}" if listed else ""), deadline, deaf)
        began = time.monotonic()
        self.send(f"go movetime {movetime}" if isinstance(movetime, int) else f"go {movetime}", deadline, deaf)
        errors: collections.deque[str] = collections.deque(maxlen=ERRORS_KEPT)
        while True:
            line = self._next(deadline, late)
            word, _, rest = line.strip().partition(" ")
            if word == "bestmove":
                # `bestmove <move> [ponder <move>]`: the move, however it is spaced
                move = rest.split(" ponder ")[0].strip()
                return move, (time.monotonic() - began) * 1000, list(errors)
            if line.startswith("info string error"):
                errors.append(said(line[len("info string error"):]))

    # -- the parts ---------------------------------------------------------------------------

    def _write(self, process: subprocess.Popen[bytes], data: bytes, deadline: float, late: str) -> None:
        """`data` written whole by `deadline`. The pipe is non-blocking: a write takes what the
        pipe has room for at once, and waits for room in slices, so that it gives up at the
        deadline (EngineFault "timeout", `late`) or as soon as the process is ended meanwhile."""
        if os.name != "posix":  # pragma: no cover - Windows pipes block (non-blocking from 3.12)
            process.stdin.write(data)
            process.stdin.flush()
            return
        fd = process.stdin.fileno()
        room = select.poll()
        room.register(fd, select.POLLOUT)
        left = memoryview(data)
        while left:
            if self._process is not process:
                raise EngineFault("crash", "ended by the arbiter")
            try:
                left = left[os.write(fd, left):]
                continue
            except BlockingIOError:
                pass  # the pipe is full: the engine has not read what came before
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise EngineFault("timeout", late)
            room.poll(min(remaining, SLICE) * 1000)

    def _ready(self, wait: float, asked: str) -> None:
        """`isready`, then every line up to `readyok`: an `info string error` among them is the
        engine refusing what was asked."""
        self.send("isready", time.monotonic() + wait)
        refusals = [said(line[len("info string error"):])
                    for line in self._until("readyok", wait, asked, keep="info string error")]
        if refusals:
            raise EngineFault("refused", f"{asked}: {refusals[0]}")

    def _until(self, word: str, wait: float, asked: str, keep: str) -> list[str]:
        """Every line up to the first that begins with `word`; of them, the first few that
        begin with `keep`."""
        deadline = time.monotonic() + wait
        kept: list[str] = []
        while True:
            line = self._next(deadline, f"no {word} within {_seconds(wait)} of {asked}")
            if line.split(" ", 1)[0] == word:
                return kept
            if line.startswith(keep) and len(kept) < ERRORS_KEPT:
                kept.append(line)

    def _next(self, deadline: float, late: str) -> str:
        if self._ended:
            raise EngineFault("crash", self._crash_words())
        try:
            line = self._lines.get(max(0.0, deadline - time.monotonic()))
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
                line = self._lines.get(None)
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

    def _read(self, stream: IO[bytes], lines: "_Output") -> None:
        for line in _lines_of(stream):
            if (log := self.log) is not None:
                log("<", line)
            if line.lstrip().startswith(HEARD):
                lines.put(line)
        lines.end()

    def _read_errors(self, stream: IO[bytes]) -> None:
        for line in _lines_of(stream):
            if (log := self.log) is not None:
                log("!", line)
            self._stderr.append(line[:WORDS])


class _Output:
    """An engine's lines on their way to the arbiter: at most MAX_QUEUED of them and
    MAX_QUEUED_CHARS characters waiting; a line beyond either is dropped. None: the end."""

    def __init__(self) -> None:
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._chars = 0
        self._lock = threading.Lock()

    def put(self, line: str) -> None:
        with self._lock:
            if self._queue.qsize() >= MAX_QUEUED or self._chars + len(line) > MAX_QUEUED_CHARS:
                return
            self._chars += len(line)
        self._queue.put(line)

    def end(self) -> None:
        self._queue.put(None)

    def get(self, timeout: float | None) -> str | None:
        """The next line, waiting up to `timeout` seconds (None: not at all); queue.Empty."""
        line = self._queue.get(timeout=timeout) if timeout is not None else self._queue.get_nowait()
        if line is not None:
            with self._lock:
                self._chars -= len(line)
        return line


def _lines_of(stream: IO[bytes]) -> Iterable[str]:
    """The lines of a stream, decoded (bad bytes replaced), each at most MAX_LINE bytes: the
    rest of a longer line is read in pieces of that size and forgotten."""
    try:
        while line := stream.readline(MAX_LINE):
            if len(line) == MAX_LINE and not line.endswith(b"\n"):
                while (rest := stream.readline(MAX_LINE)) and not rest.endswith(b"\n"):
                    pass  # the rest of an overlong line
            yield line.decode("utf-8", "replace").rstrip("\r\n")
    except (OSError, ValueError):
        return  # the stream was closed under us


def _write_now(process: subprocess.Popen[bytes], data: bytes) -> None:
    """Write what the pipe takes at once, if anything: for a last word such as `quit`."""
    try:
        if os.name == "posix":
            os.write(process.stdin.fileno(), data)
        else:  # pragma: no cover - Windows
            process.stdin.write(data)
            process.stdin.flush()
    except (OSError, ValueError):
        pass  # gone already, its input closed, or full


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


# -- every process an engine started ---------------------------------------------------------


def _descendants(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []


def _carrying(tag: str) -> list[psutil.Process]:
    """Our descendants whose environment carries the engine's tag: its orphans that left its
    group or session, which the subreaper (`adopting`) made ours."""
    found = []
    for process in _descendants(os.getpid()):
        try:
            if process.environ().get(TAG) == tag:
                found.append(process)
        except psutil.Error:
            pass  # gone meanwhile, a zombie, or not ours to read
    return found


def _end_all(victims: list[psutil.Process]) -> None:
    """SIGKILL every one of `victims`, and wait a little until each has gone, reaping those
    that are (or, their parent gone, become) our children, so that none is left a zombie."""
    for victim in victims:
        with contextlib.suppress(psutil.Error):
            victim.kill()  # (psutil makes sure that the pid was not reused meanwhile)
    deadline = time.monotonic() + TERM_WAIT
    while victims:
        left = []
        for victim in victims:
            with contextlib.suppress(ChildProcessError):
                if victim.is_running():
                    os.waitpid(victim.pid, os.WNOHANG)  # ours by now: reaped once it is dead
            if victim.is_running():
                left.append(victim)
        victims = left
        if not victims or time.monotonic() > deadline:
            return
        time.sleep(0.02)


PR_SET_CHILD_SUBREAPER, PR_GET_CHILD_SUBREAPER = 36, 37  # <linux/prctl.h>


@contextlib.contextmanager
def adopting() -> Iterator[None]:
    """While a match runs, the arbiter is the child subreaper (Linux): a process an engine
    started that leaves the engine's tree (a double fork into a new session) is re-parented to
    the arbiter, not to init, so that psutil still finds it among our descendants and the
    arbiter can end it and reap it. At the end every process that was not our descendant
    before is ended (the engines themselves were ended before), and the flag is set back. One
    match at a time in a process (as the command line runs them)."""
    before = {(p.pid, _born(p)) for p in _descendants(os.getpid())}
    was = _subreaper(True)
    try:
        yield
    finally:
        _end_all([p for p in _descendants(os.getpid()) if (p.pid, _born(p)) not in before])
        if was is False:
            _subreaper(False)


def _born(process: psutil.Process) -> float | None:
    try:
        return process.create_time()
    except psutil.Error:
        return None


def _subreaper(on: bool) -> bool | None:
    """Make this process the child subreaper, or no longer; whether it was one before (None
    where there is no such thing, or it could not be asked)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        was = ctypes.c_int(0)
        if libc.prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(was), 0, 0, 0) != 0:
            return None
        if libc.prctl(PR_SET_CHILD_SUBREAPER, ctypes.c_ulong(int(on)), 0, 0, 0) != 0:
            return None
        return bool(was.value)
    except (OSError, AttributeError):
        return None


def _seconds(wait: float) -> str:
    """3.1 s, 1.15 s, 10 s."""
    return f"{wait:.2f}".rstrip("0").rstrip(".") + " s"
