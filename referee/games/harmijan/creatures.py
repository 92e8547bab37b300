"""Harmijan's creatures (R-HJ2): a creature is a maximal set of stones of one colour joined
through hex adjacency. They are found as they are asked for, also with a moving stone lifted
off the board (R-HJ3), which is how a turn is judged."""

from __future__ import annotations

from functools import cache
from typing import Mapping

from referee.geometry.hexhex import HexHexGrid

EMPTY = 0

_AROUND = (0, 4, 2, 1, 5, 3)  # HexHexGrid.directions in turn around a cell
# Rings of six neighbours (bit k: the k-th of _AROUND) whose set cells form at most one arc.
_ONE_ARC = tuple(sum(1 for k in range(6) if ring >> k & 1 and not ring >> (k - 1) % 6 & 1) <= 1
                 for ring in range(64))


class Creatures(dict):
    """Stone → its creature (R-HJ2), named by one of its cells. Each creature is found when a
    stone of it is first looked up: a turn is checked by looking at the few creatures beside its
    path and its placement, and labelling the whole board for that would cost more than the
    check.

    With a stone `lifted` off the board (R-HJ3), it belongs to no creature and joins none. Only
    its own creature can fall apart, so a search that lifts one stone after another takes the
    other creatures from `whole`, the creatures of the board as it stands.
    """

    __slots__ = ("stones", "neighbours", "whole", "own")

    def __init__(self, stones: tuple[int, ...], neighbours: tuple[tuple[int, ...], ...],
                 lifted: int | None = None, whole: "Creatures | None" = None):
        self.stones, self.neighbours, self.whole = stones, neighbours, whole
        if lifted is not None:
            self[lifted] = -1
            if whole is not None:
                self.own = whole[lifted]

    def __missing__(self, cell: int) -> int:
        if self.whole is not None:
            known = self.whole[cell]
            if known != self.own:
                self[cell] = known
                return known
        stones, neighbours, colour = self.stones, self.neighbours, self.stones[cell]
        self[cell] = cell
        stack = [cell]
        while stack:
            for nb in neighbours[stack.pop()]:
                if nb not in self and stones[nb] == colour:
                    self[nb] = cell
                    stack.append(nb)
        return cell


def stays_joined(stones: tuple[int, ...], mover: int, ring: tuple[tuple[int, int], ...]) -> bool:
    """Whether the stones of the mover's colour around it stay joined when it is lifted (R-HJ3):
    so they do when they make one unbroken arc around it, or none, or the whole ring (enough,
    not needed: they may also be joined further away). `ring`: the mover's, from `rings`."""
    colour, arc = stones[mover], 0
    for bit, nb in ring:
        if stones[nb] == colour:
            arc |= bit
    return _ONE_ARC[arc]


@cache
def rings(grid: HexHexGrid) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Each cell's neighbours in turn around it, each with its bit in a ring of `_ONE_ARC`;
    worked out once per board, since a search asks `stays_joined` of every stone."""
    return tuple(tuple((1 << bit, rays[k][0]) for bit, k in enumerate(_AROUND) if rays[k])
                 for rays in grid.rays)


def lifted(stones: tuple[int, ...], grid: HexHexGrid, mover: int, whole: Creatures | None = None) -> Mapping[int, int]:
    """Stone → its creature with the mover lifted off the board (R-HJ3), for the stones of
    the mover's colour but the mover. `whole`: the creatures of the board as it stands, for
    a search that lifts one stone after another; they serve as they are when the mover's
    friendly neighbours stay joined without it."""
    if whole is not None and stays_joined(stones, mover, rings(grid)[mover]):
        return whole
    return Creatures(stones, grid.neighbours, lifted=mover, whole=whole)
