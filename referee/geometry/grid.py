"""The common shape of a board graph: cells are small integers, names are for people."""

from __future__ import annotations

import re
from functools import cached_property
from typing import Iterator

LETTERS = "abcdefghijklmnopqrstuvwxyz"
_CELL_NAME = re.compile(r"([a-z])([0-9]{1,2})")


class Grid:
    """A board made of named cells addressed by (column, row) = (q, r).

    Cells are numbered 0…n−1 in board order: by column letter, then by row number, so sorting
    indices sorts names the way the notation lists them ("letter, then number").
    Subclasses pass the cells' coordinates and supply `directions` (the steps between
    neighbours, opposite directions adjacent in pairs), `point`, `corners` and `text_column`.
    """

    directions: tuple[tuple[int, int], ...] = ()
    shape: str = ""

    def __init__(self, coords: list[tuple[int, int]]):
        self.coords: tuple[tuple[int, int], ...] = tuple(sorted(coords))
        self.index: dict[tuple[int, int], int] = {qr: i for i, qr in enumerate(self.coords)}
        self.names: tuple[str, ...] = tuple(f"{LETTERS[q]}{r + 1}" for q, r in self.coords)
        self._by_name = {name: i for i, name in enumerate(self.names)}
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                self.index[(q + dq, r + dr)]
                for dq, dr in self.directions
                if (q + dq, r + dr) in self.index
            )
            for q, r in self.coords
        )

    def __len__(self) -> int:
        return len(self.coords)

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.coords)))

    def name(self, cell: int) -> str:
        return self.names[cell]

    def cell(self, name: str) -> int | None:
        """The cell called `name` (case-insensitive), or None when the board has no such cell."""
        text = name.strip().lower()
        if text in self._by_name:
            return self._by_name[text]
        match = _CELL_NAME.fullmatch(text)
        if not match:
            return None
        # "e05" names e5: rebuild the name so leading zeros do not make a second spelling.
        return self._by_name.get(f"{match[1]}{int(match[2])}")

    def step(self, cell: int, direction: tuple[int, int]) -> int | None:
        q, r = self.coords[cell]
        return self.index.get((q + direction[0], r + direction[1]))

    def direction(self, a: int, b: int) -> tuple[int, int] | None:
        """The step of `directions` that leads from a towards b when b lies on a straight line
        from a, or None when it does not (or b is a). A grid that steps in other coordinates
        overrides this (ColumnHexGrid)."""
        line = self.line(a, b)
        return None if line is None else self.directions[line]

    def line(self, a: int, b: int) -> int | None:
        """The index in `directions` of the line from a through b, or None when b is not on a
        straight line from a. Looked up among the `rays`, which reach every such b on a board
        without holes (hex-hex, square)."""
        return self._lines.get((a, b))

    @cached_property
    def _lines(self) -> dict[tuple[int, int], int]:
        return {(cell, other): k for cell in self for k, ray in enumerate(self.rays[cell]) for other in ray}

    def ray(self, cell: int, direction: tuple[int, int]) -> Iterator[int]:
        """The cells in a straight line from `cell` (excluded) to the edge of the board."""
        nxt = self.step(cell, direction)
        while nxt is not None:
            yield nxt
            nxt = self.step(nxt, direction)

    @cached_property
    def rays(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """rays[cell][k]: the cells of `ray(cell, directions[k])`, worked out once per board
        for the rules that look along lines at every ply (Harmijan's moves and placements)."""
        return tuple(tuple(tuple(self.ray(cell, d)) for d in self.directions) for cell in self)

    def centre(self, cell: int) -> tuple[float, float]:
        return self.point(*self.coords[cell])

    def point(self, q: float, r: float) -> tuple[float, float]:
        """The drawing centre of position (q, r), on the board or off it (for edge labels)."""
        raise NotImplementedError

    def corners(self, cell: int) -> list[tuple[float, float]]:
        """The outline of a cell, in the same units as `point`."""
        raise NotImplementedError

    def text_column(self, q: int, r: int) -> int:
        """The character column of position (q, r) in a monospace diagram, two per cell."""
        raise NotImplementedError

    def column_label_position(self, q: int) -> tuple[int, int]:
        """Where column q's letter goes: one step past its bottom cell, along the column."""
        q0, r0 = self.coords[self.column_cells(q)[0]]
        return (q0, r0 - 1)

    @property
    def columns(self) -> int:
        return max(q for q, _ in self.coords) + 1

    @property
    def rows(self) -> int:
        return max(r for _, r in self.coords) + 1

    def column_cells(self, q: int) -> list[int]:
        """The cells of column `q`, bottom first."""
        return sorted((c for c in self if self.coords[c][0] == q), key=lambda c: self.coords[c][1])

    def row_cells(self, r: int) -> list[int]:
        """The cells of row `r`, left first."""
        return [c for c in self if self.coords[c][1] == r]

    def components(self, values: "tuple[int, ...] | list[int]") -> list[tuple[int, list[int]]]:
        """The connected groups of equal non-zero values, as (value, cells) pairs.

        `values[c]` is what stands on cell c; 0 means empty. Used for groups of stones.
        """
        return [(values[cells[0]], cells) for cells in self.component_labels(values)[1]]

    def component_labels(
        self, values: "tuple[int, ...] | list[int]"
    ) -> tuple[list[int], list[list[int]]]:
        """Each cell's group number (−1 where empty) and each group's cells, in board order.

        The groups are those of `components`, numbered in the same order (by their first cell):
        one pass gives a game both "which group is this stone in" and "which stones are in it".
        """
        label = [-1] * len(values)
        groups: list[list[int]] = []
        neighbours = self.neighbours
        for start, value in enumerate(values):
            if value == 0 or label[start] >= 0:
                continue
            number = len(groups)
            label[start] = number
            cells, stack = [], [start]
            while stack:
                cell = stack.pop()
                cells.append(cell)
                for nb in neighbours[cell]:
                    if label[nb] < 0 and values[nb] == value:
                        label[nb] = number
                        stack.append(nb)
            cells.sort()
            groups.append(cells)
        return label, groups
