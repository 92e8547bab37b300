"""The Hermetica position as plain data for its diagrams: what the drawer
(referee.render.hermetica) reads, and all it reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from referee.games.hermetica.board import MOON, SIDE, SUN, Board
from referee.games.hermetica.position import ELEMENTS, UNIT_NAME, ActionReport, Unit
from referee.games.picture import PieceKind

# What the drawer reads: the view model, and the names of sides, units and elements.
__all__ = ["ELEMENTS", "KINDS", "MOON", "SIDE", "SUN", "UNIT_NAME", "ActionReport", "Board",
           "HermeticaPicture", "Unit"]

KINDS = (
    PieceKind("sun", "upper case", "Sun", seat=SUN),
    PieceKind("moon", "lower case", "Moon", seat=MOON),
)


@dataclass
class HermeticaPicture:
    """The position as plain data for the Hermetica diagrams (referee.render.hermetica)."""

    style: ClassVar[str] = "hermetica"  # the board style, which names the drawer (render/diagram.py)
    board: Board | None
    walls: frozenset[int] = frozenset()
    shields: dict[int, int | None] = field(default_factory=dict)
    units: dict[int, Unit] = field(default_factory=dict)
    last: tuple[ActionReport, ...] = ()
    reserve: dict[int, dict[str, int]] = field(default_factory=dict)
    spent: dict[int, dict[str, int]] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    kinds: tuple[PieceKind, ...] = KINDS
