"""What a match's results say (SPEC §13): the pentanomial counts of its game pairs, the Elo
difference with its 95 % interval, the SPRT's log-likelihood ratio, and each engine's Elo in a
tournament. Pure: numbers in, numbers out.

**Pairs.** Every opening is played twice, the engines' seats swapped, so a pair scores 0, ½, 1,
1½ or 2 points for engine 1; the pentanomial counts [n0, n1, n2, n3, n4] say how many pairs
scored each. A pair's score x (its points / 2: 0, ¼, ½, ¾ or 1) is the unit of the statistics,
as in fishtest: the two games of a pair are not independent (an opening that favours one seat
favours it in both), and counting pairs keeps that out of the variance.

**Elo and its interval.** Over N pairs the mean score is μ = Σx / N and the variance of one pair
σ² = Σ(x − μ)² / N, so μ has the variance σ² / N. Elo's logistic curve turns a score into a
difference, E(p) = −400 · log10(1/p − 1); the estimate is E(μ). The interval is Wilson's score
interval of μ with n = μ(1 − μ) / (σ² / N) games, the number of independent games of a single
result that would measure μ as closely as these pairs do (the "effective sample size" of survey
statistics). Near μ it is the normal interval μ ± 1.96 σ/√N of the pentanomial variance; at the
edges it stays inside (0, 1), as Wilson's interval does, where μ ± 1.96 σ/√N would pass 1: so
its ends are finite unless one side won every game (19 wins and 1 loss in 10 pairs: +636, 95 %
from +342 to +931, where the normal interval's upper end was +∞). When every pair scored the
same, σ is 0 and says nothing of the spread: n is then the number of games (the binomial
variance, the largest a score of mean μ can have).

**SPRT** (the generalized sequential probability ratio test of fishtest, logistic Elo): H0 is
"the difference is elo0", H1 "it is elo1", with s0 = L(elo0), s1 = L(elo1) the expected pair
scores, L(e) = 1 / (1 + 10^(−e/400)). For each hypothesis the pentanomial distribution closest
to the observed one (maximum likelihood) among those of mean s is q_i = p_i / (1 + θ(a_i − s)),
where θ solves Σ p_i (a_i − s) / (1 + θ(a_i − s)) = 0 (a_i = 0, ¼, ½, ¾, 1; p_i the observed
frequencies, an empty cell counted as 0.001 pairs so that no logarithm is of 0). The
log-likelihood ratio is LLR = N · Σ p_i (log q1_i − log q0_i); the test accepts H1 at
log((1 − β)/α) and H0 at log(β/(1 − α)). θ is found by bisection, which needs nothing beyond
the standard library (fishtest calls scipy's brentq for the same root).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from referee.errors import UsageError

Z = 1.959964  # the normal quantile of a two-sided 95 % interval
EMPTY_CELL = 1e-3  # pairs counted in an empty pentanomial cell, as fishtest does
SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)  # a pair's score (its points / 2), cell by cell
START = 1500.0  # the mean of the engines' ratings in a tournament (the club's first rating)


def pentanomial(pairs: Iterable[float]) -> list[int]:
    """[n0, n1, n2, n3, n4]: how many pairs scored 0, ½, 1, 1½ and 2 points for engine 1."""
    counts = [0] * 5
    for points in pairs:
        counts[round(points * 2)] += 1
    return counts


def logistic(elo: float) -> float:
    """L(e): the expected score of a difference of `elo`."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo(score: float) -> float:
    """E(p) = −400 · log10(1/p − 1): the difference whose expected score is `score`."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def wilson(score: float, n: float) -> tuple[float, float]:
    """The 95 % Wilson score interval of a mean score measured over `n` games."""
    centre = (score + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(score * (1 - score) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    # At a score of 0 or 1 that end is 0 or 1 exactly (rounding would make it a finite Elo).
    return (0.0 if score <= 0 else max(0.0, centre - half)), (1.0 if score >= 1 else min(1.0, centre + half))


def mean_and_variance(counts: Sequence[float]) -> tuple[float, float]:
    """The mean pair score and one pair's variance over pentanomial counts."""
    total = sum(counts)
    mean = sum(n * a for n, a in zip(counts, SCORES)) / total
    return mean, sum(n * (a - mean) ** 2 for n, a in zip(counts, SCORES)) / total


def elo_interval(counts: Sequence[int]) -> tuple[float, float, float] | None:
    """Engine 1's Elo over engine 2 from the pentanomial counts: (estimate, low, high) at
    95 %, by the formulas at the top; None without a pair."""
    pairs = sum(counts)
    if not pairs:
        return None
    mean, variance = mean_and_variance(counts)
    if variance > 0 and 0 < mean < 1:
        games = mean * (1 - mean) / (variance / pairs)
    else:
        games = 2 * pairs
    low, high = wilson(mean, games)
    return elo(mean), elo(low), elo(high)


# -- the SPRT --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sprt:
    """An SPRT's hypotheses (logistic Elo) and error rates, as `--sprt` gives them."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def lower(self) -> float:
        """The LLR at which H0 is accepted: log(β / (1 − α))."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """The LLR at which H1 is accepted: log((1 − β) / α)."""
        return math.log((1 - self.beta) / self.alpha)

    def verdict(self, llr: float) -> str | None:
        """"H1", "H0", or None while the test goes on."""
        return "H1" if llr >= self.upper else "H0" if llr <= self.lower else None

    def text(self) -> str:
        """As `--sprt` takes it (and match.toml keeps it)."""
        return f"elo0={self.elo0:g},elo1={self.elo1:g},alpha={self.alpha:g},beta={self.beta:g}"


def parse_sprt(text: str) -> Sprt:
    """`elo0=E0,elo1=E1[,alpha=A,beta=B]`; UsageError (exit 2) naming what is wrong."""
    values: dict[str, float] = {}
    for part in text.split(","):
        key, equals, value = part.strip().partition("=")
        if key not in ("elo0", "elo1", "alpha", "beta") or not equals:
            raise UsageError(f"--sprt {text!r}: give elo0=E0,elo1=E1 and, if you like, alpha=A,beta=B")
        if key in values:
            raise UsageError(f"--sprt: {key} is given twice")
        try:
            values[key] = float(value)
        except ValueError:
            raise UsageError(f"--sprt: {key}={value!r} is not a number") from None
        if not math.isfinite(values[key]):
            raise UsageError(f"--sprt: {key}={value!r} is not a number")
    if "elo0" not in values or "elo1" not in values:
        raise UsageError("--sprt needs elo0 and elo1 (e.g. --sprt elo0=0,elo1=10)")
    sprt = Sprt(**values)
    if not sprt.elo0 < sprt.elo1:
        raise UsageError("--sprt: elo0 must be less than elo1 (H0: no better than elo0; H1: elo1)")
    if max(abs(sprt.elo0), abs(sprt.elo1)) > 1000:
        raise UsageError("--sprt: elo0 and elo1 lie within ±1000")
    for name in ("alpha", "beta"):
        if not 0 < getattr(sprt, name) < 0.5:
            raise UsageError(f"--sprt: {name} lies between 0 and 0.5, not {getattr(sprt, name):g}")
    return sprt


def llr(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """The generalized log-likelihood ratio of H1 (elo1) against H0 (elo0) for these
    pentanomial counts (the formulas at the top); 0 without a pair."""
    if not sum(counts):
        return 0.0
    cells = [n if n > 0 else EMPTY_CELL for n in counts]
    total = sum(cells)
    observed = [n / total for n in cells]
    fitted0 = closest(observed, logistic(elo0))
    fitted1 = closest(observed, logistic(elo1))
    return total * sum(p * (math.log(q1) - math.log(q0)) for p, q0, q1 in zip(observed, fitted0, fitted1))


def closest(observed: Sequence[float], mean: float) -> list[float]:
    """The distribution over SCORES of the given mean that is likeliest to have given the
    observed frequencies: q_i = p_i / (1 + θ(a_i − mean)), θ found by bisection."""
    shifted = [a - mean for a in SCORES]

    def slope(theta: float) -> float:  # decreasing in θ: its root is the one wanted
        return sum(p * d / (1 + theta * d) for p, d in zip(observed, shifted))

    # Every q_i must stay positive: 1 + θ d_i > 0 for the largest and the smallest d_i.
    low, high = -1 / max(shifted), -1 / min(shifted)
    span = high - low
    low, high = low + span * 1e-12, high - span * 1e-12
    for _ in range(200):
        middle = (low + high) / 2
        if slope(middle) > 0:
            low = middle
        else:
            high = middle
    theta = (low + high) / 2
    fitted = [p / (1 + theta * d) for p, d in zip(observed, shifted)]
    total = sum(fitted)
    return [q / total for q in fitted]


# -- a tournament's Elo ----------------------------------------------------------------------


def ratings(scores: Mapping[tuple[str, str], Sequence[float]]) -> dict[str, float]:
    """Each player's Elo from every game of a table (`scores[(a, b)]`: a's scores against b,
    1, ½ or 0), the likeliest under Elo's logistic model with a draw as half a win, centred on
    START among the players of each group that met (directly or through others). For two
    players they are START ± d/2, d the difference of their match. Where no finite rating
    fits — a player who won, or lost, every game against the rest of the table — every two
    players who met get one drawn game more (the prior BayesElo uses), which makes them finite."""
    players = sorted({a for a, _ in scores} | {b for _, b in scores})
    games: dict[tuple[str, str], tuple[float, int]] = {}  # (a, b) → (a's points, games)
    for (a, b), results in scores.items():
        if a != b and results:
            points, count = games.get((a, b), (0.0, 0))
            games[(a, b)] = (points + sum(results), count + len(results))
    if not _bounded(players, games):
        games = {pair: (points + 0.5, count + 1) for pair, (points, count) in games.items()}
    strength = dict.fromkeys(players, 1.0)  # 10^(rating / 400), found by Hunter's MM steps
    for _ in range(10_000):
        before = dict(strength)
        for player in players:
            won = sum(points for (a, _), (points, _) in games.items() if a == player)
            weight = sum(count / (strength[a] + strength[b]) for (a, b), (_, count) in games.items() if a == player)
            if weight:
                strength[player] = won / weight
        if max(abs(math.log(strength[p] / before[p])) for p in players) < 1e-10:
            break
    rating = {p: 400 * math.log10(strength[p]) for p in players}
    for group in _groups(players, games):
        shift = START - sum(rating[p] for p in group) / len(group)
        for p in group:
            rating[p] += shift
    return rating


def _bounded(players: list[str], games: Mapping[tuple[str, str], tuple[float, int]]) -> bool:
    """Whether the likeliest ratings are finite: in each group that met, everyone scored
    against everyone else through some chain of games (a strongly connected graph of
    "scored a point or half a point against")."""
    scored = {p: set() for p in players}
    for (a, b), (points, count) in games.items():
        if points > 0:
            scored[a].add(b)
    for group in _groups(players, games):
        for start in group:
            seen, todo = {start}, [start]
            while todo:
                for other in scored[todo.pop()]:
                    if other not in seen:
                        seen.add(other)
                        todo.append(other)
            if seen != set(group):
                return False
    return True


def _groups(players: list[str], games: Mapping[tuple[str, str], tuple[float, int]]) -> list[list[str]]:
    """The players in groups that met, directly or through others."""
    met = {p: set() for p in players}
    for a, b in games:
        met[a].add(b)
        met[b].add(a)
    groups, seen = [], set()
    for player in players:
        if player in seen:
            continue
        group, todo = [], [player]
        seen.add(player)
        while todo:
            current = todo.pop()
            group.append(current)
            for other in met[current] - seen:
                seen.add(other)
                todo.append(other)
        groups.append(sorted(group))
    return groups
