"""ROUGE: the rules, the fast kernels, rouge-score 0.1.2 parity, settings, CLI, bad input, statistics.

Parity: every per-segment P, R and F of variant ``rouge-score`` equals rouge-score 0.1.2's to 1e-12
(in fact bit for bit), for rouge1/2/L/Lsum, with and without the stemmer, on every system of the
shared WMT22 pairs (segments, and documents of 5 consecutive segments joined with newlines) and on
random Unicode text (hypothesis).
"""

from __future__ import annotations

import functools
import json
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore import InputError, OptionError
from mtscore.metrics.rouge import (
    ROUGE,
    ROUGESettings,
    corpus_rouge,
    extract_types,
    lcs_fast,
    rouge_scores,
    rules,
    sentence_rouge,
)
from mtscore.metrics.rouge.tokenize import rouge_score_tokens

from .conftest import REPO, WMT22, needs_wmt22, pair_meta, wmt22_pairs

try:
    from rouge_score import rouge_scorer
except ImportError:  # the peer of the parity tests: under CI its absence is a failure
    if os.environ.get("CI"):
        raise
    pytest.skip("rouge-score 0.1.2 is not installed", allow_module_level=True)
TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


@functools.cache
def peer(stem: bool, types: tuple[str, ...] = TYPES):
    scorer = rouge_scorer.RougeScorer(list(types), use_stemmer=stem)
    if stem:  # the same stems, remembered (rouge-score stems every token every time)
        stemmer = scorer._tokenizer._stemmer
        stemmer.stem = functools.lru_cache(maxsize=None)(stemmer.stem)
    return scorer


def peer_rows(hyps, refs, stem, rouge_type, multi=False):
    scorer = peer(stem)
    out = []
    for i, h in enumerate(hyps):
        s = scorer.score_multi([r[i] for r in refs], h) if multi else scorer.score(refs[0][i], h)
        out.append([s[rouge_type].precision, s[rouge_type].recall, s[rouge_type].fmeasure])
    return np.array(out, dtype=np.float64).reshape(len(hyps), 3)


def ours(hyps, refs, stem, rouge_type, **kw):
    return ROUGE(rouge_type, stemmer=stem, **kw).extract(hyps, refs).values[:, 3:6]


def documents(lines, size=5):
    return ["\n".join(lines[i:i + size]) for i in range(0, len(lines), size)]


# ---- parity with rouge-score 0.1.2 ----

@needs_wmt22
@pytest.mark.parity
@pytest.mark.slow
@pytest.mark.parametrize("pair", wmt22_pairs() or ["none"])
@pytest.mark.parametrize("stem", [False, True], ids=["nostem", "stem"])
def test_parity_wmt22_sample(pair, stem) -> None:
    """rouge-score itself is slow (seconds per system and type): the suite compares a sample of
    every pair, its first and last systems on their first 500 segments; ``python
    benchmarks/rouge.py --check-all`` compares every system of every pair in full."""
    first = pair_meta(pair)["references"][0]
    ref = (WMT22 / pair / "references" / f"{first}.txt").read_text(encoding="utf-8").splitlines()[:500]
    systems = sorted((WMT22 / pair / "systems").glob("*.txt"))
    for path in (systems[0], systems[-1]):
        hyp = path.read_text(encoding="utf-8").splitlines()[:500]
        for hyps, refs in ((hyp, ref), (documents(hyp), documents(ref))):
            for rouge_type in TYPES:
                got = ours(hyps, [refs], stem, rouge_type)
                want = peer_rows(hyps, [refs], stem, rouge_type)
                np.testing.assert_allclose(got, want, rtol=0, atol=1e-12,
                                           err_msg=f"{pair} {path.name} {rouge_type}")


@needs_wmt22
@pytest.mark.parity
def test_parity_two_references_best_f() -> None:
    pair = "de-en"
    refs = [(WMT22 / pair / "references" / f"{k}.txt").read_text(encoding="utf-8").splitlines()
            for k in "AB"]
    hyp = (WMT22 / pair / "systems" / "Online-A.txt").read_text(encoding="utf-8").splitlines()
    for rouge_type in TYPES:
        got = ours(hyp, refs, False, rouge_type)
        want = peer_rows(hyp, refs, False, rouge_type, multi=True)
        assert np.array_equal(got, want), rouge_type


_TEXT = st.lists(st.sampled_from([*"ab cD\n\t.,İKéß中文9-\x00", "ab", "cd", "running", "flies"]),
                 max_size=25).map("".join)


@settings(max_examples=150, deadline=None)
@given(hyp=_TEXT, ref=_TEXT, stem=st.booleans())
def test_parity_random_text(hyp, ref, stem) -> None:
    for rouge_type in TYPES:
        assert np.array_equal(ours([hyp], [[ref]], stem, rouge_type),
                              peer_rows([hyp], [[ref]], stem, rouge_type)), rouge_type


@settings(max_examples=60, deadline=None)
@given(hyp=st.text(max_size=60), ref=st.text(max_size=60))
def test_parity_any_unicode(hyp, ref) -> None:
    for rouge_type in TYPES:
        assert np.array_equal(ours([hyp], [[ref]], False, rouge_type),
                              peer_rows([hyp], [[ref]], False, rouge_type)), rouge_type


def test_tokenizer_equals_rouge_score() -> None:
    from rouge_score import tokenize

    for text in ["Hello, World! 3.5%", "İstanbul Kelvin K", "naïve café", "中文 abc", ""]:
        assert rouge_score_tokens(text) == tokenize.tokenize(text, None)


# ---- the fast kernels equal the rules ----

_TOKENS = st.lists(st.integers(0, 4), max_size=150)


@settings(max_examples=80, deadline=None)
@given(pairs=st.lists(st.tuples(_TOKENS, _TOKENS), min_size=1, max_size=8))
def test_bit_parallel_lcs_equals_the_table(pairs) -> None:
    def enc(seqs):
        lengths = np.array([len(s) for s in seqs], dtype=np.int64)
        ids = np.array([x for s in seqs for x in s], dtype=np.int64)
        return ids, lengths, np.cumsum(lengths) - lengths

    a, b = enc([p[0] for p in pairs]), enc([p[1] for p in pairs])
    assert lcs_fast.lcs_lengths(*a, *b).tolist() == [rules.lcs_length(x, y) for x, y in pairs]


_WORDS = st.lists(st.sampled_from(["a", "b", "c", "a b", "\n", "b\nc", "running", "Runs"]),
                  max_size=30).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(hyps=st.lists(_WORDS, min_size=1, max_size=6), data=st.data())
def test_kernels_equal_rules(hyps, data) -> None:
    refs = [data.draw(st.lists(_WORDS, min_size=len(hyps), max_size=len(hyps))) for _ in range(2)]
    for rouge_type in ("rouge1", "rouge2", "rouge4", "rougeL", "rougeLsum"):
        for multiref in ("best-f", "average", "best-recall"):
            fast = ROUGE(rouge_type, multiref=multiref).extract(hyps, refs)
            slow = ROUGE(rouge_type, multiref=multiref, fast=False).extract(hyps, refs)
            assert np.array_equal(fast.values, slow.values)


# ---- definitions: several references, aggregation, β, empty texts ----

def test_multiref_rules_by_hand() -> None:
    hyp, refs = "a b c d", [["a b x y"], ["a z z z z z"]]
    best_f = corpus_rouge([hyp], refs, "rouge1")
    assert best_f.precision == 0.5 and best_f.recall == 0.5  # the first reference: F 0.5 > 0.2
    avg = corpus_rouge([hyp], refs, "rouge1", multiref="average")
    assert avg.precision == 3 / 8 and avg.recall == 3 / 10  # (2 + 1) hits / (4 + 4), / (4 + 6)
    best_r = corpus_rouge([hyp], [["a z z z z z"], ["a b x y"]], "rouge1", multiref="best-recall")
    assert best_r.recall == 0.5


def test_mean_and_pooled_aggregation() -> None:
    hyps, refs = ["a b", "a b c d e f"], [["a c", "a b c d e f"]]
    mean = corpus_rouge(hyps, refs, "rouge1")
    assert mean.fmeasure == pytest.approx((0.5 + 1.0) / 2) and mean.score == pytest.approx(75.0)
    pooled = corpus_rouge(hyps, refs, "rouge1", aggregation="pooled")
    assert pooled.precision == 7 / 8 and pooled.recall == 7 / 8
    assert pooled.signature.get("agg") == "pooled" and mean.signature.get("agg") == "mean"


def test_beta_and_measure() -> None:
    r = corpus_rouge(["a b c d"], [["a b"]], "rouge1", beta=2.0)
    p, rc = 0.5, 1.0
    assert r.fmeasure == pytest.approx(5 * p * rc / (4 * p + rc))
    assert corpus_rouge(["a b c d"], [["a b"]], "rouge1", measure="recall").score == 100.0


def test_empty_texts_score_zero() -> None:
    for rouge_type in TYPES:
        for hyp, ref in (("", "a b"), ("a b", ""), ("", ""), ("...", "!!"), ("\n\n", "a\n")):
            r = sentence_rouge(hyp, ref, rouge_type)
            assert (r.precision, r.recall, r.fmeasure, r.score) == (0.0, 0.0, 0.0, 0.0)


def test_lsum_without_sentence_break_is_one_sentence() -> None:
    hyp, ref = "the cat the dog sat on a mat", "the dog sat the cat on the mat"
    lsum, l_ = sentence_rouge(hyp, ref, "rougeLsum"), sentence_rouge(hyp, ref, "rougeL")
    assert (lsum.precision, lsum.recall) == (l_.precision, l_.recall)
    two = sentence_rouge("the cat\nthe dog sat on a mat", ref, "rougeLsum")
    assert two.recall != lsum.recall  # a newline is a sentence break


def test_rouge_n_any_order_and_bad_types() -> None:
    r = corpus_rouge(["a b c d e"], [["a b c d x"]], "rouge12")
    assert r.score == 0.0 and r.metric == "ROUGE-12"
    assert corpus_rouge(["a b c d e"], [["a b c d x"]], "rouge4").precision == 0.5
    for bad in ("rouge0", "rougeW", "rouge", "ROUGE1", "rougeLSum"):
        with pytest.raises(OptionError, match="ROUGE type"):
            ROUGE(bad)
    with pytest.raises(OptionError, match="beta"):
        ROUGE("rouge1", beta=0)
    with pytest.raises(OptionError, match="variant"):
        ROUGE("rouge1", variant="1.4.2")


def test_unicode_tokenizer_is_opt_in_and_signed() -> None:
    hyp, ref = "我喜欢猫", "我喜欢狗"
    assert corpus_rouge([hyp], [[ref]], "rouge1").score == 0.0
    zh = corpus_rouge([hyp], [[ref]], "rouge1", tokenize="zh")
    assert zh.precision == 0.75 and zh.signature.get("tok") == "zh+lc"
    assert corpus_rouge(["Ça va"], [["ça va"]], "rouge1", tokenize="13a").score == 100.0


# ---- settings are frozen; the signature records every setting ----

def test_settings_frozen_and_signature_complete() -> None:
    m = ROUGE("rouge2")
    with pytest.raises(AttributeError):
        m.rouge_type = "rouge1"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        m.settings.stemmer = True  # type: ignore[misc]
    base = str(m.signature())
    changes = {"stemmer": True, "tokenize": "13a", "beta": 2.0, "aggregation": "pooled",
               "multiref": "average", "measure": "recall", "rouge_type": "rouge3",
               "variant": "1.5.5"}
    for key, value in changes.items():
        other = m.replace(**{key: value})
        assert str(other.signature()) != base, key
        assert getattr(other.settings, key) == value
    assert ROUGE("rougeL", tokenize="13a", lowercase=False).signature().get("tok") == "13a+mixed"
    assert ROUGE("rougeLsum").signature().get("split") == "newline"
    assert ROUGESettings().replace(beta=3).beta == 3.0
    v155 = ROUGE("rougeW", variant="1.5.5")
    for key, value in {"stopwords": True, "word_limit": 5, "byte_limit": 9, "weight": 1.5,
                       "stemmer": True, "multiref": "best-recall"}.items():
        assert str(v155.replace(**{key: value}).signature()) != str(v155.signature()), key
    assert pickle.loads(pickle.dumps(m)).signature() == m.signature()


def test_compute_equals_compute_many() -> None:
    m = ROUGE("rouge1")
    stats = m.extract(["a b c", "a", "b c"], [["a b", "b", "b c d"]])
    total = stats.total()
    assert m.compute(total).score == pytest.approx(m.compute_many(total[None, :])[0])
    assert np.array_equal(m.segment_scores(stats), 100 * stats.column("fmeasure"))


def test_rouge_scores_all_types() -> None:
    out = rouge_scores(["the cat sat"], [["the cat sat down"]])
    assert list(out) == list(TYPES) and out["rouge1"].recall == 0.75


@settings(max_examples=40, deadline=None)
@given(hyps=st.lists(_WORDS, min_size=1, max_size=5), data=st.data(), stem=st.booleans())
def test_types_tokenized_once_equal_each_alone(hyps, data, stem) -> None:
    refs = [data.draw(st.lists(st.one_of(st.none(), _WORDS), min_size=len(hyps),
                               max_size=len(hyps))) for _ in range(2)]
    refs[0] = [r if r is not None else "a" for r in refs[0]]
    # in any order: each type lets go of what no later type reads (counts.reads)
    metrics = [ROUGE(t, stemmer=stem) for t in data.draw(st.permutations([*TYPES, "rouge3"]))]
    for m, stats in zip(metrics, extract_types(metrics, hyps, refs)):
        alone = m.extract(hyps, refs)
        assert np.array_equal(stats.values, alone.values) and stats.meta == alone.meta


# ---- statistics on top: CI with a seed, paired significance, correlation ----

def test_statistics_on_top() -> None:
    from mtscore.stats import bootstrap_ci, paired_bootstrap
    from mtscore.stats.correlation import system_correlation

    rng = np.random.default_rng(0)
    words = np.array(["a", "b", "c", "d", "e", "f", "g", "h"])
    refs = [" ".join(rng.choice(words, 8)) for _ in range(60)]
    good = [" ".join(r.split()[:int(k)]) for r, k in zip(refs, rng.integers(3, 9, 60))]
    bad = [" ".join(rng.choice(words, 8)) for _ in range(60)]
    m = ROUGE("rouge2")
    sg, sb = m.extract(good, [refs]), m.extract(bad, [refs])
    ci = bootstrap_ci(m, sg, resamples=200, seed=7)
    assert ci.ci_low <= m.compute(sg.total()).score <= ci.ci_high  # type: ignore[attr-defined]
    assert bootstrap_ci(m, sg, resamples=200, seed=7) == ci
    test = paired_bootstrap(m, {"good": sg, "bad": sb}, baseline="bad", resamples=200, seed=1)
    assert test.comparisons[0].pvalue < 0.05
    scores = {"good": m.compute(sg.total()).score, "bad": m.compute(sb.total()).score,
              "mid": m.compute(m.extract(good[:30] + bad[30:], [refs]).total()).score}
    r = system_correlation(scores, {"good": 3.0, "bad": 1.0, "mid": 2.0}, "pearson")
    assert r.statistic > 0.9  # type: ignore[attr-defined]


# ---- command line ----

def run_cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "mtscore", *args], capture_output=True,
                          text=True, cwd=cwd)


def test_cli_score_json_and_help(tmp_path) -> None:
    (tmp_path / "ref.txt").write_text("the cat is on the mat\nhello there world\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("the cat sat on the mat\nhello world\n", encoding="utf-8")
    out = run_cli("score", "-r", "ref.txt", "-i", "hyp.txt", "-m", "rouge1", "rougeL", "rougeN",
                  "--rouge-n", "3", "-f", "json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    records = json.loads(out.stdout)
    assert [r["metric"] for r in records] == ["ROUGE-1", "ROUGE-L", "ROUGE-3"]
    assert records[0]["score"] == pytest.approx(100 * records[0]["fmeasure"])
    assert {"precision", "recall", "fmeasure"} <= set(records[0])
    help_text = run_cli("score", "--help-metric", "rougeL").stdout  # --help names it
    assert "F×100" in help_text and "--rouge-stem" in help_text
    assert "rouge1 … rougeN" in run_cli("score", "--help").stdout


def test_cli_bad_inputs(tmp_path) -> None:
    (tmp_path / "ref.txt").write_text("a b\nc d\n", encoding="utf-8")
    (tmp_path / "short.txt").write_text("a b\n", encoding="utf-8")
    (tmp_path / "latin1.txt").write_bytes("caf\xe9\nb\n".encode("latin-1"))
    out = run_cli("score", "-r", "ref.txt", "-i", "short.txt", "-m", "rouge1", cwd=tmp_path)
    assert out.returncode == 1 and len(out.stderr.strip().splitlines()) == 1
    assert "short.txt" in out.stderr or "lines" in out.stderr
    out = run_cli("score", "-r", "ref.txt", "-i", "latin1.txt", "-m", "rougeL", cwd=tmp_path)
    assert out.returncode == 1 and "latin1.txt" in out.stderr and "UTF-8" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_sentence_rouge_bad_input() -> None:
    with pytest.raises(InputError):
        sentence_rouge("a", [], "rouge1")
    with pytest.raises(InputError):
        corpus_rouge(["a", "b"], [["a"]], "rouge1")


def test_docs_page_exists() -> None:
    assert (REPO / "docs" / "metrics" / "rouge.md").is_file()
