"""The seed papers' analyses on a data set: ``run_study(dataset) -> Study`` (see :mod:`.analysis`)."""

from .analysis import run_study
from .metrics import default_metrics
from .model import MODULE_SETS, TABLE_IDS, MetricSpec, Study

__all__ = ["MODULE_SETS", "TABLE_IDS", "MetricSpec", "Study", "default_metrics", "run_study"]
