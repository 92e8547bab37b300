"""Judging an archive: many records, one verdict each, in the order given (`validate`, and the
coming `standings`).

A record is judged on its own, so a long list is shared among worker processes, one a core, in
chunks of files; the verdicts come back in input order, a window of chunks ahead at most, so
neither the records nor their verdicts pile up in memory however long the archive. Starting the
workers costs a few milliseconds, so a short list is judged here, in this process.
"""

from __future__ import annotations

import os
from collections import deque
from typing import Iterator, Sequence

from referee.files import STDIN
from referee.session import Verdict, validate

PARALLEL_FROM = 50  # records; below this the workers cost more than they save
CHUNK = 25  # records a worker judges per task: few round trips, an even share at the end


def judge(paths: Sequence[str], workers: int | None = None) -> Iterator[Verdict]:
    """The verdict on each record of `paths` (session.validate), in their order. `workers`:
    how many processes judge them (default: one a core; 1 judges them all here)."""
    if workers is None:
        workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    if workers < 2 or len(paths) < PARALLEL_FROM or STDIN in paths:
        # Standard input belongs to this process, so a list that reads it is judged here.
        yield from map(validate, paths)
        return
    from concurrent.futures import ProcessPoolExecutor  # only archives pay for its import

    chunks = (paths[i:i + CHUNK] for i in range(0, len(paths), CHUNK))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        waiting: deque = deque()
        for chunk in chunks:
            waiting.append(pool.submit(_judge_chunk, chunk))
            if len(waiting) > 2 * workers:
                yield from waiting.popleft().result()
        while waiting:
            yield from waiting.popleft().result()


def _judge_chunk(paths: Sequence[str]) -> list[Verdict]:
    return [validate(path) for path in paths]
