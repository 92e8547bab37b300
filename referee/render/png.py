"""PNG pictures of the SVG diagrams, for mail clients that do not show SVG.

resvg (through resvg-py, a self-contained wheel) draws them with the DejaVu fonts shipped in
referee/data/fonts and never the machine's own, so the same diagram gives the same bytes
everywhere.
"""

from __future__ import annotations

from importlib import resources

import resvg_py

FONTS = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")


def svg_to_png(svg: str) -> bytes:
    folder = resources.files("referee.data").joinpath("fonts")
    with resources.as_file(folder) as path:
        data = resvg_py.svg_to_bytes(
            svg_string=svg,
            skip_system_fonts=True,
            font_files=[str(path / name) for name in FONTS],
            sans_serif_family="DejaVu Sans",
            dpi=96.0,  # millimetre sizes (printable sheets) need a resolution
        )
    return bytes(data)
