"""The page every drawer shares: SVG margins and lines of words, how wide words are, and how a
board fits a sheet of paper true to size.

Each game's drawer lays out its own board; the room around it (title, players, status lines,
the sheet and its margins) is measured here once, so every diagram and every printed sheet
keeps the same proportions.

Pictures are bounded (SPEC §9): the words a record brings (names, options, comments, results)
are broken into lines no wider than TEXT_ROOM and at most a few lines each (`fitted`), and a
picture's stated size never passes MAX_WIDTH × MAX_HEIGHT (`canvas`), so that no record makes
a PNG, a GIF frame or a review page of a size that costs seconds or hundreds of MB.
"""

from __future__ import annotations

from typing import Iterable, NamedTuple

from referee.text import columns, cut, wrap

# -- the SVG diagrams (pixels) ----------------------------------------------------------------

MARGIN = 16.0  # around the whole picture
BARE_MARGIN = 4.0  # around a board drawn alone (the review page's): room for the lines' width
LINE = 18.0  # one line of words
MIN_WIDTH = 590.0  # a diagram is never narrower: the status lines need room
# Font sizes in pixels, as the templates' styles set them; anything else is body text.
FONT_SIZE = {"head": 15.0, "subhead": 14.0, "result": 14.0}
BODY_SIZE = 13.0
EM_WIDTH = 0.6  # a character of the sans-serif font, in em, on average (generous for digits)
# A line of words never makes a picture wider than this (the longest title of an ordinary game,
# a crab game's with every option, is 1,200 pixels); a longer one is broken into lines.
TEXT_ROOM = 1400.0
MAX_WIDTH, MAX_HEIGHT = 2000.0, 20000.0  # pixels: no picture is stated larger


def text_width(text: str, css: str = "text") -> float:
    """About how many pixels `text` takes in the style `css` (head, subhead, result, text); a
    wide character (Chinese, Japanese, most emoji) as two."""
    return columns(text) * EM_WIDTH * FONT_SIZE.get(css, BODY_SIZE)


def fitted(texts: Iterable[str], css: str = "text") -> list[str]:
    """Words as a picture writes them: each text broken at spaces into lines no wider than
    TEXT_ROOM in the style `css` (the one its drawer measures it in), and cut with "…" past
    header.MAX_LINES of them. An ordinary line is left as it is."""
    most = int(TEXT_ROOM // (EM_WIDTH * FONT_SIZE.get(css, BODY_SIZE)))
    return [line for text in texts for line in wrap(text, most)]


def page_width(drawing: float, lines: Iterable[tuple[str, str]]) -> float:
    """The width of a diagram: its drawing, or its longest line of words (css, text), whichever
    is wider, and never less than MIN_WIDTH; margins included."""
    widest = max([drawing, MIN_WIDTH, *(text_width(text, css) for css, text in lines)])
    return widest + 2 * MARGIN


def canvas(width: float, height: float) -> dict[str, object]:
    """The size an SVG diagram states (`width`, `height`) and its drawing's coordinates
    (`view`, the viewBox). A drawing larger than MAX_WIDTH × MAX_HEIGHT (a board file of
    hundreds of hexes) is stated smaller, scaled as a whole: whatever draws it at its stated
    size (resvg for the PNG and the GIF, a browser) never makes a larger picture."""
    width, height = round(width, 2), round(height, 2)
    scale = min(1.0, MAX_WIDTH / width, MAX_HEIGHT / height)
    stated = (width, height) if scale == 1.0 else (round(width * scale, 2), round(height * scale, 2))
    return {"width": stated[0], "height": stated[1], "view": f"0 0 {width} {height}"}


def line_y(top: float, index: int, offset: float = 0.7) -> float:
    """The baseline of line `index` of a block of words starting at `top`."""
    return round(top + (index + offset) * LINE, 2)


# -- printable sheets (millimetres) ---------------------------------------------------------------

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # width, height in portrait
PAPER_NAMES = {"a4": "A4", "letter": "Letter"}
PAPER_MARGIN = 10.0
TITLE_BLOCK = 16.0  # mm above the board for the game's name and options
FOOT_BLOCK = 6.0  # mm below the board for the scale bar
SCALE_LENGTH = 100.0  # mm: a player checks the print against a ruler
# Where a sheet's title and the line under it stand, in mm: the same on every printable board.
SHEET_HEADING = {"title_x": PAPER_MARGIN, "title_y": PAPER_MARGIN + 7, "subtitle_y": PAPER_MARGIN + 13}
SHEET_LINE = 150  # columns of the line under a sheet's title (Hermetica's, the longest, has 141)
MIN_CELL = 12.0  # below this a stone no longer sits in a cell comfortably
MAX_CELL = 25.0  # about a stone and a half


class Sheet(NamedTuple):
    """A sheet of paper and the size of a board's cells on it."""

    width: float
    height: float
    cell: float  # mm per board unit (cell width for grids, centre to centre for Hermetica)

    @property
    def orientation(self) -> str:
        return "portrait" if self.height >= self.width else "landscape"

    def board_origin(self, board_w: float, board_h: float) -> tuple[float, float]:
        """The top-left corner, in mm, of a board of board_w × board_h units centred below the
        title block."""
        left = (self.width - board_w * self.cell) / 2
        room = self.height - 2 * PAPER_MARGIN - TITLE_BLOCK - FOOT_BLOCK
        top = PAPER_MARGIN + TITLE_BLOCK + (room - board_h * self.cell) / 2
        return left, top

    def frame(self, title: str, subtitle: str) -> dict[str, object]:
        """What every printable sheet's template places around its board: the page size, the
        heading where every sheet has it, and the scale bar. The line under the title names
        the options, a board file's path among them: it is cut with "…" where it would run
        off the sheet."""
        subtitle = cut(subtitle, SHEET_LINE)
        return {"width": self.width, "height": self.height, "title": title, "subtitle": subtitle,
                **SHEET_HEADING, "bar": self.scale_bar()}

    def scale_bar(self) -> "ScaleBar":
        """The 100 mm bar at the foot of the sheet, its ticks every centimetre and its words."""
        left, bottom = PAPER_MARGIN, self.height - PAPER_MARGIN
        thick = 1.5
        ticks = [
            (round(left + k * 10, 3), round(bottom - thick, 3), round(bottom - thick - (3.0 if k % 5 == 0 else 1.8), 3))
            for k in range(int(SCALE_LENGTH // 10) + 1)
        ]
        return ScaleBar(
            x=left, y=round(bottom - thick, 3), width=SCALE_LENGTH, height=thick, ticks=ticks,
            text_x=round(left + SCALE_LENGTH + 3, 3), text_y=round(bottom - 1.2, 3), size=2.8,
            text=f"print at 100 % (actual size): this bar is {SCALE_LENGTH:.0f} mm",
        )


class ScaleBar(NamedTuple):
    """A bar of SCALE_LENGTH mm and the words that tell a player how to print the sheet."""

    x: float
    y: float
    width: float
    height: float
    ticks: list[tuple[float, float, float]]  # x, y from, y to
    text_x: float
    text_y: float
    size: float
    text: str


def fit(board_w: float, board_h: float, paper: str) -> Sheet:
    """Choose the orientation and cell size for a board of board_w × board_h units: portrait
    when cells of at least MIN_CELL fit (or portrait gives the larger cells), else landscape;
    cells never grow past MAX_CELL."""
    short, long = PAPERS[paper]

    def cell_for(width: float, height: float) -> float:
        room = height - 2 * PAPER_MARGIN - TITLE_BLOCK - FOOT_BLOCK
        return min((width - 2 * PAPER_MARGIN) / board_w, room / board_h)

    portrait, landscape = cell_for(short, long), cell_for(long, short)
    if portrait >= MIN_CELL or portrait >= landscape:
        return Sheet(short, long, min(portrait, MAX_CELL))
    return Sheet(long, short, min(landscape, MAX_CELL))
