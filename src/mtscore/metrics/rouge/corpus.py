"""Texts as token ids, for the whole corpus at once: what the ROUGE kernels read."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np


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


#: rouge-score's tokens, the text separator and the sentence break, found in one pass
_PIECES = re.compile(r"[a-z0-9]+|\x00|\n")
_PIECES_NO_BREAK = re.compile(r"[a-z0-9]+|\x00")
_TEXT_BREAK, _SENTENCE_BREAK = -1, -2


def encode_rouge_score(vocabulary: Vocabulary, texts: Sequence[str | None],
                       stems: Callable[[list[str]], list[str]] | None,
                       sentences: bool) -> EncodedTexts:
    """:meth:`Vocabulary.encode` with rouge-score's tokenizer (:func:`.tokenize.rouge_score_tokens`)
    and, if ``sentences``, the newline splitter, for the whole corpus in one regular-expression pass:
    the texts joined by NUL and lowercased, every token, NUL and newline found, the distinct tokens
    (stemmed) given ids, then the breaks located with numpy. Equal to the text-by-text encoding
    (tested); a text containing NUL itself goes the text-by-text way."""
    from .tokenize import newline_sentences, rouge_score_tokens

    if any(t is not None and "\x00" in t for t in texts):
        def tokens_of(text: str) -> list[str]:
            return rouge_score_tokens(text, stems)  # type: ignore[arg-type]
        return vocabulary.encode(texts, tokens_of, newline_sentences if sentences else None)
    pattern = _PIECES if sentences else _PIECES_NO_BREAK
    pieces = pattern.findall("\x00".join("" if t is None else t for t in texts).lower())
    special = {"\x00": _TEXT_BREAK, "\n": _SENTENCE_BREAK}
    if stems is None:
        ids = vocabulary.ids
        for token in dict.fromkeys(pieces):
            if token not in ids and token not in special:
                ids[token] = len(ids)
        lookup = {**ids, **special}
    else:
        lookup = _stemmed_lookup(vocabulary, pieces, stems, special)
    codes = np.fromiter(map(lookup.__getitem__, pieces), dtype=np.int64, count=len(pieces))
    return _from_codes(codes, texts, sentences)


def _stemmed_lookup(vocabulary: Vocabulary, pieces: list[str],
                    stems: Callable[[list[str]], list[str]],
                    special: dict[str, int]) -> dict[str, int]:
    """Each distinct token -> the id of its stem (-3: a stem that is not a valid token, dropped)."""
    ids = vocabulary.ids
    tokens = [t for t in dict.fromkeys(pieces) if t not in special]
    lookup: dict[str, int] = dict(special)
    for token, stem in zip(tokens, stems(tokens)):
        if not _VALID.fullmatch(stem):
            lookup[token] = -3
            continue
        if stem not in ids:
            ids[stem] = len(ids)
        lookup[token] = ids[stem]
    return lookup


_VALID = re.compile(r"[a-z0-9]+")


def _from_codes(codes: np.ndarray, texts: Sequence[str | None], sentences: bool) -> EncodedTexts:
    """Token ids and lengths from the codes of the pieces (ids, text breaks, sentence breaks)."""
    codes = codes[codes != -3]
    text_of = np.cumsum(codes == _TEXT_BREAK)
    is_token = codes >= 0
    lengths = np.bincount(text_of[is_token], minlength=len(texts)).astype(np.int64)
    present = np.array([t is not None for t in texts], dtype=bool)
    token_ids = codes[is_token]
    if not sentences:
        return EncodedTexts(token_ids, lengths, present)
    breaks = codes < 0  # each text and sentence break closes a sentence; the last one too
    sentence_of = np.cumsum(breaks)
    n_sentences = int(sentence_of[-1]) + 1 if len(codes) else 1
    sentence_lengths = np.bincount(sentence_of[is_token], minlength=n_sentences).astype(np.int64)
    counts = np.bincount(text_of[np.flatnonzero(codes == _SENTENCE_BREAK)],
                         minlength=len(texts)).astype(np.int64) + 1
    counts[~present] = 0
    keep = np.ones(n_sentences, dtype=bool)
    first_sentence = np.concatenate(([0], sentence_of[codes == _TEXT_BREAK]))
    keep[first_sentence[~present]] = False  # a missing text has no sentence
    return EncodedTexts(token_ids, lengths, present, sentence_lengths[keep], counts)
