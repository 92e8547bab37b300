"""An Odd position, with its groups counted as stones arrive (R-OD3 states the count after
every ply)."""

from __future__ import annotations

from typing import NamedTuple

from referee.games.odd.moves import EMPTY
from referee.geometry.hexhex import HexHexGrid


class OddState(NamedTuple):
    """A position, with its groups tracked as stones arrive.

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
    counted: int  # groups of both colours with at least `min_group` stones (R-OD2)

    @classmethod
    def empty(cls, grid: HexHexGrid, min_group: int) -> "OddState":
        cells = len(grid)
        return cls(grid, min_group, (EMPTY,) * cells, 0, tuple(range(cells)), (0,) * cells, 0)

    @property
    def turn(self) -> int:
        return self.placed % 2 + 1

    @property
    def full(self) -> bool:
        return self.placed == len(self.grid)

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
