"""Odd (Nick Bentley 2009) and Dustin (2007), one game under two names (R-OD1): place a stone
of either colour; when the board is full, an odd number of groups of at least `min_group`
stones, both colours counted, wins for seat 1 and an even number for seat 2 (R-OD2, R-OD3).

  position.py  the position, its groups kept as stones arrive
  moves.py     a placement and its notation
  game.py      the game behind the referee's hooks
  playout.py   a random playout to the end at once: a fair coin for each empty cell
"""

from referee.games.odd.game import Dustin, Odd

__all__ = ["Dustin", "Odd"]
