"""A Harmijan turn (R-HJ2…R-HJ5): a stone slides, keeping in touch with exactly one friendly
creature, and a stone is then placed in its line of sight. Each rule is written once here, in
`joined` (where a stone may go), `may_place` (where a stone may then be placed) and the two walks
along the board's lines that ask them (`slides`, `placements`); the rest only asks them:

- the search for a turn (`turns`, `has_turn`): a pass must prove that there is none (R-HJ5), so
  it runs over every stone and line at every pass, at the end, and in the engine's search;
- the quick yes that a played turn usually gets (`allows`);
- the words of a refusal (`refusal`), worked out only when the quick check says no.

The functions take the stones and the board, not a position, so that the position can ask them
whether a colour can turn without a circle of imports.
"""

from __future__ import annotations

from typing import Iterator, Mapping, Sequence

from referee.games.harmijan.creatures import EMPTY, Creatures, lifted
from referee.games.harmijan.moves import Turn
from referee.games.harmijan.scoring import COLOUR
from referee.geometry.hexhex import HexHexGrid

NUMBER_WORDS = {0: "no", 1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}

Labels = Mapping[int, int]  # stone → its creature, the mover lifted (creatures.lifted)


# -- the rules, each once ------------------------------------------------------------------------


def alone(stones: Sequence[int], neighbours: tuple[tuple[int, ...], ...], cell: int) -> bool:
    """Whether the stone on `cell` is a one-stone creature, which cannot move (R-HJ2)."""
    colour = stones[cell]
    for nb in neighbours[cell]:
        if stones[nb] == colour:
            return False
    return True


def joined(stones: Sequence[int], neighbours: tuple[tuple[int, ...], ...], labels: Labels,
           mover: int, cell: int) -> int | None:
    """The one friendly creature that the stone from `mover` touches on `cell`, the mover lifted
    (R-HJ3); None when it touches none or several, and so may not enter `cell`."""
    colour, one = stones[mover], None
    for nb in neighbours[cell]:
        if nb != mover and stones[nb] == colour:
            creature = labels[nb]
            if one not in (None, creature):
                return None  # a second one: the search asks this most often, so it stops here
            one = creature
    return one


def may_place(stones: Sequence[int], neighbours: tuple[tuple[int, ...], ...], labels: Labels,
              mover: int, cell: int, moved: int) -> bool:
    """Whether a stone may be placed on `cell`, in line of sight from the moved stone but not
    beside it, once the stone from `mover` has joined creature `moved` (R-HJ4): it touches no
    stone of that creature, and at most one other friendly creature (it may extend one)."""
    colour, other = stones[mover], None
    for nb in neighbours[cell]:
        if nb != mover and stones[nb] == colour:
            creature = labels[nb]
            if creature == moved or other not in (None, creature):
                return False
            other = creature
    return True


def slides(stones: Sequence[int], neighbours: tuple[tuple[int, ...], ...], labels: Labels,
           mover: int, rays: Sequence[tuple[int, ...]]) -> Iterator[tuple[int, int]]:
    """Each cell the stone on `mover` may end its move on along `rays` (its rays on the board),
    with the creature it joins there (R-HJ3): every cell it enters must be one it may enter;
    every cell before the last is empty; the last is empty or holds an enemy stone, bitten."""
    colour = stones[mover]
    for ray in rays:
        for end in ray:
            target = stones[end]
            if target == colour:
                break
            moved = joined(stones, neighbours, labels, mover, end)
            if moved is None:
                break
            yield end, moved
            if target != EMPTY:
                break  # a bite ends the move


def placements(stones: Sequence[int], neighbours: tuple[tuple[int, ...], ...], labels: Labels,
               mover: int, moved: int, sights: Sequence[tuple[int, ...]],
               only: int | None = None) -> Iterator[int]:
    """Each cell where a stone may be placed along `sights` (rays from the moved stone's cell)
    once the stone from `mover` has moved there and joined creature `moved` (R-HJ4): in line of
    sight, with only empty cells between (the mover's old cell is empty now). With `only`, that
    cell alone is judged: the cells on the way to it need only be empty."""
    for ray in sights:
        if not ray or ray[0] != mover and stones[ray[0]] != EMPTY:
            continue  # no line of sight this way
        # The first cell of a line touches the moved stone, so it is never a placement; most
        # lines end there, so it is passed without looking at its neighbours.
        for cell in ray[1:]:
            if cell != mover and stones[cell] != EMPTY:
                break  # out of sight beyond a stone
            if (only is None or cell == only) and may_place(stones, neighbours, labels, mover, cell, moved):
                yield cell


# -- asked three ways ---------------------------------------------------------------------------


def turns(stones: Sequence[int], grid: HexHexGrid, colour: int) -> Iterator[tuple[int, int, int]]:
    """Every legal turn of `colour` as (mover, end, placement), lazily: `has_turn` stops at the
    first (R-HJ5)."""
    neighbours, rays = grid.neighbours, grid.rays
    whole = Creatures(stones, neighbours)
    for mover, stone in enumerate(stones):
        if stone != colour or alone(stones, neighbours, mover):
            continue
        labels = lifted(stones, grid, mover, whole)
        for end, moved in slides(stones, neighbours, labels, mover, rays[mover]):
            for place in placements(stones, neighbours, labels, mover, moved, rays[end]):
                yield mover, end, place


def has_turn(stones: Sequence[int], grid: HexHexGrid, colour: int) -> bool:
    """Whether `colour` has a legal turn (R-HJ5)."""
    for _ in turns(stones, grid, colour):
        return True
    return False


def allows(stones: Sequence[int], grid: HexHexGrid, colour: int, turn: Turn) -> bool:
    """Whether `turn` is a legal turn of `colour`: the rules asked along the turn's own lines
    only, the quick yes that a played turn usually gets."""
    neighbours, rays = grid.neighbours, grid.rays
    start, end, place = turn.start, turn.end, turn.place
    line = grid.line(start, end)
    if stones[start] != colour or line is None or alone(stones, neighbours, start):
        return False
    labels = lifted(stones, grid, start)
    for reached, moved in slides(stones, neighbours, labels, start, (rays[start][line],)):
        if reached == end:
            break
    else:
        return False
    sight = grid.line(end, place)
    return ((stones[end] != EMPTY) == turn.bite and sight is not None
            and place in placements(stones, neighbours, labels, start, moved, (rays[end][sight],), place))


def refusal(stones: Sequence[int], grid: HexHexGrid, colour: int, seat: int, turn: Turn) -> str | None:
    """Why `turn` is not a legal turn of `colour` (played by `seat`), naming the first rule it
    breaks; None when it is legal. The verdict is `allows`'s; the rest finds where the turn
    leaves the rules and says so."""
    if allows(stones, grid, colour, turn):
        return None
    name, neighbours = grid.name, grid.neighbours
    start, end, place = turn.start, turn.end, turn.place
    mine, theirs = COLOUR[colour], COLOUR[3 - colour]
    slide = turn.slide
    if stones[start] != colour:
        holds = "no stone" if stones[start] == EMPTY else f"a {theirs} stone"
        return f"{slide}: {name(start)} holds {holds}; {mine} (seat {seat}) is to move (R-HJ3)"
    if alone(stones, neighbours, start):
        return f"{slide}: the stone on {name(start)} is a one-stone creature and cannot move (R-HJ2)"
    line = grid.line(start, end)
    if line is None:
        where = "is the start" if start == end else f"is not in a straight line from {name(start)}"
        return f"{slide}: {name(end)} {where}; a stone moves along one of the 6 lines (R-HJ3)"
    labels = lifted(stones, grid, start)
    ray = grid.rays[start][line]
    reached = [cell for cell, _ in slides(stones, neighbours, labels, start, (ray,))]
    if end not in reached:
        if reached and stones[reached[-1]] != EMPTY:
            return (f"{slide}: {name(reached[-1])} holds a {theirs} stone; a move passes only "
                    "through empty cells, and a bite ends it (R-HJ3)")
        stop = ray[len(reached)]
        if stones[stop] == colour:
            return f"{slide}: {name(stop)} holds a {mine} stone (R-HJ3)"
        n = len(_touched(stones, neighbours, labels, start, stop))
        creatures = f"{NUMBER_WORDS.get(n, n)} {mine} creature" + ("s" if n > 1 else "")
        return f"{slide}: {name(stop)} touches {creatures} (R-HJ3)"
    if stones[end] != EMPTY and not turn.bite:
        return f"{slide}: {name(end)} holds a {theirs} stone: a bite is written {name(start)}x{name(end)} (R-HJ3)"
    if stones[end] == EMPTY and turn.bite:
        return f"{slide}: {name(end)} is empty, so there is nothing to bite: write {name(start)}-{name(end)} (R-HJ3)"
    moved = joined(stones, neighbours, labels, start, end)
    if next(placements(stones, neighbours, labels, start, moved, grid.rays[end]), None) is None:
        return f"{slide}: no placement is legal after this move, so the move is illegal (R-HJ5)"
    towards = grid.line(end, place)
    if towards is None:
        where = "is the moved stone's cell" if place == end else f"is not in a straight line from {name(end)}"
        return f"{turn}: {name(place)} {where} (R-HJ4)"
    for cell in grid.rays[end][towards]:  # the line of sight, the mover's old cell empty now
        if cell != start and stones[cell] != EMPTY:
            if cell == place:
                return f"{turn}: {name(cell)} is occupied (R-HJ4)"
            return (f"{turn}: {name(cell)} stands between {name(end)} and {name(place)}; a stone is "
                    "placed in line of sight (R-HJ4)")
        if cell == place:
            break
    touched = _touched(stones, neighbours, labels, start, place)
    if end in neighbours[place] or moved in touched:
        return f"{turn}: {name(place)} touches the creature of the moved stone (R-HJ4)"
    many = NUMBER_WORDS.get(len(touched), str(len(touched)))
    return f"{turn}: {name(place)} touches {many} {mine} creatures (R-HJ4: it may extend only one)"


def _touched(stones: Sequence[int], neighbours: tuple[tuple[int, ...], ...], labels: Labels,
             mover: int, cell: int) -> set[int]:
    """The friendly creatures a stone on `cell` touches, the mover lifted: for the words of a
    refusal only; whether it may go there is `joined`'s and `may_place`'s to say."""
    colour = stones[mover]
    return {labels[nb] for nb in neighbours[cell] if nb != mover and stones[nb] == colour}
