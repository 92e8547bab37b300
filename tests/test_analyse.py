"""`referee analyse` (SPEC §11, "Analysis of a game"): every ply judged by the engine — the
mover's chance before and after, the best move, the loss and its mark —, the same answer on
every run with --iterations, forced passes listed and not judged, a win by force given away a
blunder, the crab game judged round by round by its solver, and the record never written."""

from __future__ import annotations

import json
import random
import time
import tomllib
from pathlib import Path

import pytest

from referee.games import GAMES
from referee.games.crab.solver import solve
from referee.play.analysis import analyse, mark
from referee.play.replay import replay
from referee.record.reading import read_record
from test_engine_endgames import winning_moves

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
ODD = SAMPLES / "odd" / "odd-3-handwritten.toml"
PLIES = len(tomllib.loads(ODD.read_text())["moves"])
KEYS = {"ply", "seat", "move", "before", "after", "best", "best_value", "loss", "mark", "proven"}


def chance(value: float, proven: bool) -> str:
    """A chance as the words say it: "61 %", or "won" or "lost" where proven."""
    return {1.0: "won", 0.0: "lost"}[value] if proven and value in (0.0, 1.0) else f"{round(value * 100)} %"


def run_json(cli, *args) -> dict:
    done = cli("analyse", *args, "--json")
    assert done.exit_code == 0, done.output
    return json.loads(done.output)


# -- the marks ---------------------------------------------------------------------------------


@pytest.mark.parametrize("loss, expected", [
    (0.0, None), (0.0999, None), (0.10, "inaccuracy"), (0.1999, "inaccuracy"),
    (0.20, "mistake"), (0.2999, "mistake"), (0.30, "blunder"), (1.0, "blunder"),
])
def test_a_ply_is_marked_by_its_loss_at_the_thresholds(loss, expected):
    assert mark(loss) == expected


def test_a_win_given_away_is_a_blunder_whatever_it_lost():
    assert mark(0.0, given_away=True) == "blunder"
    assert mark(0.05, given_away=True) == "blunder"


# -- what the command says ----------------------------------------------------------------------


def test_every_ply_has_the_specs_figures(cli):
    found = run_json(cli, ODD, "--iterations", "200")
    plies = found["plies"]
    assert [p["ply"] for p in plies] == list(range(1, len(tomllib.loads(ODD.read_text())["moves"]) + 1))
    assert found["iterations"] == 200 and found["seconds"] is None
    for ply in plies:
        assert KEYS <= set(ply)
        assert ply["seat"] in (1, 2) and isinstance(ply["move"], str)
        assert 0 <= ply["after"] <= 1 and 0 <= ply["before"] <= 1
        assert ply["best_value"] == ply["before"]
        assert ply["loss"] == round(max(0.0, ply["before"] - ply["after"]), 4)
        assert ply["mark"] == mark(ply["loss"]) or (ply["proven"] and ply["mark"] == "blunder")
        if ply["best"] == ply["move"]:
            assert ply["loss"] == 0  # the best move found, valued by the same search
    assert any(ply["mark"] for ply in plies)  # a beginner's game: the engine finds fault


def test_the_same_analysis_on_every_run_with_iterations(cli):
    first = cli("analyse", ODD, "--iterations", "150")
    second = cli("analyse", ODD, "--iterations", "150")
    assert first.exit_code == 0 and first.output == second.output
    assert run_json(cli, ODD, "--iterations", "150") == run_json(cli, ODD, "--iterations", "150")


def test_words_one_line_a_ply_then_each_seats_marks_within_78_columns(cli):
    words = cli("analyse", ODD, "--iterations", "200").output.splitlines()
    found = run_json(cli, ODD, "--iterations", "200")
    assert all(len(line) <= 78 for line in words)
    for ply in found["plies"]:
        line = next(line for line in words if line.lstrip().startswith(f"{ply['ply']}  {ply['move']}  ("))
        assert f"{chance(ply['before'], ply['proven'])} → {chance(ply['after'], ply['after_proven'])}" in line
        if ply["mark"]:
            assert line.endswith(f"{ply['mark']}; best {ply['best']} ({chance(ply['best_value'], ply['proven'])})")
    marks = {seat: sum(1 for p in found["plies"] if p["seat"] == seat and p["mark"] == "blunder") for seat in (1, 2)}
    assert words[-2].startswith("Emeka Demo (seat 1): ") and words[-1].startswith("Bo Sample (seat 2): ")
    for seat, line in ((1, words[-2]), (2, words[-1])):
        assert f"{marks[seat]} blunder" in line


def test_plies_gives_a_range_judged_as_in_the_whole(cli):
    whole = run_json(cli, ODD, "--iterations", "150")["plies"]
    part = run_json(cli, ODD, "--iterations", "150", "--plies", "3..5")["plies"]
    assert [p["ply"] for p in part] == [3, 4, 5]
    assert part[:2] == whole[2:4]  # each position's search is seeded by its ply
    assert [p["ply"] for p in run_json(cli, ODD, "--iterations", "50", "--plies", "7..")["plies"]][0] == 7
    assert [p["ply"] for p in run_json(cli, ODD, "--iterations", "50", "--plies", "..2")["plies"]] == [1, 2]


def test_forced_passes_are_listed_and_not_judged(cli):
    sample = SAMPLES / "hermit-square" / "hermit-square-passes.toml"
    moves = tomllib.loads(sample.read_text())["moves"]
    first_pass = next(n for n, entry in enumerate(moves, 1) if entry["move"] == "pass")
    span = f"{first_pass - 1}..{first_pass + 1}"
    plies = run_json(cli, sample, "--iterations", "60", "--plies", span)["plies"]
    passed = plies[1]
    assert passed["move"] == "pass" and passed["forced"] is True
    assert passed["before"] is None and passed["after"] is None and passed["mark"] is None
    assert plies[0]["before"] is not None and plies[2]["before"] is not None
    words = cli("analyse", sample, "--iterations", "60", "--plies", span).output
    assert f"{first_pass}  pass  (" in words and "forced, not judged" in words


def _endgame(tmp_path: Path) -> tuple[Path, list[str], str]:
    """An Odd record whose last ply gave a win by force away: found by random play under
    fixed seeds, six plies from the end, where a brute force says which moves win."""
    game = GAMES["odd"]
    options = {"size": 5, "min_group": 5}
    for seed in range(200):
        rng, state, moves = random.Random(seed), game.start(options, {}), []
        while game.outcome(state) is None:
            move = game.random_move(state, rng)
            moves.append(str(move))
            state = game.apply(state, move)
        state = game.start(options, {})
        for text in moves[:-6]:
            state = game.apply(state, game.parse(state, text))
        found = winning_moves(game, state)
        if not found or not found[0] or len(found[0]) * 4 > found[1]:
            continue
        wins = found[0]
        lost = next(str(m) for m in game.legal_moves(state) if str(m) not in wins)
        record = tmp_path / "endgame.toml"
        played = moves[:-6] + [lost]
        record.write_text('format = 1\ngame = "odd"\nmoves = [' + ", ".join(f'"{m}"' for m in played) + "]\n")
        return record, wins, lost
    raise AssertionError("no endgame found")


def test_a_win_by_force_given_away_is_a_blunder(tmp_path, cli):
    record, wins, lost = _endgame(tmp_path)
    last = len(tomllib.loads(record.read_text())["moves"])
    ply = run_json(cli, record, "--iterations", "20000", "--plies", f"{last}..{last}")["plies"][0]
    assert ply["move"] == lost and ply["best"] in wins
    assert ply["proven"] is True and ply["before"] == 1.0 and ply["best_value"] == 1.0
    assert ply["after"] < 1.0 and ply["mark"] == "blunder"
    words = cli("analyse", record, "--iterations", "20000", "--plies", f"{last}..").output
    assert f"{last}  {lost}  (Seat " in words and "won → " in words and f"blunder; best {ply['best']} (won)" in words


def test_crab_is_judged_round_by_round_by_the_solver(cli):
    """A solo deal the solver proves winnable: two rounds of its winning line, then a round
    after which the solver proves the game lost — a blunder, the line's round the best."""
    assert cli("new", "crab", "-o", "c.toml", "-O", "seed=1").exit_code == 0
    play = replay(read_record("c.toml"))
    line = solve(play.state, max_positions=2_000).line
    for text in (*line[:2], "14 0,-1 0"):
        play.push(text)
    assert solve(play.state, max_positions=100).winnable is False
    found = analyse(play, iterations=50).plies
    assert [ply["move"] for ply in found] == [*line[:2], "14 0,-1 0"]
    for ply in found[:2]:
        assert ply["proven"] and ply["before"] == ply["after"] == 1.0 and ply["mark"] is None
        assert ply["best"] == ply["move"]
    last = found[2]
    assert last["proven"] and last["before"] == 1.0 and last["after"] == 0.0 and last["loss"] == 1.0
    assert last["mark"] == "blunder" and last["best"] == line[2]


# -- never written, and the command's bounds ----------------------------------------------------


def test_the_record_is_never_written_sealed_or_not(cli, tmp_path):
    for sample in (ODD, SAMPLES / "clock" / "odd-4-bank-finished.toml"):
        copy = tmp_path / sample.name
        copy.write_bytes(sample.read_bytes())
        assert cli("analyse", copy, "--iterations", "30", "--plies", "1..3").exit_code == 0
        assert cli("analyse", copy, "--iterations", "30", "--plies", "1..3", "--json").exit_code == 0
        assert copy.read_bytes() == sample.read_bytes()
    assert "digest" in (SAMPLES / "clock" / "odd-4-bank-finished.toml").read_text()


@pytest.mark.parametrize("args, says", [
    (["--seconds", "0.05"], "--seconds must be 0.1–600 a ply"),
    (["--seconds", "601"], "--seconds must be 0.1–600 a ply"),
    (["--iterations", "0"], "--iterations must be 1–1,000,000 a ply"),
    (["--iterations", "2000000"], "--iterations must be 1–1,000,000 a ply"),
    (["--seconds", "1", "--iterations", "10"], "give --seconds or --iterations, not both"),
    (["--plies", "0..3"], f"--plies must lie within 1..{PLIES}"),
    (["--plies", "5..2"], f"--plies must lie within 1..{PLIES}"),
    (["--plies", f"3..{PLIES + 1}"], f"--plies must lie within 1..{PLIES}"),
    (["--plies", "three"], "--plies takes A..B"),
])
def test_bad_options_exit_2_saying_why(cli, args, says):
    done = cli("analyse", ODD, *args)
    assert done.exit_code == 2 and says in done.output and "Traceback" not in done.output


def test_a_record_that_does_not_replay_exits_1_naming_file_ply_and_move(cli, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('format = 1\ngame = "odd"\nmoves = ["b c3", "w c3"]\n')
    done = cli("analyse", bad, "--iterations", "10")
    assert done.exit_code == 1
    assert "bad.toml" in done.output and "ply 2" in done.output and "w c3" in done.output
    assert cli("analyse", tmp_path / "missing.toml").exit_code == 2


def test_seconds_bound_each_positions_search(cli):
    """SPEC §14: S a position — two plies take three searches of 0.1 s (the last ply's
    position after it included), well within a loaded machine's slack."""
    began = time.monotonic()
    found = run_json(cli, ODD, "--seconds", "0.1", "--plies", "1..2")
    assert time.monotonic() - began < 3 * 0.1 + 5.0
    assert found["seconds"] == 0.1 and found["iterations"] is None and len(found["plies"]) == 2


def test_a_long_round_and_a_long_name_keep_to_78_columns_and_the_team_is_counted_together(cli):
    made = cli("new", "crab", "-o", "c4.toml", "-O", "players=4", "-O", "seed=3",
               "--player", "1=Maximilian Alexander Wolfeschlegel")
    assert made.exit_code == 0, made.output
    line = solve(replay(read_record("c4.toml")).state, max_positions=3_000).line
    for text in line[:2]:
        assert cli("move", "c4.toml", text).exit_code == 0
    words = cli("analyse", "c4.toml", "--iterations", "50").output.splitlines()
    assert all(len(text) <= 78 for text in words)
    assert words[2:4] == [f"1  {line[0]}", "   (Maximilian Alexander Wolfeschlegel)  won → won"]
    assert words[-1] == "The players together: 0 inaccuracies, 0 mistakes, 0 blunders"


# -- the page (SPEC §11, --html) ---------------------------------------------------------------


def test_html_writes_the_review_page_with_the_graph_and_the_marks_of_this_analysis(cli, tmp_path):
    """`--html OUT` writes the page of what the words say: one graph point a ply and the
    start, a mark in the move list for each marked ply; OUT is never overwritten unasked, and
    the record stays as it was."""
    record = tmp_path / "game.toml"
    record.write_bytes(ODD.read_bytes())
    page = tmp_path / "analysis.html"
    found = run_json(cli, record, "--iterations", "200", "--html", page)
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and "analysis" in text
    marked = [p for p in found["plies"] if p["mark"]]
    assert marked, "a game of some plies at 200 playouts a position has marks to draw"
    for kind in ("inaccuracy", "mistake", "blunder"):  # each mark once in the move list
        assert text.count(f'<abbr class="mark mark-{kind}"') == sum(p["mark"] == kind for p in marked)
    assert text.count('data-spot="') == PLIES + 1  # the graph: the start and every ply
    assert record.read_bytes() == ODD.read_bytes()

    before = page.read_bytes()
    again = cli("analyse", record, "--iterations", "200", "--html", page)
    assert again.exit_code == 2 and "--force" in again.output and page.read_bytes() == before
    assert cli("analyse", record, "--iterations", "200", "--html", page, "--force").exit_code == 0
