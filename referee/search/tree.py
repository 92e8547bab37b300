"""The search tree's values: a node (one decision and what the search learnt of it), what a
search found, and the settings it searches with (per game and per algorithm).

A node's figures are those of the seat that chose it — its parent's seat: `value` sums that
seat's returns through the node, and `proven`, once the search has proven the node, holds
the returns of the game played well from there on (every seat's, as the game gives them).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from referee.games.base import Move, TurnSoFar

END = "end of turn"  # the action that ends a turn that may end (R-HM2's shorter turns)


class Node:
    """One decision in the tree, and what the search has learnt of it."""

    __slots__ = ("turn", "seat", "action", "code", "untried", "codes", "children", "visits",
                 "value", "proven", "lost", "amaf")

    def __init__(self, action: Any, turn: TurnSoFar | None, seat: int | None,
                 ended: tuple[float, ...] | None = None):
        self.action = action  # what the parent's seat did to get here
        self.code: int | None = None  # the action's AMAF code, where the game numbers them
        self.turn = turn  # the decision here (None once the game is over)
        self.seat = seat  # the seat deciding here
        self.untried: list[Any] | None = None  # actions not yet made children (Search._order)
        self.codes: Any = None  # their codes, once looked up (grave.py: an array)
        self.children: list[Node] = []
        self.visits = 0
        self.value = 0.0  # the sum of the returns of the parent's seat through this node
        # Every seat's returns under best play from here, once proven (proof.py); a finished
        # game is proven by its own returns.
        self.proven: tuple[float, ...] | None = ended
        self.lost = 0  # children proven lost for this node's seat (proof.py)
        self.amaf: Any = None  # the all-moves-as-first table below this node (grave.py)

    @property
    def ended(self) -> tuple[float, ...] | None:
        """The game's returns where it is over here, else None."""
        return self.proven if self.turn is None else None

    def mean(self) -> float:
        return self.value / self.visits if self.visits else 0.0


@dataclass(frozen=True)
class Candidate:
    """A move the search tried at the root: the whole turn, its value for the seat to move
    (0–1: the mean of the playouts through it, or exactly 1 or 0 once proven won or lost), how
    often it was tried, the line the search expects (this move first), and whether proven."""

    move: Move
    value: float
    visits: int
    line: tuple[str, ...]
    proven: bool


@dataclass(frozen=True)
class Found:
    """What a search found: the move for the seat to move (a whole turn), its value for that
    seat (0–1), how often it was tried, the line of play the search expects (moves in
    canonical notation, this one first), what it cost, and whether the value is proven (1.0:
    a forced win, 0.0: every move loses against best play; the line is then the forcing one)."""

    move: Move
    seat: int
    value: float
    visits: int
    line: tuple[str, ...]
    iterations: int
    seconds: float
    proven: bool = False


@dataclass(frozen=True)
class Settings:
    """How a search chooses (each measured by matches: docs/engine-strength.md).

    exploration  UCT's constant for values between 0 and 1; larger explores more
    widen, power a node with n visits considers at most widen · n ** power of its actions
    amaf         keep all-moves-as-first statistics and choose by GRAVE (grave.py)
    ref          GRAVE: a node's table is used below it once it holds this many playouts
    bias         GRAVE: how soon a node's own figures outweigh the table's
    start        GRAVE: a node keeps a table from its start-th visit on (memory: most nodes
                 are visited a few times and never need one)
    solver       prove wins and losses and back them up the tree (proof.py)
    reuse        keep the tree from one move to the next where the game went on from it
    """

    exploration: float = 0.8
    widen: float = 2.0
    power: float = 0.5
    amaf: bool = False
    ref: int = 50
    bias: float = 1e-5
    start: int = 20
    solver: bool = False
    reuse: bool = False


# The search as it was before GRAVE and the solver: UCT with progressive widening. Kept so
# that the comparison of docs/engine-strength.md can be run again (`Algorithm uct`).
UCT = Settings()

# GRAVE with the solver and the kept tree, per game where the matches chose other constants
# than these (docs/engine-strength.md has the matches). Against the old search at 0.25 s a
# move, Hermit (square) scored 16 of 20 with exploration 0, 19 of 20 with 0.1 and 7 of 10
# with 0.2: the table's values explore enough by themselves, and the placement games take
# 0.1; Harmijan scored 8 of 10 with 0.2.
GRAVE = Settings(exploration=0.2, widen=2.0, power=0.5, amaf=True, ref=50, bias=1e-5,
                 start=20, solver=True, reuse=True)
PLACEMENTS = replace(GRAVE, exploration=0.1)
TUNED: dict[str, Settings] = {"odd": PLACEMENTS, "dustin": PLACEMENTS, "hermit": PLACEMENTS}

ALGORITHMS = ("grave", "uct")
DEFAULT_ALGORITHM = "grave"


def settings_for(game_id: str, algorithm: str = DEFAULT_ALGORITHM) -> Settings:
    """The settings a search of `game_id` uses under `algorithm` (ALGORITHMS)."""
    if algorithm == "uct":
        return UCT
    if algorithm != "grave":
        raise ValueError(f"unknown algorithm {algorithm!r} (known: {', '.join(ALGORITHMS)})")
    return TUNED.get(game_id, GRAVE)
