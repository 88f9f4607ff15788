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
