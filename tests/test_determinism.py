"""Determinism: the same record gives the same bytes on every run and every machine — status,
diagrams (text, SVG, PNG), the review page and the animation, and `validate --json` — whatever the hash seed that orders Python's
sets and dicts of strings. Each run is its own process with its own PYTHONHASHSEED.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Long runs (many generated inputs, subprocesses): `python -m pytest -m "not slow"` skips them.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
# One record of every game, in progress or finished, and the commands to run on each.
RECORDS = [
    "odd/odd-5-finished-01.toml", "dustin/dustin-in-progress.toml",
    "hermit-hex/hermit-hex-passes.toml", "hermit-square/hermit-square-in-progress.toml",
    "harmijan/harmijan-6-finished-01.toml", "hermetica/hermetica-power-water-round-shield.toml",
    "crab/crab-coop-2-win.toml", "crab/crab-task-crab-dance.toml",
]
COMMANDS = [
    ["status"], ["status", "--json"], ["show"], ["show", "--ply", "1"],
    ["show", "--format", "svg"], ["show", "--format", "png"], ["moves", "--json"],
    ["show", "--format", "html"], ["show", "--format", "gif", "--ply", "2"],
]

# Runs in a fresh interpreter: every command on every record, in process, and prints a digest
# of each output's bytes (stdout and exit code).
DRIVER = """
import hashlib, json, sys
from typer.testing import CliRunner
from referee.cli import app

records, commands = json.loads(sys.argv[1]), json.loads(sys.argv[2])
runner, digests = CliRunner(), {}
for record in records:
    for command in commands:
        result = runner.invoke(app, [*command, record])
        key = " ".join(command) + " " + record
        digests[key] = [result.exit_code, hashlib.sha256(result.stdout_bytes).hexdigest()]
result = runner.invoke(app, ["validate", "--json", *records])
digests["validate --json"] = [result.exit_code, hashlib.sha256(result.stdout_bytes).hexdigest()]
print(json.dumps(digests, sort_keys=True))
"""


def run_with_hash_seed(seed: str) -> dict[str, list]:
    paths = [str(ROOT / "sample_games" / r) for r in RECORDS]
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, json.dumps(paths), json.dumps(COMMANDS)],
        env=dict(os.environ, PYTHONHASHSEED=seed), capture_output=True, timeout=300, cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout)


def test_every_output_is_the_same_bytes_under_any_hash_seed():
    runs = {seed: run_with_hash_seed(seed) for seed in ("0", "1", "2718281828")}
    first = runs["0"]
    assert len(first) == len(RECORDS) * len(COMMANDS) + 1
    assert all(code == 0 for code, _ in first.values()), first
    for seed, digests in runs.items():
        differ = sorted(k for k in first if digests[k] != first[k])
        assert not differ, f"PYTHONHASHSEED={seed} changes: {differ}"


def test_replaying_twice_in_one_process_gives_the_same_bytes():
    from referee.record.reading import read_record
    from referee.render.drawing import svg_diagram, text_diagram
    from referee.render.diagram import svg_to_png
    from referee.play.replay import replay

    for name in RECORDS:
        path = ROOT / "sample_games" / name
        a, b = replay(read_record(path)), replay(read_record(path))
        assert text_diagram(a) == text_diagram(b)
        assert svg_diagram(a) == svg_diagram(b)
        assert hashlib.sha256(svg_to_png(svg_diagram(a))).digest() == hashlib.sha256(svg_to_png(svg_diagram(b))).digest()
