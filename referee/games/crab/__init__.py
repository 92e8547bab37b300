"""Hermit: Small crab, big wave (Amelie Le-Roche 2023): a solo card game, cooperative for 2–4
seats (R-CR1…R-CR9). Each round a card from the hand goes into the play area; recreating the
pattern of the Coast card right of Hermie moves him on, the Wave drifts left, stays or moves
right, and Hermie reaching the Wave wins.

  deck.py      the symbols, a deck file's [[cards]] tables and the deals
  moves.py     a placement, the round, and their notation
  position.py  play-area cells, each seat's area, hand and pile, the Coast
  rules.py     the phases as pure helpers: placing, patterns, the draw, the Wave, the tasks
  picture.py   the view models referee/render/drawers/crab.py draws, and the Coast in one line
  game.py      the game behind the referee's hooks
"""

from referee.games.crab.game import Crab

__all__ = ["Crab"]
