"""BLEU's block test: block scores are corpus scores of the blocks, the t-test is scipy's paired
t-test, and too-short corpora get a clear error."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats

from mtscore import BLEU, InputError, OptionError, corpus_bleu
from mtscore.data import sample_path
from mtscore.io.text import read_lines
from mtscore.stats import block_scores, block_test


@pytest.fixture(scope="module")
def sample():
    folder = sample_path()
    refs = [read_lines(folder / "references" / "A.txt")]
    names = ["Online-B", "Online-A", "LT22"]
    hyps = {n: read_lines(folder / "systems" / f"{n}.txt") for n in names}
    bleu = BLEU()
    prepared = bleu.prepare_references(refs)
    return refs, hyps, bleu, {n: bleu.extract(h, prepared) for n, h in hyps.items()}


def test_block_scores_are_corpus_scores_of_blocks(sample):
    refs, hyps, bleu, stats = sample
    K, B = 8, 25
    scores = block_scores(bleu, stats["Online-A"], K, B)
    for k in range(K):
        part = slice(k * B, (k + 1) * B)
        expected = corpus_bleu(hyps["Online-A"][part], [r[part] for r in refs]).score
        assert scores[k] == pytest.approx(expected, abs=1e-9)


def test_block_test_table(sample):
    refs, hyps, bleu, stats = sample
    res = block_test(bleu, stats, blocks=16, block_size=25)
    assert res.segments_used == 400 and res.segments_total == len(refs[0])
    ranked = [r.system for r in res.rows]
    used = {n: corpus_bleu(h[:400], [r[:400] for r in refs]).score for n, h in hyps.items()}
    assert ranked == sorted(used, key=lambda n: -used[n])
    for row, nxt in zip(res.rows, res.rows[1:]):
        assert row.score == pytest.approx(used[row.system], abs=1e-9)
        blocks = np.array(row.block_scores)
        assert row.mean == pytest.approx(blocks.mean()) and row.sd == pytest.approx(blocks.std(ddof=1))
        ref = scipy.stats.ttest_rel(blocks, np.array(nxt.block_scores))
        assert row.statistic == pytest.approx(ref.statistic) and row.pvalue == pytest.approx(ref.pvalue)
        assert row.next_system == nxt.system
    assert res.rows[-1].statistic is None
    from mtscore.report.stats_tables import block_table

    table = block_table(res)
    assert len(table.rows) == 3 and "16 blocks of 25" in res.describe()


def test_too_few_segments_says_how_many_and_what_to_do(sample):
    _, _, bleu, stats = sample
    with pytest.raises(InputError) as err:
        block_test(bleu, stats, blocks=20, block_size=25)
    msg = str(err.value)
    assert "500" in msg and "427" in msg and "--blocks 17" in msg and "--block-size 21" in msg
    with pytest.raises(OptionError):
        block_test(bleu, stats, blocks=1, block_size=10)
    with pytest.raises(OptionError):
        block_test(bleu, stats, blocks=5, block_size=0)


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from mtscore.stats import SegmentMean  # noqa: E402


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.integers(1, 5), st.integers(0, 2**31))
def test_mean_of_equal_blocks_is_corpus_mean(blocks, size, seed):
    """For an averaged metric, equal-size block means average to the corpus mean."""
    rng = np.random.default_rng(seed)
    a = rng.normal(size=blocks * size)
    b = a + rng.normal(size=blocks * size)
    res = block_test(SegmentMean(), {"a": SegmentMean.stats(a), "b": SegmentMean.stats(b)},
                     blocks=blocks, block_size=size)
    for row in res.rows:
        values = a if row.system == "a" else b
        assert row.mean == pytest.approx(values.mean()) and row.score == pytest.approx(values.mean())
        assert np.array(row.block_scores) == pytest.approx(values.reshape(blocks, size).mean(axis=1))
