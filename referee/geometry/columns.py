"""Boards of flat-top hexes laid out as columns, each numbered from its own bottom cell
(the Hermetica mat, SPEC §2 and RULINGS.md §Hermetica board).

A cell is named by its column letter and its number within the column (`d1`, `a9`). Where a
column starts is given in half-cell heights: column c's bottom cell is `offsets[c]` half cells
above the lowest point of the board. The standard mat's formula, y = √3·(k−1) + (√3/2)·|c−3|
for a circumradius of 1, is offsets |c − 3| with cells one unit apart here.

Cells are stored by (column, number − 1) like every Grid, so names and board order come from the
common code; the geometry itself works in "doubled" coordinates (column, half-height), where
the six neighbours of (q, h) are (q, h ± 2) and (q ± 1, h ± 1).
"""

from __future__ import annotations

import math

from referee.geometry.grid import LETTERS, Grid

SQRT3_2 = math.sqrt(3) / 2

# The six straight directions in doubled coordinates, opposite directions in adjacent pairs.
DIRECTIONS = ((0, 2), (0, -2), (1, 1), (-1, -1), (1, -1), (-1, 1))
DIRECTION_NAMES = ("up", "down", "up-right", "down-left", "down-right", "up-left")

# What lies past the last cell in a direction (RULINGS.md §Hermetica board).
BORDER = "border"  # left or right of the columns
OFF_BOARD = "off"  # beyond a column's bottom or top cell (past a Horizon on the standard mat)


MAX_COLUMN = 99  # cells in a column
MAX_OFFSET = 2 * MAX_COLUMN  # half cells a column may start above the lowest: past it, no neighbour


class ColumnHexGrid(Grid):
    """Columns of flat-top hexes: `lengths[c]` cells in column c, starting `offsets[c]` half
    cells up. Neighbours are cells whose centres are one cell apart."""

    directions = DIRECTIONS
    shape = "hex-flat"

    def __init__(self, lengths: list[int], offsets: list[int]):
        if not lengths or len(lengths) > len(LETTERS):
            raise ValueError(f"a board has 1–{len(LETTERS)} columns, not {len(lengths)}")
        if len(offsets) != len(lengths):
            raise ValueError("every column needs an offset")
        for q, (n, off) in enumerate(zip(lengths, offsets)):
            if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_COLUMN:
                raise ValueError(f"column {LETTERS[q]} must have 1–{MAX_COLUMN} cells, not {n!r}")
            # Bounded, so a board file cannot make a diagram of millions of pixels (SPEC §9).
            if not isinstance(off, int) or isinstance(off, bool) or not 0 <= off <= MAX_OFFSET:
                raise ValueError(f"column {LETTERS[q]}'s offset must be a whole number 0–{MAX_OFFSET}, not {off!r}")
        for q in range(1, len(lengths)):
            # Neighbouring columns interlock only when their cells sit half a cell apart.
            if (offsets[q] - offsets[q - 1]) % 2 == 0:
                raise ValueError(
                    f"columns {LETTERS[q - 1]} and {LETTERS[q]} must be offset by an odd number "
                    "of half cells, or their hexes would not fit together"
                )
        self.lengths = tuple(lengths)
        self.offsets = tuple(offsets)
        super().__init__([(q, r) for q, n in enumerate(lengths) for r in range(n)])
        self.doubled = tuple((q, 2 * r + self.offsets[q]) for q, r in self.coords)
        self._by_doubled = {qh: i for i, qh in enumerate(self.doubled)}
        self.neighbours = tuple(
            tuple(nb for nb in (self.step(c, d) for d in DIRECTIONS) if nb is not None)
            for c in self
        )

    @classmethod
    def centred(cls, lengths: list[int]) -> "ColumnHexGrid":
        """The standard layout: columns rise towards the middle column by half a cell each."""
        middle = len(lengths) // 2
        return cls(lengths, [abs(q - middle) for q in range(len(lengths))])

    # -- straight lines ----------------------------------------------------------------------

    def step(self, cell: int, direction: tuple[int, int]) -> int | None:
        q, h = self.doubled[cell]
        return self._by_doubled.get((q + direction[0], h + direction[1]))

    def beyond(self, cell: int, direction: tuple[int, int]) -> str | None:
        """What a step from `cell` meets when it leaves the board: BORDER past the left or right
        column, OFF_BOARD past a column's end; None when the step lands on a cell."""
        if self.step(cell, direction) is not None:
            return None
        q = self.doubled[cell][0] + direction[0]
        return BORDER if not 0 <= q < len(self.lengths) else OFF_BOARD

    def direction(self, a: int, b: int) -> tuple[int, int] | None:
        """The direction of the straight line from a to b, or None when they are not on one."""
        (qa, ha), (qb, hb) = self.doubled[a], self.doubled[b]
        dq, dh = qb - qa, hb - ha
        if a == b:
            return None
        if dq == 0:
            return (0, 2 if dh > 0 else -2) if dh % 2 == 0 else None
        if abs(dh) != abs(dq):
            return None
        return (1 if dq > 0 else -1, 1 if dh > 0 else -1)

    def distance_along(self, a: int, b: int) -> int | None:
        """How many steps b lies from a along a straight line, or None when not on one."""
        d = self.direction(a, b)
        if d is None:
            return None
        (qa, ha), (qb, hb) = self.doubled[a], self.doubled[b]
        return abs(qb - qa) if d[0] else abs(hb - ha) // 2

    def adjacent(self, a: int, b: int) -> bool:
        return b in self.neighbours[a]

    # -- drawing -----------------------------------------------------------------------------

    def centre(self, cell: int) -> tuple[float, float]:
        q, h = self.doubled[cell]
        return self.point_doubled(q, h)

    def point_doubled(self, q: float, h: float) -> tuple[float, float]:
        """Centres one unit apart: columns √3/2 apart across, half a unit per half cell up."""
        return (q * SQRT3_2, h / 2)

    def point(self, q: float, r: float) -> tuple[float, float]:
        qi = min(max(int(round(q)), 0), len(self.offsets) - 1)
        return self.point_doubled(q, 2 * r + self.offsets[qi])

    def corners(self, cell: int) -> list[tuple[float, float]]:
        # Flat-top: corners at 0°, 60°, …; circumradius 1/√3 makes neighbours one unit apart.
        x, y = self.centre(cell)
        return [
            (x + math.cos(math.radians(a)) / math.sqrt(3), y + math.sin(math.radians(a)) / math.sqrt(3))
            for a in range(0, 360, 60)
        ]

    def text_column(self, q: int, r: int) -> int:
        return 4 * q
