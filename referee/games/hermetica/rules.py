"""How Hermetica's actions change a position: one action of a turn checked and applied (`act`,
with the unit powers R-HM5…R-HM9 and the spawns R-HM3, R-HM4), and the setup plies (R-HM1).

An action is checked on a working copy of the position that becomes the next state only once
the whole action has passed, so a refused action names its place in the turn (`action=`) and
leaves nothing half changed.
"""

from __future__ import annotations

from dataclasses import replace

from referee.errors import IllegalMoveError
from referee.games.base import count
from referee.games.hermetica.moves import Action, Shot, Slide, Spawn, Steps, WallPly
from referee.games.hermetica.board import SIDE
from referee.games.hermetica.position import (
    ACTIONS_PER_TURN, ELEMENTS, MAX_ELEMENTS_ON_BOARD, SHOT_RANGE, STEPS, UNIT_NAME,
    ActionReport, HermeticaState, Progress, Segment, Unit, barrier_at, describe_cell,
)
from referee.geometry.columns import BORDER, ColumnHexGrid


# -- one action of a turn (R-HM2…R-HM9) ------------------------------------------------------


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
        return barrier_at(self.walls, self.shields, cell)

    def empty(self, cell: int) -> bool:
        return self.units[cell] is None and self.barrier(cell) is None

    def describe(self, cell: int) -> str:
        # Not through a frozen copy: refused candidates in a move listing describe cells often.
        return describe_cell(self.name(cell), self.units[cell], self.barrier(cell))

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
                f"the unit on {work.name(action.start)} is {unit.describe()}, not a {UNIT_NAME[kind]}: the letter names the unit that acts"
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
    progress = Progress(progress.spent + cost, progress.done + 1, progress.acted | {uid},
                        progress.obliged, progress.reports + (report,))
    return after, progress, report


# -- the setup plies (R-HM1) -----------------------------------------------------------------


def draft_wall(state: HermeticaState, action: Action) -> HermeticaState:
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

def place_element(state: HermeticaState, action: Spawn) -> HermeticaState:
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



def _cluster(grid: ColumnHexGrid, walls: frozenset[int], start: int) -> set[int]:
    """The walls joined to `start` through neighbours, `start` included."""
    seen, stack = {start}, [start]
    while stack:
        cell = stack.pop()
        for nb in grid.neighbours[cell]:
            if nb in walls and nb not in seen:
                seen.add(nb)
                stack.append(nb)
    return seen
