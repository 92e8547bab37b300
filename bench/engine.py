"""The engine's benchmark (SPEC §10): how fast it searches and how strong it plays.

    python bench/engine.py speed    [--seconds S]
    python bench/engine.py random   [--games N] [--seconds S] [--jobs K] [--only GAME…]
    python bench/engine.py self     [--games N] [--seconds S] [--against S2] [--jobs K] [--only GAME…]

- speed: search iterations (each one playout) per second from the start of every game and from
  a position of its in-progress sample, one core;
- random: the engine at S seconds a move (default 1) against a uniformly random player
  (`Game.random_move`), seats alternating game by game, in every two-seat game (target: at
  least 95 % of the points over 200 games);
- self: the engine at S seconds (default 1) against itself at S2 (default 0.25) (target: at
  least 65 % of the points for the longer search).

Points are 1 for a win and ½ for a draw; a game that reaches PLY_CAP plies is adjudicated a
draw and counted as such. Each share comes with its 95 % Wilson score interval (the points
taken as a proportion of the games: a slightly wide interval where games are drawn). Games are
played in memory through the same hooks and search that `referee hint` uses, K at a time on K
processes (a game a process, one core each). Every finished game is appended to a JSON-lines
log (bench/engine-games.jsonl) as it ends, so that a long run can be read while it goes on and
summed up afterwards (`python bench/engine.py summary`).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.play.choices import data_files  # noqa: E402
from referee.search.mcts import Search  # noqa: E402
from referee.games import GAMES  # noqa: E402
from referee.record.values import Record  # noqa: E402
from referee.record.reading import read_record
from referee.play.replay import replay, start  # noqa: E402

LOG = ROOT / "bench" / "engine-games.jsonl"
PLY_CAP = 600  # a game longer than this is adjudicated a draw (none has come near it)

# The two-seat games and the options they are measured with: each game at its defaults, and
# Hermit on both boards.
TWO_SEATS = {
    "odd": {},
    "dustin": {},
    "hermit": {},
    "hermit-hex": {"board": "hex"},
    "harmijan": {},
    "hermetica": {},
}


def game_of(name: str) -> str:
    return name.split("-")[0]


def start_position(name: str, seed: int = 0) -> Any:
    game = GAMES[game_of(name)]
    options = game.resolve_options(TWO_SEATS.get(name, {}))
    setup = game.new_setup(options, data_files(game, options), seed)
    return start(Record(game.id, options, {}, setup)).state


def wilson(points: float, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95 % Wilson score interval of a share of `points` out of `games`."""
    if games == 0:
        return (0.0, 1.0)
    p = points / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


# -- one game ----------------------------------------------------------------------------------


def play_one(task: dict[str, Any]) -> dict[str, Any]:
    """Play one game: task names the game, the first player's seat and both players (a number of
    seconds for the engine, None for the random player)."""
    name, seed = task["game"], task["seed"]
    game = GAMES[game_of(name)]
    state = start_position(name, seed)
    rng = random.Random(seed)
    players = {1: task["seat1"], 2: task["seat2"]}
    plies, thinking = 0, {"1": 0.0, "2": 0.0}  # by seat, keyed as JSON keys them
    iterations = {"1": 0, "2": 0}
    while game.outcome(state) is None and plies < PLY_CAP:
        seat = game.to_move(state)
        seconds = players[seat]
        if seconds is None:
            move = game.random_move(state, rng)
        else:
            began = time.perf_counter()
            found = Search(game, state, seed=rng.randrange(2**31)).run(seconds=seconds)
            thinking[str(seat)] += time.perf_counter() - began
            iterations[str(seat)] += found.iterations
            move = found.move
        state = game.apply(state, move)
        plies += 1
    outcome = game.outcome(state)
    winners = list(outcome.winners) if outcome is not None else []
    return {**task, "winners": winners, "plies": plies, "capped": outcome is None,
            "thinking": thinking, "iterations": iterations, "load": os.getloadavg()[0]}


def run_games(tasks: list[dict[str, Any]], jobs: int) -> list[dict[str, Any]]:
    results = []
    with multiprocessing.get_context("spawn").Pool(jobs) as pool, LOG.open("a", encoding="utf-8") as log:
        for result in pool.imap_unordered(play_one, tasks):
            log.write(json.dumps(result) + "\n")
            log.flush()
            results.append(result)
            done = len(results)
            print(f"  {done}/{len(tasks)} {result['game']}: winners {result['winners']} "
                  f"after {result['plies']} plies (load {result['load']:.1f})", flush=True)
    return results


def matches(kind: str, names: list[str], games: int, seconds: float, against: float | None) -> list[dict[str, Any]]:
    """The tasks of a strength run: `games` games per game, seats alternating."""
    tasks = []
    # Number-major: every game gets its first games before any its later ones, so that a run
    # stopped early (a long one is read from its log) leaves samples of like size in each game.
    for number in range(games):
        for name in names:
            engine_seat = 1 + number % 2
            other = None if kind == "random" else against
            seats = {engine_seat: seconds, 3 - engine_seat: other}
            tasks.append({"kind": kind, "game": name, "seed": number, "engine_seat": engine_seat,
                          "seconds": seconds, "against": other, "seat1": seats[1], "seat2": seats[2],
                          "run": RUN})
    return tasks


def summary(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per kind and game: the engine's (the longer search's) points, share and interval."""
    rows = {}
    for r in results:
        key = (r["kind"], r["game"], r["seconds"], r["against"])
        row = rows.setdefault(key, {"kind": r["kind"], "game": r["game"], "seconds": r["seconds"],
                                    "against": r["against"], "games": 0, "wins": 0, "draws": 0,
                                    "losses": 0, "capped": 0, "plies": 0, "load": 0.0,
                                    "iterations": 0, "thinking": 0.0})
        row["games"] += 1
        seat = r["engine_seat"]
        if not r["winners"]:
            row["draws"] += 1
        elif seat in r["winners"]:
            row["wins"] += 1
        else:
            row["losses"] += 1
        row["capped"] += r["capped"]
        row["plies"] += r["plies"]
        row["load"] += r["load"]
        row["iterations"] += r["iterations"][str(seat)]
        row["thinking"] += r["thinking"][str(seat)]
    out = []
    for row in rows.values():
        points = row["wins"] + row["draws"] / 2
        low, high = wilson(points, row["games"])
        target = 0.95 if row["kind"] == "random" else 0.65
        out.append({**row, "points": points, "share": points / row["games"], "interval": [low, high],
                    "target": target, "plies": row["plies"] / row["games"], "load": row["load"] / row["games"],
                    "iterations_per_second": row["iterations"] / row["thinking"] if row["thinking"] else 0.0})
    return sorted(out, key=lambda r: (r["kind"], list(TWO_SEATS).index(r["game"])))


def table(rows: list[dict[str, Any]]) -> str:
    lines = ["| run | game | games | W–D–L | points | 95 % interval | target | iterations/s | plies | load |",
             "|---|---|---:|---|---:|---|---:|---:|---:|---:|"]
    for r in rows:
        run = (f"{r['seconds']:g} s vs random" if r["kind"] == "random"
               else f"{r['seconds']:g} s vs {r['against']:g} s")
        lines.append(
            f"| {run} | {r['game']} | {r['games']} | {r['wins']}–{r['draws']}–{r['losses']} | "
            f"{r['share']:.1%} | {r['interval'][0]:.1%}–{r['interval'][1]:.1%} | ≥ {r['target']:.0%} | "
            f"{r['iterations_per_second']:,.0f} | {r['plies']:.0f} | {r['load']:.1f} |")
    return "\n".join(lines)


# -- speed -------------------------------------------------------------------------------------


def speed(seconds: float) -> list[dict[str, Any]]:
    rows = []
    for name in [*TWO_SEATS, "crab"]:
        positions = [("start", start_position(name) if name != "crab" else start_position("crab", 1))]
        sample = ROOT / "sample_games" / (name if name in ("hermit-hex",) else game_of(name) if name != "hermit" else "hermit-square")
        for path in sorted(sample.glob("*-in-progress.toml")):
            play = replay(read_record(path))
            if play.outcome() is None:
                positions.append((path.stem, play.state))
        game = GAMES[game_of(name)]
        for label, state in positions:
            found = Search(game, state, seed=1).run(seconds=seconds)
            rows.append({"game": name, "position": label, "iterations": found.iterations,
                         "per_second": found.iterations / found.seconds, "load": os.getloadavg()[0]})
            print(f"  {name:10} {label:28} {found.iterations / found.seconds:9,.0f} iterations/s", flush=True)
    return rows


RUN = time.strftime("%Y-%m-%dT%H:%M:%S")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=("speed", "random", "self", "summary"))
    parser.add_argument("--games", type=int, default=200, help="games per game (default 200)")
    parser.add_argument("--seconds", type=float, default=1.0, help="the engine's seconds a move")
    parser.add_argument("--against", type=float, default=0.25, help="the other engine's seconds (self)")
    parser.add_argument("--jobs", type=int, default=2, help="games at once, one process each")
    parser.add_argument("--only", nargs="*", default=None, choices=list(TWO_SEATS), help="these games only")
    args = parser.parse_args()
    names = args.only or list(TWO_SEATS)
    if args.what == "speed":
        speed(args.seconds)
        return
    if args.what == "summary":
        results = [json.loads(line) for line in LOG.read_text(encoding="utf-8").splitlines() if line.strip()]
        print(table(summary(results)))
        return
    tasks = matches(args.what, names, args.games, args.seconds, args.against if args.what == "self" else None)
    results = run_games(tasks, args.jobs)
    print(table(summary(results)))


if __name__ == "__main__":
    main()
