"""What the tests of `referee match` share: the test engines, a small board, and the watch that
no engine, nor anything an engine started, outlives its test."""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
import tomllib
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

ENGINES = Path(__file__).parent / "engines"
TAG = "REFEREE_MATCH_TEST_TAG"
SMALL = ("--game", "odd", "-O", "size=3")  # 19 cells: a game in a second or two


def engine(kind: str, *args: str) -> str:
    """The command of a test engine, as ENGINE takes it."""
    return shlex.join([sys.executable, str(ENGINES / f"{kind}_engine.py"), *args])


def tagged(tag: str, engines_only: bool = False) -> list[int]:
    """The processes whose environment carries the tag: the engines of this test's matches, and
    whatever they started (with `engines_only`, the engines alone: a test's own cluster carries
    the tag too, and is closed by the test)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if f"{TAG}={tag}".encode() not in (entry / "environ").read_bytes().split(b"\0"):
                    continue
                if engines_only and b"_engine.py" not in (entry / "cmdline").read_bytes():
                    continue
                found.append(int(entry.name))
            except OSError:
                pass  # gone meanwhile, or not ours
    return found


def watch_for_orphans(monkeypatch, grace: float = 5.0, engines_only: bool = False) -> Iterator[str]:
    """The body of each match test file's autouse fixture: tag the test's processes through the
    environment, and after the test assert none is left (a process killed may take a moment
    to be gone: `grace` seconds)."""
    if not Path("/proc/self/environ").exists():
        pytest.skip("needs /proc (Linux) to look for processes left behind")
    tag = uuid.uuid4().hex
    monkeypatch.setenv(TAG, tag)
    yield tag
    deadline = time.monotonic() + grace
    while (left := tagged(tag, engines_only)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not left, f"processes left behind: {left}"


def played(cli, *args: str) -> dict:
    """A match run in process with --json: its report."""
    result = cli("match", *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def games_in(folder: Path) -> dict[str, tuple]:
    """Each record of a folder as what a run decides: players, moves and result."""
    found = {}
    for path in sorted(folder.glob("*.toml")):
        if path.name != "match.toml":
            game = tomllib.loads(path.read_text())
            found[path.name] = (game["players"], [p["move"] for p in game["moves"]], game.get("result"))
    return found
