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

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from ...errors import InputError, OptionError
from ...io.references import check_reference_streams, reference_count_label
from ...progress import track
from ...text.tokenizers import Tokenizer, get_tokenizer, preprocess
from ...version import __version__
from ..base import Metric, Score, SegmentStats, checked_inputs
from .align import align_jar, align_jar_beam, best_stage_matching, chunk_count
from .matchers import DEFAULT_MODULES, Matcher, check_modules, get_matcher
from .score import Parameters, columns, components

VARIANTS = ("2005", "1.5")


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
    words: list[list[list[str] | None]]
    segments: int
    nrefs: str


class METEOR(Metric[METEORResult]):
    """METEOR with the paper's defaults; ``extract``/``compute`` as in :mod:`mtscore.metrics.base`.

    Parameters as :func:`corpus_meteor`, plus ``jar_beam`` (variant 1.5 only): search with the jar's
    own beam of that width (40 reproduces the jar) instead of exactly.
    """

    name = "meteor"

    def __init__(self, *, modules: Sequence[str] | str = DEFAULT_MODULES, variant: str = "2005",
                 alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5,
                 delta: float | None = None, weights: Sequence[float] | None = None,
                 tokenize: str = "13a", lowercase: bool = True, exclude_stopwords: bool = False,
                 jar_beam: int | None = None,
                 stage_cache: dict[tuple[Any, ...], tuple[tuple[int, int, int], ...]] | None = None):
        self.modules = check_modules(modules)
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
        self.tokenizer: Tokenizer = get_tokenizer(tokenize)
        self.lowercase = bool(lowercase)
        self.exclude_stopwords = bool(exclude_stopwords)
        if jar_beam is not None and (variant != "1.5" or int(jar_beam) < 1):
            raise OptionError("jar_beam", jar_beam,
                              detail="a positive beam width, with variant 1.5 only")
        #: variant 1.5 only: search with the jar's own beam of this width instead of exactly
        self.jar_beam = None if jar_beam is None else int(jar_beam)
        self._matchers: list[Matcher] | None = None
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
            self._matchers = [get_matcher(m) for m in self.modules]
        return self._matchers

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
        return [line.split() for line in preprocess(lines, self.tokenizer, self.lowercase)]

    def prepare_references(self, refs: Sequence[Sequence[str | None]],
                           names: Sequence[str] | None = None) -> PreparedReferences:
        """Tokenize the references once (pass the result to ``extract`` as ``refs``)."""
        n = len(refs[0]) if refs and not isinstance(refs, str) and not isinstance(refs[0], str) \
            and hasattr(refs[0], "__len__") else 0
        streams = check_reference_streams(refs, n, names)
        words: list[list[list[str] | None]] = []
        for stream in streams:
            idx = [i for i, r in enumerate(stream) if r is not None]
            tok = self.tokenize([r for r in stream if r is not None])
            col: list[list[str] | None] = [None] * n
            for i, t in zip(idx, tok):
                col[i] = t
            words.append(col)
        return PreparedReferences(self.settings_key(), words, n, reference_count_label(streams))

    def _prepared(self, hyps: Sequence[str], refs: Any) -> tuple[list[str], PreparedReferences]:
        hyps, refs = checked_inputs(self, hyps, refs, PreparedReferences)
        return hyps, refs

    def extract(self, hyps: Sequence[str],
                refs: Sequence[Sequence[str | None]] | PreparedReferences) -> SegmentStats:
        """Per-segment statistics against the best reference (see :func:`.score.columns`)."""
        return self.align_corpus(hyps, refs, keep_alignments=False)[0]

    def align_corpus(self, hyps: Sequence[str],
                     refs: Sequence[Sequence[str | None]] | PreparedReferences,
                     keep_alignments: bool = True
                     ) -> tuple[SegmentStats, list[tuple[int, list[tuple[int, int, int]]]] | None,
                                list[list[str]], PreparedReferences]:
        """Statistics plus, per segment, (kept reference, alignment as (i, j, module index))."""
        hyps, prepared = self._prepared(hyps, refs)
        hyp_words = self.tokenize(hyps)
        S, K, C = len(hyps), len(prepared.words), len(self._columns)
        rows = np.zeros((K, S, C), dtype=np.int64)
        present = np.zeros((K, S), dtype=bool)
        aligns: list[list[list[tuple[int, int, int]] | None]] = [[None] * S for _ in range(K)]
        self.matchers()
        fw = self.function_words() if (self.params.delta is not None or self.exclude_stopwords) else None
        for i in track(range(S), total=S, desc="METEOR", min_total=500):
            hyp = hyp_words[i]
            for k in range(K):
                ref = prepared.words[k][i]
                if ref is None:
                    continue
                alignment = self.align_words(hyp, ref)
                rows[k, i] = self._row(hyp, ref, alignment, fw)
                present[k, i] = True
                if keep_alignments:
                    aligns[k][i] = alignment
        if K == 1:
            best = np.zeros(S, dtype=np.int64)
        else:
            scores = self.scores(rows.reshape(K * S, C)).reshape(K, S)
            scores[~present] = -np.inf
            best = np.argmax(scores, axis=0)  # the first of equal scores, as the jar
        values = rows[best, np.arange(S)]
        stats = SegmentStats(self._columns, values, {"nrefs": prepared.nrefs})
        kept = [(int(best[i]), aligns[best[i]][i] or []) for i in range(S)] if keep_alignments else None
        return stats, kept, hyp_words, prepared

    def align_words(self, hyp: Sequence[str], ref: Sequence[str]) -> list[tuple[int, int, int]]:
        """The alignment of one tokenized pair as sorted (hyp index, ref index, module index)."""
        if not hyp or not ref:
            return []
        matchers = self.matchers()
        if self.variant == "1.5":
            return self._align_jar(hyp, ref, matchers)
        stop = self.function_words() if self.exclude_stopwords else None
        matched: list[tuple[int, int, int]] = []
        used_h: set[int] = set()
        used_r: set[int] = set()
        cache = self._stage_cache
        pair = (tuple(hyp), tuple(ref), self.exclude_stopwords) if cache is not None else None
        for k, matcher in enumerate(matchers):
            if cache is not None:
                known = cache.get((self.modules[:k + 1], pair))
                if known is not None:  # the same stages on the same words: the same alignment
                    matched = list(known)
                    used_h = {i for i, _, _ in matched}
                    used_r = {j for _, j, _ in matched}
                    if len(used_h) == len(hyp) or len(used_r) == len(ref):
                        break
                    continue
            hp = [i for i in range(len(hyp)) if i not in used_h]
            rp = [j for j in range(len(ref)) if j not in used_r]
            if stop is not None and matcher.name == "exact":  # §3.6: stop words skip the exact stage
                hp = [i for i in hp if hyp[i] not in stop]
                rp = [j for j in rp if ref[j] not in stop]
            if matcher.single:
                groups = matcher.groups(hyp, ref, hp, rp)
                if not groups:
                    continue
                if all(len(h) == 1 and len(r) == 1 for h, r in groups):
                    chosen = [(h[0], r[0]) for h, r in groups]
                else:
                    chosen = best_stage_matching([(h[0], r[0]) for h, r in groups],
                                                 [(i, j) for i, j, _ in matched], groups)
            else:
                edges = matcher.pairs(hyp, ref, hp, rp)
                if not edges:
                    continue
                chosen = best_stage_matching(edges, [(i, j) for i, j, _ in matched])
            for i, j in chosen:
                matched.append((i, j, k))
                used_h.add(i)
                used_r.add(j)
            if cache is not None:
                cache[(self.modules[:k + 1], pair)] = tuple(matched)
            if len(used_h) == len(hyp) or len(used_r) == len(ref):
                break
        return sorted(matched)

    def jar_candidates(self, hyp: Sequence[str], ref: Sequence[str]) -> list[list[tuple[int, int]]]:
        """Variant 1.5: per reference word, its candidates (hyp index, module index) in the jar's order."""
        matchers = self.matchers()
        # the jar: identical segments use the first module only
        use = matchers[:1] if list(hyp) == list(ref) else matchers
        cands: list[list[tuple[int, int]]] = [[] for _ in ref]
        all_h, all_r = list(range(len(hyp))), list(range(len(ref)))
        for k, matcher in enumerate(use):
            exact = matcher.name == "exact"
            for i, j in matcher.pairs(hyp, ref, all_h, all_r):
                if exact or hyp[i] != ref[j]:  # other modules only for different words
                    cands[j].append((i, k))
        return cands

    def jar_align_weights(self) -> list[float]:
        """The weights the jar's aligner uses (``MeteorScorer``: 1 for exact, 0.5 for the others)."""
        return [1.0 if m == "exact" else 0.5 for m in self.modules]

    def _align_jar(self, hyp: Sequence[str], ref: Sequence[str],
                   matchers: list[Matcher]) -> list[tuple[int, int, int]]:
        cands = self.jar_candidates(hyp, ref)
        weights = self.jar_align_weights()
        if self.jar_beam is not None:
            return align_jar_beam(len(hyp), len(ref), cands, weights, self.jar_beam)
        alignment, exact = align_jar(len(hyp), len(ref), cands, weights)
        if not exact:
            self.bounded_searches += 1
        return alignment

    def _row(self, hyp: Sequence[str], ref: Sequence[str], alignment: list[tuple[int, int, int]],
             fw: frozenset[str] | None) -> list[int]:
        M = len(self.modules)
        m = len(alignment)
        chunks = chunk_count([(i, j) for i, j, _ in alignment])
        if self.variant == "1.5" and m == len(hyp) == len(ref) and chunks == 1:
            chunks = 0  # the jar: a segment matched completely in one chunk has no fragmentation
        per = [0] * M
        for _, _, k in alignment:
            per[k] += 1
        row = [m, len(hyp), len(ref), chunks, *per]
        if self.params.delta is not None:
            assert fw is not None
            hf = [0] * M
            rf = [0] * M
            for i, j, k in alignment:
                hf[k] += hyp[i] in fw
                rf[k] += ref[j] in fw
            row += [sum(w in fw for w in hyp), sum(w in fw for w in ref), *hf, *rf]
        return row

    # ---- the score: a pure function of summed statistics ---------------------------------------

    def scores(self, totals: np.ndarray) -> np.ndarray:
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
        """``METEOR|variant:…|modules:…|weights:…|alpha:…|beta:…|gamma:…|delta:…|stop:…|nrefs:…|case:…|tok:…|version:…``."""
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
                 f"version:{__version__}"]
        return "|".join(parts)


def corpus_meteor(hyps: Sequence[str], refs: Sequence[Sequence[str | None]], *,
                  modules: Sequence[str] | str = DEFAULT_MODULES, variant: str = "2005",
                  alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5,
                  delta: float | None = None, weights: Sequence[float] | None = None,
                  tokenize: str = "13a", lowercase: bool = True,
                  exclude_stopwords: bool = False) -> METEORResult:
    """Corpus METEOR of ``hyps`` against reference streams ``refs`` (``refs[k][i]``), with segments.

    * ``modules``: matching modules in order (``exact``, ``porter``, ``stem``, ``wn_stem``,
      ``synonym``; a sequence or ``"exact+porter"``); default the paper's exact → porter → synonym;
    * ``variant``: ``"2005"`` (the paper's staged aligner) or ``"1.5"`` (the METEOR 1.5 jar's);
    * ``alpha``, ``beta``, ``gamma``: Fmean = PR/(αP + (1 − α)R), Penalty = γ·(chunks/m)^β;
    * ``delta``: content words weigh δ and function words 1 − δ (``None``: no distinction);
    * ``weights``: one per module, scaling its matches (default 1 each);
    * ``tokenize``: a BLEU tokenizer name (default ``13a``; ``none`` for tokenized text);
      ``lowercase``: lowercase first (default, as METEOR);
    * ``exclude_stopwords``: leave the shipped function words out of the exact stage (§3.6).

    The result's ``score`` is 0–1 (as the jar); ``segments`` holds one :class:`METEORSegment` per
    segment (score, statistics, kept reference, alignment).
    """
    metric = METEOR(modules=modules, variant=variant, alpha=alpha, beta=beta, gamma=gamma,
                    delta=delta, weights=weights, tokenize=tokenize, lowercase=lowercase,
                    exclude_stopwords=exclude_stopwords)
    return metric.score_corpus(hyps, refs)


def sentence_meteor(hyp: str, refs: Sequence[str] | str, *,
                    modules: Sequence[str] | str = DEFAULT_MODULES, variant: str = "2005",
                    alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5,
                    delta: float | None = None, weights: Sequence[float] | None = None,
                    tokenize: str = "13a", lowercase: bool = True,
                    exclude_stopwords: bool = False) -> METEORResult:
    """METEOR of one hypothesis against its references (a string or a list of strings)."""
    if not isinstance(hyp, str):
        raise InputError(f"the hypothesis must be a string, got {type(hyp).__name__}")
    if isinstance(refs, str):
        refs = [refs]
    if not refs:
        raise InputError("sentence_meteor needs at least one reference")
    return corpus_meteor([hyp], [[r] for r in refs], modules=modules, variant=variant, alpha=alpha,
                         beta=beta, gamma=gamma, delta=delta, weights=weights, tokenize=tokenize,
                         lowercase=lowercase, exclude_stopwords=exclude_stopwords)
