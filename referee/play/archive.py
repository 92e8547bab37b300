"""Judging an archive: many records, one verdict each, in the order given (`validate` and
`standings`).

A record is judged on its own, so a long list is shared among worker processes, one a core, in
chunks of files; the verdicts come back in input order, a window of chunks ahead at most, so
neither the records nor their verdicts pile up in memory however long the archive. Starting the
workers costs more than judging a few dozen records, so a short list is judged here, in this
process, and so is any list where no worker can be started (a sandbox without semaphores).

No record ends the run (SPEC §9): an unexpected exception inside the judging of one record — a
fault of the referee, not of the record, such as an arithmetic overflow on a strange date — is
that record's verdict, made by the caller's `crashed(path, exc)`: `internal_error` gives the
message. Every `Exception` counts, MemoryError and RecursionError included: both are raised by
the one record's work and undone when its frames unwind, so the next record starts afresh
(and, should memory stay short, gets a verdict of its own). KeyboardInterrupt and SystemExit
are not `Exception`s and still end the run, as a person at the terminal asked.
"""

from __future__ import annotations

import os
from collections import deque
from typing import Callable, Iterator, Sequence, TypeVar

from referee.errors import RefereeError
from referee.record.files import STDIN

Verdict = TypeVar("Verdict")
Crashed = Callable[[str, Exception], Verdict]

PARALLEL_FROM = 50  # records; below this the workers cost more than they save
CHUNK = 50  # at most this many records a task: few round trips, an even share at the end
MESSAGE_CHARS = 200  # of an internal error's own message: enough to find it, never a page


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - macOS and Windows have no affinity call
        return os.cpu_count() or 1


def workers_for(paths: Sequence[str]) -> int:
    """How many processes `judge_each` uses for `paths`: 1 for a short list or one that
    reads standard input (which belongs to this process)."""
    if len(paths) < PARALLEL_FROM or STDIN in paths:
        return 1
    return min(cores(), max(1, len(paths) // 10))


def internal_error(path: str, exc: BaseException) -> RefereeError:
    """An unexpected exception met while judging the record at `path`, as that record's fault:
    "internal error: OverflowError: date value out of range" (exit 1, like any invalid record)."""
    said = " ".join(str(exc).split())
    if len(said) > MESSAGE_CHARS:
        said = said[: MESSAGE_CHARS - 1] + "…"
    name = type(exc).__name__
    return RefereeError(f"internal error: {name}: {said}" if said else f"internal error: {name}", file=str(path))


def judge_each(judge: Callable[[str], Verdict], paths: Sequence[str], crashed: Crashed,
               workers: int | None = None) -> Iterator[Verdict]:
    """`judge(path)` for each path, in their order, on `workers` processes (default
    `workers_for(paths)`); where judging a record raises, `crashed(path, exc)` is its verdict.
    `judge` and `crashed` must be a module's functions, so a worker can import them."""
    workers = workers_for(paths) if workers is None else workers
    done = 0
    if workers > 1:
        from concurrent.futures import ProcessPoolExecutor  # only archives pay for its import
        from concurrent.futures.process import BrokenProcessPool

        size = max(1, min(CHUNK, len(paths) // (workers * 4)))
        try:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                waiting: deque = deque()
                for start in range(0, len(paths), size):
                    chunk = paths[start:start + size]
                    waiting.append((pool.submit(_judge_chunk, judge, crashed, chunk), chunk))
                    if len(waiting) > 2 * workers:
                        for verdict in _verdicts(*waiting.popleft(), judge, crashed):
                            done += 1
                            yield verdict
                while waiting:
                    for verdict in _verdicts(*waiting.popleft(), judge, crashed):
                        done += 1
                        yield verdict
        except (OSError, NotImplementedError, BrokenProcessPool):
            # No processes to be had (no semaphores here, a killed worker): the rest of the
            # work in this process, from the first record not yet given back.
            pass
    for path in paths[done:]:
        yield _judge_one(judge, crashed, path)


def _verdicts(future, chunk: Sequence[str], judge: Callable[[str], Verdict], crashed: Crashed) -> list[Verdict]:
    """A chunk's verdicts from its worker; should they fail to come back (a verdict that
    cannot be sent between processes), the chunk is judged again here, record by record."""
    from concurrent.futures.process import BrokenProcessPool

    try:
        return future.result()
    except BrokenProcessPool:
        raise
    except Exception:  # whatever it was, each record still gets its verdict
        return [_judge_one(judge, crashed, path) for path in chunk]


def _judge_chunk(judge: Callable[[str], Verdict], crashed: Crashed, paths: Sequence[str]) -> list[Verdict]:
    return [_judge_one(judge, crashed, path) for path in paths]


def _judge_one(judge: Callable[[str], Verdict], crashed: Crashed, path: str) -> Verdict:
    try:
        return judge(path)
    except Exception as exc:  # SPEC §9: one record never ends the run (see above)
        return crashed(path, exc)
