"""Intervals and tests for balance reports, in plain Python (no numpy, no scipy).

Every interval is two-sided at 95% unless asked otherwise:

- a rate (a seat's share of the wins, the share of games that end one way): the Wilson
  score interval, which stays inside 0 to 1 and keeps its coverage for small samples and
  rates near 0 or 1, where the textbook (Wald) interval fails;
- the difference of two rates: Newcombe's hybrid score interval (his method 10), built from
  the two Wilson intervals;
- a mean (points, game length): Student's t interval;
- the difference of two means: Welch's t interval, which does not assume equal variances;
- whether the seats win equally often: Pearson's chi-square test against equal shares.

A shared win counts as a share (1/2 each for two winners); the intervals then treat the
shares as fractional successes, which is slightly conservative.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

import attrs

__all__ = [
    "ChiSquareTest",
    "Interval",
    "chi_square_uniform",
    "mean_interval",
    "newcombe_interval",
    "student_t_cdf",
    "student_t_quantile",
    "welch_interval",
    "wilson_interval",
]

CONFIDENCE = 0.95
"""The confidence level of every interval in a report."""


@attrs.frozen
class Interval:
    """An estimate with its confidence interval ``low`` to ``high``.

    ``low`` and ``high`` are NaN where the data cannot give an interval (one game, say).
    """

    estimate: float
    low: float
    high: float

    @property
    def known(self) -> bool:
        """Whether the data gave an interval at all."""
        return not (math.isnan(self.low) or math.isnan(self.high))

    def excludes(self, value: float) -> bool:
        """Whether ``value`` lies outside the interval: a significant difference from it."""
        return self.known and (value < self.low or value > self.high)


def _z(confidence: float) -> float:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson_interval(successes: float, trials: int, confidence: float = CONFIDENCE) -> Interval:
    """The Wilson score interval of the rate ``successes / trials``."""
    if trials < 1:
        return Interval(math.nan, math.nan, math.nan)
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be from 0 to {trials}, got {successes}")
    z = _z(confidence)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At 0 or all successes the bound is exactly 0 or 1; rounding would leave a hair over.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return Interval(p, low, high)


def newcombe_interval(
    successes_a: float,
    trials_a: int,
    successes_b: float,
    trials_b: int,
    confidence: float = CONFIDENCE,
) -> Interval:
    """The difference of two independent rates, a minus b, with Newcombe's hybrid score interval."""
    a = wilson_interval(successes_a, trials_a, confidence)
    b = wilson_interval(successes_b, trials_b, confidence)
    if not (a.known and b.known):
        return Interval(math.nan, math.nan, math.nan)
    difference = a.estimate - b.estimate
    low = difference - math.hypot(a.estimate - a.low, b.high - b.estimate)
    high = difference + math.hypot(a.high - a.estimate, b.estimate - b.low)
    return Interval(difference, low, high)


def _mean_and_variance(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = math.fsum(values) / n
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else math.nan
    return mean, variance


def mean_interval(values: Sequence[float], confidence: float = CONFIDENCE) -> Interval:
    """The mean of ``values`` with Student's t interval (NaN bounds for fewer than 2 values)."""
    if not values:
        return Interval(math.nan, math.nan, math.nan)
    mean, variance = _mean_and_variance(values)
    if len(values) < 2:
        return Interval(mean, math.nan, math.nan)
    half = student_t_quantile(0.5 + confidence / 2, len(values) - 1) * math.sqrt(
        variance / len(values)
    )
    return Interval(mean, mean - half, mean + half)


def welch_interval(
    a: Sequence[float], b: Sequence[float], confidence: float = CONFIDENCE
) -> Interval:
    """The difference of two means, a minus b, with Welch's t interval."""
    if not a or not b:
        return Interval(math.nan, math.nan, math.nan)
    mean_a, var_a = _mean_and_variance(a)
    mean_b, var_b = _mean_and_variance(b)
    difference = mean_a - mean_b
    if len(a) < 2 or len(b) < 2:
        return Interval(difference, math.nan, math.nan)
    share_a, share_b = var_a / len(a), var_b / len(b)
    standard_error = math.sqrt(share_a + share_b)
    if standard_error == 0:
        return Interval(difference, difference, difference)
    # The Welch-Satterthwaite degrees of freedom.
    freedom = (share_a + share_b) ** 2 / (share_a**2 / (len(a) - 1) + share_b**2 / (len(b) - 1))
    half = student_t_quantile(0.5 + confidence / 2, freedom) * standard_error
    return Interval(difference, difference - half, difference + half)


def _incomplete_beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularized incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 500):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1) < 1e-15:
            break
    return result


def _regularized_beta(a: float, b: float, x: float) -> float:
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _incomplete_beta_fraction(a, b, x) / a
    return 1 - math.exp(log_front) * _incomplete_beta_fraction(b, a, 1 - x) / b


def student_t_cdf(t: float, freedom: float) -> float:
    """P(T <= t) for Student's t distribution with ``freedom`` degrees of freedom."""
    if freedom <= 0:
        raise ValueError(f"degrees of freedom must be positive, got {freedom}")
    tail = 0.5 * _regularized_beta(freedom / 2, 0.5, freedom / (freedom + t * t))
    return 1 - tail if t > 0 else tail


def student_t_quantile(probability: float, freedom: float) -> float:
    """The t with P(T <= t) = ``probability`` (by bisection on the distribution function)."""
    if not 0 < probability < 1:
        raise ValueError(f"probability must be between 0 and 1, got {probability}")
    if probability < 0.5:
        return -student_t_quantile(1 - probability, freedom)
    low, high = 0.0, 1.0
    while student_t_cdf(high, freedom) < probability:
        low, high = high, high * 2
    for _ in range(200):
        middle = (low + high) / 2
        if student_t_cdf(middle, freedom) < probability:
            low = middle
        else:
            high = middle
        if high - low < 1e-12 * max(1.0, high):
            break
    return (low + high) / 2


@attrs.frozen
class ChiSquareTest:
    """Pearson's chi-square test that some counts share their total equally."""

    statistic: float
    freedom: int
    p_value: float

    @property
    def significant(self) -> bool:
        """Whether equal shares are rejected at the level of the report's intervals."""
        return self.p_value < 1 - CONFIDENCE


def _chi_square_survival(x: float, freedom: int) -> float:
    """P(X >= x) for chi-square with an integer number of degrees of freedom."""
    half = x / 2
    # Q(s, h), the regularized upper gamma function, from Q(1/2) or Q(1) by
    # Q(s + 1, h) = Q(s, h) + h**s exp(-h) / Gamma(s + 1).
    if freedom % 2:
        s, q = 0.5, math.erfc(math.sqrt(half))
    else:
        s, q = 1.0, math.exp(-half)
    while s < freedom / 2:
        if half > 0:
            q += math.exp(s * math.log(half) - half - math.lgamma(s + 1))
        s += 1
    return min(1.0, q)


def chi_square_uniform(counts: Sequence[float]) -> ChiSquareTest:
    """Test whether ``counts`` (wins by seat, say) are equal shares of their total."""
    if len(counts) < 2:
        raise ValueError("need at least two counts to compare")
    total = math.fsum(counts)
    if total <= 0:
        return ChiSquareTest(0.0, len(counts) - 1, 1.0)
    expected = total / len(counts)
    statistic = math.fsum((c - expected) ** 2 / expected for c in counts)
    freedom = len(counts) - 1
    return ChiSquareTest(statistic, freedom, _chi_square_survival(statistic, freedom))
