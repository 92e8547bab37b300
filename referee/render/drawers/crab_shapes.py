"""The shapes of the crab diagrams (render/drawers/crab.py): cells, symbols, Hermie and the Wave, as
plain values for templates/crab.svg.j2 to place. A symbol is drawn as a shape (shells round,
with their initial; starfish a star; caps a ringed disc; pools a bar), so that shape tells them
apart and not colour alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

from referee.games.crab.picture import CAP, POOL, STAR

SHELL_CLASS = {"red": "red", "orange": "orange", "yellow": "yellow", "blue": "blue"}
SHELL_LETTER = {"red": "R", "orange": "O", "yellow": "Y", "blue": "B"}
SLOT_W, SLOT_H = 58.0, 64.0  # a Coast card


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    css: str
    title: str = ""


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    css: str


@dataclass(frozen=True)
class Poly:
    points: str
    css: str


@dataclass(frozen=True)
class Text:
    x: float
    y: float
    css: str
    text: str


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    css: str


@dataclass
class Shapes:
    """Everything to draw, in drawing order: cells, then symbols, then the cards' edges, then
    outlines, then tokens (Hermie stays visible on top of the Wave), then words."""

    cells: list[Rect]
    circles: list[Circle]
    polys: list[Poly]
    edges: list[Line]
    outlines: list[Rect]
    tokens: list[Circle]
    texts: list[Text]
    drawn: Mapping[str, object]  # the palette's own ways of drawing (render/palette.py)

    @classmethod
    def empty(cls, drawn: Mapping[str, object] | None = None) -> "Shapes":
        return cls([], [], [], [], [], [], [], drawn or {})


def _r(v: float) -> float:
    return round(v, 2)


def _star(cx: float, cy: float, outer: float) -> str:
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else outer * 0.45
        angle = math.pi / 2 + i * math.pi / 5
        points.append(f"{_r(cx + radius * math.cos(angle))},{_r(cy - radius * math.sin(angle))}")
    return " ".join(points)


def _symbol(shapes: Shapes, symbol: str, cx: float, cy: float, size: float, letters: bool) -> None:
    """A symbol drawn as a shape: shells round with their initial, starfish a star, caps a
    ringed disc, pools a wide ellipse-like rounded bar (shape tells them apart, not only colour)."""
    if symbol in SHELL_CLASS:
        lettered = letters or bool(shapes.drawn.get("letters"))
        # A palette that letters every shell draws the small ones of the beach patterns large
        # enough to hold their letter.
        radius = size * 0.32 if letters or not lettered else max(size * 0.32, 9.0)
        shapes.circles.append(Circle(_r(cx), _r(cy), _r(radius), f"shell {SHELL_CLASS[symbol]}"))
        if lettered:
            light = symbol in shapes.drawn.get("light_letters", ())  # type: ignore[operator]
            shapes.texts.append(Text(_r(cx), _r(cy), "letter on-dark" if light else "letter", SHELL_LETTER[symbol]))
    elif symbol == STAR:
        shapes.polys.append(Poly(_star(cx, cy, size * 0.38), "star"))
    elif symbol == CAP:
        shapes.circles.append(Circle(_r(cx), _r(cy), _r(size * 0.3), "cap"))
        shapes.circles.append(Circle(_r(cx), _r(cy), _r(size * 0.14), "capinner"))
    elif symbol == POOL:
        shapes.cells.append(Rect(_r(cx - size * 0.38), _r(cy - size * 0.2), _r(size * 0.76),
                                 _r(size * 0.4), "pool"))


def _wave(shapes: Shapes, x: float, top: float) -> None:
    y = top + SLOT_H - 22
    points = [f"{_r(x)},{_r(top + SLOT_H)}"]
    for i in range(7):
        points.append(f"{_r(x + i * SLOT_W / 6)},{_r(y - (5 if i % 2 else 0))}")
    points.append(f"{_r(x + SLOT_W)},{_r(top + SLOT_H)}")
    shapes.polys.append(Poly(" ".join(points), "wave"))
    shapes.texts.append(Text(_r(x + SLOT_W / 2), _r(top + SLOT_H - 8), "wavetext", "Wave"))


def _hermie(shapes: Shapes, cx: float, cy: float) -> None:
    # A crab: a body and two claws, with an H for a reader who cannot tell the colours.
    shapes.tokens.append(Circle(_r(cx - 11), _r(cy - 6), 5, "hermie"))
    shapes.tokens.append(Circle(_r(cx + 11), _r(cy - 6), 5, "hermie"))
    shapes.tokens.append(Circle(_r(cx), _r(cy), 10, "hermie"))
    shapes.texts.append(Text(_r(cx), _r(cy), "hermietext", "H"))




def _wave_key(shapes: Shapes, x: float, y: float, size: float) -> None:
    points = [f"{_r(x)},{_r(y + size)}"]
    for i in range(5):
        points.append(f"{_r(x + i * size / 4)},{_r(y + size / 2 - (4 if i % 2 else 0))}")
    points.append(f"{_r(x + size)},{_r(y + size)}")
    shapes.polys.append(Poly(" ".join(points), "wave"))
