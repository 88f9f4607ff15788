"""METEOR (Banerjee & Lavie 2005) as an additive-statistics metric, with the METEOR 1.5 jar's variant.

* ``variant="2005"``: the paper. Modules run as stages (§2.2, :mod:`.align`), P = m/|hyp|,
  R = m/|ref|, Fmean = 10PR/(R + 9P), Penalty = 0.5·(chunks/m)³ (§2.3), generalised with α, β, γ, δ and
  module weights as METEOR 1.x does (:mod:`.score`).
* ``variant="1.5"``: what the jar (``meteor-1.5.jar``) computes for the same parameters: every module
  proposes candidates at once and the jar's objective picks the alignment (searched exactly, not with
  its beam of 40), and a segment matched completely in one chunk has no penalty — recorded as 0 chunks
  in its statistics, so corpus sums stay exact (the jar's ``MeteorStats.addStats`` does the same).

Several references (§2.3 end): every reference is scored and the best-scoring one is kept (the first
on ties, as the jar); the corpus statistics are the sums of the kept references' statistics.
"""

from __future__ import annotations

import functools
import os
import sys
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import OptionError
from ...io.references import check_reference_streams, reference_count_label
from ...languages import meteor_language
from ...progress import track
from ...text.tokenizers import Tokenizer, get_tokenizer, preprocess
from ...version import __version__
from ..base import Metric, Score, SegmentStats, checked_inputs, sentence_references
from .align import (
    align_jar,
    align_jar_beam,
    best_stage_matching,
    even_class_stages,
    small_classes_choice,
)
from .matchers import Matcher, Vocabulary, check_modules, get_matcher
from .score import Parameters, columns, components

if TYPE_CHECKING:
    from ...text.span_encoder import SpanEncoder

VARIANTS = ("2005", "1.5")

#: below this many characters in all, segments are tokenized line by line and their words looked
#: up in the vocabulary's dict: cheaper than the byte path's fixed numpy cost (they break even at
#: about 8,000 characters, some 80 segments)
SMALL_CORPUS_CHARACTERS = 8000


@dataclass(frozen=True)
class WordMatch:
    """One aligned word pair: positions (0-based), the module that matched them, the words."""

    hyp_index: int
    ref_index: int
    module: str
    hyp_word: str
    ref_word: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class METEORSegment:
    """The score of one segment against its best reference, with its statistics and alignment."""

    score: float
    precision: float
    recall: float
    fmean: float
    penalty: float
    chunks: int
    matches: int
    hyp_len: int
    ref_len: int
    #: index of the reference stream that scored best (the one kept)
    reference: int
    alignment: tuple[WordMatch, ...]
    hyp_words: tuple[str, ...]
    ref_words: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["alignment"] = [m.to_dict() for m in self.alignment]
        out["hyp_words"] = list(self.hyp_words)
        out["ref_words"] = list(self.ref_words)
        return out


@dataclass(frozen=True)
class METEORResult(Score):
    """A METEOR score (0–1, as the jar) with the statistics it was computed from."""

    precision: float
    recall: float
    fmean: float
    penalty: float
    fragmentation: float
    chunks: int
    matches: int
    hyp_len: int
    ref_len: int
    #: one result per segment (filled by ``corpus_meteor``/``score_corpus``; empty from ``compute``)
    segments: tuple[METEORSegment, ...] = ()

    def __str__(self) -> str:
        return (f"METEOR = {self.score:.4f} (P = {self.precision:.4f} R = {self.recall:.4f} "
                f"Fmean = {self.fmean:.4f} Penalty = {self.penalty:.4f} chunks = {self.chunks} "
                f"matches = {self.matches})")


@dataclass
class PreparedReferences:
    """Reference streams tokenized once (pass to ``extract`` instead of the raw streams)."""

    settings: tuple[object, ...]
    segments: int
    nrefs: str
    #: per stream, per segment: the reference's word ids in ``vocabulary`` (None where missing)
    ids: list[list[list[int] | None]]
    #: the vocabulary of the METEOR object that prepared them
    vocabulary: Vocabulary

    @functools.cached_property
    def words(self) -> list[list[list[str] | None]]:
        """Per stream, per segment: the reference's words (None where missing)."""
        words = self.vocabulary.words
        return [[None if r is None else [words[x] for x in r] for r in stream] for stream in self.ids]


class METEOR(Metric[METEORResult]):
    """METEOR with the paper's defaults; ``extract``/``compute`` as in :mod:`mtscore.metrics.base`.

    Parameters as :func:`corpus_meteor`, plus ``jar_beam`` (variant 1.5 only): search with the jar's
    own beam of that width (40 reproduces the jar) instead of exactly; ``stage_cache``: a dict shared
    by METEOR objects whose module lists start alike (2005); ``workers``: align a corpus in that many
    forked processes (Linux; 0: one per idle CPU; default 1) — identical results, less wall time.

    Speed: every distinct word gets an id and, per module, its key once (:class:`.matchers.Vocabulary`);
    the synonym module reads :mod:`mtscore.lexicon.synonyms`; easy classes of equal keys are paired
    here, the rest by :func:`.align.best_stage_matching`.
    """

    name = "meteor"

    def __init__(self, *, modules: Sequence[str] | str | None = None, variant: str = "2005",
                 alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5,
                 delta: float | None = None, weights: Sequence[float] | None = None,
                 tokenize: str | None = None, lowercase: bool = True, exclude_stopwords: bool = False,
                 language: str = "en",
                 jar_beam: int | None = None,
                 stage_cache: dict[tuple[Any, ...], tuple[tuple[int, int, int], ...]] | None = None,
                 workers: int = 1):
        if not (isinstance(language, str) and language.isascii() and language.isalpha()
                and 2 <= len(language) <= 3):
            raise OptionError("METEOR language", language,
                              detail="an ISO 639-1 code such as en, de or zh")
        #: the target language's resources (:func:`mtscore.languages.meteor_language`)
        self.language = meteor_language(language)
        self.modules = check_modules(self.language.modules if modules is None else modules,
                                     self.language)
        if not self.language.english and (delta is not None or exclude_stopwords):
            raise OptionError("delta/exclude_stopwords", "set",
                              detail=f"the shipped function-word list is English; target language "
                                     f"{self.language.code!r} has none")
        #: 2005 variant: alignments after each stage, shared by METEOR objects whose module lists
        #: start alike (the module ablation aligns the exact stage once, not once per module set)
        self._stage_cache = stage_cache
        if variant not in VARIANTS:
            raise OptionError("METEOR variant", variant, VARIANTS)
        self.variant = variant
        if not 0.0 <= alpha <= 1.0:
            raise OptionError("alpha", alpha, detail="must be within [0, 1]")
        if beta < 0 or gamma < 0 or gamma > 1:
            raise OptionError("beta/gamma", (beta, gamma), detail="need beta >= 0 and 0 <= gamma <= 1")
        if delta is not None and not 0.0 <= delta <= 1.0:
            raise OptionError("delta", delta, detail="must be within [0, 1] (or None)")
        if weights is None:
            weights = (1.0,) * len(self.modules)
        weights = tuple(float(w) for w in weights)
        if len(weights) != len(self.modules):
            raise OptionError("METEOR weights", weights,
                              detail=f"give one weight per module ({len(self.modules)})")
        if any(w < 0 for w in weights):
            raise OptionError("METEOR weights", weights, detail="weights must be >= 0")
        self.params = Parameters(float(alpha), float(beta), float(gamma),
                                 None if delta is None else float(delta), weights)
        self.tokenizer: Tokenizer = get_tokenizer(self.language.tokenize if tokenize is None else tokenize)
        self.lowercase = bool(lowercase)
        self.exclude_stopwords = bool(exclude_stopwords)
        if jar_beam is not None and (variant != "1.5" or int(jar_beam) < 1):
            raise OptionError("jar_beam", jar_beam,
                              detail="a positive beam width, with variant 1.5 only")
        #: variant 1.5 only: search with the jar's own beam of this width instead of exactly
        self.jar_beam = None if jar_beam is None else int(jar_beam)
        if int(workers) < 0:
            raise OptionError("workers", workers, detail="a number of processes >= 1, or 0 for automatic")
        #: processes that align a corpus (forked, Linux only; 0: one per idle CPU); the statistics
        #: are identical whatever the number, only the wall time changes
        self.workers = int(workers)
        self._matchers: list[Matcher] | None = None
        self._vocab: Vocabulary | None = None
        self._encoder: SpanEncoder | None = None
        #: alignments (1.5) whose search hit ``align.STATE_CAP`` and so may not be optimal
        self.bounded_searches = 0
        self._function_words: frozenset[str] | None = None
        self._columns = columns(self.modules, self.params.delta is not None)

    # ---- configuration -------------------------------------------------------------------------

    @property
    def columns(self) -> tuple[str, ...]:
        return self._columns

    def settings_key(self) -> tuple[object, ...]:
        return (self.tokenizer.signature(), self.lowercase)

    def matchers(self) -> list[Matcher]:
        """The module matchers (WordNet is loaded here, on first use, if a module needs it)."""
        if self._matchers is None:
            self._matchers = [get_matcher(m, self.language.snowball) for m in self.modules]
        return self._matchers

    def vocabulary(self) -> Vocabulary:
        """Word ids and module keys of every word seen so far (grows over calls; keys computed once)."""
        if self._vocab is None:
            self._vocab = Vocabulary(self.matchers())
        return self._vocab

    def function_words(self) -> frozenset[str]:
        """The shipped function-word list (δ weighting and the optional stop-word exclusion)."""
        if self._function_words is None:
            try:
                from ...lexicon.function_words import function_words
            except ImportError as err:
                raise OptionError("delta/exclude_stopwords", "set",
                                  detail=f"the function-word list is not available ({err})") from None
            self._function_words = frozenset(function_words())
        return self._function_words

    # ---- statistics -----------------------------------------------------------------------------

    def tokenize(self, lines: Sequence[str]) -> list[list[str]]:
        """The words of each segment (tokenized, lowercased if set)."""
        return [line.split() for line in preprocess(lines, self.tokenizer, self.lowercase)]

    def encode(self, lines: Sequence[str]) -> list[list[int]]:
        """The word ids (in :meth:`vocabulary`) of each segment: ``vocabulary().encode(tokenize(lines))``,
        computed from the text's UTF-8 bytes where the tokenizer has a span kernel
        (:class:`mtscore.text.span_encoder.SpanEncoder`: one numpy pass, a token's text decoded
        only when it is new) and the corpus is not tiny; line by line otherwise (ja-mecab)."""
        if not lines:  # (tokenize([]) gives one empty segment: the regex tokenizers' joined text)
            return []
        vocab = self.vocabulary()
        if sum(map(len, lines)) < SMALL_CORPUS_CHARACTERS or not self._uses_span_encoder():
            return vocab.encode(self.tokenize(lines))
        ids, lengths = vocab.encode_text(self._encoder, lines)  # type: ignore[arg-type]
        flat = ids.tolist()
        ends = np.cumsum(lengths).tolist()
        return [flat[a:b] for a, b in zip([0, *ends], ends)]

    def _uses_span_encoder(self) -> bool:
        """Whether the tokenizer has a span kernel; its encoder is made (and the numpy kernels
        imported: sentence-level scoring never needs them) on first use."""
        if self._encoder is None:
            from ...text.spans import SPAN_TOKENIZERS

            if self.tokenizer.name not in SPAN_TOKENIZERS:
                return False
            from ...text.span_encoder import SpanEncoder

            self._encoder = SpanEncoder(self.tokenizer, self.lowercase)
        return True

    def prepare_references(self, refs: Sequence[Sequence[str | None]],
                           names: Sequence[str] | None = None) -> PreparedReferences:
        """Tokenize the references once (pass the result to ``extract`` as ``refs``)."""
        n = len(refs[0]) if refs and not isinstance(refs, str) and not isinstance(refs[0], str) \
            and hasattr(refs[0], "__len__") else 0
        streams = check_reference_streams(refs, n, names)
        present = [[i for i, r in enumerate(stream) if r is not None] for stream in streams]
        encoded = iter(self.encode([r for stream in streams for r in stream if r is not None]))
        ids: list[list[list[int] | None]] = []
        for idx in present:  # every stream in one pass, then back in place
            col: list[list[int] | None] = [None] * n
            for i in idx:
                col[i] = next(encoded)
            ids.append(col)
        return PreparedReferences(self.settings_key(), n, reference_count_label(streams), ids,
                                  self.vocabulary())

    def _prepared(self, hyps: Sequence[str], refs: Any) -> tuple[list[str], PreparedReferences]:
        hyps, refs = checked_inputs(self, hyps, refs, PreparedReferences)
        return hyps, refs

    def extract(self, hyps: Sequence[str],
                refs: Sequence[Sequence[str | None]] | PreparedReferences) -> SegmentStats:
        """Per-segment statistics against the best reference (see :func:`.score.columns`)."""
        return self._align_corpus(hyps, refs, keep_alignments=False)[0]

    def align_corpus(self, hyps: Sequence[str],
                     refs: Sequence[Sequence[str | None]] | PreparedReferences,
                     keep_alignments: bool = True
                     ) -> tuple[SegmentStats, list[tuple[int, list[tuple[int, int, int]]]] | None,
                                list[list[str]], PreparedReferences]:
        """Statistics plus, per segment, (kept reference, alignment as (i, j, module index)); also
        the hypotheses' words and the prepared references."""
        stats, kept, hyp_ids, prepared = self._align_corpus(hyps, refs, keep_alignments)
        words = self.vocabulary().words
        return stats, kept, [[words[x] for x in h] for h in hyp_ids], prepared

    def _align_corpus(self, hyps: Sequence[str],
                      refs: Sequence[Sequence[str | None]] | PreparedReferences,
                      keep_alignments: bool
                      ) -> tuple[SegmentStats, list[tuple[int, list[tuple[int, int, int]]]] | None,
                                 list[list[int]], PreparedReferences]:
        """:meth:`align_corpus` with the hypotheses as word ids."""
        hyps, prepared = self._prepared(hyps, refs)
        vocab = self.vocabulary()
        if prepared.vocabulary is vocab:
            ref_ids = prepared.ids  # per reference stream, None where it is missing
        else:  # prepared by another METEOR object (same tokenizer and case): its words, our ids
            ref_ids = [[None if r is None else ids for r, ids in zip(stream, vocab.encode(
                [r or [] for r in stream]))] for stream in prepared.words]
        hyp_ids = self.encode(hyps)
        S, K, C = len(hyps), len(ref_ids), len(self._columns)
        fw = self.function_words() if (self.params.delta is not None or self.exclude_stopwords) else None
        # 2005: the leading equivalence stages of the whole corpus at once where they leave no choice
        prefix = self._even_class_prefix()
        then = None
        if prefix and len(prefix) < len(self.modules):  # the next stage's module has key sets
            G = len(prefix)
            then = lambda xs: vocab.keys_of(G, xs)
        settled = [even_class_stages(hyp_ids, col, prefix, then=then) for col in ref_ids] if prefix else None

        def task(lo: int, hi: int, show: bool) -> tuple[list[Any], list[Any], int]:
            """Rows (and alignments) of segments lo..hi-1 for every reference stream."""
            before = self.bounded_searches
            rows: list[list[list[int] | None]] = [[None] * (hi - lo) for _ in range(K)]
            aligns: list[list[list[tuple[int, int, int]] | None]] = [[None] * (hi - lo) for _ in range(K)]
            steps = track(range(K * (hi - lo)), total=K * (hi - lo), desc="METEOR",
                          min_total=500 if show else 1 << 62)
            for step in steps:
                k, s = divmod(step, hi - lo)
                r = ref_ids[k][lo + s]
                if r is None:
                    continue
                h = hyp_ids[lo + s]
                if settled is None:
                    alignment = self._align_ids(h, r)
                else:
                    stage, matched = settled[k][0][lo + s], settled[k][1][lo + s]
                    alignment = sorted(matched) if stage == len(self.modules) or not h or not r \
                        else self._align_stages(h, r, stage, matched)
                rows[k][s] = self._row(h, r, alignment, fw)
                if keep_alignments:
                    aligns[k][s] = alignment
            bounded, self.bounded_searches = self.bounded_searches - before, before
            return rows, aligns, bounded

        bounds = self._ranges(hyp_ids, ref_ids)
        parts = _in_forks(task, bounds) if len(bounds) > 1 else [task(0, S, True)]
        self.bounded_searches += sum(part[2] for part in parts)
        rows: list[list[list[int] | None]] = [[row for part in parts for row in part[0][k]] for k in range(K)]
        aligns = [[a for part in parts for a in part[1][k]] for k in range(K)]
        zero = [0] * C
        if K == 1:
            best = [0] * S
            values = np.array([row if row is not None else zero for row in rows[0]], dtype=np.int64)
        else:
            stacked = np.array([row if row is not None else zero for col in rows for row in col],
                               dtype=np.int64).reshape(K, S, C)
            scores = self.compute_many(stacked.reshape(K * S, C)).reshape(K, S)
            scores[np.array([[row is None for row in col] for col in rows])] = -np.inf
            best_k = np.argmax(scores, axis=0)  # the first of equal scores, as the jar
            values = stacked[best_k, np.arange(S)]
            best = best_k.tolist()
        values = values.reshape(S, C)
        stats = SegmentStats(self._columns, values, {"nrefs": prepared.nrefs})
        kept = [(best[i], aligns[best[i]][i] or []) for i in range(S)] if keep_alignments else None
        return stats, kept, hyp_ids, prepared

    def _even_class_prefix(self) -> list[np.ndarray]:
        """Key codes (per word id) of the leading equivalence stages that
        :func:`.align.even_class_stages` settles for a corpus at once: 2005 only, and not with the
        stage cache (kept per segment) or stop words left out of the exact stage."""
        if self.variant != "2005" or self._stage_cache is not None or self.exclude_stopwords:
            return []
        vocab = self.vocabulary()
        out = []
        for matcher, key in zip(vocab.matchers, vocab.keys):
            if not matcher.single:
                break
            if matcher.name == "exact":
                out.append(np.arange(len(key), dtype=np.int64))
            else:
                codes: dict[Any, int] = {}
                out.append(np.fromiter((codes.setdefault(x, len(codes)) for x in key), np.int64, len(key)))
        return out

    def _ranges(self, hyp_ids: list[list[int]], ref_ids: list[list[list[int] | None]]
                ) -> list[tuple[int, int]]:
        """Segment ranges for the worker processes (one range: no extra process), of about equal
        numbers of words; see ``workers``."""
        S = len(hyp_ids)
        n = self.workers
        if n != 1:
            n = _usable_workers(n, S, self._stage_cache is None)
        if n <= 1:
            return [(0, S)]
        load = np.cumsum([len(h) + sum(len(col[i] or ()) for col in ref_ids) + 8
                          for i, h in enumerate(hyp_ids)])
        cuts = np.searchsorted(load, load[-1] * np.arange(1, n) / n).tolist()
        edges = [0, *cuts, S]
        return [(lo, hi) for lo, hi in zip(edges, edges[1:]) if hi > lo]

    def align_words(self, hyp: Sequence[str], ref: Sequence[str]) -> list[tuple[int, int, int]]:
        """The alignment of one tokenized pair as sorted (hyp index, ref index, module index)."""
        h, r = self.vocabulary().encode([hyp, ref])
        return self._align_ids(h, r)

    def _align_ids(self, h: list[int], r: list[int]) -> list[tuple[int, int, int]]:
        """The alignment of one pair given as word ids of :meth:`vocabulary`."""
        if not h or not r:
            return []
        if self.variant == "1.5":
            return self._align_jar(h, r)
        return self._align_stages(h, r)

    def _align_stages(self, h: list[int], r: list[int], start: int = 0,
                      before: list[tuple[int, int, int]] | None = None) -> list[tuple[int, int, int]]:
        """The 2005 aligner (§2.2): each module a stage over the words no earlier stage matched; within
        a stage the largest matching with the fewest crossings (:func:`.align.best_stage_matching`).
        ``start``, ``before``: begin at that stage, after these matches of the earlier ones."""
        vocab = self.vocabulary()
        matchers = vocab.matchers
        keys = vocab.keys
        nh, nr = len(h), len(r)
        stop = self.function_words() if self.exclude_stopwords else None
        matched: list[tuple[int, int, int]] = list(before or ())
        used_h = {i for i, _, _ in matched}
        used_r = {j for _, j, _ in matched}
        if matched and (len(used_h) == nh or len(used_r) == nr):
            return sorted(matched)
        cache = self._stage_cache
        pair = None
        if cache is not None:
            words = vocab.words
            pair = (tuple(words[x] for x in h), tuple(words[x] for x in r), self.exclude_stopwords,
                    self.language.code)
        for k in range(start, len(matchers)):
            matcher = matchers[k]
            if cache is not None:
                known = cache.get((self.modules[:k + 1], pair))
                if known is not None:  # the same stages on the same words: the same alignment
                    matched = list(known)
                    used_h = {i for i, _, _ in matched}
                    used_r = {j for _, j, _ in matched}
                    if len(used_h) == nh or len(used_r) == nr:
                        break
                    continue
            if matched:
                hp = [i for i in range(nh) if i not in used_h]
                rp = [j for j in range(nr) if j not in used_r]
            else:
                hp, rp = range(nh), range(nr)  # type: ignore[assignment]
            if stop is not None and matcher.name == "exact":  # §3.6: stop words skip the exact stage
                words = vocab.words
                hp = [i for i in hp if words[h[i]] not in stop]
                rp = [j for j in rp if words[r[j]] not in stop]
            key = keys[k]
            if matcher.single:
                # the classes of equal keys present on both sides: (hypothesis, reference) positions
                hv, rv = (h, r) if matcher.name == "exact" else ([key[x] for x in h], [key[y] for y in r])
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
                groups = [g for g in index.values() if g[0]]
                if not groups:
                    continue
                for a, b in groups:
                    if len(a) != len(b):
                        fixed = [(i, j) for i, j, _ in matched]
                        chosen = small_classes_choice(groups, fixed) or \
                            best_stage_matching([(a[0], b[0]) for a, b in groups], fixed, groups)
                        break
                else:  # each class pairs in order: what best_stage_matching returns for such classes
                    chosen = [e for a, b in groups for e in zip(a, b)]
            else:
                hk = _key_sets(vocab, k, h, hp)
                if not hk:
                    continue
                rk = _key_sets(vocab, k, r, rp)
                edges = [(i, j) for i, ks in hk for j, rks in rk if not ks.isdisjoint(rks)]
                if not edges:
                    continue
                chosen = best_stage_matching(edges, [(i, j) for i, j, _ in matched])
            matched.extend([(i, j, k) for i, j in chosen])
            used_h.update([i for i, _ in chosen])
            used_r.update([j for _, j in chosen])
            if cache is not None:
                cache[(self.modules[:k + 1], pair)] = tuple(matched)
            if len(used_h) == nh or len(used_r) == nr:
                break
        return sorted(matched)

    def jar_candidates(self, hyp: Sequence[str], ref: Sequence[str]) -> list[list[tuple[int, int]]]:
        """Variant 1.5: per reference word, its candidates (hyp index, module index) in the jar's order."""
        h, r = self.vocabulary().encode([hyp, ref])
        return self._jar_candidates(h, r)

    def _jar_candidates(self, h: list[int], r: list[int]) -> list[list[tuple[int, int]]]:
        vocab = self.vocabulary()
        # the jar: identical segments use the first module only
        use = vocab.matchers[:1] if h == r else vocab.matchers
        cands: list[list[tuple[int, int]]] = [[] for _ in r]
        for k, matcher in enumerate(use):
            exact = matcher.name == "exact"
            key = vocab.keys[k]
            if matcher.single:
                at: dict[Any, list[int]] = {}
                for i, x in enumerate(h):
                    at.setdefault(key[x], []).append(i)
                for j, y in enumerate(r):
                    hits = at.get(key[y])
                    if hits:
                        cands[j] += [(i, k) for i in hits] if exact else [(i, k) for i in hits if h[i] != y]
            else:  # other modules only for different words
                hk = [(i, x, ks) for i, (x, ks) in enumerate(zip(h, vocab.keys_of(k, h))) if ks]
                if not hk:
                    continue
                for j, (y, rks) in enumerate(zip(r, vocab.keys_of(k, r))):
                    if rks:
                        cands[j] += [(i, k) for i, x, ks in hk if x != y and not ks.isdisjoint(rks)]
        return cands

    def jar_align_weights(self) -> list[float]:
        """The weights the jar's aligner uses (``MeteorScorer``: 1 for exact, 0.5 for the others)."""
        return [1.0 if m == "exact" else 0.5 for m in self.modules]

    def _align_jar(self, h: list[int], r: list[int]) -> list[tuple[int, int, int]]:
        cands = self._jar_candidates(h, r)
        weights = self.jar_align_weights()
        if self.jar_beam is not None:
            return align_jar_beam(len(h), len(r), cands, weights, self.jar_beam)
        alignment, exact = align_jar(len(h), len(r), cands, weights)
        if not exact:
            self.bounded_searches += 1
        return alignment

    def _row(self, h: list[int], r: list[int], alignment: list[tuple[int, int, int]],
             fw: frozenset[str] | None) -> list[int]:
        """The statistics of one aligned pair (``alignment`` sorted, as the aligners return it)."""
        M = len(self.modules)
        m = len(alignment)
        # chunks (§2.3): runs of matches adjacent and in the same order on both sides
        chunks = 0
        pi = pj = -2
        for i, j, _ in alignment:
            if i != pi + 1 or j != pj + 1:
                chunks += 1
            pi, pj = i, j
        if self.variant == "1.5" and m == len(h) == len(r) and chunks == 1:
            chunks = 0  # the jar: a segment matched completely in one chunk has no fragmentation
        per = [0] * M
        for _, _, k in alignment:
            per[k] += 1
        row = [m, len(h), len(r), chunks, *per]
        if self.params.delta is not None:
            assert fw is not None
            words = self.vocabulary().words
            hf = [0] * M
            rf = [0] * M
            for i, j, k in alignment:
                hf[k] += words[h[i]] in fw
                rf[k] += words[r[j]] in fw
            row += [sum(words[x] in fw for x in h), sum(words[y] in fw for y in r), *hf, *rf]
        return row

    # ---- the score: a pure function of summed statistics ---------------------------------------

    def compute_many(self, totals: np.ndarray) -> np.ndarray:
        """METEOR (0–1) for each row of summed statistics."""
        t = np.atleast_2d(np.asarray(totals))
        if t.shape[1] != len(self._columns):
            raise ValueError(f"METEOR statistics have {len(self._columns)} columns, got {t.shape[1]}")
        return components(t, len(self.modules), self.params)["score"]

    def compute(self, totals: np.ndarray, meta: Mapping[str, str] | None = None) -> METEORResult:
        """The METEOR result for one summed row of statistics."""
        row = np.asarray(totals)
        if row.ndim != 1:
            raise ValueError("compute takes one summed row; use scores() for many rows")
        c = components(row[None, :], len(self.modules), self.params)
        return METEORResult(
            metric="METEOR", score=float(c["score"][0]), signature=self.signature(meta),
            precision=float(c["precision"][0]), recall=float(c["recall"][0]),
            fmean=float(c["fmean"][0]), penalty=float(c["penalty"][0]),
            fragmentation=float(c["fragmentation"][0]), chunks=int(row[3]), matches=int(row[0]),
            hyp_len=int(row[1]), ref_len=int(row[2]))

    def score_corpus(self, hyps: Sequence[str],
                     refs: Sequence[Sequence[str | None]] | PreparedReferences) -> METEORResult:
        """Corpus result with ``segments`` (each segment's score, statistics and alignment)."""
        stats, kept, hyp_words, prepared = self.align_corpus(hyps, refs, keep_alignments=True)
        assert kept is not None
        result = self.compute(stats.total(), stats.meta)
        comp = components(stats.values, len(self.modules), self.params)
        segments = []
        for s, (k, alignment) in enumerate(kept):
            hyp = hyp_words[s]
            ref = prepared.words[k][s] or []
            row = stats.values[s]
            segments.append(METEORSegment(
                score=float(comp["score"][s]), precision=float(comp["precision"][s]),
                recall=float(comp["recall"][s]), fmean=float(comp["fmean"][s]),
                penalty=float(comp["penalty"][s]), chunks=int(row[3]), matches=int(row[0]),
                hyp_len=int(row[1]), ref_len=int(row[2]), reference=k,
                alignment=tuple(WordMatch(i, j, self.modules[m], hyp[i], ref[j])
                                for i, j, m in alignment),
                hyp_words=tuple(hyp), ref_words=tuple(ref)))
        return METEORResult(**{**result.__dict__, "segments": tuple(segments)})

    def signature(self, meta: Mapping[str, str] | None = None) -> str:
        """``METEOR|variant:…|modules:…|weights:…|alpha:…|beta:…|gamma:…|delta:…|stop:…|nrefs:…|case:…|tok:…|lang:…|version:…``."""
        p = self.params
        parts = ["METEOR", f"variant:{self.variant}", f"modules:{'+'.join(self.modules)}",
                 f"weights:{'+'.join(f'{w:g}' for w in p.weights)}", f"alpha:{p.alpha:g}",
                 f"beta:{p.beta:g}", f"gamma:{p.gamma:g}",
                 f"delta:{'none' if p.delta is None else format(p.delta, 'g')}",
                 f"stop:{'yes' if self.exclude_stopwords else 'no'}",
                 *([f"search:{'exact' if self.jar_beam is None else f'beam{self.jar_beam}'}"]
                   if self.variant == "1.5" else []),
                 f"nrefs:{(meta or {}).get('nrefs', '?')}",
                 f"case:{'lc' if self.lowercase else 'mixed'}", f"tok:{self.tokenizer.signature()}",
                 f"lang:{self.language.code}", f"version:{__version__}"]
        return "|".join(parts)


#: fewest segments worth a process of their own
MIN_SEGMENTS_PER_WORKER = 250


def _usable_workers(requested: int, segments: int, shareable: bool) -> int:
    """How many processes to align with: ``requested``, or for 0 one per CPU not already busy (the
    available CPUs less the 1-minute load average, rounded); but only where forking is safe (Linux,
    no other thread running, no cache shared with other METEOR objects), and each process gets at
    least ``MIN_SEGMENTS_PER_WORKER`` segments."""
    if not shareable or not sys.platform.startswith("linux") or threading.active_count() > 1:
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    if requested == 0:
        requested = cpus - int(os.getloadavg()[0] + 0.5)
    return max(1, min(requested, cpus, segments // MIN_SEGMENTS_PER_WORKER))


def _in_forks(task: Callable[[int, int, bool], Any], bounds: list[tuple[int, int]]) -> list[Any]:
    """``task(lo, hi, show)`` for every range: the first here, the others in forked processes that
    send their result back (``marshal``: lists, tuples, ints, None). A process that fails has its
    range redone here, so the results are always those of running every range in this process."""
    import marshal

    children = []
    for lo, hi in bounds[1:]:
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: compute, send, leave without running the parent's exit handlers
            status = 1
            try:
                os.close(read_end)
                data = marshal.dumps(task(lo, hi, False))
                with os.fdopen(write_end, "wb") as out:
                    out.write(data)
                status = 0
            finally:
                os._exit(status)
        os.close(write_end)
        children.append((pid, read_end))
    results = []
    try:
        results.append(task(*bounds[0], True))
    finally:
        received = []
        for pid, read_end in children:
            with os.fdopen(read_end, "rb") as src:
                data = src.read()
            _, status = os.waitpid(pid, 0)
            received.append(data if os.waitstatus_to_exitcode(status) == 0 else b"")
    for (lo, hi), data in zip(bounds[1:], received):
        results.append(marshal.loads(data) if data else task(lo, hi, False))
    return results


def _key_sets(vocab: Vocabulary, k: int, ids: Sequence[int], positions: Iterable[int]
              ) -> list[tuple[int, Any]]:
    """(position, key set) of the words at ``positions`` that have keys under module k (a key-set
    module: wn_stem, synonym); keys computed on first use (:meth:`Vocabulary.keys_of`)."""
    positions = list(positions)
    sets = vocab.keys_of(k, [ids[p] for p in positions])
    return [(p, ks) for p, ks in zip(positions, sets) if ks]


def corpus_meteor(hyps: Sequence[str], refs: Sequence[Sequence[str | None]], *,
                  modules: Sequence[str] | str | None = None, variant: str = "2005",
                  alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5,
                  delta: float | None = None, weights: Sequence[float] | None = None,
                  tokenize: str | None = None, lowercase: bool = True,
                  exclude_stopwords: bool = False, language: str = "en") -> METEORResult:
    """Corpus METEOR of ``hyps`` against reference streams ``refs`` (``refs[k][i]``), with segments.

    * ``modules``: matching modules in order (``exact``, ``porter``, ``stem``, ``wn_stem``,
      ``synonym``; a sequence or ``"exact+porter"``); default the paper's exact → porter → synonym
      (for another ``language``: exact → stem, or exact where it has no Snowball stemmer);
    * ``variant``: ``"2005"`` (the paper's staged aligner) or ``"1.5"`` (the METEOR 1.5 jar's);
    * ``alpha``, ``beta``, ``gamma``: Fmean = PR/(αP + (1 − α)R), Penalty = γ·(chunks/m)^β;
    * ``delta``: content words weigh δ and function words 1 − δ (``None``: no distinction);
    * ``weights``: one per module, scaling its matches (default 1 each);
    * ``tokenize``: a BLEU tokenizer name (default ``13a``; zh: ``zh``, ja: ``ja-mecab``; ``none``
      for tokenized text); ``lowercase``: lowercase first (default, as METEOR);
    * ``exclude_stopwords``: leave the shipped function words out of the exact stage (§3.6);
    * ``language``: the target language (ISO 639-1, default ``en``), see :mod:`mtscore.languages`.

    The result's ``score`` is 0–1 (as the jar); ``segments`` holds one :class:`METEORSegment` per
    segment (score, statistics, kept reference, alignment).
    """
    metric = METEOR(modules=modules, variant=variant, alpha=alpha, beta=beta, gamma=gamma,
                    delta=delta, weights=weights, tokenize=tokenize, lowercase=lowercase,
                    exclude_stopwords=exclude_stopwords, language=language)
    return metric.score_corpus(hyps, refs)


def sentence_meteor(hyp: str, refs: Sequence[str] | str, *,
                    modules: Sequence[str] | str | None = None, variant: str = "2005",
                    alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5,
                    delta: float | None = None, weights: Sequence[float] | None = None,
                    tokenize: str | None = None, lowercase: bool = True,
                    exclude_stopwords: bool = False, language: str = "en") -> METEORResult:
    """METEOR of one hypothesis against its references (a string or a list of strings)."""
    return corpus_meteor([hyp], sentence_references(hyp, refs, "sentence_meteor"), modules=modules, variant=variant, alpha=alpha,
                         beta=beta, gamma=gamma, delta=delta, weights=weights, tokenize=tokenize,
                         lowercase=lowercase, exclude_stopwords=exclude_stopwords, language=language)
