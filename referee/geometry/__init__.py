"""Board geometry shared by every game: cell names, neighbours, straight lines, drawing centres.

Nothing here knows a rule. A game asks its grid which cells exist, what they are called and how
they touch; the renderers ask where to draw them. Code that looks at many cells at once (a
random playout) can hold a board as the bits of one integer (bitboard.py).

May import: nothing of the referee but referee.errors.
"""

from referee.geometry.grid import Grid
from referee.geometry.hexhex import HexHexGrid, hexhex_grid
from referee.geometry.square import SquareGrid, square_grid

__all__ = ["Grid", "HexHexGrid", "SquareGrid", "hexhex_grid", "square_grid"]
