"""METEOR 1.5's paraphrase module and the jar's tasks (Denkowski & Lavie 2010, 2014; ``meteor-1.5.jar``).

Paraphrase matching (``ParaphraseMatcher``): every word gets its id in the paraphrase table
(:mod:`mtscore.lexicon.paraphrase`; -1 when no entry has it). For each reference position, every
table phrase that starts there (shortest first, then in file order) is looked for, through each of
its paraphrases, at every hypothesis position; then the same from the hypothesis side. Each hit is a
phrase match (:data:`.align.phrases.Phrase`) listed at its reference start, after the other modules'
one-word candidates. Unlike the other modules it does not skip identical words.

Statistics: a phrase match covers different numbers of words on the two sides, so a METEOR with the
paraphrase module records both (:func:`statistics_row`): hypothesis-side matches per module as
``matches_<module>`` (their sum ``matches``), reference-side ones as ``ref_matches_<module>``
(``ref_matches``), after the function-word columns; fragmentation is chunks over the mean of the two
(the jar's ``MeteorScorer``).

Tasks (``Constants.java``, English; ``-t`` of the jar): α β γ δ and the module weights (exact, stem,
synonym, paraphrase) of each, :data:`TASKS`. ``rank`` is the jar's default.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .align.phrases import Phrase, fixed_phrases
from .matchers import paraphrase_module
from .score import count_phrase_chunks

if TYPE_CHECKING:
    from ...lexicon.paraphrase import ParaphraseTable
    from .matchers import Vocabulary
    from .metric import METEOR


@dataclass(frozen=True)
class Task:
    """A jar task: α, β, γ, δ and one weight per module of :data:`TASK_MODULES`."""

    name: str
    description: str
    alpha: float
    beta: float
    gamma: float
    delta: float
    weights: tuple[float, float, float, float]


#: the jar's English modules for every task
TASK_MODULES = ("exact", "stem", "synonym", "paraphrase")

#: ``Constants.java``: PARAM_* and WEIGHT_* for English; ``li`` and ``tune`` are language-independent
TASKS: dict[str, Task] = {t.name: t for t in (
    Task("rank", "Ranking (the jar's default)", 0.85, 0.20, 0.60, 0.75, (1.0, 0.6, 0.8, 0.6)),
    Task("adq", "Adequacy", 0.75, 1.40, 0.45, 0.70, (1.0, 1.0, 0.6, 0.8)),
    Task("hter", "HTER", 0.40, 1.50, 0.35, 0.55, (1.0, 0.2, 0.6, 0.8)),
    Task("li", "Language-Independent", 0.75, 1.40, 0.70, 0.50, (1.0, 0.5, 0.5, 0.5)),
    Task("tune", "Tune", 0.5, 1.0, 0.5, 0.5, (1.0, 0.5, 0.5, 0.5)),
)}


def paraphrase_matches(table: ParaphraseTable, h: Sequence[int], r: Sequence[int], k: int
                       ) -> list[list[Phrase]]:
    """Per reference position, the paraphrase module's matches (module index ``k``) in the jar's order,
    ``h``/``r`` being the words' table ids."""
    cands: list[list[Phrase]] = [[] for _ in r]
    at_h: dict[int, list[int]] = {}
    for i, x in enumerate(h):
        at_h.setdefault(x, []).append(i)
    at_r: dict[int, list[int]] = {}
    for j, y in enumerate(r):
        at_r.setdefault(y, []).append(j)
    th, tr = tuple(h), tuple(r)
    for j, paths in enumerate(table.paths(tr)):  # paraphrases in the hypothesis of reference phrases
        for n, words in paths:
            for i in at_h.get(words[0], ()):
                if th[i:i + len(words)] == words:
                    cands[j].append((j, n, i, len(words), k))
    for i, paths in enumerate(table.paths(th)):  # paraphrases in the reference of hypothesis phrases
        for n, words in paths:
            for j in at_r.get(words[0], ()):
                if tr[j:j + len(words)] == words:
                    cands[j].append((j, len(words), i, n, k))
    return cands


def phrase_candidates(metric: METEOR, vocab: Vocabulary, h: list[int], r: list[int]
                      ) -> list[list[Phrase]]:
    """Every module's candidates, per reference position, in the jar's order (module by module; a
    segment identical to its reference uses the first module only)."""
    from .segments import jar_candidates

    words = [[(j, 1, i, 1, k) for i, k in cs] for j, cs in enumerate(jar_candidates(vocab, h, r))]
    k = paraphrase_module(metric.modules)
    if k is None or h == r:
        return words
    key = vocab.keys[k]
    for j, ms in enumerate(paraphrase_matches(metric.paraphrase_table(), [key[x] for x in h],
                                              [key[y] for y in r], k)):
        words[j].extend(ms)
    return words


def align_phrase_segment(metric: METEOR, h: list[int], r: list[int]) -> tuple[list[Phrase], bool]:
    """Variant 1.5 with the paraphrase module: the jar's alignment of one pair (exactly, or with the
    jar's beam), as phrase matches sorted by reference start, and whether a fallback was used (a side
    longer than ``JAR_WORDS``: the definite matches only). A search bounded by ``STATE_CAP`` counts
    in ``metric.bounded_searches``."""
    from .align.jar import JAR_WORDS
    from .align.phrases import align_phrases, align_phrases_beam
    from .align.phrases_beam import align_phrases_beam_fast
    from .segments import search_jar_objective

    vocab = metric.vocabulary()
    cands = phrase_candidates(metric, vocab, h, r)
    if max(len(h), len(r)) > JAR_WORDS:
        fixed = fixed_phrases(len(h), len(r), cands)
        return sorted(fixed.values()), True
    beam_search = align_phrases_beam_fast if metric.fast else align_phrases_beam
    return search_jar_objective(metric, beam_search, align_phrases, len(h), len(r), cands), False


def align_phrase_segments(metric: METEOR, pairs: Sequence[tuple[list[int], list[int]]]
                          ) -> list[tuple[list[Phrase], bool]]:
    """:func:`align_phrase_segment` of every pair (empty sides: no match). With the jar's beam and
    ``fast``, the candidates and paraphrase matches of all the pairs are found together as arrays
    and their searches run together (:mod:`.paraphrase_segments`), equal to the rules pair by pair."""
    if metric.beam_width is None or not metric.fast:
        return [align_phrase_segment(metric, h, r) if h and r else ([], False) for h, r in pairs]
    from .paraphrase_segments import align_phrase_segments_batch

    return align_phrase_segments_batch(metric, pairs)


def statistics_row(metric: METEOR, h: list[int], r: list[int], alignment: Sequence[Phrase],
                   function_words: frozenset[str] | None) -> list[int]:
    """The statistics of one pair aligned with phrase matches (columns of :func:`.score.columns`
    with ``two_sided``): hypothesis-side matches, lengths, chunks, hypothesis-side matches per module,
    the function-word counts with δ, then reference-side matches (total and per module). A pair
    matched completely in one chunk records 0 chunks (the jar: no fragmentation)."""
    n_modules = len(metric.modules)
    hyp_per, ref_per = [0] * n_modules, [0] * n_modules
    for _, rl, _, hl, k in alignment:
        hyp_per[k] += hl
        ref_per[k] += rl
    hm, rm = sum(hyp_per), sum(ref_per)
    chunks = count_phrase_chunks(alignment)
    if hm == len(h) and rm == len(r) and chunks == 1:
        chunks = 0
    row = [hm, len(h), len(r), chunks, *hyp_per]
    if metric.params.delta is not None:
        assert function_words is not None
        flag = _function_flags(metric.vocabulary().words, function_words)
        hf, rf = [0] * n_modules, [0] * n_modules
        for j, rl, i, hl, k in alignment:
            hf[k] += sum(map(flag.__getitem__, h[i:i + hl]))
            rf[k] += sum(map(flag.__getitem__, r[j:j + rl]))
        row += [sum(map(flag.__getitem__, h)), sum(map(flag.__getitem__, r)), *hf, *rf]
    return [*row, rm, *ref_per]


#: per (vocabulary word list, function-word list): whether each word id is a function word
_FLAGS: dict[tuple[int, int], tuple[list[str], frozenset[str], list[bool]]] = {}


def _function_flags(words: list[str], function_words: frozenset[str]) -> list[bool]:
    """Whether each word of a vocabulary (by id) is a function word, computed once per word (the
    list grows with the vocabulary)."""
    key = (id(words), id(function_words))
    known = _FLAGS.get(key)
    if known is None or known[0] is not words or known[1] is not function_words:
        if len(_FLAGS) >= 8:
            _FLAGS.clear()
        known = _FLAGS[key] = (words, function_words, [])
    flags = known[2]
    if len(flags) < len(words):
        flags.extend(w in function_words for w in words[len(flags):])
    return flags
