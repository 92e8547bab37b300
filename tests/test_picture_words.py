"""What a screen reader reads of a picture, and the glitches players saw in the pictures
(SPEC §8b: "Pictures for every eye").

Every SVG carries a <title> (the game, the ply, who is to move) and a <desc> (the position in
words: every piece and its cell), made from the same view model the drawer draws from; the
words are escaped like every other text of a picture.
"""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from referee.render import diagram as diagrams, show as pictures
from referee.play import reports
from referee.render.formats import PALETTES
from referee.render.drawers import crab
from referee.render.drawing import drawn
from referee.play.words import result_words

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_games"
SVG = "{http://www.w3.org/2000/svg}"
ONE_PER_GAME = [SAMPLES / "odd" / "odd-5-resign.toml", SAMPLES / "dustin" / "dustin-in-progress.toml",
                SAMPLES / "hermit-square" / "hermit-square-in-progress.toml",
                SAMPLES / "hermit-hex" / "hermit-hex-in-progress.toml",
                SAMPLES / "harmijan" / "harmijan-in-progress.toml",
                SAMPLES / "hermetica" / "hermetica-in-progress.toml", SAMPLES / "crab" / "crab-coop-2-win.toml"]


def title_and_desc(svg: str) -> tuple[str, str]:
    root = ET.fromstring(svg)
    first, second = list(root)[:2]
    assert first.tag == f"{SVG}title" and second.tag == f"{SVG}desc"  # read first, before any shape
    return first.text or "", second.text or ""


@pytest.mark.parametrize("sample", ONE_PER_GAME, ids=lambda p: p.stem)
def test_every_svg_has_a_title_with_game_ply_and_who_moves_and_the_position_in_words_SPEC_8b(sample):
    play = reports.load(str(sample))
    for ply in (0, play.plies // 2, play.plies):
        picture = play.game.picture(play.position(ply), play.last_move(ply))
        for svg in (diagrams.svg_diagram(play, ply), drawn(play, ply).svg,
                    diagrams.svg_diagram(play, ply, "mono")):
            title, desc = title_and_desc(svg)
            assert title.startswith(play.game.name)
            assert ("the start" if ply == 0 else f"after ply {ply} ·") in title
            assert title.endswith(result_words(play, ply))  # "Bo to move", or who won
            for piece in pieces_in_words(picture):
                assert piece in desc, (ply, piece)


def pieces_in_words(picture) -> list[str]:
    """How the words name each piece on its cell, drawer by drawer."""
    if hasattr(picture, "pieces"):  # a grid game: every stone's cell, in its kind's sentence
        names = []
        for kind in picture.kinds:
            cells = [picture.grid.name(c) for c in picture.grid if picture.pieces.get(c) == kind.key]
            names.append(f"({kind.glyph}), {len(cells)} stone{'' if len(cells) == 1 else 's'}: "
                         + (", ".join(cells) or "none"))
        return names
    if hasattr(picture, "units"):  # Hermetica
        kinds = {"A": "Adept", "F": "Fire", "E": "Earth", "W": "Water"}
        return [f"{kinds[unit.kind]} {picture.board.name(cell)}" for cell, unit in picture.units.items()]
    words = crab.descriptions.SYMBOL_WORDS  # crab: every visible cell of every play area
    return [f"{cell.x},{cell.y} {words[cell.symbol]}" for area in picture.areas for cell in area.cells]


def test_a_hostile_name_is_escaped_in_the_title_and_the_svg_stays_valid(tmp_path, cli):
    name = '</title><script>alert(1)</script> & "Bo" <bo@example.org>'
    assert cli("new", "odd", "-o", "game.toml", "--player", "1=Ann", "--player", f"2={name}").exit_code == 0
    assert cli("move", "game.toml", "b e5").exit_code == 0
    play = reports.load(str(tmp_path / "game.toml"))
    svg = diagrams.svg_diagram(play)
    assert "<script>" not in svg and "&lt;/title&gt;&lt;script&gt;" in svg
    title, _ = title_and_desc(svg)  # parsed back: the name as written, not markup
    assert title.endswith('· </title><script>alert(1)</script> & "Bo to move')


@pytest.mark.parametrize("game, options", [("odd", {}), ("hermit", {}), ("hermit", {"board": "hex"}),
                                           ("hermetica", {"scheme": "noon"})])
def test_printable_sheets_have_a_title_and_say_what_they_show(game, options):
    title, desc = title_and_desc(pictures.blank_board(game, options, "a4"))
    assert title.startswith(game.capitalize()) and desc.startswith("A blank")


# -- the review page: the board alone, as wide as its column -------------------------------------

PAGE_SAMPLES = [SAMPLES / "odd" / "odd-5-resign.toml", SAMPLES / "hermetica" / "hermetica-dawn-won.toml",
                SAMPLES / "crab" / "crab-coop-2-win.toml"]


@pytest.mark.parametrize("sample", PAGE_SAMPLES, ids=lambda p: p.stem)
def test_the_review_pages_picture_is_the_board_alone_SPEC_8b(sample):
    """No title, player, legend, last move, status or result line is drawn in the page's
    pictures: the page writes them as text."""
    play = reports.load(str(sample))
    for ply in (0, play.plies):
        drawing = drawn(play, ply)
        root = ET.fromstring(drawing.svg)
        words = [t.text or "" for t in root.iter(f"{SVG}text")]
        classes = {t.get("class") for t in root.iter(f"{SVG}text")}
        assert not classes & {"head", "text", "result", "small", "side", "legend"}, classes
        for line in [drawing.head.title, *drawing.head.players, drawing.head.result, *drawing.head.status,
                     drawing.head.last or "\0", "Legend"]:
            assert line not in words
        # ... and the page has them: the legend as a list under the board.
        page = pictures.review_page(play)
        assert '<ul class="legend" aria-label="Legend">' in page
        assert all(json.dumps(words)[1:-1] in page or words.replace("'", "&#39;") in page
                   for _, words in drawing.key)


def test_the_review_pages_style_sheet_gives_the_board_its_columns_width():
    css = (ROOT / "templates" / "review.css").read_text(encoding="utf-8")
    (board,) = re.findall(r"^#diagram \{([^}]*)\}", css.split("@media")[0], re.M)
    assert "width: 100%" in board and "height: auto" in board
    # No rule outside print bounds the board's height (which would shrink a tall board).
    screen = re.sub(r"@media print \{.*", "", css, flags=re.S)
    assert not re.search(r"#diagram[^{]*\{[^}]*max-height", screen)


def test_a_hermetica_turn_is_one_line_per_action_in_the_panel_SPEC_8b():
    page = pictures.review_page(reports.load(str(SAMPLES / "hermetica" / "hermetica-dawn-won.toml")))
    panel = re.search(r'<section class="ply" data-panel="10".*?</section>', page, re.S)[0]
    items = re.findall(r"<li>(.*?)</li>", panel)
    assert items[0] == "1. A b7-c7*b7: Shield redeployed from b10 to b7"
    assert items[1].startswith("2. ") and items[2].startswith("3. ")
    assert all(not item.startswith(" ") for item in items)


def test_each_plys_panel_has_the_position_in_words():
    play = reports.load(str(PAGE_SAMPLES[0]))
    page = pictures.review_page(play)
    assert page.count("<summary>The position in words</summary>") == play.plies + 1
    assert f"<p>{drawn(play, 7).words}</p>" in page


# -- the glitches players saw ---------------------------------------------------------------------


def numbers(svg: str, pattern: str) -> list[tuple[float, ...]]:
    return [tuple(float(v) for v in m) for m in re.findall(pattern, svg)]


@pytest.mark.parametrize("palette_name", PALETTES)
def test_crab_every_card_is_outlined_where_it_shows(palette_name):
    """Between two cells of different cards (and around the play area) runs a card's edge, so
    overlapping cards read; every card in a hand has its outline."""
    play = reports.load(str(SAMPLES / "crab" / "crab-coop-2-win.toml"))
    svg = diagrams.svg_diagram(play, None, palette_name)
    edges = {frozenset({(x1, y1), (x2, y2)}) for x1, y1, x2, y2 in
             numbers(svg, r'<line class="cardedge" x1="([-\d.]+)" y1="([-\d.]+)" x2="([-\d.]+)" y2="([-\d.]+)"/>')}
    picture = play.game.picture(play.position(), play.last_move())
    placed = [list(area.cards) for area in picture.areas]
    cells = numbers(svg, r'<rect class="card(?: new)?" x="([\d.]+)" y="([\d.]+)" width="36.0"')
    assert len(cells) == sum(len(a.cells) for a in picture.areas)
    for number, area in enumerate(picture.areas):
        owners = crab.card_owners(area, placed[number])
        # Every visible cell lies on a card placed, or on the first card (None).
        assert set(owners.values()) <= {card for card, *_ in placed[number]} | {None}
        assert len(set(owners.values())) >= 5
        # The cells' places in the picture: their order is the area's cell order, area by area.
        start = sum(len(a.cells) for a in picture.areas[:number])
        where = {(c.x, c.y): cells[start + i] for i, c in enumerate(area.cells)}
        for (x, y), owner in owners.items():
            px, py = where[(x, y)]
            right, below = (x + 1, y), (x, y + 1)
            if owners.get(right, "none") != owner:
                assert frozenset({(px + 36, py), (px + 36, py + 36)}) in edges
            if owners.get(below, "none") != owner:
                assert frozenset({(px, py + 36), (px + 36, py + 36)}) in edges


def test_crab_legend_words_stand_clear_of_their_swatches_and_of_the_next_entry():
    svg = diagrams.svg_diagram(reports.load(str(SAMPLES / "crab" / "crab-in-progress.toml")))
    legend_top = float(re.search(r'<text class="subhead" x="[\d.]+" y="([\d.]+)">Legend</text>', svg)[1])
    shapes = []  # (left, right, top, bottom) of every shape below the "Legend" heading
    for x, y, w, h in numbers(svg, r'<rect class="[^"]*" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"'):
        shapes.append((x, x + w, y, y + h))
    for cx, cy, r in numbers(svg, r'<circle class="[^"]*" cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"'):
        shapes.append((cx - r, cx + r, cy - r, cy + r))
    for points in re.findall(r'<polygon class="[^"]*" points="([^"]+)"', svg):
        xs = [float(p.split(",")[0]) for p in points.split()]
        ys = [float(p.split(",")[1]) for p in points.split()]
        shapes.append((min(xs), max(xs), min(ys), max(ys)))
    shapes = [s for s in shapes if s[2] > legend_top]
    labels = re.findall(r'<text class="legend" x="([\d.]+)" y="([\d.]+)">([^<]+)</text>', svg)
    assert len(labels) == len(crab.LEGEND)
    for x, y, words in labels:
        x, y = float(x), float(y)
        row = [s for s in shapes if s[2] < y and s[3] > y - 12]
        swatch = max(s[1] for s in row if s[0] < x)
        assert x >= swatch + 6, words  # a gap between the swatch and its words
        after = [s[0] for s in row if s[0] > x]
        if after:  # the words end before the next entry's swatch
            assert x + len(words) * 0.6 * 12 <= min(after), words


@pytest.mark.parametrize("sample, ply, new", [("hermetica-power-adept-returns", None, True),
                                              ("hermetica-power-water-relocates-unit", 7, True),
                                              ("hermetica-power-fire-shot", None, False)])
def test_hermetica_prime_and_new_words_are_drawn_over_the_lines_and_inside_their_hex(sample, ply, new):
    svg = diagrams.svg_diagram(reports.load(str(SAMPLES / "hermetica" / f"{sample}.toml")), ply)
    labels = list(re.finditer(r'<text class="(primelabel|newlabel(?: beside)?)" x="([\d.]+)" y="([\d.]+)">(\w+)</text>', svg))
    assert any(m[4] == "PRIME" for m in labels) and any(m[4] == "new" for m in labels) == new
    last_line = max(svg.rfind('<polyline class="path"'), svg.rfind('<line class="arrow'))
    assert all(m.start() > last_line for m in labels)  # drawn after (over) every line
    for css in ("primelabel", "newlabel"):  # with a halo that interrupts a line under the word
        assert re.search(rf"\.{css} \{{[^}}]*paint-order: stroke; stroke: #ffffff", svg)
    # Each word lies inside its hex: the corners of its box inside the hex's outline.
    hexes = [[tuple(map(float, p.split(","))) for p in points.split()]
             for points in re.findall(r'<polygon class="cell[^"]*" points="([^"]+)"', svg)]
    for m in labels:
        x, y, text = float(m[2]), float(m[3]), m[4]
        size = 11 if text == "PRIME" else 9 if "beside" in m[1] else 10
        half_w, half_h = len(text) * 0.62 * size / 2, size / 2
        outline = min(hexes, key=lambda h: math.dist((x, y), (sum(p[0] for p in h) / 6, sum(p[1] for p in h) / 6)))
        for corner in ((x - half_w, y - half_h), (x + half_w, y - half_h), (x - half_w, y + half_h),
                       (x + half_w, y + half_h)):
            assert inside(corner, outline), (text, corner)
    # Beside a Prime hex's name, the two words do not meet.
    for m in labels:
        if "beside" in m[1]:
            x, y = float(m[2]), float(m[3])
            name = [float(n) for n in re.findall(rf'<text class="cellname[^"]*" x="([\d.]+)" y="{m[3]}">', svg)]
            assert any(x - 9 * 0.62 * 1.5 - 4 > n + 10 * 0.62 for n in name)


def inside(point: tuple[float, float], polygon: list[tuple[float, float]]) -> bool:
    """Whether a point lies inside a convex polygon (on the same side of every edge)."""
    sides = [(b[0] - a[0]) * (point[1] - a[1]) - (b[1] - a[1]) * (point[0] - a[0])
             for a, b in zip(polygon, polygon[1:] + polygon[:1])]
    return all(v > 0 for v in sides) or all(v < 0 for v in sides)


@pytest.mark.parametrize("options, centre", [({}, "d4"), ({"board": "hex"}, "e5"), ({"size": "6"}, None)])
def test_the_hermit_sheet_marks_the_centre_the_first_stone_may_not_take_R_HE2(options, centre):
    sheet = pictures.blank_board("hermit", options, "a4")
    dots = re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"', sheet)
    if centre is None:  # an even square board has no centre
        assert dots == [] and "centre" not in sheet
        return
    assert len(dots) == 1 and f"centre {centre} marked" in sheet
    # The dot sits in the centre cell: as far from the first and last row labels.
    rows = numbers(sheet, r'<text x="([\d.]+)" y="([\d.]+)">(?:1|7|9)</text>')
    x, y, _ = map(float, dots[0])
    assert min(r[1] for r in rows) < y < max(r[1] for r in rows)
