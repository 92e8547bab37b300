"""`referee solve` and `referee new crab --winnable` (SPEC §10): the answer in JSON and in words,
a winning line that `move` plays to a win, a proof of loss, the exit codes, a record never
written, and deals proven winnable with the seed that dealt them recorded."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from referee.play import reports
from referee.search import solver as engine_solver


def new_crab(cli, *options, name="c.toml", extra=()):
    args = [x for o in options for x in ("-O", o)]
    result = cli("new", "crab", "-o", name, *args, *extra)
    assert result.exit_code == 0, result.output
    return Path(name)


def solved(cli, path, *extra):
    result = cli("solve", path, "--json", *extra)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_spec_10_solve_gives_a_line_that_move_plays_to_a_win(cli):
    path = new_crab(cli, "seed=1")
    report = solved(cli, path, "--seconds", "20")
    assert report["winnable"] is True and report["rounds"] == len(report["line"]) > 0
    assert isinstance(report["searched"], int)
    for entry in report["line"]:
        assert cli("move", path, entry).exit_code == 0
    status = json.loads(cli("status", path, "--json").stdout)
    assert status["over"] and status["winners"] == [1]


def test_spec_10_solve_from_the_middle_of_a_game_gives_the_rest(cli):
    path = new_crab(cli, "seed=1")
    line = solved(cli, path, "--seconds", "20")["line"]
    assert cli("move", path, line[0]).exit_code == 0
    rest = solved(cli, path, "--seconds", "20")
    assert rest["winnable"] is True and rest["rounds"] >= 1


def test_spec_10_solve_in_words_fits_a_mail(cli):
    path = new_crab(cli, "seed=1")
    result = cli("solve", path, "--seconds", "20")
    assert result.exit_code == 0
    assert result.stdout.startswith("Winnable in ") and "round by round:" in result.stdout
    assert "positions searched" in result.stdout
    assert result.stdout.splitlines()[1].startswith("  1. ")  # a round a line, as in co-op
    assert all(len(line) <= 78 for line in result.stdout.splitlines())


def test_spec_10_solve_proves_a_loss_and_says_how_much_it_searched(cli):
    # R-CR8 dunes, solo: 3 rounds at most with 2 cards kept, too few to reach the Wave.
    path = new_crab(cli, "seed=1", "task=dunes")
    report = solved(cli, path)
    assert report["winnable"] is False and report["searched"] >= 1 and "line" not in report
    assert cli("solve", path).stdout.startswith("Not winnable: every way on loses")


def test_spec_10_solve_never_writes_the_record(cli):
    path = new_crab(cli, "seed=1")
    before = path.read_bytes()
    solved(cli, path)
    assert cli("solve", path).exit_code == 0
    assert path.read_bytes() == before


def test_spec_10_solve_a_finished_game_is_exit_1(cli):
    path = new_crab(cli, "seed=1")
    assert cli("move", path, "resign").exit_code == 0
    result = cli("solve", path)
    assert result.exit_code == 1 and "the game is over" in result.output


def test_spec_10_solve_is_for_crab_only_and_checks_its_seconds(cli):
    assert cli("new", "odd", "-o", "o.toml").exit_code == 0
    result = cli("solve", "o.toml")
    assert result.exit_code == 2 and "crab" in result.output
    path = new_crab(cli, "seed=1")
    for seconds in ("0.05", "601", "nan"):
        result = cli("solve", path, "--seconds", seconds)
        assert result.exit_code == 2 and "0.1–600" in result.output
    assert cli("solve", "missing.toml").exit_code == 2


def test_spec_10_unknown_and_cooperative_answers_in_words():
    unknown = reports.solve_lines({"winnable": None, "searched": 1234, "seconds": 3.0})
    assert unknown == ["Unknown: not settled in time (1,234 positions searched in 3 s); "
                       "more --seconds may settle it."]
    coop = reports.solve_lines({"winnable": True, "line": ["1: 7 2,0 90 | 2: 3 0,1 0"] * 2,
                                "rounds": 2, "searched": 9, "seconds": 0.5})
    assert coop == ["Winnable in 2 rounds (9 positions searched in 0.5 s), round by round:",
                    "  1. 1: 7 2,0 90 | 2: 3 0,1 0", "  2. 1: 7 2,0 90 | 2: 3 0,1 0"]


def test_spec_10_new_winnable_records_the_seed_of_a_deal_solve_proves_winnable(cli):
    result = cli("new", "crab", "-o", "w.toml", "--winnable", "-O", "seed=6")
    assert result.exit_code == 0, result.output
    record = tomllib.loads(Path("w.toml").read_text())
    seed = record["options"]["seed"]
    assert seed >= 6 and f"Seed {seed}: a deal the solver proves winnable." in result.stdout
    assert solved(cli, "w.toml", "--seconds", "30")["winnable"] is True
    # The same seed deals the same game again, and the seed alone deals it without --winnable.
    again = cli("new", "crab", "-o", "again.toml", "--winnable", "-O", "seed=6")
    assert again.exit_code == 0
    assert tomllib.loads(Path("again.toml").read_text())["setup"] == record["setup"]
    plain = new_crab(cli, f"seed={seed}", name="plain.toml")
    assert tomllib.loads(plain.read_text())["setup"] == record["setup"]


def test_spec_10_new_winnable_is_for_crab_only(cli):
    result = cli("new", "odd", "-o", "o.toml", "--winnable")
    assert result.exit_code == 2 and "--winnable is for crab" in result.output
    assert not Path("o.toml").exists()


def test_spec_10_new_winnable_gives_up_after_its_time_with_exit_2(cli, monkeypatch):
    # No positions for each deal: no deal is ever proven winnable.
    monkeypatch.setattr(engine_solver, "HUNT_SECONDS", 0.5)
    monkeypatch.setattr(engine_solver, "DEAL_POSITIONS", 0)
    result = cli("new", "crab", "-o", "w.toml", "--winnable", "-O", "seed=10")
    assert result.exit_code == 2
    assert "no deal proven winnable within 0.5 s" in result.output and "seeds 10…" in result.output
    assert not Path("w.toml").exists()


def test_spec_10_a_cooperative_line_places_for_every_seat_and_wins(cli):
    path = new_crab(cli, "seed=2", "players=2")
    report = solved(cli, path, "--seconds", "30")
    assert report["winnable"] is True
    assert all(entry.startswith("1: ") and " | 2: " in entry for entry in report["line"])
    for entry in report["line"]:
        assert cli("move", path, entry).exit_code == 0
    assert json.loads(cli("status", path, "--json").stdout)["winners"] == [1, 2]


def hinted(cli, path, *extra):
    result = cli("hint", path, "--json", *extra)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_spec_10_a_crab_hint_on_a_winnable_deal_follows_the_solvers_winning_line(cli):
    path = new_crab(cli, "seed=1")
    for _ in range(3):  # three hints in a row, each played: still on a winning line
        advice = hinted(cli, path, "--iterations", "50")
        assert advice["winnable"] is True and advice["value"] == 1.0
        assert cli("move", path, advice["move"]).exit_code == 0
    assert solved(cli, path, "--seconds", "20")["winnable"] is True
    words = cli("hint", path, "--iterations", "50").stdout
    assert "can be won" in words and "Winning line:" in words


def test_spec_10_a_crab_hint_on_a_lost_deal_says_so_and_still_gives_a_legal_try(cli):
    path = new_crab(cli, "seed=3", "task=dunes")
    assert solved(cli, path, "--seconds", "20")["winnable"] is False
    before = path.read_bytes()
    advice = hinted(cli, path, "--iterations", "20")
    # the solver's verdict is `winnable`; the search claims no proof it did not make
    assert advice["winnable"] is False and advice["proven"] is False
    assert path.read_bytes() == before  # a hint never writes
    assert cli("move", path, advice["move"]).exit_code == 0


def test_spec_10_a_hint_in_a_game_with_an_opponent_carries_no_winnable(cli):
    assert cli("new", "odd", "-o", "o.toml").exit_code == 0
    assert "winnable" not in hinted(cli, "o.toml", "--iterations", "50")
