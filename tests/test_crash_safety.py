"""Crash safety (SPEC §3): whatever stops `referee move` — a kill, a full disk, a failed rename —
the record is afterwards the old one whole or the new one whole, never a mixture and never
missing, and nothing left behind trips a later run.

The kill test runs real `python -m referee move` processes on a record of a few megabytes and
SIGKILLs them: half at a spread of moments across the run, half the moment the temporary file
appears (so the kill lands while the new record is being written).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.record import files as files_module
from referee.record import values as record_module
from referee.record import seal
from referee.cli import app
from referee.games import GAMES
from referee.record.values import Entry, Record
from referee.record.reading import parse_record
from referee.play.replay import replay

# Long runs (many generated inputs, subprocesses): `python -m pytest -m "not slow"` skips them.
pytestmark = pytest.mark.slow

PLIES = 240
COMMENT = "c" * 9_000  # comments cost the replay nothing but make the file big to write
KILLS_SPREAD = 8
KILLS_AT_WRITE = 6


def big_record() -> tuple[bytes, str]:
    """A sealed Odd game on the largest board, about 2.2 MB, and a legal next move."""
    grid = GAMES["odd"].start({"size": 12, "min_group": 5}, {}).grid
    cells = [grid.name(c) for c in grid]
    moves = [f"{'bw'[i % 2]} {cells[i]}" for i in range(PLIES)]
    record = Record("odd", {"size": 12, "min_group": 5}, {1: {"name": "Ann"}, 2: {"name": "Bo"}},
                    moves=[Entry(m, comment=COMMENT) for m in moves])
    for entry, digest in zip(record.moves, seal.chain(record, moves)):
        entry.digest = digest
    return record.to_toml().encode("utf-8"), f"b {cells[PLIES]}"


@pytest.fixture(scope="module")
def big():
    return big_record()


def whole(data: bytes, old: bytes) -> str:
    """'old' or 'new' when `data` is one of the two whole records; fails the test otherwise."""
    if data == old:
        return "old"
    play = replay(parse_record(data, "game.toml"))  # a mixture would not even parse
    old_plies = replay(parse_record(old, "old.toml")).plies
    assert play.plies == old_plies + 1, "neither the old record nor the new one"
    assert data.startswith(old), "the new record does not extend the old one unchanged"
    return "new"


def start_move(folder: Path, move: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "referee", "move", "game.toml", move],
        cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )


# The record's lock (files.locked) stays beside it by design: removing it would let a command
# waiting on the old lock and a new one both believe they hold it (SPEC §9, Files).
LOCK = ".game.toml.lock"


def temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name not in ("game.toml", LOCK))


def files_in(folder: Path) -> list[str]:
    """What a command left in the folder, the record's lock aside."""
    return sorted(name for name in os.listdir(folder) if name != LOCK)


def test_killed_moves_leave_the_old_record_or_the_new_one_whole(tmp_path, big):
    old, move = big
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "game.toml").write_bytes(old)

    # One undisturbed run, to know how long a move takes on this machine.
    began = time.perf_counter()
    done = start_move(folder, move)
    assert done.wait(timeout=120) == 0
    took = time.perf_counter() - began
    assert whole((folder / "game.toml").read_bytes(), old) == "new"

    seen = {"old": 0, "new": 0}
    killed_mid_write = 0
    for attempt in range(KILLS_SPREAD + KILLS_AT_WRITE):
        (folder / "game.toml").write_bytes(old)
        for leftover in temporaries(folder):
            (folder / leftover).unlink()
        process = start_move(folder, move)
        if attempt < KILLS_SPREAD:
            # A spread of moments from start-up to the end of the write.
            time.sleep(took * (0.3 + 0.8 * attempt / KILLS_SPREAD))
        else:
            deadline = time.perf_counter() + 10 * took + 5
            while not temporaries(folder) and process.poll() is None:
                assert time.perf_counter() < deadline, "the move never started writing"
                time.sleep(0.0002)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=60)
        assert (folder / "game.toml").exists(), "the record is missing after a kill"
        seen[whole((folder / "game.toml").read_bytes(), old)] += 1
        left = temporaries(folder)
        killed_mid_write += bool(left)
        # What a kill leaves is a hidden temporary beside the record, never a *.toml that
        # `referee validate *.toml` would pick up, and never in the way of the next move.
        assert all(name.startswith(".game.toml.") and name.endswith(".tmp") for name in left), left

    # The next run after a kill works as if nothing had happened.
    (folder / "game.toml").write_bytes(old)
    assert start_move(folder, move).wait(timeout=120) == 0
    assert whole((folder / "game.toml").read_bytes(), old) == "new"
    assert killed_mid_write >= 1, "no kill landed while the record was being written"
    assert seen["old"] >= 1


# -- failures injected into the write, inside this process ----------------------------------

SMALL = b'format = 1\ngame = "odd"\n\n[[moves]]\nmove = "b e5"\n'


def _full_disk_halfway(real_fdopen):
    """os.fdopen whose file takes half the data, then fails as a full disk does."""

    class HalfFull:
        def __init__(self, handle):
            self.handle = handle

        def write(self, data):
            self.handle.write(data[: len(data) // 2])
            self.handle.flush()
            raise OSError(28, "No space left on device")

        def __getattr__(self, name):
            return getattr(self.handle, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

    return lambda fd, mode: HalfFull(real_fdopen(fd, mode))


def _fail(errno: int, reason: str):
    def fail(*args, **kwargs):
        raise OSError(errno, reason)

    return fail


@pytest.mark.parametrize("where", ["write", "fsync", "replace", "create"])
def test_a_failed_write_during_move_leaves_the_record_unchanged(tmp_path, monkeypatch, where):
    """SPEC §3, §4: a failed write is exit 2, the record byte-for-byte the old one, no debris."""
    path = tmp_path / "game.toml"
    path.write_bytes(SMALL)
    if where == "write":
        monkeypatch.setattr(files_module.os, "fdopen", _full_disk_halfway(os.fdopen))
    elif where == "create":  # the temporary file beside the record cannot be made
        real_open = os.open

        def refuse_temporary(name, *args, **kwargs):
            if str(name).endswith(".tmp"):
                raise OSError(13, "Permission denied")
            return real_open(name, *args, **kwargs)

        monkeypatch.setattr(files_module.os, "open", refuse_temporary)
    else:
        monkeypatch.setattr(files_module.os, where, _fail(28, "No space left on device"))
    result = CliRunner().invoke(app, ["move", str(path), "w d4"])
    monkeypatch.undo()
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: {path}: cannot write: ")
    assert path.read_bytes() == SMALL
    assert files_in(tmp_path) == ["game.toml"]


def test_an_interrupted_move_leaves_the_record_unchanged(tmp_path, monkeypatch):
    """Ctrl-C (KeyboardInterrupt) in the middle of the write: old record, no debris."""
    path = tmp_path / "game.toml"
    path.write_bytes(SMALL)

    def interrupt(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(files_module.os, "fsync", interrupt)
    result = CliRunner().invoke(app, ["move", str(path), "w d4"])
    monkeypatch.undo()
    assert result.exit_code == 130  # the shell's code for Ctrl-C, from the command-line library
    assert path.read_bytes() == SMALL
    assert files_in(tmp_path) == ["game.toml"]


def test_a_failed_svg_leaves_the_record_unchanged(tmp_path):
    """`move --svg` into a folder that does not exist: exit 2 and the move is not recorded, so
    a non-zero exit always means the record is as it was."""
    path = tmp_path / "game.toml"
    path.write_bytes(SMALL)
    result = CliRunner().invoke(app, ["move", str(path), "w d4", "--svg", str(tmp_path / "no" / "b.svg")])
    assert result.exit_code == 2, result.output
    assert "cannot write" in result.stderr
    assert path.read_bytes() == SMALL
    assert files_in(tmp_path) == ["game.toml"]
