"""Hermetica played out for a search (base.py, section 4: `playout`), lightly guided.

Listing every next action costs hundreds of checks (listing.py); a playout draws one action at
a time instead: a unit of the side to move that has not acted (or a spawn), then one action of
that unit's kind drawn at random, checked by `rules.act` — the referee's own check, which
refuses an illegal one, and then another is drawn. Every action played is one `act` allows, so
every turn is a legal turn.

Random turns wander: an Adept that walks about at random seldom reaches the other Horizon. So
the draw is guided, lightly, in three ways, each a choice among legal actions:
- an Adept that can enter the other side's Horizon this action does (R-HM10: that wins);
- a drawn Adept steps, more often than not, along a shortest way to the other Horizon;
- a Fire with the enemy Adept in its sights shoots it (R-HM6, R-HM9); one with another enemy
  unit in its sights shoots it half the time, and never a friend.
A turn ends early after each action with a chance of 1 in 10, as `Game.random_move` ends it.
A playout is cut after a number of turns, and `evaluate.py` guesses the outcome there.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Callable

from referee.errors import IllegalMoveError
from referee.games.hermetica.moves import Action, Shot, Slide, Spawn, Steps
from referee.games.hermetica.position import (
    ACTIONS_PER_TURN, ELEMENTS, MAX_ELEMENTS_ON_BOARD, SHOT_RANGE, STEPS, HermeticaState, Progress,
    turn_start,
)
from referee.games.hermetica.rules import act

# A playout is cut after this many turns and the position guessed at (evaluate.py): random
# turns wander, and the race to the Horizons says more than a long wander. One turn — the
# other side's reply, which takes a win or shoots an Adept when it can — played best: at 1 s a
# move, the search cut after 1 turn scored 5.5 of 8 games against itself cut after 2 turns and
# 6 of 8 against itself cut after none (which scored 5 of 8 against the cut after 2); cut after
# 8 turns, it won 2 of 4 against a random player, cut after 1, 8 of 8.
TURNS = 1
END_CHANCE = 0.1  # a turn may stop after any action (R-HM2), as Game.random_move stops it
ADVANCE = 0.6  # how often a drawn Adept heads for the other Horizon rather than anywhere
DEPLOY = 0.25  # how often a random Adept action deploys its Shield (R-HM5)
SHOOT = 0.5  # how often a Fire with an enemy in its sights shoots (R-HM6)
RELOCATE = 0.5  # how often a Water relocates what it collided with (R-HM8)
TRIES = 8  # drawn actions refused in a row before the turn ends


def _may_spawn(state: HermeticaState, progress: Progress) -> bool:
    """Whether a spawn is worth drawing (R-HM3): two actions left, room for one more element,
    and one still to spawn."""
    seat = state.turn
    return (progress.spent + 2 <= ACTIONS_PER_TURN and any(state.reserve[seat - 1])
            and state.elements_on_board(seat) < MAX_ELEMENTS_ON_BOARD)


def _spawn(state: HermeticaState, rng: random.Random) -> Spawn | None:
    """An element still in reserve onto an empty hex of the side's Horizon (R-HM3)."""
    seat = state.turn
    cells = [cell for cell in sorted(state.board.horizons[seat]) if state.empty(cell)]
    if not cells:
        return None
    kind = rng.choice([k for k, left in zip(ELEMENTS, state.reserve[seat - 1]) if left])
    return Spawn(state.board.grid.names, kind, rng.choice(cells))


def _blocked(state: HermeticaState) -> set[int]:
    """The hexes that are not empty (R-HM0): a unit or a barrier on them."""
    blocked = {cell for cell, unit in enumerate(state.units) if unit is not None}
    blocked |= state.walls
    blocked.update(shield for shield in state.shields if shield is not None)
    return blocked


def _way_home(state: HermeticaState, start: int, seat: int, blocked: set[int], within: int = 99) -> list[int]:
    """A shortest walk of an Adept on `start` over empty hexes to the other side's Horizon,
    when one is at most `within` steps long; [] otherwise. Breadth first."""
    neighbours = state.board.grid.neighbours
    goal = state.board.horizons[3 - seat]
    back = {start: start}
    frontier = [start]
    for _ in range(within):
        reached = []
        for cell in frontier:
            for nb in neighbours[cell]:
                if nb not in back and nb not in blocked:
                    back[nb] = cell
                    if nb in goal:
                        path = []
                        while nb != start:
                            path.append(nb)
                            nb = back[nb]
                        return path[::-1]
                    reached.append(nb)
        if not reached:
            break
        frontier = reached
    return []


def _adept(state: HermeticaState, cell: int, rng: random.Random) -> Steps:
    names, neighbours = state.board.grid.names, state.board.grid.neighbours
    if rng.random() < ADVANCE:
        home = _way_home(state, cell, state.turn, _blocked(state))
        if home:
            return Steps(names, "A", cell, tuple(("-", c) for c in home[:STEPS["A"]]))
    ops, pos = [], cell
    for _ in range(1 + (rng.random() < 0.5)):
        pos = rng.choice(neighbours[pos])
        ops.append(("-", pos))
    if rng.random() < DEPLOY:
        at = rng.randrange(len(ops) + 1)
        near = cell if at == 0 else ops[at - 1][1]
        ops.insert(at, ("*", rng.choice(neighbours[near])))
    return Steps(names, "A", cell, tuple(ops))


def _fire(state: HermeticaState, cell: int, rng: random.Random) -> Action:
    grid, names = state.board.grid, state.board.grid.names
    targets = []  # the first unit along each line, if an enemy (R-HM6)
    for ray in grid.rays[cell]:
        for target in ray[:SHOT_RANGE]:
            unit = state.units[target]
            if unit is not None:
                if unit.seat != state.turn:
                    targets.append(target)
                break
            if state.barrier(target) is not None:
                break
    adepts = [t for t in targets if state.units[t].kind == "A"]
    if adepts:
        return Shot(names, cell, adepts[0])  # R-HM9: a shot may capture an Adept
    if targets and rng.random() < SHOOT:
        return Shot(names, cell, rng.choice(targets))
    ops, pos = [], cell
    carry = state.shields[state.turn - 1] == cell and rng.random() < 0.3
    for _ in range(rng.randint(1, STEPS["F"])):
        pos = rng.choice(grid.neighbours[pos])
        ops.append(("=" if carry else "-", pos))
        carry = False
    return Steps(names, "F", cell, tuple(ops))


def _earth(state: HermeticaState, cell: int, rng: random.Random) -> Steps:
    neighbours = state.board.grid.neighbours
    ops, pos = [], cell
    for _ in range(rng.randint(1, STEPS["E"])):
        pos = rng.choice(neighbours[pos])
        ops.append(("-", pos))
    return Steps(state.board.grid.names, "E", cell, tuple(ops))


def _water(state: HermeticaState, cell: int, rng: random.Random) -> Slide:
    grid = state.board.grid
    direction = rng.choice(grid.directions)
    stop = cell
    while (nxt := grid.step(stop, direction)) is not None and state.empty(nxt):
        stop = nxt
    collided = grid.step(stop, direction)
    relocate = None
    if collided is not None and not state.empty(collided) and (stop == cell or rng.random() < RELOCATE):
        own_shield = state.shields[state.turn - 1] == collided and state.units[collided] is None
        if own_shield and rng.random() < 0.5:
            relocate = (collided, "@", rng.choice(grid.neighbours[collided]))
        else:
            relocate = (collided, "=", rng.choice(grid.neighbours[stop]))
    return Slide(grid.names, cell, stop, relocate)


def _winning_step(state: HermeticaState, cell: int) -> Steps | None:
    """The Adept's steps into the other side's Horizon, when a walk over empty hexes reaches it
    this action (R-HM5: two steps; R-HM10)."""
    home = _way_home(state, cell, state.turn, _blocked(state), STEPS["A"])
    return Steps(state.board.grid.names, "A", cell, tuple(("-", c) for c in home)) if home else None


DRAW = {"F": _fire, "E": _earth, "W": _water}


def draw_action(state: HermeticaState, progress: Progress, rng: random.Random
                ) -> tuple[HermeticaState, Progress, Action] | None:
    """One legal action of the side to move, drawn as the module says; None when the turn
    ends here: by the chance of stopping early, or when TRIES drawn in a row were refused."""
    seat = state.turn
    if progress.obliged and progress.done == 0:  # R-HM4: the captured Adept returns first
        spawn = Spawn(state.board.grid.names, "A", rng.choice(state.respawn_cells(seat)))
        after, progress, _ = act(state, progress, spawn, None)
        return after, progress, spawn
    ready = [cell for cell, unit in enumerate(state.units)
             if unit is not None and unit.seat == seat and unit.uid not in progress.acted]
    adept = next((cell for cell in ready if state.units[cell].kind == "A"), None)
    first = _winning_step(state, adept) if adept is not None else None
    if first is None and rng.random() < END_CHANCE:
        return None
    choices = len(ready) + _may_spawn(state, progress)
    for _ in range(TRIES):
        if first is not None:
            action, first = first, None
        else:
            if not choices:
                return None
            k = rng.randrange(choices)
            if k == len(ready):
                action = _spawn(state, rng)
                if action is None:
                    continue
            else:
                cell = ready[k]
                kind = state.units[cell].kind
                action = _adept(state, cell, rng) if kind == "A" else DRAW[kind](state, cell, rng)
        try:
            after, progress_after, _ = act(state, progress, action, None)
        except IllegalMoveError:
            continue
        return after, progress_after, action
    return None


def play_turn(state: HermeticaState, rng: random.Random,
              log: Callable[[tuple[Action, ...]], None] | None = None) -> HermeticaState:
    """One whole turn (R-HM2) of the side to move, drawn action by action; the position after
    it, as `Game.end_turn` leaves it (without the record of what each action did)."""
    progress = turn_start(state)
    actions: list[Action] = []
    while progress.spent < ACTIONS_PER_TURN and state.winner is None:
        drawn = draw_action(state, progress, rng)
        if drawn is None:
            break
        state, progress, action = drawn
        actions.append(action)
    if log is not None:
        log(tuple(actions))
    return replace(state, plies=state.plies + 1, last=())


def play(state: HermeticaState, rng: random.Random, turns: int,
         log: Callable[[tuple[Action, ...]], None] | None = None) -> HermeticaState:
    """Up to `turns` turns from `state` (in the turns phase), fewer when an Adept wins."""
    for _ in range(turns):
        if state.winner is not None:
            break
        state = play_turn(state, rng, log)
    return state
