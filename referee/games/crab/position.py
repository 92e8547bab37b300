"""A position of Hermit: Small crab, big wave: the cells of a play area, the cards put into it,
each seat's area, hand and pile, the Coast with Hermie and the Wave (R-CR2, R-CR9)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from referee.games.crab.deck import CAP, COAST, Card, Point
from referee.games.crab.moves import Place


@dataclass(frozen=True)
class Cell:
    """What shows on a cell of a play area: the top card's face there."""

    symbol: str
    drift: bool
    layer: int  # the index in Area.placed of the card it belongs to


@dataclass(frozen=True)
class Area:
    """One seat's cards: the play area, the hand and the pile (top first)."""

    placed: tuple[Place, ...]
    visible: Mapping[Point, Cell]  # a fresh dict per position, never changed afterwards
    hand: tuple[int, ...]
    pile: tuple[int, ...]
    newest: tuple[Point, ...] = ()  # the cells of the card placed last, in `visible`'s order
    pools_in_row: bool = False  # crab-dance: 3 pools in a row were visible at some moment
    recreated: tuple[Point, ...] = ()  # the triple that recreated the pattern this round

    def caps(self) -> int:
        return sum(1 for cell in self.visible.values() if cell.symbol == CAP)


@dataclass(frozen=True)
class CrabState:
    deck: Mapping[int, Card]
    deck_name: str
    driftwood: int
    wave_start: int
    task: str
    coast: tuple[int | None, ...]  # slots 1–10 left to right; None once drawn (R-CR3)
    hermie: int  # 0 before the first card (R-CR2)
    wave: int  # COAST + 1 once it has left the Coast (R-CR7)
    areas: tuple[Area, ...]
    rounds: int = 0
    won: bool | None = None  # None while the game goes on
    reason: str = ""
    events: tuple[str, ...] = ()  # what the referee worked out in the last round

    @property
    def over(self) -> bool:
        return self.won is not None

    @property
    def pattern(self) -> tuple[str, str, str] | None:
        """The pattern to recreate: the Coast card right of Hermie (R-CR5)."""
        if self.hermie >= COAST:
            return None
        card = self.coast[self.hermie]  # slot hermie + 1
        return None if card is None else self.deck[card].beach
