"""Proven values in the tree: MCTS-Solver (Winands, Björnsson and Saito, "Monte-Carlo Tree
Search Solver", 2008), for returns of any number of seats.

A finished game is proven by its returns. A decision is proven once its seat can do no
better than a proven child: at once when a child gives that seat the most a game can give
(a win), else once every one of its actions is a child and every child is proven (then the
best of them for that seat: a loss where all lose). A proof found at a leaf is backed up the
path it was reached by, as far as it settles each node above.

Each seat plays for its own returns (in a two-seat game a win for one is a loss for the
other; in the cooperative crab game every seat's returns are one). The search never selects
a child proven lost for the seat choosing, and reads a proven child's value as proven rather
than as the mean of its playouts.
"""

from __future__ import annotations

from referee.search.tree import Node

WIN = 1.0  # the most a game's returns give a seat


def settled(node: Node) -> tuple[float, ...] | None:
    """The proven returns of `node` from its children, or None while they do not settle it."""
    seat = node.seat - 1
    best = None
    every = not node.untried  # every action has been made a child
    for child in node.children:
        proven = child.proven
        if proven is None:
            every = False
            continue
        if proven[seat] >= WIN:
            return proven
        if best is None or proven[seat] > best[seat]:
            best = proven
    return best if every else None


def back_up(path: list[Node]) -> None:
    """After a playout that ended in a proven leaf (the last node of `path`): count it lost
    for its parent where it is, and settle each node above it that its proof now settles."""
    for parent, child in zip(reversed(path[:-1]), reversed(path[1:])):
        if child.proven is None or parent.proven is not None:
            return
        if child.proven[parent.seat - 1] <= 0.0:
            parent.lost += 1
        proven = settled(parent)
        if proven is None:
            return
        parent.proven = proven


def is_lost(node: Node, seat: int) -> bool:
    """Whether `node` is proven lost for `seat` (its parent's seat)."""
    return node.proven is not None and node.proven[seat - 1] <= 0.0


def rank(child: Node, seat: int) -> tuple[int, int]:
    """How a child stands for `seat`, the seat choosing it, best last: a proven win above
    everything, a proven loss below everything, the rest by how often they were tried."""
    proven = child.proven
    if proven is None:
        return (1, child.visits)
    if proven[seat - 1] >= WIN:
        return (2, child.visits)
    if proven[seat - 1] <= 0.0:
        return (0, child.visits)
    return (1, child.visits)


def value(child: Node, seat: int) -> float:
    """A child's value for `seat`, the seat choosing it: proven, or its playouts' mean."""
    return child.proven[seat - 1] if child.proven is not None else child.mean()
