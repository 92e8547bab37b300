"""All-moves-as-first statistics and GRAVE: Generalized Rapid Action Value Estimation
(Cazenave 2015; RAVE: Gelly and Silver 2007).

A node's table counts, for every action code (the game's `action_codes`), the playouts
through the node in which that action was made anywhere below it — in the tree or in the
playout — and what those playouts returned. In a placement game a stone is worth much the
same whenever it is placed, so the table knows after a few dozen playouts what the node's
children learn only one at a time. GRAVE reads, at each node, the table of the nearest node
at or above it that holds at least `ref` playouts, and blends it with each child's own mean:

    value = (1 − β) · mean + β · amaf,   β = a / (a + n + bias · a · n)

(a: the table's playouts of the child's action, n: the child's own), so that a child's own
figures take over as they grow. The same table orders the actions a node tries next.

Memory: a table costs two numbers a code, so only a node visited `start` times keeps one
(most nodes are visited a few times and are never read as a table), and a search keeps at
most as many tables as its budget allows (`Tables`).
"""

from __future__ import annotations

import math
from array import array
from typing import Any

from referee.search.tree import END, Node

# Bytes a table takes for each code: a 4-byte count and an 8-byte sum (arrays, no objects).
BYTES_PER_CODE = 12
NO_CODE = -1  # in a node's codes of its untried actions: "end the turn", or an action without one


class Table:
    """One node's statistics: per code, the playouts in which it was made below the node
    (`n`) and seat 1's returns in them summed (`w`; another seat reads 1 − w/n, or w/n in a
    cooperative game, where every seat's returns are one); and the playouts counted."""

    __slots__ = ("n", "w", "playouts")

    def __init__(self, codes: int):
        self.n = array("i", bytes(4 * codes))
        self.w = array("d", bytes(8 * codes))
        self.playouts = 0


class Tables:
    """The search's tables: how many codes a table holds, how many tables it may keep, and
    the reading of a table for a seat."""

    def __init__(self, codes: int, budget_bytes: int, cooperative: bool):
        self.codes = codes
        self.most = self.left = max(0, budget_bytes // max(1, codes * BYTES_PER_CODE))
        self.cooperative = cooperative

    def kept(self, tables: int) -> None:
        """The tree was cut down to a subtree holding `tables` tables: the others are freed."""
        self.left = max(0, self.most - tables)

    def keep(self, node: Node) -> Table | None:
        """A new table for `node`, while the budget allows."""
        if self.left <= 0:
            return None
        self.left -= 1
        node.amaf = table = Table(self.codes)
        return table

    def update(self, path: list[Node], played: list[int], returns: tuple[float, ...], start: int) -> None:
        """Count a playout in the tables of `path`: at each node, the codes of the actions
        below it on the path and those of the playout (`played`). A node reaching its
        `start`-th visit gets its table now."""
        below = played
        r = returns[0]
        for depth in range(len(path) - 1, -1, -1):
            node = path[depth]
            if depth + 1 < len(path):
                code = path[depth + 1].code
                if code is not None:
                    if below is played:
                        below = list(played)
                    below.append(code)
            table = node.amaf
            if table is None:
                if node.visits < start or (table := self.keep(node)) is None:
                    continue
            n, w = table.n, table.w
            for code in below:
                n[code] += 1
                w[code] += r
            table.playouts += 1

    def flipped(self, seat: int) -> bool:
        """Whether `seat` reads a table's returns as 1 − w/n (seat 1's are w/n)."""
        return seat != 1 and not self.cooperative


def select(node: Node, table: Table | None, flip: bool, exploration: float, bias: float,
           solver: bool = True) -> Node | None:
    """The child of `node` with the best GRAVE value plus UCT's exploration, read from
    `table` (None: UCT alone); with the `solver`, never a child proven lost for the node's
    seat, and a proven child valued as proven. None when every child is proven lost.
    (The search's inner loop: written for speed, each child's fields read once.)"""
    seat = node.seat - 1
    reach = exploration * math.sqrt(math.log(node.visits or 1))  # c · √(ln N), then / √n
    sqrt = math.sqrt
    best, best_score = None, -math.inf
    if table is None:
        for child in node.children:
            proven = child.proven
            visits = child.visits
            if proven is not None and solver:
                mean = proven[seat]
                if mean <= 0.0:
                    continue  # a proven loss is never chosen
            else:
                mean = child.value / visits
            score = mean + reach / sqrt(visits)
            if score > best_score:
                best, best_score = child, score
        return best
    n_table, w_table = table.n, table.w
    for child in node.children:
        proven = child.proven
        visits = child.visits
        code = child.code
        if proven is not None and solver:
            mean = proven[seat]  # exact: no table's guess blended in
            if mean <= 0.0:
                continue
        else:
            mean = child.value / visits
        if code is not None and (proven is None or not solver):
            a = n_table[code]
            if a:
                amaf = w_table[code] / a
                if flip:
                    amaf = 1.0 - amaf
                mean += a * (amaf - mean) / (a + visits + bias * a * visits)  # β · (amaf − mean)
        score = mean + reach / sqrt(visits)
        if score > best_score:
            best, best_score = child, score
    return best


def best_untried(node: Node, table: Table, flip: bool, code_of: Any) -> int:
    """The index in `node.untried` of the action the table values most for the node's seat
    (an action never seen in a playout counts as even); "end the turn" is left for last."""
    untried = node.untried
    codes = node.codes
    if codes is None or len(codes) != len(untried):
        # An array of the codes beside the stack (no int objects: a node of Odd's size 12
        # holds some 800 untried actions), taken out with them (`take`).
        codes = node.codes = array("i", [NO_CODE if action is END or (code := code_of(action)) is None
                                         else code for action in untried])
    n_table, w_table = table.n, table.w
    best, best_value = len(untried) - 1, -1.0
    for i, code in enumerate(codes):
        if code < 0:
            continue
        a = n_table[code]
        value = (w_table[code] / a if a else 0.5)
        if flip and a:
            value = 1.0 - value
        if value > best_value:
            best, best_value = i, value
    return best


def take(node: Node, index: int) -> Any:
    """Take the untried action at `index` out of `node` (its code with it)."""
    untried, codes = node.untried, node.codes
    last = len(untried) - 1
    if index != last:
        untried[index], untried[last] = untried[last], untried[index]
        if codes is not None:
            codes[index], codes[last] = codes[last], codes[index]
    if codes is not None:
        codes.pop()
    return untried.pop()
