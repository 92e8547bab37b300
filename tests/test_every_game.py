"""Every registered game, played at random through the referee (OpenSpiel's habit): a new game
is covered here by its registry line alone, with no edit to this file.

For each game, with every [options] its samples use (its defaults while it has no sample),
`referee new` writes a record and `referee move` plays random legal moves into it, drawn by
the game's own `random_move` with a seeded random.Random; then the record must replay to the
positions the library reached in memory, `validate` must call it valid, `status --json` and
`moves --json` must agree with the replay, `show` must draw it as text and as SVG that parses
as XML, and `verify` must find every ply sealed. The quick suite checks a few plies in; the
whole games run in the slow one. A property test plays whole random games of every game with
options drawn from what each game declares, and reads their records back.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.cli import app
from referee.games import GAMES
from referee.record.values import Entry, Record
from referee.record.reading import parse_record, read_record
from referee.render.drawing import svg_diagram, text_diagram
from referee.play.replay import Replay, replay

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
NAMES = ("Ann <ann@example.org>", "Bo & Co", 'Chidi "C"', "Dagny <dagny@example.net>")
PLIES_IN = 4  # plies played before the quick suite's checks
PLY_CAP = 400  # a random game that has not ended by then is checked where it stands


def _options_of_samples() -> dict[str, list[dict[str, Any]]]:
    """Game id → each distinct [options] table of its samples, in file name order."""
    found: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(SAMPLES.rglob("*.toml")):
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        sets = found.setdefault(doc["game"], [])
        if doc.get("options", {}) not in sets:
            sets.append(doc.get("options", {}))
    return found


SAMPLED = _options_of_samples()
OPTION_SETS = [
    pytest.param(game_id, options, id=f"{game_id}[{','.join(f'{k}={v}' for k, v in options.items())}]")
    for game_id in GAMES
    for options in SAMPLED.get(game_id) or [{}]
]


class Table:
    """One game at the table: its record file, written by the command line, and the same game
    played in memory by the library."""

    def __init__(self, folder: Path, game_id: str, options: dict[str, Any], rng: random.Random):
        self.file = str(folder / "game.toml")
        self.rng = rng
        self.runner = CliRunner()
        game = GAMES[game_id]
        seats = game.seat_count(game.resolve_options(options))
        args = ["new", game_id, "-o", self.file]
        args += [part for key, value in options.items() for part in ("-O", f"{key}={value}")]
        args += [part for seat in range(1, seats + 1) for part in ("--player", f"{seat}={NAMES[seat - 1]}")]
        # The referee's own randomness (a deal, the game's id) drawn from the test's seed too,
        # so that a failure replays.
        with mock.patch.object(os, "urandom", rng.randbytes):
            self.run(*args)
        self.play = replay(read_record(self.file))

    def run(self, *args: str, code: int = 0):
        result = self.runner.invoke(app, list(args))
        assert result.exit_code == code, f"referee {' '.join(args)}: {result.output}"
        return result

    def over(self) -> bool:
        return self.play.outcome() is not None

    def move(self) -> None:
        """One random legal move, played through `referee move` and in memory."""
        text = str(self.play.game.random_move(self.play.state, self.rng))
        self.run("move", self.file, text)
        self.play.push(text)
        self.play.push_forced_passes()

    def check(self) -> None:
        """Everything a player can ask of the record agrees with the game played in memory."""
        mine, game_id = self.play, self.play.game.id
        written = replay(read_record(self.file))  # raises on any fault
        assert written.entries == mine.entries
        assert [text_diagram(written, k) for k in range(written.plies + 1)] == [
            text_diagram(mine, k) for k in range(mine.plies + 1)
        ], "the record replays to other positions than those played"
        assert written.outcome() == mine.outcome()
        assert written.game.score(written.state) == mine.game.score(mine.state)

        assert self.run("validate", self.file).output.startswith("valid ")
        status = json.loads(self.run("status", "--json", self.file).output)
        assert (status["game"], status["ply"], status["to_move"], status["over"]) == (
            game_id, mine.plies, mine.to_move(), self.over())
        assert self.run("status", self.file).output.strip()

        listing = json.loads(self.run("moves", "--json", self.file).output)
        assert listing["to_move"] == mine.to_move()
        if self.over():
            assert listing["moves"] == []
        else:  # something to play: the moves, or their form where they are too many to list
            assert listing["moves"] or listing.get("pattern")

        assert self.run("show", self.file).output.strip()
        for ply in ("0", str(mine.plies)):
            svg = ET.fromstring(self.run("show", self.file, "--ply", ply, "--format", "svg").output)
            assert svg.tag == "{http://www.w3.org/2000/svg}svg"
        assert f"{mine.plies} plies, all sealed" in self.run("verify", self.file).output


def play_and_check(tmp_path, game_id, options, seed: str, plies: int) -> None:
    """Play up to `plies` random plies of the game through the command line, then check it."""
    table = Table(tmp_path, game_id, options, random.Random(seed))
    while table.play.plies < plies and not table.over():
        table.move()
    table.check()


@pytest.mark.parametrize("game_id, options", OPTION_SETS)
def test_a_few_plies_in_the_referee_agrees_with_itself(game_id, options, tmp_path, at):
    at("2026-12-01T12:00:00Z")
    play_and_check(tmp_path, game_id, options, f"{game_id}/{options}", PLIES_IN)


@pytest.mark.slow
@pytest.mark.parametrize("game_id, options", OPTION_SETS)
def test_a_whole_random_game_the_referee_agrees_with_itself(game_id, options, tmp_path, at):
    at("2026-12-01T12:00:00Z")
    play_and_check(tmp_path, game_id, options, f"{game_id}/{options}/whole", PLY_CAP)


def test_every_registered_game_has_samples():
    # The samples give this suite its option sets and the golden files their games.
    missing = [game_id for game_id in GAMES if game_id not in SAMPLED]
    assert not missing, f"games without a sample under sample_games/ (tools/make_samples.py): {missing}"


# -- a property over every game ----------------------------------------------------------------


@st.composite
def game_and_options(draw) -> tuple[str, dict[str, Any]]:
    """A registered game and options drawn from the ranges and choices it declares; options
    that name a file or a seed keep their defaults."""
    game_id = draw(st.sampled_from(list(GAMES)))
    options = {}
    for option in GAMES[game_id].options:
        if option.choices:
            values = st.sampled_from(option.choices)
        elif isinstance(option.default, int) and option.minimum is not None:
            values = st.integers(option.minimum, option.maximum)
        else:
            continue
        if draw(st.booleans()):
            options[option.name] = draw(values)
    return game_id, options


def _new_game(game_id: str, options: dict[str, Any], rng: random.Random) -> Replay:
    """The empty game as `referee new` writes it, or a rejected draw if its checks refuse the
    options (say, a hex Hermit board too big for hex)."""
    try:
        GAMES[game_id].resolve_options(options)
    except ValueError:
        reject()
    with tempfile.TemporaryDirectory() as folder:
        return Table(Path(folder), game_id, options, rng).play


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_and_options(), st.integers(0, 10**6), st.one_of(st.none(), st.integers(0, 30)))
def test_random_legal_games_end_and_round_trip_through_the_record(game_options, seed, resign_at):
    game_id, options = game_options
    rng = random.Random(seed)
    play = _new_game(game_id, options, rng)
    game = play.game
    while play.outcome() is None:
        # SPEC §4: while the game goes on, the seat to move can always act.
        assert play.to_move() is not None
        if play.plies == resign_at:
            play.push("resign")
            break
        play.push(str(game.random_move(play.state, rng)))
        play.push_forced_passes()
    outcome = play.outcome()
    assert outcome is not None and play.to_move() is None
    assert text_diagram(play) and svg_diagram(play)

    record = play.record
    written = Record(record.game, record.options, record.players, record.setup,
                     moves=[Entry(text) for text in play.entries],
                     result={"winners": list(outcome.winners), "reason": outcome.reason})
    again = replay(parse_record(written.to_toml().encode()))
    assert again.entries == play.entries
    assert again.outcome() == outcome
    assert again.game.score(again.state) == game.score(play.state)


# -- the hooks a search calls ------------------------------------------------------------------


def search_walk(game_id: str, options: dict[str, Any], seed: str, plies: int) -> int:
    """Walk a random game through the hooks a search calls (base.Game, section 4) and check at
    every position that they agree with the referee's own `parse` and `apply`; returns the
    plies walked."""
    game = GAMES[game_id]
    with tempfile.TemporaryDirectory() as folder:
        rng = random.Random(seed)
        state = Table(Path(folder), game_id, options, rng).play.state
    seats = game.seat_count(game.resolve_options(options))
    for ply in range(plies):
        outcome = game.outcome(state)
        if outcome is not None:
            assert game.to_move(state) is None
            values = game.returns(state)
            assert len(values) == seats and all(0 <= v <= 1 for v in values)
            assert [seat for seat in range(1, seats + 1) if values[seat - 1] == 1] == sorted(outcome.winners)
            return ply
        assert game.to_move(state) is not None  # SPEC §4: the seat to move can act
        # A random turn, action by action: every action offered is legal, and the turn ends
        # where the hooks say it may.
        turn = game.begin_turn(state)
        while actions := game.legal_actions(turn):
            if game.turn_may_end(turn) and rng.random() < 0.2:
                break
            turn = game.act(turn, rng.choice(actions))
        assert game.turn_may_end(turn), "no action left, yet the turn may not end"
        move, after = game.end_turn(turn)
        # The whole move, written and read back as a record entry, makes the same position.
        again = game.parse(state, str(move))
        assert again == move and str(again) == str(move)
        assert game.apply(state, again) == after
        state = after
        if game.must_pass(state):  # a pass the rules force is implied by the next move
            state = game.apply(state, game.parse(state, "pass"))
    return plies


@pytest.mark.parametrize("game_id, options", OPTION_SETS)
def test_a_search_walks_every_game_by_the_referees_own_rules(game_id, options):
    for seed in range(3):
        search_walk(game_id, options, f"{game_id}/{options}/search/{seed}", 12)


@pytest.mark.slow
@pytest.mark.parametrize("game_id, options", OPTION_SETS)
def test_a_search_walks_whole_games_by_the_referees_own_rules(game_id, options):
    walked = [search_walk(game_id, options, f"{game_id}/{options}/search-whole/{seed}", PLY_CAP)
              for seed in range(3)]
    assert all(plies < PLY_CAP for plies in walked), "a random game of this game never ends"
