"""The referee's benchmark: start-up, replay throughput, move listings and memory, in one run.

    .venv/bin/python bench/run.py [--runs N] [--cli-runs N] [--json PATH]

Prints a table and writes it, with the machine it ran on, as JSON (default bench/results.json).
Every time is the median of repeated runs. Commands run as a player runs them: the installed
`referee` script in a fresh process, with Python's bytecode cache in use (as after any install),
so start-up is what a player waits for and not what a first run after an edit costs.

What is measured (and the targets, where there is one):
- command line: `python -c pass`, `python -c "import typer"` (the framework's floor);
  `referee status` on a finished odd record (target: at most 1.4 × the floor), `status --json`, `validate` of that record, and `referee move` on a 60-ply odd record (a fresh
  copy each run);
- replay throughput in-process, full games per second: the rules alone from already-parsed
  moves (target for odd side 5: 5,000 games/s; a side-12 odd game under 20 ms), the replay of a
  read record (notation, rules, digest chain), and end to end from the record's bytes (TOML
  reading included), with the TOML reading alone beside it, in both record forms;
- legal-move listing: harmijan size 7 on the most crowded position of a game, and hermetica
  on the current position of the in-progress sample game (target: under 20 ms) and the worst
  position of all sample games;
- `referee standings` over 10,000 records (a club's archive of finished 61-ply odd games among
  40 players): wall time, records judged per second, the processes that judged them.
- archives, each `referee validate` run side by side with tomllib's parse of the same
  files (reading them included), in interleaved rounds: 2,000 finished 61-ply odd records as
  [[moves]] tables (target: at most 0.8 × the parse), the same as plain `moves = [...]` arrays
  (at most 3 ×), and a mixed archive of 1,000 odd, hermit, harmijan and hermetica records (at
  most 2.5 ×), each also with rtoml left out (tomllib reads every record: what rtoml saves;
  `--archives-only` runs these rows alone); `referee status` at most 1.4 × and `referee move` on 60 plies at most 1.7 × the
  import of typer; a 150-ply Harmijan game replayed at least 10 × faster than by the code when
  that target was set, timed side by side with it (HARMIJAN_BASELINES); and the peak memory of `validate` over 10,000 records against
  1,000 (flat: the records are not all held at once);
- replay growth: a hand-written side-12 odd record of 90 plies against the same game at 360
  plies, CPU time, the fastest of several runs each (target: 4 × the plies in under 6 × the
  time: a replay grows linearly with the plies). `--replay-only` prints the in-process replay
  rows alone (throughput, the 61-ply record, the growth, a turn on 60 plies): a quick check
  after a change to the replay.
- random playouts per second from the start position, one core, in-process (what a search's
  strength rests on): each game's `playout` beside the hooks' default (`Game.playout`, move by
  move through the rules), in interleaved rounds; targets for odd side 5, hermit 7×7 square
  and hermit hex 5: Ludii 1.3.12's `Game.playout` on a machine of this kind (PLAYOUT_CASES;
  `--playouts-only` runs these rows alone, with the next).
- random playouts per second where a search cuts them: harmijan size 6 and hermetica (dawn) from a
  position after the setup, by the game's own `playout` and by the default of games/base.py
  (the hooks, move by move, every legal move listed at every ply) in the same run, each for the
  same stretch of time; Hermetica's playouts are cut after the same number of turns either
  way, the search's cut and 8 turns.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from importlib.metadata import version
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.games import GAMES  # noqa: E402
from referee.games.base import Game, count  # noqa: E402
from referee.record.values import Entry, Record  # noqa: E402
from referee.record.reading import parse_record  # noqa: E402
from referee.play.replay import RESIGN, Replay, replay, start  # noqa: E402
from referee.play.turn import take_turn  # noqa: E402

SAMPLES = ROOT / "sample_games"
UTC = dt.timezone.utc

# The Harmijan row times the same 150-ply game replayed by older versions of the referee, side
# by side with today's: the code as it was when the target "ten times faster" was set, and the
# code just before the archive-speed work (the architecture work in between had already made it
# faster). Each is taken from this repository's history (`git archive`) into a temporary folder.
HARMIJAN_BASELINES = {
    "when the target was set": "3fc5768",
    "before the speed work": "f9cf997",
}


# Random playouts from the start: label, game, options, and the target where there is one —
# Ludii 1.3.12's random playouts per second (its `Game.playout`) measured on one core of a
# machine of this kind.
PLAYOUT_CASES = [
    ("odd, side 5", "odd", {"size": 5}, 4028),
    ("hermit, square 7×7", "hermit", {"board": "square", "size": 7}, 1627),
    ("hermit, hex side 5", "hermit", {"board": "hex", "size": 5}, 1145),
    ("odd, side 12", "odd", {"size": 12}, None),
    ("harmijan, size 6", "harmijan", {}, None),
    ("hermetica, dawn", "hermetica", {}, None),
    ("crab, one player", "crab", {}, None),
]


# -- timing ----------------------------------------------------------------------------------


def median_time(work: Callable[[], Any], runs: int, before: Callable[[], Any] | None = None) -> float:
    """Median wall time of `work` in seconds over `runs` runs, after one warm-up run;
    `before` runs untimed ahead of each run (e.g. to restore a file)."""
    times = []
    for i in range(runs + 1):
        if before is not None:
            before()
        t0 = time.perf_counter()
        work()
        elapsed = time.perf_counter() - t0
        if i:
            times.append(elapsed)
    return statistics.median(times)


def fastest(work: Callable[[], Any], runs: int) -> float:
    """The fastest of `runs` runs of `work`, in seconds."""
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - t0)
    return best


def per_item(work: Callable[[], Any], items: int, runs: int) -> float:
    """Median seconds per item of a batch of `items` done by `work`."""
    return median_time(work, runs) / items


# -- records to measure ----------------------------------------------------------------------


def random_play(game_id: str, options: dict[str, Any], seed: int, stop_after: int | None = None) -> Replay:
    """A game of random legal moves, built as `referee move` builds a record (stamped, sealed)."""
    play = start(Record(game_id, dict(options), {1: {"name": "Ann"}, 2: {"name": "Bo"}}))
    rng = random.Random(seed)
    stamp = dt.datetime(2026, 1, 1, tzinfo=UTC)
    while play.outcome() is None and (stop_after is None or play.plies < stop_after):
        move = play.game.random_move(play.state, rng)
        stamp += dt.timedelta(hours=1)
        play = take_turn(play, str(move), at=stamp).play
    return play


def finished_samples(folder: str) -> list[Replay]:
    plays = [replay(parse_record(p.read_bytes(), str(p))) for p in sorted((SAMPLES / folder).glob("*.toml"))]
    return [p for p in plays if p.outcome() is not None and not p.ended_by(RESIGN)]


def plain_array_form(text: str) -> str:
    """The same record with its moves as a plain `moves = [...]` array (SPEC §3)."""
    doc = tomllib.loads(text)
    moves = ", ".join(json.dumps(m["move"]) for m in doc["moves"])
    return f'format = 1\ngame = "{doc["game"]}"\nmoves = [{moves}]\n'


# -- the measurements ------------------------------------------------------------------------


def player_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # a player's Python keeps its bytecode cache
    return env


def referee_command() -> list[str]:
    """The installed console script beside this Python, as a player runs it."""
    script = Path(sys.executable).with_name("referee")
    return [str(script)] if script.exists() else [sys.executable, "-m", "referee"]


def command_line(runs: int, work: Path, finished: Path, sixty: Path) -> dict[str, float]:
    env, referee = player_env(), referee_command()
    target = work / "move-target.toml"

    def run(args: list[str]) -> Callable[[], None]:
        return lambda: subprocess.run(args, env=env, cwd=work, stdout=subprocess.DEVNULL, check=True)

    commands = {
        "python -c pass": (run([sys.executable, "-c", "pass"]), None),
        'python -c "import typer"': (run([sys.executable, "-c", "import typer"]), None),
        "referee status (finished odd)": (run([*referee, "status", str(finished)]), None),
        "referee status --json": (run([*referee, "status", "--json", str(finished)]), None),
        "referee validate (one record)": (run([*referee, "validate", str(finished)]), None),
        "referee move (60-ply odd)": (
            run([*referee, "move", str(target), _last_move(sixty)]),
            lambda: shutil.copyfile(sixty, target),
        ),
    }
    # Interleaved rounds, so a busy moment on the machine touches every command alike.
    times: dict[str, list[float]] = {name: [] for name in commands}
    for round_ in range(runs + 1):
        for name, (work_, before) in commands.items():
            if before is not None:
                before()
            t0 = time.perf_counter()
            work_()
            if round_:
                times[name].append(time.perf_counter() - t0)
    return {name: statistics.median(t) for name, t in times.items()}


def _last_move(sixty: Path) -> str:
    """The one legal move left on a 61-cell board after 60 plies."""
    play = replay(parse_record(sixty.read_bytes()))
    return str(play.game.legal_moves(play.state)[0])


def throughput(runs: int) -> list[dict[str, Any]]:
    cases = [
        ("odd, side 5 (61 cells)", [random_play("odd", {"size": 5}, seed) for seed in range(40)]),
        ("odd, side 12 (397 cells)", [random_play("odd", {"size": 12}, seed) for seed in range(5)]),
        ("hermit (samples)", finished_samples("hermit-square") + finished_samples("hermit-hex")),
        ("harmijan (samples)", finished_samples("harmijan")),
        ("hermetica (samples)", finished_samples("hermetica")),
        ("crab (samples)", finished_samples("crab")),
    ]
    rows = []
    for label, plays in cases:
        game = plays[0].game
        parsed = [(p.options, _setup(game, p.record.setup, p.options), [ply.move for ply in p.line[1:]]) for p in plays]
        records = [p.record for p in plays]
        texts = [p.record.to_toml().encode("utf-8") for p in plays]

        def rules() -> None:
            for options, setup, moves in parsed:
                state = game.start(options, setup)
                for move in moves:
                    state = game.apply(state, move)
                game.outcome(state)

        rows.append({
            "games": label,
            "records": len(plays),
            "plies_per_game": round(statistics.mean(p.plies for p in plays), 1),
            "rules_games_per_s": 1 / per_item(rules, len(plays), runs),
            "replay_games_per_s": 1 / per_item(lambda: [replay(r) for r in records], len(plays), runs),
            "end_to_end_games_per_s": 1 / per_item(
                lambda: [replay(parse_record(t)) for t in texts], len(plays), runs
            ),
            "toml_read_ms": 1000 * per_item(lambda: [tomllib.loads(t.decode()) for t in texts], len(plays), runs),
            "ms_per_game_rules": 1000 * per_item(rules, len(plays), runs),
        })
    return rows


def _setup(game, setup: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """The setup `replay.start` hands the game: the record's, or the built-in data files."""
    from referee.data import builtin_data

    full = dict(setup)
    for name, kind in game.data_options.items():
        if name not in full:
            full[name] = game.setup_from_file(name, builtin_data(kind, options[name]))
    return full


def _odd_record(plies: int, seed: int = 1) -> Record:
    """A hand-written side-12 odd record (397 cells) of `plies` random legal plies: no stamps,
    no seal, so its replay is the notation and the rules alone."""
    play = start(Record("odd", {"size": 12}))
    rng = random.Random(seed)
    for _ in range(plies):
        play.push(str(play.game.random_move(play.state, rng)))
    return Record("odd", {"size": 12}, moves=[Entry(text) for text in play.entries])


def _fastest_cpu(work: Callable[[], Any], runs: int) -> float:
    """The fastest of `runs` runs of `work` in CPU seconds, the garbage collector off: other
    work on a busy machine, and garbage left by earlier measurements, do not count."""
    gc.collect()
    gc.disable()
    try:
        best = float("inf")
        for _ in range(runs):
            t0 = time.process_time()
            work()
            best = min(best, time.process_time() - t0)
        return best
    finally:
        gc.enable()


def replay_growth(runs: int) -> dict[str, float]:
    """How replay time grows with the plies: 90 against 360 plies of one side-12 odd game."""
    short, long = _odd_record(90), _odd_record(360)
    replay(short)  # the board graph is built once per size: not part of either replay
    rounds = max(runs, 9)
    short_s = _fastest_cpu(lambda: replay(short), rounds)
    long_s = _fastest_cpu(lambda: replay(long), rounds)
    return {"ms_90": 1000 * short_s, "ms_360": 1000 * long_s, "ratio": long_s / short_s}


def turn_ms(runs: int) -> float:
    """One `referee move` in-process on a 60-ply sealed odd record: the fork, the move, the new
    record built and sealed (no file, no start-up)."""
    play = random_play("odd", {"size": 5}, 2, stop_after=60)
    move = str(play.game.legal_moves(play.state)[0])
    at = dt.datetime(2026, 2, 1, tzinfo=UTC)
    return 1000 * median_time(lambda: take_turn(play, move, at=at), runs)


def replay_rows(runs: int) -> str:
    """`--replay-only`: the in-process replay timings, as a short table."""
    games, forms, growth = throughput(runs), toml_forms(runs), replay_growth(runs)
    lines = ["| in-process replay | plies | replay of a read record | from the record's bytes |",
             "|---|---:|---:|---:|"]
    lines += [f"| {row['games']} ({row['records']} games) | {row['plies_per_game']:g} "
              f"| {row['replay_games_per_s']:,.0f}/s | {row['end_to_end_games_per_s']:,.0f}/s |" for row in games]
    lines += [
        "",
        f"61-ply odd record: replay {forms['replay_ms']:.3f} ms. A turn on 60 plies (fork, move, "
        f"seal): {turn_ms(runs):.3f} ms.",
        f"Replay growth, side-12 odd: 90 plies {growth['ms_90']:.2f} ms, 360 plies "
        f"{growth['ms_360']:.2f} ms: {growth['ratio']:.2f} × the time for 4 × the plies (target < 6 ×).",
    ]
    return "\n".join(lines)


def toml_forms(runs: int) -> dict[str, float]:
    """One finished 61-ply odd record, as `validate` handles it: the TOML reading in both
    record forms, the whole reading of the record (TOML and shape checks), then the replay."""
    play = random_play("odd", {"size": 5}, 1)
    text = play.record.to_toml()
    plain = plain_array_form(text)
    data = text.encode("utf-8")
    record = parse_record(data)

    def ms(work: Callable[[], Any]) -> float:
        return 1000 * per_item(lambda: [work() for _ in range(50)], 50, runs)

    return {
        "toml_tables_ms": ms(lambda: tomllib.loads(text)),
        "toml_plain_array_ms": ms(lambda: tomllib.loads(plain)),
        "read_record_ms": ms(lambda: parse_record(data)),
        "replay_ms": ms(lambda: replay(record)),
    }


def listings(runs: int) -> list[dict[str, Any]]:
    rows = []
    harmijan = random_play("harmijan", {"size": 7}, 3)
    game = harmijan.game
    # The position of the game with the longest listing: every stone free to move and place.
    in_play = [k for k, s in enumerate(p.position for p in harmijan.line) if s.phase == "play" and game.to_move(s) is not None]
    crowded = max(in_play, key=lambda k: len(game.legal_moves(harmijan.position(k))))
    state = harmijan.position(crowded)
    count = len(game.legal_moves(state))
    stones = sum(1 for v in state.stones if v)
    rows.append({
        "position": f"harmijan size 7: ply {crowded} of a random game ({stones} stones), its longest listing",
        "moves": count,
        "ms": 1000 * median_time(lambda: game.legal_moves(state), runs),
    })

    hermetica = GAMES["hermetica"]
    current = replay(parse_record((SAMPLES / "hermetica" / "hermetica-in-progress.toml").read_bytes()))
    state = current.state
    rows.append({
        "position": f"hermetica mid-game: hermetica-in-progress.toml, ply {current.plies}",
        "moves": len(hermetica.legal_actions(hermetica.begin_turn(state))),
        "ms": 1000 * median_time(lambda: hermetica.legal_actions(hermetica.begin_turn(state)), runs),
        "target_ms": 20,
    })
    # Every position of every sample game, each the faster of two runs (one busy moment on the
    # machine must not pick the position); the slowest is then timed like the others.
    worst = (0.0, "", None)
    for path in sorted((SAMPLES / "hermetica").glob("*.toml")):
        play = replay(parse_record(path.read_bytes()))
        for ply, state in enumerate(p.position for p in play.line):
            if state.phase == "turns" and state.winner is None:
                took = fastest(lambda: hermetica.legal_actions(hermetica.begin_turn(state)), 2)
                worst = max(worst, (took, f"{path.name}, ply {ply}", state), key=lambda w: w[0])
    _, where, state = worst
    rows.append({
        "position": f"hermetica, the slowest of all sample positions: {where}",
        "moves": len(hermetica.legal_actions(hermetica.begin_turn(state))),
        "ms": 1000 * median_time(lambda: hermetica.legal_actions(hermetica.begin_turn(state)), runs),
    })
    return rows


def playout_rates(seconds: float, rounds: int) -> list[dict[str, Any]]:
    """Random playouts per second from each case's start position: the game's own `playout`
    and the hooks' default (`Game.playout`, move by move), the same where a game gives no
    path of its own. Each round runs each playout for at least `seconds` (one playout at
    least); rounds interleave the playouts, so a busy moment on the machine touches each
    alike; the median of the rounds' rates."""
    from referee.data import builtin_data

    rows = []
    for label, game_id, given, target in PLAYOUT_CASES:
        game = GAMES[game_id]
        options = game.resolve_options(given)
        files = {name: builtin_data(kind, options[name]) for name, kind in game.data_options.items()}
        state = game.start(options, game.new_setup(options, files, 1))
        own = type(game).playout is not Game.playout
        ways = {"own": game.playout, "default": lambda s, rng: Game.playout(game, s, rng)}
        if not own:
            del ways["own"]
        rates: dict[str, list[float]] = {way: [] for way in ways}
        spent = dict.fromkeys(ways, 0.0)
        rng = random.Random(1)
        for playout in ways.values():
            playout(state, rng)  # warm-up: caches, the board's layout
        for _ in range(rounds):
            for way, playout in ways.items():
                if spent[way] >= seconds * rounds:
                    continue  # playouts of seconds each (hermetica's default): fewer rounds
                done, t0 = 0, time.perf_counter()
                while True:
                    playout(state, rng)
                    done += 1
                    elapsed = time.perf_counter() - t0
                    if elapsed >= seconds:
                        break
                rates[way].append(done / elapsed)
                spent[way] += elapsed
        default = statistics.median(rates["default"])
        rows.append({
            "games": label,
            "own_per_s": statistics.median(rates["own"]) if own else None,
            "default_per_s": default,
            "target_per_s": target,
        })
    return rows


def playout_table(rows: list[dict[str, Any]], rounds: int, loads: list[list[float]]) -> str:
    lines = [
        f"| random playouts per second, from the start, one core (median of {count(rounds, 'round')}) "
        "| the game's playout | the hooks' default | ratio | target (Ludii 1.3.12) |",
        "|---|---:|---:|---:|---:|",
    ]
    for row in rows:
        own, default = row["own_per_s"], row["default_per_s"]
        target = f"≥ {row['target_per_s']:,}" if row["target_per_s"] else ""
        lines.append(
            f"| {row['games']} | {f'{own:,.0f}' if own is not None else '(the default)'} "
            f"| {f'{default:,.0f}' if default >= 10 else f'{default:.2f}'} "
            f"| {f'{own / default:,.0f} ×' if own is not None else ''} | {target} |"
        )
    before, after = (", ".join(f"{x:.2f}" for x in load) for load in loads)
    lines.append(f"\nLoad average (1, 5, 15 min) on {os.cpu_count()} cores: {before} before these rows, "
                 f"{after} after.")
    return "\n".join(lines)


def playout_targets(rows: list[dict[str, Any]]) -> list[tuple[str, str, bool]]:
    return [(f"{row['games']}: ≥ {row['target_per_s']:,} random playouts/s (Ludii 1.3.12)",
             f"{row['own_per_s']:,.0f}/s (default {row['default_per_s']:,.0f}/s)",
             row["own_per_s"] >= row["target_per_s"])
            for row in rows if row["target_per_s"]]


def cut_playout_rows(seconds: float) -> list[dict[str, Any]]:
    """Random playouts per second from a position after the setup: the game's `playout` and
    the default one (games/base.py, move by move through the hooks) side by side, each run for
    `seconds` of wall time (at least one playout); CPU seconds beside, as the machine is shared."""
    from referee.games.base import Game
    from referee.games.hermetica.playout import TURNS

    rows = []
    def turns(n: int) -> str:
        return f"{n} turn" + ("" if n == 1 else "s")

    for game_id, options, label, limit in (
        ("harmijan", {"size": 6}, "harmijan size 6, after the setup and the colour choice, to the end", 1000),
        ("hermetica", {"scheme": "dawn"}, f"hermetica (dawn), after the element plies, cut after {turns(TURNS)} "
         "(the search's cut)", TURNS),
        ("hermetica", {"scheme": "dawn"}, "hermetica (dawn), after the element plies, cut after 8 turns", 8),
    ):
        setup = random_play(game_id, options, 5, stop_after=2 if game_id == "harmijan" else 6)
        game, state = setup.game, setup.state
        row: dict[str, Any] = {"position": label}
        for name, playout in (("fast", game.playout), ("default", lambda s, r, n: Game.playout(game, s, r, n))):
            rng = random.Random(11)
            count, wall0, cpu0 = 0, time.perf_counter(), time.process_time()
            while count == 0 or time.perf_counter() - wall0 < seconds:
                playout(state, rng, limit)
                count += 1
            row[f"{name}_per_s"] = count / (time.perf_counter() - wall0)
            row[f"{name}_per_cpu_s"] = count / (time.process_time() - cpu0)
        row["speed_up"] = row["fast_per_cpu_s"] / row["default_per_cpu_s"]
        rows.append(row)
    return rows


def harmijan_150() -> Replay:
    """A Harmijan game of 150 plies on the largest board (random legal turns, seed 43; the
    game would end at ply 151), sealed and stamped as `referee move` writes it."""
    return random_play("harmijan", {"size": 7}, 43, stop_after=150)


def replay_memory(text: str, plies: int) -> int:
    """Bytes a replay of the first `plies` plies of the record `text` holds once it is done
    (tracemalloc)."""
    import tracemalloc

    record = parse_record(text.encode("utf-8"))
    record.moves = record.moves[:plies]
    gc.collect()
    tracemalloc.start()
    try:
        kept = replay(record)
        size, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del kept
    return size


_REPLAY_TIMER = """
import statistics, sys, time
try:  # today's layout, then the baselines' older one
    from referee.record.reading import parse_record
    from referee.play.replay import replay
except ImportError:
    from referee.record import parse_record
    from referee.replay import replay
record = parse_record(open(sys.argv[1], "rb").read())
times = []
for _ in range(int(sys.argv[2])):
    t0 = time.perf_counter()
    replay(record)
    times.append(time.perf_counter() - t0)
print(statistics.median(times))
"""


def harmijan_replay(work: Path, rounds: int, runs: int) -> dict[str, Any]:
    """The 150-ply game replayed by today's code and by each of HARMIJAN_BASELINES, each in its
    own process (the median of `runs` replays), in `rounds` interleaved rounds; medians."""
    record = work / "harmijan-150.toml"
    text = harmijan_150().record.to_toml()
    record.write_text(text, encoding="utf-8")
    versions = {"today": ROOT}
    for label, commit in HARMIJAN_BASELINES.items():
        folder = work / f"referee-{commit}"
        folder.mkdir()
        try:
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "referee"],
                                     capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
        except (OSError, subprocess.CalledProcessError):
            continue  # no git history here (an unpacked release): that baseline is left out
        versions[label] = folder
    times: dict[str, list[float]] = {label: [] for label in versions}
    for _ in range(rounds):
        for label, folder in versions.items():
            env = {**player_env(), "PYTHONPATH": str(folder)}
            done = subprocess.run([sys.executable, "-c", _REPLAY_TIMER, str(record), str(max(runs, 10))],
                                  env=env, cwd=work, capture_output=True, text=True, check=True)
            times[label].append(float(done.stdout))
    ms = {label: 1000 * statistics.median(t) for label, t in times.items()}
    return {
        "plies": 150,
        "ms": ms["today"],
        # What a replay keeps, 75 plies against 150: linear when about twice as much.
        "kept_kib_75": replay_memory(text, 75) / 1024,
        "kept_kib_150": replay_memory(text, 150) / 1024,
        "baselines": [{"code": label, "commit": HARMIJAN_BASELINES[label], "ms": ms[label],
                       "speed_up": ms[label] / ms["today"]} for label in ms if label != "today"],
    }


def write_archive(folder: Path, texts: list[str], count: int) -> list[str]:
    """`count` record files in `folder`, the `texts` over and over."""
    folder.mkdir()
    files = []
    for i in range(count):
        files.append(str(folder / f"{i:05d}.toml"))
        Path(files[-1]).write_text(texts[i % len(texts)], encoding="utf-8")
    return files


def run_validate(files: list[str], env: dict[str, str] | None = None) -> tuple[float, int, float]:
    """`referee validate` over `files` as a player runs it: seconds, exit code, peak RSS in MiB
    of the largest of its processes (Linux reports KiB)."""
    t0 = time.perf_counter()
    child = subprocess.Popen([*referee_command(), "validate", *files], env=env or player_env(),
                             stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    return time.perf_counter() - t0, os.waitstatus_to_exitcode(status), usage.ru_maxrss / 1024


def parse_all(files: list[str]) -> float:
    """tomllib's parse of the files, reading them included, in seconds."""
    t0 = time.perf_counter()
    for path in files:
        tomllib.loads(Path(path).read_bytes().decode("utf-8"))
    return time.perf_counter() - t0


def tomllib_only_env(work: Path) -> dict[str, str]:
    """A player's environment in which `import rtoml` fails, as on a machine without its wheel:
    the referee then reads every record with tomllib (what rtoml saves, measured)."""
    blocker = work / "no-rtoml"
    blocker.mkdir(exist_ok=True)
    (blocker / "rtoml.py").write_text('raise ImportError("rtoml left out for the benchmark")\n')
    env = player_env()
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(blocker), env.get("PYTHONPATH")]))
    return env


def archives(work: Path, rounds: int) -> list[dict[str, Any]]:
    """`validate` against tomllib's parse of the same files, in interleaved rounds (a busy
    moment on the machine then touches both), medians; and `validate` with tomllib alone."""
    odd = [random_play("odd", {"size": 5}, 100 + seed).record.to_toml() for seed in range(20)]
    mixed = [p.read_text(encoding="utf-8") for folder in ("odd", "hermit-square", "hermit-hex", "harmijan", "hermetica")
             for p in sorted((SAMPLES / folder).glob("*.toml"))]
    cases = [
        ("2,000 finished 61-ply odd records, [[moves]] tables", write_archive(work / "tables", odd, 2000), 0.8),
        ("2,000 finished 61-ply odd records, plain moves arrays",
         write_archive(work / "plain", [plain_array_form(t) for t in odd], 2000), 3.0),
        ("1,000 odd, hermit, harmijan and hermetica records (the samples)", write_archive(work / "mixed", mixed, 1000), 2.5),
    ]
    rows = []
    alone_env = tomllib_only_env(work)
    for label, files, target in cases:
        run_validate(files[:100])  # the files into the page cache, the bytecode compiled
        checked, alone, parsed, codes = [], [], [], set()
        for _ in range(rounds):
            seconds, code, _ = run_validate(files)
            checked.append(seconds)
            codes.add(code)
            seconds, code, _ = run_validate(files, alone_env)
            alone.append(seconds)
            codes.add(code)
            parsed.append(parse_all(files))
        validate_s, parse_s = statistics.median(checked), statistics.median(parsed)
        alone_s = statistics.median(alone)
        rows.append({"records": label, "count": len(files), "exit_codes": sorted(codes),
                     "validate_s": validate_s, "parse_s": parse_s, "ratio": validate_s / parse_s,
                     "tomllib_only_s": alone_s, "tomllib_only_ratio": alone_s / parse_s,
                     "target": target})
    return rows


def validate_memory(work: Path) -> dict[str, Any]:
    """Peak memory of `validate` over 1,000 and over 10,000 finished odd records."""
    odd = [random_play("odd", {"size": 5}, 200 + seed).record.to_toml() for seed in range(10)]
    files = write_archive(work / "memory", odd, 10_000)
    small, large = run_validate(files[:1000]), run_validate(files)
    return {"records_1000_mib": small[2], "records_10000_mib": large[2], "seconds_10000": large[0],
            "exit_code": large[1], "ratio": large[2] / small[2]}


def standings_many(work: Path, count: int = 10_000, distinct: int = 200) -> dict[str, Any]:
    """`referee standings --json` over `count` records: `distinct` random finished odd games,
    each copied under other players' names (names are not sealed, and these games carry no
    `id`; a first comment line numbers each copy, so no two files have the same bytes and every
    copy is judged and counted as a game of its own)."""
    folder = work / "club"
    folder.mkdir()
    rng = random.Random(7)
    people = [f"Player {i:02d} <p{i:02d}@example.org>" for i in range(40)]
    texts = [random_play("odd", {"size": 5}, 1000 + seed).record.to_toml() for seed in range(distinct)]
    assert all('1 = "Ann"\n2 = "Bo"\n' in text for text in texts)
    for i in range(count):
        first, second = rng.sample(people, 2)
        text = f"# copy {i}\n" + texts[i % distinct].replace('1 = "Ann"\n2 = "Bo"\n', f'1 = "{first}"\n2 = "{second}"\n')
        sub = folder / f"{i // 1000:02d}"
        sub.mkdir(exist_ok=True)
        (sub / f"{i:05d}.toml").write_text(text, encoding="utf-8")
    t0 = time.perf_counter()
    done = subprocess.run([*referee_command(), "standings", "--json", str(folder)], env=player_env(),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - t0
    report = json.loads(done.stdout)
    counted = sum(row["played"] for row in report["games"]["odd"]["players"]) // 2
    processes = int(re.search(r"\((\d+) process", done.stderr)[1])
    return {
        "records": count,
        "exit_code": done.returncode,
        "games_counted": counted,
        "seconds": elapsed,
        "records_per_s": count / elapsed,
        "processes": processes,
        "judging": done.stderr.strip().splitlines()[-1],
    }


# -- the report ------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "date": dt.datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "os": platform.platform(),
        "python": platform.python_version(),
        "typer": version("typer"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=10, help="repeats per measurement (median)")
    # A command's time swings with whatever else the machine does in that moment (bursts of
    # 20-30 ms here); more rounds keep one burst from moving the median.
    parser.add_argument("--cli-runs", type=int, default=30, help="rounds of the command-line timings (median)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the archive timings (median)")
    parser.add_argument("--json", default=str(ROOT / "bench" / "results.json"), help="where to write the results")
    parser.add_argument("--standings-only", action="store_true", help="only the standings over 10,000 records (printed, not written)")
    parser.add_argument("--archives-only", action="store_true", help="only the archive rows of validate (printed, not written)")
    parser.add_argument("--playout-seconds", type=float, default=1.0, help="least time a round runs each playout")
    parser.add_argument("--playouts-only", action="store_true", help="only the random playout rows (printed, not written)")
    parser.add_argument("--replay-only", action="store_true", help="only the in-process replay rows (printed, not written): a quick check")
    parser.add_argument("--cut-playout-seconds", type=float, default=10.0, help="wall time of each cut playout timing")
    args = parser.parse_args()
    if args.playouts_only:
        m, before = machine(), os.getloadavg()
        rows = playout_rates(args.playout_seconds, args.rounds)
        print(f"Machine: {m['cpu']}, {m['cores']} cores; Python {m['python']}; {m['date']}\n")
        print(playout_table(rows, args.rounds, [before, os.getloadavg()]))
        print("\n".join(f"{t}: {m} — {'met' if ok else 'NOT met'}" for t, m, ok in playout_targets(rows)))
        print()
        print(cut_playout_table(cut_playout_rows(args.cut_playout_seconds)))
        return
    if args.replay_only:
        print(replay_rows(args.runs))
        return
    if args.standings_only:
        with tempfile.TemporaryDirectory() as tmp:
            print(json.dumps(standings_many(Path(tmp)), indent=2))
        return
    if args.archives_only:
        with tempfile.TemporaryDirectory() as tmp:
            print(archive_table(archives(Path(tmp), args.rounds), args.rounds))
        return

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        finished = work / "finished.toml"
        finished.write_text(random_play("odd", {"size": 5}, 1).record.to_toml(), encoding="utf-8")
        sixty = work / "sixty.toml"
        sixty.write_text(random_play("odd", {"size": 5}, 2, stop_after=60).record.to_toml(), encoding="utf-8")
        cli = command_line(args.cli_runs, work, finished, sixty)
        games = throughput(args.runs)
        forms = toml_forms(args.runs)
        lists = listings(args.runs)
        cut_playouts = cut_playout_rows(args.cut_playout_seconds)
        club = standings_many(work)
        harmijan = harmijan_replay(work, args.rounds, args.runs)
        many = archives(work, args.rounds)
        memory = validate_memory(work)
        growth = replay_growth(args.runs)
    plays_load = [os.getloadavg()]
    plays = playout_rates(args.playout_seconds, args.rounds)
    plays_load.append(os.getloadavg())

    floor = cli['python -c "import typer"']
    odd5, odd12 = games[0], games[1]
    hermetica_mid = lists[1]
    move_ratio = cli["referee move (60-ply odd)"] / floor
    targets = [
        *((f"validate {row['records']} ≤ {row['target']:g} × tomllib's parse", f"{row['ratio']:.2f} ×",
           row["ratio"] <= row["target"]) for row in many),
        ("referee status ≤ 1.4 × import typer", f"{cli['referee status (finished odd)'] / floor:.2f} ×", cli["referee status (finished odd)"] / floor <= 1.4),
        ("referee move (60 plies) ≤ 1.7 × import typer", f"{move_ratio:.2f} ×", move_ratio <= 1.7),
        *((f"harmijan 150-ply replay ≥ 10 × faster than {row['code']} ({row['commit']})",
           f"{row['speed_up']:.1f} × ({row['ms']:.1f} → {harmijan['ms']:.1f} ms)", row["speed_up"] >= 10)
          for row in harmijan["baselines"][:1]),
        ("validate peak RSS over 10,000 records flat (≤ 1.1 × over 1,000)",
         f"{memory['records_10000_mib']:.0f} MiB vs {memory['records_1000_mib']:.0f} MiB", memory["ratio"] <= 1.1),
        ("replay of 4 × the plies < 6 × the time (side-12 odd, 90 → 360 plies)",
         f"{growth['ratio']:.2f} × ({growth['ms_90']:.1f} → {growth['ms_360']:.1f} ms)", growth["ratio"] < 6),
        ("odd side 5: ≥ 5,000 games/s (rules)", f"{odd5['rules_games_per_s']:,.0f} games/s", odd5["rules_games_per_s"] >= 5000),
        ("odd side 12: < 20 ms a game (rules)", f"{odd12['ms_per_game_rules']:.1f} ms", odd12["ms_per_game_rules"] < 20),
        ("hermetica mid-game listing < 20 ms", f"{hermetica_mid['ms']:.1f} ms", hermetica_mid["ms"] < 20),
        *playout_targets(plays),
    ]
    results = {
        "machine": machine(),
        "runs": args.runs,
        "cli_runs": args.cli_runs,
        "rounds": args.rounds,
        "command_line_ms": {k: round(v * 1000, 1) for k, v in cli.items()},
        "status_over_typer": round(cli["referee status (finished odd)"] / floor, 2),
        "move_over_typer": round(move_ratio, 2),
        "throughput": [{k: round(v, 2) if isinstance(v, float) else v for k, v in row.items()} for row in games],
        "toml_61_ply_odd_record": {k: round(v, 3) for k, v in forms.items()},
        "listing": [{k: round(v, 2) if isinstance(v, float) else v for k, v in row.items()} for row in lists],
        "cut_playouts": [{k: round(v, 2) if isinstance(v, float) else v for k, v in row.items()} for row in cut_playouts],
        "standings_10000": {k: round(v, 2) if isinstance(v, float) else v for k, v in club.items()},
        "harmijan_150_replay": {k: round(v, 2) if isinstance(v, float) else v for k, v in harmijan.items()},
        "archives": [{k: round(v, 3) if isinstance(v, float) else v for k, v in row.items()} for row in many],
        "validate_memory": {k: round(v, 2) if isinstance(v, float) else v for k, v in memory.items()},
        "playouts": [{k: round(v, 2) if isinstance(v, float) else v for k, v in row.items()} for row in plays],
        "playouts_load": plays_load,
        "replay_growth": {k: round(v, 2) for k, v in growth.items()},
        "load": os.getloadavg(),
        "targets": [{"target": t, "measured": m, "met": ok} for t, m, ok in targets],
    }
    Path(args.json).write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(report(results))
    print(f"\nwritten to {args.json}")


def cut_playout_table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| random playouts per second | the game's playout | the default (hooks, move by move) | ratio (CPU) |",
        "|---|---:|---:|---:|",
    ]
    lines += [
        f"| {row['position']} | {row['fast_per_s']:,.1f}/s ({row['fast_per_cpu_s']:,.1f} per CPU s) "
        f"| {row['default_per_s']:,.2f}/s ({row['default_per_cpu_s']:,.2f} per CPU s) | {row['speed_up']:.1f} × |"
        for row in rows
    ]
    return "\n".join(lines)


def archive_table(rows: list[dict[str, Any]], rounds: int) -> str:
    lines = [
        f"| `referee validate` (median of {rounds} rounds) | records | validate | tomllib's parse | ratio "
        "| target | validate, tomllib alone | ratio |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    lines += [
        f"| {row['records']} (exit {', '.join(map(str, row['exit_codes']))}) | {row['count']:,} | {row['validate_s']:.2f} s "
        f"| {row['parse_s']:.2f} s | {row['ratio']:.2f} × | ≤ {row['target']:g} × "
        f"| {row['tomllib_only_s']:.2f} s | {row['tomllib_only_ratio']:.2f} × |"
        for row in rows
    ]
    return "\n".join(lines)


def report(results: dict[str, Any]) -> str:
    m = results["machine"]
    lines = [
        f"Machine: {m['cpu']}, {m['cores']} cores; {m['os']}; Python {m['python']}, typer {m['typer']}; "
        f"{m['date']}; medians of {results['cli_runs']} runs (command line), {results['runs']} (the rest)",
        "",
        "| command line | median |",
        "|---|---:|",
    ]
    lines += [f"| `{name}` | {ms:.0f} ms |" for name, ms in results["command_line_ms"].items()]
    lines += [
        "",
        f"`referee status` takes {results['status_over_typer']:.2f} × `python -c \"import typer\"`, "
        f"`referee move` on 60 plies {results['move_over_typer']:.2f} ×.",
    ]
    lines += [
        "",
        "| full games, in-process | plies | rules only | replay of a read record | from the record's bytes | TOML reading alone |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for row in results["throughput"]:
        lines.append(
            f"| {row['games']} ({row['records']} games) | {row['plies_per_game']:g} "
            f"| {row['rules_games_per_s']:,.0f}/s ({row['ms_per_game_rules']:.2f} ms) "
            f"| {row['replay_games_per_s']:,.0f}/s | {row['end_to_end_games_per_s']:,.0f}/s "
            f"| {row['toml_read_ms']:.2f} ms |"
        )
    forms = results["toml_61_ply_odd_record"]
    lines += [
        "",
        f"A finished 61-ply odd record: tomllib reads it in {forms['toml_tables_ms']:.2f} ms as [[moves]] "
        f"tables, {forms['toml_plain_array_ms']:.2f} ms as a plain moves array; reading the record "
        f"(TOML and checks) takes {forms['read_record_ms']:.2f} ms, and replaying it (notation, rules, "
        f"digests) {forms['replay_ms']:.2f} ms.",
        "",
        "| legal moves of | moves | median |",
        "|---|---:|---:|",
    ]
    lines += [f"| {row['position']} | {row['moves']} | {row['ms']:.1f} ms |" for row in results["listing"]]
    lines += ["", cut_playout_table(results["cut_playouts"])]
    lines += ["", archive_table(results["archives"], results["rounds"])]
    memory, hj = results["validate_memory"], results["harmijan_150_replay"]
    older = "; ".join(f"{row['code']} ({row['commit']}): {row['ms']:.1f} ms, {row['speed_up']:.1f} × slower"
                      for row in hj["baselines"])
    lines += [
        "",
        f"`referee validate` over 10,000 finished odd records: {memory['seconds_10000']:.1f} s, peak memory "
        f"{memory['records_10000_mib']:.0f} MiB (over 1,000: {memory['records_1000_mib']:.0f} MiB). A {hj['plies']}-ply "
        f"Harmijan game replays in {hj['ms']:.1f} ms; the code {older}. Its replay keeps "
        f"{hj['kept_kib_150']:.0f} KiB after 150 plies, {hj['kept_kib_75']:.0f} KiB after 75. Load average during the run: "
        f"{', '.join(f'{x:.1f}' for x in results['load'])}.",
    ]
    lines += ["", playout_table(results["playouts"], results["rounds"], results["playouts_load"])]
    club = results["standings_10000"]
    lines += [
        "",
        "| `referee standings` over 10,000 records | wall time | records/s | processes | games counted |",
        "|---|---:|---:|---:|---:|",
        f"| finished 61-ply odd games, 40 players (exit {club['exit_code']}) | {club['seconds']:.1f} s "
        f"| {club['records_per_s']:,.0f} | {club['processes']} | {club['games_counted']:,} |",
    ]
    lines += [
        "",
        "| target | measured | met |",
        "|---|---:|:---:|",
    ]
    lines += [f"| {t['target']} | {t['measured']} | {'yes' if t['met'] else 'NO'} |" for t in results["targets"]]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
