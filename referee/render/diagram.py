"""View models for the position diagrams (text for the mail body, SVG to attach).

Everything a template shows is computed here: the templates only place values and loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from referee.render.board import LABEL_SIZE, board_shapes, text_rows
from referee.picture import Picture
from referee.render.header import Header, header
from referee.render.templates import render
from referee.replay import Replay

SVG_UNIT = 40.0  # pixels per cell width
SVG_MARGIN = 16.0
LINE = 18.0  # pixels per line of text in the SVG header and footer


def text_diagram(play: Replay, ply: int | None = None) -> str:
    """The position after `ply` (default: the last) as text for a mail body."""
    ply = play.plies if ply is None else ply
    picture = play.game.picture(play.states[ply], play.last_move(ply))
    return _drawers(picture)[0](picture, header(play, ply, picture))


def svg_diagram(play: Replay, ply: int | None = None) -> str:
    """The position after `ply` (default: the last) as an SVG picture to attach."""
    ply = play.plies if ply is None else ply
    picture = play.game.picture(play.states[ply], play.last_move(ply))
    return _drawers(picture)[1](picture, header(play, ply, picture))


def grid_text(picture: Picture, head: Header) -> str:
    glyphs = {cell: _glyph(picture, kind) for cell, kind in picture.pieces.items()}
    rows = text_rows(picture.grid, glyphs, picture.marks)
    return render("diagram.txt.j2", head=_with_notes(head, picture), rows=rows)


def _with_notes(head: Header, picture: Picture) -> Header:
    """The picture's own lines (what the last move did, the scoring) go right under the last
    move, before the game's status lines."""
    if not picture.notes:
        return head
    return head._replace(status=[*picture.notes, *head.status])


def _glyph(picture, kind: str) -> str:
    return next(k.glyph for k in picture.kinds if k.key == kind)


@dataclass(frozen=True)
class SvgCell:
    name: str
    points: str
    cx: float
    cy: float
    piece: str | None
    marked: bool


@dataclass(frozen=True)
class SvgText:
    x: float
    y: float
    css: str
    text: str


@dataclass(frozen=True)
class SvgKey:
    """One entry of the legend: a sample piece (or the last-move mark) and its words."""

    x: float
    y: float
    css: str
    radius: float
    text: SvgText


def grid_svg(picture: Picture, head: Header) -> str:
    head = _with_notes(head, picture)
    shapes = board_shapes(picture.grid)
    above = [SvgText(0, 0, "head", head.title)] + [SvgText(0, 0, "text", p) for p in head.players]
    below = ([head.last] if head.last else []) + head.status
    board_top = SVG_MARGIN + (len(above) + 0.5) * LINE
    board_w, board_h = shapes.width * SVG_UNIT, shapes.height * SVG_UNIT
    # Wide enough for the board and for the longest line of words (about 0.6 em a character).
    longest = max(len(t.text) for t in [*above, SvgText(0, 0, "", head.result)]) * 0.6 * 15
    longest = max([longest] + [len(line) * 0.6 * 13 for line in below])
    width = max(board_w, longest, 590.0) + 2 * SVG_MARGIN
    # The legend is one line, 140 px an entry: room for the moved-stone and bite keys too.
    keys_count = len(head.legend) + 1 + bool(picture.path) + bool(picture.bites)
    width = max(width, keys_count * 140.0 + 2 * SVG_MARGIN)
    legend_y = board_top + board_h + LINE
    height = legend_y + (len(below) + 2) * LINE + SVG_MARGIN
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
    texts = [
        SvgText(SVG_MARGIN, round(SVG_MARGIN + (i + 0.7) * LINE, 2), t.css, t.text)
        for i, t in enumerate(above)
    ]
    texts += [
        SvgText(SVG_MARGIN, round(legend_y + (i + 1.3) * LINE, 2), "text", line)
        for i, line in enumerate(below)
    ]
    texts.append(SvgText(SVG_MARGIN, round(legend_y + (len(below) + 1.3) * LINE, 2), "result", head.result))
    keys = [(f"stone-{key}", 7.0, f"{label} ({glyph})") for key, glyph, label in head.legend]
    keys.append(("lastmark", 5.0, "last move"))
    if picture.path:
        keys.append(("pathkey", 5.0, "stone moved"))
    if picture.bites:
        keys.append(("bite", 9.0, "bite"))
    legend = [
        SvgKey(SVG_MARGIN + 8 + i * 140, legend_y, css, radius,
               SvgText(SVG_MARGIN + 22 + i * 140, legend_y + 4.5, "text", words))
        for i, (css, radius, words) in enumerate(keys)
    ]
    tags = [
        SvgText(*place(*picture.grid.centre(cell)), f"tag tag-{picture.pieces[cell]}", tag)
        for cell, tag in sorted(picture.tags.items())
        if cell in picture.pieces
    ]
    return render(
        "diagram.svg.j2",
        title=head.title,
        width=round(width, 2),
        height=round(height, 2),
        cells=cells,
        labels=[SvgText(*place(lb.x, lb.y), "coord", lb.text) for lb in shapes.labels],
        texts=texts,
        legend=legend,
        label_size=round(SVG_UNIT * LABEL_SIZE, 2),
        stone_radius=round(SVG_UNIT * 0.4, 2),
        mark_radius=round(SVG_UNIT * 0.12, 2),
        arrow=_arrow(picture, place),
        bites=[place(*picture.grid.centre(cell)) for cell in sorted(picture.bites)],
        bite_radius=round(SVG_UNIT * 0.47, 2),
        tags=tags,
        extras=bool(picture.path or picture.bites or picture.tags),
    )


@dataclass(frozen=True)
class SvgArrow:
    x1: float
    y1: float
    x2: float
    y2: float


def _arrow(picture: Picture, place: Callable[[float, float], tuple[float, float]]) -> SvgArrow | None:
    """The last move's path, from the centre of its first cell to the rim of the stone on its
    last, so the arrowhead stays visible."""
    if len(picture.path) < 2:
        return None
    (x1, y1), (x2, y2) = (place(*picture.grid.centre(c)) for c in (picture.path[0], picture.path[-1]))
    length = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
    back = min(SVG_UNIT * 0.42, length / 2) / length
    return SvgArrow(x1, y1, round(x2 - (x2 - x1) * back, 2), round(y2 - (y2 - y1) * back, 2))


def _drawers(picture: Any) -> tuple[Callable[[Any, Header], str], Callable[[Any, Header], str]]:
    """How this kind of picture is drawn: (text, SVG). A game's own renderer imports that game's
    rules, so it is imported only when its picture is drawn, not for every diagram."""
    if isinstance(picture, Picture):
        return grid_text, grid_svg
    kind = type(picture).__name__
    if kind == "CrabPicture":
        from referee.render.crab import crab_svg, crab_text

        return crab_text, crab_svg
    if kind == "HermeticaPicture":
        from referee.render.hermetica import hermetica_svg, hermetica_text

        return hermetica_text, hermetica_svg
    raise TypeError(f"no drawer for {kind}")
