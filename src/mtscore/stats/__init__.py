"""Statistics for trusting a score: confidence intervals, paired significance tests, BLEU's block
test, correlation with human judgments, reference-count sensitivity.

Everything works on the additive statistics of :mod:`mtscore.metrics.base`: resampling is index or
mask matrices applied to ``SegmentStats.values`` followed by the metric's vectorized ``scores``.
"""

from .blocks import BlockRow, BlockTestResult, block_scores, block_test
from .correlation import (GROUPINGS, KENDALL_VARIANTS, METHODS, CorrelationResult,
                          PermutationResult, SegmentMean, TauCounts, WilliamsResult, correlate,
                          human_system_scores, kendall_variants, pairwise_accuracy,
                          pairwise_agreement, permutation_test, segment_correlation,
                          segment_correlation_ci, system_correlation_ci_from_segments,
                          system_correlation_ci_over_systems,
                          system_correlation, system_correlation_ci, tau_counts, williams_test)
from .human import HumanScores, human_scores, rater_z, segment_means
from .references import (ReferenceSensitivity, SubsetComparison, reference_sensitivity,
                         reference_subsets)
from .resampling import (BootstrapCI, bootstrap_ci, bootstrap_index_chunks, bootstrap_indices,
                         bootstrap_scores, resampled_scores)
from .significance import (PairComparison, SignificanceResult, approximate_randomization, holm,
                           paired_bootstrap, significance_clusters)

__all__ = [
    "BlockRow", "BlockTestResult", "ReferenceSensitivity", "SubsetComparison", "block_scores",
    "block_test", "reference_sensitivity", "reference_subsets",
    "GROUPINGS", "KENDALL_VARIANTS", "METHODS", "BootstrapCI", "CorrelationResult", "HumanScores",
    "PairComparison", "PermutationResult", "SegmentMean", "SignificanceResult", "TauCounts", "WilliamsResult",
    "approximate_randomization", "bootstrap_ci", "bootstrap_index_chunks", "bootstrap_indices",
    "bootstrap_scores", "correlate", "holm",
    "human_scores", "human_system_scores", "kendall_variants", "paired_bootstrap",
    "pairwise_accuracy", "pairwise_agreement", "permutation_test", "rater_z", "resampled_scores",
    "segment_correlation", "segment_correlation_ci", "system_correlation_ci_from_segments",
    "system_correlation_ci_over_systems", "segment_means", "significance_clusters", "system_correlation",
    "system_correlation_ci", "tau_counts", "williams_test",
]
