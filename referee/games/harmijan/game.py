"""Harmijan behind the referee's hooks. Plies: seat 1 sets up one black and one white creature
of two stones, seat 2 chooses a colour, then black and white alternate turns; a colour that
cannot turn passes (R-HJ1, R-HJ5, R-G3)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Mapping

from referee.errors import IllegalMoveError, NotationError
from referee.games.base import Game, Move, Option, Outcome, Pass, count
from referee.games.harmijan import playout as fast
from referee.games.harmijan.creatures import EMPTY
from referee.games.harmijan.movement import refusal, turns
from referee.games.harmijan.moves import Choice, Setup, Turn, all_setups, parse_move
from referee.games.harmijan.position import HarmijanState
from referee.games.harmijan.scoring import BLACK, COLOUR, WHITE, compare
from referee.geometry.hexhex import hexhex_grid
from referee.games.picture import Picture, PieceKind

if TYPE_CHECKING:
    import random

LETTER = {BLACK: "b", WHITE: "w"}
GLYPH = {BLACK: "X", WHITE: "O"}
# What plies 1 and 2 can only be (R-HJ1), said to a move that is anything else.
SET_UP = "the game starts with seat 1's setup: 'setup b <cell> <cell> w <cell> <cell>' (R-HJ1)"
CHOOSE = "seat 2 now chooses a colour: 'black' or 'white' (R-HJ1)"


class Harmijan(Game):
    # -- 1. metadata and options --------------------------------------------------------------

    id = "harmijan"
    name = "Harmijan"
    credit = "Saïd Galdseid 2023"
    options = (Option("size", 6, "cells along each side of the hex-hex board", 5, 7),)
    notation = (
        "ply 1 'setup b e5 f5 w c3 c4', ply 2 'black' or 'white', then "
        "'<from>-<to> <place>' or '<from>x<to> <place>' (x: a bite): 'c4-c6 f6', 'c4xc7 e7'"
    )

    # -- 2. setup -----------------------------------------------------------------------------

    def start(self, options: Mapping[str, Any], setup: Mapping[str, Any]) -> HarmijanState:
        grid = hexhex_grid(options["size"])
        return HarmijanState(grid, (EMPTY,) * len(grid))

    # -- 3. moves -----------------------------------------------------------------------------

    def parse(self, state: HarmijanState, text: str) -> Move:
        """The move `text` writes. Words that are no move at all are answered by what this
        ply can be: at ply 2 only a colour, so "choose 'black' or 'white'" rather than every
        form a move can take; at ply 1 only the setup."""
        try:
            return parse_move(state.grid, text)
        except NotationError:
            phase = state.phase
            if phase == "choice":
                raise NotationError(CHOOSE) from None
            if phase == "setup" and not text.strip().lower().startswith("setup"):
                raise NotationError(SET_UP) from None
            raise

    # -- 4. play ------------------------------------------------------------------------------

    def to_move(self, state: HarmijanState) -> int | None:
        phase = state.phase
        if phase == "setup":
            return 1
        if phase == "choice":
            return 2
        if state.repeated:
            return None
        for colour in (state.turn, 3 - state.turn):
            if state.can_turn[colour]:
                return state.seat_of(colour)
        return None

    def legal_moves(self, state: HarmijanState) -> list[Move]:
        if state.phase == "setup":
            return list(all_setups(state.grid))
        if state.phase == "choice":
            return [Choice(BLACK), Choice(WHITE)]
        seat = self.to_move(state)
        if seat is None:
            return []
        stones, names = state.stones, state.grid.names
        return [Turn(start, end, place, stones[end] != EMPTY, (names[start], names[end], names[place]))
                for start, end, place in sorted(turns(stones, state.grid, state.colour_of(seat)))]

    def apply(self, state: HarmijanState, move: Move) -> HarmijanState:
        if isinstance(move, Setup):
            return self._setup(state, move)
        if isinstance(move, Choice):
            if state.phase != "choice":
                raise IllegalMoveError(
                    "a colour is chosen only at ply 2, by seat 2, after the setup (R-HJ1)"
                )
            black_seat = 2 if move.colour == BLACK else 1
            return state.then(state.stones, BLACK, black_seat)
        phase = state.phase
        if phase == "setup":
            raise IllegalMoveError(SET_UP)
        if phase == "choice":
            raise IllegalMoveError(CHOOSE)
        colour = state.turn
        if isinstance(move, Pass):
            if state.can_turn[colour]:
                raise IllegalMoveError(
                    f"{COLOUR[colour]} (seat {state.seat_of(colour)}) has a legal turn and so may "
                    "not pass (R-HJ5, R-G3)"
                )
            return state.then(state.stones, 3 - colour)
        if not isinstance(move, Turn):
            raise IllegalMoveError(f"{move} is not a move in {self.name}")
        # The turn is checked first: a legal turn is itself the proof that its colour can turn
        # (R-HJ5), so the search for one is needed only when this turn is refused.
        reason = refusal(state.stones, state.grid, colour, state.seat_of(colour), move)
        if reason is not None:
            if state.can_turn[colour]:
                raise IllegalMoveError(reason)
            # The pass of the colour that cannot turn is implied (SPEC §5); its position counts
            # like a written one (R-HJ8).
            before, state = state, state.then(state.stones, 3 - colour)
            if state.repeated:
                raise IllegalMoveError(
                    f"{COLOUR[colour]} cannot turn, and its pass brings back a position for the "
                    "third time, which ends the game (R-HJ8): the next entry can only be that "
                    "'pass'"
                )
            colour = 3 - colour
            reason = refusal(state.stones, state.grid, colour, state.seat_of(colour), move)
            if reason is not None:
                raise IllegalMoveError(reason)
            before.can_turn.found(colour)
        state.can_turn.found(colour)
        stones = list(state.stones)
        stones[move.start] = EMPTY
        stones[move.end] = colour
        stones[move.place] = colour
        return state.then(tuple(stones), 3 - colour)

    def _setup(self, state: HarmijanState, move: Setup) -> HarmijanState:
        if state.phase != "setup":
            raise IllegalMoveError("the setup is made once, by seat 1, at ply 1 (R-HJ1)")
        cells = [*move.black, *move.white]
        if len(set(cells)) < 4:
            raise IllegalMoveError(
                f"{move}: the four stones need four different cells (R-HJ1)"
            )
        grid = state.grid
        for letter, (a, b) in (("black", move.black), ("white", move.white)):
            if b not in grid.neighbours[a]:
                raise IllegalMoveError(
                    f"{move}: the {letter} stones {grid.name(a)} and {grid.name(b)} are not "
                    "adjacent; each creature has two adjacent stones (R-HJ1)"
                )
        stones = list(state.stones)
        for cell in move.black:
            stones[cell] = BLACK
        for cell in move.white:
            stones[cell] = WHITE
        return replace(state, stones=tuple(stones), set_up=True)

    def outcome(self, state: HarmijanState) -> Outcome | None:
        if state.phase != "play":
            return None
        # The colour to move first: most plies then need no search for the other colour.
        if not state.repeated and (state.can_turn[state.turn] or state.can_turn[3 - state.turn]):
            return None
        lists = {colour: state.classes(colour) for colour in (BLACK, WHITE)}
        why = "third repetition of the position (R-HJ8); " if state.repeated else ""
        winner, reason = compare(lists[BLACK], lists[WHITE])
        if winner is None:
            return Outcome((), why + reason)
        return Outcome((state.seat_of(winner),), why + reason)

    def mover(self, state: HarmijanState, move: Move) -> int:
        if isinstance(move, Setup):
            return 1
        if isinstance(move, Choice):
            return 2
        if isinstance(move, Pass) and state.phase == "play":
            return state.seat_of(state.turn)
        return self.to_move(state)

    def must_pass(self, state: HarmijanState) -> bool:
        return (
            state.phase == "play"
            and not state.repeated
            and not state.can_turn[state.turn]
            and state.can_turn[3 - state.turn]
        )

    def playout(self, state: HarmijanState, rng: random.Random, limit: int = fast.PLIES,
                codes: list[int] | None = None) -> tuple[float, ...]:
        """Random legal turns on one mutable board (playout.py): no listing of every turn,
        no position built per ply; cut after `limit` plies (by default the search's cut) and
        the score as it stands taken. Before play begins, the setup and the colour choice are
        made at random through `apply`."""
        while state.phase != "play":
            state = self.apply(state, self.random_move(state, rng))
        ended = fast.play(state, rng, limit, None if codes is None else _coder(state, codes))
        if not ended.over:
            return self._shares(state, fast.black_share(state.grid, ended.stones))
        colour = fast.winner(state.grid, ended.stones)
        if colour is None:
            return (0.5, 0.5)
        return tuple(1.0 if seat == state.seat_of(colour) else 0.0 for seat in (1, 2))

    # AMAF codes: a turn is its colour and the cell its stone is placed on (R-HJ4), the part of
    # a turn that stays on the board as a placement game's stones do; the slide before it is
    # left out (a slide's worth depends on where the stones stand, and ends × places would
    # spread the statistics over eight thousand codes). By colour, as Hermit's drops are by
    # seat: a stone counts for its colour's creatures only. The setup and the colour choice
    # have no code.

    def action_codes(self, state: HarmijanState) -> int:
        return 2 * len(state.grid)

    def action_code(self, turn: Any, action: Move) -> int | None:
        if not isinstance(action, Turn):
            return None
        state = turn.before  # the colour that turns: the one to move, past an implied pass
        return _code(state.colour_of(self.to_move(state)), action.place, len(state.grid))

    def evaluate(self, state: HarmijanState) -> tuple[float, ...]:
        """The score as it stands (R-HJ7), trusted the more the fuller the board; even before
        the colours are chosen."""
        if state.phase != "play":
            return (0.5, 0.5)
        if self.outcome(state) is not None:
            return self.returns(state)
        return self._shares(state, fast.black_share(state.grid, state.stones))

    def _shares(self, state: HarmijanState, black: float) -> tuple[float, float]:
        return (black, 1.0 - black) if state.black_seat == 1 else (1.0 - black, black)

    # -- 5. words -----------------------------------------------------------------------------

    def score(self, state: HarmijanState) -> dict[str, Any]:
        if state.phase != "play":
            return {}
        return {
            str(seat): [k.as_json() for k in state.classes(state.colour_of(seat))] for seat in (1, 2)
        }

    def status_extra(self, state: HarmijanState) -> dict[str, Any]:
        if state.black_seat is None:
            return {}
        return {"colours": {str(seat): COLOUR[state.colour_of(seat)] for seat in (1, 2)}}

    def status_lines(self, state: HarmijanState) -> list[str]:
        if state.phase == "setup":
            return ["Seat 1 sets up one black and one white creature of two adjacent stones (R-HJ1)."]
        if state.phase == "choice":
            return ["Seat 2 chooses a colour: black or white; black moves first (R-HJ1)."]
        lines = [
            f"Seat {state.black_seat} plays black ({GLYPH[BLACK]}), "
            f"seat {3 - state.black_seat} plays white ({GLYPH[WHITE]})."
        ]
        for colour in (BLACK, WHITE):
            creatures = state.creatures(colour)
            stones = sum(len(c) for c in creatures)
            worths = [str(k.worth) for k in state.classes(colour)]
            lines.append(
                f"{COLOUR[colour].capitalize()} ({GLYPH[colour]}): {count(len(creatures), 'creature')}, "
                f"{count(stones, 'stone')}; classes worth {', '.join(worths) or 'nothing'}"
            )
        over = self.outcome(state) is not None
        if not over:
            lines += [
                f"{COLOUR[c].capitalize()} cannot turn." for c in (BLACK, WHITE) if not state.can_turn[c]
            ]
            if state.times_seen == 2:
                lines.append("This position has stood twice; a third time ends the game (R-HJ8).")
        return lines

    def move_listing(self, state: HarmijanState, after: str | None) -> dict[str, Any]:
        if state.phase == "setup" and after is None:
            # SPEC §4: tens of thousands of setups; the pattern says it better.
            return {"moves": [], "pattern": "setup b <cell> <cell> w <cell> <cell>"}
        return super().move_listing(state, after)

    # -- 6. view model ------------------------------------------------------------------------

    def kinds(self, state: HarmijanState | None) -> tuple[PieceKind, ...]:
        seat = {BLACK: None, WHITE: None}
        if state is not None and state.black_seat is not None:
            seat = {colour: state.seat_of(colour) for colour in (BLACK, WHITE)}
        return tuple(PieceKind(LETTER[c], GLYPH[c], COLOUR[c], seat=seat[c]) for c in (BLACK, WHITE))

    def picture(self, state: HarmijanState, last: Move | None) -> Picture:
        pieces = {c: LETTER[v] for c, v in enumerate(state.stones) if v}
        picture = Picture(state.grid, self.kinds(state), pieces)
        notes = []
        if isinstance(last, Setup):
            picture.marks = {*last.black, *last.white}
        elif isinstance(last, Turn):
            colour = state.stones[last.end]
            picture.marks = {last.start, last.end, last.place}
            picture.path = (last.start, last.end)
            bite = ""
            if last.bite:
                picture.bites = {last.end}
                bite = f", biting the {COLOUR[3 - colour]} stone there,"
            notes.append(
                f"{COLOUR[colour].capitalize()} moved {last.names[0]} to {last.names[1]}{bite} "
                f"and placed {last.names[2]}."
            )
        elif isinstance(last, Pass) and state.black_seat is not None:
            notes.append(f"{COLOUR[3 - state.turn].capitalize()} could not turn and passed (R-G3).")
        if self.outcome(state) is not None:
            # The scoring classes on the stones: 1 is each colour's first class compared (R-HJ7).
            for colour in (BLACK, WHITE):
                listed = []
                for rank, shape in enumerate(state.classes(colour), 1):
                    for cells in shape.creatures:
                        picture.tags.update({cell: str(rank) for cell in cells})
                    where = " ".join(state.grid.name(cells[0]) for cells in shape.creatures)
                    listed.append(f"{rank}) {shape.count}×{shape.size} = {shape.worth}: {where}")
                head = f"{COLOUR[colour].capitalize()}'s classes (count×size = worth, R-HJ7):"
                notes.append(f"{head} {'; '.join(listed) or 'none'}")
        picture.notes = tuple(notes)
        return picture

    def blank_picture(self, options: Mapping[str, Any], setup: Mapping[str, Any]) -> Picture:
        return Picture(hexhex_grid(options["size"]), self.kinds(None))


def _code(colour: int, place: int, cells: int) -> int:
    return place if colour == BLACK else cells + place


def _coder(state: HarmijanState, codes: list[int]):
    """A playout's log (playout.play) that hears each turn's code: the colours alternate ply
    by ply, a pass included."""
    colour, cells = [state.turn], len(state.grid)

    def log(drawn) -> None:
        if drawn is not None:
            codes.append(_code(colour[0], drawn[2], cells))
        colour[0] = 3 - colour[0]

    return log
