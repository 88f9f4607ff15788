"""chrF's statistics for a whole corpus at once with numpy: equals :mod:`.rules` segment by
segment (tests compare the two on WMT22 and on random text).

* characters: the corpus as one array of code points (UTF-32), white space removed by a mask of
  the code points ``str.split`` splits on (:data:`..text.spans.UNICODE_SPACES` and the ASCII ones);
  a character's id is its code point;
* words (chrF++): the corpus's UTF-8 bytes split on white space by the span kernel
  (:func:`..text.spans.token_spans`, tokenizer ``none``), then one cut per word before a final, or
  else after a first, ASCII punctuation byte (:func:`.rules.chrf_words`), compared as the two
  words of their bytes (:func:`..text.interning.token_words`; ids from
  :class:`..text.interning.TokenInterner` for the pairwise kernel);
* matches per order and reference, Σ min(hypothesis count, reference count) (Popović), of
  characters and of words, by :func:`..clipping.matches_per_reference`: every reference at once,
  each n-gram keyed exactly by its two (n-1)-grams and grouped without sorting
  (:mod:`..grouping`); n-gram counts per order from the lengths.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...text.interning import TokenInterner, token_words
from ...text.spans import UNICODE_SPACES, corpus_bytes, token_spans
from ..clipping import KeyStream, matches_per_reference
from .rules import PUNCTUATION

#: code points are the character ids
CODE_POINTS = 0x110000

#: (ids, units per present segment, index of the present segments)
Stream = tuple[np.ndarray, np.ndarray, np.ndarray]

#: ASCII code points str.split() splits on: \t \n \v \f \r, \x1c-\x1f and space
_ASCII_SPACES = ((9, 13), (28, 32))

_PUNCT_BYTES = np.zeros(256, dtype=bool)
_PUNCT_BYTES[[ord(c) for c in PUNCTUATION]] = True


def _code_points(lines: Sequence[str]) -> np.ndarray:
    """The code points of the lines, concatenated (lone surrogates kept as such)."""
    text = "".join(lines)
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")


def _is_space(cps: np.ndarray) -> np.ndarray:
    """Code points ``str.split`` splits on."""
    space = np.zeros(len(cps), dtype=bool)
    for lo, hi in _ASCII_SPACES:
        space |= (cps - np.uint32(lo)) <= np.uint32(hi - lo)
    wide = np.flatnonzero(cps >= 0x80)
    if len(wide):
        space[wide] = np.isin(cps[wide], UNICODE_SPACES)
    return space


def encode_chars(lines: Sequence[str], whitespace: bool) -> tuple[np.ndarray, np.ndarray]:
    """(code points of every segment, concatenated, as int64; characters per segment), white
    space removed unless ``whitespace``. Lines are already lowercased if the metric asks."""
    cps, lengths = char_keys(lines, whitespace)
    return cps.astype(np.int64), lengths


def char_keys(lines: Sequence[str], whitespace: bool) -> tuple[np.ndarray, np.ndarray]:
    """:func:`encode_chars` with the code points as uint32 (a key column for
    :func:`..clipping.matches_per_reference`)."""
    cps = _code_points(lines)
    lengths = np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
    if not whitespace:
        keep = ~_is_space(cps)
        if not keep.all():
            seg = np.repeat(np.arange(len(lines), dtype=np.int64), lengths)
            lengths = np.bincount(seg[keep], minlength=len(lines)).astype(np.int64)
            cps = cps[keep]
    return cps, lengths


def word_spans(lines: Sequence[str]) -> tuple[bytes, np.ndarray, np.ndarray, np.ndarray]:
    """chrF++'s words (:func:`.rules.chrf_words`) as byte spans of the corpus's UTF-8 bytes:
    (bytes, starts, ends, words per segment)."""
    if any("\n" in line for line in lines):  # a line break inside a segment is white space too
        lines = [line.replace("\n", " ") for line in lines]
    data = corpus_bytes(lines, "none", False)
    starts, ends, lengths = token_spans(data, len(lines), "none")
    b = np.frombuffer(data, dtype=np.uint8)
    long = (ends - starts) > 1  # a punctuation byte is a whole character
    cut_end = long & _PUNCT_BYTES[b[ends - 1]]
    cut_start = long & ~cut_end & _PUNCT_BYTES[b[starts]]
    split = cut_end | cut_start
    if not split.any():
        return data, starts, ends, lengths
    # each split word becomes two: (start, cut) and (cut, end)
    cut = np.where(cut_end, ends - 1, starts + 1)
    twice = np.repeat(np.arange(len(starts)), 1 + split.astype(np.int64))
    second = np.zeros(len(twice), dtype=bool)
    second[1:] = twice[1:] == twice[:-1]
    first_of_split = np.zeros(len(twice), dtype=bool)
    first_of_split[:-1] = second[1:]
    new_starts = np.where(second, cut[twice], starts[twice])
    new_ends = np.where(first_of_split, cut[twice], ends[twice])
    seg = np.repeat(np.arange(len(lines), dtype=np.int64), lengths)
    lengths = lengths + np.bincount(seg, weights=split, minlength=len(lines)).astype(np.int64)
    return data, new_starts, new_ends, lengths


def encode_words(interner: TokenInterner, lines: Sequence[str], grow: bool
                 ) -> tuple[np.ndarray, np.ndarray]:
    """(word ids, words per segment); ``grow=False`` gives words the interner lacks id -1."""
    if not lines:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    data, starts, ends, lengths = word_spans(lines)
    return interner.ids(data, starts, ends, grow), lengths


def word_keys(lines: Sequence[str], long_ids: dict[bytes, int]) -> tuple[list[np.ndarray], np.ndarray]:
    """(chrF++'s words as two key columns, :func:`..text.interning.token_words`; words per
    segment): words to compare, with no vocabulary."""
    if not lines:
        return [np.empty(0, dtype=np.uint64)] * 2, np.empty(0, dtype=np.int64)
    data, starts, ends, lengths = word_spans(lines)
    return list(token_words(data, starts, ends, long_ids)), lengths


def all_order_statistics(hyp: Sequence[np.ndarray], hyp_lengths: np.ndarray,
                         refs: Sequence[KeyStream], max_order: int) -> list[np.ndarray]:
    """(segments × 3·max_order) against each reference stream: per order (hypothesis n-grams,
    reference n-grams, matches) of every segment (zeros where it has no reference); the hypothesis
    count is 0 where the reference has no n-gram of the order (:func:`.rules.match_statistics`).
    The matches of all references are counted at once (:func:`..clipping.matches_per_reference`)."""
    matches = matches_per_reference(hyp, hyp_lengths, refs, max_order)
    return [_statistics(hyp_lengths, ref[1:], m, max_order) for ref, m in zip(refs, matches)]


def _statistics(hyp_lengths: np.ndarray, ref: tuple[np.ndarray, np.ndarray], matches: np.ndarray,
                max_order: int) -> np.ndarray:
    """:func:`all_order_statistics` against one reference from its matches; ``ref``: (units per
    present segment, index of those segments)."""
    S = len(hyp_lengths)
    ref_present_lengths, present = ref
    ref_lengths = np.zeros(S, dtype=np.int64)
    ref_lengths[present] = ref_present_lengths
    out = np.zeros((S, 3 * max_order), dtype=np.int64)
    for n in range(1, max_order + 1):
        ref_count = np.maximum(ref_lengths - (n - 1), 0)
        out[:, 3 * n - 3] = np.where(ref_count > 0, np.maximum(hyp_lengths - (n - 1), 0), 0)
        out[:, 3 * n - 2] = ref_count
        out[:, 3 * n - 1] = matches[:, n - 1]
    return out
