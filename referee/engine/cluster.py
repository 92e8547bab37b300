"""A match on more than one machine (SPEC §13): each pair of games is a task for the workers
of a Dask cluster (the optional extra `referee[cluster]`: Dask's distributed scheduler).

A worker starts the engine processes on its own machine, plays the pair under the referee's
judgement exactly as a worker thread of match.py would (arbiter.play_pair, the records written
to a folder of its own), and returns the records' text, the results and the logs. The arbiter
— this process — writes every record into its folder, and brings the statistics and the SPRT
up to date as the results come (match.py). When the test decides, the tasks not yet begun are
cancelled and those under way are told to stop (a Dask Event each task looks at between
moves). A pair whose worker died is played again from its opening: Dask hands the task to
another worker, and when Dask gives it up (KilledWorker) the arbiter submits it again.

`--scheduler local:K` starts K worker processes on this machine, listening on 127.0.0.1 only.
"""

from __future__ import annotations

import os
import queue
import tempfile
import threading
import time
import uuid
from dataclasses import replace
from typing import Any

from referee.engine.arbiter import Aborted, Engines, engine_argv, next_result, play_pair, starting_error
from referee.engine.match_files import Settings
from referee.engine.process import EngineFault, _subreaper
from referee.engine.tournament import Pair, record_path, told_apart
from referee.errors import UsageError

INSTALL = "pip install 'referee[cluster]'"
CONNECT_SECONDS = 30  # to reach a scheduler, and for the first worker to join it
RETRIES = 5  # times a pair is submitted again after Dask gave it up (its workers died)
STOP_LOOK = 1.0  # seconds between a task's looks at the stop signal
MOST_WORKERS = 64


def check_scheduler(address: str) -> None:
    """`--scheduler ADDRESS`: refused (exit 2) without the extra, or when malformed."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise UsageError(f"--scheduler plays on a Dask cluster, which needs the extra: {INSTALL}") from None
    if address.startswith("local:"):
        count = address.removeprefix("local:")
        if not (count.isdigit() and 1 <= int(count) <= MOST_WORKERS):
            raise UsageError(f"--scheduler {address}: local:K starts K workers here, K from 1 to {MOST_WORKERS}")
    elif not address.strip() or any(c.isspace() for c in address):
        raise UsageError(f"--scheduler {address!r}: give the scheduler's address, e.g. tcp://host:8786")


class Cluster:
    """The pairs played on a Dask cluster's workers; the same face as match.Local."""

    def __init__(self, plan: Any):
        self.plan = plan
        self.settings: Settings = plan.settings
        self.results: queue.Queue[Any] = queue.Queue()
        self.client = self.cluster = None
        self.futures: dict[Any, tuple[Pair, list[int], int]] = {}
        self.lock = threading.Lock()
        self.stop_name = f"referee-stop-{uuid.uuid4().hex}"
        self.stopped = threading.Event()
        self.watcher: threading.Thread | None = None

    def _connect(self) -> None:
        import logging

        from distributed import Client, LocalCluster

        address = self.plan.scheduler
        try:
            if address.startswith("local:"):
                self.cluster = LocalCluster(n_workers=int(address.removeprefix("local:")), threads_per_worker=1,
                                            processes=True, host="127.0.0.1", dashboard_address=None,
                                            silence_logs=logging.ERROR)
                self.client = Client(self.cluster)
            else:
                logging.getLogger("distributed").setLevel(logging.ERROR)
                self.client = Client(address, timeout=CONNECT_SECONDS)
                self.client.wait_for_workers(1, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError) as exc:
            raise UsageError(f"--scheduler {address}: cannot reach the cluster ({exc})") from None

    def introduce(self, halt: Any) -> tuple[str, ...]:
        """The engines started once on a worker: their names, or why one did not start."""
        self._connect()
        future = self.client.submit(introduce, self.settings, pure=False)
        while not future.done():
            halt.check()
            time.sleep(0.2)
        found = future.result()
        if found[0] == "error":
            _, engine, kind, words = found
            problem = OSError(words) if kind == "os" else EngineFault(kind, words)
            raise starting_error(problem, engine, self.plan.settings.commands)
        return self.settings.names if self.plan.resume else found[1]

    def begin(self, todo: list[tuple[Pair, list[int]]], names: tuple[str, ...], folder: str) -> None:
        from distributed import Event

        self.names, self.folder = names, folder
        Event(self.stop_name, client=self.client)  # made before any task looks at it
        for pair, numbers in todo:
            self._submit(pair, numbers, 0)
        self.watcher = threading.Thread(target=self._watch, daemon=True, name="cluster results")
        self.watcher.start()

    def _submit(self, pair: Pair, numbers: list[int], tries: int) -> None:
        files = {n: os.path.basename(record_path(self.folder, pair, n, self.names, self.plan.games)) for n in numbers}
        future = self.client.submit(play, pair, numbers, self.settings, self.names, files,
                                    self.plan.log is not None, self.stop_name, pure=False,
                                    key=f"pair-{pair.index}-{uuid.uuid4().hex}")
        with self.lock:
            self.futures[future] = (pair, numbers, tries)

    def _watch(self) -> None:
        """Results as they come, into the queue that match.py reads; a pair given up, again."""
        from distributed import as_completed
        from distributed.scheduler import KilledWorker

        with self.lock:
            waiting = as_completed(list(self.futures))
        for future in waiting:
            if self.stopped.is_set():
                return
            with self.lock:
                pair, numbers, tries = self.futures.pop(future)
            try:
                done = future.result()
            except KilledWorker:
                if tries >= RETRIES:
                    self.results.put(UsageError(f"pair {pair.index}: its workers died {tries + 1} times; "
                                                "the cluster cannot play it"))
                    return
                self._submit(pair, numbers, tries + 1)
                with self.lock:
                    waiting.add(next(f for f, item in self.futures.items() if item[0] is pair))
                continue
            except BaseException as exc:  # noqa: BLE001 - the match cannot go on: say why, in the main thread
                if not self.stopped.is_set():
                    self.results.put(exc)
                return
            if done is None:  # called off
                continue
            for result, log, text in done:
                self.results.put((replace(result, file=os.path.join(self.folder, os.path.basename(result.file))),
                                  log, text))

    def next(self, timeout: float):
        return next_result(self.results, timeout)

    def stop(self) -> None:
        """What is left called off: tasks not begun cancelled, those under way told to stop."""
        self.stopped.set()
        if self.client is None:
            return
        try:
            from distributed import Event

            Event(self.stop_name, client=self.client).set()
            with self.lock:
                left = list(self.futures)
            if left:
                self.client.cancel(left)
        except Exception:  # noqa: BLE001 - a cluster already gone has nothing left to stop
            pass

    def close(self) -> None:
        for part in (self.client, self.cluster):
            if part is not None:
                try:
                    part.close()
                except Exception:  # noqa: BLE001 - closing what may have gone already
                    pass


# -- on the workers --------------------------------------------------------------------------


def _engines(settings: Settings) -> Engines:
    """Engine processes on this worker's machine (`referee` is this machine's own)."""
    _subreaper(True)  # an engine's orphans are this worker's, and ended with their engine
    return Engines([engine_argv(text, n) for n, text in enumerate(settings.commands, 1)], settings)


def introduce(settings: Settings) -> tuple:
    """Each engine started and set up once: ("names", names) or ("error", engine, kind, words)."""
    engines = _engines(settings)
    try:
        for engine in range(len(settings.commands)):
            try:
                engines.start(engine)
            except OSError as exc:
                return "error", engine, "os", exc.strerror or str(exc)
            except EngineFault as exc:
                return "error", engine, exc.kind, exc.words
        argv = [engines[e].argv for e in range(len(settings.commands))]
        return "names", told_apart([engines[e].name for e in range(len(settings.commands))], argv)
    finally:
        engines.close()


class _Stop:
    """Whether the arbiter called the match off: its Event, looked at once a STOP_LOOK."""

    def __init__(self, name: str):
        from distributed import Event

        self.event, self.seen, self.last = Event(name), False, 0.0

    def is_set(self) -> bool:
        if not self.seen and time.monotonic() - self.last > STOP_LOOK:
            self.last = time.monotonic()
            try:
                self.seen = self.event.is_set()
            except Exception:  # noqa: BLE001 - the scheduler gone: nobody waits for this pair
                self.seen = True
        return self.seen


def play(pair: Pair, numbers: list[int], settings: Settings, names: tuple[str, ...], files: dict[int, str],
         logging: bool, stop_name: str) -> list[tuple[Any, str | None, str]] | None:
    """The task: the pair's games played here, each as (result, log, the record's text); None
    when the match was called off meanwhile."""
    engines = _engines(settings)
    with tempfile.TemporaryDirectory(prefix="referee-pair-") as folder:
        try:
            done = play_pair(pair, numbers, settings, names, engines, lambda n: os.path.join(folder, files[n]),
                             _Stop(stop_name), logging)
        except Aborted:
            return None
        finally:
            engines.close()
        found = []
        for result, log in done:
            with open(result.file, encoding="utf-8") as handle:
                found.append((result, log, handle.read()))
        return found
