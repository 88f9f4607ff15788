"""METEOR: the paper's example, hand-computed cases per module, statistics, and aligner properties
checked against brute force (hypothesis)."""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mtscore
from mtscore.errors import InputError, OptionError
from mtscore.metrics.meteor import ABLATIONS, METEOR, corpus_meteor, sentence_meteor
from mtscore.metrics.meteor.align import best_stage_matching, crosses
from mtscore.metrics.meteor.align.jar import align_jar
from mtscore.metrics.meteor.score import count_chunks


def crossings(edges) -> int:
    """Crossing pairs of an alignment (§2.2), by the aligner's one predicate."""
    return sum(bool(crosses(*a, *b)) for a, b in combinations(sorted(edges), 2))


def chunk_count(edges) -> int:
    return count_chunks(sorted(edges))

PAPER_REF = "the president then spoke to the audience"
PAPER_HYP = "the president spoke to the audience"


def _plain(m: int, hyp_len: int, ref_len: int, chunks: int) -> float:
    """The 2005 formula written out (§2.3), for hand-computed expectations."""
    if m == 0:
        return 0.0
    p, r = m / hyp_len, m / ref_len
    fmean = 10 * p * r / (r + 9 * p)
    return fmean * (1 - 0.5 * (chunks / m) ** 3)


# ---- the paper's example and hand-computed cases -------------------------------------------------

@pytest.mark.parametrize("variant", ["2005", "1.5"])
def test_paper_example(variant: str) -> None:
    res = sentence_meteor(PAPER_HYP, PAPER_REF, variant=variant)
    assert res.matches == 6
    assert res.chunks == 2
    assert res.score == pytest.approx(0.853462157809984, abs=1e-12)
    seg = res.segments[0]
    assert [(m.hyp_index, m.ref_index) for m in seg.alignment] == \
        [(0, 0), (1, 1), (2, 3), (3, 4), (4, 5), (5, 6)]
    assert {m.module for m in seg.alignment} == {"exact"}


def test_public_api_exports() -> None:
    res = mtscore.corpus_meteor([PAPER_HYP], [[PAPER_REF]])
    assert isinstance(res, mtscore.METEORResult)
    assert res.score == pytest.approx(0.853462157809984, abs=1e-12)
    assert mtscore.sentence_meteor(PAPER_HYP, [PAPER_REF]).score == res.score


def test_exact_identical_segment() -> None:
    # 2005: one chunk still costs 0.5·(1/m)³; the jar's rule (1.5) makes it 0
    res = sentence_meteor("a b c", "a b c", modules=["exact"])
    assert res.score == pytest.approx(1 - 0.5 * (1 / 3) ** 3)
    res15 = sentence_meteor("a b c", "a b c", modules=["exact"], variant="1.5")
    assert res15.score == 1.0 and res15.chunks == 0


def test_porter_module() -> None:
    # cats/cat and running/runs share Porter stems (cat, run); "the" is exact
    res = sentence_meteor("the cats running", "the cat runs", modules=["exact", "porter"])
    mods = [m.module for m in res.segments[0].alignment]
    assert mods == ["exact", "porter", "porter"]
    assert res.score == pytest.approx(_plain(3, 3, 3, 1))
    assert sentence_meteor("the cats running", "the cat runs", modules=["exact"]).score == \
        pytest.approx(_plain(1, 3, 3, 1))


def test_stem_module_is_snowball_not_porter() -> None:
    # Porter: fairly -> fairli, fair -> fair (no match); Snowball English: both -> fair
    hyp, ref = "the fairly big car", "the fair big automobile"
    assert sentence_meteor(hyp, ref, modules=["exact", "porter"]).matches == 2
    res = sentence_meteor(hyp, ref, modules=["exact", "stem"])
    assert res.matches == 3
    assert res.score == pytest.approx(_plain(3, 4, 4, 1))


def test_wn_stem_module() -> None:
    # WordNet's exception list maps "went" to "go"; no stemmer does
    assert sentence_meteor("he went home", "he go home", modules=["exact", "porter"]).matches == 2
    res = sentence_meteor("he went home", "he go home", modules=["exact", "wn_stem"])
    assert [m.module for m in res.segments[0].alignment] == ["exact", "wn_stem", "exact"]
    assert res.score == pytest.approx(_plain(3, 3, 3, 1))


def test_synonym_module() -> None:
    # car and automobile share WordNet synset 02958343 (motorcar)
    res = sentence_meteor("the car stopped", "the automobile stopped")
    assert [m.module for m in res.segments[0].alignment] == ["exact", "synonym", "exact"]
    assert res.score == pytest.approx(_plain(3, 3, 3, 1))
    assert sentence_meteor("the car stopped", "the automobile stopped",
                           modules=["exact", "porter"]).matches == 2


def test_stages_run_in_order() -> None:
    # "cats" could match "cat" by porter, but exact takes "cat"-"cat" first; the left-over hyp
    # "cats" then finds nothing: one match only from exact, porter sees no free reference word
    res = sentence_meteor("cat cats", "cat", modules=["exact", "porter"])
    assert res.matches == 1
    assert res.segments[0].alignment[0].hyp_index == 0
    assert res.segments[0].alignment[0].module == "exact"


@pytest.mark.parametrize("modules", ABLATIONS)
def test_paper_ablations_run(modules: tuple[str, ...]) -> None:
    res = corpus_meteor([PAPER_HYP, "he went home by car"], [[PAPER_REF, "he goes home by automobile"]],
                        modules=modules)
    assert 0 < res.score <= 1
    assert res.signature.startswith(f"METEOR|variant:2005|modules:{'+'.join(modules)}|")


def test_no_match_and_empty() -> None:
    assert sentence_meteor("x y", "a b").score == 0.0
    assert sentence_meteor("", "a b").score == 0.0
    assert sentence_meteor("a b", "").score == 0.0
    res = corpus_meteor(["", "a b"], [["a b", "a b"]], modules=["exact"])
    # the empty hypothesis adds its reference's length to the corpus sums
    assert res.ref_len == 4 and res.hyp_len == 2 and res.matches == 2
    assert res.score == pytest.approx(_plain(2, 2, 4, 1))


def test_parameters_generalise_the_formula() -> None:
    res = sentence_meteor(PAPER_HYP, PAPER_REF, alpha=0.5, beta=2.0, gamma=0.4)
    p, r = 1.0, 6 / 7
    fmean = p * r / (0.5 * p + 0.5 * r)
    assert res.score == pytest.approx(fmean * (1 - 0.4 * (2 / 6) ** 2))
    # a module weight scales that module's matches in P and R
    w = sentence_meteor("the cats", "the cat", modules=["exact", "porter"], weights=[1.0, 0.5])
    assert w.precision == pytest.approx(0.75) and w.recall == pytest.approx(0.75)


def test_delta_weights_function_words() -> None:
    # delta 0.5 gives the same numbers as no distinction (both sides scale alike)
    a = sentence_meteor(PAPER_HYP, PAPER_REF, delta=0.5)
    b = sentence_meteor(PAPER_HYP, PAPER_REF)
    assert a.score == pytest.approx(b.score, abs=1e-12)
    # delta 1: only content words count ("the" and "to" are function words, "then" is not)
    from mtscore.lexicon.function_words import function_words
    fw = function_words()
    assert {"the", "to"} <= fw and not {"president", "spoke", "audience", "then"} & fw
    c = sentence_meteor(PAPER_HYP, PAPER_REF, delta=1.0)
    # content words: hyp president spoke audience (3, all matched); ref also "then": 3 of 4
    assert c.precision == pytest.approx(1.0) and c.recall == pytest.approx(3 / 4)


def test_stopword_exclusion_from_exact_stage() -> None:
    res = sentence_meteor(PAPER_HYP, PAPER_REF, modules=["exact"], exclude_stopwords=True)
    assert {m.hyp_word for m in res.segments[0].alignment} == {"president", "spoke", "audience"}
    # a later stage may still match them
    res2 = sentence_meteor(PAPER_HYP, PAPER_REF, modules=["exact", "porter"], exclude_stopwords=True)
    assert res2.matches == 6
    assert "stop:yes" in res2.signature


# ---- statistics: additivity, several references, signature ---------------------------------------

HYPS = ["the cat sat on the mat", "a dog barked loudly", "", "the president spoke to the audience"]
REFS_A = ["the cat is on the mat", "the dog barks", "nothing here",
          "the president then spoke to the audience"]
REFS_B = ["there is a cat on the mat", "a dog barked loudly at night", "something", None]


@pytest.mark.parametrize("variant", ["2005", "1.5"])
def test_rows_are_sentence_scores_and_corpus_sums(variant: str) -> None:
    metric = METEOR(variant=variant)
    stats = metric.extract(HYPS, [REFS_A, REFS_B])
    assert stats.meta["nrefs"] == "var"
    per_row = metric.segment_scores(stats)
    for i, hyp in enumerate(HYPS):
        refs = [r for r in (REFS_A[i], REFS_B[i]) if r is not None]
        assert per_row[i] == pytest.approx(sentence_meteor(hyp, refs, variant=variant).score, abs=1e-12)
    corpus = metric.compute(stats.total(), stats.meta)
    full = corpus_meteor(HYPS, [REFS_A, REFS_B], variant=variant)
    assert corpus.score == pytest.approx(full.score, abs=1e-12)
    # the corpus score is the formula on summed statistics, not a mean of sentence scores
    t = stats.total()
    assert corpus.matches == t[0] and corpus.hyp_len == t[1] and corpus.ref_len == t[2]
    assert [s.score for s in full.segments] == pytest.approx(list(per_row), abs=1e-12)
    # vectorised scores over many summed rows (e.g. bootstrap resamples)
    rows = np.stack([stats.values[[0, 1]].sum(0), stats.values[[1, 3]].sum(0)])
    assert metric.compute_many(rows) == pytest.approx(
        [metric.compute(r).score for r in rows], abs=1e-12)


def test_best_reference_is_kept() -> None:
    res = corpus_meteor(["a dog barked loudly"], [["the dog barks"], ["a dog barked loudly at night"]])
    assert res.segments[0].reference == 1
    only_b = sentence_meteor("a dog barked loudly", "a dog barked loudly at night")
    assert res.score == pytest.approx(only_b.score)


def test_signature_records_every_setting() -> None:
    sig = METEOR(modules="exact+stem", variant="1.5", alpha=0.85, weights=[1, 0.6], delta=0.75,
                 tokenize="none", lowercase=False).signature({"nrefs": "2"})
    for part in ("METEOR", "variant:1.5", "modules:exact+stem", "weights:1+0.6", "alpha:0.85",
                 "beta:3", "gamma:0.5", "delta:0.75", "stop:no", "nrefs:2", "case:mixed", "tok:none",
                 f"version:{mtscore.__version__}"):
        assert part in sig.split("|")


def test_lowercase_and_tokenizer() -> None:
    assert sentence_meteor("The Cat.", "the cat .").score == sentence_meteor("the cat .", "the cat .").score
    assert sentence_meteor("The Cat.", "the cat .", lowercase=False, tokenize="none").matches == 0


def test_bad_options_and_inputs() -> None:
    with pytest.raises(OptionError, match="porter"):
        METEOR(modules=["exact", "portr"])
    with pytest.raises(OptionError, match="one weight per module"):
        METEOR(modules=["exact", "porter"], weights=[1.0])
    with pytest.raises(OptionError, match="variant"):
        METEOR(variant="2010")
    with pytest.raises(OptionError, match="twice"):
        METEOR(modules=["exact", "exact"])
    with pytest.raises(InputError, match="reference stream 0 has 1 segments"):
        corpus_meteor(["a", "b"], [["a"]])
    with pytest.raises(InputError, match="single string"):
        corpus_meteor(["a"], "a")  # type: ignore[arg-type]


def test_pathological_repeats_stay_bounded() -> None:
    # hundreds of repeats of one word (NLTK's METEOR went quadratic and worse here)
    hyp = " ".join(["the"] * 300 + ["end"])
    ref = " ".join(["the"] * 200 + ["end"] + ["the"] * 5)
    for variant in ("2005", "1.5"):
        res = sentence_meteor(hyp, ref, variant=variant, modules=["exact"])
        assert res.matches == 206  # cardinality is always maximal


# ---- aligner properties against brute force --------------------------------------------------------

def _brute_stage(edges: list[tuple[int, int]], fixed: list[tuple[int, int]]) -> tuple[int, int]:
    """(largest one-to-one size, fewest crossings of fixed + chosen) by enumerating every subset."""
    best = (0, 0)
    for size in range(len(edges), -1, -1):
        found = None
        for sub in combinations(edges, size):
            if len({i for i, _ in sub}) < size or len({j for _, j in sub}) < size:
                continue
            c = crossings(list(fixed) + list(sub))
            if found is None or c < found:
                found = c
        if found is not None:
            return size, found
    return best


words = st.lists(st.sampled_from("abcd"), min_size=0, max_size=7)


@settings(max_examples=300, deadline=None)
@given(hyp=words, ref=words, n_fixed=st.integers(0, 2))
def test_stage_matching_is_maximal_with_fewest_crossings(hyp: list[str], ref: list[str],
                                                          n_fixed: int) -> None:
    # a previous stage's matches ("fixed") on words x/y placed at the ends, then one exact stage
    fixed = []
    hyp = list(hyp)
    ref = list(ref)
    for f in range(n_fixed):
        hyp.insert(f * 3 % (len(hyp) + 1), "x")
        ref.insert(len(ref) - f * 2 % (len(ref) + 1), "x")
    xs_h = [i for i, w in enumerate(hyp) if w == "x"]
    xs_r = [j for j, w in enumerate(ref) if w == "x"]
    fixed = list(zip(xs_h, xs_r))
    edges = [(i, j) for i, a in enumerate(hyp) for j, b in enumerate(ref) if a == b and a != "x"]
    if len(edges) > 14:
        return
    chosen = best_stage_matching(edges, fixed)
    assert len({i for i, _ in chosen}) == len(chosen) == len({j for _, j in chosen})
    assert set(chosen) <= set(edges)
    size, cross = _brute_stage(edges, fixed)
    assert len(chosen) == size
    assert crossings(fixed + chosen) == cross


@settings(max_examples=300, deadline=None)
@given(n_h=st.integers(1, 6), n_r=st.integers(1, 6), data=st.data())
def test_stage_matching_general_graphs(n_h: int, n_r: int, data: st.DataObject) -> None:
    # arbitrary (non-equivalence) candidate graphs, as synonym and wn_stem produce
    all_edges = [(i, j) for i in range(n_h) for j in range(n_r)]
    edges = data.draw(st.lists(st.sampled_from(all_edges), unique=True, max_size=10))
    chosen = best_stage_matching(edges)
    size, cross = _brute_stage(edges, [])
    assert len(chosen) == size
    assert crossings(chosen) == cross


def jar_objective(n_hyp: int, cands, alignment, weights) -> tuple[int, int, int]:
    """The jar's objective of an alignment given as sorted (i, j, module) triples."""
    at = {j: cands[j].index((i, mod)) for i, j, mod in alignment}
    return _jar_value(cands, n_hyp, at, weights)


def _jar_value(cands, n_hyp: int, chosen: dict[int, int], weights) -> tuple[int, int, int]:
    """The jar's objective of a complete choice ``chosen[j] = candidate index`` (or absent)."""
    cov = [0] * n_hyp
    for cs in cands:
        for i, _ in cs:
            cov[i] += 1
    fixed = {j: cs[0] for j, cs in enumerate(cands) if len(cs) == 1 and cov[cs[0][0]] == 1}
    used = {i for i, _ in fixed.values()}
    w = dist = 0
    pairs = []
    for j, cs in enumerate(cands):
        if j in fixed:
            i, mod = fixed[j]
            w += 2 * int(weights[mod])
            dist += abs(j - i)
            pairs.append((i, j))
            continue
        avail = [(i, mod) for i, mod in cs if i not in used]
        k = chosen.get(j)
        if k is None:
            dist += sum(abs(j - i) for i, _ in avail)
            continue
        i, mod = cs[k]
        assert i not in used
        dist += sum(abs(j - a) for a, _ in avail[:avail.index((i, mod))])
        used.add(i)
        w += 2 * int(weights[mod])
        pairs.append((i, j))
    return w, -chunk_count(pairs), -dist


def _brute_jar(cands, n_hyp: int, weights) -> tuple[int, int, int]:
    best = None
    n_ref = len(cands)

    def rec(j: int, used: set[int], chosen: dict[int, int]) -> None:
        nonlocal best
        if j == n_ref:
            try:
                v = _jar_value(cands, n_hyp, chosen, weights)
            except AssertionError:
                return
            if best is None or v > best:
                best = v
            return
        rec(j + 1, used, chosen)
        for k, (i, _) in enumerate(cands[j]):
            if i not in used:
                chosen[j] = k
                rec(j + 1, used | {i}, chosen)
                del chosen[j]

    rec(0, set(), {})
    return best


@settings(max_examples=250, deadline=None)
@given(hyp=st.lists(st.sampled_from(["a", "b", "c", "A", "B"]), min_size=1, max_size=6),
       ref=st.lists(st.sampled_from(["a", "b", "c", "A", "B"]), min_size=1, max_size=6))
def test_jar_search_finds_the_optimum(hyp: list[str], ref: list[str]) -> None:
    # module 0 = exact (weight 1), module 1 = "same letter ignoring case" (weight 0.5)
    cands = [[] for _ in ref]
    for j, b in enumerate(ref):
        cands[j] += [(i, 0) for i, a in enumerate(hyp) if a == b]
        cands[j] += [(i, 1) for i, a in enumerate(hyp) if a != b and a.lower() == b.lower()]
    if sum(len(c) for c in cands) > 12:
        return
    weights = [1.0, 0.5]
    alignment, exact = align_jar(len(hyp), len(ref), cands, weights)
    assert exact
    chosen = {}
    for i, j, mod in alignment:
        chosen[j] = cands[j].index((i, mod))
    assert _jar_value(cands, len(hyp), chosen, weights) == _brute_jar(cands, len(hyp), weights)


def test_chunks_and_crossings() -> None:
    assert chunk_count([(0, 0), (1, 1), (2, 3), (3, 4)]) == 2
    assert chunk_count([(0, 1), (1, 0)]) == 2
    assert chunk_count([]) == 0
    assert crossings([(0, 1), (1, 0), (2, 2)]) == 1
    assert math.isclose(_plain(6, 6, 7, 2), 0.853462157809984)
