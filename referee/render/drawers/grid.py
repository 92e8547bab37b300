"""The drawer of the grid games (odd, dustin, hermit, harmijan): a `Picture` of stones on a
hex-hex or square board, as text for a mail body, as SVG to attach, and as a blank sheet to
print true to size.

Everything a template shows is computed here: the templates only place values and loop.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Callable, Mapping, NamedTuple

from referee.games.picture import Picture
from referee.render import descriptions, page
from referee.render.palette import GRID, GRID_EXTRA_RULES, GRID_RULES, SHEET, chosen, style
from referee.render.drawers.grid_board import LABEL_SIZE, board_shapes, text_rows
from referee.play.words import Header, option_summary, text_head
from referee.text import wrap_all
from referee.render.templates import render

SVG_UNIT = 40.0  # pixels per cell width
KEY_WIDTH = 140.0  # pixels per legend entry, room for "stone moved" and "bite"


def text(picture: Picture, head: Header) -> str:
    glyphs = {cell: picture.glyph(kind) for cell, kind in picture.pieces.items()}
    rows = text_rows(picture.grid, glyphs, picture.marks)
    keys = [f"{glyph} {label}" for _, glyph, label in head.legend] + [". empty", "[ ] last move"]
    return render("diagram.txt.j2", head=text_head(_with_notes(head, picture)), rows=rows,
                  legend=wrap_all(["   ".join(keys)]))


def lines(picture: Picture, head: Header) -> list[str]:
    """The words under the board after the last move (the review page's hook)."""
    return list(_with_notes(head, picture).status)


def _with_notes(head: Header, picture: Picture) -> Header:
    """The picture's own lines (what the last move did, the scoring) go right under the last
    move, before the game's status lines."""
    if not picture.notes:
        return head
    return head._replace(status=[*picture.notes, *head.status])


class SvgCell(NamedTuple):
    name: str
    points: str
    cx: float
    cy: float
    piece: str | None
    marked: bool


class SvgText(NamedTuple):
    x: float
    y: float
    css: str
    text: str


class SvgKey(NamedTuple):
    """One entry of the legend: a sample piece (or the last-move mark) and its words."""

    x: float
    y: float
    css: str
    radius: float
    text: SvgText


class SvgArrow(NamedTuple):
    x1: float
    y1: float
    x2: float
    y2: float


def _keys(picture: Picture, head: Header) -> list[tuple[str, float, str]]:
    """The legend: (css, radius, words) for each kind of piece, the last move, the path and
    bites."""
    keys = [(f"stone-{key}", 7.0, f"{label} ({glyph})") for key, glyph, label in head.legend]
    keys.append(("lastmark", 5.0, "last move"))
    if picture.path:
        keys.append(("pathkey", 0.0, "stone moved"))
    if picture.bites:
        keys.append(("bite", 9.0, "bite"))
    return keys


def _legend(keys: list[tuple[str, float, str]], left: float, y: float) -> tuple[list, list]:
    """The legend's swatches and words in one line from `left`, on the line `y`."""
    legend, legend_arrows = [], []
    for i, (css, radius, words) in enumerate(keys):
        x = left + 8 + i * KEY_WIDTH
        label = SvgText(left + 22 + i * KEY_WIDTH, y + 4.5, "text", words)
        if css == "pathkey":  # drawn as the board draws it: a short arrow
            legend_arrows.append((SvgArrow(x - 10, y, x + 3, y), label))
        else:
            legend.append(SvgKey(x, y, css, radius, label))
    return legend, legend_arrows


def svg(picture: Picture, head: Header, palette: str | None = None, bare: bool = False) -> str:
    """The position as SVG; `bare`, the board alone (the review page writes the words around
    it as text)."""
    head = _with_notes(head, picture)
    shapes = board_shapes(picture.grid)
    # The words above the board and the result are measured at the title's size: generous.
    above = [] if bare else [("head", line) for line in page.fitted([head.title], "head")]
    above += [] if bare else [("text", line) for line in page.fitted(head.players, "head")]
    below = [] if bare else page.fitted(head.last_lines() + head.status)
    result = [] if bare else page.fitted([head.result], "head")
    board_top = page.MARGIN + (len(above) + 0.5) * page.LINE if above else page.BARE_MARGIN
    board_w, board_h = shapes.width * SVG_UNIT, shapes.height * SVG_UNIT
    lines_of_words = [("head", text) for text in [*(text for _, text in above), *result]]
    lines_of_words += [("text", line) for line in below]
    keys = [] if bare else _keys(picture, head)
    if bare:
        width, height = board_w + 2 * page.BARE_MARGIN, board_top + board_h + page.BARE_MARGIN
    else:
        width = page.page_width(board_w, lines_of_words)
        # The legend is one line: a key for each kind of piece, the last move, the path and bites.
        width = max(width, len(keys) * KEY_WIDTH + 2 * page.MARGIN)
        legend_y = board_top + board_h + page.LINE
        height = legend_y + (len(below) + len(result) + 1) * page.LINE + page.MARGIN
    left = (width - board_w) / 2

    def place(x: float, y: float) -> tuple[float, float]:
        return (
            round(left + (x - shapes.left) * SVG_UNIT, 2),
            round(board_top + (shapes.top - y) * SVG_UNIT, 2),
        )

    cells = []
    for cell, corners in shapes.outlines:
        cx, cy = place(*picture.grid.centre(cell))
        points = " ".join(f"{x},{y}" for x, y in (place(*c) for c in corners))
        cells.append(
            SvgCell(picture.grid.name(cell), points, cx, cy, picture.pieces.get(cell), cell in picture.marks)
        )
    texts = [SvgText(page.MARGIN, page.line_y(page.MARGIN, i), css, text) for i, (css, text) in enumerate(above)]
    legend, legend_arrows = [], []
    if not bare:
        texts += [SvgText(page.MARGIN, page.line_y(legend_y, i, 1.3), "text", line) for i, line in enumerate(below)]
        texts += [SvgText(page.MARGIN, page.line_y(legend_y, len(below) + i, 1.3), "result", line)
                  for i, line in enumerate(result)]
        legend, legend_arrows = _legend(keys, page.MARGIN, legend_y)
    # The last move's dot sits in the middle of its cell, or off to the side where a number
    # (a scoring class) is written on the stone, so that both read.
    dots = []
    for cell in sorted(picture.marks):
        cx, cy = place(*picture.grid.centre(cell))
        if cell in picture.tags and cell in picture.pieces:
            cx, cy = round(cx + SVG_UNIT * 0.27, 2), round(cy - SVG_UNIT * 0.27, 2)
        dots.append((cx, cy))
    tags = [
        SvgText(*place(*picture.grid.centre(cell)), f"tag tag-{picture.pieces[cell]}", tag)
        for cell, tag in sorted(picture.tags.items())
        if cell in picture.pieces
    ]
    extras = bool(picture.path or picture.bites or picture.tags)
    return _render(
        palette, extras,
        title=descriptions.title(head),
        desc=words(picture),
        **page.canvas(width, height),
        cells=cells,
        labels=[SvgText(*place(lb.x, lb.y), "coord", lb.text) for lb in shapes.labels],
        texts=texts,
        legend=legend,
        legend_arrows=legend_arrows,
        dots=dots,
        stone_radius=round(SVG_UNIT * 0.4, 2),
        mark_radius=round(SVG_UNIT * 0.12, 2),
        arrow=_arrow(picture, place),
        bites=[place(*picture.grid.centre(cell)) for cell in sorted(picture.bites)],
        bite_radius=round(SVG_UNIT * 0.47, 2),
        tags=tags,
    )


def words(picture: Picture) -> str:
    """The position in words (the SVG's <desc>; the review page shows it too)."""
    return descriptions.grid_words(picture)


def _render(palette: str | None, extras: bool, **view: object) -> str:
    colours = chosen(GRID, palette)
    return render(
        "diagram.svg.j2",
        style=style(GRID_RULES + (GRID_EXTRA_RULES if extras else ()), colours,
                    label_size=round(SVG_UNIT * LABEL_SIZE, 2)),
        arrow_ink=colours.inks["path"],
        **view,
    )


def key(picture: Picture, head: Header, palette: str | None = None) -> list[tuple[str, str]]:
    """The legend for the review page, which writes it as text: each entry's words, with its
    swatch as a small SVG drawn in the same style."""
    return [(_swatch(entry, palette), entry[2]) for entry in _keys(picture, head)]


@cache  # the same few swatches for every ply of a review page
def _swatch(entry: tuple[str, float, str], palette: str | None) -> str:
    legend, arrows = _legend([entry], 4, 12)  # the swatch about (12, 12)
    return _render(palette, entry[0] in ("pathkey", "bite"), title=entry[2], desc="",
                   **page.canvas(24, 24), cells=[], labels=[], texts=[], dots=[], tags=[], bites=[],
                   legend=[k._replace(text=k.text._replace(text="")) for k in legend],
                   legend_arrows=[(a, t._replace(text="")) for a, t in arrows],
                   stone_radius=0, mark_radius=0, arrow=None, bite_radius=0)


def _arrow(picture: Picture, place: Callable[[float, float], tuple[float, float]]) -> SvgArrow | None:
    """The last move's path, from the centre of its first cell to the rim of the stone on its
    last, so the arrowhead stays visible."""
    if len(picture.path) < 2:
        return None
    (x1, y1), (x2, y2) = (place(*picture.grid.centre(c)) for c in (picture.path[0], picture.path[-1]))
    length = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
    back = min(SVG_UNIT * 0.42, length / 2) / length
    return SvgArrow(x1, y1, round(x2 - (x2 - x1) * back, 2), round(y2 - (y2 - y1) * back, 2))


def paper(game: Any, options: Mapping[str, Any], picture: Picture, paper_name: str,
          palette: str | None = None) -> str:
    """The empty board true to size: cells and coordinates, in millimetres on the sheet."""
    grid = picture.grid
    shapes = board_shapes(grid)
    sheet = page.fit(shapes.width, shapes.height, paper_name)
    unit = sheet.cell
    left, top = sheet.board_origin(shapes.width, shapes.height)

    def place(x: float, y: float) -> tuple[float, float]:
        return (round(left + (x - shapes.left) * unit, 3), round(top + (shapes.top - y) * unit, 3))

    polygons = [
        " ".join(f"{x},{y}" for x, y in (place(*corner) for corner in corners))
        for _, corners in shapes.outlines
    ]
    labels = [(*place(lb.x, lb.y), lb.text) for lb in shapes.labels]
    # The centre cell carries a dot, as a go board's centre point: it helps find a cell, and
    # Hermit's first stone may not go there (R-HE2). An even square board has no centre.
    centre = grid.centre_cell
    marks = [] if centre is None else [place(*grid.centre(centre))]
    centre_words = "" if centre is None else f" · centre {grid.name(centre)} marked"
    return render(
        "paper.svg.j2",
        **sheet.frame(f"{game.name} ({game.credit})",
                      f"{option_summary(options)} · {len(grid)} cells · {unit:.1f} mm cells · "
                      f"{page.PAPER_NAMES[paper_name]} {sheet.orientation}{centre_words}"),
        desc=(f"A blank {game.name} board to print: {len(grid)} cells, the columns lettered and the rows "
              f"numbered along its edges" + ("." if centre is None else f"; a dot marks the centre, {grid.name(centre)}.")),
        polygons=polygons,
        centres=marks,
        centre_radius=round(unit * 0.09, 3),
        labels=labels,
        label_size=round(unit * LABEL_SIZE, 2),
        line_width=round(max(unit * 0.025, 0.3), 3),
        ink=chosen(SHEET, palette).inks,
    )
