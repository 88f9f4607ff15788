"""Token ids of whole corpora: the numpy span kernel where the tokenizer has one, else line by line.

:func:`make_encoder` is what metrics use (:class:`LineEncoder` for ``ja-mecab``, which has no span
kernel). :class:`SpanEncoder` tokenizes a corpus in one pass over
its bytes (:mod:`.spans`) and gives the tokens exact ids (:mod:`.interning`); a tiny corpus, or
segments that contain a line break (possible only through the API), are tokenized line by line with
the tokenizer itself and the result is split on white space, which gives the same tokens.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..ragged import ranges
from .interning import TokenInterner, token_words
from .spans import SPAN_TOKENIZERS, corpus_bytes, line_breaks, token_spans
from .tokenizers import Tokenizer, preprocess

#: below this many characters in all, segments are tokenized line by line (numpy's cost per call
#: would dominate)
SMALL_CORPUS_CHARACTERS = 2000


class SpanEncoder:
    """Token ids for corpora tokenized with one span tokenizer (13a, intl, zh, zh-fixed, char, none).

    ``grow=True`` (references) adds new tokens; ``grow=False`` (hypotheses) gives tokens the
    references never had id -1. Encode every reference before any hypothesis.
    """

    def __init__(self, tokenizer: Tokenizer, lowercase: bool):
        if tokenizer.name not in SPAN_TOKENIZERS:
            raise ValueError(f"no span kernel for tokenizer {tokenizer.name!r}")
        self.tokenizer = tokenizer
        self.lowercase = lowercase
        self._interner = TokenInterner()
        self._cjk = getattr(tokenizer, "cjk_ranges", ())
        self._long_ids: dict[bytes, int] = {}  # tokens of more than 15 bytes, for token_keys

    @property
    def size(self) -> int:
        """How many distinct tokens have an id (ids are 0 .. size - 1)."""
        return self._interner.size

    @property
    def vocab(self) -> dict[str, int]:
        """token -> id (built on demand; for tests and debugging)."""
        return self._interner.tokens()

    def _spans(self, lines: Sequence[str]) -> tuple[bytes, np.ndarray, np.ndarray, np.ndarray]:
        """The corpus's bytes, its tokens' byte spans (starts, ends) and tokens per line. A few short
        segments (sentence_bleu: the line tokenizer is cheaper than the kernel), or a segment with a
        line break of its own, are tokenized line by line and the result read as ``none``."""
        name = self.tokenizer.name
        by_line = sum(map(len, lines)) < SMALL_CORPUS_CHARACTERS
        newlines = None
        if not by_line:
            data = corpus_bytes(lines, name, self.lowercase)
            newlines = line_breaks(data)
            by_line = len(newlines) != len(lines) - 1
        if by_line:
            tokenized = [" ".join(line.split())
                         for line in preprocess(lines, self.tokenizer, self.lowercase)]
            data, name, newlines = corpus_bytes(tokenized, "none", False), "none", None
        starts, ends, lengths = token_spans(data, len(lines), name,
                                            self._cjk if name != "none" else (), newlines)
        return data, starts, ends, lengths

    def encode(self, lines: Sequence[str], grow: bool) -> tuple[np.ndarray, np.ndarray]:
        """(flat token ids, tokens per line)."""
        if not lines:
            return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
        data, starts, ends, lengths = self._spans(lines)
        return self._interner.ids(data, starts, ends, grow), lengths

    def token_keys(self, lines: Sequence[str]) -> tuple[list[np.ndarray], np.ndarray]:
        """(two uint64 key columns, equal exactly for equal tokens, :func:`.interning.token_words`;
        tokens per line): the tokens to compare, with no vocabulary to build or look up."""
        if not lines:
            return [np.empty(0, dtype=np.uint64)] * 2, np.empty(0, dtype=np.int64)
        data, starts, ends, lengths = self._spans(lines)
        return list(token_words(data, starts, ends, self._long_ids)), lengths

    def encode_text(self, lines: Sequence[str]) -> tuple[np.ndarray, np.ndarray, list[str]]:
        """(flat token ids, tokens per line, text of each new token): :meth:`encode` with
        ``grow=True`` that also gives the text of the tokens it added (ids ``size`` before the
        call, onwards, in id order), each decoded once — for metrics that key tokens by their text.
        """
        if not lines:
            return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64), []
        data, starts, ends, lengths = self._spans(lines)
        before = self._interner.size
        ids = self._interner.ids(data, starts, ends, True)
        added = self._interner.size - before
        if not added:
            return ids, lengths, []
        fresh = np.flatnonzero(ids >= before)
        at = np.empty(added, dtype=np.int64)  # one occurrence of each new token (equal ids: equal bytes)
        at[ids[fresh] - before] = fresh
        return ids, lengths, _span_texts(data, starts[at], ends[at])


def _span_texts(data: bytes, starts: np.ndarray, ends: np.ndarray) -> list[str]:
    """The text of the byte spans ``data[starts[i]:ends[i]]`` (no white space inside; ``data`` has a
    byte after the last span, as :func:`.spans.corpus_bytes` pads it): gathered with ``\\n``
    between them and decoded in one call (lone surrogates as :func:`.spans.corpus_bytes` encodes them)."""
    size = ends - starts + 1  # each span and the separator after it
    joined = np.frombuffer(data, dtype=np.uint8)[ranges(starts, size)]
    joined[np.cumsum(size) - 1] = 10
    return joined.tobytes().decode("utf-8", "surrogatepass").split("\n")[:-1]


class LineEncoder:
    """Token ids for corpora tokenized line by line with the tokenizer itself (``preprocess``), ids
    in order of first occurrence: for tokenizers without a span kernel (``ja-mecab``).

    ``grow=True`` (references) adds new tokens; ``grow=False`` (hypotheses) gives tokens the
    references never had id -1. Encode every reference before any hypothesis.
    """

    def __init__(self, tokenizer: Tokenizer, lowercase: bool):
        self.tokenizer = tokenizer
        self.lowercase = lowercase
        self.vocab: dict[str, int] = {}

    @property
    def size(self) -> int:
        """How many distinct tokens have an id (ids are 0 .. size - 1)."""
        return len(self.vocab)

    def encode(self, lines: Sequence[str], grow: bool) -> tuple[np.ndarray, np.ndarray]:
        """(flat token ids, tokens per line)."""
        vocab = self.vocab
        flat: list[int] = []
        lengths = np.empty(len(lines), dtype=np.int64)
        for i, line in enumerate(preprocess(lines, self.tokenizer, self.lowercase)):
            tokens = line.split()
            lengths[i] = len(tokens)
            if grow:
                flat.extend([vocab.setdefault(t, len(vocab)) for t in tokens])
            else:
                flat.extend([vocab.get(t, -1) for t in tokens])
        return np.asarray(flat, dtype=np.int64), lengths


    def token_keys(self, lines: Sequence[str]) -> tuple[list[np.ndarray], np.ndarray]:
        """(one key column: the token ids, new tokens added; tokens per line), as
        :meth:`SpanEncoder.token_keys`."""
        ids, lengths = self.encode(lines, grow=True)
        return [ids], lengths


def make_encoder(tokenizer: Tokenizer, lowercase: bool) -> SpanEncoder | LineEncoder:
    """The fastest exact encoder for ``tokenizer``."""
    if tokenizer.name in SPAN_TOKENIZERS:
        return SpanEncoder(tokenizer, lowercase)
    return LineEncoder(tokenizer, lowercase)


def _present_lines(streams: Sequence[Sequence[str | None]]) -> tuple[list[np.ndarray], list[str]]:
    """Per stream the index of its present segments, and all present lines, streams in order."""
    present, lines = [], []
    for stream in streams:
        kept = [r for r in stream if r is not None]
        if len(kept) == len(stream):  # (usually: every segment has this reference)
            present.append(np.arange(len(stream), dtype=np.int64))
        else:
            present.append(np.asarray([i for i, r in enumerate(stream) if r is not None],
                                      dtype=np.int64))
        lines += kept
    return present, lines


def encode_streams(encoder: SpanEncoder | LineEncoder, streams: Sequence[Sequence[str | None]]
                   ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Every present reference of every stream in one pass of ``encoder`` (one tokenization, one
    growth of the vocabulary). Per stream: (token ids, tokens per present segment, index of those
    segments); a stream's ids are a view of the one encoded array, streams in order."""
    present, lines = _present_lines(streams)
    ids, lengths = encoder.encode(lines, grow=True)  # type: ignore[arg-type,unused-ignore]  # no None left
    return split_streams(ids, lengths, present)


def key_streams(encoder: SpanEncoder | LineEncoder, streams: Sequence[Sequence[str | None]]
                ) -> list[tuple[list[np.ndarray], np.ndarray, np.ndarray]]:
    """:func:`encode_streams` with tokens as key columns (``encoder.token_keys``): per stream (its
    key columns, tokens per present segment, the index of those segments)."""
    present, lines = _present_lines(streams)
    columns, lengths = encoder.token_keys(lines)  # type: ignore[arg-type,unused-ignore]  # no None left
    parts = [split_streams(c, lengths, present) for c in columns]
    return [([p[k][0] for p in parts], *parts[0][k][1:]) for k in range(len(present))]


def split_streams(ids: np.ndarray, lengths: np.ndarray, present: Sequence[np.ndarray]
                  ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """One encoding of every stream's present segments (in stream order) split back into streams:
    per stream (its ids, units per present segment, the index of those segments)."""
    out = []
    unit_at = line_at = 0
    for idx in present:
        stream_lengths = lengths[line_at:line_at + len(idx)]
        size = int(stream_lengths.sum())
        out.append((ids[unit_at:unit_at + size], stream_lengths, idx))
        unit_at, line_at = unit_at + size, line_at + len(idx)
    return out
