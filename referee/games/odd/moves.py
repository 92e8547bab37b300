"""Odd's one move, a placement, and its notation: `<colour> <cell>` (SPEC §5)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from referee.errors import NotationError
from referee.games.base import Move
from referee.geometry.hexhex import HexHexGrid

EMPTY, BLACK, WHITE = 0, 1, 2
COLOUR_LETTER = {BLACK: "b", WHITE: "w"}
_MOVE = re.compile(r"\s*([bw])\s+(\S+)\s*", re.IGNORECASE)


@dataclass(frozen=True)
class Placement(Move):
    colour: int
    cell: int
    cell_name: str

    def __str__(self) -> str:
        return f"{COLOUR_LETTER[self.colour]} {self.cell_name}"


def parse_placement(grid: HexHexGrid, text: str) -> Placement:
    """`b e5`, `W D4`: a colour letter and a cell of the board; raises NotationError."""
    match = _MOVE.fullmatch(text)
    if not match:
        raise NotationError("expected '<colour> <cell>' with colour b or w, e.g. 'b e5'")
    cell = grid.cell(match[2])
    if cell is None:
        raise NotationError(f"{match[2]!r} is not a cell of this board")
    colour = BLACK if match[1].lower() == "b" else WHITE
    return Placement(colour, cell, grid.name(cell))
