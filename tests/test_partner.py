"""The cooperative bot (SPEC §11): an engine's seat in cooperative crab plays its part of the
solver's winning line whenever the solver proves the round winnable; only otherwise does the
search choose. From the reported case: seat 1 played its part of the hint and the engine's
seat answered with a placement of its own search's, and the game, winnable, was lost."""

from __future__ import annotations

import tomllib
from pathlib import Path

from referee.games import GAMES
from referee.games.crab.solver import solve
from referee.play.choices import data_files
from referee.play.partner import winning_part
from referee.play.replay import replay
from referee.record.reading import read_record

CRAB = GAMES["crab"]


def position(path: Path):
    return replay(read_record(str(path))).state


def moves(path: Path) -> list[str]:
    return [entry["move"] for entry in tomllib.loads(path.read_text(encoding="utf-8"))["moves"]]


def test_the_bot_stays_on_the_proven_line_to_the_win(cli):
    made = cli("new", "crab", "-o", "c.toml", "-O", "players=2", "-O", "seed=7", "--bot", "2=1")
    assert made.exit_code == 0, made.output
    path = Path("c.toml")
    # The reported case: seat 1 plays its part of the hint `1: 16 1,0 0 | 2: 10 0,1 0`; the
    # engine answered `2: 10 -1,2 180`, and the game was lost five rounds later.
    assert cli("move", path, "1: 16 1,0 0").exit_code == 0
    assert moves(path) == ["1: 16 1,0 0 | 2: 10 0,1 0"]
    rounds = 1
    while not position(path).over:
        state = position(path)
        found = solve(state, max_positions=20_000)
        assert found.winnable is True, f"round {rounds + 1}: the engine gave a winnable game away"
        mine = found.line[0].split(" | ")[0]  # seat 1 follows the solver's line, its own part
        played = cli("move", path, mine)
        assert played.exit_code == 0, played.output
        assert moves(path)[-1] == found.line[0]  # the engine played its part of the same line
        rounds += 1
    assert position(path).won and rounds == 6
    assert cli("validate", path).exit_code == 0


def test_a_player_off_the_solvers_line_gets_a_round_that_keeps_the_game_winnable():
    options = CRAB.resolve_options({"players": 2, "seed": 7})
    state = CRAB.start(options, CRAB.new_setup(options, data_files(CRAB, options), 7))
    assert solve(state).line[0] == "1: 16 1,0 0 | 2: 10 0,1 0"
    # Seat 1 places another card than the line's: the engine finds its part of another win.
    mine = CRAB.parse_part(state, "1: 1 -2,-2 0")
    bots = winning_part(CRAB, state, mine, [2], seconds=5.0)
    assert bots is not None
    turn = CRAB.begin_turn(state)
    for seat in (1, 2):
        turn = CRAB.act(turn, {**mine, **bots}[seat])
    assert solve(CRAB.end_turn(turn)[1]).winnable is True


def test_where_the_game_is_lost_the_search_chooses():
    """A lost game leaves the engine's part to the search."""
    options = CRAB.resolve_options({"players": 2, "seed": 7})
    state = CRAB.start(options, CRAB.new_setup(options, data_files(CRAB, options), 7))
    # Four rounds that keep Hermie on the shore: the Wave has caught up, as the solver proves at
    # once (the positions between are too many for it to settle in a test's time).
    for _ in range(4):
        places = [CRAB.seat_moves(state, seat)[-1] for seat in (1, 2)]
        turn = CRAB.begin_turn(state)
        for place in places:
            turn = CRAB.act(turn, place)
        state = CRAB.end_turn(turn)[1]
    assert not state.over and solve(state, max_positions=1_000).winnable is False
    mine = {1: CRAB.seat_moves(state, 1)[0]}
    assert winning_part(CRAB, state, mine, [2], seconds=1.0) is None
