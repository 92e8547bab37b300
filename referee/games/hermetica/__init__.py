"""Hermetica (IFF Studios 2017): walls, Adepts on their Prime hexes, elements on the Horizons,
then turns of up to three actions; the first Adept to enter the other side's Horizon wins
(RULINGS.md §Hermetica, R-HM0…R-HM10; SPEC §5 for the notation).

A turn is one record entry. It is checked action by action on immutable states: each action is
parsed, checked against the position left by the actions before it, and only then applied to a
working copy that becomes the next state, so a refused action names its place in the turn
(`action=`) and leaves nothing half changed.

The package, one concern a module, each importing only those above it:
  board.py    the board file's schema and checks: `Board`, `board_from_data`
  state.py    units, positions (`HermeticaState`), what an action did, the turn's `Progress`
  actions.py  the action types and the notation: `parse_action`, `parse_turn`
  rules.py    applying them: `act` with the unit powers (R-HM2…R-HM9), the setup plies (R-HM1)
  listing.py  the legal next actions, `moves`, random turns
  picture.py  `HermeticaPicture`, the plain data the drawer (referee.render.hermetica) reads
  game.py     `Hermetica`, the game behind the referee's hooks
"""

from __future__ import annotations

from referee.games.hermetica.actions import (
    Action, Shot, Slide, Spawn, Steps, Turn, WallPly, parse_action, parse_turn,
)
from referee.games.hermetica.board import MOON, SIDE, SIDE_KEY, SUN, WALLS, Board, board_from_data
from referee.games.hermetica.game import BoardOption, Hermetica
from referee.games.hermetica.listing import (
    legal_moves, may_extend, move_listing, next_actions, partial_turn, random_move,
)
from referee.games.hermetica.picture import KINDS, HermeticaPicture
from referee.games.hermetica.rules import act, draft_wall, place_element
from referee.games.hermetica.state import (
    ACTIONS_PER_TURN, COPIES, ELEMENT_PLIES, ELEMENTS, MAX_ELEMENTS_ON_BOARD, SCHEMES, SHOT_RANGE,
    STEPS, UNIT_NAME, ActionReport, HermeticaState, Progress, Segment, Unit, barrier_at,
    describe_cell, turn_start,
)

__all__ = [
    "ACTIONS_PER_TURN", "COPIES", "ELEMENT_PLIES", "ELEMENTS", "KINDS", "MAX_ELEMENTS_ON_BOARD",
    "MOON", "SCHEMES", "SHOT_RANGE", "SIDE", "SIDE_KEY", "STEPS", "SUN", "UNIT_NAME", "WALLS",
    "Action", "ActionReport", "Board", "BoardOption", "Hermetica", "HermeticaPicture",
    "HermeticaState", "Progress", "Segment", "Shot", "Slide", "Spawn", "Steps", "Turn", "Unit",
    "WallPly", "act", "barrier_at", "board_from_data", "describe_cell", "draft_wall",
    "legal_moves", "may_extend", "move_listing", "next_actions", "parse_action", "parse_turn",
    "partial_turn", "place_element", "random_move", "turn_start",
]
