"""What a player reads and looks at: lines that fit a mail, names instead of seat
numbers where the record has them, the last comment, messages that name the rule, and the
pictures of Hermetica, the crab game and Harmijan."""

from __future__ import annotations

import ast
import email
import email.policy
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from referee.render import show as pictures

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "sample_games").glob("*/*.toml"))
NS = "{http://www.w3.org/2000/svg}"
HERMETICA = ROOT / "sample_games" / "hermetica" / "hermetica-in-progress.toml"


def svg_root(path, ply=None):
    return ET.fromstring(pictures.diagram(str(path), ply, "svg"))


def by_class(root, css):
    return [e for e in root.iter() if css in (e.get("class") or "").split()]


def text_of(elem):
    return "".join(elem.itertext())


def start_odd(cli, *names):
    players = [f"--player={seat}={name}" for seat, name in enumerate(names, 1)]
    assert cli("new", "odd", "-o", "g.toml", *players).exit_code == 0
    return Path("g.toml")


# -- every line fits a mail ------------------------------------------------------------------


@pytest.mark.parametrize("record", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_show_and_status_of_every_sample_fit_78_columns(cli, record):
    for command in ("show", "status"):
        result = cli(command, record)
        assert result.exit_code == 0, result.output
        wide = [line for line in result.stdout.splitlines() if len(line) > 78]
        assert not wide, f"{command} {record.name}: {wide}"


def test_a_long_name_and_comment_are_wrapped_not_cut_off(cli):
    record = start_odd(cli, "Ann " + "Longname " * 12 + "<ann@example.org>", "Bo")
    result = cli("move", record, "b e5", "--comment", "word " * 60)
    assert result.exit_code == 0
    assert all(len(line) <= 78 for line in result.stdout.splitlines())
    assert result.stdout.count("word") == 60  # every word is still there


# -- messages name the rule, not a document --------------------------------------------------


def _message_strings(tree):
    """The string constants of a module that are not docstrings."""
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docs.add(id(body[0].value))
    return [n.value for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


def test_no_message_a_player_reads_points_to_a_document():
    found = []
    for module in sorted((ROOT / "referee").rglob("*.py")):
        for text in _message_strings(ast.parse(module.read_text(encoding="utf-8"))):
            if re.search(r"\bSPEC\b|RULINGS\.md|README", text):
                found.append(f"{module.relative_to(ROOT)}: {text!r}")
    assert not found, found


def test_a_cell_that_is_not_on_the_hermetica_board_is_explained_in_words(cli, tmp_path):
    record = tmp_path / "h.toml"
    record.write_bytes(HERMETICA.read_bytes())
    result = cli("move", record, "A a2-z9")
    assert result.exit_code == 1
    assert "z9 is not a cell of this board (columns a–g" in result.stderr and "SPEC" not in result.stderr


# -- --as, resignation, conditional moves -----------------------------------------------------


def test_as_a_seat_the_game_does_not_have_says_which_seats_it_has(cli):
    record = start_odd(cli, "Ann", "Bo")
    result = cli("move", record, "b e5", "--as", "3")
    assert result.exit_code == 2  # SPEC §8b: a seat the game does not have is a usage error
    assert "no seat of this game is '3'" in result.stderr and "(seats: 1 Ann, 2 Bo)" in result.stderr
    assert "seat 3 is not to move" not in result.stderr


def test_after_a_resignation_no_line_says_who_would_win(cli):
    record = ROOT / "sample_games" / "odd" / "odd-5-resign.toml"
    for command in ("status", "show"):
        out = cli(command, record).stdout
        assert "would win" not in out and "Emeka Demo wins: Dagny Testperson resigned" in out
    # While the game goes on, the parity is announced with the player it favours (R-OD3).
    assert "(Fumiko Fictive would win)" in cli("status", ROOT / "sample_games" / "odd" / "odd-in-progress.toml").stdout


def test_conditional_moves_note_is_for_the_opponents_reply_and_counts_in_words(cli):
    record = start_odd(cli, "Ann", "Bo")
    result = cli("move", record, "b e5", "--if", "w d4", "--then", "b c3", "--if", "w f6", "--then", "b d5")
    assert result.exit_code == 0, result.output
    assert "2 conditional moves left for your opponent's reply (Bo)." in result.stdout
    assert "(s)" not in result.stdout
    one = cli("move", record, "w a1", "--if", "b b1", "--then", "w c1")
    assert "1 conditional move left for your opponent's reply (Ann)." in one.stdout


# -- names where the record has them -----------------------------------------------------------


def test_the_player_to_move_is_named_in_status_diagram_and_mail(cli):
    record = start_odd(cli, "Ann <ann@example.org>", "Bo <bo@example.org>")
    for move in ("b e5", "w d4", "b e6"):
        assert cli("move", record, move).exit_code == 0
    assert cli("status", record).stdout.splitlines()[-1] == "Bo to move"
    assert cli("show", record).stdout.splitlines()[-1] == "Bo to move"
    assert "Ply 3: b e6 (Ann)" in cli("show", record).stdout
    # status --json keeps the contract's sentence (SPEC §4).
    assert json.loads(cli("status", record, "--json").stdout)["result"] == "Seat 2 to move"
    assert cli("mail", record, "-o", "m.eml").exit_code == 0
    message = email.message_from_bytes(Path("m.eml").read_bytes(), policy=email.policy.default)
    assert message["Subject"] == "Odd: ply 3, b e6 (Bo to move)"
    assert "Bo to move" in message.get_body(("plain",)).get_content()


def test_without_names_the_seat_is_named(cli):
    record = start_odd(cli)
    assert cli("move", record, "b e5").exit_code == 0
    out = cli("show", record).stdout
    assert "Ply 1: b e5 (seat 1)" in out and out.splitlines()[-1] == "Seat 2 to move"


def test_the_winner_and_the_resigner_are_named_SPEC_8b(cli):
    record = start_odd(cli, "Ann", "Bo <bo@example.org>")
    assert cli("move", record, "resign").exit_code == 0
    assert cli("status", record).stdout.splitlines()[-1] == "Bo wins: Ann resigned"
    # JSON and the record keep the seat numbers (SPEC §4).
    assert json.loads(cli("status", record, "--json").stdout)["result"] == "Seat 2 wins: seat 1 resigned"
    assert 'reason = "seat 1 resigned"' in Path(record).read_text()


# -- the last comment --------------------------------------------------------------------------


def test_the_last_comment_is_shown_in_text_svg_and_mail(cli):
    record = start_odd(cli, "Ann <ann@example.org>", "Bo <bo@example.org>")
    comment = 'the centre <b>&"bold"</b>'
    assert cli("move", record, "b e5", "--comment", comment).exit_code == 0
    line = f"Comment, ply 1 (Ann): “{comment}”"
    assert line in cli("show", record).stdout
    svg = pictures.diagram(str(record), None, "svg")
    assert "&lt;b&gt;" in svg and "<b>" not in svg  # escaped
    assert any(text_of(t) == line for t in ET.fromstring(svg).iter(NS + "text"))
    assert cli("mail", record, "-o", "m.eml").exit_code == 0
    message = email.message_from_bytes(Path("m.eml").read_bytes(), policy=email.policy.default)
    assert line in message.get_body(("plain",)).get_content()
    # A round later the comment has been answered: it is not shown any more.
    for move in ("w d4", "b e6"):
        assert cli("move", record, move).exit_code == 0
    assert "Comment" not in cli("show", record).stdout


# -- Hermetica ----------------------------------------------------------------------------------


def test_hermetica_svg_names_every_hex_light_on_walls():
    root = svg_root(HERMETICA)
    names = {text_of(t): t for t in by_class(root, "cellname")}
    assert len(names) == 72
    walls = {text_of(t) for t in by_class(root, "onwall")}
    assert "c9" in walls and "d5" not in walls  # dawn's walls (RULINGS)
    css = "".join(text_of(s) for s in root.iter(NS + "style"))
    light = re.search(r"\.cellname\.onwall\s*\{[^}]*fill:\s*#([0-9a-f]{6})", css)[1]
    assert int(light[:2], 16) > 0xC0, "names on walls are light"


def test_hermetica_svg_draws_each_units_turn_as_one_path_with_ringed_ends():
    # Ply 30: "+A d9; F c10-d10-e9-e8=d8": the Fire's four steps are one line, c10 to d8.
    root = svg_root(HERMETICA)
    paths = by_class(root, "path")
    assert len(paths) == 1
    points = paths[0].get("points").split()
    assert len(points) == 5
    assert len(by_class(root, "end")) == 2
    assert not by_class(root, "arrow-step")


def test_hermetica_prime_and_horizon_labels_are_legible():
    root = svg_root(HERMETICA)
    css = "".join(text_of(s) for s in root.iter(NS + "style"))
    for label in ("primelabel", "shieldlabel", "side"):
        size = float(re.search(r"\." + label + r"\s*\{[^}]*font-size:\s*([0-9.]+)px", css)[1])
        assert size >= 11, f"{label} at {size}px"
    sides = [text_of(t) for t in by_class(root, "side")]
    assert any("Moon's Horizon" in t and "d9" in t for t in sides)
    assert any("Sun's Horizon" in t and "d4" in t for t in sides)
    assert len(by_class(root, "primelabel")) == 2


def test_hermetica_text_marks_the_last_turn_and_prints_it_once(cli):
    out = cli("show", HERMETICA).stdout
    assert out.count("F c10-d10-e9-e8=d8") == 1 and out.count("+A d9") == 1
    board = out.split("\n\n")[1]
    for cell in ("(a d9 )", "(  c10)", "(  d10)", "(  e9 )", "(  e8 )"):  # the Adept back, the Fire's path
        assert cell in board
    assert "{f d8 }" in board  # where the Fire carried Moon's Shield
    assert "(..) touched by the last ply" in out
    # The spawn counts appear once: in the status lines.
    assert out.count("to spawn") == 2 and "elements spawned" not in out


# -- the crab game ------------------------------------------------------------------------------


CRAB = ROOT / "sample_games" / "crab" / "crab-in-progress.toml"


def test_crab_text_shows_the_cards_in_hand(cli):
    out = cli("show", CRAB).stdout
    assert "Hand: 2 cards" in out and "card 13" in out and "card 2" in out
    assert "beach B*O" in out  # card 13's beach (the sample deck)
    assert "H Hermie  W the Wave" in out


def test_crab_svg_shows_the_cards_in_hand_and_a_legend():
    root = svg_root(CRAB)
    titles = [text_of(t) for t in root.iter(NS + "title")]
    assert sum(t.startswith("card 13:") for t in titles) == 7  # six cells and the beach
    words = [text_of(t) for t in by_class(root, "legend")]
    for word in ("R red shell", "O orange shell", "Y yellow shell", "B blue shell", "starfish",
                 "bottle cap", "pool", "driftwood", "Hermie", "the Wave"):
        assert word in words


# -- Harmijan -----------------------------------------------------------------------------------


def test_harmijan_legend_draws_the_moved_stone_as_an_arrow_and_the_dot_leaves_the_number_clear():
    record = ROOT / "sample_games" / "harmijan" / "harmijan-5-finished-01.toml"
    root = svg_root(record)
    legend = next(g for g in root.iter(NS + "g") if g.get("class") == "legend")
    assert [e.get("marker-end") for e in legend.iter(NS + "line")] == ["url(#arrowhead)"]
    assert not [c for c in legend.iter(NS + "circle") if c.get("class") == "pathkey"]
    tags = [(float(t.get("x")), float(t.get("y"))) for t in root.iter(NS + "text")
            if "tag" in (t.get("class") or "").split()]
    dots = [(float(c.get("cx")), float(c.get("cy"))) for c in root.iter(NS + "circle")
            if c.get("class") == "lastmark" and c not in list(legend.iter(NS + "circle"))]
    assert dots and tags
    for dx, dy in dots:
        assert all(abs(dx - tx) > 7 or abs(dy - ty) > 7 for tx, ty in tags), "the dot covers a number"


# -- shell completion ---------------------------------------------------------------------------


def test_shell_completion_completes_commands_and_offers_its_install_options():
    from typer.testing import CliRunner

    from referee.cli import app

    runner = CliRunner()
    env = {"_REFEREE_COMPLETE": "complete_bash", "COMP_WORDS": "referee sta", "COMP_CWORD": "1"}
    result = runner.invoke(app, [], env=env, prog_name="referee")
    assert sorted(result.stdout.split()) == ["standings", "status"]
    help_text = runner.invoke(app, ["--help"], prog_name="referee").stdout
    assert "--install-completion" in help_text and "--show-completion" in help_text
