"""Hermetica behind the referee's hooks: options and the board file, the start position, a
record entry read and applied action by action, the listings, the status and the picture. The
rules themselves live in the package's other modules (see its __init__)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Mapping

from referee.errors import IllegalMoveError, RefereeError, UsageError
from referee.games.base import Game, Move, Option, Outcome, TurnSoFar, count
from referee.games.hermetica import evaluate as guess, listing, playout as fast, rules
from referee.games.hermetica.board import MOON, SIDE, SUN, WALLS, board_from_data
from referee.games.hermetica.moves import Action, Shot, Slide, Spawn, Steps, Turn, parse_actions, parse_turn
from referee.games.hermetica.picture import HermeticaPicture
from referee.games.hermetica.position import (
    ACTIONS_PER_TURN, COPIES, ELEMENT_PLIES, ELEMENTS, HermeticaState, Unit, turn_start,
)

if TYPE_CHECKING:
    import random


class BoardOption(Option):
    """A word or a path: no range to show in `referee games`."""

    def describe(self) -> str:
        return f"{self.name} = {self.default!r} (a built-in name or a path to a board file)"


class Hermetica(Game):
    # -- 1. metadata and options --------------------------------------------------------------

    id = "hermetica"
    name = "Hermetica"
    credit = "IFF Studios 2017"
    options = (
        Option("scheme", "dawn", "the walls: a preset scheme, or draft them (R-HM1)",
               choices=("dawn", "noon", "dusk", "draft")),
        BoardOption("board", "standard", "the mat: \"standard\" or a path to a board file"),
    )
    setup_keys = ("board",)
    data_options = {"board": "hermetica-board"}
    # The same examples as `referee rules hermetica`, each tried where it is legal
    # (tests/test_rules_text.py); '=' is spelt as in SPEC §5.
    notation = (
        "a turn of up to 3 actions joined by '; ': '+E e1' spawn, 'A d4-d5*c5' (- a step, "
        "* the Shield deployed), 'F c3=c4=c5-c6' (= a step carrying its own Shield), 'F c9xd9', "
        "'E b1-b2-b3', 'W d1>d3 d4=c2'; 'pass'; setup plies 'wall c5' and '+F c1'"
    )

    # -- 2. setup -----------------------------------------------------------------------------

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

    # -- 3. moves -----------------------------------------------------------------------------

    def parse(self, state: HermeticaState, text: str) -> Turn:
        return parse_turn(state, text)

    # -- 4. play ------------------------------------------------------------------------------

    def to_move(self, state: HermeticaState) -> int | None:
        return None if state.winner is not None else state.turn

    def legal_moves(self, state: HermeticaState) -> list[Move]:
        return listing.legal_moves(state)

    def apply(self, state: HermeticaState, move: Move) -> HermeticaState:
        if not isinstance(move, Turn):
            raise IllegalMoveError(f"{move} is not a move in {self.name}")
        if state.winner is not None:
            raise IllegalMoveError("the game is already over (R-HM10)")
        turn = self.begin_turn(state)
        if not move.actions and not self.turn_may_end(turn):
            raise IllegalMoveError(
                f"{SIDE[state.turn]}'s Adept was captured and can return, so the turn may not be "
                f"passed: it begins with '+A {state.board.name(state.respawn_cells(state.turn)[0])}' (R-HM4)"
            )
        for action in move.actions:
            turn = self.act(turn, action)
        return self.end_turn(turn)[1]

    def outcome(self, state: HermeticaState) -> Outcome | None:
        if state.winner is None:
            return None
        other = 3 - state.winner
        return Outcome(
            (state.winner,),
            f"{SIDE[state.winner]}'s Adept entered {SIDE[other]}'s Horizon on "
            f"{state.board.name(state.win_cell)} (R-HM10)",
        )

    # A turn, action by action (R-HM2): up to three actions, a spawn costing two; it may stop
    # after any action, but not before the captured Adept has returned when it can (R-HM4). A
    # setup ply (R-HM1) is a turn of one action, a wall or an element.

    def begin_turn(self, state: HermeticaState) -> TurnSoFar:
        return TurnSoFar(state, state, (), turn_start(state) if state.phase == "turns" else None)

    def legal_actions(self, turn: TurnSoFar) -> list[Action]:
        if turn.progress is None:
            return [] if turn.actions else [move.actions[0] for move in listing.legal_moves(turn.before)]
        return listing.next_actions(turn.after, turn.progress)

    def act(self, turn: TurnSoFar, action: Action) -> TurnSoFar:
        state = turn.after
        if turn.progress is None:
            if turn.actions:
                raise IllegalMoveError("a setup ply is one wall or one element (R-HM1)")
            after = (rules.draft_wall if state.phase == "walls" else rules.place_element)(state, action)
            return TurnSoFar(turn.before, after, (action,))
        after, progress, _ = rules.act(state, turn.progress, action, len(turn.actions) + 1)
        return TurnSoFar(turn.before, after, (*turn.actions, action), progress)

    def turn_may_end(self, turn: TurnSoFar) -> bool:
        if turn.progress is None:
            return bool(turn.actions)
        return not (turn.progress.obliged and turn.progress.done == 0)

    def end_turn(self, turn: TurnSoFar) -> tuple[Move, HermeticaState]:
        if turn.progress is None:
            return Turn(turn.actions), turn.after
        after = replace(turn.after, plies=turn.after.plies + 1, last=turn.progress.reports)
        return Turn(turn.actions), after

    def finish_turn(self, turn: TurnSoFar, rng: random.Random) -> HermeticaState:
        """The rest of a turn drawn action by action, as the playout draws them (playout.py)."""
        if turn.progress is None:  # a setup ply
            return super().finish_turn(turn, rng)
        state, progress = turn.after, turn.progress
        while progress.spent < ACTIONS_PER_TURN and state.winner is None:
            drawn = fast.draw_action(state, progress, rng)
            if drawn is None:
                break
            state, progress, _ = drawn
        return replace(state, plies=state.plies + 1, last=())

    def priority(self, turn: TurnSoFar, action: Action) -> int:
        """An Adept's walk first, the race decides the game (R-HM10); first of all one that
        enters the other side's Horizon and wins at once."""
        if not (isinstance(action, Steps) and action.kind == "A"):
            return 0
        state = turn.after
        steps = [cell for op, cell in action.ops if op != "*"]
        return 2 if steps and steps[-1] in state.board.horizons[3 - state.turn] else 1

    def playout(self, state: HermeticaState, rng: random.Random, limit: int = fast.TURNS,
                codes: list[int] | None = None) -> tuple[float, ...]:
        """Turns drawn action by action and checked by `rules.act` (playout.py), lightly guided
        towards the Horizons; cut after `limit` turns and guessed at (evaluate.py), a result
        that comes later counting a little less."""
        while state.phase != "turns" and state.winner is None:
            state = self.apply(state, self.random_move(state, rng))
        ended = fast.play(state, rng, limit, None if codes is None else _coder(state, codes))
        return guess.shaded(self.evaluate(ended), ended.plies - state.plies)

    # AMAF codes: an action is its side, what it is (a spawn of each kind, a walk of each kind
    # of unit, a shot, a slide) and the hex where it ends (R-HM3…R-HM8). By side: every unit is
    # one side's. The setup plies have no code.

    def move_actions(self, move: Turn) -> tuple[Action, ...]:
        return move.actions

    def action_codes(self, state: HermeticaState) -> int:
        return 2 * CODE_KINDS * len(state.units)

    def action_code(self, turn: TurnSoFar, action: Action) -> int | None:
        if turn.progress is None:
            return None
        return _code(turn.before.turn, action, len(turn.before.units))

    def evaluate(self, state: HermeticaState) -> tuple[float, ...]:
        """The race of the two Adepts to the other Horizon, and the elements left (evaluate.py);
        even during the setup plies."""
        if state.phase != "turns" and state.winner is None:
            return (0.5, 0.5)
        sun = guess.sun_share(state)
        return (sun, 1.0 - sun)

    # -- 5. words -----------------------------------------------------------------------------

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

    def move_listing(self, state: HermeticaState, after: str | None) -> dict[str, Any]:
        """`moves`: the setup plies, or the next actions of the turn after those of `--after`."""
        if state.phase != "turns":
            if after is not None:
                raise UsageError("--after lists the actions of a turn; the game is still in its setup (R-HM1)")
            return {"moves": [str(m) for m in self.legal_moves(state)], "phase": state.phase}
        turn = self.begin_turn(state)
        if after is not None and after.strip():
            try:
                for action in parse_actions(state.board, after):
                    turn = self.act(turn, action)
            except RefereeError as exc:
                # No ply to name: say which of the actions given was refused.
                which = f", action {exc.action}" if exc.action is not None else ""
                exc.reason = f"--after {after.strip()!r}{which}: {exc.reason}"
                raise
        listing = {
            "moves": [str(a) for a in self.legal_actions(turn)],
            "phase": "turns",
            "spent": turn.progress.spent,
            "turn_may_end": self.turn_may_end(turn) or turn.after.winner is not None,
            "actions_left": ACTIONS_PER_TURN - turn.progress.spent,
        }
        if turn.actions:
            # The actions already chosen, as the record will hold them: `moves` words its
            # listing as the next actions after these (SPEC §8b).
            listing["after"] = str(Turn(turn.actions))
        return listing

    # -- 6. view model ------------------------------------------------------------------------

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


UNIT_KINDS = "AFEW"
CODE_KINDS = 2 * len(UNIT_KINDS) + 2  # spawns and walks of each kind, shots, slides


def _code(seat: int, action: Action, cells: int) -> int | None:
    """An action's AMAF code: its side, what it is, and where it ends."""
    if isinstance(action, Spawn):
        kind, cell = UNIT_KINDS.index(action.kind), action.cell
    elif isinstance(action, Steps):
        steps = [cell for op, cell in action.ops if op != "*"]
        kind, cell = len(UNIT_KINDS) + UNIT_KINDS.index(action.kind), steps[-1] if steps else action.start
    elif isinstance(action, Shot):
        kind, cell = 2 * len(UNIT_KINDS), action.target
    elif isinstance(action, Slide):
        kind, cell = 2 * len(UNIT_KINDS) + 1, action.stop
    else:
        return None
    return ((seat - 1) * CODE_KINDS + kind) * cells + cell


def _coder(state: HermeticaState, codes: list[int]):
    """A playout's log (playout.play) that hears each turn's actions' codes: the sides
    alternate turn by turn."""
    seat, cells = [state.turn], len(state.units)

    def log(actions) -> None:
        for action in actions:
            code = _code(seat[0], action, cells)
            if code is not None:
                codes.append(code)
        seat[0] = 3 - seat[0]

    return log
