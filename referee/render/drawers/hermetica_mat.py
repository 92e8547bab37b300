"""The Hermetica mat as drawn: its layout from board units to drawing positions, the hexes with
their Horizons and Primes, the column letters, and the shapes both the diagram
(render/drawers/hermetica.py) and the printable sheet (render/drawers/hermetica_sheet.py) are made of."""

from __future__ import annotations

from dataclasses import dataclass

from referee.games.hermetica.picture import MOON, SUN, Board
from referee.geometry.grid import LETTERS


@dataclass(frozen=True)
class Hex:
    name: str
    points: str
    css: str  # "cell", plus "horizon-sun" / "horizon-moon" / "prime"


@dataclass(frozen=True)
class Token:
    """A unit: a circle for Sun, a diamond for Moon (owner by shape), its letter inside."""

    name: str
    x: float
    y: float
    letter: str
    seat: int
    points: str  # the diamond, for Moon
    words: str


@dataclass(frozen=True)
class Mark:
    x: float
    y: float
    text: str
    css: str


@dataclass(frozen=True)
class Arrow:
    x1: float
    y1: float
    x2: float
    y2: float
    css: str


@dataclass(frozen=True)
class Path:
    """A unit's whole move in the last ply: one line through every hex it stepped on."""

    points: str
    words: str


@dataclass(frozen=True)
class Words:
    x: float
    y: float
    css: str
    text: str


@dataclass(frozen=True)
class Inked:
    """Words of the printable sheet with their own colour (its SVG holds no style sheet)."""

    x: float
    y: float
    fill: str
    text: str


def layout(board: Board, unit: float, top_left: tuple[float, float]):
    """A function from board units to drawing positions (y down), and the drawing's size."""
    grid = board.grid
    xs = [x for c in grid for x, _ in grid.corners(c)]
    ys = [y for c in grid for _, y in grid.corners(c)]
    pad = 0.6  # room for the column letters
    left, right, bottom, top = min(xs) - pad, max(xs) + pad, min(ys) - pad, max(ys) + pad

    def place(x: float, y: float) -> tuple[float, float]:
        return (round(top_left[0] + (x - left) * unit, 2), round(top_left[1] + (top - y) * unit, 2))

    return place, (right - left) * unit, (top - bottom) * unit


def hexes(board: Board, place, walls=frozenset()) -> list[Hex]:
    hexes = []
    for cell in board.grid:
        points = " ".join("%s,%s" % place(*p) for p in board.grid.corners(cell))
        css = "cell"
        if cell in board.horizons[SUN]:
            css += " horizon-sun"
        elif cell in board.horizons[MOON]:
            css += " horizon-moon"
        if cell in board.primes.values():
            css += " prime"
        hexes.append(Hex(board.name(cell), points, css))
    return hexes


def column_labels(board: Board, place) -> list[Words]:
    grid, labels = board.grid, []
    for q in range(grid.columns):
        cells = grid.column_cells(q)
        for cell, dy in ((cells[0], -0.75), (cells[-1], 0.75)):
            x, y = grid.centre(cell)
            labels.append(Words(*place(x, y + dy), "coord", LETTERS[q]))
    return labels


def shrink(grid, cell: int, point: tuple[float, float], factor: float) -> tuple[float, float]:
    cx, cy = grid.centre(cell)
    return (cx + (point[0] - cx) * factor, cy + (point[1] - cy) * factor)
