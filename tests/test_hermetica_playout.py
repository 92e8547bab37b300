"""Hermetica for a search: the playout (games/hermetica/playout.py) plays only turns the referee
accepts (R-HM2…R-HM10), the guess at a cut (evaluate.py) is a share in 0–1 that sees the two
sides alike and a won game as won, and the faster listing (listing.py) lists exactly what the
listing always listed (SPEC §4 `moves`): the same actions, in the same order.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import replace
from pathlib import Path

import pytest

from referee.search.mcts import Search
from referee.errors import IllegalMoveError
from referee.games import GAMES
from referee.games.hermetica import evaluate as guess, listing, playout as fast
from referee.games.hermetica.board import MOON, SUN
from referee.games.hermetica.moves import Action, Shot, Slide, Spawn, Steps, Turn
from referee.games.hermetica.position import (
    ACTIONS_PER_TURN, ELEMENTS, SHOT_RANGE, STEPS, HermeticaState, Progress, Unit,
)
from referee.games.hermetica.rules import act
from referee.record.values import Record
from referee.record.reading import read_record
from referee.play.replay import replay, start

GAME = GAMES["hermetica"]
SAMPLES = Path(__file__).resolve().parent.parent / "sample_games" / "hermetica"


def in_play(rng: random.Random, scheme: str = "dawn", turns: int = 0) -> HermeticaState:
    """A position after the setup plies (R-HM1), then up to `turns` playout turns, each
    applied by the referee."""
    state = start(Record("hermetica", {"scheme": scheme})).state
    while state.phase != "turns":
        state = GAME.apply(state, GAME.random_move(state, rng))
    for _ in range(turns):
        if state.winner is not None:
            break
        played: list = []
        fast.play_turn(state, rng, played.append)
        state = GAME.apply(state, Turn(played[0]))
    return state


# -- every playout turn is a turn the referee accepts -------------------------------------------


def test_every_playout_turn_is_one_the_referee_accepts_R_HM2_to_R_HM10():
    rng = random.Random(20260302)
    turns = wins = returns = actions = 0
    for k in range(120):
        state = in_play(rng, ("dawn", "noon", "dusk", "draft")[k % 4])
        played: list = []
        ended = fast.play(state, rng, 300, played.append)
        for entry in played:
            assert state.winner is None
            state = GAME.apply(state, Turn(entry))  # IllegalMoveError if the referee refuses it
            actions += len(entry)
            returns += any(isinstance(a, Spawn) and a.kind == "A" for a in entry)
        turns += len(played)
        assert state.position_key() == ended.position_key()
        assert (state.plies, state.reserve, state.winner) == (ended.plies, ended.reserve, ended.winner)
        wins += ended.winner is not None
    assert turns > 1500 and actions > 3000
    assert wins > 100, "the guided playouts should mostly reach a Horizon (R-HM10)"
    assert returns, "no captured Adept came back: R-HM4 went untested"


def test_a_playout_takes_the_win_when_its_adept_can_reach_the_horizon_R_HM10():
    state = in_play(random.Random(1))
    grid = state.board.grid
    units: list[Unit | None] = [None] * len(grid)
    units[grid.cell("d10")] = Unit(SUN, "A", 0)  # d11 and d12 empty: two steps home
    units[grid.cell("d9")] = Unit(MOON, "A", 1)
    state = replace(state, units=tuple(units))
    for seed in range(20):
        after = fast.play_turn(state, random.Random(seed))
        assert after.winner == SUN


def test_a_win_a_playout_reaches_later_counts_less_than_the_win_now_R_HM10():
    state = in_play(random.Random(1))
    grid = state.board.grid
    units: list[Unit | None] = [None] * len(grid)
    units[grid.cell("d10")] = Unit(SUN, "A", 0)
    units[grid.cell("d9")] = Unit(MOON, "A", 1)
    state = replace(state, units=tuple(units))
    passed = GAME.end_turn(GAME.begin_turn(state))[1]  # Sun gives its turn away
    values = [GAME.playout(passed, random.Random(seed))[0] for seed in range(10)]
    assert max(values) < 1.0 and min(values) > 0.5  # still Sun's game, but not the win itself
    won = GAME.act(GAME.begin_turn(state), fast._winning_step(state, grid.cell("d10")))
    assert GAME.playout(GAME.end_turn(won)[1], random.Random(0)) == (1.0, 0.0)


def test_a_playout_is_the_same_under_the_same_seed():
    state = in_play(random.Random(2), turns=3)
    logs = []
    for _ in range(2):
        played: list = []
        fast.play(state, random.Random(42), 30, played.append)
        logs.append([[str(a) for a in entry] for entry in played])
    assert logs[0] == logs[1]
    assert GAME.playout(state, random.Random(9)) == GAME.playout(state, random.Random(9))


def test_a_search_is_the_same_under_the_same_seed():
    state = in_play(random.Random(3), turns=2)
    found = [Search(GAME, state, seed=5).run(iterations=12) for _ in range(2)]
    assert str(found[0].move) == str(found[1].move) and found[0].visits == found[1].visits


def test_playouts_from_the_setup_plies_play_them_first_R_HM1():
    state = start(Record("hermetica", {"scheme": "draft"})).state
    values = GAME.playout(state, random.Random(4))
    assert len(values) == 2 and sum(values) == pytest.approx(1.0)


# -- the guess at a cut ---------------------------------------------------------------------------


def turned(state: HermeticaState, cell: int | None) -> int | None:
    """The hex a half turn of the standard mat takes `cell` to."""
    if cell is None:
        return None
    grid = state.board.grid
    q, r = grid.coords[cell]
    other = len(grid.lengths) - 1 - q
    return grid.index[(other, grid.lengths[other] - 1 - r)]


def half_turn(state: HermeticaState) -> HermeticaState:
    """The position turned by half a turn, Sun and Moon swapped, the other side to move: the
    same game seen from the other chair."""
    units: list[Unit | None] = [None] * len(state.units)
    for cell, unit in enumerate(state.units):
        if unit is not None:
            units[turned(state, cell)] = Unit(3 - unit.seat, unit.kind, unit.uid)
    return replace(
        state,
        plies=state.plies + 1,
        walls=frozenset(turned(state, c) for c in state.walls),
        shields=(turned(state, state.shields[1]), turned(state, state.shields[0])),
        units=tuple(units),
        reserve=(state.reserve[1], state.reserve[0]),
    )


def test_the_half_turn_is_the_standard_mats_symmetry():
    state = in_play(random.Random(5))
    board = state.board
    assert {turned(state, c) for c in board.horizons[SUN]} == board.horizons[MOON]
    assert turned(state, board.primes[SUN]) == board.primes[MOON]
    for walls in board.schemes.values():
        assert {turned(state, c) for c in walls} == walls
    assert half_turn(half_turn(state)).position_key() == state.position_key()


def test_evaluate_is_a_share_in_0_to_1_and_the_same_for_either_side_R_HM10():
    rng = random.Random(6)
    for k in range(30):
        state = in_play(rng, ("dawn", "noon", "dusk")[k % 3], turns=rng.randrange(0, 12))
        value = GAME.evaluate(state)
        assert all(0 <= v <= 1 for v in value) and sum(value) == pytest.approx(1.0)
        if state.winner is None:
            assert GAME.evaluate(half_turn(state)) == pytest.approx(value[::-1])


def test_evaluate_of_a_won_game_is_the_win_R_HM10():
    rng = random.Random(7)
    state = in_play(rng)
    while state.winner is None:
        state = fast.play_turn(state, rng)
    assert GAME.evaluate(state) == GAME.returns(state)
    assert GAME.playout(state, rng) == GAME.returns(state)


def test_evaluate_favours_the_adept_nearer_the_other_horizon_R_HM5_R_HM10():
    state = in_play(random.Random(8))
    grid = state.board.grid
    units = [None if u is not None and u.kind == "A" and u.seat == SUN else u for u in state.units]
    units[grid.cell("d8")] = Unit(SUN, "A", 0)
    ahead = replace(state, units=tuple(units))
    assert guess.turns_to_win(ahead, SUN) < guess.turns_to_win(ahead, MOON)
    assert GAME.evaluate(ahead)[0] > GAME.evaluate(state)[0] > 0.5  # Sun to move, and closer
    captured = replace(state, units=tuple(None if u is not None and u.kind == "A" and u.seat == SUN else u
                                          for u in state.units))
    assert GAME.evaluate(captured)[0] < GAME.evaluate(state)[0]  # R-HM4: a turn lost


# -- the listing lists what it always listed (SPEC §4) ------------------------------------------
# The listing as it stood before it walked a unit's paths one step at a time: every candidate
# path replayed from the turn's position by `act`, with no shortcut at all.


def listed_by_act(state: HermeticaState, progress: Progress) -> list[Action]:
    if state.winner is not None or progress.spent >= ACTIONS_PER_TURN:
        return []
    seat, board = state.turn, state.board
    grid, names = board.grid, board.grid.names
    found: list[Action] = []

    def legal(action: Action) -> HermeticaState | None:
        try:
            return act(state, progress, action, None)[0]
        except IllegalMoveError:
            return None

    if progress.spent + 2 <= ACTIONS_PER_TURN:
        kinds = ["A"] if state.adept(seat) is None and progress.done == 0 else []
        kinds += [k for k in ELEMENTS if state.reserve[seat - 1][ELEMENTS.index(k)]]
        for kind in kinds:
            cells = sorted(board.horizons[seat] | {board.primes[seat]})
            found += [a for c in cells if legal(a := Spawn(names, kind, c)) is not None]
    if progress.obliged and progress.done == 0:
        return [a for a in found if isinstance(a, Spawn) and a.kind == "A"]
    for cell, unit in enumerate(state.units):
        if unit is None or unit.seat != seat or unit.uid in progress.acted:
            continue
        if unit.kind == "W":
            found += _water_by_act(state, cell, legal)
            continue
        found += _walks_by_act(state, cell, unit.kind, {"A": "-*", "F": "-=", "E": "-"}[unit.kind], legal)
        if unit.kind == "F":
            for direction in grid.directions:
                for target in list(grid.ray(cell, direction))[:SHOT_RANGE]:
                    if state.units[target] is not None or state.barrier(target) is not None:
                        if legal(shot := Shot(names, cell, target)) is not None:
                            found.append(shot)
                        break
    return found


def _walks_by_act(state: HermeticaState, cell: int, kind: str, ops: str, legal) -> list[Action]:
    names = state.board.grid.names
    seen = {state.position_key()}
    found = []
    frontier = deque([((), cell)])
    limit = STEPS[kind] + (1 if kind == "A" else 0)
    while frontier:
        path, pos = frontier.popleft()
        if len(path) >= limit:
            continue
        for op in ops:
            for nb in state.board.grid.neighbours[pos]:
                action = Steps(names, kind, cell, path + ((op, nb),))
                after = legal(action)
                if after is None or (key := after.position_key()) in seen:
                    continue
                seen.add(key)
                found.append(action)
                if after.winner is None:
                    frontier.append((action.ops, nb if op != "*" else pos))
    return found


def _water_by_act(state: HermeticaState, cell: int, legal) -> list[Action]:
    grid, names = state.board.grid, state.board.grid.names
    seen = {state.position_key()}
    found = []
    for direction in grid.directions:
        stop = cell
        while (nxt := grid.step(stop, direction)) is not None and state.empty(nxt):
            stop = nxt
        collided = grid.step(stop, direction)
        candidates: list[Action] = [Slide(names, cell, stop)]
        if collided is not None and not state.empty(collided):
            for dest in sorted(set(grid.neighbours[stop]) | set(grid.neighbours[collided])):
                candidates.append(Slide(names, cell, stop, (collided, "=", dest)))
                candidates.append(Slide(names, cell, stop, (collided, "@", dest)))
        for action in candidates:
            after = legal(action)
            if after is not None and (key := after.position_key()) not in seen:
                seen.add(key)
                found.append(action)
    return found


def turns_to_compare(rng: random.Random, every: int, games: int) -> list:
    """Turns to list: every `every`-th position of the sample games, positions of `games`
    playouts under every scheme, and each of them again after one and two actions."""
    begun = []
    for path in sorted(SAMPLES.glob("*.toml")):
        play = replay(read_record(path))
        begun += [GAME.begin_turn(p.position) for p in play.line
                  if p.position.phase == "turns" and p.position.winner is None]
    begun = begun[::every]
    for k in range(games):
        state = in_play(rng, ("dawn", "noon", "dusk", "draft")[k % 4], turns=rng.randrange(0, 25))
        if state.winner is None:
            begun.append(GAME.begin_turn(state))
    later = []
    for turn in begun:
        for _ in range(2):
            actions = GAME.legal_actions(turn)
            if not actions:
                break
            turn = GAME.act(turn, rng.choice(actions))
            later.append(turn)
    return begun + later


def same_listings(turns: list) -> int:
    listed = 0
    for turn in turns:
        quick = [str(a) for a in listing.next_actions(turn.after, turn.progress)]
        assert quick == [str(a) for a in listed_by_act(turn.after, turn.progress)]
        listed += len(quick)
    return listed


def test_the_listing_lists_what_act_alone_lists_in_the_same_order_SPEC_4():
    turns = turns_to_compare(random.Random(20260303), every=6, games=6)
    assert len(turns) > 100 and same_listings(turns) > 10_000


@pytest.mark.slow
def test_the_listing_lists_what_act_alone_lists_on_every_sample_position_and_more_SPEC_4():
    turns = turns_to_compare(random.Random(20260304), every=1, games=60)
    assert len(turns) > 700 and same_listings(turns) > 70_000


# -- the actions a playout reports (AMAF: referee/search/grave.py) ------------------------------


def test_a_playout_reports_each_action_as_the_game_codes_it_for_its_side():
    # An action's code is its side, what it is and where it ends (Hermetica.action_code): the
    # codes a playout reports are those of its actions, each coded in the turn where the
    # referee makes it; and asking for them changes nothing else.
    rng = random.Random(41)
    for k in range(16):
        state = in_play(rng, ("dawn", "noon", "dusk", "draft")[k % 4], turns=rng.randrange(0, 6))
        if state.winner is not None:
            continue
        seed, limit = rng.randrange(10**6), (1, 4)[k % 2]
        codes: list[int] = []
        got = GAME.playout(state, random.Random(seed), limit, codes=codes)
        assert got == GAME.playout(state, random.Random(seed), limit)
        played: list = []
        fast.play(state, random.Random(seed), limit, played.append)
        position, expected = state, []
        for entry in played:
            turn = GAME.begin_turn(position)
            for action in entry:
                expected.append(GAME.action_code(turn, action))
                turn = GAME.act(turn, action)
            position = GAME.end_turn(turn)[1]
        assert codes == expected
