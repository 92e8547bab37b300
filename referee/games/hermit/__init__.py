"""Hermit (Phil Leduc 2020), on a square or a hex-hex board: drop stones so that every group of
your colour has 1, 3 or 5 stones; when neither seat can drop, most groups wins (R-HE1…R-HE5).

  position.py  the position and the one check of a drop
  moves.py     a drop and its notation
  game.py      the game behind the referee's hooks
  playout.py   a random playout, each seat's legal cells kept as stones arrive
"""

from referee.games.hermit.game import Hermit

__all__ = ["Hermit"]
