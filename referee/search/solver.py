"""Exact solving against the clock (SPEC §10 `solve`, `new --winnable`): the crab game's exact
search over its known deal (referee/games/crab/solver.py, which keeps no clock) given a time
budget, and the search for a deal it proves winnable from the start.

Only the crab game has a deal fixed in its record and no opponent, so only it can be solved.
"""

from __future__ import annotations

import time
from typing import Any, Mapping, NamedTuple

from referee.games.base import Game
from referee.games.crab.solver import Solution, no_deal_wins, solve as exact

SOLVABLE = ("crab",)
# `new --winnable`: each deal gets this many positions (not seconds, so that a seed deals the
# same game on every machine), and the hunt stops after this many seconds in all.
DEAL_POSITIONS = 4000
HUNT_SECONDS = 60.0
TOML_INT = 2**63 - 1 - 10**6


def solve(state: Any, seconds: float | None = None, positions: int | None = None) -> tuple[Solution, float]:
    """The solver's answer for `state` within `seconds` and/or a budget of `positions` (the
    same answer on every machine), and the seconds it took."""
    began = time.monotonic()
    deadline = None if seconds is None else began + seconds
    found = exact(state, lambda: deadline is not None and time.monotonic() >= deadline, positions)
    return found, time.monotonic() - began


class Settled(NamedTuple):
    """The solver's answer for an engine's move: `winnable` True (with `line`), False or None,
    the positions searched and the seconds taken."""

    winnable: bool | None
    line: tuple[str, ...]
    searched: int
    seconds: float


def settle(game: Game, state: Any, seconds: float, iterations: int | None = None) -> Settled | None:
    """Where a game can be solved (SOLVABLE), the solver's answer before a search looks for a
    move: within `seconds`, or, when the search is bounded by iterations (the same answer every
    time), within DEAL_POSITIONS positions. None for every other game."""
    if game.id not in SOLVABLE:
        return None
    found, took = solve(state, positions=DEAL_POSITIONS) if iterations is not None else solve(state, seconds)
    return Settled(found.winnable, found.line, found.searched, round(took, 3))


class Hunt(NamedTuple):
    """What `winnable_deal` found: the seed of a deal proven winnable and its [setup] (both
    None when none was found in time), and the seeds tried, first to last."""

    seed: int | None
    setup: dict[str, Any] | None
    tried: int
    first: int
    last: int


def winnable_deal(game: Game, options: Mapping[str, Any], files: Mapping[str, Mapping[str, Any]],
                  first: int, positions: int | None = None, seconds: float | None = None) -> Hunt:
    """Deal with seeds first, first + 1, … until the solver proves a deal winnable from the
    start within `positions` (DEAL_POSITIONS), or `seconds` (HUNT_SECONDS) have passed.
    Raises ValueError for a bad deck, or options under which the bound proves every deal
    lost (then no seed is worth trying)."""
    positions = DEAL_POSITIONS if positions is None else positions
    stop = time.monotonic() + (HUNT_SECONDS if seconds is None else seconds)
    step = 1 if first < TOML_INT else -1  # a record's integers are 64-bit (TOML)
    seed, tried = first, 0
    while time.monotonic() < stop:
        seed = first + step * tried
        tried += 1
        dealt = {**options, "seed": seed}
        setup = game.new_setup(dealt, files, seed)
        start = game.start(dealt, setup)
        if tried == 1 and no_deal_wins(start):
            raise ValueError(
                f"--winnable: no deal can be won with these options (task {start.task}, wave_start "
                f"{start.wave_start}, players {len(start.areas)}): the cards in hand and pile cannot "
                "last the rounds Hermie needs to reach the Wave; try other options, or without --winnable")
        found = exact(start, lambda: time.monotonic() >= stop, positions)
        if found.winnable:
            return Hunt(seed, setup, tried, first, seed)
    return Hunt(None, None, tried, first, seed)
