"""Texts as token ids, for the whole corpus at once: what the ROUGE kernels read."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from .code_units import CorpusSpans, corpus_spans
from .tokenize import Stems


@dataclass(frozen=True, eq=False)
class EncodedTexts:
    """One token-id sequence per text, concatenated; missing texts (``None`` references) are
    empty and not ``present``. With sentences (ROUGE-Lsum), ``sentence_lengths`` holds the tokens
    of every sentence in order and ``sentence_counts`` the sentences of every text."""

    ids: np.ndarray
    lengths: np.ndarray
    present: np.ndarray
    sentence_lengths: np.ndarray | None = None
    sentence_counts: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.lengths)

    def starts(self) -> np.ndarray:
        """Where each text's tokens start in ``ids``."""
        return np.concatenate(([0], np.cumsum(self.lengths)[:-1])).astype(np.int64)

    def without_sentences(self) -> EncodedTexts:
        """The same tokens as whole texts (a text's tokens are its sentences' tokens in order)."""
        return replace(self, sentence_lengths=None, sentence_counts=None)

    def token_lists(self) -> list[list[int]]:
        """Every text's ids as a Python list (for the rules)."""
        flat = self.ids.tolist()
        out, pos = [], 0
        for n in self.lengths.tolist():
            out.append(flat[pos:pos + n])
            pos += n
        return out

    def split(self, sizes: Sequence[int]) -> list[EncodedTexts]:
        """The texts cut into consecutive groups of these sizes."""
        out = []
        text = token = sentence = 0
        for size in sizes:
            lengths = self.lengths[text:text + size]
            tokens = int(lengths.sum())
            part = EncodedTexts(self.ids[token:token + tokens], lengths,
                                self.present[text:text + size])
            if self.sentence_counts is not None and self.sentence_lengths is not None:
                counts = self.sentence_counts[text:text + size]
                many = int(counts.sum())
                part = replace(part, sentence_lengths=self.sentence_lengths[sentence:sentence + many],
                               sentence_counts=counts)
                sentence += many
            out.append(part)
            text, token = text + size, token + tokens
        return out

    def sentence_lists(self) -> list[list[list[int]]]:
        """Every text's sentences, each a list of ids (for the rules; Lsum only)."""
        assert self.sentence_lengths is not None and self.sentence_counts is not None
        flat, sent = self.ids.tolist(), self.sentence_lengths.tolist()
        out, pos, s = [], 0, 0
        for count in self.sentence_counts.tolist():
            text = []
            for n in sent[s:s + count]:
                text.append(flat[pos:pos + n])
                pos += n
            s += count
            out.append(text)
        return out


class Vocabulary:
    """Token -> id, growing as texts are encoded."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}

    def encode(self, texts: Sequence[str | None], tokens_of: Callable[[str], list[str]],
               split: Callable[[str], list[str]] | None = None) -> EncodedTexts:
        """The ids of ``texts`` (sentence by sentence when ``split`` is given)."""
        ids = self.ids
        flat: list[int] = []
        lengths, present, sent_lengths, sent_counts = [], [], [], []
        for text in texts:
            present.append(text is not None)
            if text is None:
                lengths.append(0)
                sent_counts.append(0)
                continue
            start = len(flat)
            pieces = [text] if split is None else split(text)
            for piece in pieces:
                tokens = tokens_of(piece)
                flat.extend([ids.setdefault(t, len(ids)) for t in tokens])
                sent_lengths.append(len(tokens))
            lengths.append(len(flat) - start)
            sent_counts.append(len(pieces))
        as_int = np.asarray
        return EncodedTexts(as_int(flat, dtype=np.int64), as_int(lengths, dtype=np.int64),
                            as_int(present, dtype=bool),
                            None if split is None else as_int(sent_lengths, dtype=np.int64),
                            None if split is None else as_int(sent_counts, dtype=np.int64))


class ByteVocabulary(Vocabulary):
    """A :class:`Vocabulary` that also interns byte spans (rouge-score's tokenizer over the whole
    corpus, :func:`encode_rouge_score`); with the stemmer, token ids map to stem ids."""

    def __init__(self) -> None:
        from ...text.interning import TokenInterner

        super().__init__()
        self.interner = TokenInterner()
        self.stem_of = np.zeros(0, dtype=np.int64)  # interned id -> stem id (-3: dropped)


def _stem_ids(vocabulary: ByteVocabulary, data: bytes, ids: np.ndarray, starts: np.ndarray,
              ends: np.ndarray, stems: Stems) -> np.ndarray:
    """The stem id of every token: each distinct token not stemmed before is read from one of its
    occurrences (all hold the same bytes) and stemmed once."""
    size = vocabulary.interner.size
    if len(vocabulary.stem_of) < size:
        grown = np.full(size, -4, dtype=np.int64)
        grown[:len(vocabulary.stem_of)] = vocabulary.stem_of
        vocabulary.stem_of = grown
    todo = np.flatnonzero(vocabulary.stem_of == -4)  # ids new in this call: all occur in ``ids``
    if len(todo):
        where = np.empty(size, dtype=np.int64)
        where[ids] = np.arange(len(ids), dtype=np.int64)  # an occurrence of every id of the call
        first = where[todo]
        words = [data[s:e].decode("ascii") for s, e in zip(starts[first].tolist(),
                                                             ends[first].tolist())]
        table = vocabulary.ids
        out = [-3 if stem is None else table.setdefault(stem, len(table))
               for stem in stems.valid(stems(words))]
        vocabulary.stem_of[todo] = out
    return vocabulary.stem_of[ids]


def encode_rouge_score(vocabulary: ByteVocabulary, texts: Sequence[str | None],
                       stems: Stems | None,
                       sentences: bool) -> EncodedTexts:
    """:meth:`Vocabulary.encode` with rouge-score's tokenizer (:func:`.tokenize.rouge_score_tokens`)
    and, if ``sentences``, the newline splitter, for the whole corpus at once: the tokens of the
    texts joined by NUL found with numpy (:func:`.code_units.corpus_spans`) and given exact ids
    (:class:`~mtscore.text.interning.TokenInterner`), texts and sentences told apart by the NULs
    and newlines before each token (a NUL inside a text is read as a space: both are breaks).
    Equal to the text-by-text encoding (tested)."""
    spans = corpus_spans(texts)
    data, starts, ends = spans.data.tobytes(), spans.starts, spans.ends
    ids = vocabulary.interner.ids(data, starts, ends, grow=True)
    if stems is not None:
        ids = _stem_ids(vocabulary, data, ids, starts, ends, stems)
    return _assemble(ids, *_bounds(spans), sentences)


def encode_streams(streams: Sequence[Sequence[str | None]], stems: Stems | None,
                   sentences: bool) -> list[EncodedTexts]:
    """:func:`encode_rouge_score` of each stream with one new vocabulary, all streams in one
    call: the ids found at once by :func:`.span_table.word_ids` (equal ids exactly for equal
    tokens, or stems, as the vocabulary gives; tested), with ``stems`` the stem ids of the
    distinct tokens by :func:`.stem_table.stem_ids` (``stems`` only turns the stemmer on: the
    stems remembered are :class:`.tokenize.Stems`'s)."""
    from ...text.interning import token_words
    from .span_table import word_ids
    from .stem_table import stem_ids

    texts = [t for stream in streams for t in stream]
    spans = corpus_spans(texts)
    words = token_words(spans.data, spans.starts, spans.ends, {})
    bounds = _bounds(spans)
    tokens = None if stems is None else (spans.data, spans.ends)  # read again for the stems
    del spans  # (else the bytes and the ends are let go before the grouping)
    ids, token_of = word_ids(words)
    keys = None if stems is None else (words[0].take(token_of), words[1].take(token_of))
    del words
    if keys is not None and tokens is not None and len(ids):
        data, ends = tokens
        ids = stem_ids(keys, data, bounds[0].take(token_of), ends.take(token_of)).take(ids)
    return _assemble(ids, *bounds, sentences).split([len(s) for s in streams])


def _bounds(spans: CorpusSpans) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """What :func:`_assemble` reads of ``spans``: the token starts, the breaks, which breaks are
    NULs, which texts are present."""
    return spans.starts, spans.breaks, spans.nul, spans.present


def _assemble(ids: np.ndarray, starts: np.ndarray, breaks: np.ndarray, nul: np.ndarray,
              present: np.ndarray, sentences: bool) -> EncodedTexts:
    """The :class:`EncodedTexts` of the tokens at ``starts`` with these ids (ids -3: dropped
    stems), texts and sentences told apart by the ``breaks`` (NULs where ``nul``, else
    newlines: :class:`.code_units.CorpusSpans`)."""
    if len(ids) and int(ids.min()) < 0:
        keep = ids != -3
        ids, starts = ids[keep], starts[keep]
    text_at = np.flatnonzero(nul)  # which breaks end a text
    lengths = _between(starts, breaks[text_at])
    if not sentences:
        return EncodedTexts(ids, lengths, present)
    if len(text_at) == len(breaks):  # no newline: one sentence per present text
        return EncodedTexts(ids, lengths, present, lengths[present], present.astype(np.int64))
    sentence_lengths = _between(starts, breaks)  # the pieces between breaks, in order
    first_sentence = np.concatenate(([0], text_at + 1))  # each text's first piece
    counts = np.diff(first_sentence, append=len(breaks) + 1)
    keep_sentence = np.ones(len(breaks) + 1, dtype=bool)
    keep_sentence[first_sentence[~present]] = False  # a missing text has no sentence
    counts[~present] = 0
    return EncodedTexts(ids, lengths, present, sentence_lengths[keep_sentence], counts)


def _between(starts: np.ndarray, breaks: np.ndarray) -> np.ndarray:
    """The number of tokens (``starts``, sorted) before the first break, between consecutive
    breaks (sorted byte positions), and after the last."""
    return np.diff(np.searchsorted(starts, breaks), prepend=0, append=len(starts)).astype(np.int64)
