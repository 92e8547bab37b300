"""What may be played next in Hermetica: the legal next actions of a turn, once per distinct
outcome (SPEC §4), and the setup plies.

Every candidate is checked by the rules themselves (rules.py), so the listing cannot disagree
with them. A move of a unit is walked one step at a time, each step judged by the unit's power
(`_adept`, `_fire_move`, `_earth` in rules.py) on the position the steps before it reached:
along a whole path the power judges each step on what the steps before it left, so the verdict
and the position are those of `act` on the whole path, once the path's counts are kept
(`_counted`: how many steps, one Shield deployment). What `act` checks around a power holds by
how the candidates are made (the side's own unit, not yet acted, an action left), and an action
that changes nothing comes back to the position the turn stood in, which is never listed.
Replaying each path from the turn's position cost most of the listing's time before.

The shortcuts (`may_extend`, `_may_enter`, and the hexes a spawn or a relocation cannot go to)
only skip what the rules refuse anyway."""

from __future__ import annotations

from collections import deque

from referee.errors import IllegalMoveError
from referee.games.base import Move
from referee.games.hermetica.moves import Action, Shot, Slide, Spawn, Steps, Turn, WallPly
from referee.games.hermetica.position import (
    ACTIONS_PER_TURN, ELEMENTS, SHOT_RANGE, STEPS, HermeticaState, Progress, turn_start,
)
from referee.games.hermetica.rules import MOVERS, _water, _Work, act, draft_wall


def may_extend(kind: str, path: tuple[tuple[str, int], ...], op: str, on_own_shield: bool) -> bool:
    """False when `act` refuses `path` + `op` whatever the next cell, so the move listing need
    not replay the path six times to hear it: most candidates of a crowded position are these.
    `on_own_shield`: the unit, at the end of `path`, stands on its side's Shield."""
    if op == "*":
        return all(o != "*" for o, _ in path)  # one Shield deployment a turn (R-HM5)
    if op == "=":
        return on_own_shield  # a Fire carries only its own Shield, from under it (R-HM6)
    steps = sum(o != "*" for o, _ in path)
    return steps < STEPS[kind]  # an Adept takes 2 steps, Fire 4, Earth 3 (R-HM5, R-HM6, R-HM7)


# The last few listings, by the identity of the position and the turn's progress they were made
# for (both immutable values, held here so that their identities stay theirs). A search asks
# for the same listing twice in a row: once when it adds a decision to its tree, once when it
# plays the turn on from there.
_RECENT: deque[tuple[HermeticaState, Progress, tuple[Action, ...]]] = deque(maxlen=4)


def next_actions(state: HermeticaState, progress: Progress) -> list[Action]:
    """Every legal next action of the turn in progress, once per distinct outcome (the final
    place of every piece), each with its shortest path, in board order of the acting unit."""
    for known, how_far, actions in tuple(_RECENT):  # a copy: safe beside another thread's append
        if known is state and how_far is progress:
            return list(actions)
    actions = _listed(state, progress)
    _RECENT.append((state, progress, tuple(actions)))
    return actions


def _listed(state: HermeticaState, progress: Progress) -> list[Action]:
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
        # Only onto an empty hex (R-HM3, R-HM4: a returning Adept's hexes are empty ones).
        cells = [c for c in sorted(board.horizons[seat] | {board.primes[seat]}) if state.empty(c)]
        for kind in kinds:
            found += [a for c in cells if legal(a := Spawn(names, kind, c)) is not None]
    if progress.obliged and progress.done == 0:
        return [a for a in found if isinstance(a, Spawn) and a.kind == "A"]
    for cell, unit in enumerate(state.units):
        if unit is None or unit.seat != seat or unit.uid in progress.acted:
            continue
        if unit.kind == "W":
            found += _water_actions(state, cell)
            continue
        ops = {"A": "-*", "F": "-=", "E": "-"}[unit.kind]
        found += _walks(state, cell, unit.kind, ops)
        if unit.kind == "F":
            for direction in grid.directions:
                for target in list(grid.ray(cell, direction))[:SHOT_RANGE]:
                    if state.units[target] is not None or state.barrier(target) is not None:
                        if legal(shot := Shot(names, cell, target)) is not None:
                            found.append(shot)
                        break
    return found


def _key(work: _Work) -> tuple:
    """The position a working copy holds, as `HermeticaState.position_key` gives it."""
    return (tuple([(u.seat, u.kind) if u else None for u in work.units]), frozenset(work.walls),
            tuple(work.shields))


def _tried(reached: HermeticaState, seat: int, power, action: Action) -> _Work | None:
    """The working copy after `action`, judged by the unit's `power` on `reached`; None when
    the rules refuse it."""
    work = _Work(reached, seat, None)
    try:
        power(work, action)
    except IllegalMoveError:
        return None
    return work


def _counted(kind: str, ops: tuple[tuple[str, int], ...]) -> bool:
    """Whether a whole path keeps to its unit's counts, which its power counts along the
    path and so cannot see in one step: at most 2 steps for an Adept, 4 for Fire, 3 for Earth,
    and one Shield deployment (R-HM5, R-HM6, R-HM7)."""
    deployments = sum(op == "*" for op, _ in ops)
    return len(ops) - deployments <= STEPS[kind] and deployments <= 1


def _may_enter(reached: HermeticaState, seat: int, kind: str, op: str, cell: int) -> bool:
    """False where the unit's power refuses the step or the deployment onto `cell` whatever
    came before: the first thing each power checks of a cell."""
    unit, barrier = reached.units[cell], reached.barrier(cell)
    if kind == "A":
        if op == "-":
            return unit is None and barrier is None  # onto empty hexes only (R-HM5)
        return barrier is None and (unit is None or unit.kind != "A")  # the Shield (R-HM5, R-HM9)
    if kind == "F":
        return unit is None and (op == "-" or barrier is None)  # no unit; carrying: empty (R-HM6)
    return barrier != "wall" and barrier != f"shield{3 - seat}"  # Earth (R-HM7)


def _walks(state: HermeticaState, cell: int, kind: str, ops: str) -> list[Action]:
    """Breadth first over step sequences, so the first path to an outcome is a shortest. Each
    path is one step longer than one found before it, that step judged where the path had
    reached (see the module's docstring)."""
    seat, grid = state.turn, state.board.grid
    names, neighbours, power = grid.names, grid.neighbours, MOVERS[kind]
    seen = {state.position_key()}
    found = []
    frontier = deque([((), cell, state)])  # a path, where it leads, the position it makes
    limit = STEPS[kind] + (1 if kind == "A" else 0)
    while frontier:
        path, pos, reached = frontier.popleft()
        if len(path) >= limit:
            continue
        on_own_shield = reached.shields[seat - 1] == pos
        for op in ops:
            if not may_extend(kind, path, op, on_own_shield):
                continue
            for nb in neighbours[pos]:
                if not _may_enter(reached, seat, kind, op, nb):
                    continue
                ops_after = path + ((op, nb),)
                if not _counted(kind, ops_after):
                    continue
                work = _tried(reached, seat, power, Steps(names, kind, pos, ((op, nb),)))
                if work is None:
                    continue
                key = _key(work)
                if key in seen:
                    continue
                seen.add(key)
                action = Steps(names, kind, cell, ops_after)
                found.append(action)
                if work.winner is None and len(action.ops) < limit:
                    frontier.append((action.ops, nb if op != "*" else pos, work._frozen()))
    return found


def _water_actions(state: HermeticaState, cell: int) -> list[Action]:
    seat, grid = state.turn, state.board.grid
    names = grid.names
    seen = {state.position_key()}
    found = []
    for direction in grid.directions:
        stop = cell
        while (nxt := grid.step(stop, direction)) is not None and state.empty(nxt):
            stop = nxt
        collided = grid.step(stop, direction)
        # A Water that does not slide must relocate (R-HM0); a unit or barrier goes next to
        # the Water, and the Water moves itself only round its own Shield (R-HM8).
        candidates: list[Action] = [Slide(names, cell, stop)] if stop != cell else []
        if collided is not None and not state.empty(collided):
            round_shield = state.shields[seat - 1] == collided and state.units[collided] is None
            around = set(grid.neighbours[stop]) | set(grid.neighbours[collided])
            for dest in sorted(around):
                if grid.adjacent(stop, dest):
                    candidates.append(Slide(names, cell, stop, (collided, "=", dest)))
                if round_shield and grid.adjacent(collided, dest):
                    candidates.append(Slide(names, cell, stop, (collided, "@", dest)))
        for action in candidates:
            work = _tried(state, seat, _water, action)
            if work is not None and (key := _key(work)) not in seen:
                seen.add(key)
                found.append(action)
    return found


def legal_moves(state: HermeticaState) -> list[Move]:
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
                draft_wall(state, WallPly(names, cell))
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
    return moves + [Turn((a,)) for a in next_actions(state, progress)]
