"""Harmijan's fast playout (games/harmijan/playout.py) plays the referee's game: every turn it
draws is one `Game.apply` accepts, it passes only when the referee says the colour must, it ends
where the referee's game ends (R-HJ5, R-HJ8, R-G3) and scores the end as the referee does
(R-HJ6, R-HJ7); and `evaluate` is a share in 0–1 that says a won game is won.
"""

from __future__ import annotations

import random

import pytest

from referee.games import GAMES
from referee.games.base import Pass
from referee.games.harmijan import playout as fast
from referee.games.harmijan.movement import has_turn, turns
from referee.games.harmijan.moves import Turn
from referee.games.harmijan.position import HarmijanState
from referee.games.harmijan.scoring import BLACK, WHITE
from referee.search.mcts import Search

GAME = GAMES["harmijan"]


def in_play(size: int, rng: random.Random, plies: int = 0) -> HarmijanState:
    """A position after the setup and the colour choice (R-HJ1), then up to `plies` random
    plies, each applied by the referee (so the repetition count has a history)."""
    state = GAME.start({"size": size}, {})
    while state.phase != "play":
        state = GAME.apply(state, GAME.random_move(state, rng))
    played: list = []
    fast.play(state, rng, plies, played.append)
    return replayed(state, played)


def replayed(state: HarmijanState, played: list) -> HarmijanState:
    """The plies a playout logged, each applied by the referee (a pass only where it must)."""
    names = state.grid.names
    for ply in played:
        assert GAME.outcome(state) is None, "the playout went on after the referee's game ended"
        if ply is None:
            assert GAME.must_pass(state), "the playout passed with a legal turn (R-HJ5, R-G3)"
            state = GAME.apply(state, Pass())
        else:
            start, end, place = ply
            turn = Turn(start, end, place, state.stones[end] != 0, (names[start], names[end], names[place]))
            state = GAME.apply(state, turn)  # IllegalMoveError if the referee refuses it
    return state


def test_every_playout_turn_is_legal_and_the_game_ends_where_the_referees_ends_R_HJ5_R_HJ8():
    rng = random.Random(20260301)
    turns_checked = ends = repetitions = 0
    for k in range(36):
        size = (5, 6, 7)[k % 3]
        state = in_play(size, rng, plies=rng.randrange(0, 60))
        if GAME.outcome(state) is not None:
            continue
        played: list = []
        ended = fast.play(state, rng, 10_000, played.append)
        after = replayed(state, played)
        turns_checked += sum(ply is not None for ply in played)
        assert list(after.stones) == ended.stones and after.turn == ended.turn
        outcome = GAME.outcome(after)
        assert ended.over and outcome is not None
        winner = fast.winner(after.grid, ended.stones)
        assert outcome.winners == (() if winner is None else (after.seat_of(winner),))
        ends += 1
        repetitions += after.repeated
    assert turns_checked > 2000 and ends > 30
    assert repetitions, "no playout ended by a third repetition: R-HJ8 went untested"


def test_a_playout_cut_short_stops_after_that_many_plies_on_a_legal_position():
    rng = random.Random(7)
    state = in_play(6, rng)
    played: list = []
    ended = fast.play(state, rng, 12, played.append)
    assert len(played) == ended.plies == 12 and not ended.over
    assert list(replayed(state, played).stones) == ended.stones


@pytest.mark.parametrize("size", [5, 6, 7])
def test_a_drawn_turn_is_one_of_the_listed_turns_and_none_only_when_there_is_none_R_HJ5(size):
    rng = random.Random(size)
    drawn_some = 0
    for _ in range(12):
        state = in_play(size, rng, plies=rng.randrange(0, 120))
        for colour in (BLACK, WHITE):
            listed = set(turns(state.stones, state.grid, colour))
            drawn = fast.Board(state.grid, state.stones).random_turn(colour, rng)
            assert (drawn is None) == (not has_turn(state.stones, state.grid, colour))
            assert drawn is None or drawn in listed
            drawn_some += drawn is not None
    assert drawn_some


def partition(labels: list[int]) -> set[frozenset[int]]:
    groups: dict[int, set[int]] = {}
    for cell, label in enumerate(labels):
        if label >= 0:
            groups.setdefault(label, set()).add(cell)
    return {frozenset(g) for g in groups.values()}


def test_the_creatures_kept_turn_by_turn_are_the_creatures_of_the_board_R_HJ2():
    rng = random.Random(12)
    checked = 0
    for size in (5, 6, 7):
        state = in_play(size, rng)
        board, colour = fast.Board(state.grid, state.stones), state.turn
        while (drawn := board.random_turn(colour, rng) or board.random_turn(3 - colour, rng)) is not None:
            mover = drawn[0]
            colour = board.stones[mover]
            lifted = board.lifted(mover)
            stones = list(board.stones)
            stones[mover] = 0
            expected = partition(state.grid.component_labels(stones)[0])
            assert partition([-1 if c == mover else v for c, v in enumerate(lifted)]) == expected
            board.play(colour, drawn)
            assert partition(board.labels) == partition(state.grid.component_labels(board.stones)[0])
            colour = 3 - colour
            checked += 1
            if checked % 150 == 0:
                break
    assert checked >= 300


def test_the_end_is_scored_as_the_referee_scores_it_R_HJ6_R_HJ7():
    rng = random.Random(3)
    for _ in range(12):
        state = in_play(6, rng, plies=10_000)  # to the end
        assert GAME.outcome(state) is not None
        winners = GAME.outcome(state).winners
        colour = fast.winner(state.grid, state.stones)
        assert winners == (() if colour is None else (state.seat_of(colour),))
        assert GAME.playout(state, rng) == GAME.returns(state) == GAME.evaluate(state)


def test_a_playout_is_the_same_under_the_same_seed():
    state = in_play(6, random.Random(1))
    runs = []
    for _ in range(2):
        played: list = []
        fast.play(state, random.Random(99), 10_000, played.append)
        runs.append(played)
    assert runs[0] == runs[1]
    assert GAME.playout(state, random.Random(5)) == GAME.playout(state, random.Random(5))


def test_a_search_is_the_same_under_the_same_seed():
    state = in_play(5, random.Random(2), plies=10)
    found = [Search(GAME, state, seed=11).run(iterations=40) for _ in range(2)]
    assert found[0].move == found[1].move and found[0].visits == found[1].visits


def test_a_search_playout_is_cut_after_its_plies_and_scored_as_the_board_stands_R_HJ7():
    state = in_play(6, random.Random(6), plies=4)
    ended = fast.play(state, random.Random(21), fast.PLIES)
    assert not ended.over and fast.PLIES <= ended.plies <= fast.PLIES + 1  # a pass counts too
    black = fast.black_share(state.grid, ended.stones)
    expected = (black, 1 - black) if state.black_seat == 1 else (1 - black, black)
    assert GAME.playout(state, random.Random(21)) == pytest.approx(expected)
    # Asked for more plies, the same playout goes on past the cut.
    assert fast.play(state, random.Random(21), 10_000).plies > fast.PLIES


def test_playouts_from_before_the_colour_choice_play_the_setup_first_R_HJ1():
    state = GAME.start({"size": 5}, {})
    values = GAME.playout(state, random.Random(4))
    assert len(values) == 2 and sum(values) == pytest.approx(1.0)


def colours_swapped(state: HarmijanState) -> HarmijanState:
    """The same board with every stone's colour swapped and the seats' colours too."""
    stones = tuple({BLACK: WHITE, WHITE: BLACK}.get(v, v) for v in state.stones)
    return HarmijanState(state.grid, stones, True, 3 - state.black_seat, 3 - state.turn)


def test_evaluate_is_a_share_in_0_to_1_and_follows_the_colours_R_HJ7():
    rng = random.Random(8)
    for plies in (0, 20, 40, 60, 80):
        state = in_play(6, rng, plies=plies)
        if GAME.outcome(state) is not None:
            continue
        value = GAME.evaluate(state)
        assert all(0 <= v <= 1 for v in value) and sum(value) == pytest.approx(1.0)
        # The same stones seen from the other colour: the same seat holds the same share.
        assert GAME.evaluate(colours_swapped(state)) == pytest.approx(value)
        # Each seat's share is its colour's: the leader by R-HJ7 is never behind.
        ahead, _ = fast.lead(state.grid, state.stones)
        if ahead is not None:
            assert value[state.seat_of(ahead) - 1] > 0.5
        else:
            assert value == (0.5, 0.5)


def test_evaluate_says_level_when_both_colours_have_the_same_creatures_R_HJ7():
    grid = GAME.start({"size": 6}, {}).grid
    stones = [0] * len(grid)
    for name, colour in (("c3", BLACK), ("c4", BLACK), ("g7", WHITE), ("g8", WHITE)):
        stones[grid.cell(name)] = colour
    state = HarmijanState(grid, tuple(stones), True, 1, BLACK)
    assert GAME.evaluate(state) == (0.5, 0.5)


# -- the actions a playout reports (AMAF: referee/search/grave.py) ------------------------------


def test_a_playout_reports_each_turn_as_the_game_codes_it_for_its_colour():
    # A turn's code is its colour and the cell it places on (Harmijan.action_code), a pass
    # none: the codes a playout reports are those of its turns, each coded in the referee's
    # position where it was made; and asking for them changes nothing else.
    rng = random.Random(31)
    for k in range(12):
        state = in_play((5, 6, 7)[k % 3], rng, plies=rng.randrange(0, 40))
        if GAME.outcome(state) is not None:
            continue
        seed, limit = rng.randrange(10**6), (12, 60)[k % 2]
        codes: list[int] = []
        got = GAME.playout(state, random.Random(seed), limit, codes=codes)
        assert got == GAME.playout(state, random.Random(seed), limit)
        played: list = []
        fast.play(state, random.Random(seed), limit, played.append)
        position, expected, names = state, [], state.grid.names
        for ply in played:
            if ply is None:
                position = GAME.apply(position, Pass())
                continue
            start, end, place = ply
            turn = Turn(start, end, place, position.stones[end] != 0, (names[start], names[end], names[place]))
            expected.append(GAME.action_code(GAME.begin_turn(position), turn))
            position = GAME.apply(position, turn)
        assert codes == expected and len(codes) >= 1
