"""Hex-hex boards (SPEC §2): axial coordinates, pointy-top hexes, rows horizontal, row 1 at the bottom."""

from __future__ import annotations

import math
from functools import cache

from referee.geometry.grid import Grid

SQRT3_2 = math.sqrt(3) / 2


class HexHexGrid(Grid):
    """A hexagon of hexagons with `side` cells along each edge (3 ≤ side ≤ 12).

    Cell (q, r) exists when 0 ≤ q, r ≤ 2·side−2 and |q − r| ≤ side−1. The six directions come in
    opposite pairs, so `directions[2k]` and `directions[2k+1]` are one straight line.
    """

    directions = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1))
    shape = "hex-pointy"
    MIN_SIDE, MAX_SIDE = 3, 12

    def __init__(self, side: int):
        if not self.MIN_SIDE <= side <= self.MAX_SIDE:
            raise ValueError(f"hex-hex side must be {self.MIN_SIDE}–{self.MAX_SIDE}, not {side}")
        self.side = side
        span = 2 * side - 1
        super().__init__(
            [(q, r) for q in range(span) for r in range(span) if abs(q - r) <= side - 1]
        )

    @property
    def centre_cell(self) -> int:
        return self.index[(self.side - 1, self.side - 1)]

    def point(self, q: float, r: float) -> tuple[float, float]:
        return (q - r / 2, r * SQRT3_2)

    def corners(self, cell: int) -> list[tuple[float, float]]:
        # Pointy-top: a corner straight up, one every 60°; circumradius 1/√3 for width 1.
        x, y = self.centre(cell)
        return [
            (x + math.cos(math.radians(a)) / math.sqrt(3), y + math.sin(math.radians(a)) / math.sqrt(3))
            for a in range(90, 450, 60)
        ]

    def text_column(self, q: int, r: int) -> int:
        return 2 * q - r


@cache
def hexhex_grid(side: int) -> HexHexGrid:
    """The hex-hex board of `side`, built once and shared by every game and position: a board
    graph costs more to build than a whole game of Odd, and nothing ever changes one."""
    return HexHexGrid(side)
