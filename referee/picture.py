"""Plain data that describes what a diagram shows; games fill it in, renderers draw it.

Keeping this free of any drawing code lets the rules say *what* is on the board (a stone, a last
move) and lets the text and SVG renderers decide *how* it looks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.geometry.grid import Grid


@dataclass(frozen=True)
class PieceKind:
    """A kind of piece: its glyph in text diagrams, its CSS class in SVG, its name in legends."""

    key: str
    glyph: str
    label: str
    seat: int | None = None  # the seat that owns this kind, where pieces belong to a seat


@dataclass
class Picture:
    """A grid board with pieces on it.

    `pieces` maps a cell to a PieceKind key; `marks` are the cells of the last move. Games whose
    stones move and capture also give the last move's `path` (the cells it went from and to,
    drawn as an arrow), the cells where it took a stone (`bites`), and `tags`: a short word
    written on a stone (e.g. the scoring class it counts in at the end). `notes` are lines of
    words about the picture, shown under the last move (what it did, how the end was scored).
    """

    grid: Grid
    kinds: tuple[PieceKind, ...]
    pieces: dict[int, str] = field(default_factory=dict)
    marks: set[int] = field(default_factory=set)
    path: tuple[int, ...] = ()
    bites: set[int] = field(default_factory=set)
    tags: dict[int, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
