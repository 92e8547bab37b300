"""A Harmijan position: the stones, the phase of the opening (R-HJ1), the colour to move, and
the chain of positions counted for repetition (R-HJ8); what it is asked again and again (its
creatures, whether a colour can turn, its shape classes) is worked out once and kept."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, partial
from types import MappingProxyType
from typing import Iterator, Mapping

from referee.games.base import CanAct
from referee.games.harmijan.creatures import EMPTY
from referee.games.harmijan.movement import has_turn
from referee.games.harmijan.scoring import BLACK, WHITE, ShapeClass, shape_classes
from referee.geometry.hexhex import HexHexGrid


class Counted:
    """One position counted for R-HJ8 (every stone and the colour to move), linked to the
    position counted before it: a state holds only the newest link, so the history of a game
    of n plies takes n links, shared by all its states, instead of a copy in each.

    A turn never lowers the number of stones (a placement adds one; a bite takes one and the
    placement adds one back; a pass changes nothing), so a position can only have stood before
    while the number of stones has not changed since: counting it looks back only that far.
    """

    __slots__ = ("stones", "turn", "placed", "times", "before")

    def __init__(self, stones: tuple[int, ...], turn: int, before: "Counted | None"):
        self.stones, self.turn, self.before = stones, turn, before
        self.placed = placed = len(stones) - stones.count(EMPTY)
        self.times = 1  # this occurrence and the earlier ones
        node = before
        while node is not None and node.placed == placed:
            if node.turn == turn and node.stones == stones:
                self.times = node.times + 1
                break
            node = node.before

    def __iter__(self) -> Iterator["Counted"]:
        """This position and the ones counted before it, newest first."""
        node: Counted | None = self
        while node is not None:
            yield node
            node = node.before

    def __eq__(self, other: object) -> bool:
        # Along the chain, not recursively: a long game would pass the recursion limit.
        if not isinstance(other, Counted):
            return NotImplemented
        a, b = self, other
        while a is not b:
            if a is None or b is None or (a.turn, a.times, a.stones) != (b.turn, b.times, b.stones):
                return False
            a, b = a.before, b.before
        return True

    __hash__ = None  # type: ignore[assignment]  # compared by content, so unhashable (as the old mapping)


@dataclass(frozen=True)
class HarmijanState:
    grid: HexHexGrid
    stones: tuple[int, ...]  # per cell: EMPTY, BLACK or WHITE
    set_up: bool = False  # seat 1 has made the setup ply
    black_seat: int | None = None  # None until seat 2 chooses (R-HJ1)
    turn: int = BLACK  # the colour whose turn it is by alternation, before any pass
    history: Counted | None = field(default=None, repr=False)  # the last position counted (R-HJ8)
    repeated: bool = False  # the position now stands for the third time (R-HJ8)
    # Colour → whether it has a legal turn (R-HJ5), each searched for when first asked. Made
    # with the position rather than on first use: every position is asked, and a
    # cached_property's lock would cost more than the CanAct itself.
    can_turn: CanAct = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "can_turn", CanAct(partial(has_turn, self.stones, self.grid)))

    @property
    def phase(self) -> str:
        if not self.set_up:
            return "setup"
        return "choice" if self.black_seat is None else "play"

    def seat_of(self, colour: int) -> int:
        return self.black_seat if colour == BLACK else 3 - self.black_seat

    def colour_of(self, seat: int) -> int:
        return BLACK if seat == self.black_seat else WHITE

    def then(self, stones: tuple[int, ...], turn: int, black_seat: int | None = None) -> "HarmijanState":
        """The position of `stones` with `turn` to move after this one, counted for R-HJ8.
        (Built directly: dataclasses.replace costs as much as the rest of a ply's bookkeeping.)"""
        history = Counted(stones, turn, self.history)
        black_seat = self.black_seat if black_seat is None else black_seat
        return HarmijanState(self.grid, stones, self.set_up, black_seat, turn, history, history.times >= 3)

    # -- repetition (R-HJ8) ----------------------------------------------------------------

    @property
    def times_seen(self) -> int:
        """How many times this position (stones and colour to move) has been counted."""
        placed = len(self.stones) - self.stones.count(EMPTY)
        for node in self.history or ():
            if node.placed < placed:
                break  # earlier positions have fewer stones still (see Counted)
            if node.turn == self.turn and node.stones == self.stones:
                return node.times
        return 0

    @property
    def seen(self) -> Mapping[tuple[tuple[int, ...], int], int]:
        """Every position counted so far → how many times (R-HJ8), built from the history on
        request: for inspection and tests, not for play."""
        counts: dict[tuple[tuple[int, ...], int], int] = {}
        for node in self.history or ():
            counts.setdefault((node.stones, node.turn), node.times)
        return MappingProxyType(counts)

    # -- creatures (R-HJ2) and turns (R-HJ5) ------------------------------------------------

    @cached_property
    def creature_labels(self) -> tuple[list[int], list[list[int]]]:
        """Each cell's creature id (−1 when empty) and each creature's cells, once per position:
        for the listing's order and the score; checking one turn needs only the creatures
        beside it (creatures.lifted)."""
        return self.grid.component_labels(self.stones)

    def creatures(self, colour: int) -> list[list[int]]:
        label, members = self.creature_labels
        return [cells for cells in members if self.stones[cells[0]] == colour]

    # -- scoring (R-HJ6, R-HJ7) -------------------------------------------------------------

    def classes(self, colour: int) -> list[ShapeClass]:
        """The colour's shape classes in the order compared (R-HJ7). Worked out once a
        position: the end is asked for again and again (the result, the status, the picture),
        and every creature's shape costs a dozen images."""
        if colour not in self._classes:
            self._classes[colour] = shape_classes(self.grid.coords, self.creatures(colour))
        return list(self._classes[colour])

    @cached_property
    def _classes(self) -> dict[int, list[ShapeClass]]:
        return {}
