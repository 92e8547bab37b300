"""Write the golden files: for each sample record, what a player sees of it.

tests/golden/ mirrors sample_games/: sample_games/odd/odd-in-progress.toml has its golden file
tests/golden/odd/odd-in-progress.txt, and tests/test_golden.py checks that the referee still
prints exactly that. A golden file is the transcript of the commands a player runs on the
record, each after a `$ referee …` line as a terminal would show it: `validate` (in words and
as JSON), `verify`, `status` (in words and as JSON), `moves`, `history`, `show` at the end and
halfway through; then `validate` of three damaged copies, so that the faults' messages are
fixed too. A command that fails says its exit code after its output.

The record is copied into an empty folder first, so the file name in every message is its bare
name, whatever folder the sample sits in; and the referee's clock is stopped at NOW
(REFEREE_NOW), so clocks read the same on every day.

After a change meant to alter what a player sees (or after adding a sample), write the files
again and read the diff before committing it:

    .venv/bin/python tools/golden.py                  # every sample
    .venv/bin/python tools/golden.py sample_games/odd/odd-in-progress.toml   # just these
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import tempfile
import tomllib
from pathlib import Path
from typing import Iterator

import tomli_w
from typer.testing import CliRunner

from referee.cli import app

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_games"
GOLDEN = ROOT / "tests" / "golden"
NOW = "2026-12-01T12:00:00Z"  # REFEREE_NOW for every command: clocks shown at a fixed moment
DAMAGED_COPIES = 3


def golden_path(sample: Path) -> Path:
    """Where the golden file of a sample record lives."""
    return GOLDEN / sample.resolve().relative_to(SAMPLES).with_suffix(".txt")


class NoGoldenFile(Exception):
    """A sample record without its golden file: the message says how to write one."""


def expected(sample: Path) -> str:
    """The golden file of a sample record; raises NoGoldenFile when it has none yet."""
    path = golden_path(sample)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise NoGoldenFile(
            f"{_shown(sample)} has no golden file {_shown(path)}: write it with "
            f"`.venv/bin/python tools/golden.py {_shown(sample)}`, read it, and commit it with "
            "the sample"
        ) from None


def _shown(path: Path) -> str:
    path = path.resolve()
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def sample_of(golden: Path) -> Path:
    """The sample record a golden file is about."""
    return SAMPLES / golden.resolve().relative_to(GOLDEN).with_suffix(".toml")


def transcript(sample: Path) -> str:
    """What the referee prints for the sample record: the golden file's content."""
    sample = sample.resolve()
    data = sample.read_bytes()
    name = sample.name
    runner = CliRunner()
    out: list[str] = []

    def run(*args: str):
        result = runner.invoke(app, list(args), env={"REFEREE_NOW": NOW})
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception  # a traceback is a bug, never part of a golden file
        out.append(f"$ referee {' '.join(_quoted(a) for a in args)}")
        out.append(result.output.rstrip("\n"))
        if result.exit_code:
            out.append(f"(exit {result.exit_code})")
        out.append("")
        return result

    with _empty_folder():
        Path(name).write_bytes(data)
        run("validate", name)
        verdict = run("validate", "--json", name)
        if verdict.exit_code == 0:
            run("verify", name)
            run("status", name)
            run("status", "--json", name)
            run("moves", name)
            run("history", name)
            run("show", name)
            plies = json.loads(verdict.output)[0]["plies"]
            if plies > 1:
                run("show", name, "--ply", str(plies // 2))
        for k in range(DAMAGED_COPIES):
            what, damaged = damage(data, random.Random(f"{sample.relative_to(SAMPLES).as_posix()}/{k}"))
            Path(name).write_bytes(damaged)
            out.append(f"# damaged copy {k + 1}: {what}")
            run("validate", name)
    return "\n".join(out) + "\n"


def damage(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """A damaged copy of a record and what was done to it: plies dropped, swapped or edited
    (and then unsealed), the seal taken off, the moves turned into a plain array, or the bytes
    cut short or one of them changed."""
    kind = rng.choice(["drop", "swap", "edit", "unseal", "cut", "flip", "plain"])
    if kind in ("cut", "flip"):
        at = rng.randrange(len(data))
        if kind == "cut":
            return f"cut after byte {at}", data[:at]
        new = rng.randrange(32, 127)
        return f"byte {at} made {chr(new)!r}", data[:at] + bytes([new]) + data[at + 1:]
    doc = tomllib.loads(data.decode("utf-8"))
    moves = doc.get("moves", [])
    if not moves:
        return "nothing to damage: a comment added", data + b"\n# nothing to damage\n"
    i, j = rng.randrange(len(moves)), rng.randrange(len(moves))
    what = {"unseal": "digests and signatures removed", "plain": "moves made a plain array"}.get(kind, "")
    if kind == "drop":
        del moves[i]
        what = f"ply {i + 1} dropped"
    elif kind == "swap":
        moves[i], moves[j] = moves[j], moves[i]
        what = f"plies {i + 1} and {j + 1} swapped"
    elif kind == "edit":
        text = _move_text(moves[i])
        if rng.random() < 0.7:
            text = re.sub(r"[a-z](?=\d)", lambda m: rng.choice("abcdefghij"), text, count=1)
        else:
            text = _move_text(moves[j])
        if isinstance(moves[i], str):
            moves[i] = text
        else:
            moves[i]["move"] = text
        what = f"ply {i + 1} made {text!r}"
    if kind in ("edit", "unseal") or rng.random() < 0.5:
        for move in moves:
            if isinstance(move, dict):
                move.pop("digest", None)
                move.pop("signature", None)
        if kind not in ("edit", "unseal"):
            what += ", digests and signatures removed"
    if kind == "plain":
        doc["moves"] = [_move_text(m) for m in moves]
    return what, tomli_w.dumps(doc).encode("utf-8")


def _move_text(entry: str | dict) -> str:
    return entry if isinstance(entry, str) else entry["move"]


def _quoted(arg: str) -> str:
    return arg if re.fullmatch(r"[\w./=:+-]+", arg) else repr(arg)


@contextlib.contextmanager
def _empty_folder() -> Iterator[None]:
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        try:
            yield
        finally:
            os.chdir(here)


def write(sample: Path) -> Path:
    path = golden_path(sample)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(transcript(sample), encoding="utf-8", newline="\n")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("samples", nargs="*", type=Path,
                        help="sample records under sample_games/ (default: all of them)")
    args = parser.parse_args()
    samples = args.samples or sorted(SAMPLES.rglob("*.toml"))
    for sample in samples:
        if not sample.resolve().is_relative_to(SAMPLES):
            parser.error(f"{sample} is not under {SAMPLES}")
        print(write(sample).relative_to(ROOT))
    stale = [g for g in sorted(GOLDEN.rglob("*.txt")) if not sample_of(g).exists()]
    for golden in stale:
        print(f"{golden.relative_to(ROOT)} has no sample any more: delete it")


if __name__ == "__main__":
    main()
