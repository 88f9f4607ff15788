"""rouge-score's tokens (:func:`.tokenize.rouge_score_tokens`: runs of ``a-z0-9`` in ``str.lower()``
of the text) of a whole corpus at once, found with numpy on the texts' UTF-8 bytes.

The texts are joined by NUL and encoded as UTF-8 (lone surrogates passed). A byte is part of a
token when it is an ASCII letter or digit; every other byte is a break, and so is every byte of a
character outside ASCII (all of them are 0x80 or more in UTF-8). That gives the runs of
``str.lower()`` because lowercasing maps ``A-Z`` to ``a-z``, leaves the other ASCII characters
alone, and maps no other character to ASCII except :data:`LOWER_TO_ASCII` (tested over every code
point; a text holding one is lowered with ``str.lower`` first). The token bytes themselves are
lowered by OR-ing ``0x20`` in (``A-Z`` lowered, ``a-z0-9`` kept; the bytes of breaks are never
read). Positions are byte indices, the same in every array here. UTF-8 rather than UTF-16: the
texts ROUGE's tokenizer reads are mostly ASCII, which UTF-8 keeps at one byte a character (half the
units of UTF-16 for every pass) and Python encodes faster. Tested equal to
:func:`.tokenize.rouge_score_tokens` text by text (``tests/test_rouge_code_units.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: the only characters outside ASCII whose ``str.lower()`` holds an ASCII character (U+0130 -> "i"
#: and a combining dot, the Kelvin sign U+212A -> "k"; tested over every code point)
LOWER_TO_ASCII = "\u0130\u212a"
#: zero bytes after the last unit of :attr:`CorpusSpans.data`: every 8-byte read at a token start,
#: and the 16 bytes past it that :func:`mtscore.text.interning.token_words` reads, stay inside
PAD = 24
_NUL, _NEWLINE = 0, 10


@dataclass(frozen=True, eq=False)
class CorpusSpans:
    """The tokens of texts joined by NUL: ``data[starts[i]:ends[i]]`` is token ``i`` (its
    lowercase ASCII bytes; ``data`` has :data:`PAD` zero bytes at the end), ``breaks`` the
    positions of the NULs between texts (one fewer than the texts) and of the newlines, in order,
    ``nul`` which breaks are NULs, ``present`` which texts are not ``None``."""

    data: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    breaks: np.ndarray
    nul: np.ndarray
    present: np.ndarray


def code_units(text: str) -> np.ndarray:
    """``text`` as bytes whose ASCII letters and digits are exactly ``str.lower()``'s tokens: its
    UTF-8 bytes (surrogates passed), of ``text.lower()`` if it holds one of
    :data:`LOWER_TO_ASCII`."""
    if not text.isascii() and ("\u0130" in text or "\u212a" in text):
        text = text.lower()
    return np.frombuffer(text.encode("utf-8", "surrogatepass"), dtype=np.uint8)


def padded_bytes(units: np.ndarray) -> np.ndarray:
    """A copy of the bytes ``units`` (which the lowering then writes over), followed by
    :data:`PAD` zero bytes."""
    n = len(units)
    data = np.empty(n + PAD, dtype=np.uint8)
    data[:n] = units
    data[n:] = 0
    return data


def line_breaks(units: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The positions of the NUL and newline units, in order, and which of them are NULs."""
    low = np.flatnonzero(units <= _NEWLINE)  # (few: one pass, then only these are read)
    value = units[low]
    nul = value == _NUL
    kept = nul | (value == _NEWLINE)
    return (low, nul) if kept.all() else (low[kept], nul[kept])


def token_units(data: np.ndarray) -> np.ndarray:
    """Which bytes of ``data`` (:func:`padded_bytes`, the padding not read) are ASCII letters or
    digits, with a ``False`` before the first and after the last."""
    n = len(data) - PAD
    token = np.zeros(n + 2, dtype=bool)
    inside = token[1:n + 1]
    # (one scratch array, its bytes also taking the comparisons: fresh memory costs more than
    # the arithmetic)
    scratch = data[:n] | 0x20  # A-Z -> a-z (no other byte reaches a-z)
    scratch -= 0x61  # (unsigned: bytes below "a" wrap round to large values)
    np.less(scratch, 26, out=inside)
    np.subtract(data[:n], 0x30, out=scratch)
    inside |= np.less(scratch, 10, out=scratch.view(bool))
    return token


def token_edges(token: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The starts and ends of the runs of ``True`` in ``token[1:-1]``: the units where ``token``
    changes, which alternate start, end, start, … since ``token`` begins and ends ``False`` (one
    pass over the units; the two edge arrays then copied out, each contiguous, as numpy's
    searchsorted wants, and each let go on its own)."""
    change = np.flatnonzero(np.not_equal(token[1:], token[:-1]))
    return change[0::2].copy(), change[1::2].copy()


def corpus_spans(texts: Sequence[str | None]) -> CorpusSpans:
    """The :class:`CorpusSpans` of ``texts`` (a ``None`` text is empty and not present; a NUL
    inside a text is read as a space: both are breaks)."""
    try:
        joined, missing = "\x00".join(texts), False  # type: ignore[arg-type]
    except TypeError:  # a missing text (None): empty, and not present
        joined, missing = "\x00".join("" if t is None else t for t in texts), True
    units = code_units(joined)
    del joined  # (each large temporary is let go as soon as it is read)
    breaks, nul = line_breaks(units)
    if np.count_nonzero(nul) != len(texts) - 1:  # a NUL inside a text: a break like a space
        units = code_units("\x00".join("" if t is None else t.replace("\x00", " ")
                                       for t in texts))
        breaks, nul = line_breaks(units)
    data = padded_bytes(units)
    del units
    token = token_units(data)
    starts, ends = token_edges(token)
    del token
    lowered = data[:len(data) - PAD]
    lowered |= 0x20  # the tokens' bytes lowered: A-Z -> a-z, a-z0-9 kept
    present = (np.array([t is not None for t in texts], dtype=bool) if missing
               else np.ones(len(texts), dtype=bool))
    return CorpusSpans(data, starts, ends, breaks, nul, present)
