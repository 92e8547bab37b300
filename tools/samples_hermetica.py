"""Sample games of Hermetica, for tools/make_samples.py.

Each record is built as `referee new hermetica -O scheme=…` then one `referee move` per entry
would build it: every entry goes through `take_turn`, so it is checked and stored in canonical
form, and [result] is written when an Adept reaches the other Horizon. Time stamps: each game
starts at a fixed UTC date and entry n is stamped start + n hours.

The entries are stored in hermetica_samples.toml beside this file rather than searched for on
every run, so that writing the samples stays fast. They were found by `--find` below: sides
that play the winning action when there is one, often walk their Adept towards the other
Horizon, and otherwise act at random. `.venv/bin/python tools/samples_hermetica.py --find`
searches again and rewrites that file. `render()` checks that each game still ends as it
should and that each short record still shows the unit power it is named after, so a record
that no longer fits the rules fails loudly instead of drifting.

Folder hermetica/: a game won under each scheme (dawn, noon, dusk) and one with drafted walls;
a game in progress; short records that stop right after a unit power is used: the Shield
deployed onto an element, a Fire shot, a Fire carrying its Shield, an Earth push that captures,
an Earth pushing its own Shield, a Water relocating a unit, a Water relocating a barrier onto a
unit, a Water moving round its Shield, and a captured Adept's return.
"""

from __future__ import annotations

import datetime as dt
import random
import sys
import tomllib
from collections import deque
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from referee.games import GAMES  # noqa: E402
from referee.games.hermetica import listing  # noqa: E402
from referee.games.hermetica.moves import Steps, Turn  # noqa: E402
from referee.games.hermetica.position import ACTIONS_PER_TURN, HermeticaState, turn_start  # noqa: E402
from referee.games.hermetica.rules import act  # noqa: E402
from referee.record.values import Record  # noqa: E402
from referee.play.replay import Replay, start  # noqa: E402
from referee.play.turn import take_turn  # noqa: E402
from sample_people import UTC, HOUR, ANN, BO, CHIDI, DAGNY, EMEKA, FUMIKO  # noqa: E402

GAME = GAMES["hermetica"]
STORE = Path(__file__).resolve().with_name("hermetica_samples.toml")



# -- what a short record must show ------------------------------------------------------------


def _texts(play: Replay) -> list[str]:
    return [r.text for r in play.state.last]


def _hits_other_side(report) -> bool:
    return any(unit.seat != report.seat for _, unit in report.captured)


POWERS = {
    "shield-capture": lambda p: any(
        r.text.startswith("A ") and "*" in r.text and _hits_other_side(r) for r in p.state.last
    ),
    "fire-shot": lambda p: any(
        r.text.startswith("F ") and "x" in r.text and _hits_other_side(r) for r in p.state.last
    ),
    "fire-carries-shield": lambda p: any(t.startswith("F ") and "=" in t for t in _texts(p)),
    "earth-push-capture": lambda p: any(r.text.startswith("E ") and _hits_other_side(r) for r in p.state.last),
    "earth-pushes-shield": lambda p: any(
        r.text.startswith("E ") and any(s.kind == "push" and s.start == p.position(-2).shields[r.seat - 1] for s in r.segments)
        for r in p.state.last
    ),
    "water-relocates-unit": lambda p: any(
        t.startswith("W ") and "=" in t and p.position(-2).barrier(_collided(p, t)) is None for t in _texts(p)
    ),
    "water-barrier-capture": lambda p: any(
        r.text.startswith("W ") and "=" in r.text and _hits_other_side(r) for r in p.state.last
    ),
    "water-round-shield": lambda p: any(t.startswith("W ") and "@" in t for t in _texts(p)),
    "adept-returns": lambda p: any(t.startswith("+A") for t in _texts(p)),
}


def _collided(play: Replay, text: str) -> int:
    return play.state.board.grid.cell(text.split()[-1].split("=")[0])


@dataclass(frozen=True)
class HermeticaSample:
    path: str  # relative to sample_games/
    scheme: str
    players: tuple[str, str]
    day: int  # of March 2026
    expect: str  # "won", "in progress", or a key of POWERS (in progress, showing that power)
    comment_first: str
    comment_last: str


SAMPLES = (
    HermeticaSample("hermetica/hermetica-dawn-won.toml", "dawn", (ANN, BO), 2, "won",
                    "Dawn scheme, as the rulebook suggests for a first game.", "Through to the Horizon."),
    HermeticaSample("hermetica/hermetica-noon-won.toml", "noon", (CHIDI, DAGNY), 3, "won",
                    "Noon this time.", "There it is."),
    HermeticaSample("hermetica/hermetica-dusk-won.toml", "dusk", (EMEKA, FUMIKO), 4, "won",
                    "Dusk: the walls hug the edges.", "Well played."),
    HermeticaSample("hermetica/hermetica-draft-won.toml", "draft", (BO, ANN), 5, "won",
                    "Drafting the walls ourselves.", "Home at last."),
    HermeticaSample("hermetica/hermetica-in-progress.toml", "dawn", (FUMIKO, CHIDI), 6, "in progress",
                    "Your move, Chidi.", "Over to you."),
    HermeticaSample("hermetica/hermetica-power-shield-capture.toml", "dawn", (ANN, DAGNY), 7,
                    "shield-capture", "Showing the Adept's Shield.",
                    "The Shield lands on an element and captures it (R-HM5)."),
    HermeticaSample("hermetica/hermetica-power-fire-shot.toml", "noon", (BO, EMEKA), 8, "fire-shot",
                    "Showing Fire's shot.", "Fire shoots along a line (R-HM6)."),
    HermeticaSample("hermetica/hermetica-power-fire-carries-shield.toml", "dawn", (CHIDI, ANN), 9,
                    "fire-carries-shield", "Showing Fire and its Shield.",
                    "Fire carries its own Shield along (R-HM6)."),
    HermeticaSample("hermetica/hermetica-power-earth-push-capture.toml", "dusk", (DAGNY, BO), 10,
                    "earth-push-capture", "Showing Earth's push.",
                    "Pushed into a barrier, the Border or off the board: captured (R-HM7)."),
    HermeticaSample("hermetica/hermetica-power-earth-pushes-shield.toml", "dawn", (EMEKA, CHIDI), 11,
                    "earth-pushes-shield", "Showing Earth and its Shield.",
                    "Earth pushes its own Shield like a unit (R-HM7)."),
    HermeticaSample("hermetica/hermetica-power-water-relocates-unit.toml", "noon", (FUMIKO, ANN), 12,
                    "water-relocates-unit", "Showing Water's relocation.",
                    "Water puts the unit it met next to itself (R-HM8)."),
    HermeticaSample("hermetica/hermetica-power-water-barrier-capture.toml", "dawn", (ANN, EMEKA), 13,
                    "water-barrier-capture", "Showing Water moving a barrier.",
                    "A barrier relocated onto a unit captures it (R-HM8)."),
    HermeticaSample("hermetica/hermetica-power-water-round-shield.toml", "dusk", (BO, FUMIKO), 14,
                    "water-round-shield", "Showing Water and its Shield.",
                    "Water moves itself round its own Shield (R-HM8)."),
    HermeticaSample("hermetica/hermetica-power-adept-returns.toml", "dawn", (CHIDI, BO), 15,
                    "adept-returns", "Showing a captured Adept's return.",
                    "The captured Adept comes back first thing, for two actions (R-HM4)."),
)


# -- building records --------------------------------------------------------------------------


def build(sample: HermeticaSample, moves: list[str]) -> str:
    play = start(Record("hermetica", GAME.resolve_options({"scheme": sample.scheme}),
                        {seat: {"name": name} for seat, name in enumerate(sample.players, 1)},
                        {"board": GAME.setup_from_file("board", _standard_board())}))
    begin = dt.datetime(2026, 3, sample.day, 19, 0, tzinfo=UTC)
    for ply, move in enumerate(moves, 1):
        comment = sample.comment_first if ply == 1 else None
        if ply == len(moves):
            comment = sample.comment_last
        play = take_turn(play, move, comment=comment, at=begin + ply * HOUR).play
    _check(sample, play)
    return play.record.to_toml()


def _standard_board() -> dict:
    from referee.data import builtin_data

    return dict(builtin_data("hermetica-board", "standard"))


def _check(sample: HermeticaSample, play: Replay) -> None:
    over = play.outcome() is not None
    if sample.expect == "won":
        ok = over and play.outcome().winners
    elif sample.expect == "in progress":
        ok = not over
    else:
        ok = not over and POWERS[sample.expect](play)
    if not ok:
        raise SystemExit(f"{sample.path}: the stored moves no longer give {sample.expect!r}; "
                         "run tools/samples_hermetica.py --find")


def render() -> dict[str, str]:
    stored = tomllib.loads(STORE.read_text(encoding="utf-8"))
    texts = {}
    for sample in SAMPLES:
        if sample.path not in stored:
            raise SystemExit(f"{sample.path}: no stored moves; run tools/samples_hermetica.py --find")
        texts[sample.path] = build(sample, stored[sample.path]["moves"])
    return texts


# -- finding games (only with --find) ----------------------------------------------------------


def _distance(state: HermeticaState, seat: int, cell: int) -> int:
    """Steps from `cell` to the other side's Horizon over hexes without a barrier."""
    goal = state.board.horizons[3 - seat]
    grid = state.board.grid
    seen, queue = {cell: 0}, deque([cell])
    while queue:
        c = queue.popleft()
        if c in goal:
            return seen[c]
        for nb in grid.neighbours[c]:
            if nb not in seen and state.barrier(nb) is None:
                seen[nb] = seen[c] + 1
                queue.append(nb)
    return 99


def policy_turn(state: HermeticaState, rng: random.Random, eager: float) -> Turn:
    """A turn for sample games: win when possible, walk the Adept forward with probability
    `eager`, else act at random; sometimes stop early."""
    seat = state.turn
    progress = turn_start(state)
    actions = []
    while progress.spent < ACTIONS_PER_TURN and state.winner is None:
        options = listing.next_actions(state, progress)
        if not options:
            break
        obliged = progress.obliged and progress.done == 0
        results = {str(a): act(state, progress, a, None) for a in options}
        wins = [a for a in options if results[str(a)][0].winner == seat]
        adept = state.adept(seat)
        if wins:
            choice = wins[0]
        elif adept is not None and rng.random() < eager:
            here = _distance(state, seat, adept)
            walks = [a for a in options if isinstance(a, Steps) and a.kind == "A"]
            better = sorted(
                (_distance(results[str(a)][0], seat, results[str(a)][0].adept(seat)), str(a), a)
                for a in walks if results[str(a)][0].adept(seat) is not None
            )
            choice = better[0][2] if better and better[0][0] < here else rng.choice(options)
        elif not obliged and rng.random() < 0.1:
            break
        else:
            choice = rng.choice(options)
        state, progress, _ = results[str(choice)]
        actions.append(choice)
    return Turn(tuple(actions))


def find(sample: HermeticaSample, seed: int, limit: int = 400) -> list[str] | None:
    play = start(Record("hermetica", {"scheme": sample.scheme}))
    rng = random.Random(seed)
    eager = 0.3 if sample.expect == "won" else 0.15
    while play.plies < limit:
        state = play.state
        move = GAME.random_move(state, rng) if state.phase != "turns" else policy_turn(state, rng, eager)
        play.push(str(move))
        if sample.expect == "won" and play.outcome() is not None:
            return play.entries
        if sample.expect in POWERS and play.outcome() is None and POWERS[sample.expect](play):
            return play.entries
        if play.outcome() is not None:
            return None
        if sample.expect == "in progress" and play.plies >= 30:
            return play.entries
    return None


def main() -> None:
    import tomli_w

    found = {}
    for sample in SAMPLES:
        for seed in range(200):
            moves = find(sample, seed)
            if moves:
                found[sample.path] = {"seed": seed, "moves": moves}
                print(f"{sample.path}: seed {seed}, {len(moves)} entries")
                break
        else:
            raise SystemExit(f"{sample.path}: nothing found")
    header = "# Entries of the Hermetica sample games; written by tools/samples_hermetica.py --find.\n"
    STORE.write_text(header + tomli_w.dumps(found), encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] == ["--find"]:
        main()
    else:
        print(__doc__)
