"""Reference-count sensitivity: scores per reference subset equal corpus BLEU with those
references, a system is never scored against its own reference, and ranking changes are counted."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mtscore import BLEU, InputError, corpus_bleu
from mtscore.data import sample_path
from mtscore.io.text import read_lines
from mtscore.stats import reference_sensitivity, reference_subsets


def test_subsets():
    assert reference_subsets(["A", "B", "C"]) == [("A",), ("B",), ("C",), ("A", "B"), ("A", "C"),
                                                  ("B", "C"), ("A", "B", "C")]


def test_sample_sensitivity():
    folder = sample_path()
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    refs = {r: read_lines(folder / "references" / f"{r}.txt") for r in meta["references"]}
    names = ["HUMAN-B", "Online-B", "Online-A", "LT22", "PROMT"]
    hyps = {n: read_lines(folder / "systems" / f"{n}.txt") for n in names}
    res = reference_sensitivity(BLEU(), hyps, refs, exclude=meta["human_systems"])
    assert res.subsets == (("A",), ("B",), ("A", "B"))
    for j, subset in enumerate(res.subsets):
        for k, name in enumerate(names):
            if name == "HUMAN-B" and "B" in subset:
                assert np.isnan(res.scores[j, k])
            else:
                expected = corpus_bleu(hyps[name], [refs[r] for r in subset]).score
                assert res.scores[j, k] == pytest.approx(expected, abs=1e-9)
    full = res.comparisons[-1]
    assert full.kendall_tau == pytest.approx(1.0) and full.swapped_pairs == 0 and full.systems == 4
    single_a = res.comparisons[0]
    assert single_a.systems == 4 and single_a.pairs == 6
    # swapped pairs counted by hand from the scores
    a, b = res.scores[0][1:], res.scores[2][1:]
    swaps = sum((a[i] - a[j]) * (b[i] - b[j]) < 0 for i in range(4) for j in range(i + 1, 4))
    assert single_a.swapped_pairs == swaps
    assert res.rankings_changed == sum(c.swapped_pairs > 0 for c in res.comparisons)
    from mtscore.report.stats_tables import reference_tables

    tables = reference_tables(res)
    assert tables[0].rows[0][2] is None  # HUMAN-B against B


def test_bad_exclusion():
    with pytest.raises(InputError, match="not among the references"):
        reference_sensitivity(BLEU(), {"s": ["a"]}, {"A": ["a"]}, exclude={"s": "Z"})
