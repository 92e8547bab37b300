"""Judging an archive: many records, one verdict each, in the order given (`validate` and
`standings`).

A record is judged on its own, so a long list is shared among worker processes, one a core, in
chunks of files; the verdicts come back in input order, a window of chunks ahead at most, so
neither the records nor their verdicts pile up in memory however long the archive. Starting the
workers costs more than judging a few dozen records, so a short list is judged here, in this
process, and so is any list where no worker can be started (a sandbox without semaphores).
"""

from __future__ import annotations

import os
from collections import deque
from typing import Callable, Iterator, Sequence, TypeVar

from referee.files import STDIN

Verdict = TypeVar("Verdict")

PARALLEL_FROM = 50  # records; below this the workers cost more than they save
CHUNK = 50  # at most this many records a task: few round trips, an even share at the end


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


def judge_each(judge: Callable[[str], Verdict], paths: Sequence[str],
               workers: int | None = None) -> Iterator[Verdict]:
    """`judge(path)` for each path, in their order, on `workers` processes (default
    `workers_for(paths)`). `judge` must be a module's function, so a worker can import it."""
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
                    waiting.append(pool.submit(_judge_chunk, judge, paths[start:start + size]))
                    if len(waiting) > 2 * workers:
                        for verdict in waiting.popleft().result():
                            done += 1
                            yield verdict
                while waiting:
                    for verdict in waiting.popleft().result():
                        done += 1
                        yield verdict
        except (OSError, NotImplementedError, BrokenProcessPool):
            # No processes to be had (no semaphores here, a killed worker): the rest of the
            # work in this process, from the first record not yet given back.
            pass
    for path in paths[done:]:
        yield judge(path)


def _judge_chunk(judge: Callable[[str], Verdict], paths: Sequence[str]) -> list[Verdict]:
    return [judge(path) for path in paths]
