"""Defaults shared by every command and API that resamples, and the rules that choose them.

* **One seed**: :data:`DEFAULT_SEED` (12345, sacreBLEU's ``SACREBLEU_SEED``) for ``compare``,
  ``correlate``, ``study``, ``report`` and ``demo``; with it, mtscore's bootstrap resamples and
  randomization trials are sacreBLEU's.
* **Enough resamples for the correction applied** (:func:`resamples_for`): a resampling p-value is
  at least ``1/(R+1)``, and Holm's correction multiplies the smallest of ``m`` p-values by ``m``, so no
  difference can be significant at level α unless ``m/(R+1) < α``. The default is the smallest
  multiple of 1,000 with ``R + 1 ≥ 10·m/α`` (ten times the bare minimum, so that p-values near α are
  resolved, not only the smallest), and at least 1,000 bootstrap resamples or 10,000 randomization
  trials (sacreBLEU's defaults). WMT22 zh-en, 13 systems, all 78 pairs at α = 0.05: 16,000.
* **Seeds**: an integer with ``0 <= seed < 2**32`` (:func:`check_seed`, the one rule of every command
  and API that takes a seed; numpy's legacy seed range).
* **A limit**: :data:`MAX_RESAMPLES` (1,000,000); more is refused (the work grows with resamples ×
  segments; a million resamples of 2,000 segments is minutes).
* **Tiny p-values** are printed as ``< 1/(R+1)`` (:func:`p_text`): ``p = 0.000`` would claim more
  than R resamples can show.
"""

from __future__ import annotations

import math
import numbers

from ..errors import OptionError

#: the seed of every resampling default (sacreBLEU's default ``SACREBLEU_SEED``)
DEFAULT_SEED = 12345

#: seeds are integers from 0 to MAX_SEED (``0 <= seed < 2**32``)
MAX_SEED = 2**32 - 1

#: the smallest default: bootstrap resamples / randomization trials (sacreBLEU's defaults)
MIN_RESAMPLES = {"bootstrap": 1000, "ar": 10000}

#: the most resamples (or trials, permutations) any command accepts
MAX_RESAMPLES = 1_000_000

#: the default significance level
DEFAULT_ALPHA = 0.05

#: the default confidence level of intervals
DEFAULT_CONFIDENCE = 0.95


def comparisons_count(systems: int, baseline: bool) -> int:
    """Paired tests run: every system against the baseline, or every pair."""
    return systems - 1 if baseline else systems * (systems - 1) // 2


def smallest_p(resamples: int) -> float:
    """The smallest p-value ``resamples`` resamples can give: ``1/(R+1)``."""
    return 1.0 / (resamples + 1)


def reachable(resamples: int, comparisons: int, alpha: float) -> bool:
    """Can any of ``comparisons`` Holm-corrected p-values fall below ``alpha``? (``m/(R+1) < α``)"""
    return comparisons * smallest_p(resamples) < alpha


def resamples_for(comparisons: int, alpha: float = DEFAULT_ALPHA, method: str = "bootstrap") -> int:
    """The default number of resamples for ``comparisons`` Holm-corrected tests at level ``alpha``:
    the smallest multiple of 1,000 with ``R + 1 ≥ 10·m/α``, at least ``MIN_RESAMPLES[method]``,
    at most :data:`MAX_RESAMPLES`."""
    if not 0 < alpha < 1 or math.isnan(alpha):
        raise OptionError("alpha", alpha, detail="must be strictly between 0 and 1")
    need = math.ceil(10 * max(comparisons, 1) / alpha) - 1
    rounded = 1000 * math.ceil(need / 1000)
    return min(MAX_RESAMPLES, max(MIN_RESAMPLES.get(method, 1000), rounded))


def check_count(value: int, option: str = "--resamples", minimum: int = 1) -> int:
    """A resample/trial/permutation count: an integer from ``minimum`` to :data:`MAX_RESAMPLES`."""
    if isinstance(value, bool) or not isinstance(value, int) or not \
            minimum <= value <= MAX_RESAMPLES:
        raise OptionError(option, value, detail=f"must be an integer from {minimum} to "
                                                f"{MAX_RESAMPLES:,} (the documented limit)")
    return value


def check_seed(value: int, option: str = "--seed") -> int:
    """A random seed: an integer with ``0 <= seed < 2**32`` (0 is a seed)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not 0 <= value <= MAX_SEED:
        raise OptionError(option, value, detail=f"must be an integer from 0 to {MAX_SEED:,} "
                                                "(below 2**32; 0 is a seed)")
    return int(value)


def check_finite(value: float | None, option: str, low: float | None = None,
                 high: float | None = None, open_interval: bool = True) -> None:
    """Refuse NaN, infinities and values outside ``(low, high)`` (or ``[low, high]``)."""
    if value is None:
        return
    bad = not isinstance(value, (int, float)) or not math.isfinite(value)
    if not bad and low is not None:
        bad = value <= low if open_interval else value < low
    if not bad and high is not None:
        bad = value >= high if open_interval else value > high
    if bad:
        rng = "" if low is None and high is None else (
            f" {'strictly ' if open_interval else ''}between {low:g} and {high:g}"
            if low is not None and high is not None else
            f" {'above' if open_interval else 'at least'} {low:g}" if low is not None else
            f" {'below' if open_interval else 'at most'} {high:g}")
        raise OptionError(option, value, detail=f"must be a finite number{rng}")


def p_text(p: float | None, resamples: int | None = None, decimals: int = 4) -> str:
    """A p-value for printing: ``< 1/(R+1)`` at the floor of R resamples (e.g. ``< 0.0001``),
    else rounded to ``decimals``; ``–`` when there is none."""
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "–"
    if resamples is not None and p <= smallest_p(resamples) * (1 + 1e-9):
        return f"< {_ceil_to(smallest_p(resamples), decimals)}"
    if p < 10 ** -decimals:  # 0 too: a p-value that underflowed is below the bound, not 0
        return f"< {10 ** -decimals:.{decimals}f}"
    return f"{p:.{decimals}f}"


def _ceil_to(x: float, decimals: int) -> str:
    """``x`` rounded up to ``decimals`` significant places after the point (so "< bound" holds)."""
    digits = max(decimals, -math.floor(math.log10(x)))
    units = math.ceil(float(f"{x * 10 ** digits:.9g}"))  # 0.001 is 10 units of 1e-4, not 11
    return f"{units / 10 ** digits:.{digits}f}".rstrip("0")
