"""A guess at who wins a Hermetica position, without looking ahead (base.py, section 4:
`evaluate`), for a playout cut short.

The game is a race (R-HM10): the first Adept into the other side's Horizon wins. So the guess
weighs how many turns each Adept needs to get there — two steps a turn (R-HM5) over hexes
without a barrier, the walls and Shields being what stays in its way (units move aside, or are
moved) — with a turn more for a captured Adept, which must first return to its Prime hex
(R-HM4); the side to move is a step ahead. Material counts a little: the elements each side
still has, on the board or to spawn (a captured one is gone for good, R-HM3).

The weights were fitted (a logistic regression) to how the playouts of playout.py end from
positions reached by those playouts (300 games to the end, 7,204 positions, all three schemes),
so that a cut playout guesses what a whole one would say.
"""

from __future__ import annotations

import math

from referee.games.hermetica.board import SUN
from referee.games.hermetica.position import STEPS, HermeticaState

FAR = 30  # the distance of an Adept walled off from the other Horizon

# logit(P(the side to move wins)) = TEMPO + RACE·(their turns − mine) + MATERIAL·(my − their
# elements); see the module's docstring for how they were found.
TEMPO, RACE, MATERIAL = 0.15, 0.60, 0.11


# A result a playout reaches later counts a little less, by this much a turn: a search then
# tells the win it can take now from the same win after a turn given away (a pass), which the
# playout's next turn would take just as surely.
SOONER = 0.9


def shaded(values: tuple[float, float], turns: int) -> tuple[float, float]:
    """`values` reached `turns` turns on, drawn towards even by SOONER a turn."""
    keep = SOONER ** turns
    sun = 0.5 + (values[0] - 0.5) * keep
    return (sun, 1.0 - sun)


def distance(state: HermeticaState, seat: int) -> int:
    """Steps from the seat's Adept (a captured one: from its Prime hex) to the other side's
    Horizon over hexes without a barrier, breadth first; FAR when there is no way."""
    board = state.board
    start = state.adept(seat)
    if start is None:
        start = board.primes[seat]
    goal = board.horizons[3 - seat]
    barriers = set(state.walls)
    barriers.update(s for s in state.shields if s is not None)
    neighbours = board.grid.neighbours
    seen, frontier, steps = {start}, [start], 0
    while frontier:
        if any(cell in goal for cell in frontier):
            return steps
        steps += 1
        reached = []
        for cell in frontier:
            for nb in neighbours[cell]:
                if nb not in seen and nb not in barriers:
                    seen.add(nb)
                    reached.append(nb)
        frontier = reached
    return FAR


def turns_to_win(state: HermeticaState, seat: int) -> int:
    """The turns the seat's Adept needs to reach the other Horizon, walking two steps a turn,
    plus one for a captured Adept's return (R-HM4: it cannot move in the turn it returns)."""
    return -(-distance(state, seat) // STEPS["A"]) + (state.adept(seat) is None)


def elements_left(state: HermeticaState, seat: int) -> int:
    """The seat's elements not captured: on the board or still to spawn."""
    return state.elements_on_board(seat) + sum(state.reserve[seat - 1])


def sun_share(state: HermeticaState) -> float:
    """A guess at Sun's chance (0–1); 1 or 0 once an Adept has won (R-HM10)."""
    if state.winner is not None:
        return 1.0 if state.winner == SUN else 0.0
    me, them = state.turn, 3 - state.turn
    logit = (TEMPO + RACE * (turns_to_win(state, them) - turns_to_win(state, me))
             + MATERIAL * (elements_left(state, me) - elements_left(state, them)))
    mine = 1.0 / (1.0 + math.exp(-logit))
    return mine if me == SUN else 1.0 - mine

