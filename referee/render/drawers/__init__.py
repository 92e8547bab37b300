"""One drawer a kind of board, each with the hooks render/drawing.py names: `text`, `svg`, and
where it has them `paper`, `lines`, `key`, `words`.

  grid.py, grid_board.py          odd, dustin, hermit, harmijan: hex-hex and square boards
  hermetica.py, hermetica_mat.py,
  hermetica_sheet.py              the Hermetica mat, its layout and its printable sheet
  crab.py, crab_shapes.py         the crab game's play areas and the Coast

May import: what referee.render may import, and referee.render's shared modules (page,
palette, templates, descriptions).
"""
