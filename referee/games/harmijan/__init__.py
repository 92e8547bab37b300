"""Harmijan (Saïd Galdseid 2023): moves.py holds the moves and their notation, creatures.py the
creatures found on demand (R-HJ2), movement.py the rules of a turn (R-HJ3…R-HJ5), position.py
the position and its repetition count (R-HJ8), scoring.py the shapes and the score (R-HJ6,
R-HJ7), game.py the game the referee plays."""

from referee.games.harmijan.creatures import EMPTY
from referee.games.harmijan.game import Harmijan
from referee.games.harmijan.position import HarmijanState
from referee.games.harmijan.scoring import BLACK, COLOUR, WHITE, ShapeClass, compare, shape_form, symmetries

__all__ = ["BLACK", "COLOUR", "EMPTY", "WHITE", "Harmijan", "HarmijanState", "ShapeClass", "compare",
           "shape_form", "symmetries"]
