"""How many deals of the crab game's sample deck can be won: the exact solver on every deal of
seeds 0…N−1, for each difficulty and task, solo.

    .venv/bin/python bench/crab_deals.py [--deals 1000] [--positions 20000] [--processes 2]
                                         [--log bench/crab_deals.jsonl] [--json bench/crab_deals.json]

Each deal is dealt as `referee new crab -O seed=S` deals it and solved from the start with a
budget of positions (not seconds, so that the answers do not depend on the machine or its
load): proven winnable, proven lost, or unknown when the budget runs out. Every answer goes to
the log as it comes (a run that stops resumes where it stopped); the table at the end gives,
per difficulty and task, the share proven winnable with its 95 % Wilson interval, the shares
proven lost and left unknown, and the mean CPU seconds a deal took.

The Wilson interval is computed here, with the standard library's normal quantile, so that the
package needs no statistics library.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.data import data_file  # noqa: E402
from referee.games import GAMES  # noqa: E402
from referee.games.crab.rules import TASKS  # noqa: E402
from referee.games.crab.solver import solve  # noqa: E402

DIFFICULTIES = {  # the rule book's table: driftwood, the Wave's first slot
    "Crustacean": (1, 6),
    "Shrimp": (2, 6),
    "Crayfish": (1, 8),
    "King Crab": (2, 8),
}
CRAB = GAMES["crab"]
_FILES = {}


def solve_deal(job: tuple[str, str, int, int]) -> dict:
    difficulty, task, seed, positions = job
    driftwood, wave = DIFFICULTIES[difficulty]
    if not _FILES:
        _FILES["deck"] = data_file("crab-deck", "sample", "deck", CRAB.name)
    options = CRAB.resolve_options({"driftwood": driftwood, "wave_start": wave, "task": task, "seed": seed})
    state = CRAB.start(options, CRAB.new_setup(options, _FILES, seed))
    began = time.process_time()
    found = solve(state, max_positions=positions)
    return {"difficulty": difficulty, "task": task, "seed": seed, "winnable": found.winnable,
            "searched": found.searched, "rounds": len(found.line),
            "cpu": round(time.process_time() - began, 4)}


def wilson(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    z = statistics.NormalDist().inv_cdf(0.5 + confidence / 2)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def summary(rows: list[dict]) -> list[dict]:
    cells = []
    for difficulty in DIFFICULTIES:
        for task in TASKS:
            mine = [r for r in rows if r["difficulty"] == difficulty and r["task"] == task]
            n = len(mine)
            won = sum(r["winnable"] is True for r in mine)
            lost = sum(r["winnable"] is False for r in mine)
            low, high = wilson(won, n)
            cells.append({
                "difficulty": difficulty, "task": task, "deals": n, "winnable": won, "lost": lost,
                "unknown": n - won - lost, "share": won / n if n else None, "interval": [low, high],
                "cpu_mean": statistics.fmean(r["cpu"] for r in mine) if mine else None,
            })
    return cells


def table(cells: list[dict]) -> list[str]:
    """Markdown: a row per task, a column per difficulty: winnable % (95 % interval) and the
    share left unknown."""
    head = "| task | " + " | ".join(DIFFICULTIES) + " |"
    lines = [head, "|---|" + "---|" * len(DIFFICULTIES)]
    for task in TASKS:
        row = [task]
        for difficulty in DIFFICULTIES:
            c = next(c for c in cells if c["difficulty"] == difficulty and c["task"] == task)
            if not c["deals"]:
                row.append("–")
                continue
            low, high = c["interval"]
            unknown = c["unknown"] / c["deals"]
            row.append(f"{100 * c['share']:.1f} ({100 * low:.1f}–{100 * high:.1f}); ? {100 * unknown:.1f}")
        lines.append("| " + " | ".join(row) + " |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--positions", type=int, default=20000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--log", default=str(Path(__file__).with_name("crab_deals.jsonl")))
    parser.add_argument("--json", default=str(Path(__file__).with_name("crab_deals.json")))
    parser.add_argument("--tasks", nargs="*", default=list(TASKS), choices=list(TASKS),
                        help="these tasks only (default every task)")
    args = parser.parse_args()
    log = Path(args.log)
    rows = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    rows = [r for r in rows if r.get("positions", args.positions) == args.positions]
    done = {(r["difficulty"], r["task"], r["seed"]) for r in rows}
    # Seed by seed across every cell, so that a run stopped early leaves every cell alike.
    jobs = [(d, t, seed, args.positions) for seed in range(args.deals) for d in DIFFICULTIES for t in args.tasks
            if (d, t, seed) not in done]
    print(f"{len(rows)} deals in the log, {len(jobs)} to solve", flush=True)
    began = time.monotonic()
    with log.open("a") as out, multiprocessing.Pool(args.processes) as pool:
        for count, row in enumerate(pool.imap(solve_deal, jobs, chunksize=4), 1):
            row["positions"] = args.positions
            out.write(json.dumps(row) + "\n")
            out.flush()
            rows.append(row)
            if count % 500 == 0:
                print(f"{count}/{len(jobs)} in {time.monotonic() - began:.0f} s", flush=True)
    cells = summary(rows)
    Path(args.json).write_text(json.dumps({
        "deck": "sample", "positions": args.positions, "deals": args.deals,
        "machine": f"{os.cpu_count()} cores, Python {sys.version.split()[0]}", "cells": cells,
    }, indent=2) + "\n")
    print("\n".join(table(cells)))


if __name__ == "__main__":
    main()
