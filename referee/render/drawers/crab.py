"""Diagrams of Hermit: Small crab, big wave: the play area(s) as a grid of card cells and the
Coast strip with Hermie and the Wave. Text for the mail body, SVG to attach.

Everything is computed here; templates/crab.txt.j2 and crab.svg.j2 only place values and loop.
The room around the drawing (margins, lines of words, how wide words are) is render/page.py's,
shared with every drawer.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from referee.games.crab.picture import (
    BLANK, CAP, COAST, COLUMNS, POOL, STAR, AreaView, CellView, CrabPicture, SlotView,
)
from referee.render import descriptions, page
from referee.render.drawers.crab_shapes import (
    SHELL_CLASS,
    SHELL_LETTER,
    SLOT_H,
    SLOT_W,
    Line,
    Rect,
    Shapes,
    Text,
    _hermie,
    _r,
    _symbol,
    _wave,
    _wave_key,
)
from referee.render.palette import CRAB, CRAB_LETTER_RULES, CRAB_RULES, chosen, style
from referee.play.words import Header, text_head
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
# The review page's Coast: the shore and slots 1–5, then slots 6–10 and the place past them.
# Half as wide as a row of twelve, it is no wider than a play area of about ten columns, so a
# phone's screen shows the picture at about its own size, every word at 11 px or more.
BARE_COAST_ROW = 6
HAND_U = 30.0  # pixels per cell of a card in hand


def card_owners(area: AreaView, placed: list[tuple[int, int, int, int, int]]) -> dict[tuple[int, int], int | None]:
    """Which card each visible cell of a play area lies on: the last of the cards `placed`
    (card id, x, y, width, height, in the order they were placed) that covers it, or None
    for the cards the area started with."""
    owners: dict[tuple[int, int], int | None] = {}
    for cell in area.cells:
        owners[(cell.x, cell.y)] = next(
            (card for card, x, y, w, h in reversed(placed) if x <= cell.x < x + w and y <= cell.y < y + h), None)
    return owners


def _card_edges(shapes: Shapes, owners: dict[tuple[int, int], int | None], place, unit: float = U) -> None:
    """The outline of every card, as much of it as shows: a heavy line along each side of a
    cell whose neighbour lies on another card or on none, so that overlapping cards read."""
    for (x, y), owner in owners.items():
        px, py = place(x, y)
        for dx, dy, x1, y1, x2, y2 in ((0, -1, 0, 0, unit, 0), (0, 1, 0, unit, unit, unit),
                                       (-1, 0, 0, 0, 0, unit), (1, 0, unit, 0, unit, unit)):
            neighbour = (x + dx, y + dy)
            if neighbour not in owners or owners[neighbour] != owner:
                shapes.edges.append(Line(_r(px + x1), _r(py + y1), _r(px + x2), _r(py + y2), "cardedge"))


def _area_shapes(shapes: Shapes, area: AreaView, left: float, top: float,
                 placed: list[tuple[int, int, int, int, int]] | None = None) -> tuple[float, float]:
    """Draw one play area with its top-left corner at (left, top), the outlines of the cards
    `placed` (as card_owners takes them); returns its width, height."""
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
    owners = card_owners(area, placed if placed is not None else [area.new_card] if area.new_card else [])
    _card_edges(shapes, owners, lambda x, y: (left + (x - x0) * U, top + (y - y0) * U))
    if area.new_card:
        _, nx, ny, nw, nh = area.new_card
        shapes.outlines.append(Rect(_r(left + (nx - x0) * U), _r(top + (ny - y0) * U),
                                    _r(nw * U), _r(nh * U), "newcard"))
    return width, height


COAST_ROW = SLOT_H + 54  # from one row of the Coast to the next: Hermie above, numbers below
BEACH_SYMBOL = SLOT_W / 2.5  # a beach pattern's symbols, three to a Coast card


def _coast_card_rows(per_row: int) -> int:
    """How many rows of cards the Coast takes, `per_row` places to a row (the shore, slots 1–10 and the
    place off the Coast where the Wave goes when it has passed)."""
    return -(-(COAST + 2) // per_row)


def _coast_shapes(shapes: Shapes, picture: CrabPicture, left: float, top: float,
                  per_row: int = COAST + 2) -> None:
    """The Coast: the shore (slot 0), slots 1–10, Hermie as a crab, the Wave as a blue band;
    `per_row` places to a row (the review page's picture takes two rows, so that it is half as
    wide and a phone shows it large enough to read)."""
    def slot_x(slot: int) -> float:
        return left + (slot % per_row) * (SLOT_W + 6)

    def slot_top(slot: int) -> float:
        return top + (slot // per_row) * COAST_ROW

    shapes.cells.append(Rect(_r(slot_x(0)), _r(top), SLOT_W, SLOT_H, "shore", "the shore"))
    shapes.texts.append(Text(_r(slot_x(0) + SLOT_W / 2), _r(top + SLOT_H + 12), "coord", "shore"))
    for slot in picture.coast:
        x, y = slot_x(slot.slot), slot_top(slot.slot)
        css = "coast" if slot.card is not None else "coast drawn"
        title = f"slot {slot.slot}: card {slot.card}" if slot.card is not None else f"slot {slot.slot}: drawn"
        shapes.cells.append(Rect(_r(x), _r(y), SLOT_W, SLOT_H, css, title))
        shapes.texts.append(Text(_r(x + SLOT_W / 2), _r(y + SLOT_H + 12), "coord", str(slot.slot)))
        if slot.card is not None:
            shapes.texts.append(Text(_r(x + SLOT_W / 2), _r(y + 12), "cardid", f"#{slot.card}"))
        for i, symbol in enumerate(slot.beach or ()):
            _symbol(shapes, symbol, x + SLOT_W * (i + 0.5) / 3, y + 30, BEACH_SYMBOL, False)
        if slot.target:
            shapes.outlines.append(Rect(_r(x - 2), _r(y - 2), SLOT_W + 4, SLOT_H + 4, "target"))
        if slot.wave:
            _wave(shapes, x, y)
        if slot.hermie:
            _hermie(shapes, x + SLOT_W / 2, y - 14)  # above his card, clear of the Wave
    if picture.hermie_ashore:
        _hermie(shapes, slot_x(0) + SLOT_W / 2, slot_top(0) + SLOT_H / 2)
    if picture.wave_gone:
        _wave(shapes, slot_x(COAST + 1), slot_top(COAST + 1))


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
        cells = {(c, r): card.card for r, row in enumerate(card.rows) for c in range(len(row))}
        _card_edges(shapes, cells, lambda c, r, x=x: (x + c * HAND_U, top + 14 + r * HAND_U), HAND_U)
        beach_top = top + 14 + len(card.rows) * HAND_U + 4
        shapes.cells.append(Rect(_r(x), _r(beach_top), COLUMNS * HAND_U, 22, "coast", f"card {card.card}: beach"))
        for i, symbol in enumerate(card.beach):
            _symbol(shapes, symbol, x + HAND_U * (i + 0.5), beach_top + 11, 22, False)
        x += COLUMNS * HAND_U + 24
    return x - left


LEGEND = (
    *((shell, f"{SHELL_LETTER[shell]} {shell} shell") for shell in SHELL_CLASS),
    (STAR, "starfish"), (CAP, "bottle cap"), (POOL, "pool"), ("drift", "driftwood"), ("hermie", "Hermie"),
    ("wave", "the Wave"), ("cardedge", "a card's edge"), ("newcard", "placed this round"),
    ("pattern", "recreated pattern"), ("target", "pattern to recreate"),
)
LEGEND_SIZE = 26.0  # a swatch of the legend, in pixels
LEGEND_GAP = 8.0  # between a swatch (Hermie's claws reach past it) and its words


def _swatch(shapes: Shapes, kind: str, x: float, y: float) -> float:
    """One swatch of the legend with its top-left corner at (x, y), drawn as the picture
    draws that thing; returns its right edge."""
    size = LEGEND_SIZE
    cx, cy = x + size / 2, y + size / 2
    if kind == "drift":
        shapes.cells.append(Rect(_r(x + 2), _r(cy - 3), size - 4, 6, "drift"))
    elif kind == "hermie":
        _hermie(shapes, cx, cy + 2)
        return cx + 16  # the claws
    elif kind == "wave":
        _wave_key(shapes, x, y, size)
    elif kind == "cardedge":
        shapes.cells.append(Rect(_r(x + 2), _r(y + 2), size - 4, size - 4, "card"))
        for x1, y1, x2, y2 in ((2, 2, size - 2, 2), (2, size - 2, size - 2, size - 2), (2, 2, 2, size - 2),
                               (size - 2, 2, size - 2, size - 2)):
            shapes.edges.append(Line(_r(x + x1), _r(y + y1), _r(x + x2), _r(y + y2), "cardedge"))
    elif kind in ("newcard", "pattern", "target"):
        shapes.outlines.append(Rect(_r(x + 2), _r(y + 2), size - 4, size - 4, f"{kind} key"))
    else:
        _symbol(shapes, kind, cx, cy, size, True)
    return x + size


def _legend_step() -> float:
    """Room for one entry of the legend: its swatch, the gap and its longest words."""
    widest = max(page.text_width(words, "legend") for _, words in LEGEND)
    return LEGEND_SIZE + 6 + LEGEND_GAP + widest + 14


def _legend_shapes(shapes: Shapes, left: float, top: float, width: float) -> float:
    """Every symbol with its name, Hermie and the Wave, and the marks of the last round, in
    rows as wide as the picture; returns the height used."""
    step = _legend_step()
    per_row = max(1, int(width // step))
    size = LEGEND_SIZE
    for i, (kind, words) in enumerate(LEGEND):
        x = left + (i % per_row) * step
        y = top + (i // per_row) * (size + 8)
        right = _swatch(shapes, kind, x, y)
        shapes.texts.append(Text(_r(max(right, x + size + 6) + LEGEND_GAP), _r(y + size / 2 + 4), "legend", words))
    rows = (len(LEGEND) + per_row - 1) // per_row
    return rows * (size + 8)


def key(picture: CrabPicture, head: Header, palette: str | None = None) -> list[tuple[str | None, str]]:
    """The legend for the review page, which writes it as text: each entry's words, with its
    swatch as a small SVG drawn in the same style."""
    return [(_key_swatch(kind, words, palette), words) for kind, words in LEGEND]


@cache  # the same swatches for every ply of a review page
def _key_swatch(kind: str, words: str, palette: str | None) -> str:
    colours = chosen(CRAB, palette)
    shapes = Shapes.empty(colours.drawn)
    _swatch(shapes, kind, 6, 3)
    return _render(colours, title=words, desc="", **page.canvas(38, 32), shapes=shapes, texts=shapes.texts)


def svg(picture: CrabPicture, head: Header, palette: str | None = None, bare: bool = False) -> str:
    """The position as SVG; `bare`, the Coast, the play areas and the hands alone (the review
    page writes the words around them as text)."""
    colours = chosen(CRAB, palette)
    shapes = Shapes.empty(colours.drawn)
    above = [] if bare else [Text(0, 0, "head", line) for line in page.fitted([head.title], "head")]
    above += [] if bare else [Text(0, 0, "text", line) for line in page.fitted(head.players)]
    texts = [Text(page.MARGIN, page.line_y(page.MARGIN, i), t.css, t.text) for i, t in enumerate(above)]
    y = page.MARGIN + (len(above) + 0.8) * page.LINE
    texts.append(Text(page.MARGIN, _r(y), "subhead", "Coast"))
    coast_top = y + 34  # room for Hermie above his card
    per_row = BARE_COAST_ROW if bare else COAST + 2
    _coast_shapes(shapes, picture, page.MARGIN + 10, coast_top, per_row)
    coast_width = per_row * (SLOT_W + 6) + 10
    y = coast_top + (_coast_card_rows(per_row) - 1) * COAST_ROW + SLOT_H + 36
    widest = coast_width
    for number, area in enumerate(picture.areas):
        title = "Play area" if len(picture.areas) == 1 else f"Seat {area.seat}, play area"
        texts.append(Text(page.MARGIN, _r(y), "subhead", title))
        width, height = _area_shapes(shapes, area, page.MARGIN + 22, y + 26, list(area.cards))
        widest = max(widest, width + 22)
        y += 26 + height + 24
        texts.append(Text(page.MARGIN, _r(y), "subhead", _hand_title(picture, area)))
        if area.hand_cards:
            widest = max(widest, _hand_shapes(shapes, area, page.MARGIN + 22, y + 10) + 22)
            y += 10 + 14 + 2 * HAND_U + 26 + 24
        else:
            y += 24
    below: list[str] = []
    result: list[str] = []
    if not bare:
        texts.append(Text(page.MARGIN, _r(y), "subhead", "Legend"))
        y += 12 + _legend_shapes(shapes, page.MARGIN + 10, y + 10, widest) + 18
        below = page.fitted(head.last_lines() + head.status)
        result = page.fitted([head.result], "result")
    for i, line in enumerate(below):
        texts.append(Text(page.MARGIN, page.line_y(y, i, 0), "text", line))
    for i, line in enumerate(result):
        texts.append(Text(page.MARGIN, page.line_y(y, len(below) + i, 0), "result", line))
    # Wide enough for the drawing and for the longest line of words; the board alone needs no
    # room for the status lines (page.MIN_WIDTH), which the review page writes as text.
    width = (max([widest, *(page.text_width(t.text, t.css) for t in texts)]) + 2 * page.MARGIN if bare
             else page.page_width(widest, ((t.css, t.text) for t in texts)))
    height = y + (len(below) + len(result)) * page.LINE + page.MARGIN - (24 if bare else 0)
    return _render(colours, title=descriptions.title(head), desc=words(picture),
                   **page.canvas(width, height), shapes=shapes, texts=texts + shapes.texts)


def words(picture: CrabPicture) -> str:
    """The position in words (the SVG's <desc>; the review page shows it too)."""
    return descriptions.crab_words(picture)


def _render(colours, **view: object) -> str:
    return render("crab.svg.j2", style=style(CRAB_RULES + (CRAB_LETTER_RULES if colours.drawn else ()), colours),
                  **view)
