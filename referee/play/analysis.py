"""The analysis of a game (SPEC §11, `referee analyse`): every ply judged by the engine, as plain
values a page or a command can use, and in words. It reads the record and never writes it.

Each position of the line is searched once, as `hint` would search it (seeded by its ply, so
that with a number of iterations the answer is the same on every run, and the same whether the
whole game or a range of it is analysed):

- the mover's chance before a ply is the value of the best move found there;
- the value of the move played comes from the same search where it was tried often enough
  (ENOUGH), else from the search of the position after it (which is the next ply's "before"),
  from the mover's point of view: the mean of all that search's playouts, as a move's value in
  the search before it is the mean of all playouts through it (the best reply's mean alone
  would leave out the weak replies the search tried, and put the chance after low);
- the loss is best − played, never below 0, and marks the ply (MARKS);
- a position the search proves is worth exactly 1, ½ or 0, and a proven win given away (a move
  after which the engine cannot prove the win any more) is always a blunder;
- in the crab game the solver judges each round first: winnable before and lost after is a
  blunder; the search is asked only where the solver cannot settle a position in the time;
- a pass the rules forced, a resignation, a time claim or an agreed draw is listed, not judged.

This module stands in play/, not engine/, so that the review page (render/, which may import
play but not engine) can draw an analysis: `analyse(play, …).plies` are the dicts of SPEC §11.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.errors import UsageError, within
from referee.games.base import Pass
from referee.play.replay import Ending, Replay
from referee.play.words import who, who_and_seat
from referee.search.mcts import Search
from referee.search.solver import settle
from referee.text import TEXT_WIDTH, columns, plain, wrap

DEFAULT_SECONDS = 1.0
SECONDS = (0.1, 600.0)  # `--seconds`, a position (SPEC §11)
ITERATIONS = (1, 1_000_000)  # `--iterations`, a position: the work bounded as the time is
MIN_SECONDS = 0.05  # the search's least time where the solver took the rest
# The move played is valued from the search before it where it was tried at least this often
# (the mean of 100 playouts is within some ±0.05 of its worth), else by a search of its own.
ENOUGH = 100
# A ply's mark by its loss, the worst first (SPEC §11).
MARKS = ((0.30, "blunder"), (0.20, "mistake"), (0.10, "inaccuracy"))
PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}


def mark(loss: float, given_away: bool = False) -> str | None:
    """The mark of a ply that lost `loss` (0–1) of the mover's chance: "inaccuracy" from 0.10,
    "mistake" from 0.20, "blunder" from 0.30, else None; a proven win given away is a blunder
    whatever its loss."""
    if given_away:
        return "blunder"
    for least, name in MARKS:
        if loss >= least:
            return name
    return None


@dataclass(frozen=True)
class Worth:
    """What a move or a position is worth to a seat: 0–1, and whether that is proven."""

    value: float
    proven: bool
    visits: int = 0


@dataclass
class Judged:
    """One position searched: the seat to move there, the best move found and its worth (the
    position's worth to that seat), and every move the search tried, by its notation."""

    seat: int
    best: str | None
    worth: Worth
    moves: dict[str, Worth] = field(default_factory=dict)
    # The position's worth as the move that led here was valued in the search before it: the
    # mean of all its playouts, the other seat's tries of weak replies included. (Its best move's
    # mean leaves those out, and the mover's chance after a move valued so would come out low.)
    reached: Worth | None = None

    @property
    def as_reached(self) -> Worth:
        return self.reached if self.reached is not None else self.worth


@dataclass
class Analysis:
    """`analyse`'s answer: `plies`, one dict a ply of the range (SPEC §11: ply, seat, move,
    before, after, best, best_value, loss, mark, proven — the value before it proven —; and
    `after_proven`, and `forced`, true for a pass the rules forced, listed and not judged),
    the time or the iterations each position was given, and the marks of each seat."""

    plies: list[dict[str, Any]]
    seconds: float | None
    iterations: int | None
    seats: list[int]

    def counts(self) -> dict[int, dict[str, int]]:
        """Each seat's count of each mark, every seat of the game listed."""
        counts = {seat: {name: 0 for _, name in reversed(MARKS)} for seat in self.seats}
        for ply in self.plies:
            if ply["mark"] is not None:
                counts[ply["seat"]][ply["mark"]] += 1
        return counts

    def json(self) -> dict[str, Any]:
        """`analyse --json`: with `--iterations` the same on every run (no time taken in it)."""
        return {"plies": self.plies, "seconds": self.seconds, "iterations": self.iterations}


def plies_range(play: Replay, first: int | None, last: int | None) -> tuple[int, int]:
    """The plies `--plies A..B` names, checked against the record (1 to its last ply)."""
    if play.plies == 0:
        raise UsageError("the record has no ply yet: there is nothing to analyse")
    first = 1 if first is None else first
    last = play.plies if last is None else last
    if not 1 <= first <= last <= play.plies:
        raise UsageError(f"--plies must lie within 1..{play.plies} (the record's plies), "
                         f"first to last, not {first}..{last}")
    return first, last


def analyse(play: Replay, seconds: float | None = None, iterations: int | None = None,
            plies: tuple[int | None, int | None] = (None, None), seed: int = 0) -> Analysis:
    """Every ply of `plies` (first, last; None: from the first, to the last) of the replayed
    record `play`, judged by searches of `seconds` (default 1) or `iterations` a position.
    Raises UsageError for bounds the command cannot run with."""
    if seconds is not None and iterations is not None:
        raise UsageError("give --seconds or --iterations, not both")
    if iterations is not None:
        within("--iterations", iterations, ITERATIONS, " a ply", ",")
    else:
        seconds = within("--seconds", DEFAULT_SECONDS if seconds is None else seconds, SECONDS, " a ply")
    first, last = plies_range(play, *plies)
    judge = _Judge(play, seconds, iterations, seed)
    rows = [judge.ply(number) for number in range(first, last + 1)]
    return Analysis(rows, seconds, iterations, list(play.seats))


class _Judge:
    """The searches of one analysis, each position searched once (a ply's "after" is the next
    ply's "before")."""

    def __init__(self, play: Replay, seconds: float | None, iterations: int | None, seed: int):
        self.play, self.game = play, play.game
        self.seconds, self.iterations, self.seed = seconds, iterations, seed
        self.judged: dict[int, Judged] = {}

    def ply(self, number: int) -> dict[str, Any]:
        play = self.play
        move, mover = play.last_move(number), play.line[number].mover
        row: dict[str, Any] = {"ply": number, "seat": mover, "move": str(move), "before": None,
                               "after": None, "best": None, "best_value": None, "loss": None,
                               "mark": None, "proven": False, "after_proven": False, "forced": False}
        if isinstance(move, Ending) or (isinstance(move, Pass) and play.forced_pass(number)):
            row["forced"] = isinstance(move, Pass)
            return row  # a pass the rules forced, or the players' word: listed, not judged
        before = self.position(number - 1)
        value = _for(self.game, before.seat, before.worth, mover)
        after = self.after(number, before, str(move), mover)
        chance, then = round(value.value, 4), round(after.value, 4)
        loss = round(max(0.0, chance - then), 4)  # of the figures shown: they add up
        given_away = value.proven and value.value >= 1.0 and not (after.proven and after.value >= 1.0)
        row.update(before=chance, after=then,
                   best=before.best if before.best is not None else str(move),
                   best_value=chance, loss=loss, mark=mark(loss, given_away),
                   proven=value.proven, after_proven=after.proven)
        return row

    def after(self, number: int, before: Judged, played: str, mover: int) -> Worth:
        """What the move of ply `number` is worth to its mover: from the search before it where
        it was tried enough, else from the position it left."""
        tried = before.moves.get(played)
        if tried is not None:
            won_before = before.worth.proven and before.worth.value >= 1.0
            # A proven win is given away only where the position after cannot be proven won
            # either: a move merely tried often is looked at from the position it left.
            if tried.proven or played == before.best or (tried.visits >= ENOUGH and not won_before):
                return tried
        state = self.play.position(number)
        if self.game.outcome(state) is not None:
            return Worth(self.game.returns(state)[mover - 1], True)
        then = self.position(number)
        return _for(self.game, then.seat, then.as_reached, mover)

    def position(self, ply: int) -> Judged:
        """The position after `ply` plies, searched (once)."""
        if ply not in self.judged:
            self.judged[ply] = self._search(ply)
        return self.judged[ply]

    def _search(self, ply: int) -> Judged:
        play, game = self.play, self.game
        state = play.position(ply)
        if game.must_pass(state) and ply < play.plies and play.forced_pass(ply + 1):
            return self.position(ply + 1)  # the forced pass changes only whose turn it is
        seat = game.to_move(state)
        budget = self.seconds
        exact = settle(game, state, budget / 2 if budget is not None else 0.0, self.iterations)
        if exact is not None and exact.winnable is not None:  # the crab solver settled it
            if exact.winnable:
                best = exact.line[0]
                return Judged(seat, best, Worth(1.0, True), {best: Worth(1.0, True)})
            return Judged(seat, None, Worth(0.0, True))  # lost, whatever is played
        if budget is not None and exact is not None:
            budget = max(budget - exact.seconds, MIN_SECONDS)
        search = Search(game, state, seed=self.seed + ply)
        search.run(seconds=budget, iterations=self.iterations)
        found = search.candidates(max(1, len(search.root.children)))
        moves = {str(c.move): Worth(c.value, c.proven, c.visits) for c in found}
        best = found[0]
        tried = sum(child.visits for child in search.root.children)
        reached = None
        if not best.proven and tried:  # a proven position is worth its proof either way
            reached = Worth(sum(child.value for child in search.root.children) / tried, False, tried)
        return Judged(seat, str(best.move), Worth(best.value, best.proven, best.visits), moves, reached)


def _for(game: Any, seat: int, worth: Worth, mover: int) -> Worth:
    """`worth`, a position's to `seat` (the seat to move there), as its mover sees it: the same
    in a cooperative game or for the same seat, its complement for the other of two seats."""
    if seat == mover or game.cooperative:
        return worth
    return Worth(1.0 - worth.value, worth.proven, worth.visits)


# -- in words ----------------------------------------------------------------------------------

def analysis_lines(play: Replay, analysis: Analysis) -> list[str]:
    """The analysis in words: one line a ply, e.g. `12  w d4  (Bo)  61 % → 28 %  blunder; best
    b c3 (63 %)` (where that passes 78 columns, the figures on a line of their own under the
    move), then each seat's marks (a cooperative game's, the players' together)."""
    width = len(str(analysis.plies[-1]["ply"])) if analysis.plies else 1
    lines = wrap("The mover's chance before each ply → after it; a ply that lost 10, 20 or 30 "
                 "points or more is an inaccuracy, a mistake or a blunder.", indent="")
    for ply in analysis.plies:
        move, rest = _ply_words(play, ply, width)
        if columns(f"{move}  {rest}") <= TEXT_WIDTH:
            lines.append(f"{move}  {rest}")
        else:  # a long move (a crab round of four seats, a Hermetica turn) or a long name
            lines.extend(wrap(move, indent=" " * (width + 2)))
            lines.extend(wrap(" " * (width + 2) + rest))
    lines.append("")
    counts = analysis.counts()
    if play.game.cooperative and len(counts) > 1:  # the rounds are the players' together
        together = {name: sum(seat[name] for seat in counts.values()) for name in PLURALS}
        counts = {0: together}
    for seat, marks in counts.items():
        said = ", ".join(f"{number} {name if number == 1 else PLURALS[name]}" for name, number in marks.items())
        whose = "The players together" if seat == 0 else plain(who_and_seat(play, seat))
        lines.extend(wrap(f"{whose[:1].upper()}{whose[1:]}: {said}"))
    return lines


def _ply_words(play: Replay, ply: dict[str, Any], width: int) -> tuple[str, str]:
    """A ply in words: the ply and its move; and its player with the figures."""
    move = f"{ply['ply']:>{width}}  {ply['move']}"
    player = f"({plain(who(play, ply['seat']))})"
    if ply["before"] is None:
        return move, f"{player}  {'forced, not judged' if ply['forced'] else 'not judged'}"
    figures = f"{_chance(ply['before'], ply['proven'])} → {_chance(ply['after'], ply['after_proven'])}"
    if ply["mark"] is not None:
        best = _chance(ply["best_value"], ply["proven"])
        figures += f"  {ply['mark']}; best {ply['best']} ({best})"
    return move, f"{player}  {figures}"


def _chance(value: float, proven: bool) -> str:
    """A chance in words: "61 %", or what is proven ("won", "lost", "drawn")."""
    if proven:
        return {1.0: "won", 0.0: "lost", 0.5: "drawn"}.get(value, f"{round(value * 100)} %")
    return f"{round(value * 100)} %"

