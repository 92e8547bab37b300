"""Odd (Nick Bentley 2009) and Dustin (2007): place a stone of either colour; at the end the
number of groups of at least `min_group` stones, both colours counted, decides (R-OD1…R-OD3).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping, NamedTuple

from referee.errors import IllegalMoveError, NotationError
from referee.games.base import Game, Move, Option, Outcome, count
from referee.geometry.hexhex import HexHexGrid, hexhex_grid
from referee.picture import Picture, PieceKind

EMPTY, BLACK, WHITE = 0, 1, 2
COLOUR_LETTER = {BLACK: "b", WHITE: "w"}
KINDS = (PieceKind("b", "X", "black"), PieceKind("w", "O", "white"))
_MOVE = re.compile(r"\s*([bw])\s+(\S+)\s*", re.IGNORECASE)


@dataclass(frozen=True)
class Placement(Move):
    colour: int
    cell: int
    cell_name: str

    def __str__(self) -> str:
        return f"{COLOUR_LETTER[self.colour]} {self.cell_name}"


class OddState(NamedTuple):
    """A position, with its groups tracked as stones arrive (R-OD3 states the count every ply).

    Groups are a union-find forest over the cells: `parent[c]` leads towards the root of c's
    group (a root is its own parent), `size[root]` is the group's stone count, and `counted` is
    the number of groups with at least `min_group` stones. A placement only joins the stone to
    its neighbours' groups, so a ply costs a few steps instead of a recount of the board.
    Every ply makes new tuples, so states stay values that earlier plies can keep. (A named
    tuple rather than a frozen dataclass: it is made once a ply, and three times cheaper.)
    """

    grid: HexHexGrid
    min_group: int
    stones: tuple[int, ...]  # per cell: EMPTY, BLACK or WHITE
    placed: int
    parent: tuple[int, ...]  # per cell; meaningful only where a stone stands
    size: tuple[int, ...]  # per cell; meaningful only at a group's root
    counted: int

    @property
    def turn(self) -> int:
        return self.placed % 2 + 1

    @property
    def full(self) -> bool:
        return self.placed == len(self.grid)

    @property
    def counted_groups(self) -> int:
        """Groups of both colours with at least `min_group` stones (R-OD2)."""
        return self.counted

    def place(self, cell: int, colour: int) -> "OddState":
        """The position after a stone of `colour` on the empty `cell`."""
        stones, parent, size = list(self.stones), list(self.parent), list(self.size)
        least = self.min_group
        stones[cell], parent[cell], size[cell] = colour, cell, 1
        root, counted = cell, self.counted + (1 >= least)  # the new stone: a group of one
        for nb in self.grid.neighbours[cell]:
            if stones[nb] != colour:
                continue
            other = _find(parent, nb)
            if other == root:
                continue  # a second neighbour of a group already joined
            # The two groups stop counting on their own and the merged one counts once. The
            # smaller joins the larger (union by size), so the trees stay shallow.
            counted -= (size[root] >= least) + (size[other] >= least)
            if size[other] > size[root]:
                root, other = other, root
            parent[other] = root
            size[root] += size[other]
            counted += size[root] >= least
        return OddState(
            self.grid, least, tuple(stones), self.placed + 1, tuple(parent), tuple(size), counted
        )


def _find(parent: list[int], cell: int) -> int:
    """The root of `cell`'s group, halving the path on the way (on the caller's own copy)."""
    while parent[cell] != cell:
        parent[cell] = parent[parent[cell]]
        cell = parent[cell]
    return cell


class Odd(Game):
    id = "odd"
    name = "Odd"
    credit = "Nick Bentley 2009"
    rules = "dustin-and-odd.txt"
    options = (
        Option("size", 5, "cells along each side of the hex-hex board", 3, 12),
        Option("min_group", 5, "the smallest group that counts at the end", 2, 12),
    )
    notation = "<colour> <cell>, colour b or w: 'b e5', 'w a1'"

    def start(self, options: Mapping[str, Any], setup: Mapping[str, Any]) -> OddState:
        grid = hexhex_grid(options["size"])
        cells = len(grid)
        return OddState(grid, options["min_group"], (EMPTY,) * cells, 0, tuple(range(cells)), (0,) * cells, 0)

    def parse(self, state: OddState, text: str) -> Placement:
        match = _MOVE.fullmatch(text)
        if not match:
            raise NotationError(f"expected '<colour> <cell>' with colour b or w, e.g. 'b e5'")
        cell = state.grid.cell(match[2])
        if cell is None:
            raise NotationError(f"{match[2]!r} is not a cell of this board")
        colour = BLACK if match[1].lower() == "b" else WHITE
        return Placement(colour, cell, state.grid.name(cell))

    def apply(self, state: OddState, move: Move) -> OddState:
        if not isinstance(move, Placement):
            raise IllegalMoveError(f"{move} is not a move in {self.name}")
        if state.stones[move.cell] != EMPTY:
            raise IllegalMoveError(f"{move.cell_name} is occupied")
        return state.place(move.cell, move.colour)

    def legal_moves(self, state: OddState) -> list[Move]:
        empty = [c for c in state.grid if state.stones[c] == EMPTY]
        return [Placement(colour, c, state.grid.name(c)) for colour in (BLACK, WHITE) for c in empty]

    def to_move(self, state: OddState) -> int | None:
        return None if state.full else state.turn

    def outcome(self, state: OddState) -> Outcome | None:
        if not state.full:
            return None
        n = state.counted_groups
        winner = 1 if n % 2 else 2
        groups = count(n, "group", "groups")
        return Outcome((winner,), f"{groups} of {state.min_group} or more: {_parity(n)}")

    def score(self, state: OddState) -> dict[str, Any]:
        n = state.counted_groups
        return {"groups": n, "parity": _parity(n)}

    def status_lines(self, state: OddState) -> list[str]:
        n = state.counted_groups
        # R-OD3: the count and its parity after every ply, as players would announce it.
        leader = 1 if n % 2 else 2
        return [
            f"Groups of {state.min_group} or more: {n}, {_parity(n)} (seat {leader} would win)",
            f"Empty cells: {len(state.grid) - state.placed}",
        ]

    def final_status_lines(self, state: OddState) -> list[str]:
        # Over (a full board or a resignation): the count stands, the forecast goes.
        n = state.counted_groups
        return [f"Groups of {state.min_group} or more: {n}, {_parity(n)}",
                f"Empty cells: {len(state.grid) - state.placed}"]

    def picture(self, state: OddState, last: Move | None) -> Picture:
        pieces = {c: COLOUR_LETTER[v] for c, v in enumerate(state.stones) if v}
        marks = {last.cell} if isinstance(last, Placement) else set()
        return Picture(state.grid, KINDS, pieces, marks)

    def blank_picture(self, options: Mapping[str, Any], setup: Mapping[str, Any]) -> Picture:
        return Picture(hexhex_grid(options["size"]), KINDS)


class Dustin(Odd):
    """The same game as Odd under its earlier name (R-OD1)."""

    id = "dustin"
    name = "Dustin"
    credit = "Nick Bentley 2007"


def _parity(n: int) -> str:
    return "odd" if n % 2 else "even"
