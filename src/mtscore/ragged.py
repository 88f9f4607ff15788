"""Ragged arrays with numpy: many index ranges at once, without a Python loop."""

from __future__ import annotations

import numpy as np


def ranges(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``starts[i], starts[i] + 1, …, starts[i] + counts[i] − 1`` for every i, concatenated."""
    counts = np.asarray(counts)
    return (np.repeat(np.asarray(starts) - (np.cumsum(counts) - counts), counts)
            + np.arange(int(counts.sum())))
