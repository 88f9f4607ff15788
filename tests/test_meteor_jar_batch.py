"""Variant 1.5's searches for many segments at once equal the rules segment by segment:
:func:`.align.jar_batch.align_jar_many` is :func:`.align.jar.align_jar` state for state (the same
alignment, the same ``exact`` flag, also where the state caps cut), and
:func:`.jar_batch.align_jar_segments` (what ``fast`` runs) is :func:`.segments.align_jar_segment`;
the jar's beam from the candidates' arrays (:mod:`.align.phrases_batch_words`) is the batched beam of
the same candidates as phrase lists and :func:`.align.jar.align_jar_beam` segment by segment."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.data import sample_path
from mtscore.io.text import read_lines
from mtscore.metrics.meteor import METEOR
from mtscore.metrics.meteor.align import jar, jar_batch_setup
from mtscore.metrics.meteor.align.jar import align_jar, align_jar_beam
from mtscore.metrics.meteor.align.jar_batch import align_jar_many
from mtscore.metrics.meteor.align.jar_batch_setup import FlatCandidates, batch_of_arrays, batch_of_lists
from mtscore.metrics.meteor.align.phrases_batch import align_phrases_beam_many
from mtscore.metrics.meteor.align.phrases_batch_words import align_word_beam_many


@st.composite
def segments(draw: st.DrawFn, most_hyp: int = 12) -> tuple[int, int, list[list[tuple[int, int]]]]:
    """Candidates as the modules make them: exact ones between identical words (of a few), the
    other two modules' between different words, each listed module by module, then by position."""
    n_hyp, n_ref = draw(st.integers(1, most_hyp)), draw(st.integers(1, 12))
    kinds = draw(st.integers(1, 4))
    h = draw(st.lists(st.integers(0, kinds - 1), min_size=n_hyp, max_size=n_hyp))
    r = draw(st.lists(st.integers(0, kinds - 1), min_size=n_ref, max_size=n_ref))
    seed = draw(st.integers(0, 1 << 30))
    density = draw(st.sampled_from([0.0, 0.1, 0.3]))
    rng = random.Random(seed)
    cands: list[list[tuple[int, int]]] = [[] for _ in range(n_ref)]
    for k in range(3):
        for j in range(n_ref):
            for i in range(n_hyp):
                if (h[i] == r[j]) if k == 0 else (h[i] != r[j] and rng.random() < density):
                    cands[j].append((i, k))
    return n_hyp, n_ref, cands


WEIGHTS = st.sampled_from([[1.0, 0.5, 0.5], [1.0, 1.0, 0.5], [1.0, 0.6, 0.8]])


def _rule(segs: list, weights: list[float]) -> list[tuple[list, bool]]:
    return [(list(a), ok) for a, ok in (align_jar(n, m, c, weights) for n, m, c in segs)]


@settings(max_examples=60, deadline=None)
@given(st.lists(segments(), min_size=1, max_size=12), WEIGHTS)
def test_batch_equals_the_rule(segs: list, weights: list[float]) -> None:
    assert align_jar_many(segs, weights) == _rule(segs, weights)


@settings(max_examples=40, deadline=None)
@given(st.lists(segments(), min_size=1, max_size=8), WEIGHTS, st.integers(1, 6), st.integers(1, 40))
def test_batch_equals_the_rule_where_the_caps_cut(segs: list, weights: list[float], state_cap: int,
                                                  work_cap: int) -> None:
    # tiny caps: most searches keep only their best states, in the rule's order
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(jar, "STATE_CAP", state_cap)  # (the batch reads the rule's caps)
        mp.setattr(jar, "WORK_CAP", work_cap)
        assert align_jar_many(segs, weights) == _rule(segs, weights)


@settings(max_examples=10, deadline=None)
@given(st.lists(segments(most_hyp=150), min_size=1, max_size=6), WEIGHTS)
def test_batch_equals_the_rule_on_long_hypotheses(segs: list, weights: list[float]) -> None:
    # masks of several 64-bit words, batches of each width
    assert align_jar_many(segs, weights, work=40) == _rule(segs, weights)


@settings(max_examples=10, deadline=None)
@given(st.lists(segments(most_hyp=150), min_size=2, max_size=6), WEIGHTS)
def test_narrow_masks_in_wide_batches_equal_the_rule(segs: list, weights: list[float]) -> None:
    # a large work: every width's segments carry little of it and join the widest's batch
    assert align_jar_many(segs, weights, work=1 << 20) == _rule(segs, weights)


@pytest.mark.parametrize("search", ["exact", "beam"])
def test_fast_path_equals_the_rule_on_the_sample(search: str) -> None:
    folder = sample_path()
    hyps = read_lines(next(iter(sorted((folder / "systems").glob("*.txt")))))
    refs = [read_lines(p) for p in sorted((folder / "references").glob("*.txt"))]
    out = []
    for fast, workers in ((True, 1), (False, 1), (True, 2)):  # (2: blocks in two processes)
        metric = METEOR(variant="1.5", modules=("exact", "stem", "synonym"), search=search, fast=fast,
                        workers=workers)
        stats, kept, _, _ = metric.align_corpus(hyps, refs)
        out.append((stats.values, kept, metric.bounded_searches))
    (v_rule, k_rule, b_rule) = out[1]
    for v, k, b in out[::2]:
        assert np.array_equal(v, v_rule)
        assert k == k_rule
        assert b == b_rule


@settings(max_examples=10, deadline=None)
@given(st.lists(segments(), min_size=1, max_size=4))
def test_scores_too_large_to_pack_take_the_rule(segs: list) -> None:
    weights = [float(1 << 60), 0.5, 0.5]  # (no aligner weighs so; the batch hands over to the rule)
    assert align_jar_many(segs, weights) == _rule(segs, weights)


def _fields(batch: object) -> dict:
    return {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in vars(batch).items()}


@settings(max_examples=60, deadline=None)
@given(st.lists(segments(most_hyp=70), min_size=1, max_size=8), WEIGHTS)
def test_setup_from_arrays_equals_the_rules_problems(segs: list, weights: list[float]) -> None:
    # align/jar_batch_setup.py: every array of the batch from the candidates' arrays is the one
    # from the rule's _Problem of each segment
    flat = FlatCandidates.of_lists(segs)
    from_arrays = batch_of_arrays(flat.n_hyp, flat.n_ref, flat.seg, flat.j, flat.i, flat.mod, weights)
    assert from_arrays is not None
    assert _fields(from_arrays) == _fields(batch_of_lists(segs, weights))


@settings(max_examples=20, deadline=None)
@given(st.lists(segments(), min_size=1, max_size=8), WEIGHTS)
def test_colliding_class_hashes_take_the_rules_problems(segs: list, weights: list[float]) -> None:
    with pytest.MonkeyPatch.context() as mp:  # every set of words hashes alike
        mp.setattr(jar_batch_setup, "_mix", lambda x: np.zeros(len(x), dtype=np.uint64))
        assert _fields(FlatCandidates.of_lists(segs).batch(weights)) == _fields(batch_of_lists(segs, weights))
        assert align_jar_many(segs, weights) == _rule(segs, weights)


@settings(max_examples=40, deadline=None)
@given(st.lists(segments(most_hyp=150), min_size=1, max_size=10), WEIGHTS, st.sampled_from([1, 3, 40]),
       st.sampled_from([(512, 16_384), (3, 60)]))
def test_word_beam_from_arrays_equals_the_phrase_lists(segs: list, weights: list[float], beam: int,
                                                       batching: tuple[int, int]) -> None:
    # align/phrases_batch_words.py: the beam cut from the candidates' arrays is the batched beam
    # of the same candidates as phrase lists, and so the rule (the jar's beam, segment by segment)
    flat = FlatCandidates.of_lists(segs)
    batch, work = batching
    found = align_word_beam_many(flat.n_hyp, flat.n_ref, flat.seg, flat.j, flat.i, flat.mod, weights,
                                 beam, batch, work)
    phrases = [(n, m, [[(j, 1, i, 1, k) for i, k in cs] for j, cs in enumerate(c)]) for n, m, c in segs]
    assert found == align_phrases_beam_many(phrases, weights, beam, batch, work)
    assert [sorted((i, j, k) for j, _, i, _, k in a) for a in found] == \
        [sorted(align_jar_beam(n, m, c, weights, beam)) for n, m, c in segs]
