"""Archives of any shape (SPEC §14): a folder tree of any depth is walked without recursion, a
loop of links never makes the walk endless, and each record gets its verdict."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from referee.record.files import record_files

SAMPLE = Path(__file__).resolve().parent.parent / "sample_games" / "odd" / "odd-5-resign.toml"
BAD = 'format = 1\ngame = "odd"\nmoves = ["b e5", "w e5"]\n'  # the same cell twice: exit 1


@pytest.fixture(autouse=True)
def fixed_now(monkeypatch):
    monkeypatch.setenv("REFEREE_NOW", "2026-12-01T12:00:00Z")


@pytest.fixture
def chain(tmp_path):
    """`make(depth, name)`: folders `name` inside each other `depth` deep under tmp_path, made
    one step at a time from inside (their full path may be longer than the system takes),
    with the sample record at the top, halfway and at the bottom, and a broken one at the
    bottom. Returns the record paths relative to tmp_path. Taken down the same way at the end:
    shutil.rmtree itself recurses once a level."""
    made: list[tuple[str, int]] = []

    def make(depth: int, name: str) -> list[str]:
        made.append((name, depth))
        here = os.getcwd()
        os.chdir(tmp_path)
        try:
            os.mkdir("top")
            os.chdir("top")
            shutil.copyfile(SAMPLE, "a.toml")
            for level in range(1, depth + 1):
                os.mkdir(name)
                os.chdir(name)
                if level == depth // 2:
                    shutil.copyfile(SAMPLE, "half.toml")
            shutil.copyfile(SAMPLE, "bottom.toml")
            Path("broken.toml").write_text(BAD)
        finally:
            os.chdir(here)
        deep = "/".join([name] * depth)
        return ["top/a.toml", "top/" + "/".join([name] * (depth // 2)) + "/half.toml",
                f"top/{deep}/bottom.toml", f"top/{deep}/broken.toml"]

    yield make
    here = os.getcwd()
    for name, depth in made:
        os.chdir(tmp_path / "top")
        for _ in range(depth):
            os.chdir(name)
        for _ in range(depth):
            for entry in os.listdir("."):
                os.unlink(entry)
            os.chdir("..")
            os.rmdir(name)
        os.chdir(tmp_path)
        shutil.rmtree("top")
    os.chdir(here)


def test_validate_walks_a_tree_1200_folders_deep(cli, chain):
    records = chain(1200, "d")
    result = cli("validate", "top")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 1  # the broken record, and nothing else
    lines = result.output.splitlines()
    # Every record its verdict, in the walk's order: a folder's own records, then deeper.
    assert [line.split(" ", 1)[0] for line in lines[:-1]] == ["valid", "valid", "valid", "INVALID"]
    assert [line.split()[1].split(":")[0] for line in lines[:-1]] == records
    assert lines[3].endswith("broken.toml:3: ply 2 (w e5): e5 is occupied")
    assert lines[-1] == "3 of 4 records valid"


def test_standings_of_a_tree_1200_folders_deep(cli, chain):
    records = chain(1200, "d")
    result = cli("standings", "top", "--json")
    assert result.exit_code == 1, result.output
    report = json.loads(result.output)
    assert report["records"] == 4
    assert [item["file"] for item in report["invalid"]] == [records[3]]


def test_a_tree_deeper_than_the_system_takes_names_the_folder(cli, chain):
    """Past PATH_MAX (4,096 bytes on Linux) no folder can be listed by its path: the first such
    folder gets a verdict of its own ("File name too long") instead of its records vanishing."""
    chain(2100, "dd")  # 6,300 bytes of path at the bottom
    result = cli("validate", "top")
    assert result.exit_code == 2, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("valid   top/a.toml:")
    assert lines[1].startswith("valid   top/dd/") and lines[1].split()[1].endswith("/half.toml:")
    assert lines[2].startswith("INVALID top/dd/") and lines[2].endswith(": cannot read: File name too long")
    assert lines[-1] == "2 of 3 records valid"


def test_links_to_folders_are_not_followed_so_loops_end(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    for folder in ("a", "a/b"):
        shutil.copyfile(SAMPLE, tmp_path / folder / "game.toml")
    os.symlink("..", tmp_path / "a" / "b" / "up")  # a loop: a/b/up/b/up/…
    os.symlink(".", tmp_path / "a" / "here.toml")  # a loop named like a record
    os.symlink(tmp_path / "a", tmp_path / "a" / "b" / "again")
    assert record_files([str(tmp_path / "a")]) == [str(tmp_path / "a" / "game.toml"),
                                                    str(tmp_path / "a" / "b" / "game.toml")]


def test_the_walk_keeps_os_walks_order_and_skips_hidden(tmp_path):
    for folder in ("b", "a/z", "a/c", ".hidden", "a/.cache"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        for name in ("2.toml", "1.toml", ".h.toml", "note.txt"):
            (tmp_path / folder / name).write_text("")
    (tmp_path / "0.toml").write_text("")
    walked = []
    for folder, dirs, names in os.walk(tmp_path):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        walked += [os.path.join(folder, n) for n in sorted(names) if n.endswith(".toml") and not n.startswith(".")]
    assert record_files([str(tmp_path)]) == walked
    assert len(walked) == 7  # 0.toml, then 1 and 2 in a/c, a/z and b
