"""What may be played next in Hermetica: the legal next actions of a turn, once per distinct
outcome (SPEC §4), and the setup plies.

Every candidate is checked by `act` itself, so the listing cannot disagree with the rules; its
one shortcut, `may_extend`, only skips what `act` would refuse anyway.
"""

from __future__ import annotations

from collections import deque

from referee.errors import IllegalMoveError
from referee.games.base import Move
from referee.games.hermetica.moves import Action, Shot, Slide, Spawn, Steps, Turn, WallPly
from referee.games.hermetica.position import (
    ACTIONS_PER_TURN, ELEMENTS, SHOT_RANGE, STEPS, HermeticaState, Progress, turn_start,
)
from referee.games.hermetica.rules import act, draft_wall


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


def next_actions(state: HermeticaState, progress: Progress) -> list[Action]:
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
            found += _water_actions(state, cell, legal)
            continue
        ops = {"A": "-*", "F": "-=", "E": "-"}[unit.kind]
        found += _walks(state, cell, unit.kind, ops, legal)
        if unit.kind == "F":
            for direction in grid.directions:
                for target in list(grid.ray(cell, direction))[:SHOT_RANGE]:
                    if state.units[target] is not None or state.barrier(target) is not None:
                        if legal(shot := Shot(names, cell, target)) is not None:
                            found.append(shot)
                        break
    return found


def _walks(state: HermeticaState, cell: int, kind: str, ops: str, legal) -> list[Action]:
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
            if not may_extend(kind, path, op, on_own_shield):
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


def _water_actions(state: HermeticaState, cell: int, legal) -> list[Action]:
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
