"""The engine (SPEC §10): the search plays legal moves in every game, the same ones under a
seed; `hint` advises without writing; `referee engine` speaks UGI."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.search.mcts import Search
from referee.record.reading import read_record
from referee.play.replay import replay
from referee.engine.ugi import Session

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
IN_PROGRESS = sorted(SAMPLES.glob("*/*-in-progress.toml"))
PLIES = 12  # playouts cut short: these tests ask for legal, repeatable moves, not strength
# Hermetica's tree lists every next action of a turn at each node it adds: seconds a node.
SLOW_TREE = pytest.mark.slow


def _ids(paths):
    return [p.stem for p in paths]


# -- the search ------------------------------------------------------------------------------


@pytest.mark.parametrize("sample", IN_PROGRESS, ids=_ids(IN_PROGRESS))
def test_the_search_finds_a_legal_move_in_every_game(sample):
    play = replay(read_record(sample))
    found = Search(play.game, play.state, seed=1, playout_plies=PLIES).run(iterations=8)
    assert found.seat == play.to_move()
    play.push(str(found.move))  # raises if the referee refuses it
    assert 0 <= found.value <= 1 and found.visits >= 1 and found.line[0] == str(found.move)


@pytest.mark.parametrize("sample", [pytest.param(p, marks=SLOW_TREE) if "hermetica" in p.name else p
                                    for p in IN_PROGRESS], ids=_ids(IN_PROGRESS))
def test_the_search_is_the_same_under_a_seed(sample):
    play = replay(read_record(sample))
    runs = [Search(play.game, play.state, seed=7, playout_plies=PLIES).run(iterations=6) for _ in range(2)]
    assert runs[0].move == runs[1].move and runs[0].line == runs[1].line
    assert runs[0].visits == runs[1].visits


@SLOW_TREE
def test_the_search_takes_a_win_in_one(tmp_path, cli):
    """Hermetica: the Sun Adept one step from the Moon's Horizon (R-HM10) — the hint wins."""
    play = replay(read_record(SAMPLES / "hermetica" / "hermetica-dawn-won.toml"))
    before_last = replay(read_record(SAMPLES / "hermetica" / "hermetica-dawn-won.toml"))
    record = play.record
    # The position before the winning turn, and the search from there.
    from referee.play.replay import start
    partial = start(record)
    for entry in record.moves[:-1]:
        partial.push(entry.move, at=entry.at)
    found = Search(partial.game, partial.state, seed=3, playout_plies=2).run(iterations=400)
    after = partial.game.apply(partial.state, found.move)
    assert partial.game.outcome(after) is not None
    assert partial.game.outcome(after).winners == before_last.outcome().winners


# -- hint ------------------------------------------------------------------------------------


def test_hint_gives_a_legal_move_and_never_writes(tmp_path, cli):
    game = tmp_path / "game.toml"
    shutil.copy(SAMPLES / "odd" / "odd-in-progress.toml", game)
    before = game.read_bytes()
    result = cli("hint", game, "--iterations", "60", "--json")
    assert result.exit_code == 0, result.output
    advice = json.loads(result.output)
    assert set(advice) >= {"move", "seat", "value", "visits", "line", "seconds"}
    assert game.read_bytes() == before
    assert advice["seat"] == replay(read_record(game)).to_move()
    assert cli("move", game, advice["move"]).exit_code == 0


def test_hint_in_words_names_the_player_and_the_playouts(cli):
    result = cli("hint", SAMPLES / "odd" / "odd-in-progress.toml", "--iterations", "40")
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert first.startswith("Hint for ") and " — wins " in first and " playouts" in first


def test_hint_in_words_fits_a_mail_with_a_long_name(cli):
    name = "Maximiliane Wolkenstein-Rodenegg-Trostburg <maximiliane@example.org>"
    assert cli("new", "odd", "-o", "g.toml", "--player", f"1={name}").exit_code == 0
    words = cli("hint", "g.toml", "--iterations", "200").stdout
    assert "Maximiliane" in words and all(len(line) <= 78 for line in words.splitlines())


@SLOW_TREE
def test_hint_for_hermetica_is_a_whole_turn(cli):
    sample = SAMPLES / "hermetica" / "hermetica-in-progress.toml"
    advice = json.loads(cli("hint", sample, "--iterations", "5", "--json").output)
    play = replay(read_record(sample))
    play.push(advice["move"])  # a whole turn, accepted as one record entry
    assert len(advice["move"].split("; ")) <= 3


def test_hint_on_a_finished_game_is_exit_1_and_bad_seconds_exit_2(cli):
    finished = cli("hint", SAMPLES / "odd" / "odd-5-finished-01.toml")
    assert finished.exit_code == 1 and "over" in finished.output
    assert cli("hint", SAMPLES / "odd" / "odd-in-progress.toml", "--seconds", "0.01").exit_code == 2
    assert cli("hint", SAMPLES / "odd" / "odd-in-progress.toml", "--seconds", "601").exit_code == 2


def test_hint_under_a_seed_and_iterations_is_the_same_every_time(cli):
    sample = SAMPLES / "hermit-square" / "hermit-square-in-progress.toml"
    runs = [json.loads(cli("hint", sample, "--iterations", "50", "--seed", "4", "--json").output)
            for _ in range(2)]
    assert runs[0]["move"] == runs[1]["move"] and runs[0]["line"] == runs[1]["line"]


# -- UGI -------------------------------------------------------------------------------------


class Wire:
    """A UGI session driven in-process: each command's answer lines."""

    def __init__(self):
        self.heard: list[str] = []
        self.session = Session(self.heard.append)

    def __call__(self, line: str) -> list[str]:
        start = len(self.heard)
        self.session.handle(line)
        self.session.settle()
        return self.heard[start:]

    def search(self):
        """The search of the last `go` (its tree, for the tests of a tree kept)."""
        return self.session._searched[0].search


def test_ugi_handshake_lists_the_game_and_its_options():
    answer = Wire()("ugi")
    assert answer[0].startswith("id name referee ") and answer[-1] == "ugiok"
    assert "option name game type string default odd" in answer
    assert any(line.startswith("option name size type string default") for line in answer)
    assert Wire()("isready") == ["readyok"]


@pytest.mark.parametrize("game_id", ["odd", "dustin", "hermit", "harmijan", "crab",
                                     pytest.param("hermetica", marks=SLOW_TREE)])
def test_ugi_plays_a_legal_move_in_every_game(game_id):
    wire = Wire()
    assert wire(f"setoption name game value {game_id}") == []
    assert wire("position startpos") == []
    answer = wire("go nodes 4")
    best = answer[-1].split()
    assert best[0] == "bestmove", answer
    assert wire(f"position startpos moves {best[1]}") == [], (game_id, best)


def test_ugi_in_the_crab_game_answers_a_winnable_deal_with_the_solvers_winning_line():
    from referee.search.solver import solve

    wire = Wire()
    for line in ("setoption name game value crab", "setoption name seed value 3", "position startpos"):
        assert wire(line) == []
    answer = wire("go nodes 10")
    assert answer[0].startswith("info string solver: a win in ")
    found, _ = solve(wire.session.state, positions=4000)
    assert found.winnable and answer[-1] == "bestmove " + found.line[0].replace(" ", "_")
    assert wire(f"position startpos moves {answer[-1].split()[1]}") == []


def test_ugi_refuses_an_illegal_move_and_keeps_the_position():
    wire = Wire()
    wire("position startpos moves b_e5")
    answer = wire("position startpos moves b_e5 w_e5")
    assert answer and answer[0].startswith("info string error") and "occupied" in answer[0]
    assert wire("query p1turn") == ["response false"]  # still after b e5: seat 2 to move


def test_ugi_reads_compact_moves_where_they_are_unambiguous():
    wire = Wire()
    assert wire("position startpos moves be5 wd4") == []
    assert wire("query p1turn") == ["response true"]


def test_ugi_queries_a_finished_game():
    play = replay(read_record(SAMPLES / "odd" / "odd-5-finished-01.toml"))
    wire = Wire()
    wire("position startpos moves " + " ".join(e.replace(" ", "_") for e in play.entries))
    assert wire("query gameover") == ["response true"]
    assert wire("query result") == [f"response p{play.outcome().winners[0]}win"]


def test_ugi_options_are_checked_and_the_same_search_answers_the_same():
    wire = Wire()
    assert wire("setoption name size value 99")[0].startswith("info string error")
    assert wire("setoption name size value 4") == []
    first = wire("go nodes 30")[-1]
    wire("uginewgame")
    assert wire("go nodes 30")[-1] == first


def test_referee_engine_answers_a_piped_script():
    script = "ugi\nisready\nposition startpos moves b_e5\ngo nodes 20\nquery p1turn\nquit\n"
    done = subprocess.run([sys.executable, "-m", "referee", "engine"], input=script,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    lines = done.stdout.splitlines()
    assert "ugiok" in lines and "readyok" in lines
    # `query` is answered while the search thinks, so before or after its bestmove.
    assert any(line.startswith("bestmove w_") or line.startswith("bestmove b_") for line in lines)
    assert "response false" in lines
