"""METEOR on adversarial input: every search bounded (issue 15), bad text accepted, short reprs.

Each adversarial case runs in a child process under a 10 s timeout (no timing is asserted), which
reports its peak resident memory (``VmHWM`` of ``/proc/self/status``, the child's own high-water
mark: ``ru_maxrss`` carries the parent's across ``exec`` on Linux, so a large test process would
count): under 1 GB. Where hypothesis and reference are
identical the score is 1.0 (the fallbacks pair identical words in order, in one chunk). The work
budgets and fallbacks themselves are checked against the rules: a segment over a budget is counted
in ``fallback_segments`` and in the signature; the corpus acceleration and the per-segment aligner
fall back on the same segments with the same matches.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.metrics.meteor import METEOR, corpus_meteor, sentence_meteor
from mtscore.metrics.meteor.align import best_stage_matching, greedy_matching, jar, stage

VARIANTS = {
    "2005": {},
    "2005-per-segment": {"fast": False},
    "1.5": {"variant": "1.5", "modules": ["exact", "stem", "synonym"]},
    "1.5-beam": {"variant": "1.5", "modules": ["exact", "stem", "synonym"], "jar_beam": 40},
}

CHILD = """
import json, resource, sys
from mtscore.data import sample_path
from mtscore.io.text import read_lines
from mtscore.metrics.meteor import METEOR
case, kwargs = sys.argv[1], json.loads(sys.argv[2])
real = " ".join(read_lines(sample_path() / "references" / "A.txt"))  # WMT22 de-en lines
if case == "the":
    hyp = ref = " ".join(["the"] * 5000)
elif case == "real":
    words = real.split()
    hyp = ref = " ".join((words * (100_000 // len(words) + 1))[:100_000])
elif case == "char":
    hyp = ref = (real * 2)[:20_000]
    kwargs["tokenize"] = "char"
else:  # 5,000 words a side, every one a synonym of every other, no two sides' words equal
    hyp = " ".join(["car", "auto"][i % 2] for i in range(5000))
    ref = " ".join(["automobile", "machine", "motorcar"][i % 3] for i in range(5000))
result = METEOR(**kwargs).score_corpus([hyp], [[ref]])
def peak_rss():
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"score": result.score, "fallback": result.fallback_segments,
                  "signature": str(result.signature), "words": result.segments[0].hyp_len,
                  "rss": peak_rss()}))
"""


def _child(case: str, kwargs: dict) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, case, json.dumps(kwargs)], capture_output=True,
                         text=True, timeout=10, check=True)
    return json.loads(out.stdout)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("case", ["the", "real", "char"])
def test_identical_adversarial_segments_are_bounded(case: str, variant: str) -> None:
    got = _child(case, dict(VARIANTS[variant]))
    assert got["rss"] < 1 << 30
    assert got["score"] == pytest.approx(1.0, abs=1e-9)
    # (13a splits punctuation off: more words than 100,000; char: spaces are no tokens)
    assert got["words"] >= {"the": 5000, "real": 100_000, "char": 15_000}[case]
    if variant.startswith("1.5"):  # past the 1.5 searches' budget: the fallback, said so
        assert got["fallback"] == 1 and "|fallback:1|" in got["signature"]
    else:  # classes of equal size: the 2005 rule pairs them in order, no search
        assert got["fallback"] == 0 and "fallback" not in got["signature"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_five_thousand_synonyms_a_side_are_bounded(variant: str) -> None:
    got = _child("synonyms", dict(VARIANTS[variant]))
    assert got["rss"] < 1 << 30
    assert got["fallback"] == 1 and "|fallback:1|" in got["signature"]
    assert got["score"] > 0.99  # every word matched, in order (the greedy fallback)


def test_lone_surrogates_are_accepted() -> None:
    # an undecodable input byte read with surrogateescape: such a word is not stemmed
    for kwargs in VARIANTS.values():
        metric = METEOR(**kwargs)
        assert metric.score_corpus(["caf\udce9 au lait"], [["cafe au lait"]]).matches == 2
    assert sentence_meteor("caf\udce9 au lait", "cafe au lait", language="de").score > 0
    assert sentence_meteor("caf\udce9", "caf\udce9").score == pytest.approx(0.5)  # 1 word, 1 chunk
    hyps = [f"caf\udce9 au lait {i}" for i in range(600)]  # the corpus (byte) path too
    assert corpus_meteor(hyps, [[h.replace("\udce9", "e") for h in hyps]]).score > 0


def test_reprs_are_short() -> None:
    hyps = [" ".join(["word"] * 300)] * 50
    result = corpus_meteor(hyps, [hyps])
    assert len(repr(result)) < 1000 and "METEORResult(score=1.0000" in repr(result)
    assert len(repr(result.segments[0])) < 1000
    metric = METEOR()
    assert len(repr(metric.prepare_references([hyps]))) < 1000


# ---- the budgets against the rules ------------------------------------------------------------------


def test_greedy_matching_takes_the_first_free_shared_key() -> None:
    hyp = [(0, {"a"}), (1, {"a", "b"}), (2, {"c"}), (3, {"a"})]
    ref = [(0, {"b"}), (1, {"a"}), (2, {"a", "c"}), (5, {"d"})]
    assert greedy_matching(hyp, ref) == [(0, 1), (1, 0), (2, 2)]  # 3 finds no free "a" left


def test_a_stage_over_its_budget_is_maximal_and_marked(monkeypatch: pytest.MonkeyPatch) -> None:
    hyp, ref = ["a", "b", "a", "c", "b", "a"], ["b", "a", "c", "a"]  # a: 3 × 2, b: 2 × 1
    groups = [([i for i, w in enumerate(hyp) if w == x], [j for j, w in enumerate(ref) if w == x])
              for x in "bac"]
    exact = best_stage_matching([(h[0], r[0]) for h, r in groups], (), groups)
    assert not isinstance(exact, stage.GreedyMatching)
    monkeypatch.setattr(stage, "STAGE_WORK", 0)
    greedy = best_stage_matching([(h[0], r[0]) for h, r in groups], (), groups)
    assert isinstance(greedy, stage.GreedyMatching) and len(greedy) == len(exact) == 4
    assert all(hyp[i] == ref[j] for i, j in greedy)


_HYP_WORDS = ["the", "a", "car", "auto", "cars", "run", "runs", "ran", "big", "large"]
_REF_WORDS = ["the", "a", "car", "automobile", "run", "running", "large", "great"]
corpora = st.lists(st.tuples(st.lists(st.sampled_from(_HYP_WORDS), max_size=12),
                             st.lists(st.sampled_from(_REF_WORDS), max_size=12)), min_size=1, max_size=8)


@settings(max_examples=60, deadline=None)
@given(corpora, st.sampled_from([0, 4, 30, 200]))
def test_the_corpus_path_falls_back_where_the_segment_path_does(corpus, budget) -> None:
    hyps = [" ".join(h) for h, _ in corpus]
    refs = [[" ".join(r) for _, r in corpus]]
    saved = stage.STAGE_WORK
    stage.STAGE_WORK = budget
    try:
        fast, plain = METEOR(), METEOR(fast=False)
        got, want = fast.score_corpus(hyps, refs), plain.score_corpus(hyps, refs)
    finally:
        stage.STAGE_WORK = saved
    assert got.segments == want.segments
    assert got.fallback_segments == want.fallback_segments
    assert got.signature == want.signature


def test_jar_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    hyp = ["the cat sat on the mat"]
    refs = [["the cat is on the mat"]]
    metric = METEOR(variant="1.5", modules=("exact", "stem", "synonym"))
    exact = metric.score_corpus(hyp, refs)
    assert exact.fallback_segments == 0 and "fallback" not in exact.signature
    monkeypatch.setattr(jar, "JAR_PAIRS", 3)
    bounded = METEOR(variant="1.5", modules=("exact", "stem", "synonym")).score_corpus(hyp, refs)
    assert bounded.fallback_segments == 1 and bounded.signature.get("fallback") == "1"
    assert bounded.matches == exact.matches == 5  # the greedy stages match the same words here
    np.testing.assert_allclose(bounded.recall, exact.recall)
    assert METEOR().signature() == exact.signature.replace("|search:exact", "").replace(
        "variant:1.5|modules:exact+stem+synonym", "variant:2005|modules:exact+porter+synonym"
    ).replace("nrefs:1", "nrefs:?")
