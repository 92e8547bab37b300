"""What `show` and `board` write (SPEC §7, §8), in the formats render/formats.py lists: the diagram
after a ply (render/diagram.py), the review page of the whole game, the animation, and the blank
board to print.

Loading this module loads Jinja (the review page's templates); the command line imports it only
in `show` and `board` (cli.py). The libraries of one format are imported where that format is
drawn, once each: Pillow for the GIF (`animation`), fpdf2 for the PDF sheet (`_pdf`).
"""

from __future__ import annotations

import math
import re
from typing import Any, Callable, Mapping

from referee.play.choices import data_files, game_named, game_options
from referee.render.diagram import png_diagram, svg_diagram, text_diagram
from referee.errors import UsageError
from referee.record.files import check_output
from referee.render import drawing, review
from referee.play.replay import Replay
from referee.play.reports import load

# The review page draws every ply (about 5 ms a ply), so a record of thousands of plies, real
# or hostile, is refused rather than left to run for minutes (SPEC §9: bounded work). The
# animation bounds its own frames instead (render/animation.py), so every record has its GIF.
MAX_REVIEW_PLIES = 1_000


def diagram(path: str, ply: int | None, fmt: str, output: str | None = None,
            force: bool = False, palette: str | None = None) -> str | bytes:
    """`referee show`: the position after `ply` (default the last) in the format `fmt` (one of
    those `show` writes), for `output` (refused if it exists, unless `force`), in `palette`
    (SPEC §8b; None: the default). As HTML, the review page of the whole game, opening at
    `ply`; as GIF, the animation of plies 0 to `ply`."""
    check_output(output, force)
    play = load(path)
    # SPEC §8b: a negative ply counts from the end, -1 being the last.
    shown = ply + play.plies + 1 if ply is not None and ply < 0 else ply
    if shown is not None and not 0 <= shown <= play.plies:
        raise UsageError(f"{path}: --ply {ply} is beyond the record, which has plies 0–{play.plies} "
                         f"(-1 to -{play.plies + 1} from the end)")
    return SHOWN[fmt](play, shown, palette)


def _bounded(play: Replay, plies: int, what: str) -> None:
    if plies > MAX_REVIEW_PLIES:
        raise UsageError(f"{play.record.path}: {what} of {plies} plies: at most {MAX_REVIEW_PLIES} "
                         "(the text, SVG or PNG of any single ply can still be shown with --ply)")


def review_page(play: Replay, opening: int | None = None, palette: str | None = None) -> str:
    """The review page (SPEC §7): one self-contained HTML file to step through the whole game,
    opening at ply `opening` (default: the last) unless its address says `#ply=N`."""
    _bounded(play, play.plies, "a review page")
    return review.page(play, opening, palette)


def animation(play: Replay, last: int | None = None, palette: str | None = None) -> bytes:
    """The animated GIF (SPEC §7, §14): from ply 0 (the start) to `last` (default: the last
    ply), that one held longer; passes merged into the frame before them, and a game too long
    to draw every ply shown at plies evenly spaced (render/animation.py: `frame_plan`)."""
    from referee.render.animation import frame_plan, gif  # Pillow: only the animation loads it

    last = play.plies if last is None else last
    still = [False] + [str(play.last_move(ply)) == "pass" for ply in range(1, last + 1)]
    plan = frame_plan(still, _pixels(svg_diagram(play, last, palette)))
    return gif([png_diagram(play, ply, palette) for ply, _ in plan], [ms for _, ms in plan])


def _pixels(svg: str) -> int:
    """The pixels of an SVG diagram at its stated size (render/page.py's `canvas`)."""
    match = re.search(r'<svg\b[^>]*?\bwidth="([\d.]+)"[^>]*?\bheight="([\d.]+)"', svg)
    return math.ceil(float(match[1])) * math.ceil(float(match[2])) if match else 0


# What `show` draws in each of the formats it writes (render/formats.py: "show").
SHOWN: dict[str, Callable[[Replay, int | None, str | None], str | bytes]] = {
    "text": text_diagram, "svg": svg_diagram, "png": png_diagram, "html": review_page, "gif": animation,
}


def blank_board(game_name: str, options_given: Mapping[str, str] | None, paper: str, fmt: str = "svg",
                output: str | None = None, force: bool = False, palette: str | None = None) -> str | bytes:
    """`referee board`: the empty board of a game as a printable sheet in the format `fmt`,
    for `output`: an SVG in millimetres, or a PDF page of exactly the paper's size (SPEC §8)."""
    game = game_named(game_name)
    options = game_options(game, options_given)
    check_output(output, force)
    files = data_files(game, options)
    try:
        setup = {name: game.setup_from_file(name, content) for name, content in files.items()}
        sheet = drawing.paper_board(game, options, setup, paper, palette)
    except ValueError as exc:  # a board file without the scheme asked for
        raise UsageError(f"{options.get('board', game.name)}: {exc}") from None
    return SHEETS[fmt](sheet)


def _pdf(sheet: str) -> bytes:
    from referee.render.pdf import svg_sheet_to_pdf  # fpdf2: only a PDF sheet loads it

    return svg_sheet_to_pdf(sheet)


# What `board` makes of its SVG sheet in each of the formats it writes (render/formats.py: "board").
SHEETS: dict[str, Callable[[str], Any]] = {"svg": lambda sheet: sheet, "pdf": _pdf}
