"""Judging an archive on every core (referee/archive.py): the same verdicts, in the same order,
with the same exit codes, as judging the records one after another."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee.play import archive
from referee.play.reports import crashed, validate


def judge(paths, workers):
    return archive.judge_each(validate, paths, crashed, workers)

SAMPLES = sorted((Path(__file__).resolve().parent.parent / "sample_games").rglob("*.toml"))


def words(verdict) -> tuple:
    report, fault, summary = verdict
    return report, None if fault is None else (type(fault), str(fault), fault.exit_code), summary


@pytest.fixture(autouse=True)
def fixed_now(monkeypatch):
    monkeypatch.setenv("REFEREE_NOW", "2026-12-01T12:00:00Z")  # clocks read alike in every run


@pytest.fixture
def archive_folder(tmp_path):
    """Every sample twice over, with a broken record, a refused move and a missing file among them."""
    paths = []
    for i, source in enumerate(SAMPLES * 2):
        paths.append(str(tmp_path / f"{i:03d}-{source.name}"))
        shutil.copyfile(source, paths[-1])
    (tmp_path / "bad.toml").write_text('format = 1\ngame = "odd"\nmoves = ["b e5", "w e5"]\n')
    (tmp_path / "broken.toml").write_text('format = 1\ngame = "odd"\n[[moves]\n')
    paths[7:7] = [str(tmp_path / "bad.toml")]
    paths[60:60] = [str(tmp_path / "broken.toml"), str(tmp_path / "missing.toml")]
    return paths


def test_many_records_get_the_verdicts_one_by_one_gives_them_in_order(archive_folder):
    assert len(archive_folder) >= archive.PARALLEL_FROM
    parallel = [words(v) for v in judge(archive_folder, workers=2)]
    serial = [words(validate(p)) for p in archive_folder]
    assert parallel == serial
    assert [v[0]["file"] for v in parallel] == archive_folder
    exits = {v[1][2] for v in parallel if v[1] is not None}
    assert exits == {1, 2}  # the broken records, and the missing file


def test_few_records_are_judged_in_this_process(monkeypatch, archive_folder):
    monkeypatch.setattr(archive, "_judge_chunk", None)  # a worker would fail on it
    few = archive_folder[: archive.PARALLEL_FROM - 1]
    assert archive.workers_for(few) == 1
    assert [words(v) for v in archive.judge_each(validate, few, crashed)] == [words(validate(p)) for p in few]


def test_a_list_that_reads_standard_input_is_judged_here(archive_folder):
    assert archive.workers_for(archive_folder) == min(2, archive.cores())
    assert archive.workers_for([*archive_folder, "-"]) == 1


def test_where_no_worker_starts_the_records_are_judged_here(monkeypatch, archive_folder):
    import concurrent.futures

    class NoPool:
        def __init__(self, *args, **kwargs):
            raise OSError("no semaphores here")

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", NoPool)
    assert [words(v) for v in judge(archive_folder, workers=2)] == [words(validate(p)) for p in archive_folder]


def test_validate_prints_the_same_over_a_long_archive(cli, archive_folder, monkeypatch):
    parallel = cli("validate", *archive_folder)
    monkeypatch.setattr(archive, "PARALLEL_FROM", 10**9)
    serial = cli("validate", *archive_folder)
    assert parallel.exit_code == serial.exit_code == 2
    assert parallel.output == serial.output
    assert f"of {len(archive_folder)} records valid" in parallel.output


# -- one record that makes the referee itself fail (SPEC §9: archives never die of one record) --

CRASH = "crash.toml"


def validate_or_crash(path: str):
    """`validate`, but judging the record named crash.toml raises as a fault of the referee
    would. A module's function, so the worker processes can import it."""
    if path.endswith(CRASH):
        raise OverflowError("date value out of range")
    return validate(path)


def test_one_crashing_record_does_not_end_validate_in_the_worker_pool(archive_folder, tmp_path):
    shutil.copyfile(archive_folder[0], tmp_path / CRASH)
    paths = [*archive_folder[:30], str(tmp_path / CRASH), *archive_folder[30:]]
    verdicts = list(archive.judge_each(validate_or_crash, paths, crashed, workers=2))
    assert [v.report["file"] for v in verdicts] == paths  # every record, in order, after it too
    crash = verdicts[30]
    assert crash.report["valid"] is False and crash.fault.exit_code == 1
    assert crash.report["error"]["message"] == "internal error: OverflowError: date value out of range"
    assert str(crash.fault) == f"{tmp_path / CRASH}: internal error: OverflowError: date value out of range"
    others = [words(v) for i, v in enumerate(verdicts) if i != 30]
    assert others == [words(validate(p)) for p in archive_folder]


@pytest.mark.parametrize("failure", [ValueError("no such cell"), RecursionError("maximum recursion depth exceeded"),
                                     MemoryError()])
def test_one_crashing_record_does_not_end_validate_in_process(cli, archive_folder, monkeypatch, failure):
    # The replay fails for one record only, as a fault of the referee would; the other records
    # are judged as ever. MemoryError and RecursionError too: they end that record, not the run.
    from referee.play import reports

    crashing = archive_folder[3]
    real_replay = reports.replay

    def replay(record, *args, **kwargs):
        if record.path == crashing:
            raise failure
        return real_replay(record, *args, **kwargs)

    monkeypatch.setattr(reports, "replay", replay)
    monkeypatch.setattr(archive, "PARALLEL_FROM", 10**9)  # every record in this process
    result = cli("validate", *archive_folder)
    assert result.exit_code == 2  # the missing file among them still decides the exit code
    said = f"{type(failure).__name__}: {failure}" if str(failure) else type(failure).__name__
    assert f"INVALID {crashing}: internal error: {said}\n" in result.output
    assert "Traceback" not in result.output
    lines = result.output.splitlines()
    assert len(lines) == len(archive_folder) + 1  # a line for every record, then the summary
    valid = sum(line.startswith("valid ") for line in lines)
    assert lines[-1] == f"{valid} of {len(archive_folder)} records valid"
