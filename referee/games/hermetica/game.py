"""The Hermetica game behind the referee's hooks: options and the board file, the start
position, reading and applying a record entry, the listings, the status and the pictures. The
rules themselves live in the package's other modules (see referee/games/hermetica/__init__.py).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Mapping

from referee.errors import IllegalMoveError
from referee.games.base import Game, Move, Option, Outcome, count
from referee.games.hermetica import listing
from referee.games.hermetica.actions import Action, Turn, parse_turn
from referee.games.hermetica.board import MOON, SIDE, SUN, WALLS, board_from_data
from referee.games.hermetica.picture import HermeticaPicture
from referee.games.hermetica.rules import act, draft_wall, place_element
from referee.games.hermetica.state import (
    COPIES, ELEMENT_PLIES, ELEMENTS, HermeticaState, Progress, Unit, turn_start,
)


class BoardOption(Option):
    """A word or a path: no range to show in `referee games`."""

    def describe(self) -> str:
        return f"{self.name} = {self.default!r} (a built-in name or a path to a board file)"


class Hermetica(Game):
    id = "hermetica"
    name = "Hermetica"
    credit = "IFF Studios 2017"
    rules = "hermetica.txt"
    options = (
        Option("scheme", "dawn", "the walls: a preset scheme, or draft them (R-HM1)",
               choices=("dawn", "noon", "dusk", "draft")),
        BoardOption("board", "standard", "the mat: \"standard\" or a path to a board file"),
    )
    setup_keys = ("board",)
    data_options = {"board": "hermetica-board"}
    notation = (
        "a turn of up to 3 actions joined by '; ': '+F c1' spawn, 'A d4-d5*c5', 'F c3-c4=c5', "
        "'F c3xc7', 'E d2-d3', 'W c3>c8 c9=d9'; 'pass'; setup plies 'wall c5' and '+F c1'"
    )

    # -- setup -------------------------------------------------------------------------------

    def setup_from_file(self, option: str, content: Mapping[str, Any]) -> Any:
        board_from_data(content)  # refuse a bad file before it reaches a record
        return {k: v for k, v in content.items()}

    def new_setup(
        self, options: Mapping[str, Any], files: Mapping[str, Mapping[str, Any]], entropy: int
    ) -> dict[str, Any]:
        setup = super().new_setup(options, files, entropy)
        self.start(options, setup)  # a board without the chosen scheme is refused before writing
        return setup

    def start(self, options: Mapping[str, Any], setup: Mapping[str, Any]) -> HermeticaState:
        board = board_from_data(setup["board"])
        scheme = options["scheme"]
        if scheme == "draft":
            walls: frozenset[int] = frozenset()
        elif scheme in board.schemes:
            walls = board.schemes[scheme]
        else:
            raise ValueError(f"the board file has no scheme {scheme!r} (it has: {', '.join(board.schemes) or 'none'})")
        units: list[Unit | None] = [None] * len(board.grid)
        # R-HM1: the Adepts start on their Prime hexes.
        units[board.primes[SUN]] = Unit(SUN, "A", 0)
        units[board.primes[MOON]] = Unit(MOON, "A", 1)
        full = (COPIES,) * len(ELEMENTS)
        return HermeticaState(board, scheme, 0, walls, (None, None), tuple(units), (full, full), 2)

    # -- reading -----------------------------------------------------------------------------

    def parse(self, state: HermeticaState, text: str) -> Turn:
        return parse_turn(state, text)

    # -- playing -----------------------------------------------------------------------------

    def apply(self, state: HermeticaState, move: Move) -> HermeticaState:
        if not isinstance(move, Turn):
            raise IllegalMoveError(f"{move} is not a move in {self.name}")
        if state.winner is not None:
            raise IllegalMoveError("the game is already over (R-HM10)")
        phase = state.phase
        if phase == "walls":
            return draft_wall(state, move.actions[0])
        if phase == "elements":
            return place_element(state, move.actions[0])
        progress = turn_start(state)
        if not move.actions and progress.obliged:
            raise IllegalMoveError(
                f"{SIDE[state.turn]}'s Adept was captured and can return, so the turn may not be "
                f"passed: it begins with '+A {state.board.name(state.respawn_cells(state.turn)[0])}' (R-HM4)"
            )
        reports = []
        for index, action in enumerate(move.actions, 1):
            state, progress, report = act(state, progress, action, index)
            reports.append(report)
        return replace(state, plies=state.plies + 1, last=tuple(reports))

    # -- listing -----------------------------------------------------------------------------

    def next_actions(self, state: HermeticaState, progress: Progress) -> list[Action]:
        """Every legal next action of the turn in progress (listing.next_actions)."""
        return listing.next_actions(state, progress)

    def partial_turn(self, state: HermeticaState, after: str) -> tuple[HermeticaState, Progress]:
        """The position and turn progress after the actions already chosen (`moves --after`)."""
        return listing.partial_turn(state, after)

    def legal_moves(self, state: HermeticaState) -> list[Move]:
        return listing.legal_moves(state)

    def move_listing(self, state: HermeticaState, after: str | None) -> dict[str, Any]:
        return listing.move_listing(state, after)

    def random_move(self, state: HermeticaState, rng: random.Random) -> Move:
        return listing.random_move(state, rng)

    # -- status ------------------------------------------------------------------------------

    def to_move(self, state: HermeticaState) -> int | None:
        return None if state.winner is not None else state.turn

    def outcome(self, state: HermeticaState) -> Outcome | None:
        if state.winner is None:
            return None
        other = 3 - state.winner
        return Outcome(
            (state.winner,),
            f"{SIDE[state.winner]}'s Adept entered {SIDE[other]}'s Horizon on "
            f"{state.board.name(state.win_cell)} (R-HM10)",
        )

    def score(self, state: HermeticaState) -> dict[str, Any]:
        return {
            str(seat): {
                "elements": state.elements_on_board(seat),
                "reserve": dict(zip(ELEMENTS, state.reserve[seat - 1])),
            }
            for seat in (SUN, MOON)
        }

    def status_lines(self, state: HermeticaState) -> list[str]:
        board = state.board
        lines = []
        if state.phase == "walls":
            lines.append(f"Drafting walls: {len(state.walls)} of {WALLS} placed (R-HM1).")
        elif state.phase == "elements":
            placed = state.plies - state.wall_plies
            lines.append(f"Placing elements on the Horizons: {placed} of {ELEMENT_PLIES} placed (R-HM1).")
        for seat in (SUN, MOON):
            adept = state.adept(seat)
            shield = state.shields[seat - 1]
            reserve = state.reserve[seat - 1]
            spent = COPIES * len(ELEMENTS) - sum(reserve)
            lost = spent - state.elements_on_board(seat)
            # Two lines a side, so each fits a mail body's 78 columns.
            lines.append(
                f"{SIDE[seat]}: Adept {'on ' + board.name(adept) if adept is not None else 'captured'}, "
                f"Shield {'on ' + board.name(shield) if shield is not None else 'not deployed'}"
            )
            lines.append(
                f"  {count(state.elements_on_board(seat), 'element')} on the board, {lost} captured; "
                f"to spawn: Fire {reserve[0]}, Earth {reserve[1]}, Water {reserve[2]}"
            )
            if adept is None and state.winner is None:
                lines.append(
                    f"{SIDE[seat]}'s Adept must return as the first action of {SIDE[seat]}'s next turn (R-HM4)."
                )
        return lines

    # -- pictures ----------------------------------------------------------------------------

    def picture(self, state: HermeticaState, last: Move | None) -> HermeticaPicture:
        return HermeticaPicture(
            board=state.board,
            walls=state.walls,
            shields={seat: state.shields[seat - 1] for seat in (SUN, MOON)},
            units={c: u for c, u in enumerate(state.units) if u is not None},
            last=state.last if last is not None else (),
            reserve={seat: dict(zip(ELEMENTS, state.reserve[seat - 1])) for seat in (SUN, MOON)},
            spent={
                seat: {k: COPIES - n for k, n in zip(ELEMENTS, state.reserve[seat - 1])}
                for seat in (SUN, MOON)
            },
        )

    def blank_picture(self, options: Mapping[str, Any], setup: Mapping[str, Any]) -> HermeticaPicture:
        """The mat with the scheme's walls (none for `draft`), for the printable sheet."""
        state = self.start(options, setup)
        return HermeticaPicture(board=state.board, walls=state.walls, options=dict(options))
