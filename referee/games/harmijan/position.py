"""What a Harmijan position is made of besides its stones: its creatures, found as they are
asked for (R-HJ2, R-HJ3), and the chain of positions counted for repetition (R-HJ8)."""

from __future__ import annotations

from typing import Any, Callable, Iterator

EMPTY = 0


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


class once:
    """A property worked out on first use and then kept in the position, like
    functools.cached_property without its lock (Python 3.11), which costs more than a ply's
    whole check here: a replay asks it of every position."""

    def __init__(self, work: Callable[[Any], Any]):
        self.work, self.__doc__ = work, work.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, state: Any, owner: type | None = None) -> Any:
        if state is None:
            return self
        value = state.__dict__[self.name] = self.work(state)
        return value


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


def stays_joined(stones: tuple[int, ...], mover: int, rays: tuple[tuple[int, ...], ...]) -> bool:
    """Whether the stones of the mover's colour around it stay joined when it is lifted (R-HJ3):
    so they do when they make one unbroken arc around it, or none, or the whole ring (enough,
    not needed: they may also be joined further away). `rays`: the mover's, on a hex-hex board."""
    colour, ring = stones[mover], 0
    for bit, k in enumerate(_AROUND):
        ray = rays[k]
        if ray and stones[ray[0]] == colour:
            ring |= 1 << bit
    return _ONE_ARC[ring]
