"""Hermetica (IFF Studios 2017): walls, Adepts on their Prime hexes, elements on the Horizons,
then turns of up to three actions; the first Adept to enter the other side's Horizon wins
(R-HM0…R-HM10; SPEC §5 for the notation).

A turn is one record entry, checked action by action on immutable positions: each action is
parsed, checked against the position the actions before it left, and only then applied to a
working copy that becomes the next position, so a refused action names its place in the turn
(`action=`) and leaves nothing half changed.

  board.py     the board file's schema and checks: `Board`, `board_from_data`
  position.py  units, positions (`HermeticaState`), what an action did, the turn's `Progress`
  moves.py     the action types and the notation: `parse_action`, `parse_actions`, `parse_turn`
  rules.py     applying them: `act` with the unit powers (R-HM2…R-HM9), the setup plies (R-HM1)
  listing.py   the legal next actions and the setup plies
  playout.py   random turns drawn action by action and checked by `act`, for a search
  evaluate.py  a guess at who wins: the race of the Adepts to the Horizons, and material
  picture.py   `HermeticaPicture`, the plain data the drawer (referee.render.hermetica) reads
  game.py      the game behind the referee's hooks
"""

from referee.games.hermetica.game import Hermetica

__all__ = ["Hermetica"]
