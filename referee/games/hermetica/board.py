"""The Hermetica mat as data: the board file's schema (columns, the two Horizons and Prime
hexes, the wall schemes) and its checks (R-HM1). Pure: the file is read elsewhere and handed
over as a table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from referee.geometry.columns import ColumnHexGrid
from referee.geometry.grid import LETTERS

SUN, MOON = 1, 2
SIDE = {SUN: "Sun", MOON: "Moon"}
SIDE_KEY = {SUN: "sun", MOON: "moon"}
WALLS = 12  # R-HM1


@dataclass(frozen=True, eq=False)
class Board:
    """The mat: its cells, each side's Horizon and Prime hex, and the wall schemes."""

    grid: ColumnHexGrid
    horizons: dict[int, frozenset[int]]  # by seat
    primes: dict[int, int]  # by seat
    schemes: dict[str, frozenset[int]]

    def name(self, cell: int) -> str:
        return self.grid.name(cell)

    def columns_words(self) -> str:
        """The cell names in words, for a message about a name that is none: "columns a–g,
        a1–a9 … g1–g9" (RULINGS: Hermetica board)."""
        columns = [self.grid.column_cells(q) for q in range(self.grid.columns)]
        spans = [f"{self.name(c[0])}–{self.name(c[-1])}" for c in columns if c]
        shown = spans if len(spans) <= 3 else [spans[0], "…", spans[-1]]
        return f"columns {self.name(columns[0][0])[0]}–{self.name(columns[-1][0])[0]}, {' '.join(shown)}"


def _cell_of(grid: ColumnHexGrid, name: Any, where: str) -> int:
    cell = grid.cell(name) if isinstance(name, str) else None
    if cell is None:
        raise ValueError(f"board file: {where} names {name!r}, which is not a cell of the board")
    return cell


def board_from_data(data: Mapping[str, Any]) -> Board:
    """Build and check a board from a board file's content; raises ValueError for the user."""
    if not isinstance(data, Mapping):
        raise ValueError("board file: expected a table with columns, sun, moon and schemes")
    unknown = [k for k in data if k not in ("columns", "offsets", "sun", "moon", "schemes")]
    if unknown:
        raise ValueError(
            f"board file: unknown key {unknown[0]!r} (allowed: columns, offsets, sun, moon, schemes)"
        )
    columns = data.get("columns")
    if not isinstance(columns, Mapping) or not columns:
        raise ValueError("board file: columns must be a table such as { a = 9, b = 10 }")
    letters = list(columns)
    if letters != list(LETTERS[: len(letters)]):
        raise ValueError(
            f"board file: columns must be a, b, c, … in order, not {', '.join(map(str, letters))}"
        )
    lengths = [columns[k] for k in letters]
    offsets = data.get("offsets")
    if offsets is None:
        grid = ColumnHexGrid.centred(lengths)
    else:
        if not isinstance(offsets, Mapping) or list(offsets) != letters:
            raise ValueError("board file: offsets must give every column, e.g. { a = 3, b = 2 }")
        grid = ColumnHexGrid(lengths, [offsets[k] for k in letters])
    horizons, primes = {}, {}
    for seat in (SUN, MOON):
        key = SIDE_KEY[seat]
        side = data.get(key)
        if not isinstance(side, Mapping) or set(side) != {"horizon", "prime"}:
            raise ValueError(f"board file: [{key}] needs horizon = [cells] and prime = \"cell\"")
        if not isinstance(side["horizon"], list) or not side["horizon"]:
            raise ValueError(f"board file: [{key}] horizon must be a list of cells")
        horizons[seat] = frozenset(_cell_of(grid, n, f"{key}.horizon") for n in side["horizon"])
        primes[seat] = _cell_of(grid, side["prime"], f"{key}.prime")
        if len(horizons[seat]) < 3:
            raise ValueError(f"board file: {key}'s Horizon needs room for three elements (R-HM1)")
    if horizons[SUN] & horizons[MOON]:
        raise ValueError("board file: the two Horizons share a cell")
    for seat in (SUN, MOON):
        for other in (SUN, MOON):
            if primes[seat] in horizons[other]:
                raise ValueError(f"board file: {SIDE_KEY[seat]}'s prime lies on a Horizon")
    if primes[SUN] == primes[MOON]:
        raise ValueError("board file: the two Prime hexes are the same cell")
    schemes_data = data.get("schemes", {})
    if not isinstance(schemes_data, Mapping):
        raise ValueError("board file: schemes must be a table of lists of cells")
    schemes = {}
    for name, cells in schemes_data.items():
        if not isinstance(cells, list):
            raise ValueError(f"board file: scheme {name!r} must be a list of cells")
        walls = [_cell_of(grid, n, f"scheme {name}") for n in cells]
        if len(set(walls)) != len(walls) or len(walls) != WALLS:
            raise ValueError(f"board file: scheme {name!r} must list {WALLS} different cells")
        forbidden = set(horizons[SUN] | horizons[MOON]) | set(primes.values())
        bad = [grid.name(c) for c in walls if c in forbidden]
        if bad:
            raise ValueError(f"board file: scheme {name!r} puts a wall on a Horizon or Prime hex: {bad[0]}")
        schemes[str(name).lower()] = frozenset(walls)
    return Board(grid, horizons, primes, schemes)
