"""`referee rules GAME` (SPEC §8b): every game's rules in the referee's own words, short enough
to read whole in a terminal or a mail, citing the rulings of its game, with notation examples
that the referee itself accepts — and shipped inside the package, not beside the checkout."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.games import GAMES
from referee.record.reading import read_record
from referee.data.rules_text import rules_text

MAX_LINES, MAX_COLUMNS = 48, 78
CHECKOUT = Path(__file__).resolve().parent.parent

# The rulings that settle each game's open points: its own, and the general ones that apply
# to it (R-G1 play order, R-G2 resigning, R-G3 forced passes). Harmijan's play order is its
# pie rule, R-HJ1, which R-G1 itself defers to.
RULINGS = {
    "odd": {"R-G1", "R-G2", "R-OD1", "R-OD2", "R-OD3"},
    "dustin": {"R-G1", "R-G2", "R-OD1", "R-OD2", "R-OD3"},
    "hermit": {"R-G1", "R-G2", "R-G3", *(f"R-HE{i}" for i in range(1, 6))},
    "harmijan": {"R-G2", "R-G3", *(f"R-HJ{i}" for i in range(1, 9))},
    "hermetica": {"R-G1", "R-G2", *(f"R-HM{i}" for i in range(0, 11))},
    "crab": {"R-G2", "R-CR2a", *(f"R-CR{i}" for i in range(1, 10))},
}

# Hermetica's element setup used by the lines below: after it, Sun's first turn.
HERMETICA_SETUP = ["+F c1", "+E d12", "+W d1", "+F a9", "+E b1", "+W g9"]

# Where each notation example is legal: lines of play from a new game with these options, each
# ply played with `referee move`. Every example a text shows (in backquotes) must be a ply of
# one of its game's lines, so an example is always tried in a position where it is meant.
LINES = {
    "odd": [({}, ["b e5", "w a1"]), ({}, ["resign"])],
    "hermit": [({}, ["c3", "e5"]), ({}, ["resign"])],
    "harmijan": [
        ({}, ["setup b e5 f5 w c3 c4", "white", "e5-f6 d4", "c3xd4 b2"]),
        ({}, ["setup b e5 f5 w c3 c4", "black"]),
        ({}, ["resign"]),
        # `referee games` shows 'c4-c6 f6' and 'c4xc7 e7': lines found by random play.
        ({}, ["setup b b4 c4 w e4 e5", "black", "b4-b3 b5", "e4-f5 f8", "c4-c6 f6"]),
        ({}, ["setup b b2 c3 w d3 e4", "black", "c3-c2 c4", "d3-d4 g7", "b2-b4 f8", "d4-f6 a6",
              "b4-b3 h3", "g7-f7 c7", "b3-b4 b6", "f6-f5 f2", "c4xc7 e7"]),
    ],
    "hermetica": [
        ({"scheme": "draft"}, ["wall c5"]),
        ({}, ["resign"]),
        # A Fire walks up in two turns, shoots Moon's Adept, and the Adept must come back.
        ({}, HERMETICA_SETUP + ["F c1-c2-c3-c4-c5", "pass", "F c5-c6-c7-c8-c9", "pass", "F c9xd9", "+A d9"]),
        # Fire carries its Shield as SPEC §5 spells it: dusk leaves c3…c6 free of Walls.
        ({"scheme": "dusk"}, HERMETICA_SETUP + ["A d4*c3; F c1-c2-c3", "pass", "F c3=c4=c5-c6"]),
        *(({}, HERMETICA_SETUP + [turn]) for turn in (
            "+E e1",
            "A d4-d5*c5",
            "E b1-b2-b3",
            "W d1>d3 d4=c2",
            "W d1>d1 c1=d2",
            "A d4-d3*d2; W d1>d1 d2@c2",
        )),
    ],
    "crab": [
        ({"seed": 4}, ["7 2,0 90"]),
        ({"seed": 4, "players": 2}, ["1: 7 2,0 90 | 2: 6 0,1 0"]),
        ({"seed": 4}, ["resign"]),
    ],
}
LINES["dustin"] = LINES["odd"]

EXAMPLE = re.compile(r"`([^`]+)`")
GAMES_EXAMPLE = re.compile(r"'([^']+)'")  # `referee games` quotes its examples (and forms: <…>)
# Shown by `referee games` but never typed to `referee move`: the referee writes a forced pass
# itself (R-G3), and the seat to move can always place.
NOT_TYPED = {"hermit": {"pass"}}


def games_examples(cli) -> dict[str, set[str]]:
    """The examples on each game's `moves:` line of `referee games`."""
    found: dict[str, set[str]] = {}
    game_id = None
    for line in cli("games").output.splitlines():
        if line and not line[0].isspace():
            game_id = line.split()[0]
        elif line.strip().startswith("moves:"):
            # Not a form (<…>) nor a separator ('; ').
            quoted = {q for q in GAMES_EXAMPLE.findall(line) if "<" not in q and re.search(r"\w", q)}
            found[game_id] = quoted - NOT_TYPED.get(game_id, set())
    return found
RULING = re.compile(r"\bR-[A-Z]+\d+[a-z]?\b")


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_game_has_rules_that_fit_two_screens_of_78_columns(game_id, cli):
    result = cli("rules", game_id)
    assert result.exit_code == 0, result.output
    text = result.output
    assert text == rules_text(GAMES[game_id])
    lines = text.splitlines()
    assert 20 <= len(lines) <= MAX_LINES, f"{game_id}: {len(lines)} lines"
    too_wide = [n for n, line in enumerate(lines, 1) if len(line) > MAX_COLUMNS]
    assert not too_wide, f"{game_id}: lines {too_wide} are wider than {MAX_COLUMNS} columns"
    assert all(line == line.rstrip() for line in lines) and "\t" not in text
    assert GAMES[game_id].name in text.splitlines()[0]


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_rules_cite_exactly_the_rulings_of_their_game(game_id):
    assert game_id in RULINGS, f"write down the rulings of {game_id} here"
    cited = set(RULING.findall(rules_text(GAMES[game_id])))
    assert cited == RULINGS[game_id], (
        f"{game_id}: missing {sorted(RULINGS[game_id] - cited)}, foreign {sorted(cited - RULINGS[game_id])}"
    )


# Who publishes each game's official rules, and the only web addresses the rule texts give:
# a text names the one and never invents another address.
PUBLISHER = {
    "odd": "Nick Bentley", "dustin": "Nick Bentley", "hermit": "Phil Leduc",
    "harmijan": "Saïd Galdseid", "hermetica": "IFF Studios", "crab": "Board Game Circus",
}
ADDRESSES = {"https://sites.google.com/site/theowlsnest02/home/hermit", "hermeticatthegame.com/rules"}
ADDRESS = re.compile(r"\S+\.(?:com|org|net|de)\S*")


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_rules_say_where_the_official_rules_are_and_invent_no_address(game_id):
    text = rules_text(GAMES[game_id])
    official = " ".join(text[text.index("Official rules"):].split())
    assert PUBLISHER[game_id] in official
    assert set(ADDRESS.findall(text)) <= ADDRESSES


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_notation_example_of_rules_and_games_is_a_move_the_referee_accepts_where_it_is_shown(
    game_id, cli, tmp_path
):
    examples = set(EXAMPLE.findall(rules_text(GAMES[game_id])))
    assert len(examples) >= 3, f"{game_id}: the notation needs examples"
    listed = games_examples(cli)[game_id]
    assert listed, f"{game_id}: `referee games` shows no example move"
    played = {ply for _, line in LINES[game_id] for ply in line}
    untried = (examples | listed) - played
    assert not untried, f"{game_id}: no line in this test plays {sorted(untried)}"
    for n, (options, line) in enumerate(LINES[game_id]):
        record = tmp_path / f"{game_id}-{n}.toml"
        args = ["new", game_id, "-o", record]
        for key, value in options.items():
            args += ["-O", f"{key}={value}"]
        assert cli(*args).exit_code == 0
        for ply in line:
            result = cli("move", record, ply)
            assert result.exit_code == 0, f"{game_id}: {ply!r} after {line[:line.index(ply)]}: {result.output}"
            # Shown as the referee writes it: the record keeps the example letter for letter.
            assert read_record(record).moves[-1].move == ply


def test_odd_and_dustin_share_one_text_that_names_both(cli):
    assert cli("rules", "odd").output == cli("rules", "dustin").output
    assert "Dustin" in cli("rules", "dustin").output.splitlines()[0]


def test_hermetica_spells_and_explains_fires_carry_as_spec_5_does_everywhere(cli):
    """One spelling of '=' (SPEC §5): the rules say what it does, and the rules, `referee
    games` and the README all show the same example."""
    text = " ".join(rules_text(GAMES["hermetica"]).split())
    assert "= is a step carrying the Fire's own Shield from under it: `F c3=c4=c5-c6`" in text
    assert "takes it from c3 to c5, then steps alone to c6" in text
    games_line = next(line for line in cli("games").output.splitlines() if "'F c3=c4=c5-c6'" in line)
    assert "(= a step carrying its own Shield)" in games_line
    readme = (CHECKOUT / "README.md").read_text(encoding="utf-8")
    hermetica = readme[readme.index("### Hermetica"):readme.index("### Hermit: Small crab")]
    assert "`F c3=c4=c5-c6`" in hermetica
    # Every Fire move with '=' that the three show is that one.
    carries = set(re.findall(r"F [a-g]\d+[-=][^`' ,;)]*=[^`' ,;)]*", text + games_line + hermetica))
    assert carries == {"F c3=c4=c5-c6"}


def test_game_names_are_read_as_other_commands_read_them(cli):
    result = cli("rules", " HermETica ")
    assert result.exit_code == 0 and result.output.startswith("Hermetica")


def test_an_unknown_game_is_exit_2_naming_the_games(cli):
    result = cli("rules", "chess")
    assert result.exit_code == 2
    assert "unknown game 'chess'" in result.output
    assert all(game_id in result.output for game_id in GAMES)
    assert "Traceback" not in result.output


def test_help_teaches_by_example(cli):
    result = cli("rules", "--help")
    assert result.exit_code == 0
    assert "Example: referee rules hermetica" in result.output


def test_the_readme_sends_players_to_referee_rules_not_to_files_beside_the_checkout():
    readme = (CHECKOUT / "README.md").read_text(encoding="utf-8")
    assert "| `referee rules GAME` |" in readme  # in the command table
    outside = [line for line in readme.splitlines()
               if re.search(r"\.\./shared/(rules|RULINGS|SPEC)|RULINGS\.md|SPEC\.md|\bSPEC §", line)]
    assert not outside, outside


def test_the_texts_ship_in_an_installed_package(tmp_path):
    """Built as pip builds the wheel, from a copy of the sources (no build folder left in the
    checkout), and run from the installed copy: the texts come from the package's data, which
    pyproject.toml's package-data must name."""
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(CHECKOUT / name, source / name)
    for name in ("referee", "templates"):
        shutil.copytree(CHECKOUT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    site = tmp_path / "site"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", site, source],
        capture_output=True, text=True, timeout=600,
    )
    assert build.returncode == 0, build.stderr
    assert sorted(p.name for p in (site / "referee" / "data" / "rules").iterdir()) == [
        "crab.txt", "harmijan.txt", "hermetica.txt", "hermit.txt", "odd.txt",
    ]
    elsewhere = tmp_path / "elsewhere"  # no checkout on the path from here
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=60, cwd=elsewhere, env=env)

    where = run("-c", "import referee; print(referee.__file__)")
    assert where.stdout.startswith(str(site)), where.stdout + where.stderr  # the installed copy
    for game_id in GAMES:
        shown = run("-m", "referee", "rules", game_id)
        assert shown.returncode == 0, shown.stderr
        assert shown.stdout == rules_text(GAMES[game_id])
