"""The sample games under sample_games/: every record replays, its [result] agrees with the
moves, each game folder has finished games and a game in progress, the command line validates
them all, and the files are exactly what tools/make_samples.py writes now (so the samples
cannot drift from the rules code)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.record.reading import read_record
from referee.play.replay import replay

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_games"
GENERATOR = ROOT / "tools" / "make_samples.py"
FOLDERS = sorted(p.name for p in SAMPLES.iterdir() if p.is_dir())  # one folder per game
FILES = sorted(SAMPLES.rglob("*.toml"))


def _id(path: Path) -> str:
    return path.relative_to(SAMPLES).as_posix()


def _load_generator():
    spec = importlib.util.spec_from_file_location("make_samples", GENERATOR)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_there_are_samples():
    assert FILES, f"no *.toml under {SAMPLES}"


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_sample_replays(path: Path):
    record = read_record(path)
    play = replay(record)  # raises on any illegal move or a wrong [result]
    assert play.plies == len(record.moves)
    outcome = play.outcome()
    if record.result is not None:
        assert outcome is not None, f"{path}: [result] but the game is not over"
        assert sorted(record.result["winners"]) == sorted(outcome.winners)


@pytest.mark.parametrize("folder", FOLDERS)
def test_each_folder_has_finished_games_and_one_in_progress(folder: str):
    files = sorted((SAMPLES / folder).glob("*.toml"))
    finished = [f for f in files if replay(read_record(f)).outcome() is not None]
    in_progress = [f for f in files if f not in finished]
    assert len(finished) >= 3, f"{folder}: finished games {[f.name for f in finished]}"
    assert len(in_progress) >= 1, f"{folder}: no game in progress"


def test_some_hermit_sample_has_explicit_passes():
    hermit = [f for f in FILES if read_record(f).game == "hermit"]
    assert any(e.move == "pass" for f in hermit for e in read_record(f).moves)


@pytest.mark.slow
def test_samples_match_the_generator(tmp_path: Path):
    generator = _load_generator()
    written = generator.write_samples(tmp_path)
    expected = {p.relative_to(tmp_path).as_posix(): p.read_bytes() for p in written}
    actual = {_id(p): p.read_bytes() for p in FILES}
    assert sorted(actual) == sorted(expected), (
        "sample_games/ and tools/make_samples.py disagree on the files; "
        "run .venv/bin/python tools/make_samples.py"
    )
    stale = [name for name in expected if actual[name] != expected[name]]
    assert not stale, (
        f"these samples differ from what the generator writes now: {stale}; "
        "run .venv/bin/python tools/make_samples.py"
    )


@pytest.mark.slow
def test_generator_is_deterministic():
    generator = _load_generator()
    assert generator.render() == generator.render()


def test_validate_command_accepts_every_sample():
    result = CliRunner().invoke(app, ["validate", *map(str, FILES)])
    assert result.exit_code == 0, result.output
    assert f"{len(FILES)} of {len(FILES)} records valid" in result.output
