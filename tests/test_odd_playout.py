"""Odd's fast random playout (games/odd/playout.py) against the referee's own rules: the same
groups counted on a full board, the same distribution of ends as random legal play through the
hooks (R-OD2), the same playouts from the same seed."""

from __future__ import annotations

import random

import pytest

from playout_support import (
    CHANCE, exact_value, mean_return, random_position, tolerance_one, tolerance_two,
)
from referee.games import GAMES
from referee.games.base import Game
from referee.games.odd.moves import BLACK, WHITE
from referee.games.odd.playout import counted_groups, finish_at_random, some_plies_at_random
from referee.games.odd.position import OddState
from referee.geometry import hexhex_grid
from referee.geometry.bitboard import bit_layout

ODD = GAMES["odd"]


def position(size: int, min_group: int, plies: int, seed: int) -> OddState:
    start = ODD.start(ODD.resolve_options({"size": size, "min_group": min_group}), {})
    return random_position(ODD, start, plies, random.Random(seed))


@pytest.mark.parametrize("size", range(3, 13))
def test_the_groups_counted_on_a_full_board_are_those_the_referee_counts_placing_its_stones(size):
    # R-OD2: groups of both colours of at least min_group stones. The referee places the same
    # stones one by one, in a random order, keeping its groups as they arrive (OddState.place).
    grid, rng = hexhex_grid(size), random.Random(size)
    layout = bit_layout(grid)
    trials = 220 if size <= 7 else 66  # every min_group 2–12 alike; 1,650 boards in all
    for trial in range(trials):
        least = 2 + trial % 11
        share = rng.random()  # from nearly all white to nearly all black
        colours = [BLACK if rng.random() < share else WHITE for _ in grid]
        state = OddState.empty(grid, least)
        for cell in rng.sample(range(len(grid)), len(grid)):
            state = state.place(cell, colours[cell])
        black = layout.of(c for c in grid if colours[c] == BLACK)
        white = layout.of(c for c in grid if colours[c] == WHITE)
        fast = counted_groups(black, layout.width, least) + counted_groups(white, layout.width, least)
        assert fast == state.counted, (size, least, trial)


def test_a_group_of_one_counts_when_the_least_is_one():
    # counted_groups clears lone stones first only where they are too small to count.
    layout = bit_layout(hexhex_grid(3))
    grid = hexhex_grid(3)
    stones = layout.of(grid.cell(name) for name in ("a1", "c1", "c3", "d3"))
    assert counted_groups(stones, layout.width, 1) == 3
    assert counted_groups(stones, layout.width, 2) == 1
    assert counted_groups(stones, layout.width, 3) == 0


def test_a_random_finish_keeps_the_stones_placed_and_colours_every_empty_cell_by_a_fair_coin():
    state = position(5, 5, 30, seed=11)
    layout = bit_layout(state.grid)
    placed = {c: v for c, v in enumerate(state.stones) if v}
    empty = [c for c in state.grid if not state.stones[c]]
    rng, n = random.Random(3), 4000
    black_count = dict.fromkeys(empty, 0)
    for _ in range(n):
        black, white = finish_at_random(state, rng)
        assert black & white == 0 and black | white == layout.cells
        assert all((black if v == BLACK else white) & layout.bits[c] for c, v in placed.items())
        for c in empty:
            black_count[c] += bool(black & layout.bits[c])
    # Each empty cell black in half the finishes, within what chance allows for 31 cells.
    allowed = tolerance_one(n, CHANCE / len(empty))
    assert all(abs(k / n - 0.5) <= allowed for k in black_count.values()), black_count


EXACT = [(3, 2, 12, 1), (3, 3, 11, 5), (3, 4, 12, 7)]  # size, min_group, plies, seed


def test_the_fast_playouts_win_as_often_as_random_play_through_the_hooks_exactly_would():
    # The exact value sums the whole tree of random legal moves (colour × empty cell, each alike)
    # through Odd.apply: what any number of the slow default's playouts tends to.
    n = 20_000
    allowed = tolerance_one(n, CHANCE / len(EXACT))
    for size, min_group, plies, seed in EXACT:
        state = position(size, min_group, plies, seed)
        exact = exact_value(ODD, state, key=lambda s: s.stones)
        fast = mean_return(ODD.playout, state, n, seed=2)
        assert abs(fast - exact) <= allowed, (size, min_group, plies, fast, exact, allowed)


SAMPLED = [(3, 2, 8, 1), (4, 3, 20, 2), (5, 5, 50, 3)]  # size, min_group, plies, seed


def test_the_fast_playouts_win_as_often_as_the_hooks_default_playouts_from_the_same_positions():
    fast_n, slow_n = 10_000, 1000
    allowed = tolerance_two(fast_n, slow_n, CHANCE / len(SAMPLED))
    for size, min_group, plies, seed in SAMPLED:
        state = position(size, min_group, plies, seed)
        fast = mean_return(ODD.playout, state, fast_n, seed=4)
        slow = mean_return(lambda s, rng: Game.playout(ODD, s, rng), state, slow_n, seed=5)
        assert abs(fast - slow) <= allowed, (size, min_group, plies, fast, slow, allowed)


@pytest.mark.parametrize("game_id", ["odd", "dustin"])
def test_the_same_seed_gives_the_same_playouts(game_id):
    game = GAMES[game_id]
    state = random_position(game, game.start(game.resolve_options({}), {}), 20, random.Random(8))
    runs = []
    for seed in (1, 1, 2):
        rng = random.Random(seed)
        runs.append([game.playout(state, rng) for _ in range(300)])
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]
    # The playout draws from the generator it is given, never from the module's own.
    random.seed(9)
    before = random.getstate()
    game.playout(state, random.Random(1))
    assert random.getstate() == before


def test_a_playout_from_a_full_board_is_the_games_returns():
    for seed in range(20):
        state = position(4, 3, 200, seed)
        assert ODD.outcome(state) is not None
        assert ODD.playout(state, random.Random(seed)) == ODD.returns(state)


def test_a_playout_cut_short_by_its_limit_is_evaluated():
    # Fewer plies allowed than empty cells: the board is not full at the limit, so the value
    # is the game's guess (even), as the hooks' default playout gives it.
    state = position(5, 5, 10, seed=1)
    assert ODD.playout(state, random.Random(1), limit=50) == ODD.evaluate(state) == (0.5, 0.5)
    assert ODD.playout(state, random.Random(1), limit=51) in ((1.0, 0.0), (0.0, 1.0))


def test_some_random_plies_fill_that_many_cells_each_as_likely_and_either_colour():
    # The position after k uniformly random plies: k of the empty cells, any k alike, each
    # black or white by a fair coin, the stones already placed kept.
    state = position(4, 3, 17, seed=6)
    empty = [c for c in state.grid if not state.stones[c]]
    rng, n, k = random.Random(12), 4000, 7
    filled, black = dict.fromkeys(empty, 0), dict.fromkeys(empty, 0)
    for _ in range(n):
        after = some_plies_at_random(state, rng, k)
        assert after.placed == state.placed + k
        assert all(after.stones[c] == v for c, v in enumerate(state.stones) if v)
        for c in empty:
            filled[c] += after.stones[c] != 0
            black[c] += after.stones[c] == BLACK
    allowed = tolerance_one(n, CHANCE / (2 * len(empty)))
    assert all(abs(filled[c] / n - k / len(empty)) <= allowed for c in empty), filled
    # Given filled, black half the time: black / n is k / (2 · empty) on average.
    assert all(abs(black[c] / n - k / len(empty) / 2) <= allowed for c in empty), black


# -- the actions a playout reports (AMAF: referee/search/grave.py) ------------------------------


@pytest.mark.parametrize("game_id", ["odd", "dustin"])
def test_a_playout_reports_as_its_actions_exactly_the_final_colouring_of_the_empty_cells(game_id):
    # Random play in Odd is a fair coin per empty cell, whoever places and in whatever order
    # (R-OD1, R-OD2): the playout's placements are the final colouring of the cells that were
    # empty, each coded as the game codes the placement "<colour> <cell>" for either seat.
    game = GAMES[game_id]
    for seed in range(12):
        state = random_position(game, game.start(game.resolve_options({"size": 4 + seed % 3}), {}),
                                seed * 3, random.Random(seed))
        codes: list[int] = []
        got = game.playout(state, random.Random(seed), codes=codes)
        assert got == game.playout(state, random.Random(seed))  # asking changes nothing else
        black, white = finish_at_random(state, random.Random(seed))
        layout = bit_layout(state.grid)
        empty = [c for c in state.grid if not state.stones[c]]
        turn = game.begin_turn(state)
        expected = [game.action_code(turn, game.parse(state, f"{'b' if black & layout.bits[c] else 'w'} "
                                                             f"{state.grid.name(c)}")) for c in empty]
        assert sorted(codes) == sorted(expected) and len(set(codes)) == len(empty)
        # Those placements, made through the referee's rules in any order, end as the playout said.
        ended = state
        for code in reversed(codes):
            colour, cell = (BLACK, code) if code < len(state.grid) else (WHITE, code - len(state.grid))
            ended = ended.place(cell, colour)
        assert game.returns(ended) == got
