"""Odd's fast random playout, by what uniform random play comes to (R-OD2).

Playing out at random, every legal move (colour × empty cell) is equally likely at each ply, so
each empty cell ends up black or white with probability ½, independently of the others and of
the order the cells filled in. The end of a random playout is therefore a coin toss for every
empty cell, done at once as the bits of one random number, and one count of the groups on the
full board (R-OD2): for each colour, a flood fill by shifts over the board held as an integer
(geometry/bitboard.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.games.odd.moves import BLACK, EMPTY, WHITE
from referee.games.odd.position import OddState
from referee.geometry.bitboard import BitLayout, bit_layout

if TYPE_CHECKING:
    import random  # the caller brings its own generator


def counted_groups(stones: int, width: int, least: int) -> int:
    """How many groups of at least `least` stones the set `stones` holds on a
    hex-hex board laid out `width` bits a row: its neighbours are the shifts by 1, width and
    width + 1 either way (BitLayout)."""
    up = width + 1
    if least > 1:
        # A stone with no neighbour of its colour is a group of one, too small to count: they
        # go first, all at once, which leaves fewer groups to fill.
        stones &= stones << 1 | stones >> 1 | stones << width | stones >> width | stones << up | stones >> up
    n = 0
    while stones:
        group = stones & -stones  # a stone, grown to its group one ring at a time
        while True:
            # The six neighbours as two rhombi: this cell with (+1, 0), (0, +1), (+1, +1),
            # and with their opposites.
            ahead, behind = group | group << 1, group | group >> 1
            grown = (ahead | ahead << width | behind | behind >> width) & stones
            if grown == group:
                break
            group = grown
        if group.bit_count() >= least:
            n += 1
        stones ^= group
    return n


def colour_sets(state: OddState, layout: BitLayout) -> tuple[int, int]:
    """The black stones and the white stones of `state`, as sets of `layout`."""
    black = white = 0
    for bit, colour in zip(layout.bits, state.stones):
        if colour == BLACK:
            black |= bit
        elif colour == WHITE:
            white |= bit
    return black, white


def finish_at_random(state: OddState, rng: random.Random) -> tuple[int, int]:
    """The full board a uniformly random playout from `state` ends on, as its black and its
    white stones: each empty cell black or white by one fair coin."""
    layout = bit_layout(state.grid)
    black, white = colour_sets(state, layout) if state.placed else (0, 0)
    empty = layout.cells ^ black ^ white
    coins = rng.getrandbits(layout.length) & empty
    return black | coins, white | (empty ^ coins)


def play_out(state: OddState, rng: random.Random, codes: list[int] | None = None) -> tuple[float, float]:
    """What a uniformly random playout from `state` is worth to each seat: 1 to seat 1 when the
    full board has an odd number of groups of at least `min_group`, else 1 to seat 2 (R-OD2).

    `codes`, where given, hears the playout's actions as `action_code` numbers them: the
    colour each empty cell ended with. Whatever order the cells filled in and whoever placed
    each stone, the final colouring is exactly the set of placements the playout made."""
    black, white = finish_at_random(state, rng)
    layout = bit_layout(state.grid)
    if codes is not None:
        cells, placed = len(layout.bits), state.stones
        for cell, bit in enumerate(layout.bits):
            if not placed[cell]:
                codes.append(cell if black & bit else cells + cell)
    width, least = layout.width, state.min_group
    n = counted_groups(black, width, least) + counted_groups(white, width, least)
    return (1.0, 0.0) if n % 2 else (0.0, 1.0)


def some_plies_at_random(state: OddState, rng: random.Random, plies: int) -> OddState:
    """The position after `plies` uniformly random moves from `state` (fewer than its empty
    cells): as many empty cells, chosen at random, each given a colour by a fair coin. The
    order they came in leaves no trace in the position."""
    empty = [c for c, colour in enumerate(state.stones) if colour == EMPTY]
    for cell in rng.sample(empty, plies):
        state = state.place(cell, BLACK if rng.getrandbits(1) else WHITE)
    return state
