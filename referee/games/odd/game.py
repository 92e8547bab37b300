"""Odd and Dustin behind the referee's hooks (R-OD1…R-OD3)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Mapping

from referee.errors import IllegalMoveError
from referee.games.base import Game, Move, Option, Outcome, count
from referee.games.odd.moves import BLACK, COLOUR_LETTER, EMPTY, WHITE, Placement, parse_placement
from referee.games.odd.playout import play_out, some_plies_at_random
from referee.games.odd.position import OddState
from referee.geometry.hexhex import HexHexGrid, hexhex_grid
from referee.games.picture import Picture, PieceKind

if TYPE_CHECKING:
    import random  # the caller brings its own generator

KINDS = (PieceKind("b", "X", "black"), PieceKind("w", "O", "white"))


class Odd(Game):
    # -- 1. metadata and options --------------------------------------------------------------

    id = "odd"
    name = "Odd"
    credit = "Nick Bentley 2009"
    options = (
        Option("size", 5, "cells along each side of the hex-hex board", 3, 12),
        Option("min_group", 5, "the smallest group that counts at the end", 2, 12),
    )
    notation = "<colour> <cell>, colour b or w: 'b e5', 'w a1'"

    # -- 2. setup -----------------------------------------------------------------------------

    def start(self, options: Mapping[str, Any], setup: Mapping[str, Any]) -> OddState:
        return OddState.empty(hexhex_grid(options["size"]), options["min_group"])

    # -- 3. moves -----------------------------------------------------------------------------

    def parse(self, state: OddState, text: str) -> Placement:
        return parse_placement(state.grid, text)

    # -- 4. play ------------------------------------------------------------------------------

    def to_move(self, state: OddState) -> int | None:
        return None if state.full else state.turn

    def legal_moves(self, state: OddState) -> list[Move]:
        black, white = _placements(state.grid)
        stones = state.stones
        empty = [c for c in state.grid if stones[c] == EMPTY]
        return [black[c] for c in empty] + [white[c] for c in empty]

    def apply(self, state: OddState, move: Move) -> OddState:
        if not isinstance(move, Placement):
            raise IllegalMoveError(f"{move} is not a move in {self.name}")
        if state.stones[move.cell] != EMPTY:
            raise IllegalMoveError(f"{move.cell_name} is occupied")
        return state.place(move.cell, move.colour)

    def outcome(self, state: OddState) -> Outcome | None:
        if not state.full:
            return None
        n = state.counted
        winner = 1 if n % 2 else 2
        groups = count(n, "group", "groups")
        return Outcome((winner,), f"{groups} of {state.min_group} or more: {_parity(n)}")

    def playout(self, state: OddState, rng: random.Random, limit: int = 1000,
                codes: list[int] | None = None) -> tuple[float, ...]:
        # Random play comes to a fair coin for each empty cell, whatever the order (playout.py).
        if len(state.grid) - state.placed > limit:
            return self.evaluate(some_plies_at_random(state, rng, limit))  # cut short: no codes
        return play_out(state, rng, codes)

    # AMAF codes: a placement is its colour and its cell, whichever seat makes it. Either seat
    # may place either colour (R-OD1), and what a stone does at the end — the groups it joins
    # — does not depend on who placed it or when, so the statistics of "b e5" are one table
    # for both seats (each reads them for itself: a win for one is a loss for the other).
    # Shared, they gather twice the playouts a seat's own would.

    def action_codes(self, state: OddState) -> int:
        return 2 * len(state.grid)

    def action_code(self, turn: Any, action: Placement) -> int:
        return action.cell if action.colour == BLACK else len(turn.before.grid) + action.cell

    # -- 5. words -----------------------------------------------------------------------------

    def score(self, state: OddState) -> dict[str, Any]:
        n = state.counted
        return {"groups": n, "parity": _parity(n)}

    def status_lines(self, state: OddState) -> list[str]:
        n = state.counted
        # R-OD3: the count and its parity after every ply, as players would announce it.
        leader = 1 if n % 2 else 2
        return [
            f"Groups of {state.min_group} or more: {n}, {_parity(n)} (seat {leader} would win)",
            f"Empty cells: {len(state.grid) - state.placed}",
        ]

    def final_status_lines(self, state: OddState) -> list[str]:
        # Over (a full board or a resignation): the count stands, the forecast goes.
        n = state.counted
        return [f"Groups of {state.min_group} or more: {n}, {_parity(n)}",
                f"Empty cells: {len(state.grid) - state.placed}"]

    # -- 6. view model ------------------------------------------------------------------------

    def picture(self, state: OddState, last: Move | None) -> Picture:
        pieces = {c: COLOUR_LETTER[v] for c, v in enumerate(state.stones) if v}
        marks = {last.cell} if isinstance(last, Placement) else set()
        return Picture(state.grid, KINDS, pieces, marks)

    def blank_picture(self, options: Mapping[str, Any], setup: Mapping[str, Any]) -> Picture:
        return Picture(hexhex_grid(options["size"]), KINDS)


class Dustin(Odd):
    """The same game as Odd under its earlier name (R-OD1)."""

    id = "dustin"
    name = "Dustin"
    credit = "Nick Bentley 2007"


def _parity(n: int) -> str:
    return "odd" if n % 2 else "even"


@lru_cache(maxsize=16)
def _placements(grid: HexHexGrid) -> tuple[tuple[Placement, ...], tuple[Placement, ...]]:
    """Every placement of a board, black and white, by cell: made once a board (a move is an
    immutable value), so that listing the legal moves builds none; a search lists them at
    every node it adds."""
    return tuple(tuple(Placement(colour, c, grid.name(c)) for c in grid) for colour in (BLACK, WHITE))
