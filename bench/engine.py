"""The engine's benchmark (SPEC §10): how fast it searches and how strong it plays.

    python bench/engine.py speed    [--seconds S]
    python bench/engine.py random   [--games N] [--seconds S] [--jobs K] [--only GAME…]
    python bench/engine.py self     [--games N] [--seconds S] [--against S2] [--jobs K] [--only GAME…]
    python bench/engine.py versus   [--games N] [--seconds S] [--jobs K] [--only GAME…] [--plies P]
                                    [--first-pair F] [--log PATH]
    python bench/engine.py summary  [--versus [--commit C] [--log PATH]]

- speed: search iterations (each one playout) per second from the start of every game and from
  a position of its in-progress sample, one core;
- random: the engine at S seconds a move (default 1) against a uniformly random player
  (`Game.random_move`), seats alternating game by game, in every two-seat game (target: at
  least 95 % of the points over 200 games);
- self: the engine at S seconds (default 1) against itself at S2 (default 0.25) (target: at
  least 65 % of the points for the longer search).
- versus: the engine (GRAVE, the solver, its tree kept from move to move) against the search
  as it was before them (`uct`, a new tree every move), at equal time S a move (0.25 s in the
  tables): game pairs, each opening of P random plies (default 2) played from both seats, the
  openings drawn by game number (targets: at least 75 % of the points in Odd, Dustin and
  Hermit, 60 % in Harmijan and Hermetica). Logged to bench/engine-versus.jsonl, every game
  with its moves and each search's iterations (`python bench/engine.py summary --versus`: a
  row per engine, commits whose referee/ is the same counted as one; `--commit C`: C's only).

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
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.play.choices import data_files  # noqa: E402
from referee.search.mcts import Search  # noqa: E402
from referee.search.tree import Settings, settings_for  # noqa: E402
from referee.games import GAMES  # noqa: E402
from referee.record.values import Record  # noqa: E402
from referee.record.reading import read_record
from referee.play.replay import replay, start  # noqa: E402

LOG = ROOT / "bench" / "engine-games.jsonl"
COMMIT = "unknown"
VERSUS_LOG = ROOT / "bench" / "engine-versus.jsonl"
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


# -- the engine against the search as it was ---------------------------------------------------


class Player:
    """One side of a versus game: the engine under `algorithm`, its tree kept from move to
    move where its settings say so (grave), or a new search every move (uct, as before)."""

    def __init__(self, game: Any, algorithm: str, seed: int, tuned: dict[str, Any] | None = None):
        self.game, self.algorithm, self.rng = game, algorithm, random.Random(seed)
        self.settings = replace(settings_for(game.id, algorithm), **(tuned or {}))
        self.search: Search | None = None
        self.seen: list[Any] = []  # the moves of the game when the search last looked

    def move(self, state: Any, moves: list[Any], seconds: float) -> Any:
        search = self.search
        kept = (search is not None and search.settings.reuse and moves[:len(self.seen)] == self.seen
                and search.advance(moves[len(self.seen):], state))
        if not kept:
            search = self.search = Search(self.game, state, seed=self.rng.randrange(2**31),
                                          settings=self.settings)
        found = search.run(seconds=seconds)
        self.seen = list(moves)
        return found


def opening(name: str, number: int, plies: int) -> list[str]:
    """The opening of pair `number`: `plies` uniformly random legal moves from the start."""
    game = GAMES[game_of(name)]
    state, rng, moves = start_position(name), random.Random(f"{name}/{number}"), []
    for _ in range(plies):
        move = game.random_move(state, rng)
        moves.append(str(move))
        state = game.apply(state, move)
    return moves


def play_versus(task: dict[str, Any]) -> dict[str, Any]:
    """One game of a pair: the engine (`grave`) in seat `engine_seat`, the old search in the
    other, from the pair's opening."""
    name = task["game"]
    game = GAMES[game_of(name)]
    state, moves = start_position(name), []
    for text in task["opening"]:
        move = game.parse(state, text)
        moves.append(move)
        state = game.apply(state, move)
    seat_of = {task["engine_seat"]: "grave", 3 - task["engine_seat"]: "uct"}
    players = {seat: Player(game, algorithm, task["pair"] * 2 + seat, task.get("tuned") if algorithm == "grave" else None)
               for seat, algorithm in seat_of.items()}
    thinking, iterations, proven = {"1": 0.0, "2": 0.0}, {"1": 0, "2": 0}, None
    searched: dict[str, list[int]] = {"1": [], "2": []}  # each search's iterations, by seat
    while game.outcome(state) is None and len(moves) < PLY_CAP:
        seat = game.to_move(state)
        began = time.perf_counter()
        found = players[seat].move(state, moves, task["seconds"])
        thinking[str(seat)] += time.perf_counter() - began
        iterations[str(seat)] += found.iterations
        searched[str(seat)].append(found.iterations)
        if found.proven and proven is None:
            proven = {"ply": len(moves) + 1, "seat": seat, "value": found.value}
        moves.append(found.move)
        state = game.apply(state, found.move)
    outcome = game.outcome(state)
    return {**task, "winners": list(outcome.winners) if outcome is not None else [],
            "plies": len(moves), "capped": outcome is None, "thinking": thinking,
            "iterations": iterations, "searched": searched, "first_proof": proven, "load": os.getloadavg()[0],
            "moves": " ".join(str(m).replace(" ", "_") for m in moves)}


def versus_tasks(names: list[str], games: int, seconds: float, plies: int,
                 tuned: dict[str, Any] | None = None, first: int = 0) -> list[dict[str, Any]]:
    """Game pairs, pair-major across the games (a run stopped early has like samples), from
    pair number `first` (a run that adds games to an earlier one plays new openings)."""
    global COMMIT
    COMMIT = commit()
    tasks = []
    for pair in range(first, first + (games + 1) // 2):
        for name in names:
            first = opening(name, pair, plies)
            for engine_seat in (1, 2):
                tasks.append({"kind": "versus", "game": name, "pair": pair, "opening": first,
                              "engine_seat": engine_seat, "seconds": seconds, "against": "uct",
                              "run": RUN, "commit": COMMIT, **({"tuned": tuned} if tuned else {})})
    return tasks


def run_versus(tasks: list[dict[str, Any]], jobs: int, path: Path = VERSUS_LOG) -> list[dict[str, Any]]:
    results = []
    with multiprocessing.get_context("spawn").Pool(jobs) as pool, path.open("a", encoding="utf-8") as log:
        for result in pool.imap(play_versus, tasks):
            log.write(json.dumps(result, separators=(",", ":")) + "\n")
            log.flush()
            results.append(result)
            print(f"  {len(results)}/{len(tasks)} {result['game']} pair {result['pair']}: engine in seat "
                  f"{result['engine_seat']}, winners {result['winners']} after {result['plies']} plies "
                  f"(load {result['load']:.1f})", flush=True)
    return results


def engine_of(c: str) -> str:
    """The tree of commit `c`'s referee/ (what played), or `c` itself where it has files changed
    ("+") or git does not know it."""
    import subprocess
    if c.endswith("+"):
        return c
    found = subprocess.run(["git", "-C", str(ROOT), "rev-parse", f"{c}:referee"], capture_output=True, text=True)
    return found.stdout.strip() if found.returncode == 0 else c


def same_engine(commits: set[str]) -> dict[str, str]:
    """Each commit's label in the summary: commits whose referee/ is the same tree ran the same
    engine (a later one changed only the benchmark or the docs), so their games are one row,
    labelled "a=b"; a commit with "+" (files changed) or unknown to git is a row of its own."""
    by_tree: dict[str, list[str]] = {}
    for c in sorted(commits):
        by_tree.setdefault(engine_of(c), []).append(c)
    return {c: "=".join(group) for group in by_tree.values() for c in group}


def versus_summary(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per commit and game (and settings changed, if any): the engine's W–D–L against the old
    search, its share with the 95 % Wilson interval, the pentanomial counts of the pairs (0, ½,
    1, 1½, 2 points for the engine), each side's median iterations a move (games that logged
    each search's) and iterations a second. Rows of different commits are never summed: each
    played another engine."""
    engines = same_engine({r.get("commit", "unknown") for r in results})
    rows: dict[tuple[str, str, float, str], dict[str, Any]] = {}
    pairs: dict[tuple[str, str, float, str, str, int], list[float]] = {}
    for r in results:
        tuned = json.dumps(r.get("tuned", {}), sort_keys=True) if r.get("tuned") else ""
        key = (engines[r.get("commit", "unknown")], r["game"], r["seconds"], tuned)
        row = rows.setdefault(key, {"commit": key[0], "game": r["game"], "seconds": r["seconds"],
                                    "tuned": tuned, "games": 0, "wins": 0, "draws": 0, "losses": 0,
                                    "plies": 0, "load": 0.0, "it": [0, 0], "time": [0.0, 0.0],
                                    "moves": [[], []], "capped": 0})
        seat = r["engine_seat"]
        points = 0.5 if not r["winners"] else float(seat in r["winners"])
        row["games"] += 1
        row["wins" if points == 1 else "draws" if points == 0.5 else "losses"] += 1
        row["plies"] += r["plies"]
        row["load"] += r["load"]
        row["capped"] += r["capped"]
        for side, s in ((0, seat), (1, 3 - seat)):
            row["it"][side] += r["iterations"][str(s)]
            row["time"][side] += r["thinking"][str(s)]
            row["moves"][side] += r.get("searched", {}).get(str(s), [])
        pairs.setdefault((*key, r["run"], r["pair"]), []).append(points)
    for (*key, _, _), scored in pairs.items():
        if len(scored) == 2:  # both games of the pair were played
            penta = rows[tuple(key)].setdefault("penta", [0] * 5)
            penta[int(round(sum(scored) * 2))] += 1
    out = []
    for row in rows.values():
        points = row["wins"] + row["draws"] / 2
        low, high = wilson(points, row["games"])
        target = 0.6 if row["game"] in ("harmijan", "hermetica") else 0.75
        out.append({**row, "points": points, "share": points / row["games"], "interval": [low, high],
                    "target": target, "plies": row["plies"] / row["games"], "load": row["load"] / row["games"],
                    "rates": [row["it"][i] / row["time"][i] if row["time"][i] else 0.0 for i in (0, 1)],
                    "medians": [statistics.median(m) if m else None for m in row["moves"]],
                    "penta": row.get("penta", [0] * 5)})
    return sorted(out, key=lambda r: (r["commit"], r["tuned"], list(TWO_SEATS).index(r["game"])))


def versus_table(rows: list[dict[str, Any]]) -> str:
    lines = ["| commit | game | s a move | games | W–D–L | points | 95 % interval (Wilson) | target "
             "| pairs 0–½–1–1½–2 | iterations a move, median (engine, uct) | iterations/s (engine, uct) "
             "| plies | load |",
             "|---|---|---:|---:|---|---:|---|---:|---|---:|---:|---:|---:|"]
    for r in rows:
        medians = ", ".join("–" if m is None else f"{m:,.0f}" for m in r["medians"])
        commit = r["commit"] + (f" {r['tuned']}" if r["tuned"] else "")
        lines.append(
            f"| {commit} | {r['game']} | {r['seconds']:g} | {r['games']} | {r['wins']}–{r['draws']}–{r['losses']} | "
            f"{r['share']:.1%} | {r['interval'][0]:.1%}–{r['interval'][1]:.1%} | ≥ {r['target']:.0%} | "
            f"{'–'.join(map(str, r['penta']))} | {medians} | {r['rates'][0]:,.0f}, {r['rates'][1]:,.0f} | "
            f"{r['plies']:.0f} | {r['load']:.1f} |")
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


def commit() -> str:
    """The checkout's commit, with "+" where its files differ from it: what a run ran."""
    import subprocess
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "referee"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+" if dirty else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=("speed", "random", "self", "versus", "summary"))
    parser.add_argument("--games", type=int, default=200, help="games per game (default 200)")
    parser.add_argument("--seconds", type=float, default=1.0, help="the engine's seconds a move")
    parser.add_argument("--against", type=float, default=0.25, help="the other engine's seconds (self)")
    parser.add_argument("--jobs", type=int, default=2, help="games at once, one process each")
    parser.add_argument("--only", nargs="*", default=None, choices=list(TWO_SEATS), help="these games only")
    parser.add_argument("--plies", type=int, default=2, help="random plies of a versus opening")
    parser.add_argument("--first-pair", type=int, default=0,
                        help="versus: the first pair's number (to add games to an earlier run)")
    parser.add_argument("--versus", action="store_true", help="summary: of the versus log")
    parser.add_argument("--commit", default=None,
                        help="summary --versus: only the games of this commit's engine (its short hash, or a prefix)")
    parser.add_argument("--log", type=Path, default=VERSUS_LOG, help="versus: the log to append to")
    parser.add_argument("--set", nargs="*", default=[], metavar="NAME=VALUE",
                        help="versus: the engine's settings changed (referee/search/tree.py Settings), to tune them")
    args = parser.parse_args()
    names = args.only or list(TWO_SEATS)
    if args.what == "speed":
        speed(args.seconds)
        return
    if args.what == "summary" and args.versus:
        results = [json.loads(line) for line in args.log.read_text(encoding="utf-8").splitlines() if line.strip()]
        if args.commit:  # the games of this commit's engine, whichever commit ran them
            wanted = engine_of(args.commit)
            results = [r for r in results if r.get("commit", "unknown").startswith(args.commit)
                       or engine_of(r.get("commit", "unknown")) == wanted]
        if not results:
            sys.exit(f"{args.log}: no versus games" + (f" of commit {args.commit}" if args.commit else ""))
        print(versus_table(versus_summary(results)))
        return
    if args.what == "versus":
        tuned = {name: (value.lower() in ("1", "true", "yes")) if isinstance(getattr(Settings(), name), bool)
                 else type(getattr(Settings(), name))(value)
                 for name, value in (item.split("=", 1) for item in args.set)}
        results = run_versus(versus_tasks(names, args.games, args.seconds, args.plies, tuned, args.first_pair), args.jobs, args.log)
        print(versus_table(versus_summary(results)))
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
