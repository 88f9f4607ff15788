"""Differential tests: chrF and chrF++ equal sacreBLEU 2.6.0 on every WMT22 system in ../shared.

sacreBLEU's chrF is slow (1-2 s a system), so each (system, reference) is extracted by sacreBLEU
once, as chrF++ with the reference cached: with one reference its first 18 columns are chrF's
statistics (checked against sacreBLEU's own chrF run on one system per pair). With several
references sacreBLEU picks, per segment, the first reference of highest sentence chrF: that choice
is made here with sacreBLEU's own score function on its single-reference rows, and checked against
sacreBLEU's real multi-reference run on a few systems per pair.
"""

from __future__ import annotations

import numpy as np
import pytest

from mtscore import CHRF, corpus_chrf, sentence_chrf
from mtscore.io.text import read_lines

from .conftest import WMT22, needs_wmt22, pair_meta, wmt22_pairs

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import CHRF as SacreCHRF  # noqa: E402

pytestmark = [needs_wmt22, pytest.mark.parity]  # a comparison with sacreBLEU on the shared data

CHAR_COLUMNS = 18  # 6 character orders × (hyp, ref, match)


def _sacre_best(rows: list[np.ndarray], sacre: SacreCHRF) -> np.ndarray:
    """sacreBLEU's choice per segment: the first reference row of highest sentence chrF."""
    out = []
    for segment_rows in zip(*rows):
        best, best_f = None, -1.0
        for row in segment_rows:
            f = sacre._compute_f_score(list(row))
            if f > best_f:
                best, best_f = row, f
        out.append(best)
    return np.array(out)


def _check(metric: CHRF, sacre: SacreCHRF, ours: np.ndarray, theirs: np.ndarray, what: str) -> None:
    """Same rows, same corpus score, same sentence scores (sacreBLEU's score function)."""
    np.testing.assert_array_equal(ours, theirs, err_msg=what)
    corpus = metric.compute(ours.sum(axis=0)).score
    assert abs(corpus - sacre._compute_score_from_stats(list(theirs.sum(axis=0))).score) < 1e-9, what
    expected = np.array([sacre._compute_f_score(list(row)) for row in theirs])
    np.testing.assert_allclose(metric.compute_many(ours), expected, rtol=0, atol=1e-9, err_msg=what)


@pytest.mark.parametrize("pair", wmt22_pairs())
def test_every_system_every_reference_set(pair: str) -> None:
    folder = WMT22 / pair
    meta = pair_meta(pair)
    ids = meta["references"]
    refs = {r: read_lines(folder / "references" / f"{r}.txt") for r in ids}
    chrf, chrfpp = CHRF(), CHRF(word_order=2)
    sacre, sacre_pp = SacreCHRF(), SacreCHRF(word_order=2)
    cached = {r: SacreCHRF(word_order=2, references=[refs[r]]) for r in ids}
    prepared = {(m.word_order, r): m.prepare_references([refs[r]]) for m in (chrf, chrfpp) for r in ids}
    prepared_all = {m.word_order: m.prepare_references([refs[r] for r in ids]) for m in (chrf, chrfpp)}
    systems = sorted((folder / "systems").glob("*.txt"))
    for s, path in enumerate(systems):
        hyps = read_lines(path)
        own = meta["human_systems"].get(path.stem)
        rows = {}
        for r in ids:
            if r == own:
                continue  # a human system is never scored against itself
            theirs = np.array(cached[r]._extract_corpus_statistics(hyps, None))
            rows[r] = theirs
            _check(chrfpp, sacre_pp, chrfpp.extract(hyps, prepared[2, r]).values, theirs,
                   f"{path.stem} chrF++ {r}")
            _check(chrf, sacre, chrf.extract(hyps, prepared[0, r]).values, theirs[:, :CHAR_COLUMNS],
                   f"{path.stem} chrF {r}")
        if s == 0:  # chrF's columns of the chrF++ run are sacreBLEU's chrF
            r = next(iter(rows))
            assert corpus_chrf(hyps, [refs[r]]).score == pytest.approx(
                sacre.corpus_score(hyps, [refs[r]]).score, abs=1e-9)
        if own is not None or len(ids) < 2:
            continue
        for metric, sac, width in ((chrf, sacre, CHAR_COLUMNS), (chrfpp, sacre_pp, None)):
            theirs = _sacre_best([rows[r][:, :width] for r in ids], sac)
            ours = metric.extract(hyps, prepared_all[metric.word_order]).values
            _check(metric, sac, ours, theirs, f"{path.stem} {metric.display_name} all references")
            if s == 0:  # sacreBLEU's own multi-reference run
                all_refs = [refs[r] for r in ids]
                expected = np.array(sac._extract_corpus_statistics(hyps, all_refs))
                np.testing.assert_array_equal(ours, expected)
                result = metric.corpus_score(hyps, all_refs)
                assert abs(result.score - sac.corpus_score(hyps, all_refs).score) < 1e-9
                assert str(result.signature).split("|")[1:-1] == \
                    str(sac.get_signature()).split("|")[:-1]


@needs_wmt22
@pytest.mark.parametrize("char_order,word_order,beta,lowercase,whitespace,eps", [
    (6, 0, 2, True, False, False), (6, 0, 2, False, True, False), (6, 0, 2, False, False, True),
    (6, 2, 3, True, True, True), (4, 1, 1, False, False, False), (0, 2, 2, False, False, False),
    (1, 0, 2, True, True, False), (6, 2, 2, False, True, True)])
def test_options_on_real_data(char_order: int, word_order: int, beta: int, lowercase: bool,
                              whitespace: bool, eps: bool) -> None:
    """Every option, alone and combined, on 400 segments of de-en (both references)."""
    folder = WMT22 / "de-en"
    refs = [read_lines(folder / "references" / f"{r}.txt")[:400] for r in ("A", "B")]
    hyps = read_lines(folder / "systems" / "Online-W.txt")[:400]
    options = {"char_order": char_order, "word_order": word_order, "beta": beta,
               "lowercase": lowercase, "whitespace": whitespace, "eps_smoothing": eps}
    metric = CHRF(**options)
    sacre = SacreCHRF(**options)
    for streams in (refs[:1], refs):
        ours = metric.extract(hyps, streams).values
        np.testing.assert_array_equal(ours, np.array(sacre._extract_corpus_statistics(hyps, streams)))
        assert abs(corpus_chrf(hyps, streams, **options).score
                   - sacre.corpus_score(hyps, streams).score) < 1e-9
        for i in range(0, 400, 37):
            segment_refs = [s[i] for s in streams]
            assert abs(sentence_chrf(hyps[i], segment_refs, **options).score
                       - sacre.sentence_score(hyps[i], segment_refs).score) < 1e-9
    assert str(metric.signature({"nrefs": "2"})).split("|")[1:-1] == \
        str(sacre.get_signature()).split("|")[:-1]
