"""Pictures are bounded (SPEC §9): names, options and comments are wrapped to the picture's room
or cut with "…", an option value holds at most 200 characters, and no picture is stated wider
than 2,000 px or taller than 20,000 px, so no record makes a huge PNG, GIF or mail.

Each test is named after what a hostile tester found: a 7.5 kB record made a PNG 67,604 px
wide, its GIF ended in a traceback, and `referee mail` of a 21 kB record took 1.6 GB.
"""

from __future__ import annotations

import email
import email.policy
import io
import shutil
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import tomli_w
from PIL import Image

from fuzz_support import SAMPLE_BYTES
from referee.record.reading import parse_record
from referee.render import page
from referee.render.drawing import svg_diagram, text_diagram
from referee.text import TEXT_WIDTH, columns
from referee.play.replay import replay

MANY_WORDS = " ".join(["ab"] * 3_000)  # 9,000 characters, broken only at its spaces
ONE_WORD = "x" * 7_400  # the finding's shape: one word of a 7.5 kB record
WIDE = "漢字😀" * 2_000  # wide characters, two columns each
# One record per drawer: the grid games, Hermetica, and the crab game.
RECORDS = {
    "odd": "odd/odd-in-progress.toml",
    "hermetica": "hermetica/hermetica-in-progress.toml",
    "crab": "crab/crab-coop-2-win.toml",
}


def record_with(sample: str, names: tuple[str, str] = (), **options: object) -> bytes:
    """A sample record with other names (each keeps an address, so mail has a recipient) or
    other options (the options are sealed: its plies become unsealed)."""
    doc = tomllib.loads(SAMPLE_BYTES[sample].decode("utf-8"))
    for seat, name in enumerate(names, 1):
        doc["players"][str(seat)] = f"{name} <seat{seat}@example.org>"
    if options:
        doc["options"].update(options)
        for entry in doc["moves"]:
            entry.pop("digest", None)
    return tomli_w.dumps(doc).encode("utf-8")


def png_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as picture:
        return picture.size


def assert_bounded(width: float, height: float) -> None:
    assert width <= page.MAX_WIDTH and height <= page.MAX_HEIGHT, (width, height)


def test_a_7_5_kB_record_with_a_long_name_gives_a_png_at_most_2000_px_wide(cli, tmp_path):
    (tmp_path / "long.toml").write_bytes(record_with(RECORDS["odd"], (ONE_WORD,)))
    result = cli("show", "long.toml", "-o", "long.png")
    assert result.exit_code == 0, result.output
    assert_bounded(*png_size((tmp_path / "long.png").read_bytes()))


def test_the_gif_of_a_long_name_record_is_made_without_a_traceback(cli, tmp_path):
    (tmp_path / "long.toml").write_bytes(record_with(RECORDS["odd"], (ONE_WORD, MANY_WORDS)))
    result = cli("show", "long.toml", "--ply", "1", "-o", "long.gif")
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    gif = (tmp_path / "long.gif").read_bytes()
    assert gif.startswith(b"GIF89a")
    assert_bounded(*png_size(gif))


def test_mail_of_a_21_kB_record_with_hostile_names_finishes_and_its_png_is_bounded(tmp_path):
    record = record_with("odd/odd-in-progress.toml", (MANY_WORDS, ONE_WORD + " " + MANY_WORDS[:2_000]))
    assert len(record) > 20_000
    (tmp_path / "game.toml").write_bytes(record)
    # A process of its own, with a generous timeout standing guard against a hang.
    done = subprocess.run([sys.executable, "-m", "referee", "mail", "game.toml", "-o", "out.eml"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    message = email.message_from_bytes((tmp_path / "out.eml").read_bytes(), policy=email.policy.default)
    pngs = [part.get_content() for part in message.walk() if part.get_content_type() == "image/png"]
    assert len(pngs) == 1
    assert_bounded(*png_size(pngs[0]))


@pytest.mark.parametrize("length, code", [(200, 0), (201, 1)])
def test_an_option_value_of_201_characters_in_a_record_is_refused_and_200_is_taken(cli, tmp_path, length, code):
    # Hermetica's board option names a file; the board itself is in [setup].
    (tmp_path / "game.toml").write_bytes(record_with(RECORDS["hermetica"], board="b" * length))
    result = cli("validate", "game.toml")
    assert result.exit_code == code, result.output
    if code:
        assert "game.toml" in result.output and "option board" in result.output
        assert "at most 200" in result.output


@pytest.mark.parametrize("length, code", [(200, 0), (201, 2)])
def test_an_option_value_of_201_characters_on_the_command_line_is_refused_and_200_is_taken(
    cli, tmp_path, length, code
):
    deck = "d" * (length - len(".toml")) + ".toml"  # a path of exactly `length` characters
    shutil.copy(Path(__file__).parents[1] / "referee/data/crab-deck-sample.toml", tmp_path / deck[:200])
    result = cli("new", "crab", "-O", f"deck={deck}", "-o", "game.toml")
    assert result.exit_code == code, result.output
    assert (tmp_path / "game.toml").exists() == (code == 0)
    if code:
        assert "option deck" in result.stderr and "at most 200" in result.stderr


def test_a_number_option_of_201_digits_is_refused_on_the_command_line(cli, tmp_path):
    result = cli("new", "crab", "-O", "seed=" + "9" * 201, "-o", "game.toml")
    assert result.exit_code == 2
    assert "option seed" in result.stderr
    assert not (tmp_path / "game.toml").exists()


def lines_of_words(svg: str) -> tuple[float, list[tuple[float, str, str]]]:
    """The drawing's width (its viewBox) and every line of words in it: x, style, text."""
    root = ET.fromstring(svg)
    width = float(root.get("viewBox").split()[2])
    lines = [(float(e.get("x")), e.get("class", "").split()[0], "".join(e.itertext()))
             for e in root.iter() if e.tag.split("}")[-1] == "text"
             and e.get("class", "").split()[:1] in (["head"], ["text"], ["result"])]
    return width, lines


@pytest.mark.parametrize("game", sorted(RECORDS))
@pytest.mark.parametrize("name", [MANY_WORDS, ONE_WORD, WIDE], ids=["many-words", "one-word", "wide"])
def test_long_names_are_wrapped_to_the_picture_and_cut_with_an_ellipsis(game, name):
    play = replay(parse_record(record_with(RECORDS[game], (name, name)), "long.toml"))
    svg = svg_diagram(play)
    root = ET.fromstring(svg)
    assert_bounded(float(root.get("width")), float(root.get("height")))
    width, lines = lines_of_words(svg)
    for x, css, text in lines:
        assert x + page.text_width(text, css) <= width, (css, text[:40])
    pieces = [text for _, _, text in lines if name[:2] in text]
    assert len(pieces) > 2, "the name goes on over several lines"
    assert any(text.endswith("…") for text in pieces), "and is cut where it would go on too long"
    for line in text_diagram(play).splitlines():
        assert columns(line) <= TEXT_WIDTH, line[:40]


def test_a_long_comment_is_cut_in_the_picture_but_kept_in_the_record(tmp_path):
    doc = tomllib.loads(SAMPLE_BYTES[RECORDS["odd"]].decode("utf-8"))
    comment = "m" * 9_000
    doc["moves"][-1]["comment"] = comment
    doc["moves"][-1].pop("digest")
    play = replay(parse_record(tomli_w.dumps(doc).encode("utf-8"), "comment.toml"))
    width, lines = lines_of_words(svg_diagram(play))
    shown = [text for _, _, text in lines if "mmm" in text]
    assert 1 < len(shown) <= 12 and "…" in shown[-1]
    for x, css, text in lines:
        assert x + page.text_width(text, css) <= width
    assert play.record.moves[-1].comment == comment


def test_ordinary_pictures_keep_their_size():
    """Only what would outgrow the room is wrapped: a sample's picture is as wide as its
    drawing and words make it, its stated size its drawing's."""
    play = replay(parse_record(SAMPLE_BYTES[RECORDS["crab"]], "crab.toml"))
    root = ET.fromstring(svg_diagram(play))
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"


def test_a_drawing_larger_than_the_bounds_is_stated_smaller_and_scaled_whole():
    size = page.canvas(5_000.0, 30_000.0)
    assert size["view"] == "0 0 5000.0 30000.0"
    assert_bounded(size["width"], size["height"])
    assert size["width"] / size["height"] == pytest.approx(5_000 / 30_000, rel=1e-3)
    assert page.canvas(622.5, 800.25) == {"width": 622.5, "height": 800.25, "view": "0 0 622.5 800.25"}


def test_a_long_board_path_is_cut_on_the_printable_sheet(cli, tmp_path):
    folder = tmp_path / ("d" * 60) / ("e" * 60)
    folder.mkdir(parents=True)
    shutil.copy(Path(__file__).parents[1] / "referee/data/hermetica-board-standard.toml", folder / "board.toml")
    path = f"{'d' * 60}/{'e' * 60}/board.toml"
    result = cli("board", "hermetica", "-O", f"board={path}", "-o", "sheet.svg")
    assert result.exit_code == 0, result.output
    texts = ["".join(e.itertext()) for e in ET.fromstring((tmp_path / "sheet.svg").read_text()).iter()
             if e.tag.split("}")[-1] == "text"]
    subtitle = next(text for text in texts if text.startswith("scheme dawn, board dddd"))
    assert columns(subtitle) <= page.SHEET_LINE and subtitle.endswith("…")
