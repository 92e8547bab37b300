"""Hermetica through the command line (SPEC §4): a game by files from the setup to a turn,
refused turns naming the action, `moves --after`, the board file option, diagrams and sheets."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import tomli_w

from referee.data import builtin_data
from referee.record.reading import read_record
from referee.play.replay import replay

SETUP = ("+F c1", "+E d12", "+W d1", "+F a9", "+E b1", "+W g9")


def new_game(cli, *options: str, path: str = "g.toml") -> Path:
    args = ["new", "hermetica", "-o", path, "--player", "1=Ann", "--player", "2=Bo <bo@example.org>"]
    for option in options:
        args += ["-O", option]
    result = cli(*args)
    assert result.exit_code == 0, result.output
    return Path(path)


def set_up(cli) -> Path:
    record = new_game(cli)
    for move in SETUP:
        result = cli("move", record, move)
        assert result.exit_code == 0, result.output
    return record


def test_new_record_holds_the_board_in_setup(cli):
    record = new_game(cli)
    text = record.read_text()
    assert "[setup.board.columns]" in text and 'scheme = "dawn"' in text
    status = json.loads(cli("status", record, "--json").output)
    assert status["to_move"] == 1 and status["score"]["1"] == {"elements": 0, "reserve": {"F": 3, "E": 3, "W": 3}}


def test_a_turn_is_stored_canonically_and_the_diagram_shows_it(cli):
    record = set_up(cli)
    result = cli("move", record, "f c1 - c2 ; +e e1")
    assert result.exit_code == 0, result.output
    assert 'move = "F c1-c2; +E e1"' in record.read_text()
    assert "F c1-c2" in result.output and "Bo to move" in result.output


def test_a_refused_action_names_its_place_and_leaves_the_record_alone(cli):
    record = set_up(cli)
    before = record.read_bytes()
    result = cli("move", record, "F c1-c2; F c2-c3")
    assert result.exit_code == 1
    assert "ply 7 (F c1-c2; F c2-c3), action 2:" in result.output
    assert "already acted" in result.output and "R-HM2" in result.output
    assert "Traceback" not in result.output
    assert record.read_bytes() == before


def test_validate_json_reports_the_failing_action(cli):
    record = set_up(cli)
    text = record.read_text() + '\n[[moves]]\nmove = "A d4-d5; E b1-b2-b3-b4-b5"\n'
    Path("bad.toml").write_text(text)
    result = cli("validate", "bad.toml", "--json")
    assert result.exit_code == 1
    error = json.loads(result.output)[0]["error"]
    assert error["ply"] == 7 and error["action"] == 2 and "at most 3" in error["message"]


def test_moves_lists_next_actions_and_after(cli):
    record = set_up(cli)
    listing = json.loads(cli("moves", record, "--json").output)
    assert listing["to_move"] == 1 and "A d4-d5" in listing["moves"] and "+F a1" in listing["moves"]
    after = json.loads(cli("moves", record, "--json", "--after", "A d4-d5").output)
    assert not any(m.startswith("A ") for m in after["moves"]) and after["spent"] == 1
    bad = cli("moves", record, "--after", "A d4-d6")
    assert bad.exit_code == 1 and "not adjacent" in bad.output


def test_moves_words_a_turn_as_first_and_next_actions_SPEC_8b(cli):
    record = set_up(cli)
    first = cli("moves", record).output
    count = len(json.loads(cli("moves", record, "--json").output)["moves"])
    assert first.startswith(f"Ann has {count} legal first actions (a turn: up to 3, joined by '; '):")
    assert "legal moves" not in first and first.rstrip().endswith("Or 'pass': a turn of no action.")
    after = cli("moves", record, "--after", "a d4 - d5").output
    assert after.startswith("After 'A d4-d5' (2 actions left), Ann has ")
    assert "legal next actions:" in after.splitlines()[0]
    assert after.rstrip().endswith("Or end the turn there: 'A d4-d5'.")
    listing = json.loads(cli("moves", record, "--json", "--after", "A d4-d5").output)
    assert listing["after"] == "A d4-d5" and listing["actions_left"] == 2  # keys added, SPEC §4's kept
    assert {"to_move", "moves", "phase", "spent", "turn_may_end"} <= set(listing)
    full = cli("moves", record, "--after", "A d4-d5; +E e1").output
    assert full.splitlines() == ["After 'A d4-d5; +E e1' (0 actions left), Ann has no legal next action.",
                                 "So end the turn there: 'A d4-d5; +E e1'."]


@pytest.mark.parametrize("typed", ["A d4-d5, F c1-c2", "A d4-d5,F c1-c2", "A d4-d5;F c1-c2", "A d4-d5 ;F c1-c2"])
def test_a_turn_joined_by_a_comma_or_a_bare_semicolon_reads_as_with_semicolon_space_SPEC_8b(cli, typed):
    """No Hermetica action holds a ',' (a crab placement does, Hermetica never), so it can
    only part two actions: `move`, `validate` and `moves --after` read it as '; '."""
    record = set_up(cli)
    expected = json.loads(cli("moves", record, "--json", "--after", "A d4-d5; F c1-c2").output)
    assert json.loads(cli("moves", record, "--json", "--after", typed).output) == expected
    Path("hand.toml").write_text(record.read_text() + f'\n[[moves]]\nmove = "{typed}"\n')
    assert cli("validate", "hand.toml").exit_code == 0
    result = cli("move", record, typed)
    assert result.exit_code == 0, result.output
    assert read_record(record).moves[-1].move == "A d4-d5; F c1-c2"  # stored canonically


@pytest.mark.parametrize("typed, fixed", [
    ("A d4-d5 F c1-c2", "A d4-d5; F c1-c2"),
    ("+E e1 A d4*d5", "+E e1; A d4*d5"),
    ("A d4-d5 F c1xc4 E b1-b2", "A d4-d5; F c1xc4; E b1-b2"),
])
def test_actions_run_together_are_refused_with_the_join_hint_SPEC_8b(cli, typed, fixed):
    record = set_up(cli)
    before = record.read_bytes()
    for result in (cli("move", record, typed), cli("moves", record, "--after", typed)):
        assert result.exit_code == 1
        assert f"join actions with '; ', e.g. '{fixed}'" in result.output
        assert "action 1" in result.output and "Traceback" not in result.output
    assert record.read_bytes() == before
    Path("hand.toml").write_text(record.read_text() + f'\n[[moves]]\nmove = "{typed}"\n')
    report = json.loads(cli("validate", "hand.toml", "--json").output)[0]
    assert "join actions with '; '" in report["error"]["message"] and report["error"]["action"] == 1


def test_moves_after_during_setup_is_a_usage_error(cli):
    record = new_game(cli)
    result = cli("moves", record, "--after", "A d4-d5")
    assert result.exit_code == 2


def test_a_board_file_by_path_is_copied_into_the_record(cli):
    board = dict(builtin_data("hermetica-board", "standard"))
    board["schemes"] = {"dawn": board["schemes"]["noon"]}
    Path("mat.toml").write_text(tomli_w.dumps(board))
    record = new_game(cli, "board=mat.toml")
    Path("mat.toml").unlink()  # the record never depends on it again (SPEC §1)
    shown = cli("show", record)
    assert shown.exit_code == 0, shown.output
    assert "#" in shown.output


def test_a_bad_board_file_is_refused_at_new(cli):
    Path("mat.toml").write_text("columns = { a = 3 }\n")
    result = cli("new", "hermetica", "-o", "g.toml", "-O", "board=mat.toml")
    assert result.exit_code == 2 and "board file" in result.output
    assert not Path("g.toml").exists()


def test_svg_diagram_is_well_formed_and_escapes_names(cli):
    record = set_up(cli)
    cli("move", record, "A d4*c4-d5; F c1-c2")
    result = cli("show", record, "--format", "svg")
    assert result.exit_code == 0
    root = ET.fromstring(result.output)
    assert "Bo &lt;bo@example.org&gt;" in result.output
    assert root.tag.endswith("svg")
    assert "shield-sun" in result.output and 'class="path"' in result.output


@pytest.mark.parametrize("scheme", ["dawn", "noon", "dusk", "draft"])
def test_printable_sheet_per_scheme(cli, scheme):
    result = cli("board", "hermetica", "-O", f"scheme={scheme}")
    assert result.exit_code == 0, result.output
    root = ET.fromstring(result.output)
    assert root.get("width").endswith("mm")
    walls = result.output.count('fill="#555555"')
    assert walls == (0 if scheme == "draft" else 12)
    # Each Prime hex says whose it is, on two lines that fit the hex: "Sun" over "Prime".
    words = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert words.count("Prime") == 2 and "Sun" in words and "Moon" in words


def test_full_game_by_files_to_a_win(cli):
    record = new_game(cli, "scheme=draft")
    walls = ["a3", "g3", "a5", "g5", "a7", "g7", "b3", "f3", "b7", "f7", "c9", "c2"]
    for wall in walls:
        assert cli("move", record, f"wall {wall}").exit_code == 0
    for move in SETUP:
        assert cli("move", record, move).exit_code == 0
    turns = ["A d4-e4-e5", "pass", "A e5-e6-e7", "pass", "A e7*d8-e8-e9", "pass", "A e9-e10-e11"]
    for turn in turns:
        result = cli("move", record, turn)
        assert result.exit_code == 0, result.output
    assert "Ann wins" in result.output and "R-HM10" in result.output
    status = json.loads(cli("status", record, "--json").output)
    assert status["winners"] == [1] and status["to_move"] is None
    assert "[result]" in record.read_text()
    assert cli("validate", record).exit_code == 0
    assert cli("move", record, "pass").exit_code == 1


SAMPLES = Path(__file__).resolve().parent.parent / "sample_games" / "hermetica"


def test_hermetica_samples_cover_every_scheme_with_a_win_and_a_game_in_progress():
    won, going = set(), 0
    for path in sorted(SAMPLES.glob("*.toml")):
        play = replay(read_record(path))
        if play.outcome() is None:
            going += 1
        else:
            assert play.outcome().winners and "R-HM10" in play.outcome().reason
            won.add(play.options["scheme"])
    assert won == {"dawn", "noon", "dusk", "draft"}
    assert going >= 1


def test_a_hand_typed_record_needs_no_setup_table(cli):
    Path("hand.toml").write_text(
        'format = 1\ngame = "hermetica"\nmoves = ["+f C1", "+e d12", "+W d1", "+F a9", "+E b1", "+W g9",\n'
        '  "a d4-d5 ; F c1-c2"]\n'
    )
    result = cli("validate", "hand.toml")
    assert result.exit_code == 0, result.output
    status = json.loads(cli("status", "hand.toml", "--json").output)
    assert status["ply"] == 7 and status["to_move"] == 2


def test_resign_ends_the_game_for_the_other_side(cli):
    record = set_up(cli)
    result = cli("move", record, "resign")
    assert result.exit_code == 0 and "Bo wins" in result.output


def test_a_board_file_without_the_chosen_scheme_is_refused_before_writing(cli):
    board = dict(builtin_data("hermetica-board", "standard"))
    board["schemes"] = {}
    Path("mat.toml").write_text(tomli_w.dumps(board))
    result = cli("new", "hermetica", "-o", "g.toml", "-O", "board=mat.toml", "-O", "scheme=noon")
    assert result.exit_code == 2 and "no scheme 'noon'" in result.output
    assert not Path("g.toml").exists()
    assert cli("new", "hermetica", "-o", "g.toml", "-O", "board=mat.toml", "-O", "scheme=draft").exit_code == 0
