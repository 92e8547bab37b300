"""SPEC §13: what a match's results say — the pentanomial counts of its pairs, the Elo
difference with its 95 % interval from their variance, the SPRT's log-likelihood ratio (as
fishtest computes it), and each engine's Elo in the standings. The figures the tests compare
with are worked out by hand in the comments, or by another formula."""

from __future__ import annotations

import math

import pytest

from referee.engine import stats
from referee.errors import UsageError

Z = 1.959964


def test_the_pentanomial_counts_pairs_by_the_points_engine_1_scored():
    # pairs of 2, 1½, 1, 1, ½, 0 points
    assert stats.pentanomial([2, 1.5, 1, 1, 0.5, 0]) == [1, 1, 2, 1, 1]
    assert stats.pentanomial([]) == [0, 0, 0, 0, 0]


def test_19_wins_and_1_loss_give_an_interval_with_finite_ends_spec_13():
    # The reported case: 19–1 printed "+308 to +∞". In pairs: 9 pairs of 2 points and one of
    # 1½ (the loss), pentanomial [0, 0, 0, 1, 9]. Pair scores 1 (×9) and ¾: μ = 0.975,
    # σ² = 0.9 · 0.025² + 0.1 · 0.225² = 0.005625, so μ's variance is 0.0005625 and the
    # Wilson interval takes n = 0.975 · 0.025 / 0.0005625 = 43.33 games:
    #   centre = (0.975 + z²/2n) / (1 + z²/n) = 1.019324 / 1.088649 = 0.936321
    #   half = z · √(0.024375/n + z²/4n²) / (1 + z²/n) = 1.959964 · 0.032771 / 1.088649 = 0.059000
    # so μ lies in [0.877321, 0.995321]: Elo +341.8 to +931.1, around E(0.975) = +636.4.
    estimate, low, high = stats.elo_interval([0, 0, 0, 1, 9])
    assert estimate == pytest.approx(636.4, abs=0.1)
    assert low == pytest.approx(341.8, abs=0.1)
    assert high == pytest.approx(931.1, abs=0.1)


def test_near_the_middle_the_interval_is_the_normal_one_of_the_pentanomial_variance():
    # Many pairs: Wilson's interval with the effective games is μ ± 1.96 σ/√N.
    counts = [30, 120, 300, 150, 40]
    mean, variance = stats.mean_and_variance(counts)
    half = Z * math.sqrt(variance / sum(counts))
    estimate, low, high = stats.elo_interval(counts)
    assert low == pytest.approx(stats.elo(mean - half), abs=0.5)
    assert high == pytest.approx(stats.elo(mean + half), abs=0.5)
    assert estimate == pytest.approx(stats.elo(mean))


def test_only_a_side_that_won_every_game_has_an_unbounded_end():
    assert stats.elo_interval([0, 0, 0, 0, 4])[2] == math.inf
    assert stats.elo_interval([4, 0, 0, 0, 0])[1] == -math.inf
    # Every pair 1½ points (a win and a draw): no spread, the binomial bound over 8 games.
    estimate, low, high = stats.elo_interval([0, 0, 0, 4, 0])
    assert math.isfinite(low) and math.isfinite(high) and low < estimate < high


def test_the_llr_of_a_small_table_worked_by_hand():
    # Pentanomial [1, 0, 0, 0, 3]: one pair lost 0–2, three won 2–0; elo0 = 0, elo1 = 100.
    # Only the scores 0 and 1 occur, so among the distributions of mean s the likeliest is
    # (1 − s at 0, s at 1), and
    #   LLR = N · Σ p_i log(q1_i / q0_i) = 4 · (¼ log((1 − s1)/(1 − s0)) + ¾ log(s1/s0))
    # with s0 = L(0) = 0.5 and s1 = L(100) = 1 / (1 + 10^(−0.25)) = 0.640065:
    #   = log(0.359935 / 0.5) + 3 log(0.640065 / 0.5) = −0.328594 + 3 · 0.246962 = 0.412200.
    # (The empty cells counted as 0.001 pairs each, as fishtest does, move it by under 0.001.)
    assert stats.logistic(100) == pytest.approx(0.640065, abs=1e-6)
    assert stats.llr([1, 0, 0, 0, 3], 0, 100) == pytest.approx(0.412200, abs=0.001)
    # And the other way round: one pair won, three lost.
    #   4 · (¼ log(0.640065/0.5) + ¾ log(0.359935/0.5)) = 0.246962 − 3 · 0.328594 = −0.738820
    assert stats.llr([3, 0, 0, 0, 1], 0, 100) == pytest.approx(-0.738820, abs=0.001)


def test_the_llr_of_many_pairs_agrees_with_the_normal_approximation():
    # fishtest's GSPRT_approximation: LLR ≈ N (s1 − s0)(2μ − s0 − s1) / 2σ², close for
    # small differences of Elo and many pairs.
    counts = [30, 120, 300, 150, 40]
    mean, variance = stats.mean_and_variance(counts)
    s0, s1 = stats.logistic(0), stats.logistic(5)
    approximate = sum(counts) * (s1 - s0) * (2 * mean - s0 - s1) / variance / 2
    assert stats.llr(counts, 0, 5) == pytest.approx(approximate, rel=0.02)
    assert stats.llr([0] * 5, 0, 5) == 0


def test_the_sprt_decides_at_its_bounds():
    test = stats.parse_sprt("elo0=0,elo1=10")
    assert (test.alpha, test.beta) == (0.05, 0.05)
    assert test.upper == pytest.approx(math.log(0.95 / 0.05)) == pytest.approx(2.944439, abs=1e-6)
    assert test.lower == pytest.approx(-2.944439, abs=1e-6)
    assert test.verdict(2.95) == "H1" and test.verdict(-2.95) == "H0" and test.verdict(2.9) is None
    other = stats.parse_sprt("elo0=-5, elo1=5, alpha=0.1, beta=0.2")
    assert other.upper == pytest.approx(math.log(0.8 / 0.1)) and other.lower == pytest.approx(math.log(0.2 / 0.9))


@pytest.mark.parametrize(("text", "said"), [
    ("elo0=0", "needs elo0 and elo1"),
    ("elo0=5,elo1=0", "elo0 must be less than elo1"),
    ("elo0=0,elo1=x", "elo1='x' is not a number"),
    ("elo0=0,elo1=5,gamma=1", "give elo0=E0,elo1=E1"),
    ("elo0=0,elo1=5,alpha=0.7", "alpha lies between 0 and 0.5"),
    ("elo0=0,elo0=1,elo1=5", "elo0 is given twice"),
])
def test_a_bad_sprt_is_a_usage_error(text, said):
    with pytest.raises(UsageError, match=said):
        stats.parse_sprt(text)


def test_two_engines_ratings_are_1500_plus_and_minus_half_the_difference():
    # An 11–9 match that the loser ended with four wins: the club's rating, game by game,
    # put the loser higher; the likeliest ratings follow the score, whatever the order.
    scores = {("a", "b"): [1.0] * 11 + [0.0] * 9, ("b", "a"): [0.0] * 11 + [1.0] * 9}
    rating = stats.ratings(scores)
    difference = stats.elo(11 / 20)  # +34.9
    assert rating["a"] == pytest.approx(1500 + difference / 2, abs=0.01)
    assert rating["b"] == pytest.approx(1500 - difference / 2, abs=0.01)


def test_a_tournament_winner_of_every_game_gets_a_finite_rating():
    # a beat b and c every time; b and c drew: no finite likeliest rating, so one drawn game
    # more between every two that met. With it: a scored 2.5/3 against each.
    scores = {("a", "b"): [1, 1], ("b", "a"): [0, 0], ("a", "c"): [1, 1], ("c", "a"): [0, 0],
              ("b", "c"): [0.5], ("c", "b"): [0.5]}
    rating = stats.ratings(scores)
    assert all(math.isfinite(r) for r in rating.values())
    assert rating["a"] > rating["b"] == pytest.approx(rating["c"])
    assert sum(rating.values()) / 3 == pytest.approx(1500)
