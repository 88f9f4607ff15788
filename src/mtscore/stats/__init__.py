"""Statistics for trusting a score: confidence intervals, paired significance tests, BLEU's block
test, correlation with human judgments, reference-count sensitivity.

Everything works on the additive statistics of :mod:`mtscore.metrics.base`: resampling is index or
mask matrices applied to ``SegmentStats.values`` followed by the metric's vectorized
``compute_many``. Modules: :mod:`.resampling` (bootstrap draws, intervals), :mod:`.significance`
(paired tests, Holm, clusters), :mod:`.blocks` (BLEU's block test), :mod:`.correlation` (with
:mod:`.correlation_ci` and :mod:`.metric_difference`), :mod:`.human` (WMT human scores),
:mod:`.references` (reference subsets), :mod:`.defaults` (seed, resample rule, limits),
:mod:`.display` (repr, HTML, pandas); :class:`SegmentMean` (scores given as numbers) is a metric,
:mod:`mtscore.metrics.mean`, re-exported here. Nothing here imports the report, study or
command-line layers.
"""

from ..metrics.mean import SegmentMean
from .blocks import BlockRow, BlockTestResult, block_scores, block_test
from .correlation import (
                          GROUPINGS,
                          KENDALL_VARIANTS,
                          METHODS,
                          STATISTIC_NAMES,
                          CorrelationResult,
                          TauCounts,
                          correlate,
                          human_system_scores,
                          kendall_variants,
                          pairwise_accuracy,
                          pairwise_agreement,
                          segment_correlation,
                          system_correlation,
                          system_correlation_ci,
                          tau_counts,
)
from .correlation_ci import (
                          segment_correlation_ci,
                          system_correlation_ci_from_segments,
                          system_correlation_ci_over_systems,
)
from .defaults import (
                          DEFAULT_ALPHA,
                          DEFAULT_CONFIDENCE,
                          DEFAULT_SEED,
                          MAX_RESAMPLES,
                          p_text,
                          resamples_for,
)
from .display import StatisticResult
from .human import HumanScores, human_scores, rater_z, segment_means
from .metric_difference import PermutationResult, WilliamsResult, permutation_test, williams_test
from .references import (
                          ReferenceSensitivity,
                          SubsetComparison,
                          reference_sensitivity,
                          reference_subsets,
)
from .resampling import (
                          BootstrapCI,
                          bootstrap_ci,
                          bootstrap_index_chunks,
                          bootstrap_indices,
                          bootstrap_scores,
                          resampled_scores,
)
from .significance import (
                          PairComparison,
                          SignificanceResult,
                          approximate_randomization,
                          holm,
                          paired_bootstrap,
                          significance_clusters,
)

__all__ = [
                          "DEFAULT_ALPHA",
                          "DEFAULT_CONFIDENCE",
                          "DEFAULT_SEED",
                          "GROUPINGS",
                          "KENDALL_VARIANTS",
                          "MAX_RESAMPLES",
                          "METHODS",
                          "STATISTIC_NAMES",
                          "BlockRow",
                          "BlockTestResult",
                          "BootstrapCI",
                          "CorrelationResult",
                          "HumanScores",
                          "PairComparison",
                          "PermutationResult",
                          "ReferenceSensitivity",
                          "SegmentMean",
                          "SignificanceResult",
                          "StatisticResult",
                          "SubsetComparison",
                          "TauCounts",
                          "WilliamsResult",
                          "approximate_randomization",
                          "block_scores",
                          "block_test",
                          "bootstrap_ci",
                          "bootstrap_index_chunks",
                          "bootstrap_indices",
                          "bootstrap_scores",
                          "correlate",
                          "holm",
                          "human_scores",
                          "human_system_scores",
                          "kendall_variants",
                          "p_text",
                          "paired_bootstrap",
                          "pairwise_accuracy",
                          "pairwise_agreement",
                          "permutation_test",
                          "rater_z",
                          "reference_sensitivity",
                          "reference_subsets",
                          "resampled_scores",
                          "resamples_for",
                          "segment_correlation",
                          "segment_correlation_ci",
                          "segment_means",
                          "significance_clusters",
                          "system_correlation",
                          "system_correlation_ci",
                          "system_correlation_ci_from_segments",
                          "system_correlation_ci_over_systems",
                          "tau_counts",
                          "williams_test",
]
