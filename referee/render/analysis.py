"""The analysis page (SPEC §11, `analyse --html OUT`): the review page of the whole game
(render/review.py) with what the analysis found, taken as data: the plies of `analyse --json`,
each `{"ply", "seat", "move", "before", "after", "best", "best_value", "loss", "mark",
"proven"}`, the chances being the mover's, from 0 to 1 (null for a forced pass, never judged).

What it adds to the review page, each worked out here and only placed by the templates:
- under the board, the graph of seat 1's chance along the plies, as inline SVG written by
  templates/analysis.html.j2 (no script library: each ply's spot is a link to `#ply=N`, which
  the review page's script already follows, and the script marks the ply shown);
- the marks in the move list and in each ply's panel: ?! an inaccuracy, ? a mistake, ?? a
  blunder, each with its words as a title;
- at a marked ply, the best move on the board: a ring round each cell it places on and an
  arrow along each path it moves by, drawn into that ply's picture (see `best_drawn`). A move
  that names no cell of the picture (a pass, a crab card's place on the table) is given in
  words only: in the ply's panel and the picture's own title.

Every page rule of the review page holds: the drawings stay images of data: URLs, every name
and move goes through the templates' escaping, and the page's own style sheet (review.css and
analysis.css, one block) and script are allowed by their hashes, nothing else.
"""

from __future__ import annotations

import dataclasses
import math
import re
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from referee.errors import UsageError
from referee.play.replay import Replay
from referee.record.players import short_name
from referee.render import review
from referee.render.drawing import drawn
from referee.render.templates import asset, render

MAX_PLIES = 1_000  # as the review page (render/show.py): a page draws every ply

SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
_MARKS_KEY = review.KeyView(None, "?! an inaccuracy, ? a mistake, ?? a blunder (the chance lost: "
                                   "10, 20, 30 points or more)")
PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}

# The ring and arrow of the best move, in each palette: a colour of their own, apart from the
# last move's orange and the moved stone's blue (default: Okabe–Ito's bluish green), and in
# mono black and dashed, over a white halo so that either reads on a dark stone too.
BEST_INK = {"default": ("#009e73", ""), "colourblind": ("#000000", ""), "mono": ("#000000", "6 3")}

PLOT_WIDTH = 1000.0  # the graph's plot: the plies along 0–1000, the chances 100 % to 0 % along 0–100
# A wide window's height (px) that holds more than the board: the page's header (as much as
# the title, players, outcome and marks take in an ordinary game), main's padding and the room
# of the graph under the board (analysis.css: --below-board, 9.3rem, with its gap).
ABOVE_AND_BELOW = 128 + 32 + 149


@dataclass(frozen=True)
class PlyMarks:
    """What the analysis says of one ply, as its panel and its entry in the move list say it."""

    judged: bool  # a ply of the range analysed (a forced pass is listed but not judged)
    mark: str | None  # "inaccuracy", "mistake", "blunder"
    symbol: str  # "??"
    words: str  # "blunder: best b c3 (63 %)", the symbol's title
    line: str  # "Bo's chance 61 % → 28 % · blunder · best b c3 (63 %)"
    best_shown: bool  # the best move is drawn on this ply's board


@dataclass(frozen=True)
class Spot:
    """One ply along the graph: where its cursor stands, and what it says."""

    ply: int
    x: float
    left: float  # its band, a link to the ply
    width: float
    title: str
    current: bool


@dataclass(frozen=True)
class Dot:
    """A marked ply on the graph's line."""

    x: float
    y: float
    mark: str
    title: str


@dataclass(frozen=True)
class Graph:
    """The graph, drawn in a plot of PLOT_WIDTH × 100 units stretched to its box (its lines
    and dots keep their width), the plies' numbers placed in percent of that width and the
    levels' words beside it as the page's own text: legible in a board's column of any width."""

    width: float
    line: str  # the points of seat 1's chance, "x,y x,y …"
    area: str  # the same closed along 0 %: the part of the chances that is seat 1's
    levels: list[float]  # the y of the horizontal lines (0, 25, 50, 75, 100 %)
    ticks: list[tuple[float, str]]  # (percent of the width, "12") along the foot
    spots: list[Spot]
    dots: list[Dot]
    title: str
    desc: str


@dataclass(frozen=True)
class Analysis:
    graph: Graph | None  # None when no ply has a value to show
    plies: list[PlyMarks]  # one per ply of the game, 0 included
    counts: list[str]  # "Seat 1 (Ann): 1 inaccuracy, no mistake, 2 blunders"


def analysis_page(play: Replay, plies: Sequence[Mapping[str, Any]], palette: str | None = None,
                  opening: int | None = None) -> str:
    """The analysis page of a replayed game: its review page (SPEC §7) with the analysis
    `plies` (as `analyse --json` gives them) shown on it, opening at `opening` (default: the
    last ply) unless its address says `#ply=N`."""
    if play.plies > MAX_PLIES:
        raise UsageError(f"{play.record.path}: an analysis page of {play.plies} plies: at most {MAX_PLIES}")
    by_ply = {int(entry["ply"]): entry for entry in plies if 1 <= int(entry["ply"]) <= play.plies}
    opening = play.plies if opening is None else opening
    drawings = [drawn(play, ply, palette) for ply in range(play.plies + 1)]
    shown: set[int] = set()
    for ply, entry in by_ply.items():
        if entry.get("mark") and entry.get("best"):
            picture = best_drawn(drawings[ply].svg, str(entry["best"]), palette)
            if picture is not None:
                drawings[ply] = drawings[ply]._replace(svg=picture)
                shown.add(ply)
    svgs = [drawing.svg for drawing in drawings]
    page = review.view(play, drawings, opening, palette, more_style=asset("analysis.css") + graph_room(svgs))
    keys = [_MARKS_KEY] if any(entry.get("mark") in SYMBOLS for entry in by_ply.values()) else []
    page = dataclasses.replace(page, legend=[*page.legend, *keys, *([_best_key(palette)] if shown else [])])
    page = dataclasses.replace(page, title=f"{page.title} · analysis")
    names = {seat: _seat_name(play, seat) for seat in {1, *(int(e.get("seat") or 1) for e in by_ply.values())}}
    marks = [_ply_marks(by_ply.get(ply), names, ply in shown) for ply in range(play.plies + 1)]
    view = Analysis(graph(play, by_ply, opening), marks, _counts(by_ply, names))
    return render("analysis.html.j2", page=page, analysis=view)


def graph_room(svgs: list[str]) -> str:
    """Where the graph goes in a wide window: under the board unless the window is too short
    to show the board at the least width it may have (review.least_width) and the graph under
    it; then at the top of the right-hand column, the board as tall as on the review page."""
    ratio = min(w / h for w, h in map(review.stated_size, svgs))
    tallest = review.least_width(svgs) / ratio + 21  # the board's box: its padding and border
    return (f"@media (min-width: 52rem) and (max-height: {math.ceil(tallest + ABOVE_AND_BELOW)}px) {{\n"
            "  :root { --below-board: 0px; }\n"
            "  main { grid-template-rows: auto auto minmax(0, 1fr); grid-template-areas: \"board controls\" "
            "\"board graph\" \"board aside\"; }\n}\n")


# -- words ------------------------------------------------------------------------------------


def percent(value: float | None) -> str:
    return "–" if value is None else f"{round(float(value) * 100)}\u00a0%"  # kept on one line


def _seat_name(play: Replay, seat: int) -> str:
    name = short_name(play.record.player_name(seat))
    return f"Seat {seat} ({name})" if name else f"Seat {seat}"


def _ply_marks(entry: Mapping[str, Any] | None, names: Mapping[int, str], best_shown: bool) -> PlyMarks:
    if entry is None:
        return PlyMarks(False, None, "", "", "", False)
    mark = entry.get("mark") or None
    seat = int(entry.get("seat") or 0)
    who = names.get(seat, f"Seat {seat}")
    if entry.get("before") is None and entry.get("after") is None:
        return PlyMarks(True, None, "", "", f"{who}: a forced pass, not judged", False)
    proven = " (proven)" if entry.get("proven") else ""
    chance = f"{who}'s chance {percent(entry.get('before'))} → {percent(entry.get('after'))}{proven}"
    best = entry.get("best")
    advice = f"best {best} ({percent(entry.get('best_value'))})" if best else ""
    words = f"{mark}: {advice}" if mark and advice else (mark or "")
    if best_shown:
        advice += ", drawn on the board"
    parts = [chance, *([mark] if mark else []), *([advice] if mark and advice else [])]
    return PlyMarks(True, mark, SYMBOLS.get(mark or "", ""), words, " · ".join(parts), best_shown)


def _counts(by_ply: Mapping[int, Mapping[str, Any]], names: Mapping[int, str]) -> list[str]:
    """Each seat's count of marks, as `analyse` ends its words."""
    seats = sorted({int(entry.get("seat") or 0) for entry in by_ply.values()} - {0})
    lines = []
    for seat in seats:
        counted = [sum(1 for e in by_ply.values() if int(e.get("seat") or 0) == seat and e.get("mark") == mark)
                   for mark in SYMBOLS]
        said = [f"{n} {mark if n == 1 else PLURALS[mark]}" if n else f"no {mark}"
                for n, mark in zip(counted, SYMBOLS)]
        lines.append(f"{names.get(seat, f'Seat {seat}')}: {', '.join(said)}")
    return lines


# -- the graph ---------------------------------------------------------------------------------


def seat_one(play: Replay, seat: int, value: float | None) -> float | None:
    """Seat 1's chance from the mover's: the other's complement in a game of two sides; the
    same in a solo or cooperative game, where the seats win or lose together."""
    if value is None:
        return None
    value = min(1.0, max(0.0, float(value)))
    return value if seat == 1 or play.game.cooperative else 1.0 - value


def points(play: Replay, by_ply: Mapping[int, Mapping[str, Any]]) -> list[tuple[int, float]]:
    """(ply, seat 1's chance after it) for every ply of the range with a value, led by the
    chance before its first ply (as that ply's mover saw it)."""
    if not by_ply:
        return []
    first = min(by_ply)
    entry = by_ply[first]
    start = seat_one(play, int(entry.get("seat") or 1), entry.get("before"))
    found = [] if start is None else [(first - 1, start)]
    for ply in sorted(by_ply):
        value = seat_one(play, int(by_ply[ply].get("seat") or 1), by_ply[ply].get("after"))
        if value is not None:
            found.append((ply, value))
    return found


def _ticks(low: int, high: int) -> list[int]:
    """About eight plies to number along the foot, at a round step (1, 2, 5, 10, 20, …)."""
    span = max(1, high - low)
    step = next(s for k in range(6) for s in (10 ** k, 2 * 10 ** k, 5 * 10 ** k) if span / s <= 8)
    return [ply for ply in range(math.ceil(low / step) * step, high + 1, step)]


def graph(play: Replay, by_ply: Mapping[int, Mapping[str, Any]], opening: int) -> Graph | None:
    found = points(play, by_ply)
    if not found:
        return None
    low, high = min(found[0][0], min(by_ply) - 1), max(by_ply)
    span = max(1, high - low)

    def x(ply: int) -> float:
        return round((ply - low) / span * PLOT_WIDTH, 2)

    def y(value: float) -> float:
        return round((1 - value) * 100, 2)

    line = " ".join(f"{x(ply)},{y(value)}" for ply, value in found)
    area = f"{x(found[0][0])},{y(0)} {line} {x(found[-1][0])},{y(0)}"
    chance = dict(found)
    half = PLOT_WIDTH / span / 2
    # In a solo or cooperative game the chance is every seat's: the seats win or lose together.
    name = "The seats" if play.game.cooperative and len(play.seats) > 1 else _seat_name(play, 1)
    spots = []
    for ply in range(low, high + 1):
        entry = by_ply.get(ply)
        said = f"Ply {ply}" + (f": {entry['move']}" if entry else "") + (
            f", {_possessive(name)} chance {percent(chance[ply])}" if ply in chance else "")
        if entry and entry.get("mark"):
            said += f", {entry['mark']}"
        band = (max(0.0, x(ply) - half), min(PLOT_WIDTH, x(ply) + half))
        spots.append(Spot(ply, x(ply), round(band[0], 2), round(band[1] - band[0], 2), said, ply == opening))
    dots = [Dot(x(ply), y(chance[ply]), entry["mark"],
                f"Ply {ply}: {entry['move']}, {entry['mark']}"
                + (f"; best {entry['best']}" if entry.get("best") else ""))
            for ply, entry in sorted(by_ply.items()) if entry.get("mark") in SYMBOLS and ply in chance]
    return Graph(
        width=PLOT_WIDTH, line=line, area=area,
        levels=[y(v) for v in (0.0, 0.25, 0.5, 0.75, 1.0)],
        ticks=[(round(x(ply) / PLOT_WIDTH * 100, 2), str(ply)) for ply in _ticks(low, high)],
        spots=spots, dots=dots,
        title=f"{_possessive(name)} chance along the plies",
        desc=(f"{_possessive(name)} chance after each ply from ply {low} to ply {high}: "
              f"{percent(found[0][1])} at first, {percent(found[-1][1])} at the end; "
              f"{len(dots)} marked {'ply' if len(dots) == 1 else 'plies'}."),
    )


def _possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


# -- the best move on the board ---------------------------------------------------------------

_SVG = "{http://www.w3.org/2000/svg}"
_CELL = re.compile(r"[a-z]+\d+")
# A move's word split into cells: the steps of a path (-, =, >, @) and a bite or shot written
# `x` between two cells (c4xc7); a shield's cell (*c5) stands apart, as a placement.
_STEP = re.compile(r"[-=>@]|(?<=\d)x(?=[a-z])")
_APART = re.compile(r"\*([a-z]+\d+)")


def cell_places(svg: str) -> dict[str, tuple[float, float, float]]:
    """Where a picture draws each named cell: (x, y, radius) of its outline's corners, from the
    board's polygons, each titled with its cell's name (the grid and Hermetica drawers)."""
    places: dict[str, tuple[float, float, float]] = {}
    for polygon in ElementTree.fromstring(svg).iter(f"{_SVG}polygon"):
        title = polygon.find(f"{_SVG}title")
        corners = [tuple(map(float, pair.split(","))) for pair in (polygon.get("points") or "").split()]
        if title is None or not title.text or len(corners) < 3:
            continue
        cx, cy = sum(c[0] for c in corners) / len(corners), sum(c[1] for c in corners) / len(corners)
        radius = max(math.dist((cx, cy), c) for c in corners)
        places.setdefault(title.text.strip().lower(), (cx, cy, radius))
    return places


def best_shapes(move: str, places: Mapping[str, tuple[float, float, float]]) -> tuple[list, list]:
    """The rings (cells placed on) and paths (cells moved through) of a move, from its words:
    `b e5` a ring on e5; `c4-c6 f6` a path c4→c6 and a ring on f6; `A d4-d5*c5` a path and a
    ring on the shield's cell. Cells the picture does not have are left out."""
    rings, paths = [], []
    for word in move.lower().replace(";", " ").replace("|", " ").split():
        rings += [cell for cell in _APART.findall(word) if cell in places]
        cells = [part for part in _STEP.split(_APART.sub("", word)) if _CELL.fullmatch(part) and part in places]
        if len(cells) == 1:
            rings.append(cells[0])
        elif len(cells) > 1:
            paths.append(cells)
    return rings, paths


def best_drawn(svg: str, move: str, palette: str | None = None) -> str | None:
    """The ply's picture with the best move drawn on it (None where the move names no cell
    of it): rings round its cells, arrows along its paths, over everything else."""
    places = cell_places(svg)
    rings, paths = best_shapes(move, places)
    if not rings and not paths:
        return None
    drawn_paths = []
    for cells in paths:
        corners = [places[cell][:2] for cell in cells]
        (x1, y1), (x2, y2) = corners[-2], corners[-1]
        back = min(places[cells[-1]][2] * 0.45, math.dist(corners[-2], corners[-1]) / 2)
        length = math.dist(corners[-2], corners[-1]) or 1.0
        corners[-1] = (x2 - (x2 - x1) * back / length, y2 - (y2 - y1) * back / length)
        drawn_paths.append(" ".join(f"{round(px, 2)},{round(py, 2)}" for px, py in corners))
    ink, dash = BEST_INK.get(palette or "default", BEST_INK["default"])
    width = min(r for _, _, r in places.values()) / 6
    overlay = render("analysis-best.svg.j2", move=move, ink=ink, dash=dash, width=round(width, 2),
                     halo=round(width * 2, 2),
                     rings=[(round(places[c][0], 2), round(places[c][1], 2), round(places[c][2] * 0.86, 2))
                            for c in rings],
                     paths=drawn_paths)
    end = svg.rindex("</svg>")
    return svg[:end] + overlay + svg[end:]


def _best_key(palette: str | None) -> review.KeyView:
    """The legend's entry for the ring: its swatch drawn as the board draws it."""
    ink, dash = BEST_INK.get(palette or "default", BEST_INK["default"])
    swatch = ('<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">'
              "<title>the best move</title></svg>")
    swatch = best_drawn(swatch.replace("</svg>", '<polygon points="4,4 20,4 20,20 4,20" fill="none"><title>k1</title>'
                                       "</polygon></svg>"), "k1", palette) or swatch
    return review.KeyView(review.data_url(swatch), "the best move, at a marked ply")

