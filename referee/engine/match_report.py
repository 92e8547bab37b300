"""What a match comes to (SPEC §10, §13): each engine's wins, draws, losses and faults, its
mean time a move, the pentanomial counts of the game pairs, the Elo difference with its 95 %
interval and the SPRT (stats.py), and the standings of SPEC §7 over the records' folder with
each engine's Elo from the games; in words (78 columns), as JSON, and as the one progress line
a terminal shows while the games are played.

The standings' Elo column is the engines' likeliest ratings over the games in the folder
(stats.ratings), not the club's rating, which moves game by game and so depends on the order
the games finished in: in an 11–9 match the club's rating could put the loser higher, while
the likeliest ratings of two engines are 1500 ± d/2, d the match's difference.
"""

from __future__ import annotations

import math
import textwrap
from typing import Any, NamedTuple, Sequence

from referee.club.ranking import Table
from referee.club.standings import Report, standings
from referee.engine import stats, tournament
from referee.engine.arbiter import GameResult
from referee.engine.match import Played
from referee.games.base import count
from referee.text import plain

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
    for engine, name in enumerate(played.names):
        mine = [r for r in played.results if engine in r.engines]
        scores = [r.score(engine) for r in mine]
        faults = [r.fault[1] for r in mine if r.fault and r.fault[0] == engine]
        times = [ms for r in mine for ms in r.times.get(engine, [])]
        rows.append(Tally(
            name, played.plan.settings.commands[engine], scores.count(1.0), scores.count(0.0),
            scores.count(0.5), faults.count("illegal"), faults.count("crash"), faults.count("timeout"),
            sum(times) / len(times) if times else None,
        ))
    return rows


class Meeting(NamedTuple):
    """Two engines' games against each other: the first engine's wins, draws and losses,
    the pentanomial counts of their pairs, and the first's Elo over the second."""

    engines: tuple[int, int]
    wins: int
    draws: int
    losses: int
    pentanomial: list[int]
    elo: tuple[float, float, float] | None


def meetings(played: Played) -> list[Meeting]:
    """Every pairing of the match (one for two engines), over the games counted."""
    by_number = {r.number: r for r in played.results}
    found = []
    s = played.plan.settings
    for a, b in tournament.pairings(len(played.names), s.gauntlet):
        games = [r for r in played.results if set(r.engines) == {a, b}]
        scores = [r.score(a) for r in games]
        pairs = [sum(by_number[n].score(a) for n in p.numbers) for p in played.pairs if p.engines == (a, b)]
        counts = stats.pentanomial(pairs)
        found.append(Meeting((a, b), scores.count(1.0), scores.count(0.5), scores.count(0.0), counts,
                             stats.elo_interval(counts)))
    return found


def judged(played: Played) -> Report:
    """SPEC §7's standings over the match's folder (every record there, this match's and any
    before it), as `referee standings DIR` gives them, the Elo column the engines' likeliest
    ratings (see the top)."""
    report = standings([played.folder])
    tables = {game: _rated(table) for game, table in report.standings.games.items()}
    return report._replace(standings=report.standings._replace(games=tables))


def _rated(table: Table) -> Table:
    scores = {pair: [c.score for c in cells if c.score is not None] for pair, cells in table.cells.items()}
    rating = stats.ratings(scores)
    return table._replace(rows=[row._replace(rating=rating.get(row.key, stats.START)) for row in table.rows])


# -- words -----------------------------------------------------------------------------------


def game_lines(result: GameResult, names: Sequence[str], games: int) -> list[str]:
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
    """After the games: the standings, each engine's tally, W–D–L and the pentanomial counts,
    the Elo difference, the SPRT, the folder."""
    out = [""] + report.lines() + [""]
    rows = tallies(played)
    name_width = max(6, min(26, max(len(plain(row.name)) for row in rows)))
    out.append(f"{'Engine':<{name_width}}  Won Drawn Lost Illegal Crashed Timeouts ms/move")
    for row in rows:
        ms = f"{row.mean_ms:.0f}" if row.mean_ms is not None else "–"
        out.append(f"{_cut(plain(row.name), name_width):<{name_width}}  {row.wins:>3} {row.draws:>5} "
                   f"{row.losses:>4} {row.illegal:>7} {row.crashes:>7} {row.timeouts:>8} {ms:>7}")
    found = meetings(played)
    if len(played.names) == 2:
        (meeting,) = found
        out.append(f"W–D–L of engine 1: {meeting.wins}–{meeting.draws}–{meeting.losses}; pairs scoring "
                   f"0, ½, 1, 1½, 2: {_listed(meeting.pentanomial)}")
        if meeting.elo is not None:
            estimate, low, high = meeting.elo
            games = len(played.results)
            out.append(f"Elo difference, engine 1 − engine 2: {_elo(estimate)} (95 %: {_elo(low)} to "
                       f"{_elo(high)}), {games} game{'s' if games != 1 else ''}")
    else:
        out.append("Pairings (W–D–L of the first; pairs scoring 0, ½, 1, 1½, 2; Elo, 95 %):")
        for meeting in found:
            a, b = (plain(played.names[e]).removesuffix(tournament.ENGINE) for e in meeting.engines)
            elo = (f"{_elo(meeting.elo[0])} ({_elo(meeting.elo[1])} to {_elo(meeting.elo[2])})"
                   if meeting.elo else "no pair yet")
            tail = f": {meeting.wins}–{meeting.draws}–{meeting.losses} {_listed(meeting.pentanomial)} {elo}"
            room = max(8, (WIDTH - 2 - 3 - len(tail)) // 2)
            out.append(f"  {_cut(a, room)} – {_cut(b, room)}{tail}")
    if played.plan.settings.sprt is not None:
        out.append(sprt_line(played))
    out.append(_cut(plain(f"Records: {played.folder}")))
    return out


def sprt_line(played: Played) -> str:
    """`LLR 2.96 (−2.94, 2.94): H1 accepted`."""
    test = played.plan.settings.sprt
    said = {"H1": "H1 accepted", "H0": "H0 accepted"}.get(played.verdict or "", "no decision yet")
    return f"LLR {_number(played.llr or 0.0)} ({_number(test.lower)}, {_number(test.upper)}): {said}"


def progress_line(played: Played) -> str:
    """The line a terminal shows while the games are played: games done, and for two engines
    W–D–L, the pentanomial counts, the Elo difference with its interval, and the LLR."""
    total = played.plan.games
    done = len(played.results)
    line = f"{done}/{total} games"
    if len(played.names) == 2:
        scores = [r.score(0) for r in played.results]
        line += f"  {scores.count(1.0)}–{scores.count(0.5)}–{scores.count(0.0)}"
        (meeting,) = meetings(played)
        line += f"  {_listed(meeting.pentanomial)}"
        if meeting.elo is not None:
            line += f"  Elo {_elo(meeting.elo[0])} ({_elo(meeting.elo[1])} to {_elo(meeting.elo[2])})"
        if played.plan.settings.sprt is not None:
            line += f"  LLR {_number(played.llr or 0.0)}"
    return _cut(line)


def _listed(counts: Sequence[int]) -> str:
    return "[" + ", ".join(map(str, counts)) + "]"


def _number(value: float) -> str:
    return f"{value:.2f}".replace("-", "−")


def _elo(value: float) -> str:
    if math.isinf(value):
        return "+∞" if value > 0 else "−∞"
    return f"{round(value) + 0:+d}".replace("-", "−")  # + 0: never "−0"


def _cut(text: str, width: int = WIDTH) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


# -- JSON ------------------------------------------------------------------------------------


def to_json(played: Played, report: Report) -> dict[str, Any]:
    """SPEC §10's and §13's keys, and more: each engine's command and Elo, every pairing,
    every game, the standings (§7)."""
    found = meetings(played)
    two = found[0] if len(played.names) == 2 else None
    estimate, low, high = two.elo if two is not None and two.elo is not None else (None, None, None)
    ratings = {row.player: row.rating for table in report.standings.games.values() for row in table.rows}
    test = played.plan.settings.sprt
    return {
        "games": len(played.results),
        "engines": [
            {"name": row.name, "command": row.command, "wins": row.wins, "losses": row.losses,
             "draws": row.draws, "illegal": row.illegal, "crashes": row.crashes,
             "timeouts": row.timeouts,
             "mean_ms": round(row.mean_ms, 1) if row.mean_ms is not None else None,
             "elo": round(ratings[row.name], 1) if row.name in ratings else None}
            for row in tallies(played)
        ],
        "pentanomial": two.pentanomial if two is not None else None,
        "elo_diff": _finite(estimate),
        "elo_interval": [_finite(low), _finite(high)],
        "sprt": {"llr": round(played.llr or 0.0, 4), "lower": round(test.lower, 4), "upper": round(test.upper, 4),
                 "result": played.verdict, "elo0": test.elo0, "elo1": test.elo1, "alpha": test.alpha,
                 "beta": test.beta} if test is not None else None,
        "pairings": [
            {"engines": [m.engines[0] + 1, m.engines[1] + 1], "wins": m.wins, "draws": m.draws,
             "losses": m.losses, "pentanomial": m.pentanomial,
             "elo_diff": _finite(m.elo[0]) if m.elo else None,
             "elo_interval": [_finite(m.elo[1]), _finite(m.elo[2])] if m.elo else [None, None]}
            for m in found
        ],
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
    return None if value is None or math.isinf(value) else round(value, 1) + 0.0  # + 0.0: never −0.0
