"""The printable sheet of Hermetica (`referee board hermetica`): the mat true to size, per wall
scheme, drawn with the SVG diagram's layout (render/drawers/hermetica.py) in millimetres.

Everything is computed here; templates/hermetica-paper.svg.j2 only places values and loops.
"""

from __future__ import annotations

from typing import Any, Mapping

from referee.games.hermetica.picture import MOON, SIDE, SUN, HermeticaPicture
from referee.render import page
from referee.play.words import option_summary
from referee.render.drawers.hermetica_mat import Inked, Words, column_labels, hexes, layout, shrink
from referee.render.palette import SHEET, chosen
from referee.render.templates import render


def paper(game, options: Mapping[str, Any], picture: HermeticaPicture, paper_name: str,
          palette: str | None = None) -> str:
    """`referee board hermetica`: the mat true to size with the Horizons, the Prime hexes and
    the scheme's walls (none for `draft`), coordinates in every hex."""
    board = picture.board
    grid = board.grid
    xs = [x for c in grid for x, _ in grid.corners(c)]
    ys = [y for c in grid for _, y in grid.corners(c)]
    pad = 0.6
    board_w, board_h = max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad
    sheet = page.fit(board_w, board_h, paper_name)
    unit = sheet.cell
    place, _, _ = layout(board, unit, sheet.board_origin(board_w, board_h))
    scheme = options["scheme"]
    ink = chosen(SHEET, palette).inks
    wall_shapes = [
        " ".join("%s,%s" % place(*shrink(grid, c, p, 0.85)) for p in grid.corners(c))
        for c in sorted(picture.walls)
    ]
    names = []
    for cell in grid:
        x, y = place(*grid.centre(cell))
        if cell in board.primes.values():
            y = round(y - unit * 0.2, 3)  # room for the Prime mark below the name
        # The name reads on a Wall's dark fill too: light there, grey elsewhere.
        names.append(Inked(x, y, ink["on_wall"] if cell in picture.walls else ink["name"], board.name(cell)))
    marks = []
    for seat in (SUN, MOON):
        # Two short lines ("Sun" over "Prime") fit the hex at a size that reads.
        x, y = place(*grid.centre(board.primes[seat]))
        marks.append(Words(x, round(y + unit * 0.06, 3), "prime", SIDE[seat]))
        marks.append(Words(x, round(y + unit * 0.24, 3), "prime", "Prime"))
    return render(
        "hermetica-paper.svg.j2",
        **sheet.frame(f"{game.name} ({game.credit}) · {scheme} scheme",
                      f"{option_summary(options)} · {len(grid)} hexes · {unit:.1f} mm between centres · "
                      f"{page.PAPER_NAMES[paper_name]} {sheet.orientation} · shaded edge hexes: the "
                      "Horizons (Sun below, Moon above)"),
        desc=(f"A blank Hermetica mat to print, {scheme} scheme: {len(grid)} hexes, each with its name. "
              f"Walls: {', '.join(board.name(c) for c in sorted(picture.walls, key=lambda c: grid.coords[c])) or 'none'}. "
              + " ".join(f"{SIDE[seat]}'s Horizon (shaded): "
                         f"{', '.join(board.name(c) for c in sorted(board.horizons[seat], key=lambda c: grid.coords[c]))}; "
                         f"{SIDE[seat]}'s Prime: {board.name(board.primes[seat])}." for seat in (SUN, MOON))),
        hexes=hexes(board, place),
        walls=wall_shapes,
        names=names,
        marks=marks,
        labels=column_labels(board, place),
        name_size=round(unit * 0.22, 2),
        mark_size=round(unit * 0.15, 2),
        label_size=round(unit * 0.38, 2),
        line_width=round(max(unit * 0.025, 0.3), 3),
        ink=ink,
    )
