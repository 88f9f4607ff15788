"""Per-segment sufficient statistics (DESIGN.md): one row per segment, one named column per
statistic; rows are additive. What every metric's ``extract`` returns (:mod:`.base`, which
re-exports it) and what streaming, Dask, resampling and the study sum.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True, eq=False)
class SegmentStats:
    """Per-segment sufficient statistics: ``values[i, j]`` is statistic ``columns[j]`` of segment i."""

    columns: tuple[str, ...]
    values: np.ndarray
    #: facts about the data that belong in the signature, e.g. ``{"nrefs": "2"}``
    meta: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.values.ndim != 2 or self.values.shape[1] != len(self.columns):
            raise ValueError(f"statistics must have shape (segments, {len(self.columns)}), "
                             f"got {self.values.shape}")

    def __len__(self) -> int:
        return self.values.shape[0]

    def column(self, name: str) -> np.ndarray:
        """One statistic for every segment."""
        return self.values[:, self.columns.index(name)]

    def total(self) -> np.ndarray:
        """The corpus row: the sum over all segments."""
        return self.values.sum(axis=0)

    def take(self, index: np.ndarray | Sequence[int] | slice) -> SegmentStats:
        """A subset (or resample, with repeats) of the segments."""
        return SegmentStats(self.columns, self.values[index], self.meta)

    @staticmethod
    def concat(parts: Sequence[SegmentStats]) -> SegmentStats:
        """Join statistics extracted in chunks (streaming, distributed runs)."""
        if not parts:
            raise ValueError("nothing to concatenate")
        columns, meta = parts[0].columns, dict(parts[0].meta)
        for part in parts[1:]:
            if part.columns != columns:
                raise ValueError("statistics of different metrics or settings cannot be joined")
            for key, value in part.meta.items():
                if meta.get(key, value) != value:
                    meta[key] = "var"  # e.g. chunks with different reference counts
                else:
                    meta[key] = value
        return SegmentStats(columns, np.concatenate([p.values for p in parts], axis=0), meta)
