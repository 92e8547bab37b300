"""Harmijan's moves as values, each with its notation both ways (SPEC §5 "harmijan"): seat 1's
setup, seat 2's choice of colour, then turns of a move and a placement (R-HJ1, R-HJ3, R-HJ4);
a pass is the common `Pass`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from referee.errors import NotationError
from referee.games.base import Move, Pass
from referee.games.harmijan.scoring import BLACK, COLOUR, WHITE
from referee.geometry.hexhex import HexHexGrid

_CELL = r"([a-z]\d{1,2})"
_SETUP = re.compile(
    rf"\s*setup\s+([bw])\s+{_CELL}\s+{_CELL}\s+([bw])\s+{_CELL}\s+{_CELL}\s*", re.IGNORECASE
)
_TURN = re.compile(rf"\s*{_CELL}\s*([-x])\s*{_CELL}\s+{_CELL}\s*", re.IGNORECASE)


@dataclass(frozen=True)
class Setup(Move):
    """Seat 1's opening ply: a black and a white pair of adjacent stones (R-HJ1)."""

    black: tuple[int, int]  # each pair in board order
    white: tuple[int, int]
    names: tuple[str, str, str, str]  # black pair, then white pair

    def __str__(self) -> str:
        b1, b2, w1, w2 = self.names
        return f"setup b {b1} {b2} w {w1} {w2}"


@dataclass(frozen=True)
class Choice(Move):
    """Seat 2's colour choice (R-HJ1)."""

    colour: int

    def __str__(self) -> str:
        return COLOUR[self.colour]


@dataclass(frozen=True)
class Turn(Move):
    """Move a stone from `start` to `end` (biting the enemy stone there when `bite`), then place
    a stone on `place` (R-HJ3, R-HJ4)."""

    start: int
    end: int
    place: int
    bite: bool
    names: tuple[str, str, str]

    @property
    def slide(self) -> str:
        """The move part alone, as error messages name it: 'c4-c6', 'c4xc7'."""
        return f"{self.names[0]}{'x' if self.bite else '-'}{self.names[1]}"

    def __str__(self) -> str:
        return f"{self.slide} {self.names[2]}"


def parse_move(grid: HexHexGrid, text: str) -> Move:
    """The move `text` writes, on `grid`; NotationError when it is no Harmijan move."""
    word = text.strip().lower()
    if word == "pass":
        return Pass()
    if word in ("black", "white"):
        return Choice(BLACK if word == "black" else WHITE)
    if word.startswith("setup"):
        match = _SETUP.fullmatch(word)
        if not match or match[1] == match[4]:
            raise NotationError(
                "expected 'setup b <cell> <cell> w <cell> <cell>', e.g. 'setup b e5 f5 w c3 c4'"
            )
        pairs = {}
        for letter, names in ((match[1], match.group(2, 3)), (match[4], match.group(5, 6))):
            pairs[letter] = tuple(sorted(_cell(grid, n) for n in names))
        black, white = pairs["b"], pairs["w"]
        return Setup(black, white, tuple(grid.name(c) for c in (*black, *white)))
    match = _TURN.fullmatch(word)
    if not match:
        raise NotationError(
            "expected '<from>-<to> <place>' or '<from>x<to> <place>' (e.g. 'c4-c6 f6', "
            "'c4xc7 e7'), 'setup b … w …', 'black', 'white' or 'pass'"
        )
    start, end, place = _cell(grid, match[1]), _cell(grid, match[3]), _cell(grid, match[4])
    names = grid.names
    return Turn(start, end, place, match[2] == "x", (names[start], names[end], names[place]))


def _cell(grid: HexHexGrid, name: str) -> int:
    cell = grid.cell(name)
    if cell is None:
        raise NotationError(f"{name!r} is not a cell of this board (a1 … {grid.names[-1]})")
    return cell


@cache
def all_setups(grid: HexHexGrid) -> tuple[Setup, ...]:
    """Every legal setup ply (R-HJ1): tens of thousands, so built once per board size."""
    names = grid.names
    pairs = [(a, b) for a in grid for b in grid.neighbours[a] if a < b]
    return tuple(
        Setup(black, white, (names[black[0]], names[black[1]], names[white[0]], names[white[1]]))
        for black in pairs
        for white in pairs
        if not set(black) & set(white)
    )
