"""A Hermit position: whose stones stand where, what each seat has left, and the one check of a
drop (R-HE1…R-HE4)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from referee.games.base import CanAct
from referee.geometry.grid import Grid

ALLOWED_SIZES = (1, 3, 5)  # R-HE3


@dataclass(frozen=True)
class HermitState:
    grid: Grid
    centre: int | None  # the cell the first stone may not take (R-HE2)
    stones: tuple[int, ...]  # per cell: 0 empty, else the seat owning the stone
    left: tuple[int, int]  # stones in hand, seats 1 and 2
    turn: int = 1  # whose turn it is by alternation, before any pass
    last_placer: int | None = None

    @cached_property
    def _groups(self) -> tuple[list[int], list[list[int]]]:
        """Each cell's group id (−1 when empty) and each group's cells, once per position."""
        return self.grid.component_labels(self.stones)

    def size_after(self, seat: int, cell: int) -> int:
        """The size of the seat's group holding a stone dropped on `cell` (R-HE3), counted from
        the cell: groups have at most 5 stones, so this is cheaper than labelling the board."""
        stones, neighbours = self.stones, self.grid.neighbours
        seen, todo = {cell}, [cell]
        while todo:
            for nb in neighbours[todo.pop()]:
                if stones[nb] == seat and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        return len(seen)

    def broken_rule(self, seat: int, cell: int) -> str | None:
        """The rule a drop of `seat` on `cell` breaks ("occupied", "no stones", "centre" or
        "size"), or None when it may drop: the one check of a drop. The search asks it as it is
        (a replay asks it of every empty cell at a pass); `why_not` puts it into words."""
        if self.stones[cell]:
            return "occupied"
        if self.left[seat - 1] == 0:
            return "no stones"  # R-HE1
        if self.last_placer is None and cell == self.centre:
            return "centre"  # R-HE2
        if self.size_after(seat, cell) not in ALLOWED_SIZES:
            return "size"  # R-HE3
        return None

    def why_not(self, seat: int, cell: int) -> str | None:
        """Why `seat` may not drop on `cell`, or None when it may."""
        broken = self.broken_rule(seat, cell)
        if broken is None:
            return None
        name = self.grid.name(cell)
        if broken == "occupied":
            return f"{name} is occupied"
        if broken == "no stones":
            return f"seat {seat} has no stones left (R-HE1)"
        if broken == "centre":
            return f"the first stone may not go on the centre {name} (R-HE2)"
        size = self.size_after(seat, cell)  # the rule left: the size of the group (R-HE3)
        return f"{name} would make a group of {size} (R-HE3: groups have 1, 3 or 5 stones)"

    def legal_cells(self, seat: int) -> list[int]:
        return [c for c in self.grid if self.broken_rule(seat, c) is None]

    @cached_property
    def can_place(self) -> CanAct:
        """Seat → whether it can place anywhere (R-HE1…R-HE4)."""
        return CanAct(lambda seat: any(self.broken_rule(seat, cell) is None for cell in self.grid))

    def group_counts(self, seat: int) -> dict[str, int]:
        mine = [len(cells) for cells in self._groups[1] if self.stones[cells[0]] == seat]
        return {
            "groups": len(mine),
            "hermits": mine.count(1),
            "threes": mine.count(3),
            "fives": mine.count(5),
        }
