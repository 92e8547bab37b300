"""Hermetica (IFF Studios 2017): walls, Adepts on their Prime hexes, elements on the Horizons,
then turns of up to three actions; the first Adept to enter the other side's Horizon wins
(RULINGS.md §Hermetica, R-HM0…R-HM10; SPEC §5 for the notation).

A turn is one record entry. It is checked action by action on immutable states: each action is
parsed, checked against the position left by the actions before it, and only then applied to a
working copy that becomes the next state, so a refused action names its place in the turn
(`action=`) and leaves nothing half changed.
"""

from __future__ import annotations

import random
import re
from collections import deque
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Mapping

from referee.errors import IllegalMoveError, NotationError, UsageError
from referee.games.base import Game, Move, Option, Outcome, count
from referee.geometry.columns import BORDER, ColumnHexGrid
from referee.geometry.grid import LETTERS
from referee.picture import PieceKind

SUN, MOON = 1, 2
SIDE = {SUN: "Sun", MOON: "Moon"}
SIDE_KEY = {SUN: "sun", MOON: "moon"}
ELEMENTS = ("F", "E", "W")
UNIT_NAME = {"A": "Adept", "F": "Fire", "E": "Earth", "W": "Water"}
COPIES = 3  # of each element per side
MAX_ELEMENTS_ON_BOARD = 5  # R-HM3
ACTIONS_PER_TURN = 3  # R-HM2
WALLS = 12  # R-HM1
ELEMENT_PLIES = 6  # R-HM1: three elements each
SCHEMES = ("dawn", "noon", "dusk")
STEPS = {"A": 2, "F": 4, "E": 3}  # R-HM5, R-HM6, R-HM7
SHOT_RANGE = 4  # R-HM6
KINDS = (
    PieceKind("sun", "upper case", "Sun", seat=SUN),
    PieceKind("moon", "lower case", "Moon", seat=MOON),
)


# -- the board as data -----------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Board:
    """The mat: its cells, each side's Horizon and Prime hex, and the wall schemes."""

    grid: ColumnHexGrid
    horizons: dict[int, frozenset[int]]  # by seat
    primes: dict[int, int]  # by seat
    schemes: dict[str, frozenset[int]]

    def name(self, cell: int) -> str:
        return self.grid.name(cell)


def _cell_of(grid: ColumnHexGrid, name: Any, where: str) -> int:
    cell = grid.cell(name) if isinstance(name, str) else None
    if cell is None:
        raise ValueError(f"board file: {where} names {name!r}, which is not a cell of the board")
    return cell


def board_from_data(data: Mapping[str, Any]) -> Board:
    """Build and check a board from a board file's content; raises ValueError for the user."""
    if not isinstance(data, Mapping):
        raise ValueError("board file: expected a table with columns, sun, moon and schemes")
    unknown = [k for k in data if k not in ("columns", "offsets", "sun", "moon", "schemes")]
    if unknown:
        raise ValueError(
            f"board file: unknown key {unknown[0]!r} (allowed: columns, offsets, sun, moon, schemes)"
        )
    columns = data.get("columns")
    if not isinstance(columns, Mapping) or not columns:
        raise ValueError("board file: columns must be a table such as { a = 9, b = 10 }")
    letters = list(columns)
    if letters != list(LETTERS[: len(letters)]):
        raise ValueError(
            f"board file: columns must be a, b, c, … in order, not {', '.join(map(str, letters))}"
        )
    lengths = [columns[k] for k in letters]
    offsets = data.get("offsets")
    if offsets is None:
        grid = ColumnHexGrid.centred(lengths)
    else:
        if not isinstance(offsets, Mapping) or list(offsets) != letters:
            raise ValueError("board file: offsets must give every column, e.g. { a = 3, b = 2 }")
        grid = ColumnHexGrid(lengths, [offsets[k] for k in letters])
    horizons, primes = {}, {}
    for seat in (SUN, MOON):
        key = SIDE_KEY[seat]
        side = data.get(key)
        if not isinstance(side, Mapping) or set(side) != {"horizon", "prime"}:
            raise ValueError(f"board file: [{key}] needs horizon = [cells] and prime = \"cell\"")
        if not isinstance(side["horizon"], list) or not side["horizon"]:
            raise ValueError(f"board file: [{key}] horizon must be a list of cells")
        horizons[seat] = frozenset(_cell_of(grid, n, f"{key}.horizon") for n in side["horizon"])
        primes[seat] = _cell_of(grid, side["prime"], f"{key}.prime")
        if len(horizons[seat]) < 3:
            raise ValueError(f"board file: {key}'s Horizon needs room for three elements (R-HM1)")
    if horizons[SUN] & horizons[MOON]:
        raise ValueError("board file: the two Horizons share a cell")
    for seat in (SUN, MOON):
        for other in (SUN, MOON):
            if primes[seat] in horizons[other]:
                raise ValueError(f"board file: {SIDE_KEY[seat]}'s prime lies on a Horizon")
    if primes[SUN] == primes[MOON]:
        raise ValueError("board file: the two Prime hexes are the same cell")
    schemes_data = data.get("schemes", {})
    if not isinstance(schemes_data, Mapping):
        raise ValueError("board file: schemes must be a table of lists of cells")
    schemes = {}
    for name, cells in schemes_data.items():
        if not isinstance(cells, list):
            raise ValueError(f"board file: scheme {name!r} must be a list of cells")
        walls = [_cell_of(grid, n, f"scheme {name}") for n in cells]
        if len(set(walls)) != len(walls) or len(walls) != WALLS:
            raise ValueError(f"board file: scheme {name!r} must list {WALLS} different cells")
        forbidden = set(horizons[SUN] | horizons[MOON]) | set(primes.values())
        bad = [grid.name(c) for c in walls if c in forbidden]
        if bad:
            raise ValueError(f"board file: scheme {name!r} puts a wall on a Horizon or Prime hex: {bad[0]}")
        schemes[str(name).lower()] = frozenset(walls)
    return Board(grid, horizons, primes, schemes)


# -- pieces and positions --------------------------------------------------------------------


@dataclass(frozen=True)
class Unit:
    seat: int
    kind: str  # "A", "F", "E" or "W"
    uid: int  # tells two Fires of one side apart, for "once per turn" (R-HM2)

    @property
    def letter(self) -> str:
        return self.kind if self.seat == SUN else self.kind.lower()

    def describe(self) -> str:
        return f"{SIDE[self.seat]}'s {UNIT_NAME[self.kind]}"


@dataclass(frozen=True)
class Segment:
    """One visible effect of an action, for the diagrams: a unit's step, a shot, a push, a
    relocation, a Shield carried or deployed. `end` is None when the piece left the board."""

    kind: str  # "step", "shot", "push", "relocate", "shield", "spawn", "wall"
    start: int | None
    end: int | None
    capture: bool = False  # a push that captured the pushed unit (R-HM7)


@dataclass(frozen=True)
class ActionReport:
    """What one action did: its text, the segments to draw, the units it captured."""

    seat: int
    text: str
    segments: tuple[Segment, ...]
    captured: tuple[tuple[int, Unit], ...]


@dataclass(frozen=True)
class HermeticaState:
    board: Board
    scheme: str
    plies: int  # entries played so far
    walls: frozenset[int]
    shields: tuple[int | None, int | None]  # by seat − 1; None before the first deployment
    units: tuple[Unit | None, ...]  # per cell
    reserve: tuple[tuple[int, int, int], tuple[int, int, int]]  # unspawned F, E, W by seat − 1
    next_uid: int
    winner: int | None = None
    win_cell: int | None = None
    last: tuple[ActionReport, ...] = ()  # what the ply that made this position did

    # -- phases (R-HM1) ----------------------------------------------------------------------

    @property
    def wall_plies(self) -> int:
        return WALLS if self.scheme == "draft" else 0

    @property
    def phase(self) -> str:
        if self.plies < self.wall_plies:
            return "walls"
        if self.plies < self.wall_plies + ELEMENT_PLIES:
            return "elements"
        return "turns"

    @property
    def turn(self) -> int:
        # 12 wall plies and 6 element plies keep Sun on the even plies (R-HM1).
        return SUN if self.plies % 2 == 0 else MOON

    # -- what stands where -------------------------------------------------------------------

    def barrier(self, cell: int) -> str | None:
        """'wall', 'shield1' or 'shield2' (the Shield's owner), or None."""
        return _barrier(self.walls, self.shields, cell)

    def empty(self, cell: int) -> bool:
        """No unit and no barrier (R-HM0)."""
        return self.units[cell] is None and self.barrier(cell) is None

    def adept(self, seat: int) -> int | None:
        for cell, unit in enumerate(self.units):
            if unit is not None and unit.seat == seat and unit.kind == "A":
                return cell
        return None

    def elements_on_board(self, seat: int) -> int:
        return sum(1 for u in self.units if u is not None and u.seat == seat and u.kind != "A")

    def describe(self, cell: int) -> str:
        """What a player sees on a cell, for reasons: "Moon's Fire on a Wall on c7"."""
        return _describe(self.board.name(cell), self.units[cell], self.barrier(cell))

    def respawn_cells(self, seat: int) -> list[int]:
        """Where a captured Adept may return (R-HM4): its Prime hex if empty, else any empty
        hex of its Horizon."""
        prime = self.board.primes[seat]
        if self.empty(prime):
            return [prime]
        return sorted(c for c in self.board.horizons[seat] if self.empty(c))

    def position_key(self) -> tuple:
        """The final place of every piece: what tells two outcomes apart (SPEC §4)."""
        return self._position_key

    @cached_property
    def _position_key(self) -> tuple:
        # Kept: listing a turn's actions compares each position several times (`act`, then
        # the listing's own check for a new outcome), and the key walks the whole board.
        return (tuple([(u.seat, u.kind) if u else None for u in self.units]), self.walls, self.shields)


def _describe(name: str, unit: Unit | None, barrier: str | None) -> str:
    under = {"wall": "a Wall", "shield1": "Sun's Shield", "shield2": "Moon's Shield"}.get(barrier)
    if unit and under:
        return f"{unit.describe()} on {under} on {name}"
    if unit:
        return f"{unit.describe()} on {name}"
    if under:
        return f"{under} on {name}"
    return f"the empty hex {name}"


@dataclass(frozen=True)
class Progress:
    """How far the current turn has gone (R-HM2, R-HM4)."""

    spent: int = 0
    done: int = 0  # actions so far
    acted: frozenset[int] = frozenset()  # units that acted or were spawned this turn
    obliged: bool = False  # the captured Adept must come back first (R-HM4)


def turn_start(state: HermeticaState) -> Progress:
    seat = state.turn
    return Progress(obliged=state.adept(seat) is None and bool(state.respawn_cells(seat)))


# -- moves -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Action:
    """One action of a turn, or one setup ply. Cells are board indices; `names` prints them."""

    names: tuple[str, ...] = field(compare=False, repr=False)

    def cell_name(self, cell: int) -> str:
        return self.names[cell]


@dataclass(frozen=True)
class Spawn(Action):
    kind: str = "F"
    cell: int = 0

    def __str__(self) -> str:
        return f"+{self.kind} {self.cell_name(self.cell)}"


@dataclass(frozen=True)
class WallPly(Action):
    cell: int = 0

    def __str__(self) -> str:
        return f"wall {self.cell_name(self.cell)}"


@dataclass(frozen=True)
class Steps(Action):
    """An Adept, Fire or Earth moving: `ops` are (op, cell) with op '-' step, '*' deploy the
    Shield (Adept), '=' step carrying the Shield (Fire)."""

    kind: str = "A"
    start: int = 0
    ops: tuple[tuple[str, int], ...] = ()

    def __str__(self) -> str:
        return f"{self.kind} {self.cell_name(self.start)}" + "".join(
            f"{op}{self.cell_name(c)}" for op, c in self.ops
        )


@dataclass(frozen=True)
class Shot(Action):
    start: int = 0
    target: int = 0

    def __str__(self) -> str:
        return f"F {self.cell_name(self.start)}x{self.cell_name(self.target)}"


@dataclass(frozen=True)
class Slide(Action):
    start: int = 0
    stop: int = 0
    relocate: tuple[int, str, int] | None = None  # (collided, '=' or '@', destination)

    def __str__(self) -> str:
        text = f"W {self.cell_name(self.start)}>{self.cell_name(self.stop)}"
        if self.relocate:
            collided, op, dest = self.relocate
            text += f" {self.cell_name(collided)}{op}{self.cell_name(dest)}"
        return text


@dataclass(frozen=True)
class Turn(Move):
    """One record entry: a setup ply (one action) or a turn of up to three actions."""

    actions: tuple[Action, ...]

    def __str__(self) -> str:
        return "; ".join(str(a) for a in self.actions) if self.actions else "pass"


_CELL = r"[a-z][0-9]{1,2}"
_SPAWN = re.compile(rf"\+([afew])({_CELL})")
_WALL = re.compile(rf"wall({_CELL})")
_STEPS = re.compile(rf"([aef])({_CELL})((?:[-*=]{_CELL})+)")
_OP = re.compile(rf"([-*=])({_CELL})")
_SHOT = re.compile(rf"f({_CELL})x({_CELL})")
_SLIDE = re.compile(rf"w({_CELL})>({_CELL})(?:({_CELL})([=@])({_CELL}))?")


def _squeeze(text: str) -> str:
    """Lower case without spaces: every form of SPEC §5 stays unambiguous without them, and
    players may type as many spaces as they like."""
    return re.sub(r"\s+", "", text.lower())


def _parse_action(board: Board, text: str, index: int | None) -> Action:
    squeezed = _squeeze(text)
    grid, names = board.grid, board.grid.names

    def cell(name: str) -> int:
        found = grid.cell(name)
        if found is None:
            raise NotationError(f"{name} is not a cell of this board (SPEC §2)", action=index)
        return found

    if m := _SPAWN.fullmatch(squeezed):
        return Spawn(names, m[1].upper(), cell(m[2]))
    if m := _SHOT.fullmatch(squeezed):
        return Shot(names, cell(m[1]), cell(m[2]))
    if m := _SLIDE.fullmatch(squeezed):
        relocate = (cell(m[3]), m[4], cell(m[5])) if m[3] else None
        return Slide(names, cell(m[1]), cell(m[2]), relocate)
    if m := _STEPS.fullmatch(squeezed):
        kind = m[1].upper()
        ops = tuple((op, cell(c)) for op, c in _OP.findall(m[3]))
        allowed = {"A": "-*", "F": "-=", "E": "-"}[kind]
        for op, _ in ops:
            if op not in allowed:
                raise NotationError(
                    f"{UNIT_NAME[kind]} moves use {' and '.join(repr(o) for o in allowed)}, not {op!r} (SPEC §5)",
                    action=index,
                )
        return Steps(names, kind, cell(m[2]), ops)
    raise NotationError(
        f"cannot read {text.strip()!r} as an action: expected '+F c1', 'A d4-d5*c5', 'F c3-c4', "
        "'F c3xc7', 'E d2-d3' or 'W c3>c8 c9=d9' (SPEC §5)",
        action=index,
    )


def _barrier(walls, shields, cell: int) -> str | None:
    """What barrier stands on `cell`, for a position or a position being changed."""
    if cell in walls:
        return "wall"
    for seat in (SUN, MOON):
        if shields[seat - 1] == cell:
            return f"shield{seat}"
    return None


# -- applying actions ------------------------------------------------------------------------


class _Work:
    """A mutable copy of a position for one action; it becomes a new state only once the
    whole action has been checked, so a refused action changes nothing."""

    def __init__(self, state: HermeticaState, seat: int, index: int | None):
        self.state = state
        self.seat = seat
        self.index = index
        self.units = list(state.units)
        self.walls = set(state.walls)
        self.shields = list(state.shields)
        self.reserve = [list(r) for r in state.reserve]
        self.next_uid = state.next_uid
        self.winner = state.winner
        self.win_cell = state.win_cell
        self.segments: list[Segment] = []
        self.captured: list[tuple[int, Unit]] = []

    def name(self, cell: int) -> str:
        return self.state.board.name(cell)

    def fail(self, reason: str) -> IllegalMoveError:
        return IllegalMoveError(reason, action=self.index)

    def barrier(self, cell: int) -> str | None:
        return _barrier(self.walls, self.shields, cell)

    def empty(self, cell: int) -> bool:
        return self.units[cell] is None and self.barrier(cell) is None

    def describe(self, cell: int) -> str:
        # Not through a frozen copy: refused candidates in a move listing describe cells often.
        return _describe(self.name(cell), self.units[cell], self.barrier(cell))

    def not_over(self) -> None:
        if self.winner is not None:
            raise self.fail(
                f"the game ended when {SIDE[self.winner]}'s Adept entered "
                f"{self.name(self.win_cell)} (R-HM10): nothing may follow"
            )

    def capture(self, cell: int) -> None:
        unit = self.units[cell]
        self.units[cell] = None
        self.captured.append((cell, unit))

    def move_unit(self, start: int, end: int) -> None:
        unit = self.units[start]
        self.units[start], self.units[end] = None, unit
        # R-HM10: an Adept entering the other side's Horizon, by any means, wins for its owner.
        if unit.kind == "A" and end in self.state.board.horizons[3 - unit.seat]:
            self.winner, self.win_cell = unit.seat, end

    def _frozen(self) -> HermeticaState:
        return replace(
            self.state,
            walls=frozenset(self.walls),
            shields=tuple(self.shields),
            units=tuple(self.units),
            reserve=tuple(tuple(r) for r in self.reserve),
            next_uid=self.next_uid,
            winner=self.winner,
            win_cell=self.win_cell,
        )

    def result(self, text: str) -> tuple[HermeticaState, ActionReport]:
        report = ActionReport(self.seat, text, tuple(self.segments), tuple(self.captured))
        return self._frozen(), report


def _check_step(work: _Work, start: int, end: int, who: str) -> tuple[int, int]:
    grid = work.state.board.grid
    if not grid.adjacent(start, end):
        raise work.fail(f"{who} cannot step from {work.name(start)} to {work.name(end)}: not adjacent")
    return grid.direction(start, end)


def _adept(work: _Work, action: Steps) -> None:
    """R-HM5: up to two steps onto empty hexes; once, anywhere in the sequence, the Shield
    deployed onto an adjacent hex with no barrier and no Adept, capturing an element there."""
    seat, pos = work.seat, action.start
    steps, deployed = 0, False
    for op, cell in action.ops:
        work.not_over()
        if op == "-":
            steps += 1
            if steps > STEPS["A"]:
                raise work.fail("an Adept takes at most 2 steps (R-HM5)")
            _check_step(work, pos, cell, "the Adept")
            if not work.empty(cell):
                # The FAQ's "Shield in the Adept's way": it must be deployed elsewhere first.
                raise work.fail(
                    f"the Adept steps only onto empty hexes, and {work.describe(cell)} is not (R-HM5)"
                )
            work.move_unit(pos, cell)
            work.segments.append(Segment("step", pos, cell))
            pos = cell
        else:
            if deployed:
                raise work.fail("the Shield is deployed at most once a turn (R-HM5)")
            deployed = True
            if not work.state.board.grid.adjacent(pos, cell):
                raise work.fail(
                    f"the Shield is deployed next to the Adept on {work.name(pos)}, not on {work.name(cell)} (R-HM5)"
                )
            if work.barrier(cell) is not None:
                raise work.fail(
                    f"the Shield cannot be deployed onto {work.describe(cell)}: it holds a barrier (R-HM5)"
                )
            target = work.units[cell]
            if target is not None and target.kind == "A":
                raise work.fail(
                    f"the Shield cannot be deployed onto {target.describe()} (R-HM5, R-HM9)"
                )
            old = work.shields[seat - 1]
            if old is not None and work.units[old] is not None:
                work.capture(old)  # R-HM5: a Fire standing on the redeployed Shield
            if target is not None:
                work.capture(cell)  # an element of either side (R-HM5)
            work.shields[seat - 1] = cell
            work.segments.append(Segment("shield", old, cell))


def _fire_move(work: _Work, action: Steps) -> None:
    """R-HM6: up to four steps onto hexes without a unit (barriers are fine); standing on its
    own Shield, a step may carry it along into an empty hex."""
    seat, pos = work.seat, action.start
    if len(action.ops) > STEPS["F"]:
        raise work.fail("Fire takes at most 4 steps (R-HM6)")
    for op, cell in action.ops:
        _check_step(work, pos, cell, "the Fire")
        if op == "-" and work.units[cell] is not None:
            raise work.fail(f"Fire steps only onto hexes without a unit, not onto {work.describe(cell)} (R-HM6)")
        if op == "=":
            if work.shields[seat - 1] != pos:
                raise work.fail(
                    f"the Fire on {work.name(pos)} is not on its own Shield, so it carries nothing (R-HM6)"
                )
            if not work.empty(cell):
                raise work.fail(
                    f"Fire carries its Shield only into an empty hex, not onto {work.describe(cell)} (R-HM6)"
                )
            work.shields[seat - 1] = cell
            work.segments.append(Segment("shield", pos, cell))
        work.move_unit(pos, cell)
        work.segments.append(Segment("step", pos, cell))
        pos = cell


def _fire_shot(work: _Work, action: Shot) -> None:
    """R-HM6: capture the first unit up to four hexes away along a straight line; barriers in
    between block the shot; a Fire standing on a barrier can be hit."""
    grid = work.state.board.grid
    start, target = action.start, action.target
    distance = grid.distance_along(start, target)
    if distance is None or distance > SHOT_RANGE:
        raise work.fail(
            f"{work.name(target)} is not on a straight line within {SHOT_RANGE} hexes of {work.name(start)} (R-HM6)"
        )
    direction = grid.direction(start, target)
    cell = grid.step(start, direction)
    while cell != target:
        if work.units[cell] is not None or work.barrier(cell) is not None:
            raise work.fail(f"the shot is blocked by {work.describe(cell)} (R-HM6)")
        cell = grid.step(cell, direction)
    if work.units[target] is None:
        raise work.fail(f"a shot must hit a unit, and {work.describe(target)} holds none (R-HM6)")
    work.segments.append(Segment("shot", start, target))
    work.capture(target)


def _earth(work: _Work, action: Steps) -> None:
    """R-HM7: up to three steps; never into a Wall, the other side's Shield or the Border; a
    unit entered is pushed one hex on, captured against a barrier, the Border or the edge; the
    friendly Shield is pushed like a unit but never captured."""
    seat, pos = work.seat, action.start
    grid = work.state.board.grid
    if len(action.ops) > STEPS["E"]:
        raise work.fail("Earth takes at most 3 steps (R-HM7)")
    for _, cell in action.ops:
        work.not_over()
        direction = _check_step(work, pos, cell, "the Earth")
        barrier = work.barrier(cell)
        beyond = grid.step(cell, direction)
        edge = "the Border" if grid.beyond(cell, direction) == BORDER else "off the board"
        if barrier == "wall" or barrier == f"shield{3 - seat}":
            raise work.fail(f"Earth cannot enter {work.describe(cell)} (R-HM7)")
        if barrier == f"shield{seat}":
            if work.units[cell] is not None:
                raise work.fail(
                    f"Earth cannot push its Shield while {work.units[cell].describe()} stands on it (R-HM7)"
                )
            if beyond is None:
                raise work.fail(f"pushing the Shield on {work.name(cell)} {edge} would capture it, and a Shield is never captured (R-HM7)")
            if work.barrier(beyond) is not None or work.units[beyond] is not None:
                raise work.fail(
                    f"the Shield on {work.name(cell)} cannot be pushed onto {work.describe(beyond)} (R-HM7)"
                )
            work.shields[seat - 1] = beyond
            work.segments.append(Segment("push", cell, beyond))
        elif work.units[cell] is not None:
            if beyond is None:
                work.segments.append(Segment("push", cell, None, capture=True))
                work.capture(cell)  # pushed into the Border or off the board
            elif work.units[beyond] is not None:
                raise work.fail(
                    f"pushing {work.describe(cell)} onto {work.describe(beyond)} would push two units (R-HM7)"
                )
            elif work.barrier(beyond) is not None:
                work.segments.append(Segment("push", cell, beyond, capture=True))
                work.capture(cell)  # pushed into a barrier
            else:
                work.segments.append(Segment("push", cell, beyond))
                work.move_unit(cell, beyond)
        work.move_unit(pos, cell)
        work.segments.append(Segment("step", pos, cell))
        pos = cell


def _water(work: _Work, action: Slide) -> None:
    """R-HM8: slide until the next hex is a piece, the Border or the edge (or stay, colliding
    with an adjacent piece); then optionally relocate what it collided with."""
    grid = work.state.board.grid
    start, stop = action.start, action.stop
    if stop == start:
        if action.relocate is None:
            raise work.fail("a Water that does not slide must relocate the piece it collides with (R-HM0)")
        collided = action.relocate[0]
        if not grid.adjacent(start, collided) or work.empty(collided):
            raise work.fail(
                f"without sliding, a Water collides only with a piece next to it, and {work.describe(collided)} is not one (R-HM8)"
            )
    else:
        direction = grid.direction(start, stop)
        if direction is None:
            raise work.fail(f"{work.name(stop)} is not in a straight line from {work.name(start)} (R-HM8)")
        end = start
        while (nxt := grid.step(end, direction)) is not None and work.empty(nxt):
            end = nxt
        if end == start:
            raise work.fail(
                f"the Water on {work.name(start)} cannot slide towards {work.name(stop)}: the next hex "
                f"is not empty; to collide without moving, write 'W {work.name(start)}>{work.name(start)}' "
                "and a relocation (R-HM8)"
            )
        if end != stop:
            raise work.fail(
                f"a Water slides until it meets a piece, the Border or the edge: from {work.name(start)} "
                f"it goes on to {work.name(end)}, not {work.name(stop)} (R-HM8)"
            )
        collided = grid.step(stop, direction)
        if action.relocate is not None and action.relocate[0] != collided:
            met = work.describe(collided) if collided is not None else (
                "the Border" if grid.beyond(stop, direction) == BORDER else "the edge of the board"
            )
            raise work.fail(
                f"the Water collided with {met}, not with {work.name(action.relocate[0])} (R-HM8)"
            )
        work.move_unit(start, stop)
        work.segments.append(Segment("step", start, stop))
    if action.relocate is None:
        return
    collided, op, dest = action.relocate
    unit = work.units[collided]
    if op == "@":
        if work.barrier(collided) != f"shield{work.seat}" or unit is not None:
            raise work.fail(
                f"a Water moves itself round its own Shield only, and {work.describe(collided)} is not it (R-HM8)"
            )
        if not grid.adjacent(collided, dest) or not work.empty(dest):
            raise work.fail(
                f"the Water moves itself to an empty hex next to its Shield on {work.name(collided)}; "
                f"{work.describe(dest)} is not one (R-HM8)"
            )
        work.move_unit(stop, dest)
        work.segments.append(Segment("relocate", stop, dest))
        return
    if not grid.adjacent(stop, dest):
        raise work.fail(f"a relocated piece goes next to the Water on {work.name(stop)}, and {work.name(dest)} is not (R-HM8)")
    if unit is not None:
        # R-HM8: a Fire standing on a barrier is what the Water collides with; the barrier stays.
        if not work.empty(dest):
            raise work.fail(f"a unit is relocated onto an empty hex only, not onto {work.describe(dest)} (R-HM8)")
        work.move_unit(collided, dest)
    else:
        barrier = work.barrier(collided)
        if work.barrier(dest) is not None:
            raise work.fail(f"a barrier is never relocated onto another barrier: {work.describe(dest)} (R-HM8)")
        if work.units[dest] is not None:
            work.capture(dest)  # R-HM8, R-HM9: the barrier lands on it
        if barrier == "wall":
            work.walls.discard(collided)
            work.walls.add(dest)
        else:
            work.shields[int(barrier[-1]) - 1] = dest
    work.segments.append(Segment("relocate", collided, dest))


def _spawn(work: _Work, action: Spawn, progress: Progress) -> None:
    """R-HM3 (elements) and R-HM4 (the captured Adept)."""
    state, seat, cell = work.state, work.seat, action.cell
    horizon = state.board.horizons[seat]
    if action.kind == "A":
        if state.adept(seat) is not None:
            raise work.fail(f"{SIDE[seat]}'s Adept is on the board; only a captured Adept is spawned (R-HM4)")
        if progress.done:
            raise work.fail("a captured Adept returns only as the first action of a turn (R-HM4)")
        allowed = state.respawn_cells(seat)
        if cell not in allowed:
            prime = state.board.primes[seat]
            where = (f"its Prime hex {work.name(prime)}, which is empty" if allowed == [prime]
                     else "an empty hex of its Horizon, its Prime hex being taken")
            raise work.fail(f"the Adept returns on {where}, not on {work.name(cell)} (R-HM4)")
    else:
        left = work.reserve[seat - 1][ELEMENTS.index(action.kind)]
        if left == 0:
            raise work.fail(
                f"{SIDE[seat]} has no {UNIT_NAME[action.kind]} left to spawn: each element is spawned once (R-HM3)"
            )
        if state.elements_on_board(seat) >= MAX_ELEMENTS_ON_BOARD:
            raise work.fail(f"{SIDE[seat]} already has {MAX_ELEMENTS_ON_BOARD} elements on the board (R-HM3)")
        if cell not in horizon:
            raise work.fail(f"elements are spawned on their side's Horizon, and {work.name(cell)} is not on {SIDE[seat]}'s (R-HM3)")
        if not work.empty(cell):
            raise work.fail(f"elements are spawned onto an empty hex, and {work.describe(cell)} is not (R-HM3)")
        work.reserve[seat - 1][ELEMENTS.index(action.kind)] -= 1
    work.units[cell] = Unit(seat, action.kind, work.next_uid)
    work.next_uid += 1
    work.segments.append(Segment("spawn", None, cell))


MOVERS = {"A": _adept, "F": _fire_move, "E": _earth}


def act(
    state: HermeticaState, progress: Progress, action: Action, index: int | None
) -> tuple[HermeticaState, Progress, ActionReport]:
    """Check one action of the turn in progress and return the position after it; raises
    IllegalMoveError (with `action=index`) and then nothing has changed."""
    seat = state.turn
    work = _Work(state, seat, index)
    work.not_over()
    if isinstance(action, (WallPly,)) or state.phase != "turns":
        raise work.fail("this is not a turn action")
    if progress.obliged and progress.done == 0 and not (isinstance(action, Spawn) and action.kind == "A"):
        raise work.fail(
            f"{SIDE[seat]}'s Adept was captured: the turn must begin with its return, "
            f"e.g. '+A {work.name(state.respawn_cells(seat)[0])}' (R-HM4)"
        )
    cost = 2 if isinstance(action, Spawn) else 1
    if progress.spent + cost > ACTIONS_PER_TURN:
        left = ACTIONS_PER_TURN - progress.spent
        raise work.fail(
            f"{'spawning costs 2 actions' if cost == 2 else 'moving a unit costs 1 action'}, "
            f"and the turn has {count(left, 'action')} left of {ACTIONS_PER_TURN} (R-HM2)"
        )
    uid = None
    if isinstance(action, Spawn):
        _spawn(work, action, progress)
        uid = work.next_uid - 1
    else:
        kind = "W" if isinstance(action, Slide) else "F" if isinstance(action, Shot) else action.kind
        unit = state.units[action.start]
        if unit is None or unit.seat != seat:
            raise work.fail(f"{SIDE[seat]} has no unit on {work.name(action.start)}: {state.describe(action.start)}")
        if unit.kind != kind:
            raise work.fail(
                f"the unit on {work.name(action.start)} is {unit.describe()}, not a {UNIT_NAME[kind]} (SPEC §5)"
            )
        if unit.uid in progress.acted:
            raise work.fail(
                f"{unit.describe()} on {work.name(action.start)} has already acted or was spawned this turn (R-HM2)"
            )
        uid = unit.uid
        if isinstance(action, Shot):
            _fire_shot(work, action)
        elif isinstance(action, Slide):
            _water(work, action)
        else:
            MOVERS[kind](work, action)
    after, report = work.result(str(action))
    if after.position_key() == state.position_key():
        raise work.fail(f"{action} changes nothing, and an action must change something (R-HM0)")
    progress = Progress(progress.spent + cost, progress.done + 1, progress.acted | {uid}, progress.obliged)
    return after, progress, report


def _may_extend(kind: str, path: tuple[tuple[str, int], ...], op: str, on_own_shield: bool) -> bool:
    """False when `act` refuses `path` + `op` whatever the next cell, so the move listing need
    not replay the path six times to hear it: most candidates of a crowded position are these.
    `on_own_shield`: the unit, at the end of `path`, stands on its side's Shield."""
    if op == "*":
        return all(o != "*" for o, _ in path)  # one Shield deployment a turn (R-HM5)
    if op == "=":
        return on_own_shield  # a Fire carries only its own Shield, from under it (R-HM6)
    steps = sum(o != "*" for o, _ in path)
    return steps < STEPS[kind]  # an Adept takes 2 steps, Fire 4, Earth 3 (R-HM5, R-HM6, R-HM7)


# -- the game --------------------------------------------------------------------------------


class BoardOption(Option):
    """A word or a path: no range to show in `referee games`."""

    def describe(self) -> str:
        return f"{self.name} = {self.default!r} (a built-in name or a path to a board file)"



class Hermetica(Game):
    id = "hermetica"
    name = "Hermetica"
    credit = "IFF Studios 2017"
    rules = "hermetica.txt"
    options = (
        Option("scheme", "dawn", "the walls: a preset scheme, or draft them (R-HM1)",
               choices=("dawn", "noon", "dusk", "draft")),
        BoardOption("board", "standard", "the mat: \"standard\" or a path to a board file"),
    )
    setup_keys = ("board",)
    data_options = {"board": "hermetica-board"}
    notation = (
        "a turn of up to 3 actions joined by '; ': '+F c1' spawn, 'A d4-d5*c5', 'F c3-c4=c5', "
        "'F c3xc7', 'E d2-d3', 'W c3>c8 c9=d9'; 'pass'; setup plies 'wall c5' and '+F c1'"
    )

    # -- setup -------------------------------------------------------------------------------

    def setup_from_file(self, option: str, content: Mapping[str, Any]) -> Any:
        board_from_data(content)  # refuse a bad file before it reaches a record
        return {k: v for k, v in content.items()}

    def new_setup(
        self, options: Mapping[str, Any], files: Mapping[str, Mapping[str, Any]], entropy: int
    ) -> dict[str, Any]:
        setup = super().new_setup(options, files, entropy)
        self.start(options, setup)  # a board without the chosen scheme is refused before writing
        return setup

    def start(self, options: Mapping[str, Any], setup: Mapping[str, Any]) -> HermeticaState:
        board = board_from_data(setup["board"])
        scheme = options["scheme"]
        if scheme == "draft":
            walls: frozenset[int] = frozenset()
        elif scheme in board.schemes:
            walls = board.schemes[scheme]
        else:
            raise ValueError(f"the board file has no scheme {scheme!r} (it has: {', '.join(board.schemes) or 'none'})")
        units: list[Unit | None] = [None] * len(board.grid)
        # R-HM1: the Adepts start on their Prime hexes.
        units[board.primes[SUN]] = Unit(SUN, "A", 0)
        units[board.primes[MOON]] = Unit(MOON, "A", 1)
        full = (COPIES,) * len(ELEMENTS)
        return HermeticaState(board, scheme, 0, walls, (None, None), tuple(units), (full, full), 2)

    # -- reading -----------------------------------------------------------------------------

    def parse(self, state: HermeticaState, text: str) -> Turn:
        squeezed = _squeeze(text)
        board, phase = state.board, state.phase
        if phase == "walls":
            m = _WALL.fullmatch(squeezed)
            if not m:
                raise NotationError("the walls are being drafted: a ply is 'wall <cell>', e.g. 'wall c5' (R-HM1)")
            cell = board.grid.cell(m[1])
            if cell is None:
                raise NotationError(f"{m[1]} is not a cell of this board (SPEC §2)")
            return Turn((WallPly(board.grid.names, cell),))
        if phase == "elements":
            m = _SPAWN.fullmatch(squeezed)
            if not m or m[1] == "a":
                raise NotationError("elements are being placed: a ply is '+F c1', '+E c1' or '+W c1' (R-HM1)")
            return Turn((_parse_action(board, text, None),))
        if squeezed == "pass":
            return Turn(())
        parts = text.split(";")
        if len(parts) > ACTIONS_PER_TURN and all(p.strip() for p in parts):
            raise NotationError(f"a turn has at most {ACTIONS_PER_TURN} actions (R-HM2)")
        actions = []
        for i, part in enumerate(parts, 1):
            if not part.strip():
                raise NotationError("an empty action: actions are separated by '; ' (SPEC §5)", action=i)
            actions.append(_parse_action(board, part, i))
        return Turn(tuple(actions))

    # -- playing -----------------------------------------------------------------------------

    def apply(self, state: HermeticaState, move: Move) -> HermeticaState:
        if not isinstance(move, Turn):
            raise IllegalMoveError(f"{move} is not a move in {self.name}")
        if state.winner is not None:
            raise IllegalMoveError("the game is already over (R-HM10)")
        phase = state.phase
        if phase == "walls":
            return self._draft(state, move.actions[0])
        if phase == "elements":
            return self._place_element(state, move.actions[0])
        progress = turn_start(state)
        if not move.actions and progress.obliged:
            raise IllegalMoveError(
                f"{SIDE[state.turn]}'s Adept was captured and can return, so the turn may not be "
                f"passed: it begins with '+A {state.board.name(state.respawn_cells(state.turn)[0])}' (R-HM4)"
            )
        reports = []
        for index, action in enumerate(move.actions, 1):
            state, progress, report = act(state, progress, action, index)
            reports.append(report)
        return replace(state, plies=state.plies + 1, last=tuple(reports))

    def _draft(self, state: HermeticaState, action: Action) -> HermeticaState:
        """R-HM1: never on a Horizon, a Prime hex, a wall, or where it would make three or more
        contiguous walls."""
        cell, board = action.cell, state.board
        name = board.name(cell)
        if any(cell in h for h in board.horizons.values()):
            raise IllegalMoveError(f"no wall on a Horizon: {name} (R-HM1)")
        if cell in board.primes.values():
            raise IllegalMoveError(f"no wall on a Prime hex: {name} (R-HM1)")
        if cell in state.walls:
            raise IllegalMoveError(f"{name} already holds a wall (R-HM1)")
        walls = state.walls | {cell}
        cluster = _cluster(board.grid, walls, cell)
        if len(cluster) >= 3:
            names = ", ".join(board.name(c) for c in sorted(cluster))
            raise IllegalMoveError(f"a wall on {name} would make {len(cluster)} contiguous walls ({names}) (R-HM1)")
        report = ActionReport(state.turn, str(action), (Segment("wall", None, cell),), ())
        return replace(state, walls=walls, plies=state.plies + 1, last=(report,))

    def _place_element(self, state: HermeticaState, action: Spawn) -> HermeticaState:
        """R-HM1: one element of the player's choice on an empty hex of their own Horizon."""
        seat, board = state.turn, state.board
        name = board.name(action.cell)
        if action.cell not in board.horizons[seat]:
            raise IllegalMoveError(f"elements are placed on {SIDE[seat]}'s Horizon, and {name} is not on it (R-HM1)")
        if not state.empty(action.cell):
            raise IllegalMoveError(f"{state.describe(action.cell)} is not empty (R-HM1)")
        k = ELEMENTS.index(action.kind)
        if state.reserve[seat - 1][k] == 0:
            raise IllegalMoveError(f"{SIDE[seat]} has no {UNIT_NAME[action.kind]} left (R-HM3)")
        units = list(state.units)
        units[action.cell] = Unit(seat, action.kind, state.next_uid)
        reserve = [list(r) for r in state.reserve]
        reserve[seat - 1][k] -= 1
        report = ActionReport(seat, str(action), (Segment("spawn", None, action.cell),), ())
        return replace(
            state, units=tuple(units), reserve=tuple(tuple(r) for r in reserve),
            next_uid=state.next_uid + 1, plies=state.plies + 1, last=(report,),
        )

    # -- listing -----------------------------------------------------------------------------

    def next_actions(self, state: HermeticaState, progress: Progress) -> list[Action]:
        """Every legal next action of the turn in progress, once per distinct outcome (the final
        place of every piece), each with its shortest path, in board order of the acting unit."""
        if state.winner is not None or progress.spent >= ACTIONS_PER_TURN:
            return []
        seat, board = state.turn, state.board
        grid, names = board.grid, board.grid.names
        found: list[Action] = []

        def legal(action: Action) -> HermeticaState | None:
            try:
                return act(state, progress, action, None)[0]
            except IllegalMoveError:
                return None

        # Spawns (R-HM3, R-HM4).
        if progress.spent + 2 <= ACTIONS_PER_TURN:
            kinds = ["A"] if state.adept(seat) is None and progress.done == 0 else []
            kinds += [k for k in ELEMENTS if state.reserve[seat - 1][ELEMENTS.index(k)]]
            for kind in kinds:
                cells = sorted(board.horizons[seat] | {board.primes[seat]})
                found += [a for c in cells if legal(a := Spawn(names, kind, c)) is not None]
        if progress.obliged and progress.done == 0:
            return [a for a in found if isinstance(a, Spawn) and a.kind == "A"]
        for cell, unit in enumerate(state.units):
            if unit is None or unit.seat != seat or unit.uid in progress.acted:
                continue
            if unit.kind == "W":
                found += self._water_actions(state, cell, legal)
                continue
            ops = {"A": "-*", "F": "-=", "E": "-"}[unit.kind]
            found += self._walks(state, cell, unit.kind, ops, legal)
            if unit.kind == "F":
                for direction in grid.directions:
                    for target in list(grid.ray(cell, direction))[:SHOT_RANGE]:
                        if state.units[target] is not None or state.barrier(target) is not None:
                            if legal(shot := Shot(names, cell, target)) is not None:
                                found.append(shot)
                            break
        return found

    def _walks(self, state: HermeticaState, cell: int, kind: str, ops: str, legal) -> list[Action]:
        """Breadth first over step sequences, so the first path to an outcome is a shortest."""
        names = state.board.grid.names
        seen = {state.position_key()}
        found = []
        frontier = deque([((), cell, state)])  # a path, where it leads, the position it makes
        limit = STEPS[kind] + (1 if kind == "A" else 0)
        while frontier:
            path, pos, reached = frontier.popleft()
            if len(path) >= limit:
                continue
            on_own_shield = reached.shields[state.turn - 1] == pos
            for op in ops:
                if not _may_extend(kind, path, op, on_own_shield):
                    continue
                for nb in state.board.grid.neighbours[pos]:
                    action = Steps(names, kind, cell, path + ((op, nb),))
                    after = legal(action)
                    if after is None:
                        continue
                    key = after.position_key()
                    if key in seen:
                        continue
                    seen.add(key)
                    found.append(action)
                    if after.winner is None:
                        frontier.append((action.ops, nb if op != "*" else pos, after))
        return found

    def _water_actions(self, state: HermeticaState, cell: int, legal) -> list[Action]:
        grid, names = state.board.grid, state.board.grid.names
        seen = {state.position_key()}
        found = []
        for direction in grid.directions:
            stop = cell
            while (nxt := grid.step(stop, direction)) is not None and state.empty(nxt):
                stop = nxt
            collided = grid.step(stop, direction)
            candidates: list[Action] = [Slide(names, cell, stop)]
            if collided is not None and not state.empty(collided):
                around = set(grid.neighbours[stop]) | set(grid.neighbours[collided])
                for dest in sorted(around):
                    candidates.append(Slide(names, cell, stop, (collided, "=", dest)))
                    candidates.append(Slide(names, cell, stop, (collided, "@", dest)))
            for action in candidates:
                after = legal(action)
                if after is not None and (key := after.position_key()) not in seen:
                    seen.add(key)
                    found.append(action)
        return found

    def partial_turn(self, state: HermeticaState, after: str) -> tuple[HermeticaState, Progress]:
        """The position and turn progress after the actions already chosen (`moves --after`)."""
        progress = turn_start(state)
        for index, part in enumerate(after.split(";"), 1):
            if not part.strip():
                raise NotationError("an empty action in --after: actions are separated by '; '", action=index)
            action = _parse_action(state.board, part, index)
            state, progress, _ = act(state, progress, action, index)
        return state, progress

    def legal_moves(self, state: HermeticaState) -> list[Move]:
        """Setup plies in full; during play, every legal turn of a single action (a turn may
        stop after any action, R-HM2) and 'pass' when allowed: whole turns are too many to list,
        and `moves --after` walks a turn action by action."""
        if state.winner is not None:
            return []
        board, names = state.board, state.board.grid.names
        if state.phase == "walls":
            moves = []
            for cell in state.board.grid:
                try:
                    self._draft(state, WallPly(names, cell))
                except IllegalMoveError:
                    continue
                moves.append(Turn((WallPly(names, cell),)))
            return moves
        if state.phase == "elements":
            seat = state.turn
            return [
                Turn((Spawn(names, kind, c),))
                for c in sorted(board.horizons[seat]) if state.empty(c)
                for kind in ELEMENTS if state.reserve[seat - 1][ELEMENTS.index(kind)]
            ]
        progress = turn_start(state)
        moves = [] if progress.obliged else [Turn(())]
        return moves + [Turn((a,)) for a in self.next_actions(state, progress)]

    def move_listing(self, state: HermeticaState, after: str | None) -> dict[str, Any]:
        if state.phase != "turns":
            if after is not None:
                raise UsageError("--after lists the actions of a turn; the game is still in its setup (R-HM1)")
            return {"moves": [str(m) for m in self.legal_moves(state)], "phase": state.phase}
        progress = turn_start(state)
        if after is not None and after.strip():
            state, progress = self.partial_turn(state, after)
        actions = self.next_actions(state, progress)
        may_end = not (progress.obliged and progress.done == 0) or state.winner is not None
        return {
            "moves": [str(a) for a in actions],
            "phase": "turns",
            "spent": progress.spent,
            "turn_may_end": may_end,
        }

    def random_move(self, state: HermeticaState, rng: random.Random) -> Move:
        """A whole random legal turn (or setup ply): random actions until the turn is spent, no
        action is left, or a coin says stop (R-HM2 allows shorter turns)."""
        if state.phase != "turns":
            return rng.choice(self.legal_moves(state))
        progress = turn_start(state)
        actions: list[Action] = []
        while progress.spent < ACTIONS_PER_TURN and state.winner is None:
            options = self.next_actions(state, progress)
            obliged = progress.obliged and progress.done == 0
            if not options or (not obliged and rng.random() < 0.1):
                break
            action = rng.choice(options)
            state, progress, _ = act(state, progress, action, None)
            actions.append(action)
        return Turn(tuple(actions))

    # -- status ------------------------------------------------------------------------------

    def to_move(self, state: HermeticaState) -> int | None:
        return None if state.winner is not None else state.turn

    def outcome(self, state: HermeticaState) -> Outcome | None:
        if state.winner is None:
            return None
        other = 3 - state.winner
        return Outcome(
            (state.winner,),
            f"{SIDE[state.winner]}'s Adept entered {SIDE[other]}'s Horizon on "
            f"{state.board.name(state.win_cell)} (R-HM10)",
        )

    def score(self, state: HermeticaState) -> dict[str, Any]:
        return {
            str(seat): {
                "elements": state.elements_on_board(seat),
                "reserve": dict(zip(ELEMENTS, state.reserve[seat - 1])),
            }
            for seat in (SUN, MOON)
        }

    def status_lines(self, state: HermeticaState) -> list[str]:
        board = state.board
        lines = []
        if state.phase == "walls":
            lines.append(f"Drafting walls: {len(state.walls)} of {WALLS} placed (R-HM1).")
        elif state.phase == "elements":
            placed = state.plies - state.wall_plies
            lines.append(f"Placing elements on the Horizons: {placed} of {ELEMENT_PLIES} placed (R-HM1).")
        for seat in (SUN, MOON):
            adept = state.adept(seat)
            shield = state.shields[seat - 1]
            reserve = state.reserve[seat - 1]
            spent = COPIES * len(ELEMENTS) - sum(reserve)
            lost = spent - state.elements_on_board(seat)
            lines.append(
                f"{SIDE[seat]}: Adept {'on ' + board.name(adept) if adept is not None else 'captured'}, "
                f"Shield {'on ' + board.name(shield) if shield is not None else 'not deployed'}; "
                f"{count(state.elements_on_board(seat), 'element')} on the board, {lost} captured; "
                f"to spawn F {reserve[0]}, E {reserve[1]}, W {reserve[2]}"
            )
            if adept is None and state.winner is None:
                lines.append(
                    f"{SIDE[seat]}'s Adept must return as the first action of {SIDE[seat]}'s next turn (R-HM4)."
                )
        return lines

    # -- pictures ----------------------------------------------------------------------------

    def picture(self, state: HermeticaState, last: Move | None) -> "HermeticaPicture":
        return HermeticaPicture(
            board=state.board,
            walls=state.walls,
            shields={seat: state.shields[seat - 1] for seat in (SUN, MOON)},
            units={c: u for c, u in enumerate(state.units) if u is not None},
            last=state.last if last is not None else (),
            reserve={seat: dict(zip(ELEMENTS, state.reserve[seat - 1])) for seat in (SUN, MOON)},
            spent={
                seat: {k: COPIES - n for k, n in zip(ELEMENTS, state.reserve[seat - 1])}
                for seat in (SUN, MOON)
            },
        )

    def blank_picture(self, options: Mapping[str, Any], setup: Mapping[str, Any]) -> "HermeticaPicture":
        """The mat with the scheme's walls (none for `draft`), for the printable sheet."""
        state = self.start(options, setup)
        return HermeticaPicture(board=state.board, walls=state.walls, options=dict(options))


def _cluster(grid: ColumnHexGrid, walls: frozenset[int], start: int) -> set[int]:
    seen, stack = {start}, [start]
    while stack:
        cell = stack.pop()
        for nb in grid.neighbours[cell]:
            if nb in walls and nb not in seen:
                seen.add(nb)
                stack.append(nb)
    return seen


@dataclass
class HermeticaPicture:
    """The position as plain data for the Hermetica diagrams (referee.render.hermetica)."""

    board: Board | None
    walls: frozenset[int] = frozenset()
    shields: dict[int, int | None] = field(default_factory=dict)
    units: dict[int, Unit] = field(default_factory=dict)
    last: tuple[ActionReport, ...] = ()
    reserve: dict[int, dict[str, int]] = field(default_factory=dict)
    spent: dict[int, dict[str, int]] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    kinds: tuple[PieceKind, ...] = KINDS
