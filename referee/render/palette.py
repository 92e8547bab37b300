"""The palettes every picture is drawn in (SPEC §8b): `default`, `colourblind` and `mono`, one
table per drawer style (the grid games, Hermetica, crab, the printable sheets).

A palette names every colour of a drawing by its role (`inks`) and every other value that
differs between palettes, such as dash patterns and line widths (`values`); the drawer's style
sheet (`RULES`) is written once with those names, and `style()` fills them in. So the colours
live here alone: the templates get the finished lines of CSS as values, and the tests measure
the very colours the drawers use.

- `default`: the colours the referee has always drawn in.
- `colourblind`: the roles in `compared` (the pieces, the highlights, the markers and the
  ground they lie on) are kept at CIEDE2000 ΔE ≥ 20 from one another under simulated
  protanopia, deuteranopia and tritanopia, and in normal vision (tests/test_palettes.py
  measures it). There are fewer colours than meanings: where two things share a colour, their
  shapes or dash patterns tell them apart, and the legend names each style once.
- `mono`: black, white and greys only, for a grey print; pieces differ by shape or by filling
  (solid, hollow, lettered), never by colour alone.
"""

from __future__ import annotations

from typing import Iterable, Mapping, NamedTuple

from referee.render.formats import DEFAULT_PALETTE, PALETTES

__all__ = ["DEFAULT_PALETTE", "PALETTES", "Palette", "style"]


class Palette(NamedTuple):
    inks: dict[str, str]  # every colour of the drawing, by role
    compared: tuple[str, ...]  # the roles held apart by colour (ΔE ≥ 20 in `colourblind`)
    values: dict[str, str]  # dash patterns, widths and the like
    # Where a palette draws more than colours: crab's shells lettered on the Coast too
    # ("letters"), and the shells whose letter is written light ("light_letters").
    drawn: Mapping[str, object] = {}


def style(rules: Iterable[tuple[str, str]], palette: Palette, **sizes: object) -> list[str]:
    """The lines of a style sheet: each rule's declarations with the palette's inks and values
    (and the drawing's `sizes`, such as a font size) filled in."""
    names = {**palette.inks, **palette.values, **sizes}
    return [f"{selector} {{ {declarations.format(**names)} }}" for selector, declarations in rules]


def chosen(table: Mapping[str, Palette], name: str | None) -> Palette:
    return table[name or DEFAULT_PALETTE]


# -- the grid games (render/drawers/grid.py, templates/diagram.svg.j2) -----------------------------

GRID_RULES = (
    (".cell", "fill: {board}; stroke: {edge}; stroke-width: 1;"),
    (".cell.last", "stroke: {last}; stroke-width: 3.5;"),
    (".coord", "font-size: {label_size}px; fill: {coord}; text-anchor: middle; dominant-baseline: central;"),
    (".stone-b", "fill: {dark}; stroke: {dark_edge}; stroke-width: {dark_width};"),
    (".stone-w", "fill: {light}; stroke: {light_edge}; stroke-width: {light_width};"),
    (".lastmark", "fill: {dot}; stroke: {dot_ring}; stroke-width: {dot_width};"),
    (".head", "font-size: 15px; font-weight: bold; fill: {ink};"),
    (".text", "font-size: 13px; fill: {ink};"),
    (".result", "font-size: 14px; font-weight: bold; fill: {ink};"),
)
# Drawn only where the last move went somewhere or took something (Harmijan).
GRID_EXTRA_RULES = (
    (".path", "stroke: {path}; stroke-width: 4; stroke-linecap: round; opacity: 0.85;"),
    (".pathkey", "fill: {path};"),
    (".bite", "fill: none; stroke: {bite}; stroke-width: 2.5; stroke-dasharray: {bite_dash};"),
    (".tag", "font-size: 14px; font-weight: bold; text-anchor: middle; dominant-baseline: central;"),
    (".tag-b", "fill: {on_dark};"),
    (".tag-w", "fill: {on_light};"),
)
_GRID_COMPARED = ("board", "dark", "light", "last", "path", "bite")

GRID = {
    "default": Palette(
        inks={"board": "#f3e6c4", "edge": "#6b5a3a", "coord": "#444", "dark": "#1f1f1f", "dark_edge": "#000000",
              "light": "#fbfbfb", "light_edge": "#1f1f1f", "last": "#d55e00", "dot": "#d55e00", "dot_ring": "#ffffff",
              "ink": "#111", "path": "#0072b2", "bite": "#cc0000", "on_dark": "#ffffff", "on_light": "#111111"},
        compared=_GRID_COMPARED,
        values={"dark_width": "1", "light_width": "2.5", "dot_width": "1.2", "bite_dash": "4 3"},
    ),
    # A cool grey-blue board, so that the white stones and the orange of the last move stand
    # out from it in every vision; the path blue-violet, a bite brown and dashed.
    "colourblind": Palette(
        inks={"board": "#9fa6d6", "edge": "#3c4270", "coord": "#333", "dark": "#1f1f1f", "dark_edge": "#000000",
              "light": "#fbfbfb", "light_edge": "#1f1f1f", "last": "#ff8c1a", "dot": "#ff8c1a", "dot_ring": "#1f1f1f",
              "ink": "#111", "path": "#3d1fd1", "bite": "#7f4a1a", "on_dark": "#ffffff", "on_light": "#111111"},
        compared=_GRID_COMPARED,
        values={"dark_width": "1", "light_width": "2.5", "dot_width": "1.2", "bite_dash": "4 3"},
    ),
    # Black stones solid, white stones hollow (a white disc in a heavy ring): they differ by
    # filling, as in a printed go diagram. The last move: a heavy cell outline and a white dot
    # ringed in black, which reads on either stone.
    "mono": Palette(
        inks={"board": "#e8e8e8", "edge": "#555555", "coord": "#333", "dark": "#000000", "dark_edge": "#000000",
              "light": "#ffffff", "light_edge": "#000000", "last": "#000000", "dot": "#ffffff", "dot_ring": "#000000",
              "ink": "#000", "path": "#000000", "bite": "#000000", "on_dark": "#ffffff", "on_light": "#000000"},
        compared=_GRID_COMPARED,
        values={"dark_width": "1", "light_width": "3.5", "dot_width": "1.5", "bite_dash": "4 3"},
    ),
}


# -- Hermetica (render/drawers/hermetica.py, templates/hermetica.svg.j2) ---------------------------

HERMETICA_RULES = (
    (".cell", "fill: {ground}; stroke: {edge}; stroke-width: 1;"),
    (".cell.horizon-sun", "fill: {sun_tint}; stroke-width: 2.5;"),
    (".cell.horizon-moon", "fill: {moon_tint}; stroke-width: 2.5;"),
    (".cell.prime", "stroke: {prime}; stroke-width: 3; stroke-dasharray: 5 3;"),
    (".wall", "fill: {wall}; stroke: {wall_edge}; stroke-width: 1;"),
    (".shield-sun", "fill: none; stroke: {sun_mark}; stroke-width: 5;"),
    (".shield-moon", "fill: none; stroke: {moon_mark}; stroke-width: 5; stroke-dasharray: 8 3;"),
    (".shieldlabel", "font-size: 14px; font-weight: bold; fill: {ink}; text-anchor: middle; dominant-baseline: central;"
     " paint-order: stroke; stroke: #ffffff; stroke-width: 3px; stroke-linejoin: round;"),
    (".unit-1", "fill: {sun}; stroke: {sun_edge}; stroke-width: 2.5;"),
    (".unit-2", "fill: {moon}; stroke: {moon_edge}; stroke-width: 2;"),
    (".letter-1", "font-size: {font}px; font-weight: bold; fill: {sun_letter}; text-anchor: middle; dominant-baseline: central;"),
    (".letter-2", "font-size: {font}px; font-weight: bold; fill: {moon_letter}; text-anchor: middle; dominant-baseline: central;"),
    (".path", "stroke: {path}; stroke-width: 3.5; fill: none; stroke-linejoin: round; stroke-linecap: round; marker-end: url(#tip); opacity: 0.9;"),
    (".end", "fill: none; stroke: {last}; stroke-width: 3.5;{end_dash}"),
    (".arrow-shield", "stroke: {shield_move}; stroke-width: 2; fill: none; stroke-dasharray: {shield_dash}; marker-end: url(#tip);"),
    (".arrow-shot", "stroke: {shot}; stroke-width: 3; fill: none; stroke-dasharray: {shot_dash}; marker-end: url(#tip);"),
    (".arrow-push", "stroke: {push}; stroke-width: 3; fill: none; stroke-dasharray: {push_dash}; marker-end: url(#tip);"),
    (".arrow-relocate", "stroke: {relocate}; stroke-width: 3; fill: none; stroke-dasharray: {relocate_dash}; marker-end: url(#tip);"),
    (".capture", "font-size: {capture_size}px; font-weight: bold; fill: {shot}; text-anchor: middle; dominant-baseline: central;"),
    (".newlabel", "font-size: 10px; font-weight: bold; fill: {last}; text-anchor: middle; dominant-baseline: central;"
     " paint-order: stroke; stroke: #ffffff; stroke-width: 3px;"),
    (".newlabel.beside", "font-size: 9px;"),  # beside a Prime hex's name, in its top band
    # Over the lines of the last ply, with a white halo: a line through a Prime hex passes
    # under its word, never across it.
    (".primelabel", "font-size: 11px; font-weight: bold; fill: {prime}; text-anchor: middle; dominant-baseline: central; letter-spacing: 0.5px;"
     " paint-order: stroke; stroke: #ffffff; stroke-width: 3px;"),
    # A hex's name over the lines and rings in its hex, with a halo of the hex's own colour.
    (".cellname", "font-size: 10px; fill: {name}; text-anchor: middle; dominant-baseline: central;"
     " paint-order: stroke; stroke: {ground}; stroke-width: 3px; stroke-linejoin: round;"),
    (".cellname.on-sun", "stroke: {sun_tint};"),
    (".cellname.on-moon", "stroke: {moon_tint};"),
    (".cellname.onwall", "fill: {on_wall}; stroke: {wall};"),
    (".side", "font-size: 13px; font-weight: bold;"),
    (".moonside", "fill: {moon_mark};"),
    (".sunside", "fill: {sun_edge};"),
    (".coord", "font-size: 15px; fill: {coord}; text-anchor: middle; dominant-baseline: central;"),
    (".head", "font-size: 15px; font-weight: bold; fill: {ink};"),
    (".text", "font-size: 13px; fill: {ink};"),
    (".small", "font-size: 12px; fill: {small};"),
    (".result", "font-size: 14px; font-weight: bold; fill: {ink};"),
)
_HERMETICA_COMPARED = ("ground", "sun_tint", "moon_tint", "wall", "sun", "moon", "sun_mark", "moon_mark", "path",
                       "last", "shot", "push", "relocate", "shield_move")
_HERMETICA_DASHES = {"shield_dash": "2 3", "shot_dash": "9 5", "push_dash": "2 4", "relocate_dash": "12 4",
                     "end_dash": ""}

HERMETICA = {
    "default": Palette(
        inks={"ground": "#f3e6c4", "edge": "#6b5a3a", "sun_tint": "#f7d37a", "moon_tint": "#b9c6e4",
              "prime": "#222", "wall": "#4a4a4a", "wall_edge": "#111", "sun_mark": "#b8860b",
              "moon_mark": "#2d4a8a", "ink": "#111", "sun": "#fff8e1", "sun_edge": "#7a5a00",
              "moon": "#1d2a4a", "moon_edge": "#000", "sun_letter": "#3a2a00", "moon_letter": "#ffffff",
              "path": "#222222", "last": "#d55e00", "shield_move": "#b8860b", "shot": "#d00000",
              "push": "#0050c0", "relocate": "#007a3d", "name": "#5a4a2a", "on_wall": "#f4f4f4",
              "coord": "#444", "small": "#333"},
        compared=_HERMETICA_COMPARED,
        values=_HERMETICA_DASHES,
        drawn={"sun_tint": "gold", "moon_tint": "blue", "ends": "ringed",
               "marks": ("red dashes a shot, blue dots a push, green dashes a relocation,",
                         "gold dots a Shield redeployed, × a capture, new: spawned.")},
    ),
    # Eight colours for fourteen roles: a Wall, a Moon unit and the path of the last ply share
    # the dark ink (a filled hex, a diamond, a line with an arrowhead); everything else the last
    # ply did shares one brick red, each with its own dash pattern. A mid-grey mat, so that the
    # white Sun units and both Horizons stand out from it.
    "colourblind": Palette(
        inks={"ground": "#8c8c93", "edge": "#3d3d3d", "sun_tint": "#ffd11a", "moon_tint": "#99c1ff",
              "prime": "#111", "wall": "#1b1b3a", "wall_edge": "#000", "sun_mark": "#762629",
              "moon_mark": "#4c1ef2", "ink": "#111", "sun": "#ffffff", "sun_edge": "#762629",
              "moon": "#1b1b3a", "moon_edge": "#000", "sun_letter": "#111111", "moon_letter": "#ffffff",
              "path": "#1b1b3a", "last": "#d7664c", "shield_move": "#1b1b3a", "shot": "#d7664c",
              "push": "#d7664c", "relocate": "#d7664c", "name": "#111111", "on_wall": "#f4f4f4",
              "coord": "#333", "small": "#222"},
        compared=_HERMETICA_COMPARED,
        values={**_HERMETICA_DASHES, "relocate_dash": "12 4 2 4"},
        drawn={"sun_tint": "yellow", "moon_tint": "light blue", "ends": "ringed",
               "marks": ("red dashes a shot, red dots a push, red dash-dots a relocation,",
                         "dark dots a Shield redeployed, × a capture, new: spawned.")},
    ),
    # Greys only: Sun white circles, Moon black diamonds; the Horizons two greys (and their
    # places, bottom and top); the last ply in black, each kind of mark its own dash pattern.
    "mono": Palette(
        inks={"ground": "#ffffff", "edge": "#555555", "sun_tint": "#dddddd", "moon_tint": "#b0b0b0",
              "prime": "#000", "wall": "#555555", "wall_edge": "#000", "sun_mark": "#000000",
              "moon_mark": "#000000", "ink": "#000", "sun": "#ffffff", "sun_edge": "#000000",
              "moon": "#000000", "moon_edge": "#000", "sun_letter": "#000000", "moon_letter": "#ffffff",
              "path": "#000000", "last": "#000000", "shield_move": "#000000", "shot": "#000000",
              "push": "#000000", "relocate": "#000000", "name": "#333333", "on_wall": "#ffffff",
              "coord": "#333", "small": "#000"},
        compared=_HERMETICA_COMPARED,
        values={**_HERMETICA_DASHES, "relocate_dash": "12 4 2 4", "shield_dash": "1 5",
                "end_dash": " stroke-dasharray: 1 4; stroke-linecap: round;"},
        drawn={"sun_tint": "light grey", "moon_tint": "mid grey", "ends": "ringed in dots",
               "marks": ("dashes a shot, dots a push, dash-dots a relocation,",
                         "fine dots a Shield redeployed, × a capture, new: spawned.")},
    ),
}


# -- crab (render/drawers/crab.py, templates/crab.svg.j2) ------------------------------------------

# Every word of a crab picture is 13 px or more: a phone's screen shows the review page's
# picture (render/drawers/crab.py, BARE_COAST_ROW) at about 11/13 of its size or more, and the page
# never below that (render/review.py), so that no word is read below 11 px.
CRAB_RULES = (
    (".card", "fill: {card}; stroke: {edge}; stroke-width: 1;"),
    (".card.new", "fill: {card_new};"),
    (".coast", "fill: {card}; stroke: {edge}; stroke-width: 1;"),
    (".coast.drawn", "fill: #ffffff; stroke-dasharray: 4 3;"),
    (".shore", "fill: {shore}; stroke: none;"),
    (".drift", "fill: {drift}; stroke: {drift_edge}; stroke-width: 0.8;"),
    (".shell", "stroke: {shell_edge}; stroke-width: 1;"),
    (".red", "fill: {red};"),
    (".orange", "fill: {orange};"),
    (".yellow", "fill: {yellow};"),
    (".blue", "fill: {blue};"),
    (".star", "fill: {star}; stroke: {star_edge}; stroke-width: 1;"),
    (".cap", "fill: {cap}; stroke: {shell_edge}; stroke-width: 1.5;"),
    (".capinner", "fill: {cap_inner}; stroke: {shell_edge}; stroke-width: 1;"),
    (".pool", "fill: {pool}; stroke: {pool_edge}; stroke-width: 1.2; rx: 6;"),
    # The outline of every card in a play area or a hand, where it shows.
    (".cardedge", "stroke: {card_edge}; stroke-width: 2; stroke-linecap: square;"),
    (".newcard", "fill: none; stroke: {newcard}; stroke-width: 3.5;"),
    (".pattern", "fill: none; stroke: {pattern}; stroke-width: 3; stroke-dasharray: {pattern_dash};"),
    (".target", "fill: none; stroke: {target}; stroke-width: 3; stroke-dasharray: {target_dash};"),
    (".wave", "fill: {wave}; fill-opacity: {wave_opacity}; stroke: {wave_edge}; stroke-width: 1.5;"),
    (".hermie", "fill: {hermie}; stroke: {hermie_edge}; stroke-width: 1.2;"),
    (".hermietext", "font-size: 13px; font-weight: bold; fill: {on_hermie}; text-anchor: middle; dominant-baseline: central;"),
    (".wavetext", "font-size: 13px; fill: {on_wave}; text-anchor: middle; dominant-baseline: central;"),
    (".letter", "font-size: 13px; font-weight: bold; fill: {letter}; text-anchor: middle; dominant-baseline: central;"),
    (".cardid", "font-size: 13px; fill: {small}; text-anchor: middle; dominant-baseline: central;"),
    (".legend", "font-size: 12px; fill: {ink};"),
    (".coord", "font-size: 13px; fill: {coord}; text-anchor: middle; dominant-baseline: central;"),
    (".head", "font-size: 15px; font-weight: bold; fill: {ink};"),
    (".subhead", "font-size: 14px; font-weight: bold; fill: {ink};"),
    (".text", "font-size: 13px; fill: {ink};"),
    (".result", "font-size: 14px; font-weight: bold; fill: {ink};"),
)
_CRAB_COMPARED = ("card", "red", "orange", "yellow", "blue", "star", "cap", "pool", "drift", "newcard", "pattern",
                  "target", "wave", "hermie")

CRAB = {
    "default": Palette(
        inks={"card": "#f3e6c4", "card_new": "#fbf3dc", "edge": "#6b5a3a", "card_edge": "#3b2a12", "shore": "#e8dcc0",
              "drift": "#8c5a2b", "drift_edge": "#5a3a1a", "shell_edge": "#333333", "red": "#d62728",
              "orange": "#ff9f1c", "yellow": "#f4e04d", "blue": "#1f77b4", "star": "#cc79a7",
              "star_edge": "#5b2a4a", "cap": "#9a9a9a", "cap_inner": "#d0d0d0", "pool": "#9ad3f0",
              "pool_edge": "#2b7bb9", "newcard": "#d55e00", "pattern": "#009e73", "target": "#7b3294",
              "wave": "#56b4e9", "wave_edge": "#0072b2", "hermie": "#e4572e", "hermie_edge": "#7a2412",
              "on_hermie": "#ffffff", "on_wave": "#0b3c5d", "letter": "#111111", "small": "#333333",
              "ink": "#111111", "coord": "#444444"},
        compared=_CRAB_COMPARED,
        values={"pattern_dash": "5 3", "target_dash": "2 3", "wave_opacity": "0.75"},
    ),
    # Seven colours for fourteen roles: the starfish, the bottle cap, the driftwood and the
    # recreated pattern share the dark ink (a star, a ringed disc, a bar under a symbol, a
    # dashed square), the pool and the Wave the blue of the blue shell (a bar, a band along a
    # Coast card), the card placed and the pattern to recreate a deep blue (solid, dotted),
    # Hermie the orange (a crab with an H). Every shell carries its letter, on the Coast too.
    "colourblind": Palette(
        inks={"card": "#f2d0c7", "card_new": "#f8e4dc", "edge": "#6b4a3a", "card_edge": "#1a1a1a", "shore": "#e6dcd6",
              "drift": "#1a1a1a", "drift_edge": "#000000", "shell_edge": "#1a1a1a", "red": "#803e19",
              "orange": "#d97311", "yellow": "#e6ff40", "blue": "#4e71ff", "star": "#1a1a1a",
              "star_edge": "#000000", "cap": "#1a1a1a", "cap_inner": "#f2d0c7", "pool": "#4e71ff",
              "pool_edge": "#1a1a1a", "newcard": "#1617bd", "pattern": "#1a1a1a", "target": "#1617bd",
              "wave": "#4e71ff", "wave_edge": "#1a1a1a", "hermie": "#d97311", "hermie_edge": "#1a1a1a",
              "on_hermie": "#111111", "on_wave": "#ffffff", "letter": "#111111", "on_dark": "#ffffff",
              "small": "#333333", "ink": "#111111", "coord": "#444444"},
        compared=_CRAB_COMPARED,
        values={"pattern_dash": "5 3", "target_dash": "2 3", "wave_opacity": "1"},
        drawn={"letters": True, "light_letters": ("red", "blue")},
    ),
    # Greys only: the shells four greys from black to white, each with its letter; the
    # starfish a black star, the cap a ringed disc, the pool a white bar, driftwood a black
    # bar; the three marks of a round black, solid, dashed and dotted.
    "mono": Palette(
        inks={"card": "#f2f2f2", "card_new": "#ffffff", "edge": "#555555", "card_edge": "#000000", "shore": "#e0e0e0",
              "drift": "#000000", "drift_edge": "#000000", "shell_edge": "#000000", "red": "#000000",
              "orange": "#6e6e6e", "yellow": "#c8c8c8", "blue": "#ffffff", "star": "#000000",
              "star_edge": "#000000", "cap": "#9a9a9a", "cap_inner": "#ffffff", "pool": "#ffffff",
              "pool_edge": "#000000", "newcard": "#000000", "pattern": "#000000", "target": "#000000",
              "wave": "#bdbdbd", "wave_edge": "#000000", "hermie": "#000000", "hermie_edge": "#000000",
              "on_hermie": "#ffffff", "on_wave": "#000000", "letter": "#000000", "on_dark": "#ffffff",
              "small": "#333333", "ink": "#000000", "coord": "#333333"},
        compared=_CRAB_COMPARED,
        values={"pattern_dash": "5 3", "target_dash": "1 4", "wave_opacity": "1"},
        drawn={"letters": True, "light_letters": ("red", "orange")},
    ),
}
# The light letter on a dark shell, in the palettes that letter every shell.
CRAB_LETTER_RULES = ((".letter.on-dark", "fill: {on_dark};"),)


# -- the printable sheets (render/drawers/grid.py and render/drawers/hermetica.py: `paper`) --------

# A sheet is drawn in black and greys for every palette: it is made to be printed, on any
# printer, and its Horizons are told apart by their places (Sun below, Moon above) and its
# words. The palettes still share the table, so that a sheet is never drawn in anything else.
_SHEET = Palette(
    inks={"paper": "#ffffff", "ink": "#000", "subtitle": "#333", "label": "#333", "horizon": "#d9d9d9",
          "wall": "#555555", "name": "#666666", "on_wall": "#ffffff", "bar": "#000000", "centre": "#000"},
    compared=(),
    values={},
)
SHEET = {name: _SHEET for name in PALETTES}
