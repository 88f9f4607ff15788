"""Scores given as numbers (a file of segment scores, an external metric) as a metric.

* :mod:`.metric`: :class:`SegmentMean`, the mean of segment scores on the metric contract (also
  exported by :mod:`mtscore.stats`).
"""

from .metric import MeanSettings, SegmentMean

__all__ = ["MeanSettings", "SegmentMean"]
