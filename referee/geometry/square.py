"""Square boards: `a1` bottom-left, orthogonal neighbours only (SPEC §2)."""

from __future__ import annotations

from functools import cache

from referee.geometry.grid import Grid


class SquareGrid(Grid):
    directions = ((1, 0), (-1, 0), (0, 1), (0, -1))
    shape = "square"

    def __init__(self, size: int):
        if not 2 <= size <= 26:
            raise ValueError(f"square board size must be 2–26, not {size}")
        self.size = size
        super().__init__([(q, r) for q in range(size) for r in range(size)])

    @property
    def centre_cell(self) -> int | None:
        """The middle cell; a board of even size has none."""
        if self.size % 2 == 0:
            return None
        return self.index[(self.size // 2, self.size // 2)]

    def point(self, q: float, r: float) -> tuple[float, float]:
        return (float(q), float(r))

    def corners(self, cell: int) -> list[tuple[float, float]]:
        x, y = self.centre(cell)
        return [(x - 0.5, y - 0.5), (x + 0.5, y - 0.5), (x + 0.5, y + 0.5), (x - 0.5, y + 0.5)]

    def text_column(self, q: int, r: int) -> int:
        return 2 * q


@cache
def square_grid(size: int) -> SquareGrid:
    """The square board of `size`, built once and shared (as `hexhex_grid`)."""
    return SquareGrid(size)
