"""Pictures for every eye (SPEC §8b): `--palette default|colourblind|mono` on every picture.

The colour-blind palette is measured, not asserted: the colours the drawers draw with are read
from their palette tables (render/palette.py) and from the SVG they write, simulated for
protanopia, deuteranopia and tritanopia with the Machado (2009) model at full severity, and
compared by CIEDE2000, all by colour-science. The mono palette is checked for having no hue at
all and for telling pieces apart by shape or filling.
"""

from __future__ import annotations

import email
import email.policy
import itertools
import re
import shutil
import warnings
from pathlib import Path

import numpy as np
import pytest

with warnings.catch_warnings():  # it notes that the optional plotting libraries are missing
    warnings.simplefilter("ignore")
    import colour

from referee.correspondence import sending as correspondence
from referee.render import diagram as diagrams, show as pictures
from referee.play import reports
from referee.render.formats import PALETTES
from referee.render.drawers import crab, grid, hermetica
from referee.render import palette
from referee.render.drawing import drawn
from referee.render.review import unpack

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_games"
# One sample per drawer whose last ply draws the most kinds of marks.
HARMIJAN = SAMPLES / "harmijan" / "harmijan-5-finished-01.toml"  # a stone's move: path, marks
HERMETICA = SAMPLES / "hermetica" / "hermetica-power-fire-shot.toml"
CRAB = SAMPLES / "crab" / "crab-in-progress.toml"
DRAWERS = [  # (name, palette table, style rules, a sample and a ply it draws fully)
    ("grid", palette.GRID, palette.GRID_RULES + palette.GRID_EXTRA_RULES, HARMIJAN, 30),
    ("hermetica", palette.HERMETICA, palette.HERMETICA_RULES, HERMETICA, None),
    ("crab", palette.CRAB, palette.CRAB_RULES, CRAB, None),
]
VISIONS = {"normal vision": None, "protanopia": "Protanomaly", "deuteranopia": "Deuteranomaly",
           "tritanopia": "Tritanomaly"}
SRGB = colour.RGB_COLOURSPACES["sRGB"]
MIN_DELTA_E = 20.0


def rgb(hex_colour: str) -> tuple[float, float, float]:
    digits = hex_colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    return tuple(int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4))


def seen(colours: list[str], vision: str) -> np.ndarray:
    """CIELAB of sRGB colours as a viewer with `vision` sees them (Machado 2009, severity 1,
    applied to linear RGB)."""
    linear = colour.cctf_decoding(np.array([rgb(c) for c in colours]), function="sRGB")
    if VISIONS[vision] is not None:
        linear = np.clip(linear @ colour.matrix_cvd_Machado2009(VISIONS[vision], 1).T, 0, 1)
    xyz = colour.RGB_to_XYZ(linear, SRGB, apply_cctf_decoding=False)
    return colour.XYZ_to_Lab(xyz, SRGB.whitepoint)


def smallest_delta_e(colours: list[str], vision: str) -> tuple[float, str, str]:
    lab = seen(colours, vision)
    pairs = list(itertools.combinations(range(len(colours)), 2))
    distances = colour.delta_E(lab[[i for i, _ in pairs]], lab[[j for _, j in pairs]], method="CIE 2000")
    k = int(np.argmin(distances))
    return float(distances[k]), colours[pairs[k][0]], colours[pairs[k][1]]


def style_of(svg: str) -> str:
    return re.search(r"<style>(.*?)</style>", svg, re.S)[1]


def svg_of(sample: Path, ply: int | None, palette_name: str) -> str:
    return diagrams.svg_diagram(reports.load(str(sample)), ply, palette_name)


# -- colourblind: measured -------------------------------------------------------------------


# colour-science notes that its tritanopia is Machado's approximation by a shift of the S cone
# (the model the SPEC names); the note is not a fault of the palette.
@pytest.mark.filterwarnings("ignore:.*tritanomaly.*")
@pytest.mark.parametrize("name, table, rules, sample, ply", DRAWERS, ids=[d[0] for d in DRAWERS])
@pytest.mark.parametrize("vision", VISIONS)
def test_colourblind_keeps_every_piece_highlight_and_marker_colour_20_apart_SPEC_8b(
        name, table, rules, sample, ply, vision):
    """Every pair of the distinct colours of pieces, highlights, markers and the ground they
    lie on, as the drawer draws them, is at CIEDE2000 ΔE ≥ 20 in `vision`."""
    chosen = table["colourblind"]
    colours = sorted({chosen.inks[role] for role in chosen.compared})
    # The colours measured are the ones in the picture: its style sheet is the palette's.
    sheet = style_of(svg_of(sample, ply, "colourblind"))
    assert all(line in sheet for line in palette.style(rules, chosen, **_sizes(name)))
    assert all(c in sheet for c in colours)
    assert len(colours) >= 6  # at least the pieces, the ground and the marks of a move
    delta, first, second = smallest_delta_e(colours, vision)
    assert delta >= MIN_DELTA_E, f"{name}: {first} and {second} are ΔE {delta:.1f} apart in {vision}"


def _sizes(name: str) -> dict[str, object]:
    """The sizes a drawer fills into its style sheet besides the palette's values."""
    if name == "grid":
        return {"label_size": round(grid.SVG_UNIT * grid.LABEL_SIZE, 2)}
    if name == "hermetica":
        font = round(hermetica.UNIT * 0.32, 2)
        return {"font": font, "capture_size": font * 1.6}
    return {}


def test_the_default_palette_is_what_the_pictures_were_drawn_in():
    """The default keeps the referee's colours; the other palettes differ from it."""
    svg = svg_of(HARMIJAN, 30, "default")
    assert ".stone-b { fill: #1f1f1f; stroke: #000000; stroke-width: 1; }" in svg
    assert ".lastmark { fill: #d55e00; stroke: #ffffff; stroke-width: 1.2; }" in svg
    assert svg_of(HARMIJAN, 30, None) == svg
    assert len({style_of(svg_of(HARMIJAN, 30, name)) for name in PALETTES}) == 3


# -- mono: greys, and shapes ------------------------------------------------------------------

HUED = re.compile(r"#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b")


def hues(svg: str) -> set[str]:
    """The colours of an SVG (style sheet and attributes) that are not grey."""
    return {c for c in HUED.findall(svg) if len(set(rgb(c))) > 1}


@pytest.mark.parametrize("sample", sorted(SAMPLES.glob("*/*-in-progress.toml")), ids=lambda p: p.stem)
def test_mono_uses_no_hue_in_any_picture_SPEC_8b(sample):
    play = reports.load(str(sample))
    for ply in (0, play.plies // 2, play.plies):
        assert hues(diagrams.svg_diagram(play, ply, "mono")) == set()
        assert hues(drawn(play, ply, "mono").svg) == set()
    page = pictures.review_page(play, palette="mono")
    assert "data:image/svg+xml" in page
    for swatch, _ in drawn(play, play.plies, "mono").key:
        assert swatch is None or hues(swatch) == set()


@pytest.mark.parametrize("game, options", [("odd", {}), ("hermit", {"board": "hex"}), ("hermetica", {"scheme": "dawn"})])
def test_the_printable_sheets_are_black_and_grey_in_every_palette(game, options):
    for name in PALETTES:
        assert hues(pictures.blank_board(game, options, "a4", "svg", palette=name)) == set()


def rule(svg: str, selector: str) -> dict[str, str]:
    body = re.search(re.escape(selector) + r" \{ (.*?) \}", svg)[1]
    return dict(part.strip().split(": ", 1) for part in body.split(";") if part.strip())


def lightness(hex_colour: str) -> float:
    return float(seen([hex_colour], "normal vision")[0][0])


def test_mono_grid_stones_are_solid_and_hollow_not_only_two_colours():
    """Black stones solid, white stones a white disc in a heavy ring: they differ by their
    filling and their ring, and read printed in grey."""
    svg = svg_of(HARMIJAN, 30, "mono")
    dark, light = rule(svg, ".stone-b"), rule(svg, ".stone-w")
    assert lightness(dark["fill"]) < 10 and lightness(light["fill"]) > 95
    assert float(light["stroke-width"]) >= 3 and float(dark["stroke-width"]) < float(light["stroke-width"])
    assert lightness(light["stroke"]) < 10  # the ring of the hollow stone is black
    # The last move's dot: white ringed in black, which shows on either stone.
    dot = rule(svg, ".lastmark")
    assert lightness(dot["fill"]) > 95 and lightness(dot["stroke"]) < 10


def test_mono_hermetica_sides_differ_by_shape():
    """Sun's units are circles, Moon's diamonds, whatever the palette."""
    svg = svg_of(HERMETICA, None, "mono")
    play = reports.load(str(HERMETICA))
    units = play.game.picture(play.position(), play.last_move()).units
    assert svg.count('<circle class="unit-1"') == sum(u.seat == 1 for u in units.values()) > 0
    assert svg.count('<polygon class="unit-2"') == sum(u.seat == 2 for u in units.values()) > 0
    assert '<circle class="unit-2"' not in svg and '<polygon class="unit-1"' not in svg


def test_mono_crab_shells_carry_their_letter_everywhere_and_four_distinct_greys():
    svg = svg_of(CRAB, None, "mono")
    shells = re.findall(r'<circle class="shell (\w+)" cx="([\d.]+)" cy="([\d.]+)"', svg)
    letters = set(re.findall(r'<text class="letter(?: on-dark)?" x="([\d.]+)" y="([\d.]+)">([ROYB])</text>', svg))
    assert len(shells) > 20
    for shell, x, y in shells:
        assert (x, y, crab.SHELL_LETTER[shell]) in letters
    greys = [lightness(rule(svg, f".{shell}")["fill"]) for shell in ("red", "orange", "yellow", "blue")]
    assert all(b - a >= 15 for a, b in zip(greys, greys[1:]))  # black to white, in steps


# -- one style per meaning --------------------------------------------------------------------

MEANINGS = {  # the classes whose looks mean something different, drawer by drawer
    "grid": (palette.GRID, palette.GRID_RULES + palette.GRID_EXTRA_RULES,
             (".stone-b", ".stone-w", ".lastmark", ".path", ".bite", ".cell.last")),
    "hermetica": (palette.HERMETICA, palette.HERMETICA_RULES,
                  (".path", ".end", ".arrow-shield", ".arrow-shot", ".arrow-push", ".arrow-relocate",
                   ".shield-sun", ".shield-moon", ".cell.prime", ".wall")),
    "crab": (palette.CRAB, palette.CRAB_RULES,
             (".cardedge", ".newcard", ".pattern", ".target", ".wave", ".pool", ".drift", ".star", ".hermie")),
}


@pytest.mark.parametrize("drawer", MEANINGS)
@pytest.mark.parametrize("name", PALETTES)
def test_no_two_meanings_share_one_style(drawer, name):
    """Each mark the legend names has a style of its own (colour, dashes, width): the crab's
    recreated pattern and its pattern to recreate no longer share the green dashes."""
    table, rules, classes = MEANINGS[drawer]
    lines = dict(line.split(" { ", 1) for line in palette.style(rules, table[name], label_size=1, font=1, capture_size=1))
    looks = [re.sub(r"font-size: [^;]*;", "", lines[css]) for css in classes]
    assert len(set(looks)) == len(looks), [c for c, look in zip(classes, looks) if looks.count(look) > 1]


# -- the option on every command that draws ---------------------------------------------------


def test_palette_on_show_in_every_format_and_text_is_the_same(cli, tmp_path):
    shutil.copy(HARMIJAN, tmp_path / "game.toml")
    texts = {cli("show", "game.toml", "--palette", name).stdout for name in PALETTES}
    assert len(texts) == 1  # words only: the same in every palette
    for fmt in ("svg", "png", "html", "gif"):
        outputs = set()
        for name in PALETTES:
            result = cli("show", "game.toml", "--ply", "30", "--palette", name, "-o", f"{name}.{fmt}")
            assert result.exit_code == 0, result.output
            outputs.add((tmp_path / f"{name}.{fmt}").read_bytes())
        assert len(outputs) == 3, fmt
    assert hues((tmp_path / "mono.svg").read_text()) == set()
    frames = unpack(re.search(r'<script type="application/json" id="review-data">(.*?)</script>',
                              (tmp_path / "mono.html").read_text(), re.S)[1])
    plies = reports.load(str(HARMIJAN)).plies
    assert len(frames) == plies + 1 and all(hues(frame) == set() for frame in frames)
    bad = cli("show", "game.toml", "--palette", "sepia")
    assert bad.exit_code == 2 and "sepia" in bad.output


def test_palette_on_move_svg_the_picture_refreshed_at_every_move(cli, tmp_path):
    assert cli("new", "odd", "-o", "game.toml").exit_code == 0
    assert cli("move", "game.toml", "b e5", "--svg", "default.svg").exit_code == 0
    result = cli("move", "game.toml", "w d4", "--svg", "mono.svg", "--palette", "mono")
    assert result.exit_code == 0, result.output
    mono = (tmp_path / "mono.svg").read_text()
    assert hues(mono) == set() and hues((tmp_path / "default.svg").read_text())
    assert "<title>" in mono and "<desc>" in mono  # still a whole picture with its words


def test_palette_on_board_svg_and_pdf(cli, tmp_path):
    for name in PALETTES:
        assert cli("board", "hermit", "--palette", name, "-o", f"{name}.pdf").exit_code == 0
        assert cli("board", "hermetica", "--palette", name, "-o", f"{name}.svg").exit_code == 0
        assert (tmp_path / f"{name}.pdf").read_bytes().startswith(b"%PDF")


def test_palette_on_mail_and_remind_reaches_the_attached_pictures(tmp_path):
    record = tmp_path / "game.toml"
    shutil.copy(SAMPLES / "clock" / "odd-iccf-leave-in-progress.toml", record)

    def attachments(message) -> dict[str, bytes]:
        parsed = email.message_from_bytes(bytes(message), policy=email.policy.default)
        return {part.get_filename(): part.get_content() for part in parsed.iter_attachments()}

    for make in (lambda p: correspondence.mail(str(record), "bo@example.org", palette=p),
                 lambda p: correspondence.remind(str(record), "bo@example.org", palette=p)):
        mono = attachments(make("mono"))
        default = attachments(make(None))
        (svg_name,) = [n for n in mono if n.endswith(".svg")]
        (png_name,) = [n for n in mono if n.endswith(".png")]
        svg = mono[svg_name].decode() if isinstance(mono[svg_name], bytes) else mono[svg_name]
        assert hues(svg) == set() and mono[png_name] != default[png_name]
