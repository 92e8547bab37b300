"""Harmijan (Saïd Galdseid 2023): slide a stone so that it keeps touching exactly one friendly
creature, maybe biting an enemy stone, then place a stone in its line of sight; at the end the
creatures are grouped by shape and the shape classes are compared (R-HJ1…R-HJ8, R-G3).

Plies: seat 1 sets up one black and one white creature of two stones, seat 2 chooses a colour,
then black and white alternate turns; a colour that cannot turn passes (R-HJ1, R-HJ5, R-G3).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cache
from types import MappingProxyType
from typing import Any, Iterator, Mapping

from referee.errors import IllegalMoveError, NotationError
from referee.games.base import CanAct, Game, Move, Option, Outcome, Pass, count
from referee.games.harmijan.position import EMPTY, Counted, Creatures, once, stays_joined
from referee.games.harmijan.scoring import BLACK, COLOUR, WHITE, ShapeClass, compare, shape_form
from referee.geometry.hexhex import HexHexGrid, hexhex_grid
from referee.picture import Picture, PieceKind

LETTER = {BLACK: "b", WHITE: "w"}
GLYPH = {BLACK: "X", WHITE: "O"}
NUMBER_WORDS = {0: "no", 1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}

_CELL = r"([a-z]\d{1,2})"
_SETUP = re.compile(
    rf"\s*setup\s+([bw])\s+{_CELL}\s+{_CELL}\s+([bw])\s+{_CELL}\s+{_CELL}\s*", re.IGNORECASE
)
_TURN = re.compile(rf"\s*{_CELL}\s*([-x])\s*{_CELL}\s+{_CELL}\s*", re.IGNORECASE)


# -- moves -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Setup(Move):
    """Seat 1's opening ply: a black and a white pair of adjacent stones (R-HJ1)."""

    black: tuple[int, int]  # each pair in board order
    white: tuple[int, int]
    names: tuple[str, str, str, str]  # black pair, then white pair

    def __str__(self) -> str:
        b1, b2, w1, w2 = self.names
        return f"setup b {b1} {b2} w {w1} {w2}"


@dataclass(frozen=True)
class Choice(Move):
    """Seat 2's colour choice (R-HJ1)."""

    colour: int

    def __str__(self) -> str:
        return COLOUR[self.colour]


@dataclass(frozen=True)
class Turn(Move):
    """Move a stone from `start` to `end` (biting the enemy stone there when `bite`), then place
    a stone on `place` (R-HJ3, R-HJ4)."""

    start: int
    end: int
    place: int
    bite: bool
    names: tuple[str, str, str]

    @property
    def slide(self) -> str:
        """The move part alone, as error messages name it: 'c4-c6', 'c4xc7'."""
        return f"{self.names[0]}{'x' if self.bite else '-'}{self.names[1]}"

    def __str__(self) -> str:
        return f"{self.slide} {self.names[2]}"


@dataclass(frozen=True)
class Step:
    """One cell a moving stone enters: the friendly creature it touches there (an id valid only
    for this lifted mover), whether it bites there, or why it cannot enter (R-HJ3)."""

    cell: int
    creature: int = -1
    bite: bool = False
    problem: str | None = None


@dataclass(frozen=True)
class HarmijanState:
    grid: HexHexGrid
    stones: tuple[int, ...]  # per cell: EMPTY, BLACK or WHITE
    set_up: bool = False  # seat 1 has made the setup ply
    black_seat: int | None = None  # None until seat 2 chooses (R-HJ1)
    turn: int = BLACK  # the colour whose turn it is by alternation, before any pass
    history: Counted | None = field(default=None, repr=False)  # the last position counted (R-HJ8)
    repeated: bool = False  # the position now stands for the third time (R-HJ8)

    @property
    def phase(self) -> str:
        if not self.set_up:
            return "setup"
        return "choice" if self.black_seat is None else "play"

    def seat_of(self, colour: int) -> int:
        return self.black_seat if colour == BLACK else 3 - self.black_seat

    def colour_of(self, seat: int) -> int:
        return BLACK if seat == self.black_seat else WHITE

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

    # -- creatures (R-HJ2) -----------------------------------------------------------------

    @once
    def creature_labels(self) -> tuple[list[int], list[list[int]]]:
        """Each cell's creature id (−1 when empty) and each creature's cells, once per position:
        for the listing's order and the score; checking one turn needs only `lifted`."""
        return self.grid.component_labels(self.stones)

    def creatures(self, colour: int) -> list[list[int]]:
        label, members = self.creature_labels
        return [cells for cells in members if self.stones[cells[0]] == colour]

    def lifted(self, mover: int, whole: Creatures | None = None) -> Mapping[int, int]:
        """Stone → its creature with the mover lifted off the board (R-HJ3), for the stones of
        the mover's colour but the mover. `whole`: the creatures of the board as it stands, for
        a search that lifts one stone after another; they serve as they are when the mover's
        friendly neighbours stay joined without it."""
        if whole is not None and stays_joined(self.stones, mover, self.grid.rays[mover]):
            return whole
        return Creatures(self.stones, self.grid.neighbours, lifted=mover, whole=whole)

    # -- the move (R-HJ3) -------------------------------------------------------------------

    def walk(self, mover: int, direction: tuple[int, int], labels: Mapping[int, int]) -> Iterator[Step]:
        """The cells the stone on `mover` can enter in `direction`, in order; the walk ends
        after a bite or with a Step that names why the stone cannot go on."""
        colour = self.stones[mover]
        name = self.grid.name
        for cell in self.grid.rays[mover][self.grid.directions.index(direction)]:
            if self.stones[cell] == colour:
                yield Step(cell, problem=f"{name(cell)} holds a {COLOUR[colour]} stone (R-HJ3)")
                return
            touched = {
                labels[nb]
                for nb in self.grid.neighbours[cell]
                if nb != mover and self.stones[nb] == colour
            }
            if len(touched) != 1:
                n = len(touched)
                creatures = f"{NUMBER_WORDS.get(n, n)} {COLOUR[colour]} creature" + ("s" if n > 1 else "")
                yield Step(cell, problem=f"{name(cell)} touches {creatures} (R-HJ3)")
                return
            bite = self.stones[cell] != EMPTY
            yield Step(cell, touched.pop(), bite)
            if bite:
                return

    # -- the placement (R-HJ4) --------------------------------------------------------------

    def placements(
        self, mover: int, step: Step, labels: Mapping[int, int]
    ) -> Iterator[tuple[int, str | None]]:
        """Every empty cell in a straight line of sight from the moved stone, each with why a
        stone may not go there (None when it may), once the move `mover` → `step` is made."""
        colour, end = self.stones[mover], step.cell

        def stone(cell: int) -> int:  # the board after the move (and the bite)
            if cell == end:
                return colour
            return EMPTY if cell == mover else self.stones[cell]

        for ray in self.grid.rays[end]:
            for cell in ray:
                if stone(cell) != EMPTY:
                    break
                touched = {
                    step.creature if nb == end else labels[nb]
                    for nb in self.grid.neighbours[cell]
                    if stone(nb) == colour
                }
                yield cell, _placement_problem(self.grid.name(cell), colour, touched, step.creature)

    def allows(self, colour: int, turn: Turn) -> bool:
        """Whether `turn` is a legal turn of `colour` (R-HJ2…R-HJ4): the quick yes that a
        played turn usually gets, without building steps or reasons; `Harmijan._check_turn`
        finds the reason for a no with `walk` and `placements`."""
        stones, grid, neighbours = self.stones, self.grid, self.grid.neighbours
        start, end, place = turn.start, turn.end, turn.place
        line = grid.line(start, end)
        if stones[start] != colour or line is None or colour not in [stones[nb] for nb in neighbours[start]]:
            return False  # not the colour's stone, no straight line, or a one-stone creature
        labels = self.lifted(start)
        for cell in grid.rays[start][line]:  # the path (R-HJ3)
            target = stones[cell]
            moved = self._joined(start, cell, labels)
            if target == colour or moved is None or (cell != end and target != EMPTY):
                return False
            if cell == end:
                break
        if (target != EMPTY) != turn.bite:
            return False
        line = grid.line(end, place)  # the placement (R-HJ4)
        if line is None:
            return False
        for cell in grid.rays[end][line]:
            if cell != start and stones[cell] != EMPTY:
                return False
            if cell == place:
                break
        touched = {labels[nb] for nb in neighbours[place] if nb != start and stones[nb] == colour}
        return end not in neighbours[place] and moved not in touched and len(touched) <= 1

    def slides(self, colour: int) -> Iterator[tuple[int, Step, Mapping[int, int]]]:
        """Every move the walk allows `colour` (R-HJ2, R-HJ3), lazily, as (mover, step, the
        creature labels with the mover lifted); placements are not looked at yet."""
        whole = Creatures(self.stones, self.grid.neighbours)
        for cells in self.creatures(colour):
            if len(cells) < 2:
                continue  # R-HJ2: a one-stone creature cannot move
            for mover in cells:
                labels = self.lifted(mover, whole)
                for direction in self.grid.directions:
                    for step in self.walk(mover, direction, labels):
                        if step.problem:
                            break
                        yield mover, step, labels

    def turns(self, colour: int) -> Iterator[Turn]:
        """Every legal turn of `colour`, lazily (so `can_turn` stops at the first)."""
        names = self.grid.names
        for mover, step, labels in self.slides(colour):
            for place, problem in self.placements(mover, step, labels):
                if problem is None:
                    yield Turn(
                        mover, step.cell, place, step.bite,
                        (names[mover], names[step.cell], names[place]),
                    )

    def has_turn(self, colour: int) -> bool:
        """Whether `colour` has a legal turn (R-HJ5): the search of `turns`, stopping at the
        first, without building turns, steps or reasons. A pass must prove that there is none,
        so this search runs over every stone and line at every pass and at the end."""
        stones, neighbours, rays = self.stones, self.grid.neighbours, self.grid.rays
        whole = Creatures(stones, neighbours)
        for mover, stone in enumerate(stones):
            if stone != colour or colour not in [stones[nb] for nb in neighbours[mover]]:
                continue  # not the colour's, or a one-stone creature (R-HJ2)
            labels = self.lifted(mover, whole)
            for ray in rays[mover]:
                for end in ray:  # the walk (R-HJ3)
                    target = stones[end]
                    if target == colour:
                        break
                    moved = None  # `_joined`, written out: the search asks it most often
                    for nb in neighbours[end]:
                        if nb != mover and stones[nb] == colour:
                            creature = labels[nb]
                            if moved not in (None, creature):
                                moved = None
                                break
                            moved = creature
                    if moved is None:
                        break  # touches no friendly creature, or two
                    if self._can_place(mover, end, moved, labels):
                        return True
                    if target != EMPTY:
                        break  # a bite ends the move
        return False

    def _joined(self, mover: int, cell: int, labels: Mapping[int, int]) -> int | None:
        """The one friendly creature the stone from `mover` touches on `cell` (R-HJ3); None
        when it touches none or several."""
        stones, colour = self.stones, self.stones[mover]
        joined = None
        for nb in self.grid.neighbours[cell]:
            if nb != mover and stones[nb] == colour:
                creature = labels[nb]
                if joined not in (None, creature):
                    return None
                joined = creature
        return joined

    def _can_place(self, mover: int, end: int, moved: int, labels: Mapping[int, int]) -> bool:
        """Whether some placement is legal once the stone on `mover` has moved to `end`, where
        it joined creature `moved` (R-HJ4): `placements` without the reasons."""
        stones, neighbours, colour = self.stones, self.grid.neighbours, self.stones[mover]
        for ray in self.grid.rays[end]:
            if not ray or ray[0] != mover and stones[ray[0]] != EMPTY:
                continue  # no line of sight this way
            # The first cell of a line touches the moved stone, so it is never a placement;
            # most lines end there, so it is passed without looking at its neighbours.
            for cell in ray[1:]:
                if cell != mover and stones[cell] != EMPTY:
                    break  # out of sight beyond a stone
                other = None  # the one friendly creature the new stone may touch
                for nb in neighbours[cell]:
                    if nb != mover and stones[nb] == colour:
                        creature = labels[nb]
                        if creature == moved or other not in (None, creature):
                            break
                        other = creature
                else:
                    return True
        return False

    def dead_slides(self, colour: int) -> Iterator[str]:
        """Moves the walk allows after which no placement is legal (illegal by R-HJ5), each
        written as a turn with its first in-line placement cell."""
        names = self.grid.names
        for mover, step, labels in self.slides(colour):
            places = list(self.placements(mover, step, labels))
            if places and all(problem for _, problem in places):
                sep = "x" if step.bite else "-"
                yield f"{names[mover]}{sep}{names[step.cell]} {names[places[0][0]]}"

    @once
    def can_turn(self) -> CanAct:
        """Colour → whether it has a legal turn (R-HJ5)."""
        return CanAct(self.has_turn)

    # -- scoring (R-HJ6, R-HJ7) -------------------------------------------------------------

    def classes(self, colour: int) -> list[ShapeClass]:
        """The colour's shape classes in the order compared: largest size first, then higher
        worth (R-HJ7). Worked out once a position: the end is asked for again and again (the
        result, the status, the picture), and every creature's shape costs a dozen images."""
        if colour not in self._classes:
            self._classes[colour] = self._classes_now(colour)
        return list(self._classes[colour])

    @once
    def _classes(self) -> dict[int, list[ShapeClass]]:
        return {}

    def _classes_now(self, colour: int) -> list[ShapeClass]:
        by_form: dict[tuple, list[tuple[int, ...]]] = {}
        for cells in self.creatures(colour):
            form = shape_form([self.grid.coords[c] for c in cells])
            by_form.setdefault(form, []).append(tuple(cells))
        classes = [ShapeClass(len(form), len(group), tuple(group)) for form, group in by_form.items()]
        # Equal size and worth: the class holding the first cell in board order first, so the
        # order (and the diagram's numbering) never depends on anything but the position.
        return sorted(classes, key=lambda k: (-k.size, -k.worth, k.creatures[0][0]))


def _placement_problem(name: str, colour: int, touched: set[int], moved: int) -> str | None:
    if moved in touched:
        return f"{name} touches the creature of the moved stone (R-HJ4)"
    if len(touched) >= 2:
        many = NUMBER_WORDS.get(len(touched), str(len(touched)))
        return f"{name} touches {many} {COLOUR[colour]} creatures (R-HJ4: it may extend only one)"
    return None


@cache
def _all_setups(grid: HexHexGrid) -> tuple[Setup, ...]:
    """Every legal setup ply (R-HJ1): tens of thousands, so built once per board size."""
    names = grid.names
    pairs = [(a, b) for a in grid for b in grid.neighbours[a] if a < b]
    return tuple(
        Setup(black, white, (names[black[0]], names[black[1]], names[white[0]], names[white[1]]))
        for black in pairs
        for white in pairs
        if not set(black) & set(white)
    )


# -- the game ----------------------------------------------------------------------------------


class Harmijan(Game):
    id = "harmijan"
    name = "Harmijan"
    credit = "Saïd Galdseid 2023"
    rules = "harmijan.txt"
    options = (Option("size", 6, "cells along each side of the hex-hex board", 5, 7),)
    notation = (
        "ply 1 'setup b e5 f5 w c3 c4', ply 2 'black' or 'white', then "
        "'<from>-<to> <place>' or '<from>x<to> <place>' (x: a bite): 'c4-c6 f6', 'c4xc7 e7'"
    )

    def start(self, options: Mapping[str, Any], setup: Mapping[str, Any]) -> HarmijanState:
        grid = hexhex_grid(options["size"])
        return HarmijanState(grid, (EMPTY,) * len(grid))

    # -- reading -----------------------------------------------------------------------------

    def parse(self, state: HarmijanState, text: str) -> Move:
        word = text.strip().lower()
        if word == "pass":
            return Pass()
        if word in ("black", "white"):
            return Choice(BLACK if word == "black" else WHITE)
        grid = state.grid
        if word.startswith("setup"):
            match = _SETUP.fullmatch(word)
            if not match or match[1] == match[4]:
                raise NotationError(
                    "expected 'setup b <cell> <cell> w <cell> <cell>', e.g. 'setup b e5 f5 w c3 c4'"
                )
            pairs = {}
            for letter, names in ((match[1], match.group(2, 3)), (match[4], match.group(5, 6))):
                pairs[letter] = tuple(sorted(self._cell(grid, n) for n in names))
            black, white = pairs["b"], pairs["w"]
            return Setup(black, white, tuple(grid.name(c) for c in (*black, *white)))
        match = _TURN.fullmatch(word)
        if not match:
            raise NotationError(
                "expected '<from>-<to> <place>' or '<from>x<to> <place>' (e.g. 'c4-c6 f6', "
                "'c4xc7 e7'), 'setup b … w …', 'black', 'white' or 'pass'"
            )
        start, end, place = self._cell(grid, match[1]), self._cell(grid, match[3]), self._cell(grid, match[4])
        names = grid.names
        return Turn(start, end, place, match[2] == "x", (names[start], names[end], names[place]))

    @staticmethod
    def _cell(grid: HexHexGrid, name: str) -> int:
        cell = grid.cell(name)
        if cell is None:
            raise NotationError(f"{name!r} is not a cell of this board (a1 … {grid.names[-1]})")
        return cell

    # -- playing -----------------------------------------------------------------------------

    def apply(self, state: HarmijanState, move: Move) -> HarmijanState:
        if isinstance(move, Setup):
            return self._setup(state, move)
        if isinstance(move, Choice):
            if state.phase != "choice":
                raise IllegalMoveError(
                    "a colour is chosen only at ply 2, by seat 2, after the setup (R-HJ1)"
                )
            black_seat = 2 if move.colour == BLACK else 1
            return _counted(state, state.stones, BLACK, black_seat)
        phase = state.phase
        if phase == "setup":
            raise IllegalMoveError(
                "the game starts with seat 1's setup: 'setup b <cell> <cell> w <cell> <cell>' (R-HJ1)"
            )
        if phase == "choice":
            raise IllegalMoveError("seat 2 now chooses a colour: 'black' or 'white' (R-HJ1)")
        colour = state.turn
        if isinstance(move, Pass):
            if state.can_turn[colour]:
                raise IllegalMoveError(
                    f"{COLOUR[colour]} (seat {state.seat_of(colour)}) has a legal turn, so it may "
                    "not pass (R-HJ5, R-G3)"
                )
            return _counted(state, state.stones, 3 - colour)
        if not isinstance(move, Turn):
            raise IllegalMoveError(f"{move} is not a move in {self.name}")
        # The turn is checked first: a legal turn is itself the proof that its colour can turn
        # (R-HJ5), so the search for one is needed only when this turn is refused.
        try:
            self._check_turn(state, colour, move)
        except IllegalMoveError:
            if state.can_turn[colour]:
                raise
            # The pass of the colour that cannot turn is implied (SPEC §5); its position counts
            # like a written one (R-HJ8).
            before, state = state, _counted(state, state.stones, 3 - colour)
            if state.repeated:
                raise IllegalMoveError(
                    f"{COLOUR[colour]} cannot turn, and its pass brings back a position for the "
                    "third time, which ends the game (R-HJ8): the next entry can only be that "
                    "'pass'"
                ) from None
            colour = 3 - colour
            self._check_turn(state, colour, move)
            before.can_turn.found(colour)
        state.can_turn.found(colour)
        stones = list(state.stones)
        stones[move.start] = EMPTY
        stones[move.end] = colour
        stones[move.place] = colour
        return _counted(state, tuple(stones), 3 - colour)

    def _setup(self, state: HarmijanState, move: Setup) -> HarmijanState:
        if state.phase != "setup":
            raise IllegalMoveError("the setup is made once, by seat 1, at ply 1 (R-HJ1)")
        cells = [*move.black, *move.white]
        if len(set(cells)) < 4:
            raise IllegalMoveError(
                f"{move}: the four stones need four different cells (R-HJ1)"
            )
        grid = state.grid
        for letter, (a, b) in (("black", move.black), ("white", move.white)):
            if b not in grid.neighbours[a]:
                raise IllegalMoveError(
                    f"{move}: the {letter} stones {grid.name(a)} and {grid.name(b)} are not "
                    "adjacent; each creature has two adjacent stones (R-HJ1)"
                )
        stones = list(state.stones)
        for cell in move.black:
            stones[cell] = BLACK
        for cell in move.white:
            stones[cell] = WHITE
        return replace(state, stones=tuple(stones), set_up=True)

    def _check_turn(self, state: HarmijanState, colour: int, move: Turn) -> None:
        """Raise IllegalMoveError naming the first rule `move` breaks for `colour`."""
        if state.allows(colour, move):
            return
        name, grid = state.grid.name, state.grid

        def refuse(reason: str) -> IllegalMoveError:
            return IllegalMoveError(f"{move.slide}: {reason}")

        mine, start = COLOUR[colour], move.start
        if state.stones[start] != colour:
            holds = "no stone" if state.stones[start] == EMPTY else f"a {COLOUR[3 - colour]} stone"
            raise refuse(f"{name(start)} holds {holds}; {mine} (seat {state.seat_of(colour)}) is to move (R-HJ3)")
        if colour not in [state.stones[nb] for nb in grid.neighbours[start]]:
            raise refuse(f"the stone on {name(start)} is a one-stone creature and cannot move (R-HJ2)")
        direction = grid.direction(start, move.end)
        if direction is None:
            where = "is the start" if start == move.end else f"is not in a straight line from {name(start)}"
            raise refuse(f"{name(move.end)} {where}; a stone moves along one of the 6 lines (R-HJ3)")
        labels = state.lifted(start)
        for step in state.walk(start, direction, labels):
            if step.problem:
                raise refuse(step.problem)
            if step.cell == move.end:
                break
            if step.bite:
                raise refuse(
                    f"{name(step.cell)} holds a {COLOUR[3 - colour]} stone; a move passes only "
                    "through empty cells, and a bite ends it (R-HJ3)"
                )
        if step.bite != move.bite:
            if step.bite:
                raise refuse(
                    f"{name(move.end)} holds a {COLOUR[3 - colour]} stone: a bite is written "
                    f"{name(start)}x{name(move.end)} (R-HJ3)"
                )
            raise refuse(
                f"{name(move.end)} is empty, so there is nothing to bite: write "
                f"{name(start)}-{name(move.end)} (R-HJ3)"
            )
        places = dict(state.placements(start, step, labels))
        if not any(problem is None for problem in places.values()):
            raise refuse("no placement is legal after this move, so the move is illegal (R-HJ5)")
        if move.place in places:
            problem = places[move.place]
            if problem:
                raise IllegalMoveError(f"{move}: {problem}")
            return
        towards = grid.direction(move.end, move.place)
        if towards is None:
            where = "is the moved stone's cell" if move.place == move.end else (
                f"is not in a straight line from {name(move.end)}"
            )
            raise IllegalMoveError(f"{move}: {name(move.place)} {where} (R-HJ4)")
        after = {move.start: EMPTY, move.end: colour}
        for cell in grid.ray(move.end, towards):
            if after.get(cell, state.stones[cell]) != EMPTY:
                if cell == move.place:
                    raise IllegalMoveError(f"{move}: {name(cell)} is occupied (R-HJ4)")
                raise IllegalMoveError(
                    f"{move}: {name(cell)} stands between {name(move.end)} and "
                    f"{name(move.place)}; a stone is placed in line of sight (R-HJ4)"
                )
        raise AssertionError("unreachable: every cell in line of sight was listed")  # pragma: no cover

    # -- listing -----------------------------------------------------------------------------

    def legal_moves(self, state: HarmijanState) -> list[Move]:
        if state.phase == "setup":
            return list(_all_setups(state.grid))
        if state.phase == "choice":
            return [Choice(BLACK), Choice(WHITE)]
        seat = self.to_move(state)
        if seat is None:
            return []
        turns = list(state.turns(state.colour_of(seat)))
        return sorted(turns, key=lambda t: (t.start, t.end, t.place))

    def move_listing(self, state: HarmijanState, after: str | None) -> dict[str, Any]:
        if state.phase == "setup" and after is None:
            # SPEC §4: tens of thousands of setups; the pattern says it better.
            return {"moves": [], "pattern": "setup b <cell> <cell> w <cell> <cell>"}
        return super().move_listing(state, after)

    def random_move(self, state: HarmijanState, rng) -> Move:
        if state.phase == "setup":
            setups = _all_setups(state.grid)
            return setups[rng.randrange(len(setups))]
        return super().random_move(state, rng)

    def to_move(self, state: HarmijanState) -> int | None:
        phase = state.phase
        if phase == "setup":
            return 1
        if phase == "choice":
            return 2
        if state.repeated:
            return None
        for colour in (state.turn, 3 - state.turn):
            if state.can_turn[colour]:
                return state.seat_of(colour)
        return None

    def mover(self, state: HarmijanState, move: Move) -> int:
        if isinstance(move, Setup):
            return 1
        if isinstance(move, Choice):
            return 2
        if isinstance(move, Pass) and state.phase == "play":
            return state.seat_of(state.turn)
        return self.to_move(state)

    def must_pass(self, state: HarmijanState) -> bool:
        return (
            state.phase == "play"
            and not state.repeated
            and not state.can_turn[state.turn]
            and state.can_turn[3 - state.turn]
        )

    # -- the end -----------------------------------------------------------------------------

    def outcome(self, state: HarmijanState) -> Outcome | None:
        if state.phase != "play":
            return None
        # The colour to move first: most plies then need no search for the other colour.
        if not state.repeated and (state.can_turn[state.turn] or state.can_turn[3 - state.turn]):
            return None
        lists = {colour: state.classes(colour) for colour in (BLACK, WHITE)}
        why = "third repetition of the position (R-HJ8); " if state.repeated else ""
        winner, reason = compare(lists[BLACK], lists[WHITE])
        if winner is None:
            return Outcome((), why + reason)
        return Outcome((state.seat_of(winner),), why + reason)

    def score(self, state: HarmijanState) -> dict[str, Any]:
        if state.phase != "play":
            return {}
        return {
            str(seat): [k.as_json() for k in state.classes(state.colour_of(seat))] for seat in (1, 2)
        }

    def status_extra(self, state: HarmijanState) -> dict[str, Any]:
        if state.black_seat is None:
            return {}
        return {"colours": {str(seat): COLOUR[state.colour_of(seat)] for seat in (1, 2)}}

    def status_lines(self, state: HarmijanState) -> list[str]:
        if state.phase == "setup":
            return ["Seat 1 sets up one black and one white creature of two adjacent stones (R-HJ1)."]
        if state.phase == "choice":
            return ["Seat 2 chooses a colour: black or white; black moves first (R-HJ1)."]
        lines = [
            f"Seat {state.black_seat} plays black ({GLYPH[BLACK]}), "
            f"seat {3 - state.black_seat} plays white ({GLYPH[WHITE]})."
        ]
        for colour in (BLACK, WHITE):
            creatures = state.creatures(colour)
            stones = sum(len(c) for c in creatures)
            worths = [str(k.worth) for k in state.classes(colour)]
            lines += _wrap(
                f"{COLOUR[colour].capitalize()} ({GLYPH[colour]}): {count(len(creatures), 'creature')}, "
                f"{count(stones, 'stone')}; classes worth",
                [", ".join(worths) or "nothing"],
            )
        over = self.outcome(state) is not None
        if not over:
            lines += [
                f"{COLOUR[c].capitalize()} cannot turn." for c in (BLACK, WHITE) if not state.can_turn[c]
            ]
            if state.times_seen == 2:
                lines.append("This position has stood twice; a third time ends the game (R-HJ8).")
        return lines

    # -- pictures ----------------------------------------------------------------------------

    def kinds(self, state: HarmijanState | None) -> tuple[PieceKind, ...]:
        seat = {BLACK: None, WHITE: None}
        if state is not None and state.black_seat is not None:
            seat = {colour: state.seat_of(colour) for colour in (BLACK, WHITE)}
        return tuple(PieceKind(LETTER[c], GLYPH[c], COLOUR[c], seat=seat[c]) for c in (BLACK, WHITE))

    def picture(self, state: HarmijanState, last: Move | None) -> Picture:
        pieces = {c: LETTER[v] for c, v in enumerate(state.stones) if v}
        picture = Picture(state.grid, self.kinds(state), pieces)
        notes = []
        if isinstance(last, Setup):
            picture.marks = {*last.black, *last.white}
        elif isinstance(last, Turn):
            colour = state.stones[last.end]
            picture.marks = {last.start, last.end, last.place}
            picture.path = (last.start, last.end)
            bite = ""
            if last.bite:
                picture.bites = {last.end}
                bite = f", biting the {COLOUR[3 - colour]} stone there,"
            notes.append(
                f"{COLOUR[colour].capitalize()} moved {last.names[0]} to {last.names[1]}{bite} "
                f"and placed {last.names[2]}."
            )
        elif isinstance(last, Pass) and state.black_seat is not None:
            notes.append(f"{COLOUR[3 - state.turn].capitalize()} could not turn and passed (R-G3).")
        if self.outcome(state) is not None:
            # The scoring classes on the stones: 1 is each colour's first class compared (R-HJ7).
            for colour in (BLACK, WHITE):
                listed = []
                for rank, shape in enumerate(state.classes(colour), 1):
                    for cells in shape.creatures:
                        picture.tags.update({cell: str(rank) for cell in cells})
                    where = " ".join(state.grid.name(cells[0]) for cells in shape.creatures)
                    listed.append(f"{rank}) {shape.count}×{shape.size} = {shape.worth}: {where}")
                head = f"{COLOUR[colour].capitalize()}'s classes (count×size = worth, R-HJ7):"
                notes += _wrap(head, [item + ";" for item in listed[:-1]] + listed[-1:] or ["none"])
        picture.notes = tuple(notes)
        return picture

    def blank_picture(self, options: Mapping[str, Any], setup: Mapping[str, Any]) -> Picture:
        return Picture(hexhex_grid(options["size"]), self.kinds(None))


def _wrap(head: str, items: list[str], width: int = 76) -> list[str]:
    """`head` and the items on lines of at most `width` characters where the items allow, so
    the words fit a mail body; follow-on lines are indented."""
    lines, line = [], head
    for item in items:
        if len(line) + 1 + len(item) > width and line.strip():
            lines.append(line)
            line = "   "
        line = f"{line} {item}"
    return lines + [line]


def _counted(state: HarmijanState, stones: tuple[int, ...], turn: int, black_seat: int | None = None) -> HarmijanState:
    """The position of `stones` with `turn` to move after `state`, counted for R-HJ8. (Built
    directly: dataclasses.replace costs as much as the rest of a ply's bookkeeping.)"""
    history = Counted(stones, turn, state.history)
    black_seat = state.black_seat if black_seat is None else black_seat
    return HarmijanState(state.grid, stones, state.set_up, black_seat, turn, history, history.times >= 3)
