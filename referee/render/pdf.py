"""The printable sheet as a PDF page: the SVG sheet (in millimetres) drawn by fpdf2 onto a page
of exactly the paper's size, so that printing at 100 % gives the board true to size.

fpdf2 reads the SVG itself (polygons, rectangles, lines and text, with text-anchor and
dominant-baseline); the text is set in the DejaVu fonts shipped in referee/data/fonts, embedded
as subsets, so any name a board file or an option brings prints as it should. The page carries
no time stamp: the same sheet gives the same bytes.
"""

from __future__ import annotations

import datetime as dt
import io
import logging
import re
from importlib import resources

FONTS = {"": "DejaVuSans.ttf", "B": "DejaVuSans-Bold.ttf"}
FAMILY = "DejaVu Sans"  # the first family of the sheets' font-family (paper.svg.j2)
# A fixed date instead of the moment of writing: the same sheet, the same bytes.
EPOCH = dt.datetime(2000, 1, 1, tzinfo=dt.timezone.utc)


def sheet_size(svg: str) -> tuple[float, float]:
    """The sheet's width and height in millimetres, from its root element."""
    match = re.search(r'<svg[^>]*\swidth="([0-9.]+)mm"[^>]*\sheight="([0-9.]+)mm"', svg)
    if match is None:
        raise ValueError("not a printable sheet: its size is not given in millimetres")
    return float(match[1]), float(match[2])


def svg_sheet_to_pdf(svg: str) -> bytes:
    """One PDF page of the sheet's size in millimetres (A4 595.28 × 841.89 pt, Letter
    612 × 792 pt) with the SVG drawn on it at 1 mm per SVG unit."""
    from fpdf import FPDF

    width, height = sheet_size(svg)
    pdf = FPDF(unit="mm", format=(width, height))
    pdf.set_creation_date(EPOCH)
    pdf.set_producer("referee")
    pdf.set_margin(0)
    pdf.set_auto_page_break(False)
    folder = resources.files("referee.data").joinpath("fonts")
    with resources.as_file(folder) as path:
        for style, name in FONTS.items():
            pdf.add_font(FAMILY, style, str(path / name))
        pdf.add_page()
        # fpdf2 notes every SVG element it skips (the sheets' <title>) at WARNING level, on
        # the root logger's stderr: nothing a player needs to read.
        quiet = logging.getLogger("fpdf.svg")
        level = quiet.level
        quiet.setLevel(logging.ERROR)
        try:
            pdf.image(io.BytesIO(svg.encode("utf-8")), x=0, y=0, w=width, h=height)
        finally:
            quiet.setLevel(level)
        return bytes(pdf.output())
