"""Blank boards true to size: an SVG whose width and height are in millimetres.

The sheet is A4 or Letter with a 10 mm margin. Portrait is used when cells of at least 12 mm fit
(always true up to hex side 8 or square 9 in one orientation or the other); otherwise the
orientation that gives the larger cells. Cells never grow past 25 mm, about a stone and a half.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from referee.games import Game
from referee.render.board import LABEL_SIZE, board_shapes
from referee.render.header import option_summary
from referee.render.templates import render

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN = 10.0
TITLE_BLOCK = 16.0  # mm above the board for the game's name and options
MIN_CELL = 12.0
MAX_CELL = 25.0


@dataclass(frozen=True)
class Sheet:
    width: float
    height: float
    cell: float  # mm per cell width (flat side to flat side for hexes)

    @property
    def orientation(self) -> str:
        return "portrait" if self.height >= self.width else "landscape"


def fit(board_w: float, board_h: float, paper: str) -> Sheet:
    """Choose the orientation and cell size for a board of board_w × board_h cell widths."""
    short, long = PAPERS[paper]

    def cell_for(width: float, height: float) -> float:
        return min((width - 2 * MARGIN) / board_w, (height - 2 * MARGIN - TITLE_BLOCK) / board_h)

    portrait, landscape = cell_for(short, long), cell_for(long, short)
    if portrait >= MIN_CELL or portrait >= landscape:
        return Sheet(short, long, min(portrait, MAX_CELL))
    return Sheet(long, short, min(landscape, MAX_CELL))


def _own_sheets() -> dict[type, Any]:
    """Pictures that draw their own sheet (more than cells and coordinates), by type: their
    drawer takes (game, options, picture, paper)."""
    from referee.render.hermetica import HermeticaPicture, paper_sheet

    return {HermeticaPicture: paper_sheet}


def paper_board(game: Game, options: Mapping[str, Any], paper: str) -> str:
    picture = game.blank_picture(options)
    own = _own_sheets().get(type(picture))
    if own is not None:
        return own(game, options, picture, paper)
    grid = picture.grid
    shapes = board_shapes(grid)
    sheet = fit(shapes.width, shapes.height, paper)
    unit = sheet.cell
    left = (sheet.width - shapes.width * unit) / 2
    top = MARGIN + TITLE_BLOCK + (sheet.height - 2 * MARGIN - TITLE_BLOCK - shapes.height * unit) / 2

    def place(x: float, y: float) -> tuple[float, float]:
        return (round(left + (x - shapes.left) * unit, 3), round(top + (shapes.top - y) * unit, 3))

    polygons = [
        " ".join(f"{x},{y}" for x, y in (place(*corner) for corner in corners))
        for _, corners in shapes.outlines
    ]
    labels = [(*place(lb.x, lb.y), lb.text) for lb in shapes.labels]
    return render(
        "paper.svg.j2",
        width=sheet.width,
        height=sheet.height,
        title=f"{game.name} ({game.credit})",
        subtitle=f"{option_summary(options)} · {len(grid)} cells · {unit:.1f} mm cells · {paper.upper()} {sheet.orientation}",
        title_x=MARGIN,
        title_y=MARGIN + 7,
        subtitle_y=MARGIN + 13,
        polygons=polygons,
        labels=labels,
        label_size=round(unit * LABEL_SIZE, 2),
        line_width=round(max(unit * 0.025, 0.3), 3),
    )
