"""Hermetica positions: the units, what one action did (for the diagrams), the immutable state
with its phases (R-HM1) and what stands where, and the progress of the turn being played
(R-HM2, R-HM4)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from referee.games.hermetica.board import MOON, SIDE, SUN, WALLS, Board

ELEMENTS = ("F", "E", "W")
UNIT_NAME = {"A": "Adept", "F": "Fire", "E": "Earth", "W": "Water"}
COPIES = 3  # of each element per side
MAX_ELEMENTS_ON_BOARD = 5  # R-HM3
ACTIONS_PER_TURN = 3  # R-HM2
ELEMENT_PLIES = 6  # R-HM1: three elements each
SCHEMES = ("dawn", "noon", "dusk")
STEPS = {"A": 2, "F": 4, "E": 3}  # R-HM5, R-HM6, R-HM7
SHOT_RANGE = 4  # R-HM6


@dataclass(frozen=True)
class Unit:
    seat: int
    kind: str  # "A", "F", "E" or "W"
    uid: int  # tells two Fires of one side apart, for "once per turn" (R-HM2)

    @property
    def letter(self) -> str:
        return self.kind if self.seat == SUN else self.kind.lower()

    @property
    def name(self) -> str:
        return UNIT_NAME[self.kind]

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
        return barrier_at(self.walls, self.shields, cell)

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
        return describe_cell(self.board.name(cell), self.units[cell], self.barrier(cell))

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


def describe_cell(name: str, unit: Unit | None, barrier: str | None) -> str:
    """What a player sees on the cell `name`, for a position or a position being changed."""
    under = {"wall": "a Wall", "shield1": "Sun's Shield", "shield2": "Moon's Shield"}.get(barrier)
    if unit and under:
        return f"{unit.describe()} on {under} on {name}"
    if unit:
        return f"{unit.describe()} on {name}"
    if under:
        return f"{under} on {name}"
    return f"the empty hex {name}"


def barrier_at(walls, shields, cell: int) -> str | None:
    """What barrier stands on `cell`, for a position or a position being changed."""
    if cell in walls:
        return "wall"
    for seat in (SUN, MOON):
        if shields[seat - 1] == cell:
            return f"shield{seat}"
    return None


@dataclass(frozen=True)
class Progress:
    """How far the current turn has gone (R-HM2, R-HM4)."""

    spent: int = 0
    done: int = 0  # actions so far
    acted: frozenset[int] = frozenset()  # units that acted or were spawned this turn
    obliged: bool = False  # the captured Adept must come back first (R-HM4)
    reports: tuple[ActionReport, ...] = ()  # what each action did, for the diagrams


def turn_start(state: HermeticaState) -> Progress:
    """The progress of a turn not yet begun: obliged if the captured Adept can return (R-HM4)."""
    seat = state.turn
    return Progress(obliged=state.adept(seat) is None and bool(state.respawn_cells(seat)))
