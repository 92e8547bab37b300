"""The command line as a player uses it (SPEC §4): exit codes, messages, files left intact."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"


def new_odd(cli, name="g.toml", *extra):
    result = cli("new", "odd", "-o", name, "--player", "1=Ann", "--player", "2=Bo", *extra)
    assert result.exit_code == 0, result.output
    return Path(name)


def no_traceback(result):
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# -- games, new ------------------------------------------------------------------------------


def test_games_lists_every_game_with_options(cli):
    result = cli("games")
    assert result.exit_code == 0
    for word in ("odd", "dustin", "hermit", "min_group", "stones", "board"):
        assert word in result.stdout


def test_new_writes_a_record_and_prints_the_empty_board(cli, tmp_path):
    path = new_odd(cli)
    text = path.read_text()
    assert 'game = "odd"' in text and "[players]" in text and "Ann" in text
    assert "Ann to move" in cli("status", path).stdout


def test_new_refuses_to_overwrite_without_force(cli):
    path = new_odd(cli)
    cli("move", path, "b e5")
    before = path.read_bytes()
    result = cli("new", "odd", "-o", path)
    assert result.exit_code == 2
    assert "already exists" in result.stderr
    assert path.read_bytes() == before
    assert cli("new", "odd", "-o", path, "--force").exit_code == 0
    assert "[[moves]]" not in path.read_text()


@pytest.mark.parametrize(
    "args, words",
    [
        (("new", "chess", "-o", "c.toml"), "unknown game"),
        (("new", "odd", "-o", "c.toml", "-O", "size=13"), "3–12"),
        (("new", "odd", "-o", "c.toml", "-O", "size=five"), "whole number"),
        (("new", "odd", "-o", "c.toml", "-O", "colour=red"), "no option"),
        (("new", "odd", "-o", "c.toml", "-O", "size"), "key=value"),
        (("new", "hermit", "-o", "c.toml", "-O", "board=hex", "-O", "size=9"), "3–7"),
        (("new", "odd", "-o", "c.toml", "--player", "3=Cy"), "seats 1–2"),
        (("board", "chess"), "unknown game"),
        (("frobnicate",), ""),
        (("new", "odd", "-o", "c.toml", "--bogus"), ""),
    ],
)
def test_command_line_mistakes_exit_2(cli, args, words):
    result = cli(*args)
    assert result.exit_code == 2, result.output
    assert words in result.output
    assert not Path("c.toml").exists()
    no_traceback(result)


# -- move ------------------------------------------------------------------------------------


def test_move_stores_the_canonical_form_and_prints_the_board(cli):
    path = new_odd(cli)
    result = cli("move", path, "  B   E5 ", "--comment", "centre")
    assert result.exit_code == 0, result.output
    text = path.read_text()
    assert 'move = "b e5"' in text and 'comment = "centre"' in text
    assert "[X]" in result.stdout and "Bo to move" in result.stdout


@pytest.mark.parametrize(
    "move, reason",
    [("w e5", "e5 is occupied"), ("b z9", "not a cell"), ("e5", "expected"), ("", "expected")],
)
def test_refused_move_exits_1_names_file_ply_move_reason_and_changes_nothing(cli, move, reason):
    path = new_odd(cli)
    cli("move", path, "b e5")
    before = path.read_bytes()
    result = cli("move", path, move)
    assert result.exit_code == 1
    assert str(path) in result.stderr and "ply 2" in result.stderr and reason in result.stderr
    assert path.read_bytes() == before
    no_traceback(result)


def test_move_as_the_wrong_seat_names_the_players_and_the_ply_being_played_SPEC_8b(cli):
    path = new_odd(cli)
    before = path.read_bytes()
    result = cli("move", path, "b e5", "--as", "2")
    assert result.exit_code == 1
    assert "ply 1 (b e5): Bo (seat 2) is not to move: Ann is" in result.stderr
    assert path.read_bytes() == before
    assert cli("move", path, "b e5", "--as", "1").exit_code == 0
    assert cli("move", path, "w d4", "--as", "Bo").exit_code == 0
    # Ply 3 is being played: the refusal names it, not the wrong seat's next ply.
    result = cli("move", path, "w c3", "--as", "Bo")
    assert "ply 3 (w c3): Bo (seat 2) is not to move: Ann is" in result.stderr


def test_move_on_a_missing_record_exits_2(cli):
    result = cli("move", "nope.toml", "b e5")
    assert result.exit_code == 2 and "no such file" in result.stderr


def test_move_on_a_broken_record_exits_1_with_the_line(cli):
    Path("bad.toml").write_text('format = 1\ngame = "odd"\nmoves = ["b e5",\n  "w d4"\n[x\n')
    before = Path("bad.toml").read_bytes()
    result = cli("move", "bad.toml", "b a1")
    assert result.exit_code == 1 and "bad.toml:" in result.stderr and "broken TOML" in result.stderr
    assert Path("bad.toml").read_bytes() == before


def test_move_on_a_record_with_an_illegal_ply_names_its_line(cli):
    Path("bad.toml").write_text(
        'format = 1\ngame = "odd"\nmoves = [\n  "b e5",\n  "w d4",\n  "b e5",\n]\n'
    )
    result = cli("move", "bad.toml", "b a1")
    assert result.exit_code == 1
    assert "bad.toml:6: ply 3 (b e5): e5 is occupied" in result.stderr


def test_full_odd_game_through_move_ends_with_a_result(cli):
    path = Path("g.toml")
    assert cli("new", "odd", "-o", path, "-O", "size=3", "-O", "min_group=2").exit_code == 0
    cells = ["a1", "a2", "a3", "b1", "b2", "b3", "b4", "c1", "c2", "c3", "c4", "c5",
             "d2", "d3", "d4", "d5", "e3", "e4", "e5"]
    for i, cell in enumerate(cells):
        colour = "b" if cell[0] in "abc" else "w"
        result = cli("move", path, f"{colour} {cell}", "--as", str(i % 2 + 1))
        assert result.exit_code == 0, result.output
    status = json.loads(cli("status", path, "--json").stdout)
    # Black fills columns a–c (one group), white d–e (one group): 2 groups, even: seat 2 wins.
    assert status["over"] and status["winners"] == [2] and status["to_move"] is None
    assert status["score"] == {"groups": 2, "parity": "even"}
    from referee.record.reading import read_record

    assert read_record(path).result == {"winners": [2], "reason": "2 groups of 2 or more: even"}
    late = cli("move", path, "b a1")
    assert late.exit_code == 1 and "over" in late.stderr


def test_resign_ends_the_game_for_the_seat_to_move(cli):
    path = new_odd(cli)
    cli("move", path, "b e5")
    result = cli("move", path, "Resign")
    assert result.exit_code == 0
    status = json.loads(cli("status", path, "--json").stdout)
    assert status["winners"] == [1] and status["over"]
    assert 'move = "resign"' in path.read_text()
    assert cli("validate", path).exit_code == 0


def test_move_refreshes_the_svg_at_every_move(cli):
    """As the README shows it: the same --svg each turn, the picture of the game so far."""
    path = new_odd(cli)
    assert cli("move", path, "b e5", "--svg", "board.svg").exit_code == 0
    assert ET.parse("board.svg").getroot().tag.endswith("svg")
    first = Path("board.svg").read_bytes()
    assert cli("move", path, "w a1", "--svg", "board.svg").exit_code == 0
    assert Path("board.svg").read_bytes() != first and "Ply 2" in Path("board.svg").read_text()


@pytest.mark.parametrize("args, written", [
    (("show", "G", "-o", "x.svg"), "<svg"), (("show", "G", "-o", "x.png"), "\x89PNG"),
    (("show", "G", "-o", "x.txt"), "Odd"), (("board", "odd", "-o", "x.svg"), "<svg"),
])
def test_the_output_format_follows_the_name_SPEC_8(cli, args, written):
    path = new_odd(cli)
    result = cli(*[str(path) if a == "G" else a for a in args])
    assert result.exit_code == 0, result.output
    out = Path(args[args.index("-o") + 1]).read_bytes()
    assert out.startswith(written.encode("latin-1")) or written.encode() in out


@pytest.mark.parametrize("args", [
    ("show", "G", "-o", "x.svg", "--format", "text"), ("show", "G", "-o", "x.doc"),
    ("board", "odd", "-o", "x.png"), ("mail", "G", "-o", "x.txt", "--to", "bo@example.org"),
])
def test_a_format_the_name_contradicts_or_cannot_be_written_is_exit_2_SPEC_8(cli, args):
    path = new_odd(cli)
    result = cli(*[str(path) if a == "G" else a for a in args])
    assert result.exit_code == 2 and not Path(args[args.index("-o") + 1]).exists()


def _pass_record():
    """A sample hermit record with a referee-written pass, cut just before the move that
    forced it."""
    from referee.record.reading import read_record

    for path in sorted(SAMPLES.rglob("*.toml")):
        record = read_record(path)
        moves = [e.move for e in record.moves]
        if record.game == "hermit" and "pass" in moves and "[[moves]]" in path.read_text():
            k = moves.index("pass")
            return record, moves[: k - 1], moves[k - 1]
    pytest.skip("no sample hermit record with a pass")


def test_move_appends_the_pass_of_a_seat_that_cannot_place(cli):
    record, before, forcing = _pass_record()
    record.moves = [e for e in record.moves[: len(before)]]
    record.result = None
    Path("h.toml").write_text(record.to_toml())
    result = cli("move", "h.toml", forcing)
    assert result.exit_code == 0, result.output
    assert "passes" in result.stdout
    from referee.record.reading import read_record

    moves = [e.move for e in read_record("h.toml").moves]
    assert moves[len(before)] == forcing and moves[len(before) + 1] == "pass"


# -- validate --------------------------------------------------------------------------------


def test_validate_reports_every_file_and_does_not_stop_at_a_bad_one(cli):
    good = new_odd(cli, "good.toml")
    cli("move", good, "b e5")
    Path("bad.toml").write_text('format = 1\ngame = "odd"\nmoves = ["b e5", "w e5", "b a1"]\n')
    Path("weird.toml").write_text('format = 1\ngame = "odd"\ncolour = "red"\n')
    result = cli("validate", "--json", good, "bad.toml", "weird.toml")
    assert result.exit_code == 1
    reports = json.loads(result.stdout)
    assert [r["valid"] for r in reports] == [True, False, False]
    assert reports[0] == {"file": "good.toml", "valid": True, "plies": 1, "error": None}
    assert reports[1]["plies"] == 1
    assert reports[1]["error"] == {"ply": 2, "move": "w e5", "message": "e5 is occupied"}
    assert reports[2]["error"]["ply"] is None and reports[2]["error"]["move"] is None
    assert "colour" in reports[2]["error"]["message"]


def test_validate_exits_2_when_a_file_is_missing(cli):
    good = new_odd(cli, "good.toml")
    result = cli("validate", good, "missing.toml")
    assert result.exit_code == 2 and "missing.toml" in result.output


def test_hand_written_plain_array_is_judged_like_the_referees_own(cli):
    Path("hand.toml").write_text(
        'format = 1\ngame = "odd"\nmoves = ["B E5", "w  d4", "b E6"]\n[options]\nsize = 5\n'
    )
    assert cli("validate", "hand.toml").exit_code == 0
    result = cli("move", "hand.toml", "w a1")
    assert result.exit_code == 0
    text = Path("hand.toml").read_text()
    assert text.count("[[moves]]") == 4 and 'move = "b e5"' in text and 'move = "w d4"' in text


# -- status, moves, show, board --------------------------------------------------------------


def test_status_json_follows_the_spec(cli):
    path = new_odd(cli)
    cli("move", path, "b e5")
    status = json.loads(cli("status", path, "--json").stdout)
    assert {"game", "ply", "to_move", "over", "winners", "result", "score"} <= set(status)
    assert status["game"] == "odd" and status["ply"] == 1 and status["to_move"] == 2
    assert status["result"] == "Seat 2 to move" and status["score"] == {"groups": 0, "parity": "even"}


def test_hermit_status_json_scores_each_seat(cli):
    cli("new", "hermit", "-o", "h.toml")
    for move in ("a1", "g7", "c1"):
        assert cli("move", "h.toml", move).exit_code == 0
    refused = cli("move", "h.toml", "g6")  # seat 2's g6 would make a group of 2 with g7
    assert refused.exit_code == 1 and "group of 2" in refused.stderr and "R-HE3" in refused.stderr
    status = json.loads(cli("status", "h.toml", "--json").stdout)
    assert status["ply"] == 3 and status["to_move"] == 2
    assert status["score"] == {
        "1": {"groups": 2, "hermits": 2, "threes": 0, "fives": 0},
        "2": {"groups": 1, "hermits": 1, "threes": 0, "fives": 0},
    }


def test_moves_lists_the_legal_moves(cli):
    path = new_odd(cli)
    cli("move", path, "b e5")
    listing = json.loads(cli("moves", path, "--json").stdout)
    assert listing["to_move"] == 2 and len(listing["moves"]) == 120
    assert "b e5" not in listing["moves"] and "w a1" in listing["moves"]
    assert cli("moves", path, "--after", "x").exit_code == 2


def test_show_draws_any_ply_and_refuses_plies_beyond_the_record(cli):
    path = new_odd(cli)
    cli("move", path, "b e5")
    cli("move", path, "w d4")
    start = cli("show", path, "--ply", "0")
    assert start.exit_code == 0 and "X" not in start.stdout.split("\n\n")[1]
    assert "[X]" in cli("show", path, "--ply", "1").stdout
    assert cli("show", path, "--ply", "3").exit_code == 2
    assert cli("show", path, "--format", "svg", "-o", "s.svg").exit_code == 0
    assert ET.parse("s.svg").getroot().tag.endswith("svg")
    assert cli("show", path, "--format", "svg", "-o", "s.svg").exit_code == 2
    assert cli("show", path, "--format", "jpg").exit_code == 2


def on_a_terminal(*args: str, cwd: Path) -> tuple[int, bytes, str]:
    """`referee ARGS` run with its standard output a terminal (a pseudo-terminal): the exit
    code, what reached the terminal and the standard error."""
    main, side = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "referee", *args], stdout=side,
                              stderr=subprocess.PIPE, cwd=cwd, timeout=60)
    finally:
        os.close(side)
    shown = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the terminal's other end is closed: all has been read
            break
        if not chunk:
            break
        shown += chunk
    os.close(main)
    return done.returncode, shown, done.stderr.decode()


@pytest.mark.parametrize("args", [
    ("show", "g.toml", "--format", "png"),
    ("show", "g.toml", "--format", "gif"),
    ("board", "odd", "--format", "pdf"),
])
def test_a_picture_is_never_written_to_a_terminal_SPEC_8b(cli, tmp_path, args):
    new_odd(cli)
    code, shown, errors = on_a_terminal(*args, cwd=tmp_path)
    assert code == 2 and "give -o FILE" in errors and shown == b""


def test_a_picture_goes_down_a_pipe_and_text_to_a_terminal(cli, tmp_path):
    new_odd(cli)
    piped = subprocess.run([sys.executable, "-m", "referee", "show", "g.toml", "--format", "png"],
                           capture_output=True, cwd=tmp_path)
    assert piped.returncode == 0 and piped.stdout.startswith(b"\x89PNG")
    code, shown, _ = on_a_terminal("show", "g.toml", cwd=tmp_path)
    assert code == 0 and b"Ann to move" in shown


def test_a_negative_ply_counts_from_the_end_SPEC_8b(cli):
    path = new_odd(cli)
    for move in ("b e5", "w d4", "b c3"):
        cli("move", path, move)
    assert cli("show", path, "--ply", "-1").stdout == cli("show", path).stdout
    assert cli("show", path, "--ply", "-2").stdout == cli("show", path, "--ply", "2").stdout
    assert cli("show", path, "--ply", "-4").stdout == cli("show", path, "--ply", "0").stdout
    too_far = cli("show", path, "--ply", "-5")
    assert too_far.exit_code == 2 and "--ply -5 is beyond the record" in too_far.stderr
    assert cli("show", path, "--ply", "-1", "--format", "svg", "-o", "last.svg").exit_code == 0


def test_board_writes_a_true_to_size_sheet(cli):
    assert cli("board", "hermit", "-O", "board=hex", "--paper", "letter", "-o", "b.svg").exit_code == 0
    root = ET.parse("b.svg").getroot()
    assert root.get("width") == "215.9mm" and root.get("height") == "279.4mm"
    printed = cli("board", "odd")
    assert printed.exit_code == 0 and printed.stdout.startswith("<svg")


def test_help_teaches_every_command(cli):
    result = cli("--help")
    assert result.exit_code == 0
    for command in ("games", "new", "move", "validate", "status", "moves", "show", "board"):
        assert command in result.stdout
    assert "Example" in cli("move", "--help").stdout


def test_python_dash_m_runs_the_referee(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "referee", "games"], capture_output=True, text=True, cwd=tmp_path
    )
    assert result.returncode == 0 and "odd" in result.stdout


# -- everyday conveniences (SPEC §8) ---------------------------------------------------------


def test_history_lists_every_ply_with_its_seat_player_time_and_comment_SPEC_8(cli):
    path = new_odd(cli, "g.toml", "--player", "1=Ann <ann@example.org>")
    cli("move", path, "b e5", "--comment", "the centre")
    cli("move", path, "w d4")
    plies = json.loads(cli("history", path, "--json").stdout)["plies"]
    assert [(p["ply"], p["seat"], p["player"], p["move"], p["comment"]) for p in plies] == [
        (1, 1, "Ann <ann@example.org>", "b e5", "the centre"), (2, 2, "Bo", "w d4", None)]
    assert all(p["at"].endswith("Z") for p in plies)
    text = cli("history", path).stdout
    assert "b e5" in text and "the centre" in text and max(map(len, text.splitlines())) <= 78


def test_a_record_on_standard_input_SPEC_8(cli):
    path = new_odd(cli)
    cli("move", path, "b e5")
    result = CliRunner().invoke(app, ["status", "--json", "-"], input=path.read_bytes())
    assert result.exit_code == 0 and json.loads(result.stdout)["ply"] == 1


def test_validate_searches_folders_in_name_order_SPEC_8(cli):
    Path("club/round-2").mkdir(parents=True)
    Path("club/.hidden").mkdir()
    for name in ("club/b.toml", "club/round-2/a.toml", "club/a.toml", "club/.hidden/x.toml"):
        Path(name).write_text('format = 1\ngame = "odd"\n')
    Path("club/notes.txt").write_text("not a record")
    result = cli("validate", "--json", "club")
    assert result.exit_code == 0
    assert [r["file"] for r in json.loads(result.stdout)] == [
        "club/a.toml", "club/b.toml", "club/round-2/a.toml"]


def test_a_record_with_a_byte_order_mark_is_read_SPEC_8(cli):
    Path("bom.toml").write_bytes(b'\xef\xbb\xbfformat = 1\ngame = "odd"\nmoves = ["b e5"]\n')
    assert cli("validate", "bom.toml").exit_code == 0
    assert cli("move", "bom.toml", "w d4").exit_code == 0
