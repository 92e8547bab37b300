"""What the playout tests share: the value a uniformly random playout has by the referee's own
hooks, worked out exactly, and the tolerances within which a sampled mean must fall.

A playout's return to seat 1 lies between 0 and 1. By Hoeffding's inequality, the mean of n
independent ones strays from its expectation by t or more with a chance of at most
2·exp(−2·n·t²); the difference of two such means, of n₁ and n₂ playouts with the same
expectation, by t or more with a chance of at most 2·exp(−2·t² / (1/n₁ + 1/n₂)). The
tolerances below solve these for a chance of `chance` (a test checking k means gives each
chance/k, so that all k together fail by chance no more often than `chance`). The generators
are seeded, so a test gives the same answer every run; the bound says that the seed was not
picked to make it pass.
"""

from __future__ import annotations

import math
import random
from typing import Any, Callable, Hashable

from referee.games.base import Game

CHANCE = 1e-6  # at most one run in a million fails with the playouts right


def tolerance_one(n: int, chance: float = CHANCE) -> float:
    """How far the mean of n returns may stray from their expectation (Hoeffding)."""
    return math.sqrt(math.log(2 / chance) / (2 * n))


def tolerance_two(n1: int, n2: int, chance: float = CHANCE) -> float:
    """How far the means of n1 and of n2 returns of the same expectation may differ."""
    return math.sqrt(math.log(2 / chance) * (1 / n1 + 1 / n2) / 2)


def exact_value(game: Game, state: Any, key: Callable[[Any], Hashable]) -> float:
    """Seat 1's expected return when every ply from `state` is a uniformly random choice among
    `game.legal_moves`, played through `game.apply` to the end: the distribution the fast
    playouts must reach, summed over the whole tree (positions met twice are worked out once,
    by `key`)."""
    memo: dict[Hashable, float] = {}

    def value(state: Any) -> float:
        k = key(state)
        if k in memo:
            return memo[k]
        if game.outcome(state) is not None:
            v = game.returns(state)[0]
        else:
            moves = game.legal_moves(state)
            v = sum(value(game.apply(state, m)) for m in moves) / len(moves)
        memo[k] = v
        return v

    return value(state)


def mean_return(playout: Callable[[Any, random.Random], tuple[float, ...]], state: Any, n: int,
                seed: int) -> float:
    """Seat 1's mean return over n playouts from `state`, seeded."""
    rng = random.Random(seed)
    return sum(playout(state, rng)[0] for _ in range(n)) / n


def random_position(game: Game, state: Any, plies: int, rng: random.Random) -> Any:
    """The position after up to `plies` random legal moves (fewer when the game ends)."""
    for _ in range(plies):
        if game.outcome(state) is not None:
            break
        state = game.apply(state, game.random_move(state, rng))
    return state
