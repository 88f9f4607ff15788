"""metrics.sorting.stable_order equals numpy's stable argsort on every path (32- and 64-bit
packing, the radix sorts of 8- and 16-bit keys, the argsort itself), negative keys included."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.metrics.sorting import stable_order

_DTYPES = [np.int64, np.int32, np.uint16, np.uint8, np.uint32, np.uint64, np.int16]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_DTYPES), st.data())
def test_stable_order_is_the_stable_argsort(dtype: type[np.integer], data: st.DataObject) -> None:
    info = np.iinfo(dtype)
    low = data.draw(st.integers(int(info.min), int(info.max)))
    high = data.draw(st.integers(low, int(info.max)))
    values = data.draw(st.lists(st.integers(low, high), max_size=300))
    keys = np.array(values, dtype=dtype)
    assert stable_order(keys).tolist() == np.argsort(keys, kind="stable").tolist()
    assert stable_order(keys).dtype == np.intp


@pytest.mark.parametrize(("n", "top", "low"), [
    (70_000, 12_000, 0),  # 14 + 17 bits: packed in 32 bits
    (70_000, 200, 0),  # fits 32 bits too
    (70_000, 60_000, 0),  # 16 + 17 bits: the 16-bit radix sort
    (70_000, 1 << 30, 0),  # packed in 64 bits
    (70_000, 1 << 30, -(1 << 40)),  # negative keys, packed in 64 bits
    (3_000, 1 << 20, -5),  # negative keys, packed in 32 bits
    (1_000, 1 << 62, -(1 << 62)),  # too wide to pack: the stable argsort
])
def test_every_path_on_large_keys(n: int, top: int, low: int) -> None:
    rng = np.random.default_rng(n + top)
    keys = rng.integers(low, low + top, n, dtype=np.int64)
    keys[::7] = keys[0]  # many equal keys: the order among them is what stability decides
    assert np.array_equal(stable_order(keys), np.argsort(keys, kind="stable"))
    if low >= 0 and top < 1 << 16:
        small = keys.astype(np.uint16)
        assert np.array_equal(stable_order(small), np.argsort(small, kind="stable"))


def test_short_arrays() -> None:
    assert stable_order(np.zeros(0, dtype=np.int64)).tolist() == []
    assert stable_order(np.array([5], dtype=np.uint16)).tolist() == [0]
