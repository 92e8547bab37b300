"""What a player sees of every sample record, word for word: tests/golden/ holds, for each
sample, the transcript of `validate`, `verify`, `status`, `moves`, `history` and `show` on it,
and of `validate` on damaged copies (tools/golden.py writes them and says how). A changed
message fails here with pytest's diff of the two texts; after a change meant to alter the
output, write the files again with tools/golden.py and read the diff before committing it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_games"
WRITER = ROOT / "tools" / "golden.py"


def _load_writer():
    spec = importlib.util.spec_from_file_location("golden", WRITER)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


golden = _load_writer()
FILES = sorted(SAMPLES.rglob("*.toml"))


def _id(path: Path) -> str:
    return path.relative_to(SAMPLES).as_posix()


@pytest.mark.parametrize("sample", FILES, ids=_id)
def test_sample_prints_its_golden_file(sample: Path):
    try:
        expected = golden.expected(sample)
    except golden.NoGoldenFile as exc:
        pytest.fail(str(exc), pytrace=False)
    assert golden.transcript(sample) == expected


def test_every_golden_file_has_its_sample():
    stale = [g.relative_to(ROOT).as_posix() for g in sorted(golden.GOLDEN.rglob("*.txt"))
             if not golden.sample_of(g).exists()]
    assert not stale, f"golden files of samples that are gone (delete them): {stale}"


def test_a_sample_in_a_new_folder_without_a_golden_file_says_how_to_write_one(tmp_path, monkeypatch):
    # The hashes this replaced failed with a bare KeyError for a sample they had not seen.
    monkeypatch.setattr(golden, "SAMPLES", tmp_path / "sample_games")
    monkeypatch.setattr(golden, "GOLDEN", tmp_path / "golden")
    sample = tmp_path / "sample_games" / "odd-variants" / "odd-copy.toml"
    sample.parent.mkdir(parents=True)
    sample.write_bytes(FILES[0].read_bytes())
    with pytest.raises(golden.NoGoldenFile) as refused:
        golden.expected(sample)
    message = str(refused.value)
    assert "odd-copy.toml has no golden file" in message
    assert f"tools/golden.py {sample}" in message
    assert str(tmp_path / "golden" / "odd-variants" / "odd-copy.txt") in message
