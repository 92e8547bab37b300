"""The printed board (SPEC §8): `referee board GAME -o sheet.pdf` is a page of exactly the
paper's size, true to size when printed at 100 %, with a 100 mm scale bar and the words
"print at 100 %"; the SVG sheet carries the same bar and words.

The PDF is read back with pypdf (the test extra): its MediaBox, and the scale bar measured in
PDF units through the drawing's transformation. Where poppler's pdftoppm is installed, the page
is also rendered at 300 dpi and the bar measured in pixels, as a printer would draw it.
"""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from referee.render import show as pictures

pypdf = pytest.importorskip("pypdf")

PAGE_PT = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}
MM = 72 / 25.4  # PDF units (points) per millimetre
NS = "{http://www.w3.org/2000/svg}"
SHEETS = [("odd", {}), ("hermit", {"board": "hex"}), ("hermit", {"board": "square"}), ("harmijan", {}),
          ("hermetica", {}), ("hermetica", {"scheme": "draft"}), ("odd", {"size": "12"})]


def sheet_pdf(game, options, paper):
    return pictures.blank_board(game, options, paper, fmt="pdf")


def black_rectangles(data: bytes) -> list[tuple[float, float, float, float]]:
    """Every rectangle filled in black on the page, as (x0, y0, x1, y1) in PDF units: the
    content stream walked with its transformation matrices (q, Q, cm) and fill colours."""
    import io

    from pypdf.generic import ContentStream

    reader = pypdf.PdfReader(io.BytesIO(data))
    page = reader.pages[0]
    ctm, stack, grey, found = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), [], None, []
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"q":
            stack.append((ctm, grey))
        elif op == b"Q":
            ctm, grey = stack.pop()
        elif op == b"cm":
            a, b, c, d, e, f = map(float, operands)
            A, B, C, D, E, F = ctm
            ctm = (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
                   e * A + f * C + E, e * B + f * D + F)
        elif op == b"g":
            grey = float(operands[0])
        elif op == b"rg":
            grey = float(operands[0]) if len(set(map(float, operands))) == 1 else None
        elif op == b"re" and grey == 0:
            x, y, w, h = map(float, operands)
            A, B, C, D, E, F = ctm
            corners = [(A * px + C * py + E, B * px + D * py + F) for px, py in ((x, y), (x + w, y + h))]
            xs, ys = [p[0] for p in corners], [p[1] for p in corners]
            found.append((min(xs), min(ys), max(xs), max(ys)))
    return found


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game, options", SHEETS)
def test_pdf_board_is_a_page_of_the_papers_exact_size(game, options, paper):
    data = sheet_pdf(game, options, paper)
    assert data.startswith(b"%PDF-")
    reader = pypdf.PdfReader(__import__("io").BytesIO(data))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    size = (round(float(box.width), 2), round(float(box.height), 2))
    assert size in (PAGE_PT[paper], PAGE_PT[paper][::-1]), size


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game, options", SHEETS)
def test_pdf_board_scale_bar_is_100_mm_and_says_print_at_100_percent(game, options, paper):
    data = sheet_pdf(game, options, paper)
    bars = [r for r in black_rectangles(data) if r[2] - r[0] > 50 * MM]
    assert len(bars) == 1, bars
    x0, y0, x1, y1 = bars[0]
    assert x1 - x0 == pytest.approx(100 * MM, abs=0.01)  # 283.46 pt
    assert x0 >= 10 * MM - 0.01 and y0 >= 10 * MM - 0.01, "the bar is inside the margins"
    text = pypdf.PdfReader(__import__("io").BytesIO(data)).pages[0].extract_text()
    assert "print at 100 %" in text


def test_pdf_board_prints_the_scale_bar_1181_pixels_long_at_300_dpi(tmp_path):
    """Rendered as a printer would at 300 dpi, 100 mm is 1181.1 pixels."""
    if shutil.which("pdftoppm") is None:
        pytest.skip("poppler's pdftoppm is not installed")
    for paper in ("a4", "letter"):
        pdf = tmp_path / f"{paper}.pdf"
        pdf.write_bytes(sheet_pdf("odd", {}, paper))
        subprocess.run(["pdftoppm", "-r", "300", "-gray", str(pdf), str(tmp_path / paper)], check=True)
        image = next(tmp_path.glob(f"{paper}*.pgm")).read_bytes()
        magic, width, height, _, pixels = image.split(maxsplit=4)
        width, height = int(width), int(height)
        pixels = pixels[-width * height:]
        assert (width, height) == {"a4": (2481, 3508), "letter": (2550, 3300)}[paper]
        longest = 0
        for y in range(height - 300, height):  # the foot of the sheet
            run = 0
            for value in pixels[y * width:(y + 1) * width]:
                run = run + 1 if value < 128 else 0
                longest = max(longest, run)
        assert abs(longest - 100 / 25.4 * 300) <= 2, f"the 100 mm bar is {longest} px at 300 dpi"


def test_pdf_board_is_the_same_bytes_every_time():
    assert sheet_pdf("hermetica", {}, "a4") == sheet_pdf("hermetica", {}, "a4")


def test_board_writes_pdf_by_the_name_or_by_format(cli, tmp_path):
    assert cli("board", "odd", "-o", "sheet.pdf").exit_code == 0
    assert (tmp_path / "sheet.pdf").read_bytes().startswith(b"%PDF-")
    assert cli("board", "odd", "--format", "pdf", "-o", "other.pdf").exit_code == 0
    assert cli("board", "odd", "--format", "pdf", "-o", "sheet.svg").exit_code == 2


@pytest.mark.parametrize("paper, words", [("a4", "A4 portrait"), ("letter", "Letter portrait")])
def test_svg_board_names_the_paper_and_carries_the_scale_bar(paper, words):
    svg = pictures.blank_board("odd", {}, paper)
    root = ET.fromstring(svg)
    texts = ["".join(t.itertext()) for t in root.iter(NS + "text")]
    assert any(words in t for t in texts)
    assert not any("LETTER" in t for t in texts)
    assert any("print at 100 %" in t for t in texts)
    bars = [r for r in root.iter(NS + "rect") if r.get("fill") == "#000000"]
    assert [float(r.get("width")) for r in bars] == [100.0]  # in millimetres: the viewBox unit


def test_blank_hermetica_names_wall_hexes_in_light_ink():
    root = ET.fromstring(pictures.blank_board("hermetica", {}, "a4"))
    names = {"".join(t.itertext()): t.get("fill") for t in root.iter(NS + "text")}
    # dawn's walls (RULINGS): c3 is one; d5 is not.
    assert names["c3"] == "#ffffff"
    assert names["d5"] != "#ffffff"
