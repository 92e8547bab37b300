"""Harmijan played out at random, fast, for a search (base.py, section 4: `playout`).

The referee's own hooks list every turn at every ply and build a position per ply; a playout
needs neither. It keeps one mutable board (`Board`, with its creatures kept turn by turn) and
draws a turn from the top down: a random stone of the colour to move, a random one of its
slides, a random one of the placements after that slide; a stone or slide that leads nowhere
is dropped and another drawn. Every slide and
placement comes from movement.py's walks (`slides`, `placements`), the one statement of a
turn's rule (R-HJ3, R-HJ4), so a turn drawn here is one the referee allows.

The draw is not uniform over turns (a stone with one turn is drawn as often as one with
twenty), but every legal turn can be drawn, and a colour passes only when every one of its
stones has been tried and none can turn (R-HJ5, R-G3): the game played is a legal game.
Repetitions are counted as the position counts them (R-HJ8), and the end is scored by
scoring.py (R-HJ6, R-HJ7).
"""

from __future__ import annotations

import random
from typing import Callable

from referee.games.harmijan.creatures import EMPTY, rings, stays_joined
from referee.games.harmijan.movement import alone, placements, slides
from referee.games.harmijan.position import HarmijanState
from referee.games.harmijan.scoring import BLACK, WHITE, ShapeClass, compare, shape_form
from referee.geometry.hexhex import HexHexGrid

# A search's playout is cut after this many plies and the position scored as it stands (the
# share of the classes' worth, Game.evaluate): a hundred random plies to the end wander, and
# cost the search nine in ten of its iterations. At 0.3 s a move, size 6, seats alternating,
# the search cut after 12 plies scored 11 of 12 games against itself playing to the end.
PLIES = 12

Drawn = tuple[int, int, int]  # (mover, end, placement), as movement.turns gives a turn


class Board:
    """The stones of a playout, changed in place, with each stone's creature (R-HJ2) kept up
    to date turn by turn rather than found again at every ply. A turn never joins two
    creatures — the moved stone joins exactly one (R-HJ3), the placed stone extends at most one
    other (R-HJ4) — so a stone that arrives takes its neighbour's label; only a stone that
    leaves (the mover, a bitten stone) can split its creature, and then that creature alone is
    labelled again."""

    __slots__ = ("grid", "stones", "labels", "cells", "fresh")

    def __init__(self, grid: HexHexGrid, stones: tuple[int, ...] | list[int]):
        self.grid = grid
        self.stones = list(stones)
        self.labels = grid.component_labels(self.stones)[0]  # creature number per cell, −1 if empty
        self.fresh = len(self.labels)  # above every number in use
        self.cells = {colour: {c for c, v in enumerate(self.stones) if v == colour} for colour in (BLACK, WHITE)}

    def _relabel(self, labels: list[int], gone: int) -> None:
        """Label again the creature that the stone on `gone` belonged to, without that stone,
        from its stones beside `gone` (each piece it falls into is reached from one of them)."""
        neighbours, stones = self.grid.neighbours, self.stones
        colour = stones[gone]
        seen = {gone}
        for start in neighbours[gone]:
            if stones[start] != colour or start in seen:
                continue
            number, self.fresh = self.fresh, self.fresh + 1
            seen.add(start)
            labels[start] = number
            stack = [start]
            while stack:
                for nb in neighbours[stack.pop()]:
                    if nb not in seen and stones[nb] == colour:
                        seen.add(nb)
                        labels[nb] = number
                        stack.append(nb)

    def lifted(self, mover: int) -> list[int]:
        """The creatures with the stone on `mover` lifted off the board (R-HJ3): the labels as
        they are when its friendly neighbours stay joined without it, else a copy with its
        creature labelled again."""
        if stays_joined(self.stones, mover, rings(self.grid)[mover]):
            return self.labels
        labels = list(self.labels)
        self._relabel(labels, mover)
        return labels

    def _remove(self, cell: int) -> None:
        stones = self.stones
        if not stays_joined(stones, cell, rings(self.grid)[cell]):
            self._relabel(self.labels, cell)
        self.cells[stones[cell]].discard(cell)
        stones[cell] = EMPTY
        self.labels[cell] = -1

    def _add(self, cell: int, colour: int) -> None:
        stones, labels = self.stones, self.labels
        stones[cell] = colour
        self.cells[colour].add(cell)
        for nb in self.grid.neighbours[cell]:
            if stones[nb] == colour:
                labels[cell] = labels[nb]  # the one creature it joins (R-HJ3, R-HJ4)
                return
        labels[cell], self.fresh = self.fresh, self.fresh + 1

    def play(self, colour: int, drawn: Drawn) -> None:
        """Make the turn: the stone moves (biting what stands on its end), a stone is placed."""
        mover, end, place = drawn
        self._remove(mover)
        if self.stones[end] != EMPTY:
            self._remove(end)  # the bite (R-HJ3)
        self._add(end, colour)
        self._add(place, colour)

    def random_turn(self, colour: int, rng: random.Random) -> Drawn | None:
        """A legal turn of `colour`, drawn stone first, then slide, then placement; None when
        the colour has none (R-HJ5), which only a try of every stone can tell."""
        stones, grid = self.stones, self.grid
        neighbours, rays = grid.neighbours, grid.rays
        movers = sorted(self.cells[colour])  # in board order: a set's order is no seed's
        draw = rng.random
        while movers:
            k = int(draw() * len(movers))
            mover = movers[k]
            movers[k] = movers[-1]
            movers.pop()
            if alone(stones, neighbours, mover):
                continue  # a one-stone creature cannot move (R-HJ2)
            labels = self.lifted(mover)
            ends = list(slides(stones, neighbours, labels, mover, rays[mover]))
            while ends:
                k = int(draw() * len(ends))
                end, moved = ends[k]
                ends[k] = ends[-1]
                ends.pop()
                places = list(placements(stones, neighbours, labels, mover, moved, rays[end]))
                if places:
                    return mover, end, places[int(draw() * len(places))]
        return None


class Repetitions:
    """The positions counted for R-HJ8 since the number of stones last changed: a turn never
    lowers it (position.Counted), so no earlier position can come back. Seeded from the
    state's own count, so a playout ends where the referee's game would."""

    def __init__(self, state: HarmijanState):
        self.placed = len(state.stones) - state.stones.count(EMPTY)
        self.times: dict[tuple[tuple[int, ...], int], int] = {}
        for node in state.history or ():
            if node.placed != self.placed:
                break
            self.times.setdefault((node.stones, node.turn), node.times)

    def third(self, stones: list[int], colour: int) -> bool:
        """Count the position of `stones` with `colour` to move; True at its third time."""
        placed = len(stones) - stones.count(EMPTY)
        if placed != self.placed:
            self.placed, self.times = placed, {}
        key = (tuple(stones), colour)
        times = self.times[key] = self.times.get(key, 0) + 1
        return times >= 3


class Ended:
    """Where a playout stopped: the stones, the colour whose turn it was by alternation, how
    many plies were played, and whether the game was over there."""

    __slots__ = ("stones", "turn", "plies", "over")

    def __init__(self, stones: list[int], turn: int, plies: int, over: bool):
        self.stones, self.turn, self.plies, self.over = stones, turn, plies, over


def play(state: HarmijanState, rng: random.Random, limit: int,
         log: Callable[[Drawn | None], None] | None = None) -> Ended:
    """Random turns from `state` (a position in play) until the game ends — no colour can turn
    (R-HJ5, R-G3) or a position stands for the third time (R-HJ8) — or `limit` turns have
    been played. `log` hears each ply: a turn, or None for a pass."""
    board, colour = Board(state.grid, state.stones), state.turn
    stones = board.stones
    if state.repeated:
        return Ended(stones, colour, 0, True)
    seen = Repetitions(state)
    plies = 0
    while plies < limit:
        drawn = board.random_turn(colour, rng)
        if drawn is None:
            drawn = board.random_turn(3 - colour, rng)
            if drawn is None:
                return Ended(stones, colour, plies, True)  # neither colour can turn
            # The pass is implied and counted like a written one (R-HJ8).
            if log is not None:
                log(None)
            plies += 1
            colour = 3 - colour
            if seen.third(stones, colour):
                return Ended(stones, colour, plies, True)
        if log is not None:
            log(drawn)
        board.play(colour, drawn)
        plies += 1
        colour = 3 - colour
        if seen.third(stones, colour):
            return Ended(stones, colour, plies, True)
    return Ended(stones, colour, plies, False)


# A creature's shape under the 12 symmetries costs a dozen sorted images (scoring.shape_form);
# the same few small shapes end every playout, so each is worked out once, by its cells
# translated to the origin. Bounded: a long search meets many shapes, but not unboundedly.
_FORMS: dict[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]] = {}
_MAX_FORMS = 50_000


def worths(grid: HexHexGrid, groups: list[list[int]], stones: list[int] | tuple[int, ...],
           colour: int) -> list[ShapeClass]:
    """The colour's shape classes in the order R-HJ7 compares them, as scoring.shape_classes
    gives them but without the creatures' cells (the comparison needs sizes and worths)."""
    coords = grid.coords
    counts: dict[tuple[tuple[int, int], ...], int] = {}
    for cells in groups:
        if stones[cells[0]] != colour:
            continue
        points = sorted(coords[c] for c in cells)
        q0, r0 = points[0]
        key = tuple((q - q0, r - r0) for q, r in points)
        form = _FORMS.get(key)
        if form is None:
            form = shape_form(points)
            if len(_FORMS) < _MAX_FORMS:
                _FORMS[key] = form
        counts[form] = counts.get(form, 0) + 1
    classes = [ShapeClass(len(form), n, ()) for form, n in counts.items()]
    return sorted(classes, key=lambda k: (-k.size, -k.worth))


def winner(grid: HexHexGrid, stones: list[int] | tuple[int, ...]) -> int | None:
    """The colour that wins with these stones (R-HJ6, R-HJ7), None for a draw."""
    groups = grid.component_labels(stones)[1]
    return compare(worths(grid, groups, stones, BLACK), worths(grid, groups, stones, WHITE))[0]


def lead(grid: HexHexGrid, stones: list[int] | tuple[int, ...]) -> tuple[int | None, int]:
    """The colour ahead if the game ended with these stones (R-HJ7), None when level, and by
    how much: the difference of worth in the first class where the lists differ (0 when one
    list merely runs out first)."""
    groups = grid.component_labels(stones)[1]
    black, white = worths(grid, groups, stones, BLACK), worths(grid, groups, stones, WHITE)
    for b, w in zip(black, white):
        if b.worth != w.worth:
            return (BLACK if b.worth > w.worth else WHITE), abs(b.worth - w.worth)
    if len(black) != len(white):
        return (BLACK if len(black) > len(white) else WHITE), 0
    return None, 0


def black_share(grid: HexHexGrid, stones: list[int] | tuple[int, ...]) -> float:
    """A guess at black's chance in an unfinished game (R-HJ7's comparison as it stands):
    the side ahead is favoured, the more so the fuller the board and the larger the lead.
    Random games from a position with a lead end with the same side ahead only a little more
    often than not — about 53 % with 60 empty cells of 91, 58–81 % with 30 — so the guess
    stays near even until the board fills."""
    ahead, margin = lead(grid, stones)
    if ahead is None:
        return 0.5
    fill = 1 - stones.count(EMPTY) / len(stones)
    edge = fill * fill * (0.2 + 0.02 * min(margin, 10))
    return 0.5 + edge if ahead == BLACK else 0.5 - edge
