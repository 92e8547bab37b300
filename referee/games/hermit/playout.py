"""Hermit's fast random playout: the game played to its end by uniformly random legal drops, as
`Game.playout` plays it through the referee's hooks, but with each seat's legal cells kept up
to date as stones arrive instead of searched for at every ply.

What makes that cheap: every group has 1, 3 or 5 stones (R-HE3), and a drop on an empty cell
makes a group of 1 + the sizes of the seat's distinct groups next to the cell. Call that sum
the cell's *reach* for the seat: the seat may drop there when it is 0, 2 or 4. A drop changes
only the reach of the empty cells next to the group it makes, for its own seat (the other
seat's groups stay as they were). A reach never goes down, for a merged group is as big as the
groups it swallowed; a cell next to a group of 5 is closed to that seat for good. Each seat's
legal cells are a list, for a uniform pick, with each cell's index in it, to take one out in
one step.
"""

from __future__ import annotations

from functools import cache, partial
from typing import TYPE_CHECKING, Callable

from referee.games.hermit.position import HermitState
from referee.geometry.grid import Grid

CLOSED = 6  # added to the reach of a cell next to a group of 5: closed, and reaches never fall
# reach → whether the seat may drop there (R-HE3): 0, 2 and 4. A reach starts at most at
# 6 × 5 and a drop adds at most CLOSED, on a board of fewer than 200 cells: none passes the end.
OPEN = (True, False, True, False, True) + (False,) * (6 * 5 + CLOSED * 200)

if TYPE_CHECKING:
    import random  # the caller brings its own generator

    # Told of each drop before it is made: the seat, the cell, and a function giving the
    # cells a seat may drop on at that moment (as `HermitState.legal_cells` lists them).
    Watch = Callable[[int, int, Callable[[int], list[int]]], None]


@cache
def _empty_board(grid: Grid) -> tuple[list[int], list[int]]:
    """A seat's reach and legal cells on the empty board, copied to start a playout."""
    return [0] * len(grid), list(range(len(grid)))


def _setup(state: HermitState) -> tuple[list, ...]:
    """The playout's structures for `state`: who owns each cell, each stone's group (hermits
    left out), each seat's count of hermits, threes and fives (index by seat), and each
    seat's reach per cell, legal cells, and the index of each cell among them (−1: not legal)."""
    owner = list(state.stones)
    n = len(owner)
    group: list[tuple[int, ...]] = [()] * n
    hermits, threes, fives = [0, 0, 0], [0, 0, 0], [0, 0, 0]
    zeros, every = _empty_board(state.grid)
    reaches = [[], list(zeros), list(zeros)]
    if not any(owner):
        legals = [[], list(every), list(every)]
        return owner, group, hermits, threes, fives, reaches, legals, [[], list(every), list(every)]
    neighbours = state.grid.neighbours
    for cell, seat in enumerate(owner):
        if not seat or group[cell]:
            continue
        reach = reaches[seat]
        for nb in neighbours[cell]:
            if owner[nb] == seat:
                break
        else:  # a hermit, most often
            hermits[seat] += 1
            for nb in neighbours[cell]:
                if not owner[nb]:
                    reach[nb] += 1
            continue
        cells, todo = [cell], [cell]
        while todo:
            for nb in neighbours[todo.pop()]:
                if owner[nb] == seat and nb not in cells:
                    cells.append(nb)
                    todo.append(nb)
        found = tuple(cells)
        for c in found:
            group[c] = found
        threes[seat] += len(found) == 3
        fives[seat] += len(found) == 5
        # A cell next to the group touches it once, however many of its stones it touches.
        more = len(found) if len(found) < 5 else CLOSED
        for nb in {nb for c in found for nb in neighbours[c] if not owner[nb]}:
            reach[nb] += more
    legals, places = [[], [], []], [[], [-1] * n, [-1] * n]
    for seat in (1, 2):
        reach, place = reaches[seat], places[seat]
        legals[seat] = legal = [c for c in range(n) if not owner[c] and OPEN[reach[c]]]
        for at, c in enumerate(legal):
            place[c] = at
    return owner, group, hermits, threes, fives, reaches, legals, places


def _legal_cells(legals: list[list[int]], left: list[int], banned: int | None, seat: int) -> list[int]:
    """The cells `seat` may drop on, in board order (as `HermitState.legal_cells`): its legal
    cells, none while it has no stone in hand, and not the `banned` one (R-HE2)."""
    return sorted(c for c in legals[seat] if c != banned) if left[seat] else []


def play_out(
    state: HermitState, rng: random.Random, limit: int, watch: Watch | None = None,
    codes: list[int] | None = None,
) -> tuple[float, float] | HermitState:
    """Uniformly random legal drops from `state` until neither seat can drop (R-HE4), a seat
    that cannot drop passing (R-G3): what the end is worth to each seat, as `Hermit.outcome`
    judges it. After `limit` drops with the game still on, the position reached instead.
    `codes`, where given, hears each drop's code (`Hermit.action_code`): (seat − 1) × cells
    + cell."""
    owner, group, hermits, threes, fives, reaches, legals, places = _setup(state)
    neighbours = state.grid.neighbours
    centre = state.centre
    first = state.last_placer is None  # the first stone avoids the centre (R-HE2)
    last = state.last_placer
    left = [0, *state.left]  # stones in hand, index by seat
    turn = state.turn
    getrandbits = rng.getrandbits
    sides = (None, (reaches[1], legals[1], places[1]), (reaches[2], legals[2], places[2]))
    for _ in range(limit):
        seat = turn
        # A seat with no stone in hand or no legal cell passes (R-G3); the game ends when both
        # do (R-HE4). Only the first stone has one more rule (R-HE2).
        if not (left[seat] and legals[seat]) or first and legals[seat] == [centre]:
            seat = 3 - seat
            if not (left[seat] and legals[seat]) or first and legals[seat] == [centre]:
                break
        reach, legal, place = sides[seat]
        # rng.choice(legal), spelt out (the same draws), without its two calls a drop.
        size = len(legal)
        bits = size.bit_length()
        pick = getrandbits(bits)
        while pick >= size or first and legal[pick] == centre:
            pick = getrandbits(bits)
        cell = legal[pick]
        if watch is not None:
            watch(seat, cell, partial(_legal_cells, legals, left, centre if first else None))
        if codes is not None:
            codes.append(cell if seat == 1 else len(owner) + cell)
        first = False
        last = seat
        turn = 3 - seat
        left[seat] -= 1
        owner[cell] = seat
        # The cell is nobody's to drop on now: out of the mover's legal cells, where it was
        # picked, and out of the other seat's.
        moved = legal.pop()
        if moved != cell:
            legal[pick] = moved
            place[moved] = pick
        place[cell] = -1
        _, others, elsewhere = sides[turn]
        at = elsewhere[cell]
        if at >= 0:
            moved = others.pop()
            if moved != cell:
                others[at] = moved
                elsewhere[moved] = at
            elsewhere[cell] = -1
        grown = reach[cell]
        if grown == 0:
            # A new hermit: each empty neighbour touches one stone more, and its reach, up to
            # 5, goes from open to closed or back (0, 2, 4 open; 1, 3, 5 closed).
            hermits[seat] += 1
            for nb in neighbours[cell]:
                if owner[nb]:
                    continue
                after = reach[nb] = reach[nb] + 1
                if after > 5:
                    continue  # closed before, closed still
                if after & 1:
                    at = place[nb]
                    moved = legal.pop()
                    if moved != nb:
                        legal[at] = moved
                        place[moved] = at
                    place[nb] = -1
                else:
                    place[nb] = len(legal)
                    legal.append(nb)
            continue
        if grown == 2:
            # Two hermits and this stone make a three: a neighbour of the new group touches it
            # once, in place of whichever of the two hermits it touched.
            h1, h2 = [nb for nb in neighbours[cell] if owner[nb] == seat]
            group[cell] = group[h1] = group[h2] = (cell, h1, h2)
            hermits[seat] -= 2
            threes[seat] += 1
            more = {nb: 3 for nb in neighbours[cell] if not owner[nb]}
            for nb in neighbours[h1]:
                if not owner[nb]:
                    more[nb] = more.get(nb, 3) - 1
            for nb in neighbours[h2]:
                if not owner[nb]:
                    more[nb] = more.get(nb, 3) - 1
            changes = more.items()
        else:
            # A five, of this stone and a hermit and a three, or of four hermits: every empty
            # cell next to it is closed to the seat.
            joined = {group[nb] or (nb,) for nb in neighbours[cell] if owner[nb] == seat}
            three = sum(len(g) == 3 for g in joined)
            hermits[seat] -= len(joined) - three
            threes[seat] -= three
            fives[seat] += 1
            five = [cell, *(c for g in joined for c in g)]
            changes = [(nb, CLOSED) for nb in {nb for c in five for nb in neighbours[c] if not owner[nb]}]
        for nb, more in changes:
            before = reach[nb]
            after = reach[nb] = before + more
            if OPEN[before] == OPEN[after]:
                continue
            if OPEN[after]:
                place[nb] = len(legal)
                legal.append(nb)
            else:
                at = place[nb]
                moved = legal.pop()
                if moved != nb:
                    legal[at] = moved
                    place[moved] = at
                place[nb] = -1
    else:
        banned = centre if first else None
        if _legal_cells(legals, left, banned, 1) or _legal_cells(legals, left, banned, 2):
            # `limit` drops, and the game goes on
            return HermitState(state.grid, centre, tuple(owner), (left[1], left[2]), turn, last)
    # R-HE5: most groups, then most hermits, then most threes, then the last placer.
    groups = [0, *(hermits[seat] + threes[seat] + fives[seat] for seat in (1, 2))]
    for counts in (groups, hermits, threes):
        if counts[1] != counts[2]:
            return (1.0, 0.0) if counts[1] > counts[2] else (0.0, 1.0)
    return (1.0 if last == 1 else 0.0, 1.0 if last == 2 else 0.0)
