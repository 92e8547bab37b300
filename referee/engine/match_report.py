"""What a match comes to (SPEC §10): each engine's wins, draws, losses and faults, its mean
time a move, the Elo difference between the two with its 95 % interval, and the standings of
SPEC §7 over the records' folder; in words (78 columns) and as JSON.

The Elo difference comes from the score alone, as engine testers work it out (cutechess-cli,
fastchess): each game scores s = 1, ½ or 0 for ENGINE1; over n games the mean score is
μ = Σs / n and its variance σ² = Σ(s − μ)² / n, so μ's standard error is σ / √n. Elo's
logistic curve turns a score into a difference, E(p) = −400 · log10(1 / p − 1): the estimate
is E(μ), the 95 % interval [E(μ − 1.96 σ/√n), E(μ + 1.96 σ/√n)]. When every game had the same
result σ is 0 and says nothing of the spread; the interval is then the Wilson score interval of
μ over n games, which the binomial variance p(1 − p) / n gives at its ends (so 10 wins in 10
games still bound the difference from below). A score of 0 or 1 is an unbounded difference:
±∞ in words, null in JSON.
"""

from __future__ import annotations

import math
import textwrap
from typing import Any, NamedTuple

from referee.club.standings import Report, standings
from referee.games.base import count
from referee.engine.match import GameResult, Played
from referee.text import plain

Z = 1.959964  # the normal quantile of a two-sided 95 % interval
WIDTH = 78


class Tally(NamedTuple):
    name: str
    command: str
    wins: int
    losses: int
    draws: int
    illegal: int
    crashes: int
    timeouts: int
    mean_ms: float | None


def tallies(played: Played) -> list[Tally]:
    rows = []
    for engine in (0, 1):
        scores = [r.score(engine) for r in played.results]
        faults = [r.fault[1] for r in played.results if r.fault and r.fault[0] == engine]
        times = [ms for r in played.results for ms in r.times[engine]]
        rows.append(Tally(
            played.names[engine], played.plan.commands[engine], scores.count(1.0), scores.count(0.0),
            scores.count(0.5), faults.count("illegal"), faults.count("crash"), faults.count("timeout"),
            sum(times) / len(times) if times else None,
        ))
    return rows


def elo(score: float) -> float:
    """The Elo difference that makes `score` the expected score: E(p) = −400 · log10(1/p − 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def wilson(score: float, games: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a mean score over `games` games."""
    centre = (score + Z * Z / (2 * games)) / (1 + Z * Z / games)
    half = Z * math.sqrt(score * (1 - score) / games + Z * Z / (4 * games * games)) / (1 + Z * Z / games)
    # At a score of 0 or 1 that end is 0 or 1 exactly (rounding would make it a finite Elo).
    return (0.0 if score <= 0 else max(0.0, centre - half)), (1.0 if score >= 1 else min(1.0, centre + half))


def elo_difference(scores: list[float]) -> tuple[float, float, float] | None:
    """ENGINE1's Elo over ENGINE2 from its game scores: (estimate, low, high) at 95 %, by the
    formulas at the top; None without a game."""
    n = len(scores)
    if not n:
        return None
    mean = sum(scores) / n
    spread = math.sqrt(sum((s - mean) ** 2 for s in scores) / n)
    if spread > 0:
        low, high = mean - Z * spread / math.sqrt(n), mean + Z * spread / math.sqrt(n)
    else:
        low, high = wilson(mean, n)
    return elo(mean), elo(low), elo(high)


def judged(played: Played) -> Report:
    """SPEC §7's standings over the match's folder (every record there, this match's and any
    before it), as `referee standings DIR` gives them."""
    return standings([played.folder])


# -- words -----------------------------------------------------------------------------------


def game_lines(result: GameResult, names: tuple[str, str], games: int) -> list[str]:
    """`001 referee 0.1.0 (engine) – random (engine): 1–0 (21 plies) 3 groups of 5 or more:
    odd`; the reason on lines of its own where both would not fit in 78 columns."""
    width = max(3, len(str(games)))
    first, second = (names[e] for e in result.engines)
    marks = {1.0: "1", 0.5: "½", 0.0: "0"}
    score = f"{marks[result.score(result.engines[0])]}–{marks[result.score(result.engines[1])]}"
    head = plain(f"{result.number:0{width}d} {first} – {second}: {score} ({count(result.plies, 'ply', 'plies')})")
    reason = plain(result.reason)
    if len(head) + 1 + len(reason) <= WIDTH:
        return [f"{head} {reason}"]
    indent = " " * (width + 1)
    return [_cut(head)] + textwrap.wrap(reason, WIDTH, initial_indent=indent, subsequent_indent=indent)


def lines(played: Played, report: Report) -> list[str]:
    """After the games: the standings, each engine's tally, the Elo difference, the folder."""
    out = [""] + report.lines() + [""]
    rows = tallies(played)
    name_width = max(6, min(26, max(len(plain(row.name)) for row in rows)))
    out.append(f"{'Engine':<{name_width}}  Won Drawn Lost Illegal Crashed Timeouts ms/move")
    for row in rows:
        ms = f"{row.mean_ms:.0f}" if row.mean_ms is not None else "–"
        out.append(f"{_cut(plain(row.name), name_width):<{name_width}}  {row.wins:>3} {row.draws:>5} "
                   f"{row.losses:>4} {row.illegal:>7} {row.crashes:>7} {row.timeouts:>8} {ms:>7}")
    found = elo_difference([r.score(0) for r in played.results])
    if found is not None:
        estimate, low, high = found
        games = len(played.results)
        out.append(f"Elo difference, engine 1 − engine 2: {_elo(estimate)} (95 %: {_elo(low)} to "
                   f"{_elo(high)}), {games} game{'s' if games != 1 else ''}")
    out.append(_cut(plain(f"Records: {played.folder}")))
    return out


def _elo(value: float) -> str:
    if math.isinf(value):
        return "+∞" if value > 0 else "−∞"
    return f"{round(value) + 0:+d}".replace("-", "−")  # + 0: never "−0"


def _cut(text: str, width: int = WIDTH) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


# -- JSON ------------------------------------------------------------------------------------


def to_json(played: Played, report: Report) -> dict[str, Any]:
    """SPEC §10's keys, and more: each engine's command, every game, the standings (§7)."""
    found = elo_difference([r.score(0) for r in played.results])
    estimate, low, high = found if found is not None else (None, None, None)
    return {
        "games": len(played.results),
        "engines": [
            {"name": row.name, "command": row.command, "wins": row.wins, "losses": row.losses,
             "draws": row.draws, "illegal": row.illegal, "crashes": row.crashes,
             "timeouts": row.timeouts,
             "mean_ms": round(row.mean_ms, 1) if row.mean_ms is not None else None}
            for row in tallies(played)
        ],
        "elo_diff": _finite(estimate),
        "elo_interval": [_finite(low), _finite(high)],
        "records": played.folder,
        "results": [
            {"game": r.number, "file": r.file, "seat1": played.names[r.engines[0]],
             "seat2": played.names[r.engines[1]], "winners": list(r.winners), "reason": r.reason,
             "plies": r.plies, "adjudicated": r.capped,
             "fault": {"engine": r.fault[0] + 1, "kind": r.fault[1]} if r.fault else None}
            for r in played.results
        ],
        "standings": report.json(),
    }


def _finite(value: float | None) -> float | None:
    """A number for JSON: rounded, None where unbounded (JSON has no infinity)."""
    return None if value is None or math.isinf(value) else round(value, 1)
