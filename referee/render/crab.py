"""Diagrams of Hermit: Small crab, big wave: the play area(s) as a grid of card cells and the
Coast strip with Hermie and the Wave. Text for the mail body, SVG to attach.

Everything is computed here; templates/crab.txt.j2 and crab.svg.j2 only place values and loop.
The room around the drawing (margins, lines of words, how wide words are) is render/page.py's,
shared with every drawer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from referee.games.crab import (
    BLANK, CAP, COAST, POOL, STAR, AreaView, CellView, CrabPicture, SlotView,
)
from referee.games.crab.deck import COLUMNS
from referee.render import page
from referee.render.palette import CRAB, CRAB_RULES, chosen, style
from referee.render.header import Header, text_head
from referee.render.templates import render

# -- text ------------------------------------------------------------------------------------

GLYPHS = {"red": "R", "orange": "O", "yellow": "Y", "blue": "B", STAR: "*", CAP: "C", POOL: "~",
          BLANK: "."}
TEXT_LEGEND = (
    "Shells R red  O orange  Y yellow  B blue;  * starfish  C bottle cap  ~ pool",
    ". no symbol  = on driftwood  [ ] card placed this round  ( ) recreated pattern",
    "Coast: H Hermie  W the Wave  [...] the pattern to recreate next",
)
HAND_GAP = 4  # characters between two cards of a hand
COAST_WIDTH = 5  # characters per Coast slot


def _text_cell(cell: CellView | None) -> str:
    if cell is None:
        return "    "
    left, right = ("(", ")") if cell.pattern else ("[", "]") if cell.new else (" ", " ")
    return f"{left}{GLYPHS[cell.symbol]}{'=' if cell.drift else ' '}{right}"


def area_rows(area: AreaView) -> list[str]:
    """The play area as text: a row of x coordinates, then one line per y."""
    cells = {(c.x, c.y): c for c in area.cells}
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    x_range = range(min(xs), max(xs) + 1)
    rows = ["    " + "".join(f"{x:^4}" for x in x_range).rstrip()]
    for y in range(min(ys), max(ys) + 1):
        rows.append(f"{y:>3} " + "".join(_text_cell(cells.get((x, y))) for x in x_range).rstrip())
    return rows


def _pattern_glyphs(slot: SlotView) -> str:
    if slot.beach is None:
        return "-"
    text = "".join(GLYPHS[s] for s in slot.beach)
    return f"[{text}]" if slot.target else text


def coast_rows(picture: CrabPicture) -> list[str]:
    """Slot numbers, card ids, the patterns (the one to recreate in brackets), Hermie and Wave."""

    def line(label: str, words: list[str]) -> str:
        return (f"{label:<8}" + "".join(f"{w:^{COAST_WIDTH}}" for w in words)).rstrip()

    slots = picture.coast
    marks = ["H" if picture.hermie_ashore else ""]
    for slot in slots:
        marks.append(("H" if slot.hermie else "") + ("W" if slot.wave else ""))
    marks.append("W" if picture.wave_gone else "")
    return [
        line("slot", ["shore"] + [str(s.slot) for s in slots] + ["off"]),
        line("card", [""] + ["-" if s.card is None else str(s.card) for s in slots]),
        line("pattern", [""] + [_pattern_glyphs(s) for s in slots]),
        line("", marks),
    ]


def hand_rows(area: AreaView) -> list[str]:
    """The cards in a hand side by side, face up as at rotation 0: the card's id, its two rows
    of cells as the play area draws them, and its beach pattern."""
    if not area.hand_cards:
        return []
    width = 4 * COLUMNS
    blocks = []
    for card in area.hand_cards:
        lines = [f"card {card.card}"]
        for row in card.rows:
            lines.append("".join(f" {GLYPHS[symbol]}{'=' if drift else ' '} " for symbol, drift in row))
        lines.append("beach " + "".join(GLYPHS[s] for s in card.beach))
        blocks.append(lines)
    gap = " " * HAND_GAP
    return ["  " + gap.join(f"{block[i]:<{width}}" for block in blocks).rstrip()
            for i in range(len(blocks[0]))]


@dataclass(frozen=True)
class TextArea:
    title: str
    rows: list[str]
    hand_title: str
    hand: list[str]


def text(picture: CrabPicture, head: Header) -> str:
    areas = [
        TextArea(_area_title(picture, area), area_rows(area), _hand_title(picture, area), hand_rows(area))
        for area in picture.areas
    ]
    return render(
        "crab.txt.j2", head=text_head(head), coast=coast_rows(picture), areas=areas,
        legend=TEXT_LEGEND,
    )


def _hand_title(picture: CrabPicture, area: AreaView) -> str:
    who = "Hand" if len(picture.areas) == 1 else f"Seat {area.seat}, hand"
    return f"{who}: " + (f"{len(area.hand_cards)} card{'s' if len(area.hand_cards) != 1 else ''}"
                         if area.hand_cards else "empty")


def _area_title(picture: CrabPicture, area: AreaView) -> str:
    who = "Play area" if len(picture.areas) == 1 else f"Seat {area.seat}, play area"
    new = f"; card {area.new_card[0]} placed this round" if area.new_card else ""
    return f"{who}{new}"


# -- SVG -------------------------------------------------------------------------------------

U = 36.0  # pixels per play-area cell
SLOT_W, SLOT_H = 58.0, 64.0  # a Coast card
SHELL_CLASS = {"red": "red", "orange": "orange", "yellow": "yellow", "blue": "blue"}
SHELL_LETTER = {"red": "R", "orange": "O", "yellow": "Y", "blue": "B"}


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


@dataclass
class Shapes:
    """Everything to draw, in drawing order: cells, then symbols, then outlines, then tokens
    (Hermie stays visible on top of the Wave), then words."""

    cells: list[Rect]
    circles: list[Circle]
    polys: list[Poly]
    outlines: list[Rect]
    tokens: list[Circle]
    texts: list[Text]

    @classmethod
    def empty(cls) -> "Shapes":
        return cls([], [], [], [], [], [])


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
        shapes.circles.append(Circle(_r(cx), _r(cy), _r(size * 0.32), f"shell {SHELL_CLASS[symbol]}"))
        if letters:
            shapes.texts.append(Text(_r(cx), _r(cy), "letter", SHELL_LETTER[symbol]))
    elif symbol == STAR:
        shapes.polys.append(Poly(_star(cx, cy, size * 0.38), "star"))
    elif symbol == CAP:
        shapes.circles.append(Circle(_r(cx), _r(cy), _r(size * 0.3), "cap"))
        shapes.circles.append(Circle(_r(cx), _r(cy), _r(size * 0.14), "capinner"))
    elif symbol == POOL:
        shapes.cells.append(Rect(_r(cx - size * 0.38), _r(cy - size * 0.2), _r(size * 0.76),
                                 _r(size * 0.4), "pool"))


def _area_shapes(shapes: Shapes, area: AreaView, left: float, top: float) -> tuple[float, float]:
    """Draw one play area with its top-left corner at (left, top); returns its width, height."""
    xs = [c.x for c in area.cells]
    ys = [c.y for c in area.cells]
    x0, y0 = min(xs), min(ys)
    width, height = (max(xs) - x0 + 1) * U, (max(ys) - y0 + 1) * U
    for x in range(x0, max(xs) + 1):  # coordinates along the top and the left
        shapes.texts.append(Text(_r(left + (x - x0 + 0.5) * U), _r(top - 6), "coord", str(x)))
    for y in range(y0, max(ys) + 1):
        shapes.texts.append(Text(_r(left - 10), _r(top + (y - y0 + 0.5) * U), "coord", str(y)))
    for cell in area.cells:
        px, py = left + (cell.x - x0) * U, top + (cell.y - y0) * U
        css = "card new" if cell.new else "card"
        shapes.cells.append(Rect(_r(px), _r(py), U, U, css, f"{cell.x},{cell.y}: {cell.symbol}"))
        if cell.drift:
            shapes.cells.append(Rect(_r(px + 3), _r(py + U - 9), _r(U - 6), 6, "drift"))
        _symbol(shapes, cell.symbol, px + U / 2, py + U / 2 - (2 if cell.drift else 0), U, True)
        if cell.pattern:
            shapes.outlines.append(Rect(_r(px + 3), _r(py + 3), _r(U - 6), _r(U - 6), "pattern"))
    if area.new_card:
        _, nx, ny, nw, nh = area.new_card
        shapes.outlines.append(Rect(_r(left + (nx - x0) * U), _r(top + (ny - y0) * U),
                                    _r(nw * U), _r(nh * U), "newcard"))
    return width, height


def _coast_shapes(shapes: Shapes, picture: CrabPicture, left: float, top: float) -> None:
    """The Coast: the shore (slot 0), slots 1–10, Hermie as a crab, the Wave as a blue band."""
    def slot_x(slot: int) -> float:
        return left + slot * (SLOT_W + 6)

    shapes.cells.append(Rect(_r(slot_x(0)), _r(top), SLOT_W, SLOT_H, "shore", "the shore"))
    shapes.texts.append(Text(_r(slot_x(0) + SLOT_W / 2), _r(top + SLOT_H + 12), "coord", "shore"))
    for slot in picture.coast:
        x = slot_x(slot.slot)
        css = "coast" if slot.card is not None else "coast drawn"
        title = f"slot {slot.slot}: card {slot.card}" if slot.card is not None else f"slot {slot.slot}: drawn"
        shapes.cells.append(Rect(_r(x), _r(top), SLOT_W, SLOT_H, css, title))
        shapes.texts.append(Text(_r(x + SLOT_W / 2), _r(top + SLOT_H + 12), "coord", str(slot.slot)))
        if slot.card is not None:
            shapes.texts.append(Text(_r(x + SLOT_W / 2), _r(top + 12), "cardid", f"#{slot.card}"))
        for i, symbol in enumerate(slot.beach or ()):
            _symbol(shapes, symbol, x + SLOT_W * (i + 0.5) / 3, top + 30, SLOT_W / 3, False)
        if slot.target:
            shapes.outlines.append(Rect(_r(x - 2), _r(top - 2), SLOT_W + 4, SLOT_H + 4, "target"))
        if slot.wave:
            _wave(shapes, x, top)
        if slot.hermie:
            _hermie(shapes, x + SLOT_W / 2, top - 14)  # above his card, clear of the Wave
    if picture.hermie_ashore:
        _hermie(shapes, slot_x(0) + SLOT_W / 2, top + SLOT_H / 2)
    if picture.wave_gone:
        _wave(shapes, slot_x(COAST + 1), top)


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


HAND_U = 30.0  # pixels per cell of a card in hand
LEGEND_STEP = 136.0  # pixels between two entries of the legend


def _hand_shapes(shapes: Shapes, area: AreaView, left: float, top: float) -> float:
    """The cards in a hand side by side, face up at rotation 0, each with its id above and its
    beach pattern below; returns the width drawn."""
    x = left
    for card in area.hand_cards:
        shapes.texts.append(Text(_r(x + COLUMNS * HAND_U / 2), _r(top + 6), "cardid", f"#{card.card}"))
        for r, row in enumerate(card.rows):
            for c, (symbol, drift) in enumerate(row):
                px, py = x + c * HAND_U, top + 14 + r * HAND_U
                shapes.cells.append(Rect(_r(px), _r(py), HAND_U, HAND_U, "card", f"card {card.card}: {symbol}"))
                if drift:
                    shapes.cells.append(Rect(_r(px + 3), _r(py + HAND_U - 8), _r(HAND_U - 6), 5, "drift"))
                _symbol(shapes, symbol, px + HAND_U / 2, py + HAND_U / 2 - (2 if drift else 0), HAND_U, True)
        beach_top = top + 14 + len(card.rows) * HAND_U + 4
        shapes.cells.append(Rect(_r(x), _r(beach_top), COLUMNS * HAND_U, 22, "coast", f"card {card.card}: beach"))
        for i, symbol in enumerate(card.beach):
            _symbol(shapes, symbol, x + HAND_U * (i + 0.5), beach_top + 11, 22, False)
        x += COLUMNS * HAND_U + 24
    return x - left


def _legend_shapes(shapes: Shapes, left: float, top: float, width: float) -> float:
    """Every symbol with its name, Hermie and the Wave, and the marks of the last round, in
    rows as wide as the picture; returns the height used."""
    entries = [(shell, f"{SHELL_LETTER[shell]} {shell} shell") for shell in SHELL_CLASS]
    entries += [(STAR, "starfish"), (CAP, "bottle cap"), (POOL, "pool"), ("drift", "driftwood"),
                ("hermie", "Hermie"), ("wave", "the Wave"), ("newcard", "placed this round"),
                ("pattern", "recreated pattern")]
    per_row = max(1, int(width // LEGEND_STEP))
    size = 26.0
    for i, (kind, words) in enumerate(entries):
        x = left + (i % per_row) * LEGEND_STEP
        y = top + (i // per_row) * (size + 8)
        cx, cy = x + size / 2, y + size / 2
        if kind == "drift":
            shapes.cells.append(Rect(_r(x + 2), _r(cy - 3), size - 4, 6, "drift"))
        elif kind == "hermie":
            _hermie(shapes, cx, cy + 2)
        elif kind == "wave":
            _wave_key(shapes, x, y, size)
        elif kind in ("newcard", "pattern"):
            shapes.outlines.append(Rect(_r(x + 2), _r(y + 2), size - 4, size - 4, f"{kind} key"))
        else:
            _symbol(shapes, kind, cx, cy, size, True)
        shapes.texts.append(Text(_r(x + size + 6), _r(cy + 4), "legend", words))
    rows = (len(entries) + per_row - 1) // per_row
    return rows * (size + 8)


def _wave_key(shapes: Shapes, x: float, y: float, size: float) -> None:
    points = [f"{_r(x)},{_r(y + size)}"]
    for i in range(5):
        points.append(f"{_r(x + i * size / 4)},{_r(y + size / 2 - (4 if i % 2 else 0))}")
    points.append(f"{_r(x + size)},{_r(y + size)}")
    shapes.polys.append(Poly(" ".join(points), "wave"))


def svg(picture: CrabPicture, head: Header, palette: str | None = None) -> str:
    shapes = Shapes.empty()
    above = [Text(0, 0, "head", line) for line in page.fitted([head.title], "head")]
    above += [Text(0, 0, "text", line) for line in page.fitted(head.players)]
    texts = [Text(page.MARGIN, page.line_y(page.MARGIN, i), t.css, t.text) for i, t in enumerate(above)]
    y = page.MARGIN + (len(above) + 0.8) * page.LINE
    texts.append(Text(page.MARGIN, _r(y), "subhead", "Coast"))
    coast_top = y + 34  # room for Hermie above his card
    _coast_shapes(shapes, picture, page.MARGIN + 10, coast_top)
    coast_width = (COAST + 2) * (SLOT_W + 6) + 10
    y = coast_top + SLOT_H + 30
    widest = coast_width
    for area in picture.areas:
        title = "Play area" if len(picture.areas) == 1 else f"Seat {area.seat}, play area"
        texts.append(Text(page.MARGIN, _r(y), "subhead", title))
        width, height = _area_shapes(shapes, area, page.MARGIN + 22, y + 26)
        widest = max(widest, width + 22)
        y += 26 + height + 24
        texts.append(Text(page.MARGIN, _r(y), "subhead", _hand_title(picture, area)))
        if area.hand_cards:
            widest = max(widest, _hand_shapes(shapes, area, page.MARGIN + 22, y + 10) + 22)
            y += 10 + 14 + 2 * HAND_U + 26 + 24
        else:
            y += 24
    texts.append(Text(page.MARGIN, _r(y), "subhead", "Legend"))
    y += 12 + _legend_shapes(shapes, page.MARGIN + 10, y + 10, widest) + 18
    below = page.fitted(head.last_lines() + head.status)
    result = page.fitted([head.result], "result")
    for i, line in enumerate(below):
        texts.append(Text(page.MARGIN, page.line_y(y, i, 0), "text", line))
    for i, line in enumerate(result):
        texts.append(Text(page.MARGIN, page.line_y(y, len(below) + i, 0), "result", line))
    # Wide enough for the drawing and for the longest line of words.
    width = page.page_width(widest, ((t.css, t.text) for t in texts))
    height = y + (len(below) + len(result)) * page.LINE + page.MARGIN
    return render(
        "crab.svg.j2", title=head.title, **page.canvas(width, height),
        shapes=shapes, texts=texts + shapes.texts, style=style(CRAB_RULES, chosen(CRAB, palette)),
    )
