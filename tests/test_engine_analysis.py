"""The engine's second round as a player and a program meet it (SPEC §11): `hint --lines K`
with the moves tried most and what is proven ("wins by force: …"), UGI's thinking lines
(`info nodes … nps … time … score wdl W D L pv …` every half second and right before
`bestmove`), MultiPV, the Algorithm option, the tree kept when a `position` extends the last
one, and the whole of a `movetime` used."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path

import pytest

from referee.games import GAMES
from test_engine import Wire
from test_engine_endgames import winning_moves
from test_ugi_hostile import Engine

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
INFO = re.compile(r"^info (?:multipv (\d+) )?nodes (\d+) nps (\d+) time (\d+) score wdl (\d+) (\d+) (\d+) pv (.+)$")
SLACK = 0.25  # a loaded machine's lateness, on top of SPEC's bounds


# -- hint --lines and proven results ---------------------------------------------------------


def test_hint_lines_gives_the_moves_tried_most_the_first_the_hints_own(cli):
    sample = SAMPLES / "odd" / "odd-in-progress.toml"
    advice = json.loads(cli("hint", sample, "--iterations", "400", "--lines", "3", "--json").output)
    assert advice["proven"] is False and len(advice["lines"]) == 3
    first = advice["lines"][0]
    assert {k: first[k] for k in ("move", "value", "visits", "line", "proven")} == \
        {k: advice[k] for k in ("move", "value", "visits", "line", "proven")}
    visits = [line["visits"] for line in advice["lines"]]
    assert visits == sorted(visits, reverse=True) and len({line["move"] for line in advice["lines"]}) == 3
    for line in advice["lines"]:
        assert line["line"][0] == line["move"] and 0 <= line["value"] <= 1
    words = cli("hint", sample, "--iterations", "400", "--lines", "3").output.splitlines()
    assert "Other moves tried:" in words
    assert [w.split(". ")[0].strip() for w in words if re.match(r"^  [23]\. ", w)] == ["2", "3"]
    for bad in ("0", "11"):
        result = cli("hint", sample, "--lines", bad, "--iterations", "10")
        assert result.exit_code == 2 and "--lines must be 1–10" in result.output


def _endgame_record(tmp_path: Path) -> tuple[Path, list[str]]:
    """An Odd record six plies from its end, where the seat to move has a winning move (one or
    two of its twelve), found by random play under a fixed seed and a brute force."""
    game = GAMES["odd"]
    for seed in range(200):
        rng, state, moves = random.Random(seed), game.start({"size": 5, "min_group": 5}, {}), []
        while game.outcome(state) is None:
            move = game.random_move(state, rng)
            moves.append(str(move))
            state = game.apply(state, move)
        state = game.start({"size": 5, "min_group": 5}, {})
        for text in moves[:-6]:
            state = game.apply(state, game.parse(state, text))
        wins, count = winning_moves(game, state)
        if wins and len(wins) * 4 <= count:
            record = tmp_path / "endgame.toml"
            record.write_text('format = 1\ngame = "odd"\nmoves = [' + ", ".join(f'"{m}"' for m in moves[:-6]) + "]\n")
            return record, wins
    raise AssertionError("no endgame found")


def test_hint_says_a_win_by_force_with_its_forcing_line(tmp_path, cli):
    record, wins = _endgame_record(tmp_path)
    advice = json.loads(cli("hint", record, "--iterations", "20000", "--json").output)
    assert advice["move"] in wins and advice["proven"] is True and advice["value"] == 1.0
    assert advice["lines"][0]["proven"] is True
    assert len(advice["line"]) == 6  # to the end of the game: the forcing line
    words = cli("hint", record, "--iterations", "20000").output
    assert " — wins by force: " + ", ".join(advice["line"]) in " ".join(words.split())
    assert cli("move", record, advice["move"]).exit_code == 0


# -- UGI: thinking lines, MultiPV, Algorithm ----------------------------------------------------


def _info(line: str) -> re.Match:
    match = INFO.match(line)
    assert match, line
    w, d, l = (int(match.group(i)) for i in (5, 6, 7))
    assert w + d + l == 1000
    return match


def test_go_says_its_thinking_every_half_second_and_right_before_bestmove_using_the_time():
    engine = Engine()
    engine.send("position startpos moves b_e5", "isready")
    engine.until("readyok")  # started: the time counts from when the engine reads `go`
    began = engine.send("go movetime 1600")
    said = engine.until("bestmove", wait=10)
    took = time.monotonic() - began
    assert 1.6 - 0.1 <= took <= 1.6 + 0.1 + SLACK  # the time is used, within MS + 100 ms
    infos = [_info(line) for line in said[:-1]]
    assert len(infos) >= 3  # at 0.45, 0.9, 1.35 s and right before bestmove
    times = [0] + [int(m.group(4)) for m in infos]
    assert all(later - earlier <= 500 + SLACK * 1000 for earlier, later in zip(times, times[1:]))
    assert infos[-1].group(8).split()[0] == said[-1].split()[1]  # its pv begins with the move
    nodes = [int(m.group(2)) for m in infos]
    assert nodes == sorted(nodes) and nodes[-1] > 0 and int(infos[-1].group(3)) > 0
    engine.quit()


def test_multipv_gives_as_many_lines_each_numbered_the_first_the_bestmove():
    engine = Engine()
    assert engine.ask("setoption name MultiPV value 3") == []
    engine.send("go nodes 600")
    said = engine.until("bestmove", wait=30)
    last = [_info(line) for line in said[-4:-1]]
    assert [m.group(1) for m in last] == ["1", "2", "3"]
    assert last[0].group(8).split()[0] == said[-1].split()[1]
    assert len({m.group(8).split()[0] for m in last}) == 3
    for bad in ("0", "11", "x", "٣"):
        answer = engine.ask(f"setoption name MultiPV value {bad}")
        assert len(answer) == 1 and answer[0].startswith("info string error"), (bad, answer)
    engine.quit()


def test_a_position_that_extends_the_last_keeps_the_tree_and_another_does_not():
    wire = Wire()
    assert wire("position startpos moves b_e5") == []
    said = wire("go nodes 3000")
    pv = _info(said[-2]).group(8).split()
    first = wire.search()
    # The move played and the reply the engine expected: the tree below them is kept.
    assert wire(f"position startpos moves b_e5 {pv[0]} {pv[1]}") == []
    wire("go nodes 200")
    assert wire.search() is first and first.root.visits > 200 and first.iterations == 200
    # A position that does not extend it (another first move): a new tree.
    wire("position startpos moves b_a1")
    wire("go nodes 200")
    assert wire.search() is not first and wire.search().root.visits == 200
    # A new game: a new tree, whatever the position.
    kept = wire.search()
    wire("uginewgame")
    wire("position startpos moves b_a1")
    wire("go nodes 50")
    assert wire.search() is not kept


def test_algorithm_uct_is_the_search_as_it_was_and_keeps_no_tree():
    wire = Wire()
    assert wire("setoption name Algorithm value uct") == []
    wire("position startpos moves b_e5")
    said = wire("go nodes 400")
    assert said[-1].startswith("bestmove ")
    search = wire.search()
    assert search.tables is None and not search.solver
    pv = _info(said[-2]).group(8).split()
    wire(f"position startpos moves b_e5 {pv[0]}")
    wire("go nodes 100")
    assert wire.search() is not search and wire.search().root.visits == 100
    answer = wire("setoption name Algorithm value alphabeta")
    assert answer and answer[0].startswith("info string error") and "grave, uct" in answer[0]
    assert wire("setoption name Algorithm value grave") == []
    wire("go nodes 100")
    assert wire.search().tables is not None and wire.search().solver


@pytest.mark.parametrize("game_id", ["hermit", "harmijan"])
def test_the_kept_tree_follows_passes_and_games_of_other_moves(game_id):
    # A game whose record writes a pass where a seat cannot act (R-G3): the tree, which never
    # holds one, goes on to the seat that can; the moves sent are played as written.
    wire = Wire()
    wire(f"setoption name game value {game_id}")
    moves: list[str] = []
    game = wire.session.game
    state = wire.session.start_state
    rng = random.Random(4)
    for _ in range(6):
        if game.outcome(state) is not None:
            break
        wire("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        best = wire("go nodes 150")[-1].split()[1]
        for text in (best, str(game.random_move(game.apply(state, game.parse(state, best.replace("_", " "))), rng)).replace(" ", "_")):
            move = game.parse(state, text.replace("_", " "))
            state = game.apply(state, move)
            moves.append(text)
            if game.outcome(state) is not None:
                break
    assert wire("query gameover") in (["response false"], ["response true"])
