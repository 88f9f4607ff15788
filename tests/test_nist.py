"""NIST: exact against NLTK (single reference) and against a direct transcription of mteval-v13a's
algorithm with Counters (several references), on the sample, on ../shared and on random corpora."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.nist_score import corpus_nist as nltk_corpus_nist

from mtscore.data import sample_path
from mtscore.errors import InputError, OptionError
from mtscore.io.dataset import load_dataset
from mtscore.io.text import read_lines
from mtscore.metrics.nist.metric import NIST, brevity_factor, corpus_nist
from mtscore.text.span_encoder import LineEncoder
from mtscore.text.tokenizers import get_tokenizer

from .conftest import WMT22, needs_wmt22

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "wmt22"
TOK = get_tokenizer("13a")


def _ngrams(words, n):
    return Counter(tuple(words[i:i + n]) for i in range(len(words) - n + 1))


def mteval_nist(hyps: list[list[str]], refs: list[list[list[str]]], N: int = 5,
                quirk: bool = True) -> float:
    """mteval-v13a's NIST, written out with Counters: refs[k][i] = words of reference k, segment i.
    ``quirk``: as the script, a bigram whose prefix is the token "0" (false in Perl) takes the
    unigram rule; False: the paper's rule for every n-gram."""
    count: Counter = Counter()
    total_words = 0
    for stream in refs:
        for words in stream:
            total_words += len(words)
            for n in range(1, N + 1):
                count.update(_ngrams(words, n))
    def prefix_count(g):
        return total_words if len(g) == 1 or (quirk and g[:-1] == ("0",)) else count[g[:-1]]

    info = {g: math.log2(prefix_count(g) / c) for g, c in count.items()}
    tst_info = [0.0] * (N + 1)
    tst_cnt = [0] * (N + 1)
    ref_words = 0
    for i, hyp in enumerate(hyps):
        ref_max: Counter = Counter()
        for stream in refs:
            ref_words += len(stream[i])
            for n in range(1, N + 1):
                for g, c in _ngrams(stream[i], n).items():
                    ref_max[g] = max(ref_max[g], c)
        for n in range(1, N + 1):
            tst_cnt[n] += max(len(hyp) - n + 1, 0)
            for g, c in _ngrams(hyp, n).items():
                if g in ref_max:
                    tst_info[n] += info[g] * min(c, ref_max[g])
    score = sum(tst_info[n] / max(tst_cnt[n], 1) for n in range(1, N + 1))
    ratio = tst_cnt[1] / (ref_words / len(refs))
    if ratio <= 0:
        return 0.0
    if ratio < 1:
        beta = -math.log(0.5) / math.log(1.5) ** 2
        score *= math.exp(-beta * math.log(ratio) ** 2)
    return score


def _tok(lines):
    return [TOK(x).split() for x in lines]


@pytest.fixture(scope="module")
def sample():
    return load_dataset(sample_path())


@pytest.mark.parity
@pytest.mark.parametrize("system", ["LT22", "Online-W", "PROMT", "HUMAN-B"])
def test_single_reference_equals_nltk(sample, system):
    hyp, ref = sample.systems[system], sample.references["A"]
    ours = corpus_nist(hyp, [ref], mteval_zero_quirk=False).score  # NLTK: the paper's rule
    nltk = nltk_corpus_nist([[r] for r in _tok(ref)], _tok(hyp), n=5)
    assert ours == pytest.approx(nltk, rel=1e-12, abs=1e-12)


def test_two_references_equal_mteval_algorithm(sample):
    refs = [sample.references["A"], sample.references["B"]]
    for system in ("LT22", "Online-A"):
        hyp = sample.systems[system]
        ours = corpus_nist(hyp, refs).score
        assert ours == pytest.approx(mteval_nist(_tok(hyp), [_tok(r) for r in refs]), rel=1e-12)
        # NLTK clips against one best reference per order and uses that reference's length, so it
        # differs with several references (documented in the README)
        nltk = nltk_corpus_nist([list(p) for p in zip(*[_tok(r) for r in refs])], _tok(hyp), n=5)
        assert nltk < ours


@pytest.mark.parity
@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared data not present")
def test_shared_zh_en_single_reference_equals_nltk():
    d = load_dataset(SHARED / "zh-en")
    hyp, ref = d.systems["Online-B"], d.references["A"]
    nltk = nltk_corpus_nist([[r] for r in _tok(ref)], _tok(hyp), n=5)
    assert corpus_nist(hyp, [ref], mteval_zero_quirk=False).score == pytest.approx(nltk, rel=1e-12)


def test_brevity_factor_calibration():
    assert brevity_factor(2.0, 3.0) == pytest.approx(0.5, rel=1e-15)
    assert brevity_factor(5, 5) == 1.0 and brevity_factor(7, 5) == 1.0
    assert brevity_factor(0, 5) == 0.0
    assert brevity_factor(3, 0) == 1.0  # no reference words: nothing to be short of
    r = np.linspace(0.05, 0.99, 50)
    assert np.all(np.diff(brevity_factor(r, 1.0)) > 0)


# ---- the real mteval-v13a.pl (tests/data/nist_mteval.tsv, made by nist_mteval_make.py) ----------

MTEVAL_ROWS = [line.split("\t") for line in (Path(__file__).parent / "data" / "nist_mteval.tsv")
               .read_text(encoding="utf-8").splitlines()[3:]]
EXAMPLE = ["it ended 0 to 0 today", "nothing happened"]


def _mteval_inputs(pair: str, system: str, refs: str) -> tuple[list[str], list[list[str]]]:
    if pair == "example":
        return EXAMPLE, [EXAMPLE]
    folder = WMT22 / pair
    return (read_lines(folder / "systems" / f"{system}.txt"),
            [read_lines(folder / "references" / f"{r}.txt") for r in refs.split("+")])


@pytest.mark.parity
@pytest.mark.parametrize("pair,system,refs,score", MTEVAL_ROWS, ids=["-".join(r[:3]) for r in MTEVAL_ROWS])
def test_default_equals_the_mteval_script(pair, system, refs, score):
    """NIST() equals the script's own score (15 significant digits) on every system and
    reference set of WMT22 de-en and on the example."""
    if pair != "example" and not WMT22.is_dir():
        pytest.skip("../shared/data/wmt22 not present")
    hyps, streams = _mteval_inputs(pair, system, refs)
    assert corpus_nist(hyps, streams).score == pytest.approx(float(score), rel=1e-12)


@pytest.mark.parity
def test_mteval_rows_cover_every_de_en_system_and_reference_set():
    if not WMT22.is_dir():
        pytest.skip("../shared/data/wmt22 not present")
    systems = {p.stem for p in (WMT22 / "de-en" / "systems").glob("*.txt")}
    machine = systems - {"HUMAN-B"}
    seen = {(s, r) for pair, s, r, _ in MTEVAL_ROWS if pair == "de-en"}
    assert seen == {(s, r) for s in machine for r in ("A", "B", "A+B")} | {("HUMAN-B", "A")}


@pytest.mark.parametrize("system", ["example", "Online-A", "LT22"])
def test_both_rules_against_independent_transcriptions(system):
    """Default: the Counter transcription with the quirk; corrected: the paper's rule for every
    n-gram. The two differ exactly where a bigram starts with the token 0."""
    if system != "example" and not WMT22.is_dir():
        pytest.skip("../shared/data/wmt22 not present")
    hyps, streams = _mteval_inputs("example" if system == "example" else "de-en", system, "A+B")
    words, ref_words = _tok(hyps), [_tok(s) for s in streams]
    quirk, fixed = corpus_nist(hyps, streams), corpus_nist(hyps, streams, mteval_zero_quirk=False)
    assert quirk.score == pytest.approx(mteval_nist(words, ref_words, quirk=True), rel=1e-12)
    assert fixed.score == pytest.approx(mteval_nist(words, ref_words, quirk=False), rel=1e-12)
    assert fixed.score < quirk.score  # every text here has a "0 w" bigram
    assert fixed.signature.get("quirk") == "no" and quirk.signature.get("quirk") is None
    if system == "example":  # by hand: bigrams "0 to", "0 today" weigh log2(8/1) = 3, not 1
        assert quirk.score == 2.75 + 6 / 6 and fixed.score == pytest.approx(2.75 + 2 / 6)


def test_statistics_are_additive_and_vectorized(sample):
    metric = NIST()
    prepared = metric.prepare_references([sample.references["A"], sample.references["B"]])
    stats = metric.extract(sample.systems["LT22"], prepared)
    assert stats.columns[:2] == ("hyp_len", "ref_len") and len(stats) == 427
    # ref_len sums to mteval's Lref: all reference words / number of references
    words = sum(len(x) for r in ("A", "B") for x in _tok(sample.references[r]))
    assert stats.total()[1] == pytest.approx(words / 2)
    # corpus score from halves == corpus score from the whole
    halves = stats.take(slice(0, 200)).total() + stats.take(slice(200, None)).total()
    assert metric.compute(halves).score == pytest.approx(metric.compute(stats.total()).score, rel=1e-12)
    rows = np.stack([stats.take(slice(0, 100)).total(), stats.total()])
    vec = metric.compute_many(rows)
    assert vec[1] == pytest.approx(metric.compute(stats.total()).score, rel=1e-12)
    assert vec[0] == pytest.approx(metric.compute(rows[0]).score, rel=1e-12)


def test_result_and_signature(sample):
    result = corpus_nist(sample.systems["LT22"], [sample.references["A"]])
    assert len(result.precisions) == 5 and result.score == pytest.approx(sum(result.precisions) * result.bp)
    assert result.signature.startswith("NIST|nrefs:1|case:mixed|tok:13a|order:5|")
    assert "NIST =" in str(result)


def test_prepared_references_settings_checked(sample):
    prepared = NIST().prepare_references([sample.references["A"]])
    with pytest.raises(OptionError, match="prepared"):
        NIST(lowercase=True).extract(sample.systems["LT22"], prepared)
    with pytest.raises(InputError, match="segments"):
        NIST().extract(sample.systems["LT22"][:10], prepared)
    with pytest.raises(OptionError):
        NIST(max_order=0)
    with pytest.raises(OptionError):
        NIST().extract(sample.systems["LT22"], NIST(mteval_zero_quirk=False)
                       .prepare_references([sample.references["A"]]))


@pytest.mark.parametrize("order", [0, -1, 101, 10**6, 2.0, True, "5"])
def test_max_order_out_of_range_refused(order):
    with pytest.raises(OptionError, match="max_order"):
        NIST(max_order=order)


words = st.lists(st.sampled_from(["a", "b", "c", "d", "e"]), min_size=0, max_size=8)


@pytest.mark.parity
@settings(max_examples=60, deadline=None)
@given(st.integers(1, 3).flatmap(lambda k: st.lists(
    st.tuples(words.filter(bool), st.lists(words.filter(bool), min_size=k, max_size=k)),
    min_size=1, max_size=6)))
def test_random_corpora_equal_mteval_algorithm(corpus):
    hyps = [h for h, _ in corpus]
    K = len(corpus[0][1])
    refs = [[rs[k] for _, rs in corpus] for k in range(K)]
    ours = corpus_nist([" ".join(h) for h in hyps], [[" ".join(r) for r in s] for s in refs])
    assert ours.score == pytest.approx(mteval_nist(hyps, refs), rel=1e-9, abs=1e-12)
    if K == 1 and all(len(h) >= 5 for h in hyps[:1]):
        nltk = nltk_corpus_nist([[r] for r in refs[0]], hyps, n=5)
        assert ours.score == pytest.approx(nltk, rel=1e-9, abs=1e-12)


# ---- the byte-span encoder against the line tokenizer it replaced -------------------------------

def line_encoder_stats(module, metric, hyps, refs):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(module, "make_encoder", LineEncoder)  # preprocess + a dict: the rule
        return metric.extract(hyps, refs)


def _assert_identical(new, old) -> None:
    assert new.values.dtype == old.values.dtype
    assert np.array_equal(new.values, old.values)  # bit for bit (information weights included)
    assert dict(new.meta) == dict(old.meta)


PIECES = st.sampled_from(["a", "b", "the", "The", "cat", " ", " ", "  ", ".", ",", "5", "3.5", "-",
                           "&amp;", "中", "文", "é", "É", "U.S.", "😀", "eight888", "fifteen15bytes!"])
TEXT = st.lists(PIECES, max_size=25).map("".join)


@settings(max_examples=150, deadline=None)
@given(hyps=st.lists(TEXT, min_size=1, max_size=8), data=st.data(),
        tokenize=st.sampled_from(["13a", "intl", "zh", "char", "none"]), lowercase=st.booleans(),
        order=st.integers(1, 6))
def test_encoder_statistics_identical_to_line_tokenizer_random(hyps, data, tokenize, lowercase, order):
    from mtscore.metrics.nist import metric as nist

    streams = [[data.draw(TEXT if k == 0 else st.none() | TEXT) for _ in hyps] for k in range(2)]
    metric = NIST(tokenize=tokenize, lowercase=lowercase, max_order=order)
    _assert_identical(metric.extract(hyps, streams), line_encoder_stats(nist, metric, hyps, streams))


@needs_wmt22
@pytest.mark.parametrize("pair,tokenize", [("zh-en", "13a"), ("de-en", "13a"), ("zh-en", "none"),
                                            ("de-en", "intl")])
def test_encoder_statistics_identical_to_line_tokenizer_wmt22(pair, tokenize):
    from mtscore.metrics.nist import metric as nist

    folder = WMT22 / pair
    refs = [read_lines(folder / "references" / f"{r}.txt") for r in ("A", "B")]
    refs[1] = [r if i % 5 else None for i, r in enumerate(refs[1])]
    metric = NIST(tokenize=tokenize)
    for path in sorted((folder / "systems").glob("*.txt"))[:3]:
        hyps = read_lines(path)
        _assert_identical(metric.extract(hyps, refs), line_encoder_stats(nist, metric, hyps, refs))
