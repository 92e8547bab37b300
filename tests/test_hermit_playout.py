"""Hermit's fast random playout (games/hermit/playout.py) against the referee's own rules: at
every drop the same legal cells and the same seat to move as HermitState and Hermit.to_move
(R-HE1…R-HE4, R-G3), the same end and returns when its drops are replayed through Hermit.apply
(R-HE5), the same distribution of ends as random legal play through the hooks, the same
playouts from the same seed."""

from __future__ import annotations

import random

import pytest

from playout_support import (
    CHANCE, exact_value, mean_return, random_position, tolerance_one, tolerance_two,
)
from referee.games import GAMES
from referee.games.base import Game
from referee.games.hermit.moves import Drop
from referee.games.hermit.playout import play_out
from referee.games.hermit.position import HermitState

HERMIT = GAMES["hermit"]
BOARDS = [("square", size) for size in range(5, 10)] + [("hex", size) for size in range(3, 8)]


def start(board: str, size: int, stones: int = 30) -> HermitState:
    return HERMIT.start(HERMIT.resolve_options({"board": board, "size": size, "stones": stones}), {})


def key(state: HermitState):
    return state.stones, state.left, state.turn, state.last_placer


def traced_play_out(state: HermitState, rng: random.Random, limit: int = 1000):
    """The fast playout, checked at every drop against the referee's position reached by the
    drops so far: the seat to move and both seats' legal cells. Returns what the playout
    returned, its drops in order, and the referee's position after them."""
    drops: list[int] = []
    referee = [state]

    def watch(seat, cell, legal_cells):
        here = referee[0]
        assert seat == HERMIT.to_move(here)
        for side in (1, 2):
            assert legal_cells(side) == here.legal_cells(side), (side, here.grid.name(cell))
        drops.append(cell)
        referee[0] = HERMIT.apply(here, Drop(cell, here.grid.name(cell)))

    ended = play_out(state, rng, limit, watch)
    return ended, drops, referee[0]


@pytest.mark.parametrize("board,size", BOARDS)
def test_every_drop_of_a_playout_is_legal_by_the_referees_rules_and_replays_to_the_same_end(board, size):
    # From the start and from random positions along the way, with few stones too, so that
    # seats run out (R-HE1) and pass (R-G3): 1,000 playouts in all.
    rng = random.Random(size * 31 + len(board))
    for trial in range(100):
        stones = (1, 2, 3, 4, 5, 30)[trial % 6]
        state = random_position(HERMIT, start(board, size, stones), rng.randrange(0, 25), rng)
        ended, drops, reached = traced_play_out(state, rng)
        assert HERMIT.outcome(reached) is not None
        assert ended == HERMIT.returns(reached)
        replayed = state
        for cell in drops:  # the drops alone, passes implied, through Game.apply
            replayed = HERMIT.apply(replayed, Drop(cell, state.grid.name(cell)))
        assert key(replayed) == key(reached) and HERMIT.returns(replayed) == ended


def test_the_first_stone_of_a_playout_never_takes_the_centre():
    # R-HE2, on the boards that have a centre; the even square board has none.
    for board, size in (("square", 5), ("hex", 3), ("square", 6)):
        state, rng = start(board, size), random.Random(size)
        firsts = set()
        for _ in range(400):
            after = play_out(state, rng, limit=1)
            firsts |= {c for c, seat in enumerate(after.stones) if seat}
        if state.centre is None:
            assert len(firsts) == len(state.grid)
        else:
            assert state.centre not in firsts and len(firsts) == len(state.grid) - 1


def test_a_playout_cut_short_by_its_limit_stops_where_the_referee_would_and_is_evaluated():
    state = start("square", 7)
    for limit in (0, 1, 10, 25):
        reached = play_out(state, random.Random(limit), limit)
        _, drops, replayed = traced_play_out(state, random.Random(limit), limit)
        assert isinstance(reached, HermitState) and len(drops) == limit
        assert key(reached) == key(replayed)
        assert HERMIT.playout(state, random.Random(limit), limit) == HERMIT.evaluate(reached)


def test_a_playout_from_a_finished_position_is_the_games_returns():
    rng = random.Random(4)
    for board, size in BOARDS:
        state = random_position(HERMIT, start(board, size, 5), 1000, rng)
        assert HERMIT.outcome(state) is not None
        assert HERMIT.playout(state, rng) == HERMIT.returns(state)


def late_position(board: str, size: int, stones: int, seed: int, left: int) -> HermitState:
    """A position `left` drops before the end of a seeded random game."""
    rng, states = random.Random(seed), [start(board, size, stones)]
    while HERMIT.outcome(states[-1]) is None:
        states.append(HERMIT.apply(states[-1], HERMIT.random_move(states[-1], rng)))
    return states[-1 - left]


EXACT = [("square", 5, 30, 1, 6), ("hex", 4, 5, 4, 3), ("square", 7, 30, 5, 8)]


def test_the_fast_playouts_win_as_often_as_random_play_through_the_hooks_exactly_would():
    # The exact value sums the whole tree of random legal drops through Hermit.legal_moves and
    # Hermit.apply: what any number of the slow default's playouts tends to.
    n = 10_000
    allowed = tolerance_one(n, CHANCE / len(EXACT))
    for board, size, stones, seed, left in EXACT:
        state = late_position(board, size, stones, seed, left)
        exact = exact_value(HERMIT, state, key)
        fast = mean_return(HERMIT.playout, state, n, seed=2)
        assert abs(fast - exact) <= allowed, (board, size, fast, exact, allowed)


SAMPLED = [("square", 5, 4, 8, 0), ("hex", 4, 30, 7, 15), ("square", 7, 30, 6, 25)]  # 0: the start


def test_the_fast_playouts_win_as_often_as_the_hooks_default_playouts_from_the_same_positions():
    fast_n, slow_n = 10_000, 800
    allowed = tolerance_two(fast_n, slow_n, CHANCE / len(SAMPLED))
    for board, size, stones, seed, plies in SAMPLED:
        state = random_position(HERMIT, start(board, size, stones), plies, random.Random(seed))
        fast = mean_return(HERMIT.playout, state, fast_n, seed=4)
        slow = mean_return(lambda s, rng: Game.playout(HERMIT, s, rng), state, slow_n, seed=5)
        assert abs(fast - slow) <= allowed, (board, size, plies, fast, slow, allowed)


def test_the_same_seed_gives_the_same_playouts():
    for board, size in (("square", 7), ("hex", 5)):
        state = random_position(HERMIT, start(board, size), 10, random.Random(8))
        runs = []
        for seed in (1, 1, 2):
            rng = random.Random(seed)
            runs.append([HERMIT.playout(state, rng) for _ in range(200)])
        assert runs[0] == runs[1]
        assert runs[0] != runs[2]
        drops = [traced_play_out(state, random.Random(seed))[1] for seed in (3, 3)]
        assert drops[0] == drops[1]
        random.seed(9)
        before = random.getstate()
        HERMIT.playout(state, random.Random(1))
        assert random.getstate() == before


# -- the actions a playout reports (AMAF: referee/search/grave.py) ------------------------------


@pytest.mark.parametrize("board,size", [("square", 7), ("hex", 5), ("square", 5)])
def test_a_playout_reports_each_drop_as_the_game_codes_it_for_its_seat(board, size):
    # A drop's code is its seat and its cell (Hermit.action_code): the codes a playout reports
    # are those of the drops it made, in order, each coded in the referee's position where it
    # was made; and asking for them changes nothing else.
    rng = random.Random(size)
    for trial in range(30):
        state = random_position(HERMIT, start(board, size, (3, 30)[trial % 2]), rng.randrange(0, 20), rng)
        seed = rng.randrange(10**6)
        drops: list[tuple[int, int]] = []
        codes: list[int] = []
        ended = play_out(state, random.Random(seed), 1000,
                         lambda seat, cell, _: drops.append((seat, cell)), codes)
        assert ended == play_out(state, random.Random(seed), 1000)
        assert ended == HERMIT.playout(state, random.Random(seed))
        position, expected = state, []
        for seat, cell in drops:
            drop = Drop(cell, state.grid.name(cell))
            assert HERMIT.to_move(position) == seat
            expected.append(HERMIT.action_code(HERMIT.begin_turn(position), drop))
            position = HERMIT.apply(position, drop)
        assert codes == expected
        again: list[int] = []
        HERMIT.playout(state, random.Random(seed), codes=again)
        assert again == codes
