"""The Hermetica position as plain data for its diagrams: what the drawer
(referee.render.hermetica) reads, and all it reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.games.hermetica.board import MOON, SUN, Board
from referee.games.hermetica.state import ActionReport, Unit
from referee.picture import PieceKind

KINDS = (
    PieceKind("sun", "upper case", "Sun", seat=SUN),
    PieceKind("moon", "lower case", "Moon", seat=MOON),
)


@dataclass
class HermeticaPicture:
    """The position as plain data for the Hermetica diagrams (referee.render.hermetica)."""

    board: Board | None
    walls: frozenset[int] = frozenset()
    shields: dict[int, int | None] = field(default_factory=dict)
    units: dict[int, Unit] = field(default_factory=dict)
    last: tuple[ActionReport, ...] = ()
    reserve: dict[int, dict[str, int]] = field(default_factory=dict)
    spent: dict[int, dict[str, int]] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    kinds: tuple[PieceKind, ...] = KINDS
