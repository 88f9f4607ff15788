"""METEOR's fast paths give what the plain definitions give.

* word ids, per-module keys computed once per word, the compact synonym index and the shortcut for
  classes of equal size, against a word-level reference written from the definitions (§2.2: each module
  a stage over the words earlier stages left; keys from the stemmers and the full WordNet tables);
* the jar's candidate lists (variant 1.5) against the same reference;
* ``mtscore score -m meteor`` on the command line.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.cli import main
from mtscore.data import sample_path
from mtscore.io.text import read_lines
from mtscore.lexicon import load_wordnet, porter_stem, snowball_stem
from mtscore.lexicon.function_words import function_words
from mtscore.metrics.meteor import ABLATIONS, METEOR
from mtscore.metrics.meteor.align import best_stage_matching, small_classes_choice
from mtscore.metrics.meteor.extract import even_class_prefix

# ---- a word-level reference ----------------------------------------------------------------------


def _key_fn(module: str):
    wn = load_wordnet()
    return {"exact": lambda w: w, "porter": porter_stem, "stem": snowball_stem,
            "wn_stem": lambda w: frozenset(wn.base_forms(w)), "synonym": wn.synset_ids}[module]


def _reference_stages(modules, hyp, ref, exclude_stopwords=False):
    """The staged aligner spelled out: every stage's candidate pairs handed to best_stage_matching."""
    stop = function_words() if exclude_stopwords else frozenset()
    matched: list[tuple[int, int, int]] = []
    for k, module in enumerate(modules):
        key = _key_fn(module)
        used_h = {i for i, _, _ in matched}
        used_r = {j for _, j, _ in matched}
        hp = [i for i in range(len(hyp)) if i not in used_h and not (module == "exact" and hyp[i] in stop)]
        rp = [j for j in range(len(ref)) if j not in used_r and not (module == "exact" and ref[j] in stop)]
        fixed = [(i, j) for i, j, _ in matched]
        if module in ("exact", "porter", "stem"):  # equivalence classes, in order of first reference word
            classes: dict[str, tuple[list[int], list[int]]] = {}
            for j in rp:
                classes.setdefault(key(ref[j]), ([], []))[1].append(j)
            for i in hp:
                if key(hyp[i]) in classes:
                    classes[key(hyp[i])][0].append(i)
            groups = [g for g in classes.values() if g[0]]
            if not groups:
                continue
            chosen = best_stage_matching([(a[0], b[0]) for a, b in groups], fixed, groups)
        else:
            edges = [(i, j) for i in hp for j in rp
                     if key(hyp[i]) and not key(hyp[i]).isdisjoint(key(ref[j]))]
            if not edges:
                continue
            chosen = best_stage_matching(edges, fixed)
        matched.extend((i, j, k) for i, j in chosen)
        if len(matched) in (len(hyp), len(ref)):
            break
    return sorted(matched)


def _reference_jar_candidates(modules, hyp, ref):
    use = modules[:1] if list(hyp) == list(ref) else modules
    cands: list[list[tuple[int, int]]] = [[] for _ in ref]
    for k, module in enumerate(use):
        key = _key_fn(module)
        single = module in ("exact", "porter", "stem")
        for i, h in enumerate(hyp):
            for j, r in enumerate(ref):
                hit = key(h) == key(r) if single else bool(key(h)) and not key(h).isdisjoint(key(r))
                if hit and (module == "exact" or h != r):
                    cands[j].append((i, k))
    return cands


# words with repeats, shared stems, WordNet base forms and synonyms, function words
VOCAB = [
    "the", "the", "a", "of", ",", ".", "car", "cars", "automobile", "auto", "machine", "running", "run",
    "ran", "runs", "runner", "big", "large", "great", "good", "better", "well", "went", "go", "goes",
    "gone", "geese", "goose", "house", "houses", "home", "fast", "quick", "quickly", "speedy", "being",
    "bee", "is", "was", "were", "lives", "life", "live", "living", "xyzzy",
]

MODULE_SETS = [*ABLATIONS, ("exact", "stem", "synonym"), ("exact", "porter", "stem", "wn_stem", "synonym"),
               ("synonym", "exact"), ("porter",)]

sentences = st.lists(st.sampled_from(VOCAB), min_size=0, max_size=14)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(MODULE_SETS), sentences, sentences, st.booleans())
def test_staged_alignment_equals_the_reference(modules, hyp, ref, stopwords) -> None:
    metric = METEOR(modules=modules, exclude_stopwords=stopwords)
    expected = _reference_stages(modules, hyp, ref, stopwords) if hyp and ref else []
    assert metric.align_words(hyp, ref) == expected


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(MODULE_SETS), sentences, sentences)
def test_jar_candidates_equal_the_reference(modules, hyp, ref) -> None:
    metric = METEOR(modules=modules, variant="1.5")
    assert metric.jar_candidates(hyp, ref) == _reference_jar_candidates(modules, hyp, ref)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_equal_classes_pair_in_order_as_the_aligner_does(data) -> None:
    """The shortcut for classes that are all a × a: best_stage_matching returns the in-order pairing."""
    n = data.draw(st.integers(1, 12))
    hyp_pos = data.draw(st.permutations(range(n)))
    ref_pos = data.draw(st.permutations(range(n)))
    sizes = data.draw(st.lists(st.integers(1, 3), min_size=1, max_size=4))
    groups, at = [], 0
    for size in sizes:
        if at + size > n:
            break
        groups.append((sorted(hyp_pos[at:at + size]), sorted(ref_pos[at:at + size])))
        at += size
    if not groups:
        return
    pairs = st.lists(st.tuples(st.integers(0, 20), st.integers(0, 20)), max_size=4, unique_by=lambda e: e[0])
    fixed = [(i + 100, j + data.draw(st.integers(-3, 3)) * 5 + 100) for i, j in data.draw(pairs)]
    shortcut = sorted(e for a, b in groups for e in zip(a, b))
    assert best_stage_matching([(a[0], b[0]) for a, b in groups], fixed, groups) == shortcut


# ---- whole corpora: caches and reuse do not change anything ------------------------------------------


def _sample(system: str, n: int = 120) -> tuple[list[str], list[list[str]]]:
    folder = sample_path()
    hyps = read_lines(folder / "systems" / f"{system}.txt")[:n]
    refs = [read_lines(folder / "references" / f"{r}.txt")[:n] for r in ("A", "B")]
    return hyps, refs


@pytest.mark.parametrize("kwargs", [{}, {"variant": "1.5", "modules": ("exact", "stem", "synonym")},
                                    {"modules": ("exact", "wn_stem"), "delta": 0.5},
                                    {"exclude_stopwords": True}])
def test_a_reused_metric_gives_what_a_fresh_one_gives(kwargs) -> None:
    reused = METEOR(**kwargs)
    for system in ("Online-A", "LT22", "Online-A"):
        hyps, refs = _sample(system)
        got = reused.extract(hyps, refs)
        fresh = METEOR(**kwargs).extract(hyps, refs)
        np.testing.assert_array_equal(got.values, fresh.values)


def test_corpus_statistics_equal_the_reference_aligner() -> None:
    hyps, refs = _sample("JDExploreAcademy", 60)
    metric = METEOR()
    result = metric.score_corpus(hyps, refs)
    for s, segment in enumerate(result.segments):
        ref = list(segment.ref_words)
        expected = _reference_stages(metric.modules, list(segment.hyp_words), ref)
        assert [(m.hyp_index, m.ref_index, metric.modules.index(m.module)) for m in segment.alignment] \
            == expected, s


# ---- the command line ------------------------------------------------------------------------------

FILES = sample_path()
REF, HYP = str(FILES / "references" / "A.txt"), str(FILES / "systems" / "Online-B.txt")


def test_meteor_alone_with_another_metrics_option_is_still_an_error(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["score", "-r", REF, "-i", HYP, "-m", "meteor", "--meteor-variant", "2006"])
    assert "invalid choice: '2006'" in capsys.readouterr().err
    assert main(["score", "-r", REF, "-i", HYP, "-m", "meteor", "--tokenize", "intl", "-b"]) == 0


def test_score_meteor_imports_only_what_it_needs() -> None:
    code = ("import sys, json; from mtscore.cli import main; main(sys.argv[1:]); "
            "print(json.dumps(sorted(sys.modules)), file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code, "score", "-r", REF, "-i", HYP, "-m", "meteor", "-b"],
                         capture_output=True, text=True, check=True)
    modules = set(json.loads(out.stderr.strip().splitlines()[-1]))
    assert float(out.stdout) > 0
    for unwanted in ("mtscore.metrics.bleu", "mtscore.metrics.nist", "mtscore.metrics.unigram",
                     "mtscore.io.dataset", "scipy", "matplotlib", "nltk"):
        assert unwanted not in modules, unwanted
    assert "mtscore.lexicon.synonyms" in modules


# ---- worker processes ---------------------------------------------------------------------------------


def _allow_forks(monkeypatch, cpus: int) -> None:
    """Pretend this process runs on ``cpus`` CPUs with no other thread: earlier tests in the same
    session (Dask's LocalCluster) leave an idle daemon thread behind, and ``usable_workers`` refuses
    to fork while another thread runs."""
    import mtscore.metrics.meteor.workers as workers

    monkeypatch.setattr(workers, "MIN_SEGMENTS_PER_WORKER", 40)
    monkeypatch.setattr(workers.os, "sched_getaffinity", lambda pid: set(range(cpus)), raising=False)
    monkeypatch.setattr(workers.threading, "active_count", lambda: 1)



@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="worker processes are forked (Linux)")
@pytest.mark.parametrize("kwargs", [{"fast": False}, {"modules": ("exact", "synonym", "porter")},
                                    {"variant": "1.5", "modules": ("exact", "stem", "synonym")}])
def test_workers_give_identical_results(monkeypatch, kwargs) -> None:
    from mtscore.metrics.meteor.extract import _ranges, _settled, _work

    _allow_forks(monkeypatch, 3)
    hyps, refs = _sample("Online-Y", 200)
    serial, forked = METEOR(**kwargs), METEOR(workers=3, **kwargs)
    prepared = forked.prepare_references(refs)
    ref_ids = prepared.ids
    hyp_ids = forked.encode(hyps)
    work = _work(forked, hyp_ids, ref_ids, _settled(forked, hyp_ids, ref_ids, set()))
    assert len(_ranges(forked, hyp_ids, ref_ids, work)) == 3
    np.testing.assert_array_equal(serial.extract(hyps, refs).values, forked.extract(hyps, prepared).values)
    assert serial.score_corpus(hyps, refs) == forked.score_corpus(hyps, refs)
    assert serial.bounded_searches == forked.bounded_searches


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="worker processes are forked (Linux)")
def test_a_failing_worker_raises_its_error_here(monkeypatch) -> None:
    """A worker's exception reaches the caller with its type and message (mtscore.pool), instead
    of being swallowed and its range silently redone."""
    import os

    _allow_forks(monkeypatch, 2)
    parent = os.getpid()

    class Flaky(METEOR):
        def statistics_row(self, *args):  # every segment of the worker's range
            if os.getpid() != parent:
                raise RuntimeError("a worker fails")
            return super().statistics_row(*args)

    hyps, refs = _sample("Online-W", 120)
    with pytest.raises(RuntimeError, match="a worker fails"):
        Flaky(workers=2, fast=False).extract(hyps, refs)
    np.testing.assert_array_equal(Flaky(workers=1, fast=False).extract(hyps, refs).values,
                                  METEOR().extract(hyps, refs).values)


def test_workers_option_is_checked() -> None:
    from mtscore.errors import OptionError

    with pytest.raises(OptionError, match="workers"):
        METEOR(workers=-1)
    assert METEOR(workers=4).signature() == METEOR().signature()  # processes do not change the score


@settings(max_examples=500, deadline=None)
@given(st.data())
def test_small_classes_shortcut_equals_the_aligner(data) -> None:
    """Classes of equal keys, some uneven: the shortcut, when it answers, answers as the aligner."""
    n_h = data.draw(st.integers(2, 14))
    n_r = data.draw(st.integers(2, 14))
    hyp_pos = data.draw(st.permutations(range(n_h)))
    ref_pos = data.draw(st.permutations(range(n_r)))
    groups, at_h, at_r = [], 0, 0
    for _ in range(data.draw(st.integers(1, 4))):
        a, b = data.draw(st.integers(1, 4)), data.draw(st.integers(1, 4))
        if at_h + a > n_h or at_r + b > n_r:
            break
        groups.append((sorted(hyp_pos[at_h:at_h + a]), sorted(ref_pos[at_r:at_r + b])))
        at_h, at_r = at_h + a, at_r + b
    if not groups:
        return
    free_h, free_r = hyp_pos[at_h:], ref_pos[at_r:]
    fixed = list(zip(free_h, data.draw(st.permutations(free_r))))[:data.draw(st.integers(0, 5))]
    expected = best_stage_matching([(a[0], b[0]) for a, b in groups], fixed, groups)
    got = small_classes_choice(groups, fixed)
    assert got is None or got == expected


def test_small_classes_shortcut_by_hand() -> None:
    # "the" twice in the hypothesis (0, 3), once in the reference (2); fixed match (1, 0):
    # (0, 2) crosses it, (3, 2) does not
    assert small_classes_choice([([0, 3], [2])], [(1, 0)]) == [(3, 2)]
    assert small_classes_choice([([0, 3], [2]), ([1], [0])], []) == [(1, 0), (3, 2)]
    # a tie: the first option (combinations order) is kept, as the aligner's stable order does
    assert small_classes_choice([([0, 1], [0])], []) == [(0, 0)] \
        == best_stage_matching([(0, 0)], [], [([0, 1], [0])])
    # two uneven classes whose cheapest options cross: the aligner decides
    assert small_classes_choice([([0, 1], [1]), ([2, 3], [0])], []) is None


def test_the_command_writes_everything_before_it_leaves() -> None:
    """``mtscore score -m meteor`` ends without tearing down the interpreter: its output is complete."""
    from mtscore.metrics.meteor import METEOR as Metric

    cmd = [sys.executable, "-m", "mtscore", "score", "-r", REF, "-i", HYP, "-m", "meteor", "--segments", "-b"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    scores = [float(x) for x in out.stdout.split()]
    hyps, refs = read_lines(HYP), read_lines(REF)
    metric = Metric()
    expected = metric.segment_scores(metric.extract(hyps, [refs]))
    np.testing.assert_allclose(scores, np.round(expected, 4))
    bad = subprocess.run([str(FILES / "no-such-file.txt") if c == HYP else c for c in cmd],
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 1 and "no such file" in bad.stderr


def test_a_used_metric_still_pickles() -> None:
    import pickle

    hyps, refs = _sample("LT22", 30)
    metric = METEOR()
    first = metric.extract(hyps, refs)
    again = pickle.loads(pickle.dumps(metric)).extract(hyps, refs)
    np.testing.assert_array_equal(first.values, again.values)


# ---- the corpus-wide even-class stages --------------------------------------------------------------

corpora = st.lists(st.tuples(sentences, st.one_of(st.none(), sentences)), min_size=1, max_size=12)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(MODULE_SETS), corpora, st.booleans())
def test_even_class_stages_settle_what_the_stages_would(modules, corpus, resolve) -> None:
    """The corpus-wide stages give what the word-level reference gives for those stages; with
    ``resolve=False`` a segment stops at a stage with an uneven class, its earlier stages as the
    reference."""
    from mtscore.metrics.meteor.align import even_class_stages

    metric = METEOR(modules=modules)
    vocab = metric.vocabulary()
    hyp = vocab.encode([h for h, _ in corpus])
    ref = [None if r is None else vocab.encode([r])[0] for _, r in corpus]
    keys = even_class_prefix(metric)
    stages, matched = even_class_stages(hyp, ref, keys, resolve)
    if resolve:
        assert stages == [len(keys)] * len(corpus)
    for s, (h, r) in enumerate(corpus):
        assert 0 <= stages[s] <= len(keys)
        if r is None:
            assert matched[s] == [] and stages[s] == len(keys)
            continue
        before = _reference_stages(modules[:stages[s]], h, r) if stages[s] and h and r else []
        assert sorted(matched[s]) == before
        if stages[s] < len(keys):  # a class of the stop stage is uneven
            upto = _reference_stages(modules[:stages[s] + 1], h, r)
            used_h, used_r = {i for i, _, _ in before}, {j for _, j, _ in before}
            key = _key_fn(modules[stages[s]])
            hk = [key(h[i]) for i in range(len(h)) if i not in used_h]
            rk = [key(r[j]) for j in range(len(r)) if j not in used_r]
            assert any(hk.count(x) != rk.count(x) and x in rk for x in hk) and len(upto) >= len(before)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(MODULE_SETS), corpora, st.booleans())
def test_corpus_path_equals_the_segment_path(modules, corpus, delta) -> None:
    """Statistics and alignments with the corpus-wide stages equal those of the per-segment aligner."""
    hyps = [" ".join(h) for h, _ in corpus]
    # two reference streams: the drawn one (None where drawn so) and the hypotheses reversed
    refs = [[None if r is None else " ".join(r) for _, r in corpus], [" ".join(h[::-1]) for h, _ in corpus]]
    kwargs = {"modules": modules, "delta": 0.5 if delta else None}
    fast, plain = METEOR(**kwargs), METEOR(fast=False, **kwargs)  # no corpus-wide stages
    got, want = fast.score_corpus(hyps, refs), plain.score_corpus(hyps, refs)
    assert got.segments == want.segments
    np.testing.assert_array_equal(fast.extract(hyps, refs).values, plain.extract(hyps, refs).values)


def test_even_class_stages_by_hand() -> None:
    from mtscore.metrics.meteor.align import even_class_stages

    exact = np.arange(6)
    # segment 0: "0 1 0" vs "0 0 2": class 0 even (2 x 2) pairs in order, 1 and 2 unmatched;
    # segment 1: "3 3" vs "3": uneven at stage 0; segment 2: no reference
    stages, matched = even_class_stages([[0, 1, 0], [3, 3], [4]], [[0, 0, 2], [3], None], [exact], False)
    assert stages == [1, 0, 1]
    assert list(matched) == [[(0, 0, 0), (2, 1, 0)], [], []]
    # resolved: "3 3" vs "3" keeps the first hypothesis word (a tie, the first option); in
    # "5 1 5" vs "1 5" the uneven class 5 takes the option that does not cross the fixed (1, 0)
    stages, matched = even_class_stages([[0, 1, 0], [3, 3], [5, 1, 5]], [[0, 0, 2], [3], [1, 5]], [exact])
    assert stages == [1, 1, 1]
    assert list(matched) == [[(0, 0, 0), (2, 1, 0)], [(0, 0, 0)], [(1, 0, 0), (2, 1, 0)]]
    # a second stage keyed by parity: in segment 0 words 1 (hyp 1) and 2 (ref 2) differ in parity,
    # so nothing more; "1" vs "5" (both odd) pair at stage 1
    parity = exact % 2
    stages, matched = even_class_stages([[0, 1], [1]], [[0, 2], [5]], [exact, parity])
    assert stages == [2, 2] and list(matched) == [[(0, 0, 0)], [(0, 0, 1)]]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([m for m in MODULE_SETS if len(m) > 1]), corpora)
def test_even_class_stages_then_a_key_set_stage(modules, corpus) -> None:
    """With ``then`` (the next module's key sets), one stage more, as the word-level reference."""
    from mtscore.metrics.meteor.align import even_class_stages

    metric = METEOR(modules=modules)
    vocab = metric.vocabulary()
    hyp = vocab.encode([h for h, _ in corpus])
    ref = [None if r is None else vocab.encode([r])[0] for _, r in corpus]
    keys = even_class_prefix(metric)
    if not keys or len(keys) == len(modules) or vocab.matchers[len(keys)].single:
        return
    stages, matched = even_class_stages(hyp, ref, keys, then=lambda xs: vocab.keys_of(len(keys), xs))
    assert stages == [len(keys) + 1] * len(corpus)
    for s, (h, r) in enumerate(corpus):
        expected = _reference_stages(modules[:len(keys) + 1], h, r) if r and h else []
        assert sorted(matched[s]) == expected
