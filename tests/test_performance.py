"""What the speed work must not break.

Times live in the benchmark (bench/run.py), never here, not even as a ratio: a busy test
machine fails them (the replay's growth with the plies is a row of the benchmark). What is
tested instead: the incremental group count agrees with a recount (R-OD2, R-OD3), the move
listing's shortcuts drop no action (SPEC §4), and a command imports only what it needs.
"""

from __future__ import annotations

import ast
import functools
import os
import pkgutil
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import referee.games
from referee.games import GAMES, REGISTRY
from referee.games.hermetica import listing as hermetica_listing
from referee.record.values import Record
from referee.record.reading import read_record
from referee.play.replay import replay, start

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"


# -- odd: the group count kept as stones arrive equals a recount (R-OD2, R-OD3) ---------------


@settings(max_examples=60, deadline=None)
@given(size=st.integers(3, 6), min_group=st.integers(2, 6), seed=st.integers(0, 10**6))
def test_odd_group_count_equals_a_recount_after_every_ply_R_OD3(size, min_group, seed):
    game, rng = GAMES["odd"], random.Random(seed)
    state = game.start({"size": size, "min_group": min_group}, {})
    while game.to_move(state) is not None:
        state = game.apply(state, game.random_move(state, rng))
        recount = sum(1 for _, cells in state.grid.components(state.stones) if len(cells) >= min_group)
        assert game.score(state)["groups"] == recount


def test_odd_positions_stay_values_when_play_goes_on():
    game = GAMES["odd"]
    play = start(Record("odd", {"size": 3, "min_group": 2}))
    for move in ("b a1", "b b1", "w c5", "b c1"):
        play.push(move)
    # An earlier position keeps its own count while later plies join its groups.
    assert [game.score(ply.position)["groups"] for ply in play.line] == [0, 0, 1, 1, 1]
    assert play.position(2).stones.count(0) == 17


# -- hermetica: the listing's shortcuts skip only what the rules refuse (SPEC §4) -------------


@pytest.mark.parametrize("sample", ["hermetica-in-progress.toml", "hermetica-power-fire-carries-shield.toml"])
def test_hermetica_listing_is_the_same_without_its_shortcuts(sample, monkeypatch):
    play = replay(read_record(SAMPLES / "hermetica" / sample))
    game = play.game
    positions = [s for s in (ply.position for ply in play.line) if s.phase == "turns" and s.winner is None][::3]
    quick = [[str(a) for a in game.legal_actions(game.begin_turn(s))] for s in positions]
    monkeypatch.setattr(hermetica_listing, "may_extend", lambda *args: True)
    slow = [[str(a) for a in game.legal_actions(game.begin_turn(s))] for s in positions]
    assert quick == slow and any(quick)


# -- start-up: a command imports only what it needs (README, Performance) ---------------------

_PROBE = """
import sys
from referee.cli import main
sys.argv = ["referee", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
print(repr(sorted(sys.modules)), file=sys.stderr)  # repr, not json: json is checked for
"""


@functools.cache
def _modules_after(*args: str) -> frozenset[str]:
    """The modules a command has loaded when it ends (run once per command line)."""
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, check=True
    )
    return frozenset(ast.literal_eval(done.stderr.strip().splitlines()[-1]))


def test_status_imports_one_game_and_no_drawing_code():
    modules = _modules_after("status", str(SAMPLES / "odd" / "odd-5-finished-01.toml"))
    assert "referee.games.odd" in modules
    packages = pkgutil.iter_modules(referee.games.__path__, "referee.games.")
    other_games = {package.name for package in packages if package.ispkg} - {"referee.games.odd"}
    assert not modules & other_games
    assert not _drawing(modules) and not modules & HEAVY
    # typer 0.29 and later load pydantic for every command; pyproject.toml keeps below it.
    assert "pydantic" not in modules


# The libraries of the commands that draw, mail or sign, each loaded where its command starts.
HEAVY = {"jinja2", "PIL", "resvg_py", "fpdf", "email.message", "email.parser", "cryptography"}


def test_move_loads_jinja_and_nothing_of_another_format(tmp_path):
    game = tmp_path / "game.toml"
    subprocess.run([sys.executable, "-m", "referee", "new", "odd", "-o", str(game)], check=True, capture_output=True)
    modules = _modules_after("move", str(game), "b e5")
    assert "jinja2" in modules and "referee.play.game_file" in modules
    assert not modules & (HEAVY - {"jinja2"}) and "referee.render.review" not in modules


def _drawing(modules: set[str]) -> set[str]:
    """The drawing code among `modules`: Jinja and every renderer. (render.formats, the table
    of formats, is read at every start to offer --format; it draws nothing.)"""
    return {m for m in modules if m == "jinja2" or m.startswith("referee.render.")} - {"referee.render.formats"}


def test_other_commands_load_no_club_code():
    """The process pool and the page are loaded by `standings` and `pairings` alone (README:
    Performance)."""
    modules = _modules_after("status", str(SAMPLES / "odd" / "odd-5-finished-01.toml"))
    assert not {"referee.club.standings", "referee.club.ranking", "concurrent.futures", "multiprocessing"} & set(modules)


def test_validate_imports_no_rendering():
    modules = _modules_after("validate", str(SAMPLES / "hermit-hex" / "hermit-hex-finished-01.toml"))
    assert "referee.games.hermit" in modules
    assert not _drawing(modules) and not modules & HEAVY


def test_every_registered_game_answers_to_its_id():
    assert list(GAMES) == list(REGISTRY)
    for game_id in REGISTRY:
        assert GAMES[game_id].id == game_id and game_id in GAMES
    assert GAMES.get("chess") is None and "chess" not in GAMES


def test_status_reads_with_the_compiled_reader_and_loads_no_writer():
    """tomllib is the fallback reader and tomli_w the writer: `status` of a plain record needs
    neither (README: Performance)."""
    pytest.importorskip("rtoml")
    modules = _modules_after("status", str(SAMPLES / "odd" / "odd-5-finished-01.toml"))
    assert "rtoml" in modules
    assert not modules & {"tomllib", "tomli_w", "referee.play.turn"}


# -- the command line ---------------------------------------------------------------------


@pytest.mark.parametrize("args, shown", [
    (["move", "--help"], "referee move [OPTIONS] {FILE} [MOVE]"),
    (["status", "--nope", "x.toml"], "No such option: --nope"),
    (["stat", "x.toml"], "Did you mean 'status'?"),
    (["--help"], "standings"),
])
def test_help_and_a_misspelt_command_read_as_typer_writes_them(args, shown):
    done = subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True, text=True)
    assert shown in done.stdout + done.stderr
    assert "Traceback" not in done.stderr


# -- drawing writes nothing but its output -----------------------------------------------------


def test_drawing_writes_nothing_into_the_installed_package(tmp_path):
    """Code kept beside the templates would be run by the next drawing: whoever could write
    there could make every command run their code. So a drawing leaves the package as it was."""
    from referee.render import templates

    def kept() -> list[Path]:  # Python's own bytecode of the package (and its folder) aside
        return sorted(p for p in templates.FOLDER.rglob("*")
                      if p.suffix != ".pyc" and p.name != "__pycache__")

    before = kept()
    game = tmp_path / "game.toml"
    player = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # as a player runs it
    for args in (["new", "odd", "-o", str(game)], ["show", str(game)], ["show", str(game), "-o", str(tmp_path / "g.html")]):
        subprocess.run([sys.executable, "-m", "referee", *args], check=True, capture_output=True, env=player)
    assert kept() == before
