"""SPEC §13: a match on a Dask cluster (`--scheduler`). Every cluster here is on this machine,
listening on 127.0.0.1 only: `local:2` started by the match, or two workers started by the test
(one of them killed in the middle of a game). The same match gives the same statistics and
the same games on a cluster as with `--concurrency`: the engines are the deterministic ones
of tests/engines/.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from match_support import SMALL, engine, games_in, watch_for_orphans

distributed = pytest.importorskip("distributed")  # the extra referee[cluster]; the test extra has it


# The playout engine against the random one: the SPRT decides within a few pairs.
MATCH = (engine("playout"), engine("random"), *SMALL, "--games", "40", "--movetime", "200",
         "--random-openings", "2", "--seed", "1", "--sprt", "elo0=0,elo1=200")


@pytest.fixture(autouse=True)
def no_orphans(monkeypatch):
    """After every test: no engine, and nothing an engine started, is left running."""
    yield from watch_for_orphans(monkeypatch, grace=10, engines_only=True)


def match(folder: Path, *args: str) -> dict:
    """`referee match … --json` as a process of its own (a cluster's workers are processes)."""
    done = subprocess.run([sys.executable, "-m", "referee", "match", *args, "--json"], cwd=folder,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def same_statistics(one: dict, other: dict) -> None:
    for key in ("games", "pentanomial", "elo_diff", "elo_interval", "sprt"):
        assert one[key] == other[key], key
    assert [(r["game"], r["winners"], r["plies"]) for r in one["results"]] == \
           [(r["game"], r["winners"], r["plies"]) for r in other["results"]]


def test_a_local_cluster_gives_the_statistics_of_games_at_once_spec_13(tmp_path):
    cluster = match(tmp_path, *MATCH, "--scheduler", "local:2", "--out", "cluster")
    here = match(tmp_path, *MATCH, "--concurrency", "2", "--out", "here")
    assert cluster["sprt"]["result"] == "H1" and cluster["games"] < 40
    same_statistics(cluster, here)
    assert games_in(tmp_path / "cluster") == games_in(tmp_path / "here")  # every record written here
    assert subprocess.run([sys.executable, "-m", "referee", "validate", "cluster"], cwd=tmp_path,
                          capture_output=True).returncode == 0


def test_a_pair_whose_worker_died_is_played_again_from_its_opening(tmp_path):
    # Two workers started here; one is killed (SIGKILL) while it plays a pair. Its nanny
    # starts another; the pair is played again, and the match comes to what it would have.
    from distributed import Client, LocalCluster

    slow = (engine("random", "--seed", "1", "--think", "40"), engine("random", "--seed", "2", "--think", "40"),
            *SMALL, "--games", "8", "--movetime", "300", "--random-openings", "2", "--seed", "3")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None, silence_logs=50) as cluster, Client(cluster) as client:
        arbiter = subprocess.Popen([sys.executable, "-m", "referee", "match", *slow, "--scheduler",
                                    cluster.scheduler_address, "--out", "cluster", "--json"],
                                   cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        killed = None
        deadline = time.monotonic() + 120
        while killed is None and time.monotonic() < deadline and arbiter.poll() is None:
            busy = {worker: keys for worker, keys in client.processing().items()
                    if any(str(key).startswith("pair-") for key in keys)}
            if busy:
                time.sleep(0.5)  # a few plies into its game
                pids = client.run(os.getpid)
                worker = next(iter(busy))
                os.kill(pids[worker], signal.SIGKILL)
                killed = worker
            time.sleep(0.05)
        out, err = arbiter.communicate(timeout=300)
    assert killed is not None, "no worker was seen playing"
    assert arbiter.returncode == 0, err
    found = json.loads(out)
    here = match(tmp_path, *slow, "--concurrency", "2", "--out", "here")
    same_statistics(found, here)
    assert games_in(tmp_path / "cluster") == games_in(tmp_path / "here")


def test_without_the_extra_a_scheduler_is_exit_2_saying_what_to_install(cli, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if it were not installed
    result = cli("match", "referee", "referee", *SMALL, "--scheduler", "local:2")
    assert result.exit_code == 2
    assert "pip install 'referee[cluster]'" in result.output


def test_a_bad_scheduler_is_exit_2(cli):
    result = cli("match", "referee", "referee", *SMALL, "--scheduler", "local:0")
    assert result.exit_code == 2 and "local:K starts K workers here" in result.output
