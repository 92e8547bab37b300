"""A board as the bits of one integer (geometry/bitboard.py): the shifts reach exactly the
neighbours of SPEC §2, on every hex-hex and square board the games use."""

from __future__ import annotations

import random

import pytest

from referee.geometry import hexhex_grid, square_grid
from referee.geometry.bitboard import BitLayout, bit_layout
from referee.geometry.columns import ColumnHexGrid

BOARDS = [hexhex_grid(n) for n in range(3, 13)] + [square_grid(n) for n in range(2, 27)]


@pytest.mark.parametrize("grid", BOARDS, ids=lambda g: f"{g.shape}-{len(g)}")
def test_the_shifts_of_a_cell_are_its_neighbours_on_the_board(grid):
    # SPEC §2: hex-hex (q±1, r), (q, r±1), (q+1, r+1), (q−1, r−1); square: orthogonal.
    layout = bit_layout(grid)
    for cell in grid:
        assert layout.members(layout.neighbours(layout.bits[cell])) == sorted(grid.neighbours[cell])
    assert layout.members(layout.cells) == list(grid)
    assert layout.cells.bit_length() <= layout.length


@pytest.mark.parametrize("grid", [hexhex_grid(5), hexhex_grid(12), square_grid(7)],
                         ids=lambda g: f"{g.shape}-{len(g)}")
def test_the_neighbours_of_a_set_are_the_union_of_its_cells_neighbours(grid):
    layout, rng = bit_layout(grid), random.Random(5)
    for _ in range(200):
        chosen = rng.sample(range(len(grid)), rng.randint(0, len(grid)))
        expected = sorted({nb for c in chosen for nb in grid.neighbours[c]})
        assert layout.members(layout.neighbours(layout.of(chosen))) == expected
        assert layout.members(layout.of(chosen)) == sorted(chosen)


def test_a_step_off_the_edge_lands_on_no_cell():
    # The corners a1 and e5 of hex side 3 have three neighbours each, the square's corner two:
    # no shift wraps round to the other side of the board.
    def around(grid, name):
        layout = bit_layout(grid)
        return [grid.name(c) for c in layout.members(layout.neighbours(layout.bits[grid.cell(name)]))]

    assert around(hexhex_grid(3), "a1") == ["a2", "b1", "b2"]
    assert around(hexhex_grid(3), "e5") == ["d4", "d5", "e4"]
    assert around(square_grid(5), "e1") == ["d1", "e2"]


def test_a_board_whose_steps_are_not_its_cells_steps_is_refused():
    # Hermetica's columns step in doubled coordinates: shifts cannot stand for its neighbours.
    with pytest.raises(ValueError, match="neighbours"):
        BitLayout(ColumnHexGrid.centred([4, 5, 6, 7, 6, 5, 4]))
