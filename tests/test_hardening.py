"""Hardening: the cases the fuzzer once found (tests/fuzz_corpus/), the limits and their
messages, output paths that cannot or must not be written, and `validate` over many files.

Every case here is something a record from a stranger, or a slip at the keyboard, can do.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuzz_support import CORPUS, SAMPLE_BYTES, survives
from referee.cli import app
from referee.errors import NotationError, RecordError, RefereeError, UsageError
from referee.games import GAMES
from referee.record.values import MAX_MOVE_CHARS, MAX_PLIES, MAX_RECORD_BYTES, MAX_TEXT_CHARS
from referee.record.reading import parse_record, read_record
from referee.play.replay import replay

ROOT = Path(__file__).resolve().parent.parent
CORPUS_RECORDS = sorted(CORPUS.glob("*.toml"))
CORPUS_RECORDS = [p for p in CORPUS_RECORDS if p.name != "moves.toml"]
CORPUS_MOVES = tomllib.loads((CORPUS / "moves.toml").read_text(encoding="utf-8"))["case"]
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def invoke(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def one_clean_error_line(result, code: int) -> str:
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    line = result.stderr
    assert line.startswith("error: ") and line.count("\n") == 1, repr(line)
    assert not CONTROL.search(line[:-1]), repr(line)
    return line


# -- the regression corpus ---------------------------------------------------------------------


@pytest.mark.parametrize("path", CORPUS_RECORDS, ids=lambda p: p.name)
def test_corpus_records_are_refused_with_a_clear_error(path):
    data = path.read_bytes()
    error = survives(lambda: replay(parse_record(data, path.name)))
    assert error is not None, f"{path.name} is meant to be invalid"
    for command in (["validate"], ["status"], ["show", "--format", "svg"], ["move"]):
        args = [*command, path] + (["b e5"] if command == ["move"] else [])
        result = invoke(*args)
        if command == ["validate"]:
            assert result.exit_code == 1 and result.stdout.startswith("INVALID "), result.output
            assert result.stdout.count("\n") == 1 and not CONTROL.search(result.stdout[:-1])
        else:
            one_clean_error_line(result, 1)
    assert path.read_bytes() == data


@pytest.mark.parametrize("case", CORPUS_MOVES, ids=lambda c: c["found"][:40])
def test_corpus_moves_are_refused_with_a_clear_error(case, tmp_path):
    record = parse_record(SAMPLE_BYTES[case["sample"]], "sample.toml")
    record.moves = record.moves[: case["ply"]]
    record.result = None
    play = replay(record)
    assert survives(lambda: play.push(case["move"])) is not None
    # The same move typed on the command line, against the game cut at that ply.
    path = tmp_path / "game.toml"
    path.write_text(record.to_toml(), encoding="utf-8")
    before = path.read_bytes()
    line = one_clean_error_line(invoke("move", "--", path, case["move"]), 1)
    assert len(line) < 600
    assert path.read_bytes() == before


# -- what the fuzzer found, one by one --------------------------------------------------------


def test_a_number_of_thousands_of_digits_is_broken_toml_not_a_crash():
    with pytest.raises(RecordError, match="a number with too many digits"):
        parse_record(b'format = 1\ngame = "odd"\n[options]\nsize = ' + b"9" * 5000 + b"\n")


@pytest.mark.parametrize("seat", ["²", "٣", "9" * 5000, "-1", " 1"])
def test_a_players_key_must_be_an_ascii_seat_number(seat):
    text = f'format = 1\ngame = "odd"\n[players]\n"{seat}" = "Ann"\n'
    with pytest.raises(RecordError, match=r"\[players\] keys are seat numbers"):
        parse_record(text.encode("utf-8"))


@pytest.mark.parametrize("item", ["²=Ann", "٣=Ann", "9" * 5000 + "=Ann"])
def test_new_refuses_a_seat_that_is_not_an_ascii_number(item, tmp_path):
    one_clean_error_line(invoke("new", "odd", "-o", tmp_path / "g.toml", "--player", item), 2)
    assert not (tmp_path / "g.toml").exists()


@pytest.mark.parametrize("move", ["9" * 5000 + " 0,0 0", "7 0," + "9" * 5000 + " 0", "٣ 0,0 0",
                                  "7 2,0 " + "9" * 7])
def test_crab_refuses_unreadable_numbers_in_a_move(move):
    play = replay(parse_record(SAMPLE_BYTES["crab/crab-in-progress.toml"]))
    with pytest.raises(NotationError):
        play.push(move)


def test_a_move_longer_than_a_record_may_hold_is_refused(tmp_path):
    path = tmp_path / "g.toml"
    path.write_bytes(SAMPLE_BYTES["odd/odd-in-progress.toml"])
    line = one_clean_error_line(invoke("move", path, "b " + "e" * MAX_MOVE_CHARS), 1)
    assert f"at most {MAX_MOVE_CHARS}" in line and "…" in line
    assert path.read_bytes() == SAMPLE_BYTES["odd/odd-in-progress.toml"]


def test_error_messages_are_one_line_without_control_characters():
    error = RefereeError("no\nway\x1b[2J", file="g.toml", ply=3, move="b e5\r\nBcc: x\u2028")
    assert not CONTROL.search(str(error))
    assert str(error) == "g.toml: ply 3 (b e5??Bcc: x?): no?way?[2J"


def test_a_long_reason_is_shortened_in_the_message():
    error = RefereeError("x" * 5000)
    assert len(str(error)) <= 300 and str(error).endswith("…")


# -- limits -------------------------------------------------------------------------------------


def test_a_record_over_the_size_limit_is_refused_before_it_is_parsed(tmp_path):
    path = tmp_path / "huge.toml"
    path.write_bytes(b'format = 1\ngame = "odd"\n# ' + b"x" * MAX_RECORD_BYTES + b"\n")
    with pytest.raises(RecordError, match="larger than 5 MB"):
        read_record(path)
    result = invoke("validate", "--json", path)
    assert result.exit_code == 1
    assert json.loads(result.stdout)[0]["error"]["message"].startswith("larger than 5 MB")


def test_a_device_or_a_pipe_is_refused_before_reading_SPEC_9(tmp_path, cli):
    """/dev/zero never ends and a FIFO blocks until a writer comes: neither is read."""
    with pytest.raises(UsageError, match="not a regular file"):
        read_record("/dev/zero")
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    for args in (("validate", fifo), ("receive", fifo, "-o", "x.toml"), ("new", "hermetica", "-o", "h.toml", "-O", f"board={fifo}")):
        result = cli(*args)
        assert result.exit_code == 2 and "not a regular file" in result.output, args


def test_standard_input_is_read_with_the_same_limit(monkeypatch):
    import io

    from referee.record.files import read_input

    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"x" * 6_000_000)))
    with pytest.raises(RecordError, match="larger than 5 MB"):
        read_input("-", "record")


def test_too_many_plies_are_refused():
    text = 'format = 1\ngame = "odd"\nmoves = [' + '"b e5",' * (MAX_PLIES + 1) + "]\n"
    with pytest.raises(RecordError, match=f"more than {MAX_PLIES} plies"):
        parse_record(text.encode())


@pytest.mark.parametrize("field, limit", [("move", MAX_MOVE_CHARS), ("comment", MAX_TEXT_CHARS)])
def test_texts_over_their_limit_are_refused_at_their_ply(field, limit):
    entry = {"move": "b e5", field: "e" * (limit + 1)}
    if field == "move":
        entry["move"] = "b " + "e" * limit
    text = 'format = 1\ngame = "odd"\n[[moves]]\n' + "".join(f'{k} = "{v}"\n' for k, v in entry.items())
    with pytest.raises(RecordError, match="too long") as info:
        parse_record(text.encode())
    assert info.value.ply == 1


def test_deep_nesting_is_broken_toml():
    with pytest.raises(RecordError, match="nested too deeply"):
        parse_record(b'format = 1\ngame = "odd"\nx = ' + b"[" * 5000 + b"]" * 5000 + b"\n")


def _option_cases():
    """Every option of every game with values just outside its range or of the wrong type."""
    for game in GAMES.values():
        for option in game.options:
            bad: list[object] = [True, 1.5, [], {}]
            if isinstance(option.default, int):
                bad += [option.minimum - 1, option.maximum + 1, "5"]
            elif option.choices:
                bad += [5, "nonsense"]
            else:
                bad += [5]
            if option.name == "seed":
                bad = [True, 1.5, "5"]
            for value in bad:
                yield game.id, option.name, value


OPTION_CASES = list(_option_cases())


@pytest.mark.parametrize("game_id, name, value", OPTION_CASES,
                         ids=[f"{g}-{n}-{v!r}" for g, n, v in OPTION_CASES])
def test_an_option_out_of_range_or_of_the_wrong_type_in_a_record_is_exit_1(game_id, name, value, tmp_path):
    import tomli_w

    path = tmp_path / "g.toml"
    path.write_text(tomli_w.dumps({"format": 1, "game": game_id, "options": {name: value}}))
    line = one_clean_error_line(invoke("status", path), 1)
    assert f"option {name}" in line


@pytest.mark.parametrize("game_id, name, value", [
    (g, n, v) for g, n, v in OPTION_CASES
    if isinstance(v, int) and not isinstance(v, bool) and n not in GAMES[g].data_options
])
def test_an_option_out_of_range_on_the_command_line_is_exit_2(game_id, name, value, tmp_path):
    line = one_clean_error_line(invoke("new", game_id, "-o", tmp_path / "g.toml", "-O", f"{name}={value}"), 2)
    assert f"option {name}" in line
    assert not (tmp_path / "g.toml").exists()


# -- output paths -----------------------------------------------------------------------------


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "game.toml"
    path.write_bytes(SAMPLE_BYTES["odd/odd-in-progress.toml"])
    return path


def test_move_through_a_symlinked_record_replaces_its_target_and_keeps_the_link(game, tmp_path):
    link = tmp_path / "link.toml"
    link.symlink_to(game)
    assert invoke("move", link, "w a1").exit_code == 0
    assert link.is_symlink() and replay(read_record(game)).plies == 18


@pytest.mark.parametrize("kind", ["dangling", "loop"])
def test_an_output_that_is_a_broken_symlink_is_refused(game, tmp_path, kind):
    out = tmp_path / "out.svg"
    if kind == "dangling":
        out.symlink_to(tmp_path / "elsewhere" / "picture.svg")
    else:
        (tmp_path / "other.svg").symlink_to(out)
        out.symlink_to(tmp_path / "other.svg")
    before = sorted(os.listdir(tmp_path))
    for args in (["show", game, "--format", "svg", "-o", out, "--force"], ["move", game, "w a1", "--svg", out]):
        line = one_clean_error_line(invoke(*args), 2)
        assert "symbolic link" in line
    assert sorted(os.listdir(tmp_path)) == before
    assert game.read_bytes() == SAMPLE_BYTES["odd/odd-in-progress.toml"]


def test_an_output_into_a_missing_folder_is_exit_2(game, tmp_path):
    line = one_clean_error_line(invoke("show", game, "-o", tmp_path / "no" / "such.txt"), 2)
    assert "cannot write" in line


def test_an_output_that_is_a_folder_is_exit_2(game, tmp_path):
    (tmp_path / "folder").mkdir()
    line = one_clean_error_line(invoke("show", game, "-o", tmp_path / "folder", "--force"), 2)
    assert "not a regular file" in line


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_record_in_a_read_only_folder_is_exit_2_and_unchanged(game, tmp_path):
    tmp_path.chmod(0o555)
    try:
        line = one_clean_error_line(invoke("move", game, "w a1"), 2)
    finally:
        tmp_path.chmod(0o755)
    assert "cannot write" in line and "Permission denied" in line
    assert game.read_bytes() == SAMPLE_BYTES["odd/odd-in-progress.toml"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads unreadable files")
def test_an_unreadable_record_is_exit_2(game):
    game.chmod(0o000)
    try:
        line = one_clean_error_line(invoke("status", game), 2)
    finally:
        game.chmod(0o644)
    assert "cannot read" in line


# -- validate over many files ---------------------------------------------------------------


def many_records(folder: Path, count: int = 60) -> list[Path]:
    """`count` records, every seventh broken, one missing at the end."""
    names = sorted(SAMPLE_BYTES)
    paths = []
    for i in range(count):
        path = folder / f"r{i:03}.toml"
        data = SAMPLE_BYTES[names[i % len(names)]]
        path.write_bytes(data + b'\n[[moves]]\nmove = "nonsense"\n' if i % 7 == 3 else data)
        paths.append(path)
    return paths + [folder / "missing.toml"]


def test_validate_never_stops_at_a_bad_file_and_ends_with_a_summary(tmp_path):
    paths = many_records(tmp_path)
    result = invoke("validate", *paths)
    assert result.exit_code == 2  # a missing file (SPEC §4)
    lines = result.stdout.splitlines()
    assert len(lines) == len(paths) + 1
    broken = [p for i, p in enumerate(paths[:-1]) if i % 7 == 3] + [paths[-1]]
    assert lines[-1] == f"{len(paths) - len(broken)} of {len(paths)} records valid"
    assert sum(line.startswith("INVALID ") for line in lines) == len(broken)
    assert "validating" not in result.output  # no progress bar when nobody watches


def test_validate_json_stays_one_document_for_many_files(tmp_path):
    paths = many_records(tmp_path)
    result = invoke("validate", "--json", *paths)
    assert result.exit_code == 2
    report = json.loads(result.stdout)
    assert [r["file"] for r in report] == [str(p) for p in paths]
    assert sum(not r["valid"] for r in report) == len([i for i in range(60) if i % 7 == 3]) + 1
    assert all(set(r) >= {"file", "valid", "plies", "error"} for r in report)
    assert result.stderr == ""


def test_validate_shows_a_progress_bar_on_a_terminal(tmp_path):
    """A real terminal (a pseudo-terminal for stderr): the bar is drawn there, stdout keeps
    the faults and the summary."""
    import pty
    import subprocess
    import sys

    paths = many_records(tmp_path)[:-1]
    leader, follower = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "referee", "validate", *map(str, paths)],
                              stdout=subprocess.PIPE, stderr=follower, timeout=120)
        os.close(follower)
        follower = None
        shown = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
    finally:
        if follower is not None:
            os.close(follower)
        os.close(leader)
    assert done.returncode == 1
    assert b"validating" in shown and b"100%" in shown
    out = done.stdout.decode().splitlines()
    broken = len([i for i in range(60) if i % 7 == 3])
    assert out[-1] == f"{60 - broken} of 60 records valid"
    assert len(out) == broken + 1  # only the faults, then the summary
