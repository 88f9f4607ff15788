"""Tokenize a corpus straight to token ids, tokenizing each distinct white-space chunk once.

Metrics now use it only for tokenizers without a byte-span kernel (``ja-mecab``, which it tokenizes
line by line); :mod:`.span_encoder` picks the encoder. Tests keep checking it for every tokenizer.

The regex tokenizers (13a, intl, zh, char, none) only look one character to either side of a match,
and white space separates tokens in their output, so a line's tokens are the tokens of its
white-space-separated chunks taken one by one, with a space on either side of each chunk. The only
exception is the start and the end of a line for tokenizers that do not pad the line (``intl``, and
``zh`` after it strips the line): there the missing neighbour behaves differently from a space, so
edge chunks are tokenized as edges. A corpus has far fewer distinct chunks than chunks, and most
chunks contain nothing a tokenizer would change, so only a few are run through the regexes.
Tokenizers that are not chunk-local (``ja-mecab``) and lines with an inner newline take the
line-by-line path. Tests check the result equals line-by-line tokenization.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

from typing import Any

import numpy as np

from .tokenizers import Tokenizer, preprocess

# What may change a chunk, per tokenizer; a chunk matching none of it is one token, itself.
_13A_SPECIAL = r"[\{-\~\[-\`\!-\&\(-\+\:-\@\/\.,\-]"
_SPECIAL: dict[str, str | None] = {
    "13a": _13A_SPECIAL,
    "intl": r"[\p{P}\p{S}]",
    "none": None,
}
#: tokenizers whose result depends on whether a chunk starts or ends its line
_EDGE_SENSITIVE = {"intl", "zh", "zh-fixed"}
_MARK = "\x01"  # tags edge chunks in keys; lines that contain it take the line-by-line path
_BREAK = "\x02"  # stands for a line break among the chunks (same rule)


def _special_pattern(tokenizer: Tokenizer) -> Any:
    """The pattern of chunk-changing characters (a ``regex`` pattern); None: no chunk changes; True:
    every chunk may change; False: not chunk-local."""
    import regex

    name = tokenizer.name
    if name in _SPECIAL:
        pattern = _SPECIAL[name]
        return None if pattern is None else regex.compile(pattern)
    if name in ("zh", "zh-fixed"):
        cjk = tokenizer._cjk.pattern[1:-1]  # type: ignore[attr-defined]
        return regex.compile(f"(?:{_13A_SPECIAL}|{cjk})")
    if name == "char":
        return True
    return False


def _compile(pattern: str) -> Any:
    import regex

    return regex.compile(pattern)


class ChunkEncoder:
    """Token ids for corpora tokenized with one tokenizer; keeps what it learnt about chunks.

    ``grow=True`` (references) adds new tokens to the vocabulary; ``grow=False`` (hypotheses) maps
    tokens the references never had to -1. Encode every reference before any hypothesis.
    """

    def __init__(self, tokenizer: Tokenizer, lowercase: bool):
        self.tokenizer = tokenizer
        self.lowercase = lowercase
        self.vocab: dict[str, int] = {}
        self._chunk_ids: dict[str, tuple[int, ...]] = {}  # chunks seen in references
        self._special = _special_pattern(tokenizer)
        # a whole chunk (one per line of the joined text) that contains a character that may change it
        self._hard_lines = (_compile(r"(?m)^[^\n]*(?:" + self._special.pattern + r")[^\n]*$")
                            if self._special not in (None, True, False) else None)
        self._edges = tokenizer.name in _EDGE_SENSITIVE

    @property
    def size(self) -> int:
        """How many distinct tokens have an id (ids are 0 .. size - 1)."""
        return len(self.vocab)

    def encode(self, lines: Sequence[str], grow: bool) -> tuple[np.ndarray, np.ndarray]:
        """(flat token ids, tokens per line)."""
        text = "\n".join(lines)
        if self.lowercase:
            text = text.lower()
        if (self._special is False or text.count("\n") != len(lines) - 1 or _MARK in text
                or _BREAK in text):
            return self._encode_tokenized(preprocess(lines, self.tokenizer, self.lowercase), grow)
        if self._edges:
            keys, counts = self._edge_keys(text.split("\n"))
            keys.append(_BREAK)
        else:  # one split of the whole corpus; a stand-in chunk marks each line break
            keys = text.replace("\n", f" {_BREAK} ").split()
            keys.append(_BREAK)
        known = self._chunk_ids if grow else dict(self._chunk_ids)
        known[_BREAK] = ()
        index = dict.fromkeys(keys)
        self._learn([k for k in index if k not in known], known, grow)
        for i, k in enumerate(index):
            index[k] = i
        occurrence = np.fromiter(map(index.__getitem__, keys), dtype=np.int64, count=len(keys))
        token_lists = [known[k] for k in index]
        sizes = np.fromiter(map(len, token_lists), dtype=np.int64, count=len(token_lists))
        flat_tokens = np.fromiter(chain.from_iterable(token_lists), dtype=np.int64,
                                  count=int(sizes.sum()))
        if self._edges:
            occurrence = occurrence[:-1]
            line_of_chunk = np.repeat(np.arange(len(lines), dtype=np.int64), counts)
        else:
            is_break = occurrence == index[_BREAK]
            line_of_chunk = np.cumsum(is_break)[~is_break]
            occurrence = occurrence[~is_break]
        starts = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
        occ_sizes = sizes[occurrence]
        total = int(occ_sizes.sum())
        # gather: token j of occurrence o is flat_tokens[starts[o] + j]
        occ_offsets = np.cumsum(occ_sizes) - occ_sizes
        gather = np.arange(total, dtype=np.int64) + np.repeat(starts[occurrence] - occ_offsets,
                                                              occ_sizes)
        ids = flat_tokens[gather]
        lengths = np.bincount(line_of_chunk, weights=occ_sizes, minlength=len(lines)).astype(np.int64)
        return ids, lengths

    def _edge_keys(self, per_line: list[str]) -> tuple[list[str], np.ndarray]:
        keys: list[str] = []
        counts = np.empty(len(per_line), dtype=np.int64)
        strips = self.tokenizer.name != "intl"  # zh strips the line; intl keeps leading space
        for i, line in enumerate(per_line):
            chunks = line.split()
            counts[i] = len(chunks)
            if chunks:
                if strips or not line[:1].isspace():
                    chunks[0] = _MARK + chunks[0]
                chunks[-1] = chunks[-1] + _MARK  # rstrip makes the last chunk end the line
                keys.extend(chunks)
        return keys, counts

    def _learn(self, new: list[str], known: dict[str, tuple[int, ...]], grow: bool) -> None:
        vocab = self.vocab
        edges = self._edges
        if self._special is True:
            hard = new
        else:
            hard = self._hard_lines.findall("\n".join(new)) if self._hard_lines else []
            hard_set = set(hard)
            simple = [k for k in new if k not in hard_set]
            if edges:
                pairs = [(k, k.strip(_MARK)) for k in simple]
            else:
                pairs = [(k, k) for k in simple]
            if grow:
                for key, chunk in pairs:
                    known[key] = (vocab.setdefault(chunk, len(vocab)),)
            else:
                get = vocab.get
                for key, chunk in pairs:
                    known[key] = (get(chunk, -1),)
        if not hard:
            return
        if edges:  # a stand-in word where the real neighbour is white space
            spans = [(key.startswith(_MARK), key.endswith(_MARK) and len(key) > 1) for key in hard]
            lines = [("" if head else "a ") + key.strip(_MARK) + ("" if tail else " a")
                     for key, (head, tail) in zip(hard, spans)]
        else:
            lines = hard
        for n, (key, tokens) in enumerate(zip(hard, self.tokenizer.tokenize_chunks(lines))):
            if edges:
                head, tail = spans[n]
                tokens = tokens[(0 if head else 1):(len(tokens) if tail else len(tokens) - 1)]
            if grow:
                known[key] = tuple([vocab.setdefault(t, len(vocab)) for t in tokens])
            else:
                known[key] = tuple([vocab.get(t, -1) for t in tokens])

    def _encode_tokenized(self, tokenized: list[str], grow: bool) -> tuple[np.ndarray, np.ndarray]:
        vocab = self.vocab
        flat: list[int] = []
        lengths = np.empty(len(tokenized), dtype=np.int64)
        for i, line in enumerate(tokenized):
            tokens = line.split()
            lengths[i] = len(tokens)
            if grow:
                flat.extend([vocab.setdefault(t, len(vocab)) for t in tokens])
            else:
                flat.extend([vocab.get(t, -1) for t in tokens])
        return np.asarray(flat, dtype=np.int64), lengths
