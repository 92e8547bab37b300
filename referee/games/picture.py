"""Plain data that describes what a diagram shows; games fill it in, renderers draw it.

Keeping this free of any drawing code lets the rules say *what* is on the board (a stone, a last
move) and lets the text and SVG renderers decide *how* it looks.
"""

from __future__ import annotations

from typing import NamedTuple

from referee.geometry.grid import Grid


class PieceKind(NamedTuple):
    """A kind of piece: its glyph in text diagrams, its CSS class in SVG, its name in legends."""

    key: str
    glyph: str
    label: str
    seat: int | None = None  # the seat that owns this kind, where pieces belong to a seat


class Picture:
    """A grid board with pieces on it.

    `pieces` maps a cell to a PieceKind key; `marks` are the cells of the last move. Games whose
    stones move and capture also give the last move's `path` (the cells it went from and to,
    drawn as an arrow), the cells where it took a stone (`bites`), and `tags`: a short word
    written on a stone (e.g. the scoring class it counts in at the end). `notes` are lines of
    words about the picture, shown under the last move (what it did, how the end was scored).
    """

    style = "grid"  # the board style, which names the drawer (render/diagram.py)

    def __init__(
        self,
        grid: Grid,
        kinds: tuple[PieceKind, ...],
        pieces: dict[int, str] | None = None,
        marks: set[int] | None = None,
        path: tuple[int, ...] = (),
        bites: set[int] | None = None,
        tags: dict[int, str] | None = None,
        notes: tuple[str, ...] = (),
    ):
        self.grid, self.kinds = grid, kinds
        self.pieces = {} if pieces is None else pieces
        self.marks = set() if marks is None else marks
        self.path = path
        self.bites = set() if bites is None else bites
        self.tags = {} if tags is None else tags
        self.notes = notes

    def glyph(self, kind: str) -> str:
        """The text diagram's character for pieces of `kind`."""
        return next(k.glyph for k in self.kinds if k.key == kind)
