"""One segment against one reference: the 2005 stages (§2.2) and the 1.5 jar's alignment, with
their work budgets and fallbacks, and the segment's statistics (§2.3)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .align.shortcut import small_classes_choice
from .align.stage import GreedyMatching, best_stage_matching, key_set_stage

if TYPE_CHECKING:
    from .matchers import Vocabulary
    from .metric import METEOR

Match = tuple[int, int, int]


class FallbackMatches(tuple):
    """The stage cache's matches of stages one of which was matched by the bounded fallback."""


def key_sets(vocab: Vocabulary, k: int, ids: Sequence[int], positions: Iterable[int]
             ) -> list[tuple[int, Any]]:
    """(position, key set) of the words at ``positions`` that have keys under module k (a key-set
    module: wn_stem, synonym); keys computed on first use (:meth:`Vocabulary.keys_of`)."""
    positions = list(positions)
    sets = vocab.keys_of(k, [ids[p] for p in positions])
    return [(p, ks) for p, ks in zip(positions, sets) if ks]


def _classes(hv: Sequence[Any], rv: Sequence[Any], hp: Iterable[int], rp: Iterable[int]
             ) -> list[tuple[list[int], list[int]]]:
    """The classes of equal keys present on both sides, in order of first reference word:
    (hypothesis positions, reference positions)."""
    index: dict[Any, tuple[list[int], list[int]]] = {}
    for j in rp:
        x = rv[j]
        entry = index.get(x)
        if entry is None:
            index[x] = ([], [j])
        else:
            entry[1].append(j)
    for i in hp:
        entry = index.get(hv[i])
        if entry is not None:
            entry[0].append(i)
    return [g for g in index.values() if g[0]]


def _class_stage(groups: list[tuple[list[int], list[int]]], matched: list[Match]) -> list[tuple[int, int]]:
    """One equivalence stage: classes of equal size pair in order; otherwise the shortcut or the
    stage rule (:func:`.align.best_stage_matching`)."""
    for a, b in groups:
        if len(a) != len(b):
            fixed = [(i, j) for i, j, _ in matched]
            return small_classes_choice(groups, fixed) or \
                best_stage_matching([(a[0], b[0]) for a, b in groups], fixed, groups)
    return [e for a, b in groups for e in zip(a, b)]  # what best_stage_matching returns for them


def _free(n: int, used: set[int], stop: frozenset[str] | None, words: list[str], ids: list[int],
          exact: bool) -> Sequence[int]:
    """The positions no earlier stage matched (stop words left out of the exact stage, §3.6)."""
    free: Sequence[int] = [p for p in range(n) if p not in used] if used else range(n)
    if stop is not None and exact:
        free = [p for p in free if words[ids[p]] not in stop]
    return free


def align_stages(metric: METEOR, h: list[int], r: list[int], start: int = 0,
                 before: list[Match] | None = None) -> tuple[list[Match], bool]:
    """The 2005 aligner (§2.2): each module a stage over the words no earlier stage matched; within
    a stage the largest matching with the fewest crossings. ``start``, ``before``: begin at that
    stage, after these matches of the earlier ones. Returns the sorted matches and whether a stage
    was matched by the bounded fallback."""
    vocab = metric.vocabulary()
    nh, nr = len(h), len(r)
    stop = metric.function_words() if metric.exclude_stopwords else None
    matched: list[Match] = list(before or ())
    used_h, used_r = {i for i, _, _ in matched}, {j for _, j, _ in matched}
    fallback = False
    if matched and (len(used_h) == nh or len(used_r) == nr):
        return sorted(matched), fallback
    cache = metric.stage_cache
    pair = None
    if cache is not None:
        pair = (tuple(vocab.words[x] for x in h), tuple(vocab.words[x] for x in r),
                metric.exclude_stopwords, metric.language.code)
    for k in range(start, len(vocab.matchers)):
        matcher = vocab.matchers[k]
        known = cache.get((metric.modules[:k + 1], pair)) if cache is not None else None
        if known is not None:  # the same stages on the same words: the same alignment
            matched, fallback = list(known), isinstance(known, FallbackMatches)
            used_h, used_r = {i for i, _, _ in matched}, {j for _, j, _ in matched}
            if len(used_h) == nh or len(used_r) == nr:
                break
            continue
        exact = matcher.name == "exact"
        hp = _free(nh, used_h, stop, vocab.words, h, exact)
        rp = _free(nr, used_r, stop, vocab.words, r, exact)
        if matcher.single:
            key = vocab.keys[k]
            hv, rv = (h, r) if exact else ([key[x] for x in h], [key[y] for y in r])
            groups = _classes(hv, rv, hp, rp)
            chosen = _class_stage(groups, matched) if groups else []
        else:
            hk = key_sets(vocab, k, h, hp)
            chosen = key_set_stage(hk, key_sets(vocab, k, r, rp), [(i, j) for i, j, _ in matched]) \
                if hk else []
        if not chosen:
            continue
        fallback = fallback or isinstance(chosen, GreedyMatching)
        matched.extend([(i, j, k) for i, j in chosen])
        used_h.update([i for i, _ in chosen])
        used_r.update([j for _, j in chosen])
        if cache is not None:
            cache[(metric.modules[:k + 1], pair)] = (FallbackMatches if fallback else tuple)(matched)
        if len(used_h) == nh or len(used_r) == nr:
            break
    return sorted(matched), fallback


def jar_modules(vocab: Vocabulary, h: list[int], r: list[int]) -> int:
    """How many modules the jar uses: the first only for a segment identical to its reference."""
    return 1 if h == r else len(vocab.matchers)


def jar_candidates(vocab: Vocabulary, h: list[int], r: list[int]) -> list[list[tuple[int, int]]]:
    """Variant 1.5: per reference word, its candidates (hyp index, module index) in the jar's order
    (non-exact modules only for different words)."""
    cands: list[list[tuple[int, int]]] = [[] for _ in r]
    for k, matcher in enumerate(vocab.matchers[:jar_modules(vocab, h, r)]):
        exact = matcher.name == "exact"
        key = vocab.keys[k]
        if matcher.name == "paraphrase":  # phrase matches: .paraphrase.phrase_candidates
            continue
        if matcher.single:
            at: dict[Any, list[int]] = {}
            for i, x in enumerate(h):
                at.setdefault(key[x], []).append(i)
            for j, y in enumerate(r):
                hits = at.get(key[y])
                if hits:
                    cands[j] += [(i, k) for i in hits] if exact else [(i, k) for i in hits if h[i] != y]
        else:  # the hypothesis words sharing a key (synset) with the reference word, in order
            at_key: dict[Any, list[int]] = {}
            for i, ks in enumerate(vocab.keys_of(k, h)):
                for c in ks or ():
                    at_key.setdefault(c, []).append(i)
            if not at_key:
                continue
            for j, (y, rks) in enumerate(zip(r, vocab.keys_of(k, r))):
                if rks:
                    shared = {i for c in rks for i in at_key.get(c, ())}
                    if shared:
                        cands[j] += [(i, k) for i in sorted(shared) if h[i] != y]
    return cands


def jar_pairs(vocab: Vocabulary, h: list[int], r: list[int]) -> int:
    """The 1.5 search's work measure, from key counts (no candidate is built): per module its
    candidate pairs (a key-set module's counted once per shared key), at most |h|·|r|."""
    pairs = 0
    for k, matcher in enumerate(vocab.matchers[:jar_modules(vocab, h, r)]):
        if matcher.single:
            key = vocab.keys[k]
            per_key = Counter(key[x] for x in h)
            count = sum(per_key.get(key[y], 0) for y in r)
            if matcher.name != "exact":
                per_word = Counter(h)
                count -= sum(per_word.get(y, 0) for y in r)
        else:
            per_key = Counter(c for ks in vocab.keys_of(k, h) if ks for c in ks)
            count = sum(per_key.get(c, 0) for ks in vocab.keys_of(k, r) if ks for c in ks)
        pairs += min(count, len(h) * len(r))
    return pairs


def align_jar_segment(metric: METEOR, h: list[int], r: list[int]) -> tuple[list[Match], bool]:
    """Variant 1.5: the jar's alignment (exact, or the jar's beam with ``jar_beam``), or past the
    segment's work budget (:func:`.align.jar.within_budget`) the staged greedy fallback. Returns the
    sorted matches and whether the fallback was used."""
    from .align.fallback import greedy_stages  # (the 1.5 aligners: not imported for 2005)
    from .align.jar import align_jar, align_jar_beam

    vocab = metric.vocabulary()
    if not jar_within_budget(metric, h, r):
        used = range(jar_modules(vocab, h, r))
        hyp_keys = [_keys_of(vocab, k, h) for k in used]
        ref_keys = [_keys_of(vocab, k, r) for k in used]
        return greedy_stages(hyp_keys, ref_keys), True
    cands = jar_candidates(vocab, h, r)
    return search_jar_objective(metric, align_jar_beam, align_jar, len(h), len(r), cands), False


def jar_within_budget(metric: METEOR, h: list[int], r: list[int]) -> bool:
    """Whether variant 1.5 searches a pair (else: the fallback), :func:`.align.jar.within_budget`."""
    from .align.jar import within_budget

    vocab = metric.vocabulary()
    most = len(h) * len(r) * jar_modules(vocab, h, r)  # jar_pairs is at most this: no need to count
    return within_budget(len(h), len(r), most, metric.beam_width) or \
        within_budget(len(h), len(r), jar_pairs(vocab, h, r), metric.beam_width)


def search_jar_objective(metric: METEOR, beam_search: Any, exact_search: Any, n_hyp: int, n_ref: int,
                         cands: Any) -> list[Any]:
    """The 1.5 alignment of candidates ``cands`` by the metric's search: the jar's beam
    (``beam_search``, of width ``metric.beam_width``) or the exact search (``exact_search``; one
    bounded by its state cap counts in ``metric.bounded_searches``)."""
    weights = metric.jar_align_weights()
    if metric.beam_width is not None:
        return list(beam_search(n_hyp, n_ref, cands, weights, metric.beam_width))
    alignment, exact = exact_search(n_hyp, n_ref, cands, weights)
    if not exact:
        metric.bounded_searches += 1
    return list(alignment)


def _keys_of(vocab: Vocabulary, k: int, ids: list[int]) -> list[Any]:
    """Module k's keys of each word, each as an iterable of keys."""
    if vocab.matchers[k].single:
        key = vocab.keys[k]
        return [(key[x],) for x in ids]
    return [ks or () for ks in vocab.keys_of(k, ids)]
