"""The diagrams a correspondence player reads: the text board in the mail body, the SVG attached to
it, and the printable blank board (SPEC §2 cell names, §4 `show` and `board`).

Each promise is checked on every board the games offer: odd (hex sides 3–12), hermit square
(5–9) and hermit hex (3–7). Positions are found from what is drawn (the dots of the text diagram,
the polygons of the SVG), never from the renderers' internals.
"""

from __future__ import annotations

import os
import random
import re
import string
import subprocess
import sys
import xml.etree.ElementTree as ET
from functools import lru_cache

import pytest

from referee.games import GAMES
from referee.geometry import HexHexGrid, SquareGrid
from referee.record.values import Record
from referee.render.drawing import svg_diagram, text_diagram
from referee.render import show as pictures
from referee.play.replay import start

NS = "{http://www.w3.org/2000/svg}"
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN = 10.0
MIN_CELL = 12.0
HOSTILE = '<script>alert("x")</script> & "Bo"'

# (game, options, grid, cells of at least 12 mm promised on paper)
BOARDS = (
    [("odd", {"size": n}, ("hex", n), n <= 8) for n in range(3, 13)]
    + [("hermit", {"board": "square", "size": n}, ("square", n), True) for n in range(5, 10)]
    + [("hermit", {"board": "hex", "size": n}, ("hex", n), True) for n in range(3, 8)]
)
BOARD_IDS = [f"{g}-{o.get('board', 'hex')}-{o['size']}" for g, o, _, _ in BOARDS]
DEFAULT_BOARDS = [("odd", {}), ("hermit", {"board": "square"}), ("hermit", {"board": "hex"})]


# -- helpers ---------------------------------------------------------------------------------


def make_grid(spec):
    kind, size = spec
    return HexHexGrid(size) if kind == "hex" else SquareGrid(size)


def play(game, options=None, moves=(), players=None):
    names = {seat: {"name": name} for seat, name in (players or {}).items()}
    replay = start(Record(game, dict(options or {}), names))
    for move in moves:
        replay.push(move)
    return replay


def first_and_last(grid):
    """Two cells far apart, neither of them the centre: the first and last in board order."""
    return grid.names[0], grid.names[-1]


def two_moves(game, grid):
    a, b = first_and_last(grid)
    return ([f"b {a}", f"w {b}"] if game == "odd" else [a, b]), (a, b)


def board_block(text):
    """The board of a text diagram: the paragraph of row lines and the coordinate line."""
    paragraphs = [p for p in text.split("\n\n") if p.strip()]
    for p in paragraphs:
        lines = p.split("\n")
        if re.match(r"\s*\d+ ", lines[0]) and "." in lines[0]:
            return lines
    raise AssertionError(f"no board in the diagram:\n{text}")


def row_cells(grid, number):
    """Names of the cells of row `number` (1-based), left to right (letter order)."""
    return [n for n in grid.names if int(n[1:]) == number]


def text_positions(grid, block):
    """(line, column) of every cell in a text board block, read off the dots of a blank diagram."""
    positions = {}
    for r in range(1, grid.rows + 1):
        line = block[grid.rows - r]
        m = re.match(r"\s*(\d+) ", line)
        assert m and int(m[1]) == r, f"row {r} is not numbered at its left: {line!r}"
        dots = [i for i, ch in enumerate(line) if ch == "." and i >= m.end()]
        names = row_cells(grid, r)
        assert len(dots) == len(names), f"row {r} draws {len(dots)} cells, not {len(names)}: {line!r}"
        positions.update({name: (grid.rows - r, col) for name, col in zip(names, dots)})
    return positions


def parse(svg):
    assert isinstance(svg, str)
    return ET.fromstring(svg)


def points_of(elem):
    return [tuple(map(float, p.split(","))) for p in elem.get("points").replace(", ", ",").split()]


def svg_cells(root, grid):
    """name → (cx, cy, width, polygon element), matching polygons to cells by their place:
    rows bottom (largest y) first, left to right within a row (SPEC §2)."""
    polys = []
    for elem in root.iter(NS + "polygon"):
        pts = points_of(elem)
        xs, ys = [x for x, _ in pts], [y for _, y in pts]
        polys.append(((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2, max(xs) - min(xs), elem))
    assert len(polys) == len(grid), f"{len(polys)} polygons for {len(grid)} cells"
    by_row = {}
    for p in polys:
        by_row.setdefault(round(p[1], 1), []).append(p)
    assert len(by_row) == grid.rows, "the polygons do not form one row per board row"
    cells = {}
    for r, y in enumerate(sorted(by_row, reverse=True), 1):
        row = sorted(by_row[y], key=lambda p: p[0])
        names = row_cells(grid, r)
        assert len(row) == len(names), f"row {r} has {len(row)} polygons, not {len(names)}"
        cells.update(zip(names, row))
    return cells


def circles_at(root, cx, cy, tolerance):
    return [
        c for c in root.iter(NS + "circle")
        if abs(float(c.get("cx")) - cx) < tolerance and abs(float(c.get("cy")) - cy) < tolerance
    ]


def texts(root):
    return ["".join(t.itertext()) for t in root.iter(NS + "text")]


def check_coordinate_labels(root, grid, cells):
    """Every row number sits level with its row, beyond the row's end; every column letter sits
    just below the column's bottom cell."""
    labels = [
        (float(t.get("x")), float(t.get("y")), "".join(t.itertext()).strip())
        for t in root.iter(NS + "text")
    ]
    width = min(c[2] for c in cells.values())
    for r in range(1, grid.rows + 1):
        row = [cells[n] for n in row_cells(grid, r)]
        y = row[0][1]
        left, right = min(c[0] for c in row), max(c[0] for c in row)
        assert any(
            text == str(r) and abs(ly - y) < 0.25 * width and (lx < left - 0.4 * width or lx > right + 0.4 * width)
            for lx, ly, text in labels
        ), f"row {r} has no number beside it"
    for letter in sorted({n[0] for n in grid.names}):
        bottom = min((n for n in grid.names if n[0] == letter), key=lambda n: int(n[1:]))
        bx, by = cells[bottom][:2]
        assert any(
            text == letter and ly > by + 0.4 * width and ((lx - bx) ** 2 + (ly - by) ** 2) ** 0.5 < 1.5 * width
            for lx, ly, text in labels
        ), f"column {letter} has no letter below its bottom cell {bottom}"


def luminance(colour):
    colour = colour.lstrip("#")
    if len(colour) == 3:
        colour = "".join(ch * 2 for ch in colour)
    channels = [int(colour[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def fill_of(root, elem):
    """An element's fill: its own attribute or style, else the CSS rule of its class."""
    if elem.get("fill"):
        return elem.get("fill")
    m = re.search(r"fill\s*:\s*(#[0-9a-fA-F]{3,6})", elem.get("style") or "")
    if m:
        return m[1]
    css = "".join("".join(s.itertext()) for s in root.iter(NS + "style"))
    for cls in (elem.get("class") or "").split():
        rule = re.search(r"\." + re.escape(cls) + r"\s*\{([^}]*)\}", css)
        if rule:
            m = re.search(r"fill\s*:\s*(#[0-9a-fA-F]{3,6})", rule[1])
            if m:
                return m[1]
    raise AssertionError(f"no fill colour found for {elem.attrib}")


@lru_cache(maxsize=None)
def paper(game, options_items, size):
    return pictures.blank_board(game, {k: str(v) for k, v in options_items}, size)


def paper_root(game, options, size):
    return parse(paper(game, tuple(sorted(options.items())), size))


def mm(value):
    assert value.endswith("mm"), f"{value!r} is not in millimetres"
    return float(value[:-2])


def parent_map(root):
    return {child: parent for parent in root.iter() for child in parent}


def font_size(elem, parents):
    while elem is not None:
        if elem.get("font-size"):
            return float(elem.get("font-size").removesuffix("px"))
        elem = parents.get(elem)
    return 0.0


def full_game(game, options, seed):
    rng = random.Random(seed)
    replay = play(game, options, players={1: "Ann <ann@example.org>", 2: "Bob <bob@example.org>"})
    while replay.outcome() is None:
        moves = sorted(str(m) for m in replay.game.legal_moves(replay.state))
        replay.push(rng.choice(moves))
        replay.push_forced_passes()
    return replay


# -- text diagram ----------------------------------------------------------------------------


@pytest.mark.parametrize("game, options, spec, _", BOARDS, ids=BOARD_IDS)
def test_text_board_has_one_line_per_row_and_coordinates_on_the_edges(game, options, spec, _):
    grid = make_grid(spec)
    block = board_block(text_diagram(play(game, options)))
    assert len(block) == grid.rows + 1, "one line per row plus the line of column letters"
    positions = text_positions(grid, block)  # also checks each row's number on its left
    body = [line[re.match(r"\s*\d*", line).end():] for line in block]
    for letter in sorted({n[0] for n in grid.names}):
        found = [(i, j + len(block[i]) - len(body[i])) for i, line in enumerate(body)
                 for j, ch in enumerate(line) if ch == letter]
        assert len(found) == 1, f"column letter {letter!r} appears {len(found)} times"
        bottom = min((n for n in grid.names if n[0] == letter), key=lambda n: int(n[1:]))
        line_b, col_b = positions[bottom]
        line_l, col_l = found[0]
        assert line_l == line_b + 1 and abs(col_l - col_b) <= 1, (
            f"letter {letter!r} is not just below its column's bottom cell {bottom}"
        )
    assert all(len(line) <= 78 for line in block), "board wider than a mail line"


@pytest.mark.parametrize("game, options, spec, _", BOARDS, ids=BOARD_IDS)
def test_text_stones_show_their_glyph_on_their_cell_and_only_the_last_is_bracketed(game, options, spec, _):
    grid = make_grid(spec)
    positions = text_positions(grid, board_block(text_diagram(play(game, options))))
    moves, (first, second) = two_moves(game, grid)
    block = board_block(text_diagram(play(game, options, moves)))
    assert len(block) == grid.rows + 1

    def around(name):
        line, col = positions[name]
        text = block[line].ljust(col + 2)
        return text[col - 1:col + 2]

    g1, g2 = around(first)[1], around(second)[1]
    assert g1 not in ". []" and g2 not in ". []" and g1 != g2, "stones need distinct glyphs"
    assert around(second) == f"[{g2}]", "the last move is marked"
    assert "[" not in around(first) and "]" not in around(first)
    assert "".join(block).count("[") == 1 and "".join(block).count("]") == 1
    others = [n for n in grid.names if n not in (first, second)]
    assert all(around(n)[1] == "." for n in others), "an empty cell shows a stone"


def test_text_odd_centre_move_is_marked_in_the_centre_row():
    block = board_block(text_diagram(play("odd", {"size": 5}, ["b e5"])))
    centre = block[4]
    assert centre.lstrip().startswith("5 ")
    assert "[X]" in centre
    assert centre.replace(" ", "") == "5....[X]...."


def test_text_no_last_move_mark_before_the_first_ply():
    for game, options in DEFAULT_BOARDS:
        assert "[" not in "".join(board_block(text_diagram(play(game, options))))


def test_text_legend_names_each_glyph():
    text = text_diagram(play("odd", {}, ["b e5", "w d4"]))
    positions = text_positions(HexHexGrid(5), board_block(text_diagram(play("odd", {}))))
    block = board_block(text)
    black, white = (block[positions[n][0]][positions[n][1]] for n in ("e5", "d4"))
    assert re.search(rf"{re.escape(black)}\s+black", text, re.I)
    assert re.search(rf"{re.escape(white)}\s+white", text, re.I)


def test_text_hermit_seat_lines_show_each_seats_glyph():
    grid = SquareGrid(7)
    positions = text_positions(grid, board_block(text_diagram(play("hermit", {"board": "square"}))))
    text = text_diagram(play("hermit", {"board": "square"}, ["a1", "g7"], {1: "Ann", 2: "Bob"}))
    block = board_block(text)
    glyph = {seat: block[positions[c][0]][positions[c][1]] for seat, c in ((1, "a1"), (2, "g7"))}
    for seat, name in ((1, "Ann"), (2, "Bob")):
        line = next(l for l in text.splitlines() if name in l)
        assert f"Seat {seat}" in line and glyph[seat] in line.replace(name, "")


def test_text_odd_status_counts_groups_of_the_minimum_and_their_parity():
    moves = ["b a1", "b b1", "b c1", "w i9", "w h9", "w g9"]
    for plies, count, parity in ((0, 0, "even"), (2, 0, "even"), (3, 1, "odd"), (6, 2, "even")):
        text = text_diagram(play("odd", {"size": 5, "min_group": 3}, moves[:plies]))
        status = [l for l in text.splitlines() if "group" in l.lower() and re.search(r"\b(odd|even)\b", l)]
        assert status, f"no group count after ply {plies}"
        m = re.search(r"(\d+)[^\d]*?\b(odd|even)\b", status[0])
        assert m and (int(m[1]), m[2]) == (count, parity), status[0]
        assert "3" in status[0], "the status names the minimum group size"


def hermit_counts(text, seat):
    line = next(l for l in text.splitlines() if re.match(rf"\s*seat {seat}\b", l, re.I) and "hermit" in l)
    counts = {}
    for key, word in (("groups", "groups?"), ("hermits", "hermits?"), ("threes", "threes?"), ("fives", "fives?")):
        m = re.search(rf"(\d+)\s+{word}\b|\b{word}\s+(\d+)", line)
        assert m, f"no {key} in {line!r}"
        counts[key] = int(m[1] or m[2])
    return counts


@pytest.mark.parametrize("board", ["square", "hex"])
def test_text_hermit_status_counts_and_whose_turn(board):
    # Seat 1 joins a1 and a3 through a2 into a three; seat 2 keeps three hermits.
    moves = ["a1", "g7" if board == "square" else "i9", "a3", "g5" if board == "square" else "i7", "a2"]
    moves.append("c7" if board == "square" else "g9")
    text = text_diagram(play("hermit", {"board": board}, moves))
    assert hermit_counts(text, 1) == {"groups": 1, "hermits": 0, "threes": 1, "fives": 0}
    assert hermit_counts(text, 2) == {"groups": 3, "hermits": 3, "threes": 0, "fives": 0}
    assert re.search(r"seat 1 to move", text, re.I) and not re.search(r"seat 2 to move", text, re.I)
    text = text_diagram(play("hermit", {"board": board}, moves[:5]))
    assert re.search(r"seat 2 to move", text, re.I) and not re.search(r"seat 1 to move", text, re.I)


@pytest.mark.parametrize("game, options", DEFAULT_BOARDS)
def test_text_lines_fit_a_mail_for_default_boards(game, options):
    replays = [play(game, options, players={1: "Ann <ann@example.org>", 2: "Bob <bob@example.org>"})]
    replays += [full_game(game, options, seed) for seed in range(3)]
    for replay in replays:
        for ply in (0, replay.plies // 2, replay.plies):
            for line in text_diagram(replay, ply).splitlines():
                assert len(line) <= 78, f"{len(line)} characters at ply {ply}: {line!r}"


def test_text_control_characters_in_names_do_not_reach_the_diagram():
    evil = "Eve\x1b[31m\nSeat 2: fake\x07\r\u2028\x85\x00"
    text = text_diagram(play("odd", {}, ["b e5"], {1: evil, 2: "Bob"}))
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]", text)
    assert "Eve" in text
    assert not any(line.startswith("Seat 2: fake") for line in text.splitlines()), "a name forged a line"


# -- SVG diagram -----------------------------------------------------------------------------


@pytest.mark.parametrize("game, options, spec, _", BOARDS, ids=BOARD_IDS)
def test_svg_draws_every_cell_each_stone_on_its_cell_and_the_coordinates(game, options, spec, _):
    grid = make_grid(spec)
    moves, (first, second) = two_moves(game, grid)
    root = parse(svg_diagram(play(game, options, moves)))
    cells = svg_cells(root, grid)
    width = min(c[2] for c in cells.values())
    stones = {}
    for name, (cx, cy, _, _) in cells.items():
        here = [c for c in circles_at(root, cx, cy, 0.1 * width) if float(c.get("r")) >= 0.25 * width]
        assert len(here) <= 1
        if here:
            stones[name] = here[0]
    assert set(stones) == {first, second}, "one circle per stone, on the stone's cell"
    assert fill_of(root, stones[first]) != fill_of(root, stones[second])
    check_coordinate_labels(root, grid, cells)


@pytest.mark.parametrize("game, options", DEFAULT_BOARDS)
def test_svg_marks_the_last_move_with_a_shape_not_only_a_colour(game, options):
    grid = make_grid(("hex", 5) if options.get("board", "hex") == "hex" else ("square", 7))
    moves, (first, second) = two_moves(game, grid)

    def marks(replay):
        root = parse(svg_diagram(replay))
        cells = svg_cells(root, grid)
        width = min(c[2] for c in cells.values())
        return {
            name: [c for c in circles_at(root, cx, cy, 0.1 * width) if float(c.get("r")) < 0.25 * width]
            for name, (cx, cy, _, _) in cells.items()
        }

    before = marks(play(game, options))
    assert not any(before.values()), "a last-move mark before any move"
    after = marks(play(game, options, moves))
    assert [n for n, m in after.items() if m] == [second]


@pytest.mark.parametrize("game, options", DEFAULT_BOARDS)
def test_svg_stones_differ_in_lightness_so_colour_blind_players_tell_them_apart(game, options):
    grid = make_grid(("hex", 5) if options.get("board", "hex") == "hex" else ("square", 7))
    moves, (first, second) = two_moves(game, grid)
    root = parse(svg_diagram(play(game, options, moves)))
    cells = svg_cells(root, grid)
    width = min(c[2] for c in cells.values())
    fills = []
    for name in (first, second):
        cx, cy = cells[name][:2]
        stone = next(c for c in circles_at(root, cx, cy, 0.1 * width) if float(c.get("r")) >= 0.25 * width)
        fills.append(luminance(fill_of(root, stone)))
    light, dark = max(fills), min(fills)
    assert (light + 0.05) / (dark + 0.05) >= 3.0, "the two colours are too close in greyscale"


def test_svg_shows_players_title_last_move_and_status_like_the_text():
    replay = play("hermit", {"board": "square"}, ["a1", "g7", "a3"], {1: "Ann", 2: "Bob"})
    root = parse(svg_diagram(replay))
    shown = texts(root)
    text = text_diagram(replay)
    block = board_block(text)
    words = [l.strip() for l in text.splitlines() if l.strip() and l not in block and "empty" not in l]
    assert any("Ann" in t for t in shown) and any("Bob" in t for t in shown)
    for line in words:
        assert any(line in t for t in shown), f"{line!r} is in the text diagram but not in the SVG"


def test_svg_escapes_player_names():
    svg = svg_diagram(play("odd", {}, ["b e5"], {1: "Alice", 2: HOSTILE}))
    assert "<script>" not in svg
    root = parse(svg)
    assert any(HOSTILE in t for t in texts(root)), "the name is shown exactly as given"
    assert not list(root.iter(NS + "script")) and not list(root.iter("script"))


def test_svg_with_control_characters_in_a_name_is_still_valid_xml():
    evil = "Eve\x1b[31m\x07\x00 Smith"
    svg = svg_diagram(play("odd", {}, ["b e5"], {1: evil, 2: "Bob"}))
    root = parse(svg)  # XML 1.0 forbids these characters: the SVG must not carry them
    assert any("Eve" in t and "Smith" in t for t in texts(root))


# -- printable board -------------------------------------------------------------------------

PAPER_CASES = [(g, o, s, small, p) for g, o, s, small in BOARDS for p in PAPERS]
PAPER_IDS = [f"{i}-{p}" for i in BOARD_IDS for p in PAPERS]


@pytest.mark.parametrize("game, options, spec, small, size", PAPER_CASES, ids=PAPER_IDS)
def test_paper_sheet_size_margins_and_cell_size(game, options, spec, small, size):
    grid = make_grid(spec)
    root = paper_root(game, options, size)
    width, height = mm(root.get("width")), mm(root.get("height"))
    short, long = PAPERS[size]
    assert (width, height) in ((short, long), (long, short)), "not an A4 / Letter sheet"
    view = [float(v) for v in root.get("viewBox").replace(",", " ").split()]
    assert view == [0, 0, width, height], "user units must be millimetres"

    cells = svg_cells(root, grid)
    pts = [p for _, _, _, e in cells.values() for p in points_of(e)]
    xs, ys = [x for x, _ in pts], [y for _, y in pts]
    assert min(xs) >= MARGIN and max(xs) <= width - MARGIN
    assert min(ys) >= MARGIN and max(ys) <= height - MARGIN

    parents = parent_map(root)
    for t in root.iter(NS + "text"):
        x, y, fs = float(t.get("x")), float(t.get("y")), font_size(t, parents)
        assert MARGIN <= x and y - fs * 0.8 >= MARGIN - 0.01 and y + fs * 0.3 <= height - MARGIN, (
            f"text {''.join(t.itertext())!r} crosses the margin"
        )

    sides = []
    for _, _, w, e in cells.values():
        p = points_of(e)
        if spec[0] == "hex":
            h = max(y for _, y in p) - min(y for _, y in p)
            assert w < h, "hexes are pointy-top"
            sides.append(w)
        else:
            sides.append(min(w, max(y for _, y in p) - min(y for _, y in p)))
    cell = min(sides)
    if small:
        assert cell >= MIN_CELL - 1e-6, f"cells of {cell:.2f} mm"
    else:
        # Beyond hex side 8 the cells are as large as the sheet allows: the board reaches across
        # most of the free width or height.
        used_w = (max(xs) - min(xs)) / (width - 2 * MARGIN)
        used_h = (max(ys) - min(ys)) / (height - 2 * MARGIN)
        assert max(used_w, used_h) >= 0.85, f"cells of {cell:.2f} mm could be larger"


@pytest.mark.parametrize("game, options, spec, small, size", PAPER_CASES, ids=PAPER_IDS)
def test_paper_is_portrait_where_the_board_fits_upright(game, options, spec, small, size):
    root = paper_root(game, options, size)
    width, height = mm(root.get("width")), mm(root.get("height"))
    if width <= height:
        return
    # Landscape is allowed only when the board, labels included, is too wide for a portrait
    # sheet at the cell size it was promised (12 mm, or the cell it got when that is smaller).
    grid = make_grid(spec)
    cells = svg_cells(root, grid)
    cell = min(c[2] for c in cells.values())
    parents = parent_map(root)
    lefts, rights = [], []
    for _, _, _, e in cells.values():
        lefts += [x for x, _ in points_of(e)]
        rights += [x for x, _ in points_of(e)]
    for t in root.iter(NS + "text"):
        if "".join(t.itertext()).strip() in {n[0] for n in grid.names} | {str(r) for r in range(1, grid.rows + 1)}:
            # Half the label's width: a DejaVu Sans digit or letter is about 0.62 em wide.
            half = font_size(t, parents) * 0.32 * len("".join(t.itertext()).strip())
            lefts.append(float(t.get("x")) - half)
            rights.append(float(t.get("x")) + half)
    target = min(MIN_CELL, cell)
    needed = (max(rights) - min(lefts)) * target / cell
    assert needed > PAPERS[size][0] - 2 * MARGIN, (
        f"landscape chosen but the board ({needed:.1f} mm at {target} mm cells) fits a portrait sheet"
    )


@pytest.mark.parametrize("game, options", [("odd", {"size": 5}), ("hermit", {"board": "square"}), ("hermit", {"board": "hex", "size": 7})])
@pytest.mark.parametrize("size", list(PAPERS))
def test_paper_small_boards_are_portrait(game, options, size):
    root = paper_root(game, options, size)
    assert mm(root.get("width")) < mm(root.get("height"))


@pytest.mark.parametrize("game, options, spec, _", BOARDS, ids=BOARD_IDS)
def test_paper_names_the_game_and_labels_every_row_and_column(game, options, spec, _):
    grid = make_grid(spec)
    root = paper_root(game, options, "a4")
    name = GAMES[game].name
    assert any(name in t for t in texts(root)), "the sheet names its game"
    check_coordinate_labels(root, grid, svg_cells(root, grid))


def test_render_is_deterministic_in_process():
    for game, options in DEFAULT_BOARDS:
        grid = make_grid(("hex", 5) if options.get("board", "hex") == "hex" else ("square", 7))
        moves, _ = two_moves(game, grid)
        a = play(game, options, moves, {1: "Ann", 2: "Bob"})
        b = play(game, options, moves, {1: "Ann", 2: "Bob"})
        assert text_diagram(a).encode() == text_diagram(b).encode()
        assert svg_diagram(a).encode() == svg_diagram(b).encode()
        given = {k: str(v) for k, v in options.items()}
        for size in PAPERS:
            assert pictures.blank_board(game, given, size) == pictures.blank_board(game, given, size)


def test_render_is_deterministic_across_runs(tmp_path):
    """Two processes with different hash seeds write byte-identical diagrams and sheets."""
    (tmp_path / "game.toml").write_text(
        'format = 1\ngame = "hermit"\n\n[options]\nboard = "hex"\n\n[players]\n1 = "Ann"\n2 = "Bob"\n\n'
        '[[moves]]\nmove = "a1"\n\n[[moves]]\nmove = "i9"\n',
        encoding="utf-8",
    )
    outputs = []
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        run = []
        for args in (["show", "game.toml"], ["show", "game.toml", "--format", "svg"],
                     ["board", "hermit", "-O", "board=hex", "--paper", "letter", "-o", f"sheet{seed}.svg"]):
            done = subprocess.run([sys.executable, "-m", "referee", *args], cwd=tmp_path, env=env,
                                  capture_output=True, timeout=60)
            assert done.returncode == 0, done.stderr.decode()
            run.append(done.stdout)
        run.append((tmp_path / f"sheet{seed}.svg").read_bytes())
        outputs.append(run)
    assert outputs[0] == outputs[1]
    assert outputs[0][3].startswith(b"<svg") or b"<svg" in outputs[0][3][:200]
