"""Diagrams of Hermetica: the mat of flat-top hex columns with walls, Shields, units, the
Horizons and Prime hexes, and what the last turn did. Text for the mail body, SVG to attach,
and the printable sheet per wall scheme.

Everything is computed here; templates/hermetica.txt.j2, hermetica.svg.j2 and
hermetica-paper.svg.j2 only place values and loop.
"""

from __future__ import annotations

import math

from referee.games.hermetica.picture import MOON, SIDE, SUN, UNIT_NAME, ActionReport, Board, HermeticaPicture
from referee.geometry.grid import LETTERS
from referee.render import descriptions, page
from referee.render.drawers.hermetica_mat import (
    Arrow,
    Mark,
    Path,
    Token,
    Words,
    column_labels,
    hexes,
    layout,
    shrink,
)
from referee.render.drawers.hermetica_sheet import paper as sheet
from referee.render.palette import HERMETICA, HERMETICA_RULES, chosen, style
from referee.play.words import SVG_WIDTH, Header, text_head
from referee.text import TEXT_WIDTH, wrap_all
from referee.render.templates import render

# -- words shared by text and SVG ------------------------------------------------------------


def unit_words(unit) -> str:
    return f"{SIDE[unit.seat]}'s {UNIT_NAME[unit.kind]}"


def action_lines(picture: HermeticaPicture) -> list[str]:
    """The last ply, action by action: what moved, what was pushed, shot or relocated, and
    what was captured (captures are never written in the notation, so they are spelt out)."""
    board = picture.board
    lines = []
    for number, report in enumerate(picture.last, 1):
        effects = []
        for seg in report.segments:
            if seg.kind == "push":
                if seg.end is None:
                    to = "off the board"
                elif seg.capture:
                    to = f"against the barrier on {board.name(seg.end)}"
                else:
                    to = f"to {board.name(seg.end)}"
                effects.append(f"pushed {board.name(seg.start)} {to}")
            elif seg.kind == "relocate":
                effects.append(f"relocated {board.name(seg.start)} to {board.name(seg.end)}")
            elif seg.kind == "shield" and seg.start is None:
                effects.append(f"Shield deployed on {board.name(seg.end)}")
            elif seg.kind == "shield" and _carried(report, seg):
                effects.append(f"carried its Shield to {board.name(seg.end)}")
            elif seg.kind == "shield":
                effects.append(f"Shield redeployed from {board.name(seg.start)} to {board.name(seg.end)}")
        for cell, unit in report.captured:
            effects.append(f"captured {unit_words(unit)} on {board.name(cell)}")
        prefix = f"{number}. " if len(picture.last) > 1 else ""
        lines.append(f"{prefix}{report.text}" + (f": {'; '.join(effects)}" if effects else ""))
    return lines


def _carried(report: ActionReport, seg) -> bool:
    """A Shield carried by its Fire (R-HM6) moves with a step: not worth a word of its own."""
    return any(s.kind == "step" and s.start == seg.start and s.end == seg.end for s in report.segments)


def touched_cells(picture: HermeticaPicture) -> set[int]:
    """Every hex the last ply touched: where its units started and stopped, what they pushed,
    shot, relocated or captured, and where something was spawned or walled."""
    cells = set()
    for report in picture.last:
        for seg in report.segments:
            cells.update(c for c in (seg.start, seg.end) if c is not None)
        cells.update(cell for cell, _ in report.captured)
    return cells


def last_words(picture: HermeticaPicture, head: Header) -> tuple[str | None, list[str]]:
    """The last ply written once: "Ply 30, Moon (Bo): F c3xc7: captured …" for a single action,
    or "Ply 30, Moon (Bo):" and one line per action below it."""
    actions = action_lines(picture)
    if not head.ply:  # words made without a replay: the last line as given, the actions below
        return head.last, [f"  {line}" for line in actions]
    side = SIDE[picture.last[0].seat] if picture.last else None
    # A player called by the side's name ("Moon") is named once, not "Moon (Moon)".
    mover = f" ({head.mover})" if side is None or head.mover.casefold() != side.casefold() else ""
    intro = f"Ply {head.ply}" + (f", {side}" if side else "") + mover
    if not actions:  # a pass
        return head.last, []
    if len(actions) == 1:
        return f"{intro}: {actions[0]}", []
    return f"{intro}:", [f"  {line}" for line in actions]


# -- text ------------------------------------------------------------------------------------

TEXT_LEGEND = (
    "A Adept  F Fire  E Earth  W Water: Sun upper case, Moon lower case",
    "\"F c9\": Sun's Fire on c9   #..# Wall  [..] Sun's Shield  {..} Moon's Shield",
    "*..* Prime  =..= Horizon  (..) touched by the last ply",
)
# Characters per column: the barrier mark, the unit's letter, a space, the hex's name (up to
# three characters, e.g. d12) and the closing mark. Every hex is named, as in the SVG, so a
# unit's cell and every Wall read off the diagram: "#f b6 #" is Moon's Fire on a Wall on b6.
CELL_WIDTH = 7


def _text_cell(picture: HermeticaPicture, cell: int, touched: set[int]) -> str:
    """Seven characters: the barrier (or the last ply's, the Horizon's or the Prime's mark) on
    both sides of the unit's letter, if any, and the hex's name."""
    board = picture.board
    unit = picture.units.get(cell)
    middle = f"{unit.letter if unit is not None else ' '} {board.name(cell):<3}"
    if cell in picture.walls:
        return f"#{middle}#"
    if picture.shields.get(SUN) == cell:
        return f"[{middle}]"
    if picture.shields.get(MOON) == cell:
        return f"{{{middle}}}"
    if cell in touched:
        return f"({middle})"
    if cell in board.primes.values():
        return f"*{middle}*"
    if _on_horizon(board, cell):
        return f"={middle}="
    return f" {middle} "


def _on_horizon(board: Board, cell: int) -> bool:
    return any(cell in h for h in board.horizons.values())


def board_lines(picture: HermeticaPicture) -> list[str]:
    """The mat as monospace lines, top first: one line per half cell, columns seven characters
    apart, the column letters under each column's bottom cell and over its top cell."""
    grid = picture.board.grid
    touched = touched_cells(picture)
    top = max(h for _, h in grid.doubled) + 1
    canvas = {h: [" "] * (CELL_WIDTH * grid.columns) for h in range(-1, top + 1)}
    for cell in grid:
        q, h = grid.doubled[cell]
        text = _text_cell(picture, cell, touched)
        canvas[h][CELL_WIDTH * q: CELL_WIDTH * q + CELL_WIDTH] = list(text)
    for q in range(grid.columns):
        cells = grid.column_cells(q)
        for h in (grid.doubled[cells[0]][1] - 1, grid.doubled[cells[-1]][1] + 1):
            canvas[h][CELL_WIDTH * q + 3] = LETTERS[q]
    return ["  " + "".join(canvas[h]).rstrip() for h in range(top, -2, -1)]


def text(picture: HermeticaPicture, head: Header) -> str:
    last, details = last_words(picture, head)
    head = head._replace(last=last)
    words = text_head(head)._replace(last=wrap_all(head.last_lines(TEXT_WIDTH, details)))
    return render("hermetica.txt.j2", head=words, rows=board_lines(picture), legend=TEXT_LEGEND)


# -- SVG -------------------------------------------------------------------------------------

UNIT = 58.0  # pixels between neighbouring cell centres
# A unit's circle (a Moon diamond reaches 1.1 times as far): small enough that, with its
# outline, it stays below the hex's name in the top band and above PRIME or "new" in the
# bottom band, so that neither word is hidden under a unit.
UNIT_RADIUS = UNIT * 0.26
# A Shield's letter stands on the left corner of its ring, a little below the middle: clear
# of the unit inside, and of the words of the neighbouring hexes (the upper left one's PRIME or
# "new" in its bottom band, the lower left one's name in its top band).
SHIELD_LETTER = (-UNIT * 0.44, UNIT * 0.06)


def _cell_names(picture: HermeticaPicture, place, aside: frozenset[int] = frozenset()) -> list[Words]:
    """Every hex's name in its top band, above the unit in its middle (UNIT_RADIUS leaves the
    band clear); light on a Wall. Each is drawn over the lines and rings of the hex with a halo
    of the hex's own colour (hermetica.svg.j2 draws the names after the units and the last
    ply's lines), so a line or a Shield's ring passes under the name, never across it.
    The names of the hexes `aside` stand to the left, leaving room for the word "new"."""
    board, names = picture.board, []
    for cell in board.grid:
        x, y = place(*board.grid.centre(cell))
        css = "cellname onwall" if cell in picture.walls else f"cellname {_ground(board, cell)}"
        x = round(x - UNIT * 0.2, 2) if cell in aside else x
        names.append(Words(x, round(y - UNIT * 0.35, 2), css, board.name(cell)))
    return names


def _ground(board: Board, cell: int) -> str:
    """The class that gives a name's halo the colour of its hex: a Horizon's tint or the mat."""
    if cell in board.horizons[SUN]:
        return "on-sun"
    if cell in board.horizons[MOON]:
        return "on-moon"
    return "on-ground"


def lines(picture: HermeticaPicture, head: Header) -> list[str]:
    """The words under the board after the last move, for the review page: the turn, one
    line per action (a single action too), then the status."""
    status: list[str] = []
    for line in head.status:  # a side's line and the line indented under it, as one
        if status and line[:1].isspace():
            status[-1] += "; " + line.strip()
        else:
            status.append(line)
    return [*action_lines(picture), *status]


def words(picture: HermeticaPicture) -> str:
    """The position in words (the SVG's <desc>; the review page shows it too)."""
    return descriptions.hermetica_words(picture, action_lines(picture))


def side_words(board: Board, seat: int, palette: str | None = None) -> str:
    """One side's Horizon and Prime in words, for the labels along the board's edges."""
    horizon = sorted(board.horizons[seat], key=lambda c: board.grid.coords[c])
    tint = chosen(HERMETICA, palette).drawn["sun_tint" if seat == SUN else "moon_tint"]
    edge = "bottom" if seat == SUN else "top"
    names = " ".join(board.name(c) for c in horizon)
    return (f"{SIDE[seat]}'s Horizon: the {tint} hexes along the {edge} ({names}); "
            f"{SIDE[seat]}'s Prime: {board.name(board.primes[seat])}")


def legend_lines(palette: str | None = None) -> list[str]:
    """The legend, in the words of the palette's styles."""
    drawn = chosen(HERMETICA, palette).drawn
    return [
        "Sun: circles, upper case; Moon: diamonds, lower case. A Adept, F Fire, E Earth, W Water.",
        "Dark hex: Wall. Shield: a ringed hex, S Sun's, M Moon's. PRIME: where an Adept starts.",
        f"Last ply: a line through every step of a unit, from its {drawn['ends']} start to its {drawn['ends']} end;",
        *drawn["marks"],  # type: ignore[misc]
    ]


def key(picture: HermeticaPicture, head: Header, palette: str | None = None) -> list[tuple[str | None, str]]:
    """The legend for the review page, which writes it as text (no swatches: its words say
    what each mark looks like), with the sides' Horizons and Primes."""
    board = picture.board
    lines_of_words = [side_words(board, MOON, palette), side_words(board, SUN, palette), *legend_lines(palette)]
    return [(None, line) for line in _unwrapped(lines_of_words)]


def _unwrapped(lines: list[str]) -> list[str]:
    """Lines of words, those that only carry on the one before (no capital, or indented)
    joined to it again."""
    joined: list[str] = []
    for line in lines:
        if joined and (line[:1].isspace() or line[:1].islower()):
            joined[-1] += " " + line.strip()
        else:
            joined.append(line)
    return joined


def svg(picture: HermeticaPicture, head: Header, palette: str | None = None, bare: bool = False) -> str:
    """The position as SVG; `bare`, the mat alone (the review page writes the words around it
    as text)."""
    board = picture.board
    grid = board.grid
    # The words above the board are measured at the title's size (below), so fitted at it.
    above = [] if bare else [Words(0, 0, "head", line) for line in page.fitted([head.title], "head")]
    above += [] if bare else [Words(0, 0, "text", line) for line in page.fitted(head.players, "head")]
    last, details = last_words(picture, head)
    below = [] if bare else page.fitted(head._replace(last=last).last_lines(SVG_WIDTH, details) + head.status)
    result = [] if bare else page.fitted([head.result], "result")
    moon_words, sun_words = side_words(board, MOON, palette), side_words(board, SUN, palette)
    # The Moon's label sits between the players and the board, the Sun's right under it.
    board_top = page.BARE_MARGIN if bare else page.MARGIN + (len(above) + 1.6) * page.LINE
    place, board_w, board_h = layout(board, UNIT, (0, board_top))
    lines_of_words = [("head", w.text) for w in above] + [("text", t) for t in below] + [("result", t) for t in result]
    lines_of_words += [] if bare else [("side", moon_words), ("side", sun_words)]
    width = board_w + 2 * page.BARE_MARGIN if bare else page.page_width(board_w, lines_of_words)
    shift = (width - board_w) / 2
    place, _, _ = layout(board, UNIT, (shift, board_top))
    sides = [Words(page.MARGIN, page.line_y(board_top - 1.3 * page.LINE, 0), "side moonside", moon_words),
             Words(page.MARGIN, page.line_y(board_top + board_h, 0, 0.4), "side sunside", sun_words)]
    legend_y = board_top + board_h + 1.6 * page.LINE
    legend = legend_lines(palette)
    text_top = legend_y + (len(legend) + 0.5) * page.LINE
    height = text_top + (len(below) + len(result) + 1) * page.LINE + page.MARGIN
    if bare:
        sides, legend, height = [], [], board_top + board_h + page.BARE_MARGIN

    tokens = []
    r = UNIT_RADIUS
    for cell, unit in sorted(picture.units.items()):
        x, y = place(*grid.centre(cell))
        d = r * 1.1
        diamond = f"{x},{round(y - d, 2)} {round(x + d, 2)},{y} {x},{round(y + d, 2)} {round(x - d, 2)},{y}"
        tokens.append(Token(board.name(cell), x, y, unit.letter, unit.seat, diamond, unit_words(unit)))
    walls = []
    for cell in sorted(picture.walls):
        walls.append(" ".join("%s,%s" % place(*shrink(grid, cell, p, 0.9)) for p in grid.corners(cell)))
    shields = []
    for seat in (SUN, MOON):
        cell = picture.shields.get(seat)
        if cell is not None:
            points = " ".join("%s,%s" % place(*shrink(grid, cell, p, 0.8)) for p in grid.corners(cell))
            x, y = place(*grid.centre(cell))
            shields.append((points, f"shield-{SIDE[seat].lower()}",
                            Mark(round(x + SHIELD_LETTER[0], 2), round(y + SHIELD_LETTER[1], 2),
                                 "S" if seat == SUN else "M", "shieldlabel")))
    paths, ends, arrows, crosses, news = [], [], [], [], []
    for report in picture.last:
        steps = [seg for seg in report.segments if seg.kind == "step"]
        if steps:
            chain = [steps[0].start] + [seg.end for seg in steps]
            for cell in {chain[0], chain[-1]}:
                ends.append(" ".join("%s,%s" % place(*shrink(grid, cell, p, 0.93)) for p in grid.corners(cell)))
            if len(set(chain)) > 1:
                centres = [place(*grid.centre(c)) for c in chain]
                centres[-1] = _short_of(centres[-2], centres[-1], r * 0.75)
                paths.append(Path(" ".join("%s,%s" % c for c in centres), report.text))
        for seg in report.segments:
            if seg.kind in ("step", "spawn", "wall") or seg.start is None:
                continue
            if seg.kind == "shield" and _carried(report, seg):
                continue  # it went along the Fire's own line
            x1, y1 = place(*grid.centre(seg.start))
            if seg.end is None:
                crosses.append(Mark(x1, y1, "×", "capture"))
                continue
            x2, y2 = place(*grid.centre(seg.end))
            arrows.append(_arrow(x1, y1, x2, y2, f"arrow-{seg.kind}", r * 0.7))
        for cell, _ in report.captured:
            x, y = place(*grid.centre(cell))
            crosses.append(Mark(x, y, "×", "capture"))
        for seg in report.segments:
            if seg.kind in ("spawn", "wall") and seg.end is not None:
                news.append(seg.end)
    texts = [Words(page.MARGIN, page.line_y(page.MARGIN, i), w.css, w.text) for i, w in enumerate(above)]
    texts += sides
    texts += [Words(page.MARGIN, page.line_y(legend_y, i, 0), "small", t) for i, t in enumerate(legend)]
    texts += [Words(page.MARGIN, page.line_y(text_top, i, 0.5), "text", t) for i, t in enumerate(below)]
    texts += [Words(page.MARGIN, page.line_y(text_top, len(below) + i, 0.8), "result", line)
              for i, line in enumerate(result)]
    font = round(UNIT * 0.32, 2)
    return render(
        "hermetica.svg.j2",
        title=descriptions.title(head),
        desc=words(picture),
        **page.canvas(width, height),
        hexes=hexes(board, place),
        walls=walls,
        shields=shields,
        tokens=tokens,
        paths=paths,
        ends=ends,
        arrows=arrows,
        crosses=crosses,
        names=_cell_names(picture, place, frozenset(news) & frozenset(board.primes.values())),
        marks=_band_marks(board, place, news),
        labels=column_labels(board, place),
        texts=texts,
        radius=round(r, 2),
        style=style(HERMETICA_RULES, chosen(HERMETICA, palette), font=font, capture_size=font * 1.6),
    )


def _band_marks(board: Board, place, news: list[int]) -> list[Mark]:
    """The words in a hex's bands, clear of its unit and inside its edges: PRIME in the
    bottom band of the Prime hexes, "new" where the last ply spawned a unit or raised a Wall,
    in the bottom band, or on a Prime hex in the top band beside the hex's name."""
    marks = []
    primes = set(board.primes.values())
    for cell in sorted(primes):
        x, y = place(*board.grid.centre(cell))
        marks.append(Mark(x, round(y + UNIT * 0.37, 2), "PRIME", "primelabel"))
    for cell in sorted(set(news)):
        x, y = place(*board.grid.centre(cell))
        if cell in primes:
            marks.append(Mark(round(x + UNIT * 0.17, 2), round(y - UNIT * 0.35, 2), "new", "newlabel beside"))
        else:
            marks.append(Mark(x, round(y + UNIT * 0.37, 2), "new", "newlabel"))
    return marks


def _short_of(start: tuple[float, float], end: tuple[float, float], gap: float) -> tuple[float, float]:
    """`end` moved `gap` back towards `start`, so an arrowhead stops at the token's rim."""
    length = math.hypot(end[0] - start[0], end[1] - start[1])
    if length <= gap:
        return end
    return (round(end[0] - (end[0] - start[0]) * gap / length, 2),
            round(end[1] - (end[1] - start[1]) * gap / length, 2))


def _arrow(x1: float, y1: float, x2: float, y2: float, css: str, gap: float) -> Arrow:
    """An arrow between two centres, stopped short of the tokens so their letters stay clear."""
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    return Arrow(round(x1 + ux * gap, 2), round(y1 + uy * gap, 2),
                 round(x2 - ux * gap, 2), round(y2 - uy * gap, 2), css)


# The printable sheet, the drawer's `paper` hook, is drawn by render/drawers/hermetica_sheet.py.
paper = sheet
