"""Pictures of a game: view models built from a replay, drawn by the Jinja templates of
`templates/` (which hold loops and values only).

  diagram.py       the diagram of a position: text, SVG, PNG, with the clock as it stands
  drawing.py       the drawer of each board style, chosen from one table
  drawers/         one drawer a kind of board: the grid games, Hermetica, crab
  show.py          what `show` and `board` write in each format
  review.py        the review page of a whole game (HTML, self-contained)
  analysis.py      the analysis page: the review page with `analyse`'s graph, marks and best moves
  animation.py     the GIF of a game, bounded by what its frames cost
  descriptions.py  the words a screen reader reads for a picture
  palette.py       the palettes (default, colour-blind, mono)
  page.py          what every drawer shares: margins, lines of words, paper sizes
  templates.py     the Jinja environments
  pdf.py           the printable sheet as a PDF page
  formats.py       the formats `show` and `board` write

May import: referee.play, referee.record, referee.games, referee.geometry, referee.data,
referee.errors, referee.text.
"""
