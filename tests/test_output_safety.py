"""Output safety: every string a player controls — names, and the free-text options (a deck or
board file's name) — is escaped where it reaches SVG, kept free of control characters where it
reaches a terminal or a mail body, and refused where it would inject a mail header. Checked for
one record of every game, with `<script>`, quotes, `&` and control characters.
"""

from __future__ import annotations

import email
import email.policy
import json
import re
import tomllib
import xml.etree.ElementTree as ET

import pytest
import tomli_w
from typer.testing import CliRunner

from fuzz_support import SAMPLE_BYTES
from referee.cli import app
from referee.record.reading import parse_record
from referee.render.drawing import svg_diagram, text_diagram
from referee.play.replay import replay

HOSTILE = 'Eve <script>alert("x")</script> & "Co" \x1b[31m\x07\x00\u2028 end'
SHOWN = 'Eve <script>alert("x")</script> & "Co" ?[31m??? end'  # as the diagrams show it
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
# One record per game, with the free-text option it has.
RECORDS = {
    "odd": ("odd/odd-in-progress.toml", None),
    "dustin": ("dustin/dustin-in-progress.toml", None),
    "hermit": ("hermit-hex/hermit-hex-in-progress.toml", None),
    "harmijan": ("harmijan/harmijan-in-progress.toml", None),
    "hermetica": ("hermetica/hermetica-in-progress.toml", "board"),
    "crab": ("crab/crab-coop-2-win.toml", "deck"),
}


def hostile_record(game_id: str) -> bytes:
    name, text_option = RECORDS[game_id]
    doc = tomllib.loads(SAMPLE_BYTES[name].decode("utf-8"))
    doc["players"] = {seat: HOSTILE for seat in doc.get("players", {"1": "", "2": ""})}
    if text_option:
        # The content is in [setup]: the option is only the file's name, shown in the title.
        doc["options"][text_option] = HOSTILE
    for entry in doc["moves"]:
        entry.pop("digest", None)  # the options are sealed; these plies become unsealed
    return tomli_w.dumps(doc).encode("utf-8")


def svg_texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)  # well-formed XML: XML 1.0 forbids control characters
    assert not [e for e in root.iter() if e.tag.split("}")[-1] in ("script", "foreignObject")]
    return ["".join(e.itertext()) for e in root.iter() if e.tag.split("}")[-1] == "text"]


@pytest.mark.parametrize("game_id", sorted(RECORDS))
def test_hostile_names_and_options_are_escaped_in_svg_and_plain_in_text(game_id):
    play = replay(parse_record(hostile_record(game_id), "hostile.toml"))
    svg = svg_diagram(play)
    assert "<script" not in svg and "\x1b" not in svg
    texts = svg_texts(svg)
    assert any(SHOWN in t for t in texts), "the name is shown, escaped, not dropped"
    text = text_diagram(play)
    assert not CONTROL.search(text.replace("\n", ""))
    assert SHOWN in text
    for line in text.splitlines():
        assert not line.startswith(" end"), "a line separator in a name forged a line"


@pytest.mark.parametrize("game_id", sorted(RECORDS))
def test_hostile_names_reach_the_terminal_without_control_characters(game_id, tmp_path):
    path = tmp_path / "hostile.toml"
    path.write_bytes(hostile_record(game_id))
    runner = CliRunner()
    for args in (["status"], ["show"], ["show", "--format", "svg"]):
        result = runner.invoke(app, [*args, str(path)])
        assert result.exit_code == 0, result.output
        assert not CONTROL.search(result.stdout.replace("\n", "")), args
    status = runner.invoke(app, ["status", "--json", str(path)])
    assert json.loads(status.stdout)["players"]["1"] == HOSTILE  # JSON escapes, keeps it exact


@pytest.mark.parametrize("name", [
    "Bo <bo@example.org>\r\nBcc: spy@example.org",
    "Bo <bo@example.org>\nSubject: forged",
    "Bo <bo@example.org>, Spy <spy@example.org>",
])
def test_a_name_that_would_inject_a_header_or_a_recipient_is_refused(name, tmp_path):
    path = tmp_path / "g.toml"
    path.write_text(tomli_w.dumps({"format": 1, "game": "odd", "moves": ["b e5"],
                                   "players": {"1": "Ann <ann@example.org>", "2": name}}))
    result = CliRunner().invoke(app, ["mail", str(path), "-o", str(tmp_path / "m.eml")])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert not (tmp_path / "m.eml").exists()


def test_to_that_would_inject_a_header_is_refused(tmp_path):
    path = tmp_path / "g.toml"
    path.write_text('format = 1\ngame = "odd"\nmoves = ["b e5"]\n')
    result = CliRunner().invoke(app, ["mail", str(path), "--to", "x@example.org\r\nBcc: spy@example.org",
                                      "-o", str(tmp_path / "m.eml")])
    assert result.exit_code == 2 and "header" in result.stderr
    assert not (tmp_path / "m.eml").exists()


def test_a_record_file_name_with_a_line_break_cannot_forge_attachment_headers(tmp_path):
    """Found by hand: the attachment's file name went into a header unfiltered (a traceback)."""
    path = tmp_path / 'we"ird\nBcc: spy.toml'
    path.write_text('format = 1\ngame = "odd"\nmoves = ["b e5"]\n'
                    '[players]\n1 = "Ann <ann@example.org>"\n2 = "Bo <bo@example.org>"\n')
    out = tmp_path / "m.eml"
    result = CliRunner().invoke(app, ["mail", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    message = email.message_from_bytes(out.read_bytes(), policy=email.policy.default)
    assert message["Bcc"] is None
    names = [part.get_filename() for part in message.iter_attachments()]
    assert names == ['we"ird_Bcc: spy.toml', 'we"ird_Bcc: spy.svg', 'we"ird_Bcc: spy.png']
    assert [a.addr_spec for a in message["To"].addresses] == ["bo@example.org"]
