"""The seed papers' analyses on a data set: ``run_study(dataset) -> Study`` (see :mod:`.analysis`)."""

from .analysis import (
    MODULE_SETS,
    TABLE_IDS,
    MetricSpec,
    Study,
    default_metrics,
    run_study,
)

__all__ = ["MODULE_SETS", "TABLE_IDS", "MetricSpec", "Study", "default_metrics", "run_study"]
