"""Board geometry shared by every game: cell names, neighbours, straight lines, drawing centres.

Nothing here knows a rule. A game asks its grid which cells exist, what they are called and how
they touch; the renderers ask where to draw them.
"""

from referee.geometry.grid import Grid
from referee.geometry.hexhex import HexHexGrid, hexhex_grid
from referee.geometry.square import SquareGrid, square_grid

__all__ = ["Grid", "HexHexGrid", "SquareGrid", "hexhex_grid", "square_grid"]
