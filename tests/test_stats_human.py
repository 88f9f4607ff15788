"""Human scores: per-rater z-scores and (system, segment) means, by hand and on WMT22's release."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from mtscore import InputError
from mtscore.stats import human_scores, rater_z, segment_means

WMT22 = Path(__file__).resolve().parents[2] / "shared" / "data" / "wmt22"
needs_data = pytest.mark.skipif(not WMT22.is_dir(), reason="../shared/data/wmt22 not present")


def test_rater_z_hand_worked():
    # rater r1: 50, 70, 90 -> mean 70, sample sd 20 -> -1, 0, 1; rater r2: 10, 20 -> mean 15,
    # sd √50 -> ∓0.7071; rater r3 has one judgment -> no spread -> 0
    z = rater_z(["r1", "r2", "r1", "r1", "r2", "r3"], [50, 10, 70, 90, 20, 40])
    assert z == pytest.approx([-1, -5 / np.sqrt(50), 0, 1, 5 / np.sqrt(50), 0])
    z0 = rater_z(["r1", "r1"], [0, 10], ddof=0)
    assert z0 == pytest.approx([-1, 1])


def test_segment_means_and_system_scores():
    hs = human_scores(["A", "A", "A", "B", "B"], [1, 1, 3, 2, 3], ["r", "r", "r", "r", "r"],
                      [60, 80, 100, 0, 20], n_segments=3, standardize=False)
    assert hs.systems == ("A", "B")
    assert np.isnan(hs.scores[0, 1]) and hs.scores[0, 0] == 70 and hs.scores[0, 2] == 100
    assert hs.counts.tolist() == [[2, 0, 1], [0, 1, 1]]
    assert hs.system_scores() == {"A": 85.0, "B": 10.0}
    assert set(hs.by_system()) == {"A", "B"}
    with pytest.raises(InputError, match="out of range"):
        segment_means(["A"], [4], [1.0], n_segments=3)
    with pytest.raises(InputError, match="not listed"):
        segment_means(["A", "C"], [1, 2], [1.0, 2.0], n_segments=3, system_names=["A"])


def _read(path):
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


@pytest.mark.parity
@needs_data
@pytest.mark.parametrize("pair", ["zh-en", "de-en"])
def test_wmt22_released_z_scores(pair):
    folder = WMT22 / pair
    judgments = _read(folder / "human" / "judgments.tsv")
    raters = [j["rater"] for j in judgments]
    z = np.array([float(j["z"]) for j in judgments])
    # WMT's z-scores are standardized per rater with ddof = 1 over all of a rater's judgments (a
    # few are not released), so standardizing them again is nearly a no-op with ddof = 1 ...
    assert rater_z(raters, z) == pytest.approx(z, rel=1e-3, abs=1e-6)
    # ... and visibly not with ddof = 0 (a factor √(n/(n-1)) per rater)
    assert np.max(np.abs(rater_z(raters, z, ddof=0) - z)) > 10 * np.max(np.abs(rater_z(raters, z) - z))
    # (human/segments.tsv is not the mean of judgments.tsv for every cell: ~30% of its zh-en cells
    # count fewer judgments than judgments.tsv lists, so it cannot serve as an oracle here)
    with open(folder / "source.txt", encoding="utf-8") as handle:
        n = sum(1 for _ in handle)
    hs = segment_means([j["system"] for j in judgments], [int(j["seg_id"]) for j in judgments],
                       z, n_segments=n)
    assert int(hs.counts.sum()) == len(judgments)
    k = hs.systems.index(judgments[0]["system"])
    i = int(judgments[0]["seg_id"]) - 1
    same = [float(j["z"]) for j in judgments
            if j["system"] == judgments[0]["system"] and int(j["seg_id"]) == i + 1]
    assert hs.scores[k, i] == pytest.approx(np.mean(same))
