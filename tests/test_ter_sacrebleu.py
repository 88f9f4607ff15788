"""Differential tests: TER equals sacreBLEU 2.6.0 on WMT22 data in ../shared.

sacreBLEU's TER takes minutes per pair, so the tests compare a sample of segments of every pair
(every 37th segment of two systems), each reference alone and all together, and every option
combination on a sample of one pair; benchmarks/chrf_ter.py --check compares every system in full.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mtscore import TER, corpus_ter, sentence_ter
from mtscore.io.text import read_lines

from .conftest import WMT22, needs_wmt22, pair_meta, wmt22_pairs

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import TER as SacreTER  # noqa: E402

pytestmark = [needs_wmt22, pytest.mark.parity]  # a comparison with sacreBLEU on the shared data

STRIDE = 37


def _reference_sets(ids: list[str]) -> list[tuple[str, ...]]:
    return [(r,) for r in ids] + ([tuple(ids)] if len(ids) > 1 else [])


@pytest.mark.parametrize("pair", wmt22_pairs())
def test_sample_of_every_pair(pair: str) -> None:
    folder = WMT22 / pair
    meta = pair_meta(pair)
    refs = {r: read_lines(folder / "references" / f"{r}.txt")[::STRIDE] for r in meta["references"]}
    systems = sorted((folder / "systems").glob("*.txt"))
    metric, sacre = TER(), SacreTER()
    for ref_ids in _reference_sets(meta["references"]):
        streams = [refs[r] for r in ref_ids]
        prepared = metric.prepare_references(streams)
        chosen = [p for p in systems if meta["human_systems"].get(p.stem) not in ref_ids]
        for path in chosen[::max(1, len(chosen) // 2)][:2]:
            hyps = read_lines(path)[::STRIDE]
            ours = metric.extract(hyps, prepared).values
            theirs = np.array(sacre._extract_corpus_statistics(hyps, streams), dtype=np.float64)
            np.testing.assert_array_equal(ours, theirs, err_msg=f"{pair} {path.stem} {ref_ids}")
            result = metric.compute(ours.sum(axis=0), {"nrefs": prepared.nrefs})
            expected = sacre._compute_score_from_stats(list(theirs.sum(axis=0)))
            assert abs(result.score - expected.score) < 1e-9
            sentence = [sacre._compute_score_from_stats(list(row)).score for row in theirs]
            np.testing.assert_allclose(metric.compute_many(ours), sentence, rtol=0, atol=1e-9)
            assert str(result.signature).split("|")[1:-1] == str(sacre.get_signature()).split("|")[:-1]


@needs_wmt22
@pytest.mark.parametrize("options", [dict(zip(("normalized", "no_punct", "asian_support",
                                                "case_sensitive"), values))
                                     for values in itertools.product((False, True), repeat=4)])
def test_every_option_combination(options: dict) -> None:
    """All 16 combinations on 31 segments of zh-en (both references)."""
    folder = WMT22 / "zh-en"
    refs = [read_lines(folder / "references" / f"{r}.txt")[5::61] for r in ("A", "B")]
    hyps = read_lines(folder / "systems" / "Online-W.txt")[5::61]
    sacre = SacreTER(**options)
    expected = sacre.corpus_score(hyps, refs)
    result = corpus_ter(hyps, refs, **options)
    assert abs(result.score - expected.score) < 1e-9
    assert result.num_edits == expected.num_edits and result.ref_len == expected.ref_length
    for i in range(0, len(hyps), 7):
        segment_refs = [r[i] for r in refs]
        assert abs(sentence_ter(hyps[i], segment_refs, **options).score
                   - sacre.sentence_score(hyps[i], segment_refs).score) < 1e-9
    assert str(result.signature).split("|")[1:-1] == str(sacre.get_signature()).split("|")[:-1]


@pytest.mark.parametrize("refs", [[["0's中"]], [["0"], ["0's中"]], [["It's 3's."]]])
def test_references_are_normalized_twice_as_sacrebleu_does(refs) -> None:
    # sacreBLEU preprocesses a reference in _cache_references and again in _extract_reference_info;
    # tercom's normalization is not idempotent on "0's中" (hypothesis found it)
    options = {"normalized": True, "asian_support": True}
    ours = TER(**options).extract([""], refs).values
    np.testing.assert_array_equal(ours, np.array(SacreTER(**options)._extract_corpus_statistics([""], refs)))


@pytest.mark.parametrize(("pair", "system", "line"), [("zh-en", "LanguageX", 778)])
def test_segments_an_earlier_search_got_wrong(pair: str, system: str, line: int) -> None:
    # the numpy search before the bit-parallel candidate distances gave 33 edits here (sacreBLEU: 32)
    folder = WMT22 / pair
    hyp = read_lines(folder / "systems" / f"{system}.txt")[line - 1]
    refs = [[read_lines(p)[line - 1]] for p in sorted((folder / "references").glob("*.txt"))]
    theirs = np.array(SacreTER()._extract_corpus_statistics([hyp], refs), dtype=np.float64)
    for copies in (1, 4):  # one pair alone and several: both through the numpy search
        fast = TER().extract([hyp] * copies, [r * copies for r in refs]).values
        np.testing.assert_array_equal(fast, np.repeat(theirs, copies, axis=0))
    np.testing.assert_array_equal(TER(fast=False).extract([hyp], refs).values, theirs)


def test_one_long_repetitive_pair_goes_through_the_numpy_search() -> None:
    """Issue 26: a single pair (``sentence_ter``) is searched with numpy, as a corpus is; a long
    pair over 3 word types (many shift candidates) equals sacreBLEU. The 800-word case of the
    issue is timed in benchmarks/ter_long_pair.py."""
    import random

    rng = random.Random(7)
    ref = [rng.choice("abc") for _ in range(150)]
    hyp = list(ref)
    for _ in range(15):
        i = rng.randrange(len(hyp))
        hyp[i:i + 1] = [] if rng.random() < 0.5 else [rng.choice("abcd"), hyp[i]]
    h, r = " ".join(hyp), " ".join(ref)
    assert sentence_ter(h, [r]).score == SacreTER().sentence_score(h, [r]).score
