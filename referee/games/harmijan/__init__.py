"""Harmijan (Saïd Galdseid 2023): game.py holds the moves, the position and the rules (R-HJ1…
R-HJ5, R-HJ8), position.py the creatures found on demand and the repetition count it uses,
scoring.py the shapes and the score (R-HJ6, R-HJ7)."""

from referee.games.harmijan.game import EMPTY, Harmijan, HarmijanState
from referee.games.harmijan.scoring import BLACK, COLOUR, WHITE, ShapeClass, compare, shape_form, symmetries

__all__ = ["BLACK", "COLOUR", "EMPTY", "WHITE", "Harmijan", "HarmijanState", "ShapeClass", "compare",
           "shape_form", "symmetries"]
