"""SPEC §13: matches as engine testers run them — game pairs from one opening, the pentanomial
counts, the SPRT, --resume after the arbiter was killed, tournaments, engine options, clocks,
the logs of every line and a start-up allowance, and the progress line on a terminal.

The engines are the tiny deterministic ones of tests/engines/: a move depends on the engine's
seed and the position alone, so two runs of one match give the same games. Every match is
checked for processes left behind, as in test_match.py.
"""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
import tomllib

import pytest

from match_support import SMALL, engine, games_in, played, watch_for_orphans

from referee.engine import match, match_files, process as engine_process, stats
from referee.play.choices import game_named, game_options


ONE, TWO = engine("random", "--seed", "1"), engine("random", "--seed", "2")


@pytest.fixture(autouse=True)
def no_orphans(monkeypatch):
    """After every test: no engine, and nothing an engine started, is left running."""
    yield from watch_for_orphans(monkeypatch)


# -- pairs and openings ----------------------------------------------------------------------


def test_each_opening_is_played_twice_with_the_seats_swapped_and_games_round_up_to_pairs(cli, tmp_path):
    report = played(cli, ONE, TWO, *SMALL, "--games", "3", "--movetime", "50", "--random-openings", "2",
                    "--seed", "7", "--out", "m")
    assert report["games"] == 4  # 3 rounded up to two pairs
    assert sum(report["pentanomial"]) == 2 and len(report["pentanomial"]) == 5
    games = list(games_in(tmp_path / "m").values())
    openings = [moves[:2] for _, moves, _ in games]
    assert openings[0] == openings[1] != openings[2] == openings[3]
    for first, second in ((games[0], games[1]), (games[2], games[3])):
        assert first[0]["1"] == second[0]["2"] == "random (engine 1)"  # seats swapped
    # The pentanomial counts the pairs by the points engine 1 scored in both games.
    points = [sum(r["winners"] == [1 + (r["seat2"] == "random (engine 1)")] or 0.5 * (not r["winners"])
                  for r in report["results"][i:i + 2]) for i in (0, 2)]
    assert report["pentanomial"] == stats.pentanomial(points)
    # match.toml keeps the openings drawn, for --resume.
    kept = tomllib.loads((tmp_path / "m" / "match.toml").read_text())
    assert [o["moves"] for o in kept["openings"]] == [list(o) for o in openings[::2]]
    assert kept["seed"] == 7 and kept["names"] == ["random (engine 1)", "random (engine 2)"]


def test_random_openings_are_distinct_and_drawn_from_the_seed_alone():
    game = game_named("odd")
    options = game_options(game, {"size": "3"})
    first = match_files.random_openings(game, options, 2, 30, seed=1)
    assert len(first) == 30 and len({o.moves for o in first}) == 30
    assert all(len(o.moves) == 2 for o in first)
    assert first == match_files.random_openings(game, options, 2, 30, seed=1)
    assert first != match_files.random_openings(game, options, 2, 30, seed=2)
    # Fewer exist than asked for (one ply on 19 cells, two colours: 38): those, each once.
    assert len(match_files.random_openings(game, options, 1, 100, seed=1)) == 38


def test_words_show_w_d_l_and_the_pentanomial(cli):
    result = cli("match", ONE, TWO, *SMALL, "--games", "4", "--movetime", "50", "--random-openings", "2",
                 "--seed", "3", "--out", "m")
    assert result.exit_code == 0, result.output
    report = played(cli, ONE, TWO, *SMALL, "--games", "4", "--movetime", "50", "--random-openings", "2",
                    "--seed", "3", "--out", "m2")
    wins, draws, losses = (report["engines"][0][k] for k in ("wins", "draws", "losses"))
    counts = ", ".join(map(str, report["pentanomial"]))
    assert (f"W–D–L of engine 1: {wins}–{draws}–{losses}; pairs scoring 0, ½, 1, 1½, 2: [{counts}]"
            in result.stdout.splitlines())


def test_the_standings_elo_agrees_in_sign_with_the_match(cli):
    report = played(cli, ONE, TWO, *SMALL, "--games", "10", "--movetime", "50", "--random-openings", "2",
                    "--seed", "1", "--out", "m")
    first, second = (row["elo"] for row in report["engines"])
    difference = report["elo_diff"]
    assert difference is not None and difference != 0
    assert (first - second > 0) == (difference > 0)
    assert first - second == pytest.approx(difference, abs=0.2)  # 1500 ± d/2


# -- the SPRT --------------------------------------------------------------------------------


def test_the_sprt_stops_the_match_once_it_decides_spec_13(cli, tmp_path):
    report = played(cli, engine("playout"), engine("random"), *SMALL, "--games", "60", "--movetime", "100",
                    "--random-openings", "2", "--seed", "1", "--sprt", "elo0=0,elo1=200", "--out", "m")
    test = report["sprt"]
    assert set(test) >= {"llr", "lower", "upper", "result"}
    assert test["result"] == "H1" and test["llr"] >= test["upper"] == pytest.approx(2.944, abs=0.001)
    assert test["llr"] == pytest.approx(stats.llr(report["pentanomial"], 0, 200), abs=1e-3)
    # Stopped at the first pair that decided: one pair fewer had not.
    assert report["games"] < 60 and report["games"] == 2 * sum(report["pentanomial"])
    fewer = list(report["pentanomial"])
    fewer[[i for i, n in enumerate(fewer) if n][-1]] -= 1
    assert stats.llr(fewer, 0, 200) < test["upper"]
    # The folder holds exactly the games counted.
    assert len(games_in(tmp_path / "m")) == report["games"]


def test_the_sprt_line_in_words(cli):
    result = cli("match", engine("playout"), engine("random"), *SMALL, "--games", "60", "--movetime", "100",
                 "--random-openings", "2", "--seed", "1", "--sprt", "elo0=0,elo1=200", "--out", "m")
    assert result.exit_code == 0, result.output
    (line,) = [line for line in result.stdout.splitlines() if line.startswith("LLR ")]
    assert line.endswith(" (−2.94, 2.94): H1 accepted")
    assert float(line.split()[1]) >= 2.94


def test_an_sprt_is_for_two_engines(cli):
    result = cli("match", ONE, TWO, ONE, *SMALL, "--sprt", "elo0=0,elo1=5")
    assert result.exit_code == 2 and "give exactly two ENGINEs" in result.output


# -- resume ----------------------------------------------------------------------------------


def test_a_match_killed_and_resumed_gives_the_games_of_one_run_uninterrupted_spec_13(cli, tmp_path):
    # 40 ms of thought a move: the arbiter is killed (SIGKILL: nothing tidied) in the middle
    # of the third game or so; --resume plays the rest, the unfinished game again from its
    # opening.
    slow = [engine("random", "--seed", "1", "--think", "40"), engine("random", "--seed", "2", "--think", "40")]
    settings = [*SMALL, "--games", "6", "--movetime", "200", "--random-openings", "3", "--seed", "4"]
    arbiter = subprocess.Popen([sys.executable, "-m", "referee", "match", *slow, *settings, "--out", "killed"],
                               cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    folder = tmp_path / "killed"
    deadline = time.monotonic() + 60
    while len(list(folder.glob("00*.toml"))) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)  # a few plies into the third game
    arbiter.kill()
    arbiter.wait()
    finished = [name for name, (_, _, result) in games_in(folder).items() if result]
    unfinished = [name for name, (_, _, result) in games_in(folder).items() if not result]
    assert 1 <= len(finished) < 6 and len(unfinished) == 1  # the game under way, as far as it went
    resumed = played(cli, "--resume", "killed")
    whole = played(cli, *slow, *settings, "--out", "whole")
    assert games_in(folder) == games_in(tmp_path / "whole")
    for key in ("games", "pentanomial", "elo_diff", "elo_interval"):
        assert resumed[key] == whole[key]
    assert [(r["game"], r["winners"], r["plies"]) for r in resumed["results"]] == \
           [(r["game"], r["winners"], r["plies"]) for r in whole["results"]]
    assert cli("validate", "killed").exit_code == 0


def test_resume_plays_nothing_twice(cli, tmp_path):
    played(cli, ONE, TWO, *SMALL, "--games", "4", "--movetime", "50", "--out", "m")
    before = {p.name: p.read_bytes() for p in (tmp_path / "m").iterdir()}
    again = played(cli, "--resume", "m")
    assert again["games"] == 4
    assert {p.name: p.read_bytes() for p in (tmp_path / "m").iterdir()} == before  # nothing rewritten


@pytest.mark.parametrize(("args", "said"), [
    (("--resume", "m", "--games", "6"), "--games cannot be given with it"),
    (("--resume", "m", ONE, TWO), "ENGINE cannot be given with it"),
    (("--resume", "m", "--movetime", "10"), "--movetime cannot be given with it"),
    (("--resume", "nowhere"), "nowhere: no such folder"),
])
def test_resume_with_other_settings_is_exit_2(cli, tmp_path, args, said):
    (tmp_path / "m").mkdir()
    result = cli("match", *args)
    assert result.exit_code == 2 and said in result.output


def test_resume_of_a_folder_without_match_toml_is_exit_2(cli, tmp_path):
    (tmp_path / "m").mkdir()
    result = cli("match", "--resume", "m")
    assert result.exit_code == 2 and "no match.toml in it" in result.output


# -- tournaments, options, clocks ------------------------------------------------------------


def test_a_round_robin_plays_every_two_engines_and_closes_with_a_crosstable(cli, tmp_path):
    three = (engine("random", "--seed", "1", "--name", "ann"), engine("random", "--seed", "2", "--name", "bo"),
             engine("playout", "--name", "cy"))
    result = cli("match", *three, *SMALL, "--games", "2", "--movetime", "50", "--out", "rr")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert any(line.startswith("Odd: 3 players, 6 games finished") for line in lines)
    head = next(line for line in lines if line.startswith("#  Player"))
    assert head.split()[2:] == ["1", "2", "3", "Pts", "SB", "Elo"]
    assert all(len(line) <= 78 for line in lines)
    report = played(cli, *three, *SMALL, "--games", "2", "--movetime", "50", "--out", "rr2")
    assert [p["engines"] for p in report["pairings"]] == [[1, 2], [1, 3], [2, 3]]
    assert all(p["wins"] + p["draws"] + p["losses"] == 2 for p in report["pairings"])
    assert all(row["elo"] is not None for row in report["engines"])
    assert report["pentanomial"] is None  # one pairing's figures are in "pairings"


def test_a_gauntlet_plays_the_first_against_each_of_the_others(cli):
    report = played(cli, ONE, TWO, engine("playout"), *SMALL, "--games", "2", "--movetime", "50",
                    "--gauntlet", "--out", "g")
    assert [p["engines"] for p in report["pairings"]] == [[1, 2], [1, 3]]
    assert report["games"] == 4


def test_engine_options_are_sent_to_that_engine_alone(cli, tmp_path):
    # Engine 2 told Seed=9 plays as `--seed 9` would: the same games.
    told = played(cli, ONE, engine("random"), *SMALL, "--games", "2", "--movetime", "50",
                  "--engine-option", "2:Seed=9", "--log", "logs/", "--out", "told")
    seeded = played(cli, ONE, engine("random", "--seed", "9"), *SMALL, "--games", "2", "--movetime", "50",
                    "--out", "seeded")
    assert [r["plies"] for r in told["results"]] == [r["plies"] for r in seeded["results"]]
    assert [m for _, m, _ in games_in(tmp_path / "told").values()] == \
           [m for _, m, _ in games_in(tmp_path / "seeded").values()]
    log = (tmp_path / "logs" / "start.log").read_text()  # the engines' start, before any game
    assert " e2 > setoption name Seed value 9\n" in log
    assert " e1 > setoption name Seed" not in log
    assert (tmp_path / "logs" / "001-random-engine-1-vs-random-engine-2.log").exists()


def test_an_option_the_engine_refuses_is_exit_2(cli):
    result = cli("match", ONE, TWO, *SMALL, "--engine-option", "1:Hash=16")
    assert result.exit_code == 2 and "engine 1" in result.output and "refused setoption" in result.output
    result = cli("match", ONE, TWO, *SMALL, "--engine-option", "3:Hash=16")
    assert result.exit_code == 2 and "there is no engine 3" in result.output


def test_the_clocks_are_told_to_the_engines_and_running_out_loses(cli, tmp_path):
    # 1 s and 50 ms a move for an engine that thinks 250 ms a move: out of time by its
    # fifth move, in every game (it makes 9 or 10 in a game on 19 cells).
    report = played(cli, ONE, engine("random", "--seed", "2", "--think", "250"), *SMALL, "--tc", "1+0.05",
                    "--games", "2", "--log", "clock.log", "--out", "m")
    assert report["engines"][1]["timeouts"] == 2 and report["engines"][0]["wins"] == 2
    for result in report["results"]:
        assert "forfeits: out of time" in result["reason"]
    log = (tmp_path / "clock.log").read_text()
    assert "== game 1: 001-random-engine-1-vs-random-engine-2.toml" in log
    assert " > go p1time 1000 p2time 1000 p1inc 50 p2inc 50\n" in log
    assert cli("validate", "m").exit_code == 0
    assert cli("match", ONE, TWO, *SMALL, "--tc", "1+0", "--movetime", "100").exit_code == 2


def test_the_log_keeps_every_line_each_way(cli, tmp_path):
    played(cli, ONE, TWO, *SMALL, "--games", "2", "--movetime", "50", "--log", "logs", "--out", "m")
    # "logs" was no folder: one file, every game under its heading.
    text = (tmp_path / "logs").read_text()
    assert text.count("== game ") == 2 and text.startswith("== the engines start\n")
    for expected in (" e1 > ugi", " e1 < id name random", " e1 < ugiok", " > isready", " < readyok",
                     " > position startpos", " > go movetime 50", " < bestmove "):
        assert expected in text


def test_a_slow_starting_engine_is_given_its_start_up_allowance(cli, monkeypatch):
    # A program that needs 1.5 s before it answers `ugi`, against an allowance of 1 s, then 5 s.
    monkeypatch.setattr(engine_process, "START_WAIT", 1.0)
    slow = engine("random", "--slow-start", "1.5")
    refused = cli("match", ONE, slow, *SMALL, "--movetime", "50", "--out", "a")
    assert refused.exit_code == 2 and "no ugiok within 1 s" in refused.output
    report = played(cli, ONE, slow, *SMALL, "--movetime", "50", "--startup-seconds", "5", "--out", "b")
    assert report["games"] == 2 and report["engines"][1]["crashes"] == report["engines"][1]["timeouts"] == 0


# -- the progress line -----------------------------------------------------------------------


def test_a_terminal_shows_a_progress_line(tmp_path):
    # Standard error a terminal: the line is rewritten after every game.
    controller, terminal = pty.openpty()
    arbiter = subprocess.Popen(
        [sys.executable, "-m", "referee", "match", engine("playout"), engine("random"), *SMALL, "--games", "8",
         "--movetime", "50", "--random-openings", "2", "--seed", "1", "--sprt", "elo0=0,elo1=200", "--out", "m"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=terminal, stdin=subprocess.DEVNULL)
    os.close(terminal)
    shown = b""
    while True:
        ready, _, _ = select.select([controller], [], [], 60)
        try:
            chunk = os.read(controller, 65536) if ready else b""
        except OSError:
            chunk = b""
        if not chunk:
            break
        shown += chunk
    arbiter.communicate(timeout=60)
    os.close(controller)
    assert arbiter.returncode == 0
    lines = [piece.strip() for piece in shown.decode().replace("\x1b[K", "").split("\r") if piece.strip()]
    assert len(lines) >= 2  # rewritten game by game
    last = lines[-1]
    assert last.startswith("8/8 games  ")
    assert " LLR " in last and " Elo " in last and "[" in last
    assert "–" in last  # W–D–L


def test_the_progress_line_fits_78_columns():
    from referee.engine.arbiter import GameResult
    from referee.engine.match_report import progress_line

    plan = match.plan((ONE, TWO), "odd", {"size": "3"}, games=40, sprt="elo0=0,elo1=5")
    results = [GameResult(n, f"{n}.toml", (0, 1) if n % 2 else (1, 0), (1,) if n % 3 else (2,), "", 19)
               for n in range(1, 11)]
    done = match.Played(plan, ("a (engine)", "b (engine)"), "m", results, plan.pairs[:5], 0.42, None)
    line = progress_line(done)
    assert line.startswith("10/40 games  ") and "LLR 0.42" in line and len(line) <= 78
    assert signal.SIGINT  # (the module's signals are used by the tests above)


def test_a_folder_of_a_match_is_read_as_its_records_without_match_toml(cli, tmp_path):
    played(cli, ONE, TWO, *SMALL, "--games", "2", "--movetime", "50", "--out", "m")
    validated = cli("validate", "m")
    assert validated.exit_code == 0 and "2 of 2 records valid" in validated.output
    # A record of a player's own that happens to be called match.toml is still a record.
    (tmp_path / "mine").mkdir()
    assert cli("new", "odd", "-O", "size=3", "-o", "mine/match.toml").exit_code == 0
    mine = cli("validate", "mine")
    assert mine.exit_code == 0 and "valid   mine/match.toml" in mine.output
