"""A board as the bits of one Python integer, for code that looks at many cells at once (a
random playout counting groups, say): a set of cells is an int, a cell's neighbours are shifts.

Cell (q, r) is bit r·W + q, with W one more than the widest column index: the spare column
q = W − 1 holds no cell, so a step that leaves the board sideways lands on it (or on a bit
below 0, which a right shift drops, or above the top row), never on another cell. A step
(dq, dr) is then the shift dr·W + dq for every cell alike, as long as |dq| ≤ 1, which holds
for the square and hex-hex boards' directions. A result is a cell set again once it is masked
with a set of cells (`cells`, or the stones it is looking for).
"""

from __future__ import annotations

from functools import cache

from referee.geometry.grid import Grid


class BitLayout:
    """Where each cell of `grid` sits in an integer, and how its neighbours are reached."""

    def __init__(self, grid: Grid):
        if any(abs(dq) > 1 for dq, _ in grid.directions):
            raise ValueError("a bit layout needs steps of at most one column")
        self.grid = grid
        self.width = width = max(q for q, _ in grid.coords) + 2  # one spare column
        self.positions: tuple[int, ...] = tuple(r * width + q for q, r in grid.coords)
        self.bits: tuple[int, ...] = tuple(1 << p for p in self.positions)
        self.cells = sum(self.bits)  # every cell of the board
        self.length = (max(r for _, r in grid.coords) + 1) * width  # bits in use, spare included
        # Opposite directions come in pairs (Grid.directions): one shift, left and right.
        shifts = [dr * width + dq for dq, dr in grid.directions]
        self.shifts: tuple[int, ...] = tuple(s for s in shifts if s > 0)
        if sorted(shifts) != sorted([*self.shifts, *(-s for s in self.shifts)]):
            raise ValueError("a bit layout needs the directions in opposite pairs")
        self._cell_at = {p: c for c, p in enumerate(self.positions)}
        # The shifts must meet exactly the grid's own neighbours (a board stepping in other
        # coordinates than its cells', as Hermetica's columns do, would not).
        for cell, bit in enumerate(self.bits):
            if self.members(self.neighbours(bit)) != sorted(grid.neighbours[cell]):
                raise ValueError(f"the shifts miss the neighbours of {grid.name(cell)}")

    def neighbours(self, cells: int) -> int:
        """The cells next to any of `cells` (a cell of `cells` too, when it touches another)."""
        out = 0
        for s in self.shifts:
            out |= cells << s | cells >> s
        return out & self.cells

    def of(self, cells) -> int:
        """The set of the given cell indices."""
        bits = self.bits
        return sum(bits[c] for c in cells)

    def members(self, cells: int) -> list[int]:
        """The cell indices of a set, in board order."""
        found = []
        cell_at = self._cell_at
        while cells:
            low = cells & -cells
            found.append(cell_at[low.bit_length() - 1])
            cells ^= low
        return sorted(found)


@cache
def bit_layout(grid: Grid) -> BitLayout:
    """The layout of a board, worked out once (grids are shared and never change)."""
    return BitLayout(grid)
