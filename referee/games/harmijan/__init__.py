"""Harmijan (Saïd Galdseid 2023): slide a stone so that it keeps touching exactly one friendly
creature, maybe biting an enemy stone, then place a stone in its line of sight; at the end the
creatures are grouped by shape and the shape classes are compared (R-HJ1…R-HJ8, R-G3).

  position.py   the position and its repetition count (R-HJ8)
  moves.py      the setup, the colour choice and a turn, and their notation
  creatures.py  the creatures, found on demand (R-HJ2)
  movement.py   the rules of a turn (R-HJ3…R-HJ5), written once
  scoring.py    the shapes and the score (R-HJ6, R-HJ7)
  playout.py    random games on one mutable board, for a search; a guess from the score
  game.py       the game behind the referee's hooks
"""

from referee.games.harmijan.game import Harmijan

__all__ = ["Harmijan"]
