"""The vectorized per-resample correlation equals scipy's statistic row by row."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from mtscore.stats.correlation import correlate, rowwise_correlation

VALUES = st.floats(-5, 5, allow_nan=False).map(lambda v: round(v, 1))  # rounding makes ties


@pytest.mark.parametrize("method", ["pearson", "spearman", "kendall", "kendall-b", "kendall-c",
                                    "accuracy"])
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_rowwise_equals_scipy_per_row(method: str, data) -> None:
    rows = data.draw(st.integers(1, 6))
    n = data.draw(st.integers(2, 9))
    x = data.draw(arrays(np.float64, (rows, n), elements=VALUES))
    y = data.draw(arrays(np.float64, (rows, n), elements=VALUES))
    if data.draw(st.booleans()):
        y[0, 0] = math.nan
    got = rowwise_correlation(x, y, method)
    for r in range(rows):
        if np.isnan(y[r]).any():
            assert math.isnan(got[r])
            continue
        expected = correlate(x[r], y[r], method)[0]
        if math.isnan(expected):
            assert math.isnan(got[r])
        else:
            assert got[r] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("method", ["pearson", "spearman", "kendall", "kendall-c"])
@pytest.mark.parametrize("grouping", ["item", "system"])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_grouped_segment_correlation_equals_the_mean_of_per_group_statistics(
        method: str, grouping: str, data) -> None:  # type: ignore[no-untyped-def]
    """segment_correlation stacks groups of equal size (unjudged cells make them ragged); its
    statistic is the mean of :func:`correlate` over the groups where it is defined."""
    from mtscore.stats.correlation import UndefinedCorrelation, segment_correlation

    systems, segments = data.draw(st.integers(2, 5)), data.draw(st.integers(2, 8))
    x = data.draw(arrays(np.float64, (systems, segments), elements=VALUES))
    y = data.draw(arrays(np.float64, (systems, segments), elements=VALUES))
    unjudged = data.draw(arrays(bool, (systems, segments)))
    y[unjudged] = math.nan
    rows = zip(x.T, y.T) if grouping == "item" else zip(x, y)
    per_group = [correlate(gx[~np.isnan(gy)], gy[~np.isnan(gy)], method)[0] for gx, gy in rows
                 if np.count_nonzero(~np.isnan(gy)) >= 2]
    defined = [r for r in per_group if not math.isnan(r)]
    if not defined:
        with pytest.raises(UndefinedCorrelation):
            segment_correlation(x, y, method, grouping)
        return
    got = segment_correlation(x, y, method, grouping)
    assert got.statistic == pytest.approx(float(np.mean(defined)), abs=1e-12)
    assert got.groups == len(defined) and math.isnan(got.pvalue)
