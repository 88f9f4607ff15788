"""METEOR (Banerjee & Lavie 2005) as an additive-statistics metric, with the METEOR 1.5 jar's variant.

* ``variant="2005"``: the paper. Modules run as stages (§2.2, :mod:`.align.stage`), P = m/|hyp|,
  R = m/|ref|, Fmean = 10PR/(R + 9P), Penalty = 0.5·(chunks/m)³ (§2.3), generalised with α, β, γ, δ and
  module weights as METEOR 1.x does (:mod:`.score`).
* ``variant="1.5"``: what the jar (``meteor-1.5.jar``) computes for the same parameters: every module
  proposes candidates at once and the jar's objective picks the alignment (:mod:`.align.jar`:
  searched exactly, or with the jar's own beam of 40 — the default with a jar ``task``), and a
  segment matched completely in one chunk has no penalty — recorded as 0 chunks in its statistics,
  so corpus sums stay exact (the jar's ``MeteorStats.addStats`` does the same).

Several references (§2.3 end): every reference is scored and the best-scoring one is kept (the first
on ties, as the jar); the corpus statistics are the sums of the kept references' statistics
(:mod:`.extract`).
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import OptionError
from ...io.references import check_reference_streams, reference_count_label
from ...languages import MeteorLanguage
from ...text.tokenizers import Tokenizer, get_tokenizer, preprocess
from ..base import Metric, SegmentStats, checked_inputs, sentence_references
from .matchers import Matcher, Vocabulary, get_matcher
from .results import METEORResult, METEORSegment, PreparedReferences, TextReferences, WordMatch
from .score import Parameters, columns, components, count_chunks, jar_chunks
from .settings import VARIANTS, METEORSettings
from .word_ids import WordIds

if TYPE_CHECKING:
    from ...text.span_encoder import SpanEncoder

#: below this many characters in all, segments are tokenized line by line and their words looked
#: up in the vocabulary's dict: cheaper than the byte path's fixed numpy cost (they break even at
#: about 8,000 characters, some 80 segments)
SMALL_CORPUS_CHARACTERS = 8000

__all__ = ["METEOR", "VARIANTS", "METEORResult", "METEORSegment", "PreparedReferences", "WordMatch",
           "corpus_meteor", "sentence_meteor"]


class METEOR(Metric[METEORResult]):
    """METEOR with the paper's defaults; ``extract``/``compute`` as in :mod:`mtscore.metrics.base`.

    Parameters as :func:`corpus_meteor`, plus ``stage_cache``: a dict shared
    by METEOR objects whose module lists start alike (2005); ``workers``: align a corpus in that many
    forked processes (Linux; 0: one per idle CPU; default None: as many as the corpus's work pays for,
    :mod:`.workers`) — identical results, less wall time;
    ``fast``: align the 2005 stages of a whole corpus at once with numpy (:mod:`.align.corpus`;
    default), and search the jar's beam over phrase candidates with :mod:`.align.phrases_batch`
    (a corpus) and :mod:`.align.phrases_beam` (one pair), and the 1.5 exact search of a corpus with
    :mod:`.align.jar_batch` — False aligns segment by segment (:mod:`.align.stage`) and runs the
    rules (:func:`.align.phrases.align_phrases_beam`, :func:`.align.jar.align_jar`), with
    identical results (``accelerate``: its old name, deprecated). The settings are
    :class:`.settings.METEORSettings` (frozen; :meth:`replace` makes a METEOR with others).

    Speed: every distinct word gets an id and, per module, its key once (:class:`.matchers.Vocabulary`);
    the synonym module reads :mod:`mtscore.lexicon.synonyms`.
    """

    name = "meteor"
    settings: METEORSettings
    #: the target language's resources (:func:`mtscore.languages.meteor_language`)
    language: MeteorLanguage
    modules: tuple[str, ...]
    params: Parameters
    variant: str
    tokenizer: Tokenizer
    lowercase: bool
    exclude_stopwords: bool
    search: str | None
    jar_beam: int | None
    #: the width of the jar's beam the 1.5 search uses (None: the exact search)
    beam_width: int | None
    #: the jar's task name (``rank`` ...), or None; the paraphrase table file (None: the default)
    task: str | None
    paraphrase: str | None
    #: the paraphrase module's phrase matches cover different numbers of words on each side
    two_sided: bool
    workers: int | None
    fast: bool

    def __init__(self, *, modules: Sequence[str] | str | None = None, variant: str = "2005",
                 alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5,
                 delta: float | None = None, weights: Sequence[float] | None = None,
                 tokenize: str | None = None, lowercase: bool = True, exclude_stopwords: bool = False,
                 language: str = "en",
                 jar_beam: int | None = None, task: str | None = None,
                 paraphrase: str | os.PathLike[str] | None = None, search: str | None = None,
                 stage_cache: dict[tuple[Any, ...], tuple[tuple[int, int, int], ...]] | None = None,
                 workers: int | None = None, fast: bool = True, accelerate: bool | None = None):
        if accelerate is not None:
            warnings.warn("METEOR(accelerate=...) is deprecated: use fast=...", DeprecationWarning,
                          stacklevel=2)
            fast = accelerate
        settings = METEORSettings(
            modules=modules, variant=variant, alpha=alpha, beta=beta, gamma=gamma, delta=delta,
            weights=weights, tokenize=tokenize, lowercase=lowercase,
            exclude_stopwords=exclude_stopwords, language=language, jar_beam=jar_beam,
            task=task, paraphrase=None if paraphrase is None else os.fspath(paraphrase),
            search=search, workers=workers, fast=fast)
        self._configure(settings, language=settings.target, modules=settings.module_names,
                        params=settings.params, tokenizer=get_tokenizer(settings.tokenizer_name),
                        two_sided=settings.two_sided, beam_width=settings.beam_width)
        #: 2005 variant: alignments after each stage, shared by METEOR objects whose module lists
        #: start alike (the module ablation aligns the exact stage once, not once per module set)
        self.stage_cache = stage_cache
        self._matchers: list[Matcher] | None = None
        self._vocab: Vocabulary | None = None
        self._encoder: SpanEncoder | None = None
        #: alignments (1.5) whose search hit ``align.jar.STATE_CAP`` and so may not be optimal
        #: (a runtime counter, not a setting)
        self.bounded_searches = 0
        self._function_words: frozenset[str] | None = None
        self._paraphrase_table: Any = None
        self._columns = columns(self.modules, self.params.delta is not None, self.two_sided)

    @property
    def accelerate(self) -> bool:
        """Deprecated name of ``fast``."""
        warnings.warn("METEOR.accelerate is deprecated: use fast", DeprecationWarning, stacklevel=2)
        return self.fast

    def _runtime(self) -> dict[str, Any]:
        return {"stage_cache": self.stage_cache}

    # ---- configuration -------------------------------------------------------------------------

    @property
    def columns(self) -> tuple[str, ...]:
        return self._columns

    def matchers(self) -> list[Matcher]:
        """The module matchers (WordNet is loaded here, on first use, if a module needs it)."""
        if self._matchers is None:
            self._matchers = [get_matcher(m, self.language.snowball, self.paraphrase_table()
                                          if m == "paraphrase" else None) for m in self.modules]
        return self._matchers

    def paraphrase_table(self) -> Any:
        """The paraphrase table (:func:`mtscore.lexicon.paraphrase.load_paraphrase_table`: from its
        cache, built on first use), loaded on first call."""
        if self._paraphrase_table is None:
            from ...lexicon.paraphrase import load_paraphrase_table

            self._paraphrase_table = load_paraphrase_table(self.settings.paraphrase)
        return self._paraphrase_table

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
        """The words of each segment (tokenized, lowercased if set; after tokenizing with a tokenizer
        whose rules look at case: ``meteor-norm``)."""
        if self.lowercase and getattr(self.tokenizer, "lowercase_after", False):
            return [line.lower().split() for line in preprocess(lines, self.tokenizer, False)]
        return [line.split() for line in preprocess(lines, self.tokenizer, self.lowercase)]

    def encode(self, lines: Sequence[str]) -> WordIds:
        """The word ids (in :meth:`vocabulary`) of each segment: ``vocabulary().encode(tokenize(lines))``,
        computed from the text's UTF-8 bytes where the tokenizer has a span kernel
        (:class:`mtscore.text.span_encoder.SpanEncoder`: one numpy pass, a token's text decoded
        only when it is new) and the corpus is not tiny; line by line otherwise (ja-mecab)."""
        if not lines:  # (tokenize([]) gives one empty segment: the regex tokenizers' joined text)
            return WordIds.of([])
        vocab = self.vocabulary()
        if sum(map(len, lines)) < SMALL_CORPUS_CHARACTERS or not self._uses_span_encoder():
            return WordIds.of(vocab.encode(self.tokenize(lines)))
        return WordIds(*vocab.encode_text(self._encoder, lines))  # type: ignore[arg-type]

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
        # every stream in one pass, then back in place
        ids = WordIds.of(self.encode([r for stream in streams for r in stream if r is not None])
                         ).spread(present, n)
        return PreparedReferences(self.settings_key(), n, reference_count_label(streams), ids,
                                  self.vocabulary())

    def prepare_chunk(self, refs: Sequence[Sequence[str | None]], corpus: Any, start: int) -> Any:
        """The command line's references (:meth:`.base.Metric.prepare_chunk`): where the corpus may
        be aligned in forked processes, checked but not encoded yet, for each process to encode its
        own range of segments (:mod:`.text_ranges`); else :meth:`prepare_references`."""
        from .text_ranges import may_split

        return TextReferences.of(self, refs) if may_split(self) else self.prepare_references(refs)

    def _prepared(self, hyps: Sequence[str], refs: Any) -> tuple[list[str], PreparedReferences]:
        hyps, refs = checked_inputs(self, hyps, refs, PreparedReferences)
        return hyps, refs

    def extract(self, hyps: Sequence[str],
                refs: Sequence[Sequence[str | None]] | PreparedReferences) -> SegmentStats:
        """Per-segment statistics against the best reference (see :func:`.score.columns`)."""
        if isinstance(refs, TextReferences):
            from .text_ranges import extract_text

            return extract_text(self, hyps, refs)
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
        return stats, kept, [[words[x] for x in h or ()] for h in hyp_ids], prepared

    def _align_corpus(self, hyps: Sequence[str],
                      refs: Sequence[Sequence[str | None]] | PreparedReferences,
                      keep_alignments: bool
                      ) -> tuple[SegmentStats, list[tuple[int, list[tuple[int, int, int]]]] | None,
                                 WordIds, PreparedReferences]:
        """:meth:`align_corpus` with the hypotheses as word ids."""
        from .extract import align_corpus

        hyps, prepared = self._prepared(hyps, refs)
        vocab = self.vocabulary()
        if prepared.vocabulary is vocab:
            ref_ids = prepared.ids  # per reference stream, None where it is missing
        else:  # prepared by another METEOR object (same tokenizer and case): its words, our ids
            ref_ids = [WordIds.of([None if r is None else ids for r, ids in zip(stream, vocab.encode(
                [r or [] for r in stream]))]) for stream in prepared.words]
        hyp_ids = self.encode(hyps)
        stats, kept = align_corpus(self, hyp_ids, ref_ids, prepared, keep_alignments)
        return stats, kept, hyp_ids, prepared

    def align_words(self, hyp: Sequence[str], ref: Sequence[str]) -> list[tuple[int, int, int]]:
        """The alignment of one tokenized pair as sorted (hyp index, ref index, module index)."""
        from .extract import align_ids

        h, r = self.vocabulary().encode([hyp, ref])
        return align_ids(self, h, r)[0]

    def jar_candidates(self, hyp: Sequence[str], ref: Sequence[str]) -> list[list[tuple[int, int]]]:
        """Variant 1.5: per reference word, its candidates (hyp index, module index) in the jar's order."""
        from .segments import jar_candidates

        vocab = self.vocabulary()
        h, r = vocab.encode([hyp, ref])
        return jar_candidates(vocab, h, r)

    def jar_align_weights(self) -> list[float]:
        """The weights the jar's aligner uses (``MeteorScorer``: 1 for exact, 0.5 for the others)."""
        return [1.0 if m == "exact" else 0.5 for m in self.modules]

    def statistics_row(self, h: list[int], r: list[int], alignment: list[tuple[int, int, int]],
                       function_words: frozenset[str] | None) -> list[int]:
        """The statistics of one aligned pair (``alignment`` sorted, as the aligners return it):
        matches, lengths, chunks (§2.3, :func:`.score.count_chunks`), matches per module, and with
        δ the function-word counts (with the paraphrase module: :func:`.paraphrase.statistics_row`)."""
        if self.two_sided:
            from .paraphrase import statistics_row

            return statistics_row(self, h, r, alignment, function_words)  # type: ignore[arg-type]
        n_modules = len(self.modules)
        m = len(alignment)
        chunks = count_chunks(alignment)
        if self.variant == "1.5":
            chunks = int(jar_chunks(chunks, m, len(h), len(r)))
        per = [0] * n_modules
        for _, _, k in alignment:
            per[k] += 1
        row = [m, len(h), len(r), chunks, *per]
        if self.params.delta is not None:
            assert function_words is not None
            words = self.vocabulary().words
            hf, rf = [0] * n_modules, [0] * n_modules
            for i, j, k in alignment:
                hf[k] += words[h[i]] in function_words
                rf[k] += words[r[j]] in function_words
            row += [sum(words[x] in function_words for x in h),
                    sum(words[y] in function_words for y in r), *hf, *rf]
        return row

    # ---- the score: a pure function of summed statistics ---------------------------------------

    def compute_many(self, totals: np.ndarray) -> np.ndarray:
        """METEOR (0–1) for each row of summed statistics."""
        t = np.atleast_2d(np.asarray(totals))
        if t.shape[1] != len(self._columns):
            raise ValueError(f"METEOR statistics have {len(self._columns)} columns, got {t.shape[1]}")
        return components(t, len(self.modules), self.params, self.two_sided)["score"]

    def compute(self, totals: np.ndarray, meta: Mapping[str, str] | None = None) -> METEORResult:
        """The METEOR result for one summed row of statistics."""
        row = np.asarray(totals)
        if row.ndim != 1:
            raise ValueError("compute takes one summed row; use scores() for many rows")
        c = components(row[None, :], len(self.modules), self.params, self.two_sided)
        return METEORResult(
            metric="METEOR", score=float(c["score"][0]), signature=self.signature(meta),
            precision=float(c["precision"][0]), recall=float(c["recall"][0]),
            fmean=float(c["fmean"][0]), penalty=float(c["penalty"][0]),
            fragmentation=float(c["fragmentation"][0]), chunks=int(row[3]), matches=int(row[0]),
            hyp_len=int(row[1]), ref_len=int(row[2]),
            fallback_segments=int((meta or {}).get("fallback_segments", 0)))

    def score_corpus(self, hyps: Sequence[str],
                     refs: Sequence[Sequence[str | None]] | PreparedReferences) -> METEORResult:
        """Corpus result with ``segments`` (each segment's score, statistics and alignment)."""
        stats, kept, hyp_words, prepared = self.align_corpus(hyps, refs, keep_alignments=True)
        assert kept is not None
        result = self.compute(stats.total(), stats.meta)
        return METEORResult(**{**result.__dict__, "segments": self._segments(stats, kept, hyp_words,
                                                                               prepared)})

    def _segments(self, stats: SegmentStats, kept: list[tuple[int, list[tuple[int, int, int]]]],
                  hyp_words: list[list[str]], prepared: PreparedReferences) -> tuple[METEORSegment, ...]:
        """One :class:`METEORSegment` per segment: its score, statistics, kept reference, alignment."""
        comp = components(stats.values, len(self.modules), self.params, self.two_sided)
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
                alignment=_word_matches(alignment, self.modules, hyp, ref),
                hyp_words=tuple(hyp), ref_words=tuple(ref)))
        return tuple(segments)

    def pair_kernel(self) -> tuple[Any, Any] | None:
        """Pairwise scores by :mod:`mtscore.metrics.meteor.pairwise` (tested equal to the definition,
        with the paraphrase module too: ``tests/test_meteor_task_everywhere.py``)."""
        from . import pairwise as pairwise_meteor

        return pairwise_meteor.pair_scores, None


def _word_matches(alignment: Sequence[tuple[int, ...]], modules: Sequence[str], hyp: Sequence[str],
                  ref: Sequence[str]) -> tuple[WordMatch, ...]:
    """The :class:`WordMatch` of each match: (i, j, module) word pairs, or phrase matches
    (ref start, ref length, hyp start, hyp length, module) sorted by hypothesis start."""
    if not alignment or len(alignment[0]) == 3:
        return tuple(WordMatch(i, j, modules[m], hyp[i], ref[j]) for i, j, m in alignment)
    return tuple(WordMatch(i, j, modules[m], " ".join(hyp[i:i + hl]), " ".join(ref[j:j + rl]), hl, rl)
                 for j, rl, i, hl, m in sorted(alignment, key=lambda a: (a[2], a[0])))


def corpus_meteor(hyps: Sequence[str], refs: Sequence[Sequence[str | None]], *,
                  modules: Sequence[str] | str | None = None, variant: str = "2005",
                  alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5,
                  delta: float | None = None, weights: Sequence[float] | None = None,
                  tokenize: str | None = None, lowercase: bool = True,
                  exclude_stopwords: bool = False, language: str = "en", task: str | None = None,
                  paraphrase: str | os.PathLike[str] | None = None, search: str | None = None,
                  jar_beam: int | None = None) -> METEORResult:
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
    * ``language``: the target language (ISO 639-1, default ``en``), see :mod:`mtscore.languages`;
    * ``task``: the METEOR 1.5 jar's task (``rank``, ``adq``, ``hter``, ``li``, ``tune``; variant
      1.5): its α β γ δ, module weights, modules exact stem synonym paraphrase and its ``-norm``
      tokenizer (:mod:`.paraphrase`); ``paraphrase``: the paraphrase table file (default: the one of
      an installed ``pycocoevalcap``);
    * ``search`` (variant 1.5): ``beam``, the jar's own beam search (width ``jar_beam``, default 40:
      the jar's numbers), or ``exact``, the jar's objective maximised exactly; default ``beam`` with
      a task (the jar's run), ``exact`` without.

    The result's ``score`` is 0–1 (as the jar); ``segments`` holds one :class:`METEORSegment` per
    segment (score, statistics, kept reference, alignment).
    """
    metric = METEOR(modules=modules, variant=variant, alpha=alpha, beta=beta, gamma=gamma,
                    delta=delta, weights=weights, tokenize=tokenize, lowercase=lowercase,
                    exclude_stopwords=exclude_stopwords, language=language, task=task,
                    paraphrase=paraphrase, search=search, jar_beam=jar_beam)
    return metric.score_corpus(hyps, refs)


def sentence_meteor(hyp: str, refs: Sequence[str] | str, *,
                    modules: Sequence[str] | str | None = None, variant: str = "2005",
                    alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5,
                    delta: float | None = None, weights: Sequence[float] | None = None,
                    tokenize: str | None = None, lowercase: bool = True,
                    exclude_stopwords: bool = False, language: str = "en", task: str | None = None,
                    paraphrase: str | os.PathLike[str] | None = None, search: str | None = None,
                    jar_beam: int | None = None) -> METEORResult:
    """METEOR of one hypothesis against its references (a string or a list of strings); the
    settings as :func:`corpus_meteor`."""
    return corpus_meteor([hyp], sentence_references(hyp, refs, "sentence_meteor"), modules=modules,
                         variant=variant, alpha=alpha, beta=beta, gamma=gamma, delta=delta,
                         weights=weights, tokenize=tokenize, lowercase=lowercase,
                         exclude_stopwords=exclude_stopwords, language=language, task=task,
                         paraphrase=paraphrase, search=search, jar_beam=jar_beam)
