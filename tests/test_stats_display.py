"""Statistics results in notebooks: a short ``repr`` (< 1,000 characters whatever the data size),
``_repr_html_`` and ``to_pandas()`` whose rows are the result's own numbers."""

from __future__ import annotations

import numpy as np
import pytest

from mtscore import BLEU
from mtscore.data import sample_path
from mtscore.io.text import read_lines
from mtscore.stats import (
    block_test,
    bootstrap_ci,
    human_scores,
    paired_bootstrap,
    permutation_test,
    reference_sensitivity,
    segment_correlation,
    system_correlation_ci_over_systems,
    tau_counts,
    williams_test,
)

pd = pytest.importorskip("pandas")
SAMPLE = sample_path()
NAMES = ("LT22", "PROMT", "Online-A", "Online-B", "Online-W")


@pytest.fixture(scope="module")
def results() -> list[object]:
    refs = [read_lines(SAMPLE / "references" / "A.txt")]
    bleu = BLEU()
    prepared = bleu.prepare_references(refs)
    hyps = {n: read_lines(SAMPLE / "systems" / f"{n}.txt") for n in NAMES}
    stats = {n: bleu.extract(h, prepared) for n, h in hyps.items()}
    sig = paired_bootstrap(bleu, stats, None, 100)
    rng = np.random.default_rng(1)
    h = rng.normal(size=(5, 40))
    blocks = block_test(bleu, stats, 10, 25)
    sensitivity = reference_sensitivity(bleu, {n: hyps[n] for n in NAMES[:2]},
                                        {"A": refs[0], "A2": refs[0]})
    humans = human_scores(["a"] * 3 + ["b"] * 3, [1, 2, 3] * 2, ["r"] * 6, [1, 2, 3, 4, 5, 9.0], 3,
                          standardize=False)
    return [sig, sig.comparisons[0], sig.intervals[0], bootstrap_ci(bleu, stats["LT22"], 100),
            blocks, blocks.rows[0], segment_correlation(h + rng.normal(size=h.shape), h),
            system_correlation_ci_over_systems([1, 2, 3, 5.0], [2, 1, 4, 6.0], "pearson", 50),
            williams_test(0.8, 0.6, 0.7, 20), permutation_test(h[0], h[0] + 1, -h[0], resamples=20),
            sensitivity, sensitivity.comparisons[0], tau_counts(h[0], h[1]), humans]


def test_short_repr_html_and_pandas(results: list[object]) -> None:
    for result in results:
        text = repr(result)
        assert len(text) < 1000 and text.startswith(type(result).__name__ + "("), text
        assert "<table>" in result._repr_html_()  # type: ignore[attr-defined]
        frame = result.to_pandas()  # type: ignore[attr-defined]
        assert isinstance(frame, pd.DataFrame) and len(frame) >= 1


def test_pandas_rows_are_the_results_numbers(results: list[object]) -> None:
    sig = results[0]
    frame = sig.to_pandas()  # type: ignore[attr-defined]
    assert list(frame["system"]) == sig.ranking()  # type: ignore[attr-defined]
    by_name = dict(zip(sig.systems, sig.scores))  # type: ignore[attr-defined]
    assert list(frame["score"]) == [by_name[s] for s in frame["system"]]
    humans = results[-1]
    assert humans.to_pandas()["score"].tolist() == [1.0, 2.0, 3.0, 4.0, 5.0, 9.0]  # type: ignore[attr-defined]


def test_repr_stays_short_on_a_large_result() -> None:
    from mtscore.stats import SegmentMean

    rng = np.random.default_rng(0)
    stats = {f"system-{k}-" + "x" * 200: SegmentMean.stats(rng.normal(size=5000)) for k in range(40)}
    result = paired_bootstrap(SegmentMean("m"), stats, None, 20)
    assert len(repr(result)) < 1000 and len(result.to_pandas()) == 40


def test_a_p_value_of_zero_prints_as_below_the_bound() -> None:
    """A t-test's p that underflowed to 0 is below every bound, not "0.0000" (issue 24)."""
    from mtscore.stats.defaults import p_text

    assert p_text(0.0) == "< 0.0001"
    assert p_text(0.0, decimals=3) == "< 0.001"
    assert p_text(3e-7) == "< 0.0001"
    assert p_text(0.04999) == "0.0500"
