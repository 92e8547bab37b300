"""The engine in exact endgames (SPEC §11, proven results): late positions of every two-seat game,
solved by brute force here through the referee's own hooks, where the engine must play a
winning move, say that it is proven (value 1.0, the forcing line), and say a lost position
lost (value 0.0). Positions are found by random play under fixed seeds, so every run tests
the same ones; the brute force says which moves win, never the engine. (Harmijan is left out:
its late positions are not few plies from an end that a brute force reaches in seconds, and
Hermetica's is the win in one of a sample.)"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from referee.games import GAMES
from referee.play.choices import data_files
from referee.play.replay import replay
from referee.record.reading import read_record
from referee.search.mcts import Search

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
CAP = 60_000  # positions the brute force may visit for one endgame


class TooBig(Exception):
    pass


def solve(game, state, seen: list[int]) -> tuple[float, ...]:
    """Every seat's returns under best play from `state` (each seat maximising its own)."""
    if game.outcome(state) is not None:
        return game.returns(state)
    seen[0] += 1
    if seen[0] > CAP:
        raise TooBig
    seat = game.to_move(state) - 1
    best = None
    for move in game.legal_moves(state):
        value = solve(game, game.apply(state, move), seen)
        if best is None or value[seat] > best[seat]:
            best = value
            if value[seat] >= 1.0:
                break
    return best


def winning_moves(game, state) -> tuple[list[str], int] | None:
    """The moves that win for the seat to move, and how many moves it has; None when the
    brute force would take too long."""
    seat = game.to_move(state) - 1
    moves = game.legal_moves(state)
    seen = [0]
    try:
        wins = [str(m) for m in moves if solve(game, game.apply(state, m), seen)[seat] >= 1.0]
    except TooBig:
        return None
    return wins, len(moves)


def start(game_id: str, **given):
    game = GAMES[game_id]
    options = game.resolve_options(given)
    return game, game.start(options, game.new_setup(options, data_files(game, options), 1))


def late(game, state, seed: int, left: int):
    """The position `left` plies before the end of a random game from `state` (seeded)."""
    rng, plies = random.Random(seed), [state]
    while game.outcome(plies[-1]) is None:
        plies.append(game.apply(plies[-1], game.random_move(plies[-1], rng)))
    return plies[max(0, len(plies) - 1 - left)]


def endgames(game, state, left: int, want: str, count: int = 2) -> list[Any]:
    """`count` late positions where the seat to move wins by few of its moves ("win": at least
    one move wins and most do not) or loses whatever it plays ("loss")."""
    found = []
    for seed in range(400):
        position = late(game, state, seed, left)
        if game.outcome(position) is not None:
            continue
        solved = winning_moves(game, position)
        if solved is None:
            continue
        wins, moves = solved
        if (want == "win" and wins and len(wins) * 2 <= moves) or (want == "loss" and not wins):
            found.append((position, wins))
            if len(found) == count:
                return found
    raise AssertionError(f"no {want} found in {game.id}: widen the search for endgames")


# Six plies from the end: in Odd and Dustin twelve moves (six cells, either colour), of which
# one or two win; in Hermit, eight to eleven drops.
CASES = [("odd", {}, 6), ("dustin", {"size": 4, "min_group": 3}, 6),
         ("hermit", {"board": "square", "size": 5, "stones": 8}, 6),
         ("hermit", {"board": "hex", "size": 3, "stones": 6}, 6)]


@pytest.mark.parametrize("game_id,options,left", CASES, ids=[f"{g}-{o.get('board', '')}" for g, o, _ in CASES])
def test_the_engine_plays_a_winning_move_of_an_endgame_and_says_it_wins_by_force(game_id, options, left):
    game, state = start(game_id, **options)
    for position, wins in endgames(game, state, left, "win"):
        search = Search(game, position, seed=1)
        found = search.run(iterations=20_000)
        assert str(found.move) in wins, (game.id, str(found.move), wins)
        assert found.proven and found.value == 1.0
        assert found.iterations < 20_000  # the search stops once the root is proven
        # The forcing line is played out to the end, and it wins.
        after = position
        for text in found.line:
            after = game.apply(after, game.parse(after, text))
        assert game.outcome(after) is not None and game.returns(after)[found.seat - 1] == 1.0
        first = search.candidates(3)[0]
        assert (first.move, first.value, first.proven) == (found.move, 1.0, True)


@pytest.mark.parametrize("game_id,options,left", CASES, ids=[f"{g}-{o.get('board', '')}" for g, o, _ in CASES])
def test_the_engine_says_a_lost_endgame_is_lost(game_id, options, left):
    # Four plies from the end: a loss is proven only once every move is proven lost.
    game, state = start(game_id, **options)
    for position, _ in endgames(game, state, left - 2, "loss", count=1):
        found = Search(game, position, seed=2).run(iterations=20_000)
        assert found.proven and found.value == 0.0
        game.apply(position, found.move)  # still a legal move


def test_the_engine_wins_hermetica_in_one_and_says_so():
    """Hermetica: the Sun Adept can reach the Moon's Horizon this turn (R-HM10)."""
    play = replay(read_record(SAMPLES / "hermetica" / "hermetica-dawn-won.toml"))
    record = play.record
    from referee.play.replay import start as begin

    before = begin(record)
    for entry in record.moves[:-1]:
        before.push(entry.move, at=entry.at)
    found = Search(before.game, before.state, seed=3).run(iterations=3000)
    after = before.game.apply(before.state, found.move)
    assert before.game.outcome(after) is not None and before.game.outcome(after).winners == (found.seat,)
    assert found.proven and found.value == 1.0


def test_a_proven_win_is_played_though_another_move_was_tried_more():
    # At the root a proven win comes first, whatever the visits of the others (SPEC §11).
    game, state = start("odd", size=4, min_group=3)
    position, wins = endgames(game, state, 6, "win", count=1)[0]
    search = Search(game, position, seed=5)
    search.run(iterations=20_000)
    root = search.root
    winning = [c for c in root.children if c.proven is not None and c.proven[root.seat - 1] == 1.0]
    assert winning
    for child in root.children:  # as if a losing move had been tried far more
        if child not in winning:
            child.visits += 10**6
            child.value += 10**6
    found = search.found()
    assert str(found.move) in wins and found.proven
