"""Hermit: Small crab, big wave (`crab`): a solo card game, cooperative for 2–4 seats
(R-CR1…R-CR9).

  deck.py     the symbols, a deck file's [[cards]] tables and the deals (pure, no I/O)
  state.py    play-area cells, placements, each seat's area, the state and the Round move
  rules.py    the phases as pure helpers: placing, patterns, the draw, the Wave, the tasks
  picture.py  the view models referee/render/crab.py draws, and the Coast in one line
  game.py     the Crab game and its options

The registry (referee/games/__init__.py) takes `Crab` from here.
"""

from __future__ import annotations

from referee.games.crab.deck import (
    BLANK, CAP, COAST, DEAL, PATTERN_SYMBOLS, POOL, ROTATIONS, SHELLS, STAR, SYMBOLS, Card, Face,
    check_deal, deal_from_seed, parse_deck,
)
from referee.games.crab.game import Crab
from referee.games.crab.picture import AreaView, CardView, CellView, CrabPicture, SlotView, coast_line, crab_picture
from referee.games.crab.rules import TASKS, hand_limit, put, recreations
from referee.games.crab.state import Area, Cell, CrabState, Place, Round

__all__ = [
    "BLANK", "CAP", "COAST", "DEAL", "PATTERN_SYMBOLS", "POOL", "ROTATIONS", "SHELLS", "STAR",
    "SYMBOLS", "TASKS", "Area", "AreaView", "Card", "CardView", "Cell", "CellView", "Crab", "CrabPicture",
    "CrabState", "Face", "Place", "Round", "SlotView", "check_deal", "coast_line", "crab_picture",
    "deal_from_seed", "hand_limit", "parse_deck", "put", "recreations",
]
