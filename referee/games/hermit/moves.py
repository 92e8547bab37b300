"""Hermit's moves and their notation: a drop is a cell, `e5`; `pass` (SPEC §5)."""

from __future__ import annotations

from dataclasses import dataclass

from referee.errors import NotationError
from referee.games.base import Move, Pass
from referee.geometry.grid import Grid


@dataclass(frozen=True)
class Drop(Move):
    cell: int
    cell_name: str

    def __str__(self) -> str:
        return self.cell_name


def parse_move(grid: Grid, text: str) -> Move:
    """A cell of the board, or `pass`; raises NotationError."""
    word = text.strip().lower()
    if word == "pass":
        return Pass()
    cell = grid.cell(word)
    if cell is None:
        raise NotationError(f"expected a cell of this board such as {grid.name(0)}, or 'pass'")
    return Drop(cell, grid.name(cell))
