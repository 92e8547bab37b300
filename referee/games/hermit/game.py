"""Hermit behind the referee's hooks: drop stones so that every group of your colour has 1, 3
or 5 stones; most groups wins (R-HE1…R-HE5). Passing is never a choice (R-G3)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Mapping

from referee.errors import IllegalMoveError
from referee.games.base import Game, Move, Option, Outcome, Pass, count
from referee.games.hermit.moves import Drop, parse_move
from referee.games.hermit.playout import play_out
from referee.games.hermit.position import HermitState
from referee.geometry import hexhex_grid, square_grid
from referee.geometry.grid import Grid
from referee.games.picture import Picture, PieceKind

if TYPE_CHECKING:
    import random  # the caller brings its own generator

KINDS = (PieceKind("b", "X", "seat 1", seat=1), PieceKind("w", "O", "seat 2", seat=2))
SEAT_KIND = {1: "b", 2: "w"}
SIZE_LIMITS = {"square": (7, 5, 9), "hex": (5, 3, 7)}  # default, smallest, largest (R-HE1)


class Hermit(Game):
    # -- 1. metadata and options --------------------------------------------------------------

    id = "hermit"
    name = "Hermit"
    credit = "Phil Leduc 2020"
    options = (
        Option("board", "square", "the board: square (orthogonal) or hex (hex-hex)", choices=("square", "hex")),
        Option("size", 7, "cells per side: square 5–9 (default 7), hex 3–7 (default 5)", 3, 9),
        Option("stones", 30, "stones each seat owns", 1, 200),
    )
    notation = "<cell>: 'e5'; 'pass' only when you cannot place (passes are written for you)"

    def resolve_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        # The size's default and range depend on the board (R-HE1), so check it against that.
        resolved = super().resolve_options({k: v for k, v in given.items() if k != "size"})
        default, lo, hi = SIZE_LIMITS[resolved["board"]]
        size_option = self.options[1]
        resolved["size"] = size_option.check(given["size"], lo, hi) if "size" in given else default
        return {"board": resolved["board"], "size": resolved["size"], "stones": resolved["stones"]}

    # -- 2. setup -----------------------------------------------------------------------------

    def start(self, options: Mapping[str, Any], setup: Mapping[str, Any]) -> HermitState:
        grid = self._grid(options)
        return HermitState(
            grid, grid.centre_cell, (0,) * len(grid), (options["stones"], options["stones"])
        )

    def _grid(self, options: Mapping[str, Any]) -> Grid:
        if options["board"] == "hex":
            return hexhex_grid(options["size"])
        return square_grid(options["size"])

    # -- 3. moves -----------------------------------------------------------------------------

    def parse(self, state: HermitState, text: str) -> Move:
        return parse_move(state.grid, text)

    # -- 4. play ------------------------------------------------------------------------------

    def to_move(self, state: HermitState) -> int | None:
        if state.can_place[state.turn]:
            return state.turn
        if state.can_place[3 - state.turn]:
            return 3 - state.turn
        return None

    def legal_moves(self, state: HermitState) -> list[Move]:
        seat = self.to_move(state)
        if seat is None:
            return []
        return [Drop(c, state.grid.name(c)) for c in state.legal_cells(seat)]

    def apply(self, state: HermitState, move: Move) -> HermitState:
        seat = state.turn
        if isinstance(move, Pass):
            if state.can_place[seat]:
                raise IllegalMoveError(
                    f"seat {seat} can place and so may not pass (R-G3)"
                )
            return replace(state, turn=3 - seat)
        if not isinstance(move, Drop):
            raise IllegalMoveError(f"{move} is not a move in {self.name}")
        # The drop is checked first: a legal one shows that its seat can place, so the board
        # is searched for a place only when this one is refused.
        reason = state.why_not(seat, move.cell)
        if reason and not state.can_place[seat]:
            seat = 3 - seat  # the pass of the seat that cannot place is implied (SPEC §5)
            reason = state.why_not(seat, move.cell)
        if reason:
            raise IllegalMoveError(reason)
        state.can_place.found(seat)
        stones = list(state.stones)
        stones[move.cell] = seat
        left = list(state.left)
        left[seat - 1] -= 1
        return replace(
            state, stones=tuple(stones), left=tuple(left), turn=3 - seat, last_placer=seat
        )

    def outcome(self, state: HermitState) -> Outcome | None:
        # The seat to move first: after most plies it is known to place without a search.
        if state.can_place[state.turn] or state.can_place[3 - state.turn]:
            return None
        one, two = state.group_counts(1), state.group_counts(2)
        # R-HE5: most groups, then most hermits, then most threes, then the last placer.
        ties = []
        for key, one_word, words in (
            ("groups", "group", "groups"),
            ("hermits", "hermit", "hermits"),
            ("threes", "group of 3", "groups of 3"),
        ):
            a, b = one[key], two[key]
            if a != b:
                winner = 1 if a > b else 2
                lead = f"{count(max(a, b), one_word, words)} to {min(a, b)}"
                return Outcome((winner,), "; ".join([*ties, lead]))
            ties.append(f"{count(a, one_word, words)} each")
        last = state.last_placer
        return Outcome((last,), "; ".join([*ties, f"seat {last} placed the last stone"]))

    def playout(self, state: HermitState, rng: random.Random, limit: int = 1000,
                codes: list[int] | None = None) -> tuple[float, ...]:
        # The same random drops, with each seat's legal cells kept as stones arrive (playout.py).
        ended = play_out(state, rng, limit, codes=codes)
        return self.evaluate(ended) if isinstance(ended, HermitState) else ended

    # AMAF codes: a drop is its seat and its cell. Unlike Odd, a seat drops only its own
    # stones, and a stone counts for its owner (R-HE5): seat 1 on e5 and seat 2 on e5 are
    # different actions, each with its own statistics.

    def action_codes(self, state: HermitState) -> int:
        return 2 * len(state.grid)

    def action_code(self, turn: Any, action: Move) -> int:
        seat = self.to_move(turn.before)
        return action.cell if seat == 1 else len(turn.before.grid) + action.cell

    def mover(self, state: HermitState, move: Move) -> int:
        return state.turn if isinstance(move, Pass) else self.to_move(state)

    def must_pass(self, state: HermitState) -> bool:
        return not state.can_place[state.turn] and state.can_place[3 - state.turn]

    # -- 5. words -----------------------------------------------------------------------------

    def score(self, state: HermitState) -> dict[str, Any]:
        return {str(seat): state.group_counts(seat) for seat in (1, 2)}

    def status_lines(self, state: HermitState) -> list[str]:
        lines = []
        for seat in (1, 2):
            c = state.group_counts(seat)
            # Every group has 1, 3 or 5 stones (R-HE3), so the three counts add up to the groups.
            lines.append(
                f"Seat {seat} ({KINDS[seat - 1].glyph}): {count(c['groups'], 'group')} = "
                f"{count(c['hermits'], 'hermit')} + {count(c['threes'], 'three')} + "
                f"{count(c['fives'], 'five')}; {count(state.left[seat - 1], 'stone')} left"
            )
        stuck = [seat for seat in (1, 2) if not state.can_place[seat]]
        lines += [f"Seat {seat} cannot place." for seat in stuck]
        return lines

    # -- 6. view model ------------------------------------------------------------------------

    def picture(self, state: HermitState, last: Move | None) -> Picture:
        pieces = {c: SEAT_KIND[v] for c, v in enumerate(state.stones) if v}
        marks = {last.cell} if isinstance(last, Drop) else set()
        return Picture(state.grid, KINDS, pieces, marks)

    def blank_picture(self, options: Mapping[str, Any], setup: Mapping[str, Any]) -> Picture:
        return Picture(self._grid(options), KINDS)
