"""Where everything of a grid board goes, in board units (one cell width, y up).

Both the SVG diagram and the printable sheet scale this one layout, and the text diagram uses the
grid's character columns, so coordinates sit in the same places in all three.
"""

from __future__ import annotations

from typing import NamedTuple

from referee.geometry.grid import LETTERS, Grid


LABEL_SIZE = 0.38  # coordinate letters and numbers, in cell widths

# The drawing's values are named tuples rather than frozen dataclasses: their module is imported
# by a command's first drawing, part of `referee move`'s start-up, and a dataclass takes about
# half a millisecond to create (a named tuple a tenth of that).


class Label(NamedTuple):
    x: float
    y: float
    text: str


class BoardShapes(NamedTuple):
    outlines: list[tuple[int, list[tuple[float, float]]]]  # (cell, corners)
    labels: list[Label]
    left: float
    right: float
    bottom: float
    top: float

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.top - self.bottom


def board_shapes(grid: Grid) -> BoardShapes:
    outlines = [(cell, grid.corners(cell)) for cell in grid]
    labels = []
    for r in range(grid.rows):
        q, _ = grid.coords[grid.row_cells(r)[0]]
        labels.append(Label(*grid.point(q - 1, r), str(r + 1)))
    for q in range(grid.columns):
        labels.append(Label(*grid.point(*grid.column_label_position(q)), LETTERS[q]))
    # Labels are points; their text needs room around them: about 0.6 em per character across
    # and 1 em high, at LABEL_SIZE cell widths to the em.
    half_w = {lb: 0.3 * LABEL_SIZE * len(lb.text) for lb in labels}
    xs = [x for _, corners in outlines for x, _ in corners]
    xs += [lb.x - half_w[lb] for lb in labels] + [lb.x + half_w[lb] for lb in labels]
    ys = [y for _, corners in outlines for _, y in corners]
    ys += [lb.y + sign * LABEL_SIZE / 2 for lb in labels for sign in (-1, 1)]
    return BoardShapes(outlines, labels, min(xs), max(xs), min(ys), max(ys))


def text_rows(grid: Grid, glyphs: dict[int, str], marks: set[int], empty: str = ".") -> list[str]:
    """The board as monospace lines, top row first: row numbers on the left, column letters
    one step past each column's bottom cell, the last move's cells in [brackets]."""
    rows = grid.rows
    positions = {cell: (grid.text_column(*grid.coords[cell]), grid.coords[cell][1]) for cell in grid}
    letters = {
        (grid.text_column(*grid.column_label_position(q)), grid.column_label_position(q)[1]): LETTERS[q]
        for q in range(grid.columns)
    }
    columns = [x for x, _ in positions.values()] + [x for x, _ in letters]
    offset = 1 - min(columns)  # room for a bracket left of the leftmost cell
    width = max(columns) + offset + 2
    canvas = {r: [" "] * width for r in range(-1, rows)}
    for (x, r), letter in letters.items():
        canvas[r][x + offset] = letter
    for cell, (x, r) in positions.items():
        canvas[r][x + offset] = glyphs.get(cell, empty)
        if cell in marks:
            # Two marked cells side by side share the bracket between them: [X|X].
            left = canvas[r][x + offset - 1]
            canvas[r][x + offset - 1] = "|" if left == "]" else "["
            right = canvas[r][x + offset + 1]
            canvas[r][x + offset + 1] = "|" if right == "[" else "]"
    number_width = len(str(rows))
    lines = []
    for r in range(rows - 1, -2, -1):
        number = str(r + 1) if r >= 0 else ""
        lines.append(f"{number:>{number_width}} {''.join(canvas[r])}".rstrip())
    return lines
