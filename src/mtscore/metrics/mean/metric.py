"""Scores given as numbers (a file of segment scores, an external metric such as COMET) as a metric.

:class:`SegmentMean`'s statistics per segment are (score, 1) (NaN: (0, 0)); its corpus score is the
mean of the segment scores. With it, precomputed scores go through the same resampling code as the
built-in metrics: paired bootstrap and randomization resample segments and recompute the mean,
correlation intervals resample segments jointly with the human scores.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...errors import InputError
from ..base import Metric, Score, SegmentStats
from ..settings import Settings, setting


@dataclass(frozen=True)
class MeanSettings(Settings):
    """:class:`SegmentMean`'s settings: its ``label``, the ``given`` signature of the scores and
    whether higher is better. Its signature is the given one (:meth:`SegmentMean.signature`)."""

    label: str = setting("mean")
    given: str = setting("")
    higher_is_better: bool = setting(True)

    def arguments(self) -> dict[str, Any]:
        return {"label": self.label, "signature": self.given,
                "higher_is_better": self.higher_is_better}


class SegmentMean(Metric[Any]):
    """A metric whose corpus score is the mean of given segment scores (statistics: sum, count).

    ``label`` names it in results (e.g. ``COMET-22``); ``signature`` is how the scores were made
    (from the score file or ``--scores-signature``); ``higher_is_better=False`` for error rates.
    """

    name = "mean"
    settings: MeanSettings
    label: str
    given_signature: str

    def __init__(self, label: str = "mean", signature: str = "", higher_is_better: bool = True):
        settings = MeanSettings(label=label, given=signature, higher_is_better=higher_is_better)
        self._configure(settings, given_signature=signature, higher_is_better=higher_is_better)

    @property
    def columns(self) -> tuple[str, ...]:
        return ("sum", "count")

    @staticmethod
    def stats(scores: np.ndarray | Sequence[float]) -> SegmentStats:
        """The statistics rows of segment scores (NaN: an unscored segment, counted 0)."""
        v = np.asarray(scores, dtype=np.float64)
        ok = ~np.isnan(v)
        return SegmentStats(("sum", "count"), np.stack([np.where(ok, v, 0.0), ok * 1.0], axis=1))

    def prepare_references(self, refs: Sequence[Sequence[str | None]],
                           names: Sequence[str] | None = None) -> Any:
        raise InputError("SegmentMean scores given numbers; it reads no references")

    def extract(self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]]) -> SegmentStats:
        raise InputError("SegmentMean scores given numbers; build its statistics with "
                         "SegmentMean.stats(scores)")

    def compute_many(self, totals: np.ndarray) -> np.ndarray:
        t = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(t[:, 1] > 0, t[:, 0] / np.where(t[:, 1] > 0, t[:, 1], 1.0), np.nan)

    def compute(self, totals: np.ndarray, meta: Mapping[str, str] | None = None) -> Score:
        return Score(self.label, float(self.compute_many(totals)[0]), self.signature(meta))

    def signature(self, meta: Mapping[str, str] | None = None) -> str:
        """``LABEL|<given signature>``, or ``LABEL|mean of segment scores`` when none was given."""
        given = self.given_signature
        if not given:
            return f"{self.label}|mean of segment scores"
        return given if given.split("|", 1)[0] == self.label else f"{self.label}|{given}"
