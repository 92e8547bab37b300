"""Bounded search (SPEC §14): the search tree stops growing at its budget of nodes, or when the
process holds its memory bound, and the search goes on; the crab solver's memory and work are
bounded too, `new --winnable` gives up at once where no deal can be won, and `solve` says a
winning line in one form whatever the seats."""

from __future__ import annotations

import random
import time
from dataclasses import replace
from pathlib import Path

import pytest

from referee.engine.hint import hint
from referee.play.choices import data_files
from referee.search import mcts as search_module
from referee.search.mcts import NODE_BYTES, TREE_BYTES, Node, Search, node_budget
from referee.games import GAMES
from referee.games.crab import solver as crab_solver
from referee.games.crab.rules import TASKS
from referee.games.crab.solver import no_deal_wins
from referee.record.reading import read_record
from referee.play.replay import replay
from referee.play.reports import solve_lines

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
CRAB = GAMES["crab"]


def in_tree(node: Node) -> int:
    return 1 + sum(in_tree(child) for child in node.children)


def start(game_id: str, **given):
    game = GAMES[game_id]
    options = game.resolve_options(given)
    return game, game.start(options, game.new_setup(options, data_files(game, options), 1))


@pytest.mark.parametrize("game_id", ["odd", "dustin", "hermit", "harmijan"])
def test_the_tree_stops_at_its_node_budget_and_the_search_goes_on(game_id):
    game, state = start(game_id)
    search = Search(game, state, seed=1, max_nodes=40, playout_plies=12)
    found = search.run(iterations=300)
    assert search.nodes == in_tree(search.root) == 40
    # Every iteration still played out and backed up its result, through the full tree.
    assert search.iterations == search.root.visits == 300 == found.iterations
    assert sum(child.visits for child in search.root.children) == 300
    assert game.apply(state, game.parse(state, str(found.move))) is not None


def test_a_full_tree_is_searched_alike_under_a_seed():
    play = replay(read_record(SAMPLES / "hermit-square" / "hermit-square-in-progress.toml"))
    runs = [Search(play.game, play.state, seed=3, max_nodes=25, playout_plies=12).run(iterations=120)
            for _ in range(2)]
    assert replace(runs[0], seconds=0) == replace(runs[1], seconds=0)
    play.push(str(runs[0].move))


def test_the_tree_stops_growing_when_the_process_holds_its_memory_bound(monkeypatch):
    if search_module.resident_bytes() is None:
        pytest.skip("the system does not say how much memory a process holds")
    monkeypatch.setattr(search_module, "RESIDENT_BYTES", 0)  # as if the process held it all
    monkeypatch.setattr(search_module, "CHECK_EVERY", 16)
    game, state = start("odd")
    search = Search(game, state, seed=1, playout_plies=12)
    search.run(iterations=200)
    assert search.nodes == in_tree(search.root) == 16 and search.root.visits == 200


def test_every_game_has_its_node_size_measured_and_a_budget_that_fits():
    assert set(NODE_BYTES) == set(GAMES)  # a new game gets its nodes measured
    for game in GAMES.values():
        assert node_budget(game) * NODE_BYTES[game.id] <= TREE_BYTES
        assert node_budget(game) >= 5_000  # room for a long search before the tree is full


# -- the crab solver --------------------------------------------------------------------------


def dealt(seed: int, **given):
    options = CRAB.resolve_options({"seed": seed, **given})
    return CRAB.start(options, CRAB.new_setup(options, data_files(CRAB, options), seed))


def test_the_solver_forgetting_lost_positions_past_its_bound_answers_alike(monkeypatch):
    state = dealt(27)  # solo: won after some 1,500 positions, most proven lost on the way
    full = crab_solver.Search(state)
    line = full.run()
    monkeypatch.setattr(crab_solver, "LOST_BYTES", 50 * crab_solver.LOST_BYTES_PER_SEAT)
    bounded = crab_solver.Search(state)
    assert bounded.max_lost == 50
    assert bounded.run() == line is not None
    assert len(bounded.lost) <= 50 < len(full.lost)


def test_a_budget_of_positions_bounds_the_rounds_looked_at_too():
    state = dealt(2, players=4)
    search = crab_solver.Search(state, max_positions=10)
    began = time.monotonic()
    with pytest.raises(crab_solver.OutOfTime):
        search.run()
    assert time.monotonic() - began < 30
    assert search.searched <= 11 and search.work <= 10 * crab_solver.WORK_PER_POSITION + 1


def test_dunes_can_never_be_won_and_new_winnable_says_so_at_once(cli):
    began = time.monotonic()
    result = cli("new", "crab", "-o", "w.toml", "--winnable", "-O", "task=dunes")
    assert result.exit_code == 2 and "no deal can be won with these options (task dunes" in result.output
    assert time.monotonic() - began < 20  # it spent its whole minute of seeds
    assert not Path("w.toml").exists()


def test_only_dunes_is_given_up_before_any_deal_and_its_deals_are_lost():
    gives_up = set()
    for task in TASKS:
        for players in (1, 2, 4):
            for wave in (6, 8):
                if no_deal_wins(dealt(1, task=task, players=players, wave_start=wave)):
                    gives_up.add(task)
    assert gives_up == {"dunes"}
    rng = random.Random(5)
    for seed in rng.sample(range(10_000), 5):
        assert crab_solver.solve(dealt(seed, task="dunes")).winnable is False


def test_solve_says_a_winning_line_in_one_form_solo_and_cooperative():
    solo = solve_lines({"winnable": True, "line": ["13 -3,-2 90", "2 -1,0 0"], "rounds": 2,
                        "searched": 15, "seconds": 0.02})
    coop = solve_lines({"winnable": True, "line": ["1: 7 2,0 90 | 2: 3 0,1 0"] * 2, "rounds": 2,
                        "searched": 9, "seconds": 0.5})
    assert solo == ["Winnable in 2 rounds (15 positions searched in 0.02 s), round by round:",
                    "  1. 13 -3,-2 90", "  2. 2 -1,0 0"]
    assert coop[0] == "Winnable in 2 rounds (9 positions searched in 0.5 s), round by round:"
    assert coop[1:] == ["  1. 1: 7 2,0 90 | 2: 3 0,1 0", "  2. 1: 7 2,0 90 | 2: 3 0,1 0"]


def test_a_hint_thinks_for_what_reading_the_record_left_of_its_seconds():
    play = replay(read_record(SAMPLES / "hermit-square" / "hermit-square-in-progress.toml"))
    began = time.monotonic()
    advice = hint(play, seconds=2.0, began=began - 1.7)  # as if reading it had taken 1.7 s
    assert time.monotonic() - began < 1.5 and advice["seconds"] < 1.0
    assert hint(play, seconds=0.3)["seconds"] >= 0.3  # a record read at once: the whole time


def _tables(node: Node) -> int:
    return (node.amaf is not None) + sum(_tables(child) for child in node.children)


def test_grave_keeps_no_more_tables_than_its_budget_and_a_kept_tree_frees_the_others(monkeypatch):
    # GRAVE's tables take memory besides the nodes' (SPEC §14): at most TABLE_BYTES of them;
    # past it the search goes on reading the tables it has.
    game, state = start("odd")
    codes = game.action_codes(state)
    monkeypatch.setattr(search_module, "TABLE_BYTES", 5 * codes * search_module.grave.BYTES_PER_CODE)
    search = Search(game, state, seed=1)
    search.run(iterations=3000)
    assert _tables(search.root) == 5 and search.tables.left == 0 and search.root.visits == 3000
    # Carried on to a child: the tables left behind are the budget's again.
    child = max(search.root.children, key=lambda c: c.visits)
    after = game.apply(state, child.action)
    assert search.advance([child.action], after)
    assert search.tables.left == 5 - _tables(search.root)
