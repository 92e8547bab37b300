"""Sample games of Hermit: Small crab, big wave (`crab`), for tools/make_samples.py.

Each sample is built as `referee new crab -O seed=N` then one `referee move` per round would
build it: the deal comes from the game's own `new_setup` with the seed (and is written into
[setup], with the stand-in `sample` deck), every round goes through `take_turn`, so it is
checked and stored in canonical form, and [result] is written when the game ends. Time stamps:
each game starts at a fixed UTC date and round n is stamped start + n hours.

The rounds themselves are stored below rather than searched for on every run, so that writing
the samples stays fast. They were found by the small depth-first search at the bottom of this
file: `.venv/bin/python tools/samples_crab.py --find [WORD…]` searches again (from each sample's
seed on) and prints the seed and line of every sample (or of those whose path holds a WORD),
to paste into SAMPLES after a change to the rules. `render()` checks each game still ends as its
`expect` says, so a line that no longer fits the rules fails loudly instead of drifting.

Folder crab/: a win and a loss at each difficulty (crustacean: driftwood 1, Wave on 6; shrimp:
driftwood 2, Wave on 6; crayfish: driftwood 1, Wave on 8; king crab: driftwood 2, Wave on 8),
one game per task, a cooperative game for two seats, a resignation, a game in progress and a
hand-typed record that gives only the deal.
"""

from __future__ import annotations

import datetime as dt
import itertools
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from referee.data import builtin_data  # noqa: E402
from referee.games import GAMES  # noqa: E402
from referee.games.crab.moves import Round  # noqa: E402
from referee.games.crab.rules import put, recreations  # noqa: E402
from referee.record.values import Record  # noqa: E402
from referee.play.replay import RESIGN, start  # noqa: E402
from referee.play.turn import take_turn  # noqa: E402
from sample_people import UTC, HOUR, ANN, BO, CHIDI, DAGNY  # noqa: E402

GAME = GAMES["crab"]


@dataclass(frozen=True)
class CrabSample:
    path: str  # relative to sample_games/
    options: dict
    players: tuple[str, ...]
    day: int  # of February 2026, the first round's date
    seed: int
    goal: str  # what the search looks for: "win", "loss", "draw-out" (lost in Phase 1)
    expect: str  # "won", "lost", "in progress", "resign"
    moves: tuple[str, ...]
    stop_after: int | None = None  # rounds kept, for a game in progress or a resignation
    comments: dict[int, str] = field(default_factory=dict)


SAMPLES = (
    # -- a win and a loss at each difficulty ------------------------------------------------------
    CrabSample("crab/crab-crustacean-win.toml", {}, (ANN,), 2, seed=2, goal="win", expect="won",
               moves=(
                   '3 0,-2 0', '6 1,-2 0', '16 3,-2 0', '15 5,-3 0',
                   '13 4,-2 90', '2 4,-2 0',
               )),
    CrabSample("crab/crab-crustacean-loss.toml", {}, (BO,), 3, seed=3, goal="loss", expect="lost",
               moves=(
                   '6 2,0 270', '3 4,-1 0', '9 4,-2 0', '10 7,0 180',
                   '5 8,-2 0',
               )),
    CrabSample("crab/crab-shrimp-win.toml", {"driftwood": 2}, (CHIDI,), 4, seed=5, goal="win",
               expect="won", moves=(
                   '13 2,1 0', '6 0,-2 0', '15 2,-2 0', '9 3,-1 180',
                   '3 -1,-3 0', '4 0,-1 90',
               )),
    CrabSample("crab/crab-shrimp-loss.toml", {"driftwood": 2}, (DAGNY,), 5, seed=5,
               goal="draw-out", expect="lost", moves=('13 -2,-2 90', '6 -4,1 0', '12 -4,-1 0', '15 0,0 0')),
    CrabSample("crab/crab-crayfish-win.toml", {"wave_start": 8}, (ANN,), 6, seed=7, goal="win",
               expect="won", moves=(
                   '16 1,0 0', '7 -3,0 0', '1 -1,1 90', '3 -6,-1 0',
                   '11 1,-3 90', '4 -1,-5 0', '15 -3,-7 0', '8 -5,-6 0',
                   '10 -1,-2 180', '14 -4,0 90',
               )),
    CrabSample("crab/crab-crayfish-loss.toml", {"wave_start": 8}, (BO,), 7, seed=7, goal="loss",
               expect="lost", moves=('1 -1,-3 90', '16 -4,-1 0', '7 2,-1 0')),
    CrabSample("crab/crab-king-crab-win.toml", {"driftwood": 2, "wave_start": 8}, (CHIDI,), 8,
               seed=8, goal="win", expect="won", moves=(
                   '3 2,1 0', '4 -3,1 0', '7 -3,2 0', '6 -1,1 90',
                   '8 -2,-2 0', '15 2,2 0', '11 -1,1 0', '16 -4,-3 0',
                   '10 -1,1 0', '5 0,-2 0',
               )),
    CrabSample("crab/crab-king-crab-loss.toml", {"driftwood": 2, "wave_start": 8}, (DAGNY,), 9,
               seed=9, goal="loss", expect="lost", moves=('3 0,2 0', '5 -2,3 0', '6 2,2 0')),
    # -- one game per task (R-CR8) --------------------------------------------------------------
    CrabSample("crab/crab-task-garbage.toml", {"task": "garbage"}, (ANN,), 10, seed=11,
               goal="win", expect="won", moves=(
                   '8 2,-2 0', '13 2,-3 0', '9 2,0 0', '14 0,-5 0',
                   '11 -1,-2 90', '15 -2,-7 0', '6 -3,-9 0', '1 -4,-6 0',
                   '2 -5,-8 180', '10 -4,-7 0', '5 -6,-7 180', '7 -1,-8 0',
               )),
    CrabSample("crab/crab-task-sandcastle.toml", {"task": "sandcastle"}, (BO,), 11, seed=11,
               goal="win", expect="won", moves=(
                   '8 2,-2 0', '13 2,-3 0', '9 2,0 0', '14 -1,-4 0',
                   '11 0,0 0', '6 1,-4 0', '15 2,-1 0', '2 0,-1 90',
                   '1 1,-4 0', '10 0,-3 0',
               )),
    CrabSample("crab/crab-task-big-beach.toml", {"task": "big-beach"}, (CHIDI,), 12, seed=12,
               goal="win", expect="won", moves=(
                   '9 -2,-2 0', '11 0,-3 180', '5 -2,-4 0', '14 0,-5 0',
                   '2 2,-4 0', '16 2,0 0', '8 3,-1 0', '15 -3,-6 180',
               )),
    CrabSample("crab/crab-task-dunes.toml", {"task": "dunes"}, (DAGNY,), 13, seed=13,
               goal="task-unmet", expect="lost", moves=(
                   '3 -2,-2 0', '11 -2,0 0', '14 -1,-1 0', '5 -2,1 0',
                   '9 1,1 0', '8 -1,-1 0', '1 -3,-1 0',
               )),
    CrabSample("crab/crab-task-crab-dance.toml", {"task": "crab-dance"}, (ANN,), 14, seed=14,
               goal="task-unmet", expect="lost", moves=(
                   '11 2,-1 0', '13 0,1 0', '10 2,0 0', '4 0,-3 0',
                   '8 -2,-5 0', '7 -3,0 0', '2 2,0 0', '12 0,-1 0',
                   '15 -4,-7 0', '1 3,-4 0', '6 3,-3 0', '3 2,0 0',
               )),
    CrabSample("crab/crab-task-nature-reserve.toml", {"task": "nature-reserve"}, (BO,), 15,
               seed=15, goal="win", expect="won", moves=(
                   '15 -2,-2 0', '12 -1,-3 0', '9 -2,-3 90', '7 3,-1 90',
                   '1 2,1 0', '5 1,1 0',
               )),
    CrabSample("crab/crab-task-crashing-waves.toml", {"task": "crashing-waves"}, (CHIDI,), 16,
               seed=20, goal="win", expect="won", moves=(
                   '2 -2,-2 0', '11 -4,-4 0', '14 -1,-2 180', '16 -2,-5 270',
                   '5 -4,-7 0', '9 -1,-3 0', '12 -3,-5 0',
               )),
    # -- two seats, a resignation, a game in progress -------------------------------------------
    CrabSample("crab/crab-coop-2-win.toml", {"players": 2}, (ANN, BO), 17, seed=17, goal="win",
               expect="won", moves=(
                   '1: 6 -2,-2 0 | 2: 7 1,-2 0', '1: 5 -4,-4 0 | 2: 2 2,0 0',
                   '1: 13 -3,-2 90 | 2: 6 1,-3 0', '1: 16 -6,-6 0 | 2: 16 -1,-5 0',
                   '1: 7 -7,-4 0 | 2: 5 -3,-7 0', '1: 11 -4,-2 0 | 2: 11 -3,-5 0',
                   '1: 14 -3,-1 0 | 2: 10 -6,-7 0', '1: 15 -3,-1 0 | 2: 14 -2,-4 0',
                   '1: 4 -5,-3 0 | 2: 12 2,-4 270', '1: 10 -6,-2 0 | 2: 4 1,0 0',
               )),
    CrabSample("crab/crab-resign.toml", {}, (DAGNY,), 18, seed=18, goal="win", expect="resign",
               moves=(
                   '8 -2,-2 0', '11 -1,1 0', '2 -1,1 90', '16 -4,-4 0',
                   '6 -1,0 270', '5 -2,-3 0', '7 -3,-4 0', '1 -6,-4 0',
                   '12 -2,-4 0', '3 -8,-6 0', '10 -3,1 0', '15 -2,2 0',
               ), stop_after=3),
    CrabSample("crab/crab-in-progress.toml", {}, (CHIDI,), 19, seed=19, goal="win",
               expect="in progress", moves=(
                   '16 -2,-2 0', '14 -4,-3 0', '9 2,0 0', '13 -3,-2 90',
                   '11 -6,-3 90', '2 -8,-5 0', '12 -3,-3 90', '1 -3,-2 0',
                   '3 -2,0 0',
               ), stop_after=3),
)


# -- building the records ------------------------------------------------------------------------


def new_game(options: dict, players: tuple[str, ...], seed: int):
    """What `referee new crab -O seed=N` writes: options resolved, deal and deck in [setup]."""
    resolved = GAME.resolve_options({**options, "seed": seed})
    files = {"deck": builtin_data("crab-deck", resolved["deck"])}
    setup = GAME.new_setup(resolved, files, entropy=0)
    record = Record("crab", resolved, {s: {"name": n} for s, n in enumerate(players, 1)}, setup)
    return record, start(record)


def build(sample: CrabSample) -> str:
    players = sample.options.get("players", 1)
    _, play = new_game(sample.options, sample.players[:players], sample.seed)
    start_at = dt.datetime(2026, 2, sample.day, 20, 0, tzinfo=UTC)
    moves = sample.moves if sample.stop_after is None else sample.moves[: sample.stop_after]
    for n, move in enumerate(moves, 1):
        play = take_turn(play, move, comment=sample.comments.get(n), at=start_at + n * HOUR).play
    if sample.expect == "resign":
        play = take_turn(play, "resign", comment=sample.comments.get(len(moves) + 1),
                         at=start_at + (len(moves) + 1) * HOUR).play
    outcome = play.outcome()
    if play.ended_by(RESIGN):
        ended = "resign"
    elif outcome is None:
        ended = "in progress"
    else:
        ended = "won" if outcome.winners else "lost"
    if ended != sample.expect:
        raise SystemExit(f"{sample.path}: the moves no longer give a game that is {sample.expect!r} "
                         f"but {ended!r}; run tools/samples_crab.py --find")
    return play.record.to_toml()


def handwritten() -> str:
    """A record typed by hand from a dealt-out physical deck: only the deal in [setup] (the
    built-in deck is used), moves as a plain array in loose spellings (SPEC §3, §5)."""
    sample = next(s for s in SAMPLES if s.path == "crab/crab-king-crab-loss.toml")
    record, _ = new_game(sample.options, sample.players, sample.seed)
    spellings = ["3 0, 2 0", " 5  -2,3 0", "6 2 ,2 0"]
    assert [" ".join(m.replace(" ,", ",").replace(", ", ",").split()) for m in spellings] == list(sample.moves)
    deal = ", ".join(str(card) for card in record.setup["deal"])
    return "\n".join([
        "# King Crab (2 driftwood, the Wave on slot 8), dealt from a shuffled deck on the table",
        "# and typed in by hand: the deal only, the built-in deck is used.",
        "format = 1",
        'game = "crab"',
        "moves = [" + ", ".join(f'"{m}"' for m in spellings) + "]",
        "",
        "[options]",
        "driftwood = 2",
        "wave_start = 8",
        "",
        "[players]",
        f'1 = "{DAGNY}"',
        "",
        "[setup]",
        f"deal = [{deal}]",
        "",
        "[result]",
        "winners = []",
        "",
    ])


def render() -> dict[str, str]:
    texts = {sample.path: build(sample) for sample in SAMPLES}
    texts["crab/crab-handwritten.toml"] = handwritten()
    return texts


# -- finding lines: a small depth-first search ----------------------------------------------------


def _seat_candidates(state, seat: int, width: int):
    """The seat's placements, those that recreate the pattern (with the most driftwood) first."""
    area = state.areas[seat - 1]
    ranked = []
    for place in GAME.seat_moves(state, seat):
        after = put(state.deck, area, place)
        found = recreations(after, state.pattern) if state.pattern else []
        drift = max((sum(after.visible[p].drift for p in t) for t in found), default=-1)
        ranked.append(((bool(found), drift), place))
    ranked.sort(key=lambda item: item[0], reverse=True)
    return [place for _, place in ranked[:width]]


def _children(state, width: int):
    seats = range(1, len(state.areas) + 1)
    combos = itertools.product(*(_seat_candidates(state, s, width) for s in seats))
    out = []
    for combo in combos:
        move = Round(tuple(combo))
        after = GAME.apply(state, move)
        score = (after.won is True, after.hermie - after.wave, after.hermie,
                 sum(len(a.hand) + len(a.pile) for a in after.areas))
        out.append((score, str(move), after))
    out.sort(key=lambda item: item[0], reverse=True)
    return out


def search(state, goal: str, width: int = 3, budget: list[int] | None = None) -> list[str] | None:
    """A line of rounds from `state` that ends as `goal` says, or None within the budget."""
    budget = [80] if budget is None else budget
    if state.over:
        if goal == "win":
            return [] if state.won else None
        if goal == "draw-out":
            return [] if not state.won and "draw" in state.reason else None
        if goal == "task-unmet":
            return [] if not state.won and "task" in state.reason else None
        return [] if not state.won else None
    if budget[0] <= 0:
        return None
    budget[0] -= 1
    kids = _children(state, 12 if goal in ("win", "task-unmet") else 40)
    if goal in ("loss", "draw-out"):
        kids.reverse()
    for _, move, after in kids[:width]:
        line = search(after, goal, width, budget)
        if line is not None:
            return [move] + line
    return None


def find_all(only: list[str]) -> None:
    for sample in SAMPLES:
        if only and not any(word in sample.path for word in only):
            continue
        players = sample.options.get("players", 1)
        for seed in range(sample.seed, sample.seed + 200):
            _, play = new_game(sample.options, sample.players[:players], seed)
            line = search(play.state, sample.goal)
            if line is not None:
                print(f"{sample.path}: seed={seed}, moves={tuple(line)!r}", flush=True)
                break
        else:
            print(f"{sample.path}: nothing found", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--find"]:
        find_all(sys.argv[2:])  # optionally only the samples whose path holds one of the words
    else:
        print(__doc__)
