"""`referee match` (SPEC §10): two UGI programs play under the referee's judgement.

The engines are tiny programs written for these tests (tests/engines/): a random player, and
one each that plays an illegal move, crashes, hangs, or speaks garbage. Every match here is
checked for processes left behind: each test tags its environment, which every engine (and
anything an engine starts) inherits, and no process may carry the tag once the match is over.
"""

from __future__ import annotations

import shlex
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from match_support import SMALL, engine, played, watch_for_orphans

from referee.engine import process as engine_process, match
from referee.engine.stats import elo_interval


@pytest.fixture(autouse=True)
def no_orphans(monkeypatch):
    """After every test: no engine, and nothing an engine started, is left running."""
    yield from watch_for_orphans(monkeypatch)


def records(folder: Path) -> dict[str, dict]:
    return {p.name: tomllib.loads(p.read_text()) for p in sorted(folder.glob("*.toml")) if p.name != "match.toml"}


# -- a match that runs -----------------------------------------------------------------------


def test_the_referee_against_a_random_engine_writes_valid_sealed_records_spec_10(cli, tmp_path):
    report = played(cli, "referee", engine("random"), *SMALL, "--games", "2", "--movetime", "100",
                    "--out", "m")
    assert set(report) >= {"games", "engines", "elo_diff", "elo_interval", "records"}
    assert report["games"] == 2 and report["records"] == "m"
    referee, random_ = report["engines"]
    for row in report["engines"]:
        assert set(row) >= {"name", "wins", "losses", "draws", "illegal", "crashes", "timeouts", "mean_ms"}
        assert row["wins"] + row["losses"] + row["draws"] == 2
        assert row["illegal"] == row["crashes"] == row["timeouts"] == 0
    # Shown as engines (SPEC §14), the referee's as its bot seats are.
    assert referee["name"] == "referee 0.1.0 (engine)" and random_["name"] == "random (engine)"
    assert referee["mean_ms"] > 0
    assert len(report["elo_interval"]) == 2
    # The standings of SPEC §7 over the folder, both engines as players.
    players = report["standings"]["games"]["odd"]["players"]
    assert {p["player"] for p in players} == {referee["name"], random_["name"]}
    folder = tmp_path / "m"
    games = records(folder)
    assert list(games) == ["001-referee-0-1-0-vs-random.toml", "002-random-vs-referee-0-1-0.toml"]
    # Seats alternate: ENGINE1 has seat 1 in game 1 and seat 2 in game 2.
    assert games["001-referee-0-1-0-vs-random.toml"]["players"] == {"1": referee["name"], "2": "random (engine)"}
    assert games["002-random-vs-referee-0-1-0.toml"]["players"] == {"1": "random (engine)", "2": referee["name"]}
    for game in games.values():
        assert "result" in game
        assert all("at" in ply and "digest" in ply for ply in game["moves"])
    assert cli("validate", "m").exit_code == 0
    for name in games:
        said = cli("verify", f"m/{name}")
        assert said.exit_code == 0 and "all sealed" in said.output


def test_a_match_in_words_ends_with_standings_engines_and_elo_in_78_columns(cli):
    result = cli("match", engine("random", "--seed", "1"), engine("random", "--seed", "2"), *SMALL,
                 "--games", "2", "--movetime", "50", "--out", "m")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    games = [line for line in lines if line[:3].isdigit()]
    assert games[0].startswith("001 random (engine 1) – random (engine 2): ")
    assert games[1].startswith("002 random (engine 2) – random (engine 1): ")
    assert any(line.startswith("Odd: 2 players, 2 games finished") for line in lines)
    assert any(line.startswith("Engine ") and line.endswith("ms/move") for line in lines)
    assert any(line.startswith("Elo difference, engine 1 − engine 2: ") and "(95 %: " in line for line in lines)
    assert lines[-1] == "Records: m"
    assert all(len(line) <= 78 for line in lines)


# -- each fault loses the game, and the record says why ---------------------------------------


def faulty_match(cli, tmp_path, kind: str, *args: str) -> tuple[dict, dict[str, dict]]:
    report = played(cli, engine("random"), engine(kind, *args), *SMALL, "--games", "2",
                    "--movetime", "50", "--out", "m")
    assert cli("validate", "m").exit_code == 0  # forfeits included
    games = records(tmp_path / "m")
    for result, game in zip(report["results"], games.values()):
        seat = 1 + result["seat2"].startswith(kind)
        assert game["moves"][-1]["move"] == "resign"  # the arbiter resigns for the faulty seat
        assert game["moves"][-1]["comment"].startswith("forfeit: ")
        assert game["result"]["winners"] == [3 - seat]
        assert game["result"]["reason"].startswith(f"{kind} (engine) (seat {seat}) forfeits: ")
    assert report["engines"][0]["wins"] == 2 and report["engines"][1]["losses"] == 2
    return report, games


def test_an_illegal_move_loses_the_game_spec_10(cli, tmp_path):
    report, games = faulty_match(cli, tmp_path, "illegal")
    assert report["engines"][1]["illegal"] == 2
    for game in games.values():
        assert ": illegal move " in game["result"]["reason"]
        assert game["result"]["reason"].endswith(" is occupied")


def test_garbage_loses_the_game_as_an_unreadable_move_spec_10(cli, tmp_path):
    report, games = faulty_match(cli, tmp_path, "garbage")
    assert report["engines"][1]["illegal"] == 2
    for game in games.values():
        reason = game["result"]["reason"]
        assert ": unreadable move " in reason and "\x1b" not in reason
        assert reason.endswith("(it said: bestmove is a state of mind)")


def test_a_crash_loses_the_game_and_the_engine_starts_afresh_spec_10(cli, tmp_path):
    # It crashes in game 1; crashing again in game 2 shows that it was started again.
    report, games = faulty_match(cli, tmp_path, "crash", "--after", "1")
    assert report["engines"][1]["crashes"] == 2
    for game in games.values():
        assert game["result"]["reason"].endswith("forfeits: crashed (exit code 3): crash engine: out of cheese")


def test_a_hang_loses_the_game_and_the_engine_is_killed_with_all_it_started_spec_10(cli, tmp_path):
    # It ignores quit and SIGTERM, and leaves a sleeping child: only SIGKILL to its group helps
    # (the fixture checks that nothing is left).
    report, games = faulty_match(cli, tmp_path, "hang")
    assert report["engines"][1]["timeouts"] == 2
    for game in games.values():
        assert game["result"]["reason"].endswith("forfeits: no bestmove within 1.15 s")  # 3 × 50 ms + 1 s


def test_a_game_past_the_ply_cap_is_adjudicated_a_draw_that_validates(cli, tmp_path):
    report = played(cli, engine("random", "--seed", "1"), engine("random", "--seed", "2"), *SMALL,
                    "--games", "1", "--movetime", "50", "--max-plies", "5", "--out", "m")
    # One game asked for is a pair (SPEC §13: --games is rounded up to whole pairs).
    assert report["engines"][0]["draws"] == 2 and all(r["adjudicated"] for r in report["results"])
    for game in records(tmp_path / "m").values():
        assert [ply.get("offer") for ply in game["moves"][-2:]] == ["draw", None]
        assert game["moves"][-1]["move"] == "accept draw" and len(game["moves"]) == 6
        assert game["result"] == {"winners": [], "reason": "adjudicated a draw: no end after 5 plies"}
    assert cli("validate", "m").exit_code == 0


# -- openings, seeds and games at once -------------------------------------------------------


def test_each_opening_is_played_from_both_sides(cli, tmp_path):
    (tmp_path / "book.txt").write_text("# two openings\nb_c3 w_d4\n\n  w_a1   # one move\n")
    played(cli, engine("random", "--seed", "1"), engine("random", "--seed", "2"), *SMALL,
           "--games", "4", "--movetime", "50", "--openings", "book.txt", "--out", "m")
    games = list(records(tmp_path / "m").values())
    starts = [[ply["move"] for ply in game["moves"][:2]] for game in games]
    assert starts[0] == starts[1] == ["b c3", "w d4"]
    assert starts[2][0] == starts[3][0] == "w a1"
    assert games[0]["moves"][0]["comment"] == "opening from line 2 of book.txt"
    assert games[2]["moves"][0]["comment"] == "opening from line 4 of book.txt"
    assert games[0]["players"]["1"] == games[1]["players"]["2"] == "random (engine 1)"  # seats swapped


def test_a_seed_shuffles_the_openings_alike_every_time(tmp_path):
    book = tmp_path / "book.txt"
    book.write_text("".join(f"b_{cell}\n" for cell in ("a1", "b1", "c1", "a2", "b2", "c2", "d2")))

    def order(seed):
        chosen = match.plan(("referee", "referee"), "odd", {"size": "3"}, openings=str(book), seed=seed)
        return [opening.line for opening in chosen.openings]

    assert order(None) == [1, 2, 3, 4, 5, 6, 7]
    assert order(5) == order(5) != order(None)


def test_games_at_once_give_the_records_of_one_at_a_time(cli, tmp_path):
    def games(folder, concurrency):
        played(cli, engine("random", "--seed", "1"), engine("random", "--seed", "2"), *SMALL,
               "--games", "4", "--movetime", "50", "--out", folder, "--concurrency", concurrency)
        return {name: (game["players"], [p["move"] for p in game["moves"]], game["result"])
                for name, game in records(tmp_path / folder).items()}

    alone = games("alone", "1")
    assert len(alone) == 4
    assert games("together", "2") == alone


# -- refusals ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "said"), [
    (("referee", "referee", "--game", "chess"), "unknown game 'chess'"),
    (("referee", "referee", "--game", "crab"), "a match is for games of two seats"),
    (("referee", "referee", "--game", "odd", "-O", "size=99"), "option size must be 3–12"),
    (("referee", "referee", "--game", "odd", "-O", "size"), "-O"),
    (("referee", "referee", "--game", "odd", "--games", "0"), "--games takes 1"),
    (("referee", "no-such-program-anywhere", "--game", "odd"), "engine 2 (no-such-program-anywhere) cannot be started"),
    (("referee", "'unclosed", "--game", "odd"), "engine 2 (\"'unclosed\"): No closing quotation"),
    (("referee", "referee", "--game", "odd", "--openings", "missing.txt"), "missing.txt: no such file"),
])
def test_a_match_that_cannot_run_as_asked_is_exit_2_spec_4(cli, tmp_path, args, said):
    result = cli("match", *args)
    assert result.exit_code == 2
    assert said in result.output and "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_an_illegal_opening_is_exit_2_naming_its_line(cli, tmp_path):
    (tmp_path / "book.txt").write_text("b_c3\n# then\nb_c3 b_c3\n")
    result = cli("match", "referee", "referee", *SMALL, "--openings", "book.txt")
    assert result.exit_code == 2
    assert "book.txt:3: opening move 2 (b c3): c3 is occupied" in result.output


def test_an_engine_that_never_answers_ugi_is_exit_2(cli, tmp_path, monkeypatch):
    monkeypatch.setattr(engine_process, "START_WAIT", 1.0)
    silent = shlex.join([sys.executable, "-c", "import time; time.sleep(60)"])
    result = cli("match", "referee", silent, *SMALL)
    assert result.exit_code == 2
    assert "no ugiok within 1 s of ugi; is it a UGI engine?" in result.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_ctrl_c_or_sigterm_ends_the_engines_and_keeps_the_records_valid(tmp_path, stop):
    match_process = subprocess.Popen(
        [sys.executable, "-m", "referee", "match", engine("random"), engine("hang"), *SMALL,
         "--games", "4", "--movetime", "5000", "--out", "m"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob("m/*.toml")) and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)  # the hanging engine is thinking
    match_process.send_signal(stop)
    out, err = match_process.communicate(timeout=60)
    assert match_process.returncode == 128 + stop  # 130 after Ctrl-C, 143 after SIGTERM
    assert "interrupted: the engines are ended; the records so far are in m" in err
    assert "Traceback" not in err
    done = subprocess.run([sys.executable, "-m", "referee", "validate", "m"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout


# -- the parts --------------------------------------------------------------------------------


def test_the_elo_difference_and_its_interval_come_from_the_pairs_and_their_variance_spec_13():
    # 3 wins, 1 loss in two pairs (2 points, 1 point): pair scores 1 and ½, μ = 0.75,
    # σ² = 0.0625 a pair, so μ's variance is 0.03125 and the Wilson interval takes
    # n = 0.75 · 0.25 / 0.03125 = 6 games. (The interval of SPEC §13: tests/test_match_stats.py.)
    import math

    estimate, low, high = elo_interval([0, 0, 1, 0, 1])
    assert estimate == pytest.approx(190.85, abs=0.01)
    z, n = 1.959964, 6
    centre = (0.75 + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(0.75 * 0.25 / n + z * z / (4 * n * n)) / (1 + z * z / n)
    assert low == pytest.approx(-400 * math.log10(1 / (centre - half) - 1))
    assert high == pytest.approx(-400 * math.log10(1 / (centre + half) - 1))
    # Even: symmetric about 0.
    estimate, low, high = elo_interval([0, 1, 0, 1, 0])
    assert estimate == pytest.approx(0) and low == pytest.approx(-high)
    # Every game won: no spread to measure; the Wilson interval over the games still bounds
    # it from below.
    estimate, low, high = elo_interval([0, 0, 0, 0, 5])
    assert estimate == high == float("inf") and 100 < low < 200
    assert elo_interval([0] * 5) is None


def test_a_compact_move_is_read_as_the_one_legal_move_it_spells_spec_10(tmp_path):
    from referee.play.game_file import new_game

    play = new_game("odd", {"size": "3"}, None, None, str(tmp_path / "g.toml"), force=False).play
    assert match.from_wire(play, "be5") == "b e5"
    assert match.from_wire(play, "b_e5") == "b e5"
    assert match.from_wire(play, "zz") == "zz"  # judged, and refused, as written


@pytest.mark.slow
@pytest.mark.parametrize(("game", "options"), [
    ("odd", ()), ("dustin", ()), ("hermit", ("-O", "size=5")), ("hermit", ("-O", "board=hex", "-O", "size=3")),
    ("harmijan", ("-O", "size=5")), ("hermetica", ()),
])
def test_every_two_seat_game_plays_the_referee_against_random_and_against_itself(cli, tmp_path, game, options):
    # Timeouts are not counted against it: they depend on the machine's load (and in Hermetica
    # the engine's first playout alone outlasts 3 × 50 ms + 1 s: README, Engine matches).
    for opponent, folder in ((engine("random"), "random"), ("referee", "itself")):
        report = played(cli, "referee", opponent, "--game", game, *options, "--games", "2",
                        "--movetime", "50", "--max-plies", "300", "--out", folder)
        assert report["games"] == 2
        assert sum(row["illegal"] + row["crashes"] for row in report["engines"]) == 0
        assert cli("validate", folder).exit_code == 0
