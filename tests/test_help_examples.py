"""Every command's --help teaches by example, and its examples run as written: each "Example"
of every command's help (as a reader sees it, at 80 columns) runs in a scratch folder that
holds what the example needs (NEEDS below) and exits 0."""

from __future__ import annotations

import re

import pytest
import typer
from typer.testing import CliRunner

from referee.cli import app
from transcripts import Shell

# What each command's examples need, made by shell commands in the scratch folder (which holds a
# copy of sample_games/ and tests/engines/, and is HOME); None: run elsewhere, as said.
NEW_ODD = 'referee new odd -o game.toml --player "1=Ann <ann@example.org>" --player "2=Bo <bo@example.org>"'
NOTED = ('referee key new -o ~/.ann.key > ann.pub && referee key new -o ~/.bo.key > bo.pub && referee new odd '
         '-o game.toml --player "1=Ann <ann@example.org>" --key "1=$(cat ann.pub)" --player '
         '"2=Bo <bo@example.org>" --key "2=$(cat bo.pub)" && referee move game.toml "b e5" '
         '--note "the centre first" --key ~/.ann.key')
NEEDS: dict[str, str | None] = {
    "rules": "",
    "new": "",
    "move": f"{NEW_ODD}  # game.toml: a new game of Odd",
    "show": "cp sample_games/odd/odd-5-finished-01.toml game.toml  # a game of at least 12 plies",
    "board": "",
    "mail": f'{NEW_ODD} && referee move game.toml "b e5"  # a game with the players\' addresses',
    "remind": f"{NEW_ODD} --clock 10/50d  # a game with a clock",
    "status": f"{NEW_ODD} --clock 10/50d  # a game with a clock",
    "receive": (  # Ann's copy, game.toml, and Bo's answer to it, from-bo.eml
        f'{NEW_ODD} && referee move game.toml "b e5" && mkdir bo && cp game.toml bo/ && '
        '(cd bo && referee move game.toml "w d4" && referee mail game.toml -o ../from-bo.eml)'),
    "notes": f"{NOTED}  # a game with Ann's sealed note, her key in ~/.ann.key",
    "reveal": f"{NOTED}  # a game with Ann's sealed note, her key in ~/.ann.key",
    "standings": "cp -r sample_games/odd club  # a folder of records",
    "pairings": "",
    "hint": "cp sample_games/odd/odd-in-progress.toml game.toml  # a game in progress",
    "solve": "referee new crab -o crab.toml -O seed=42  # a crab game",
    "analyse": "cp sample_games/odd/odd-5-finished-01.toml game.toml  # a finished game of some plies",
    "engine": None,  # tests/test_ugi_hostile.py runs it: it reads standard input
    # mybot.py: a program that speaks UGI (the random engine of the tests)
    "match": "cp tests/engines/random_engine.py mybot.py && cp tests/engines/_common.py .",
    "key new": "",  # writes into ~: HOME is the scratch folder
    "serve": "",  # makes its folders; an empty mailbox, handled at once
}
SLOW = {"match"}  # four games of Odd at 200 ms a move: about half a minute


def _commands(group, prefix: str = ""):
    """Every command of the app by its name as typed ("key new" for a subcommand)."""
    for name, command in sorted(group.commands.items()):
        if hasattr(command, "commands"):
            yield from _commands(command, f"{prefix}{name} ")
        else:
            yield f"{prefix}{name}"


def _help(name: str) -> str:
    shown = CliRunner().invoke(app, [*name.split(), "--help"], terminal_width=80)
    assert shown.exit_code == 0, shown.output
    return shown.output


def examples(text: str) -> list[str]:
    """The examples of a help text: each paragraph that starts with "Example", its lines joined
    as the reader would type them; "a; b" is two commands, run one after the other."""
    found = []
    for paragraph in re.split(r"\n\s*\n", text):
        head, colon, rest = paragraph.strip().partition(":")
        if colon and head.startswith("Example"):
            found.append(" ".join(line.strip() for line in rest.strip().splitlines()))
    return found


COMMANDS = list(_commands(typer.main.get_command(app)))
EXAMPLES = [(name, example) for name in COMMANDS for example in examples(_help(name))]


def test_the_commands_that_teach_by_example_are_those_the_table_knows():
    assert {name for name, _ in EXAMPLES} == set(NEEDS)
    assert len(EXAMPLES) >= 15


def _run(name: str, example: str, tmp_path) -> None:
    needs = NEEDS[name]
    if needs is None:
        pytest.skip(f"referee {name}: its example is run by another test")
    shell = Shell.fresh(tmp_path / "scratch")
    if needs:
        code, printed = shell.run(needs)
        assert code == 0, f"setting up for {example!r}:\n{printed}"
    code, printed = shell.run(example)
    assert code == 0, f"referee {name} --help: {example}\nexit {code}:\n{printed}"


@pytest.mark.parametrize(("name", "example"), [e for e in EXAMPLES if e[0] not in SLOW],
                         ids=[e[0] for e in EXAMPLES if e[0] not in SLOW])
def test_each_example_runs_as_written(name, example, tmp_path):
    _run(name, example, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "example"), [e for e in EXAMPLES if e[0] in SLOW],
                         ids=[e[0] for e in EXAMPLES if e[0] in SLOW])
def test_each_slow_example_runs_as_written(name, example, tmp_path):
    _run(name, example, tmp_path)


def test_an_example_is_read_whole_across_the_lines_it_wraps_onto():
    text = _help("show")
    assert examples(text) == [
        "referee show game.toml --ply 12 -o ply12.svg; referee show game.toml -o game.html"]
