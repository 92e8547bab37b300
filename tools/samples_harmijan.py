"""Harmijan sample games for tools/make_samples.py (which finds this module by its name).

Every record is real play through the library, built the way `referee move` builds one
(`take_turn`: the move checked and stored in canonical form, the forced passes appended, [result]
written at the end). Moves are random legal turns drawn with `random.Random(seed)`: the setup from
all legal setups, the colour choice and every turn from the legal listing. So the output is
deterministic and tests/test_samples.py can check sample_games/ against it.

Files (sample_games/harmijan/):
  harmijan-5-finished-01…03, harmijan-6-finished-01…03, harmijan-7-finished-01…03
                 finished games on each board size (some end by R-HJ8, some with passes)
  harmijan-in-progress
                 a game on the default board, stopped after 24 plies
  harmijan-5-handwritten
                 a game typed by hand in the plain `moves = [...]` form, with comments at the
                 plies that show a bite, a forced pass, a move the referee refused because no
                 placement follows it (R-HJ5), and an end decided by the second class (R-HJ7)
"""

from __future__ import annotations

import datetime as dt
import random

from referee.errors import IllegalMoveError
from referee.games.harmijan import movement
from referee.games.harmijan.creatures import EMPTY, lifted
from referee.games.harmijan.position import HarmijanState
from referee.record.values import Record
from referee.play.replay import Replay, start
from referee.play.turn import take_turn
from sample_people import ANN, BO, CHIDI, DAGNY, EMEKA, FUMIKO, HOUR, UTC, typed_moves_array

FOLDER = "harmijan"


# (file name, size, players, day of February 2026, seed, plies to stop after or None)
GAMES = (
    ("harmijan-5-finished-01", 5, (ANN, BO), 2, 1, None),
    ("harmijan-5-finished-02", 5, (BO, CHIDI), 3, 2, None),
    ("harmijan-5-finished-03", 5, (CHIDI, DAGNY), 4, 3, None),
    ("harmijan-6-finished-01", 6, (DAGNY, EMEKA), 5, 1, None),
    ("harmijan-6-finished-02", 6, (EMEKA, FUMIKO), 6, 2, None),
    ("harmijan-6-finished-03", 6, (FUMIKO, ANN), 7, 3, None),
    ("harmijan-7-finished-01", 7, (ANN, CHIDI), 8, 1, None),
    ("harmijan-7-finished-02", 7, (BO, DAGNY), 9, 2, None),
    ("harmijan-7-finished-03", 7, (CHIDI, EMEKA), 10, 3, None),
    ("harmijan-in-progress", 6, (DAGNY, FUMIKO), 11, 4, 24),
)

# Comments the players write with their plies (the referee seals them with the move).
COMMENTS = {1: "Your choice of colour.", 2: "Thank you, I take this one."}

# The hand-typed game: the line of seed 79 on the small board, which has everything the
# comments point at (see `_handwritten`).
HANDWRITTEN_SEED = 79


def _random_play(size: int, seed: int, players: tuple[str, str], stamp: dt.datetime | None,
                 stop_after: int | None = None) -> Replay:
    play = start(Record("harmijan", {"size": size}, {s: {"name": n} for s, n in enumerate(players, 1)}))
    rng = random.Random(seed)
    while play.outcome() is None and (stop_after is None or play.plies < stop_after):
        ply = play.plies + 1
        move = play.game.random_move(play.state, rng)
        at = stamp + ply * HOUR if stamp else None
        comment = COMMENTS.get(ply) if stamp else None
        play = take_turn(play, str(move), at=at, comment=comment).play
    return play


def _dead_slide(play: Replay, state: HarmijanState) -> str | None:
    """A move of the colour to move that the walk allows but after which no placement is legal
    (R-HJ5), written with its first in-line placement cell, or None."""
    colour = state.colour_of(play.game.to_move(state))
    stones, grid, names = state.stones, state.grid, state.grid.names
    for cells in state.creatures(colour):
        for mover in cells:
            if movement.alone(stones, grid.neighbours, mover):
                continue  # R-HJ2: a stone alone does not move
            labels = lifted(stones, grid, mover)
            for end, moved in movement.slides(stones, grid.neighbours, labels, mover, grid.rays[mover]):
                if next(movement.placements(stones, grid.neighbours, labels, mover, moved, grid.rays[end]), None) is None:
                    first = _first_in_sight(stones, mover, grid.rays[end])
                    if first is not None:
                        sep = "-" if stones[end] == EMPTY else "x"
                        return f"{names[mover]}{sep}{names[end]} {names[first]}"
    return None


def _first_in_sight(stones: tuple[int, ...], mover: int, sights) -> int | None:
    """The first empty cell in a line of sight from the moved stone (its old cell is empty)."""
    for ray in sights:
        for cell in ray:
            if cell != mover and stones[cell] != EMPTY:
                break
            return cell
    return None


def _handwritten() -> str:
    play = _random_play(5, HANDWRITTEN_SEED, ("", ""), None)
    entries, movers = play.entries, play.movers
    notes: dict[int, str] = {}
    forced = next(i for i, m in enumerate(entries) if m == "pass")
    notes[forced] = f"seat {movers[forced]} has no legal turn: a forced pass (R-HJ5, R-G3)"
    for index in range(2, len(entries)):
        if entries[index] != "pass":
            dead = _dead_slide(play, play.position(index))
            if dead:
                _check_refused(play, index, dead)
                notes[index] = (
                    f"seat {movers[index]} first tried \"{dead}\"; the referee refused it: after "
                    f"{dead.split()[0]} no placement is legal (R-HJ5)"
                )
                break
    bite = next(i for i, m in enumerate(entries) if "x" in m and i not in notes)
    notes[bite] = f"seat {movers[bite]} bites: the stone on {entries[bite].split()[0].split('x')[1]} is removed (R-HJ3)"
    outcome = play.outcome()
    if "2nd class" not in outcome.reason or not outcome.reason.startswith("1st classes tie"):
        raise SystemExit("harmijan-5-handwritten: the seed no longer ends on the second class")
    lines = [
        "# Harmijan on the small board, typed by hand from our letters.",
        f"# The end (R-HJ7): {outcome.reason}.",
        "format = 1",
        'game = "harmijan"',
        *typed_moves_array(entries, {i: f"ply {i + 1}: {note}" for i, note in notes.items()}, per_row=6),
        "",
        "[options]",
        "size = 5",
        "",
        "[players]",
        f'1 = "{EMEKA}"',
        f'2 = "{ANN}"',
        "",
        "[result]",
        f"winners = {list(outcome.winners)}",
        "",
    ]
    return "\n".join(lines)


def _check_refused(play: Replay, index: int, text: str) -> None:
    """Make sure the referee refuses `text` after `index` plies for R-HJ5, as the comment says."""
    game, state = play.game, play.position(index)
    try:
        game.apply(state, game.parse(state, text))
    except IllegalMoveError as exc:
        if "R-HJ5" in str(exc):
            return
    raise SystemExit(f"harmijan-5-handwritten: {text!r} is not refused for R-HJ5 after ply {index}")


def render() -> dict[str, str]:
    texts = {}
    for name, size, players, day, seed, stop in GAMES:
        start_at = dt.datetime(2026, 2, day, 18, 0, tzinfo=UTC)
        play = _random_play(size, seed, players, start_at, stop)
        finished = play.outcome() is not None
        if finished == (stop is not None):
            raise SystemExit(f"{name}: the seed no longer gives a game that is "
                             f"{'in progress' if stop else 'finished'}")
        texts[f"{FOLDER}/{name}.toml"] = play.record.to_toml()
    texts[f"{FOLDER}/harmijan-5-handwritten.toml"] = _handwritten()
    return texts
