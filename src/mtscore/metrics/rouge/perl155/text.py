"""How ROUGE-1.5.5.pl reads a summary (SPL format: one sentence per line) and turns it into tokens.

The script reads bytes, not characters: every rule here works on the UTF-8 bytes of the text, each byte
one character (``latin-1``), so lengths are byte lengths and every non-ASCII byte is a non-word character.
Its ``\\s`` is ASCII whitespace (space, \\t, \\n, \\v, \\f, \\r).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ....lexicon.rouge155 import morph_stem, smart_stop_words
from .options import Perl155Options

_WS = "[ \t\n\x0b\x0c\r]"
_WS_RUN = re.compile(f"{_WS}+")
_NON_WORD = re.compile(r"[^A-Za-z0-9\-]")
_STARTS_WORD = re.compile(r"[a-z0-9$]")
_LOWER = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")


def as_bytes_text(text: str) -> str:
    """The UTF-8 bytes of ``text`` as a string of byte-characters (an undecodable byte kept by
    ``surrogateescape`` is that byte)."""
    return text.encode("utf-8", "surrogateescape").decode("latin-1")


def spl_sentences(text: str) -> list[str]:
    """``readText``'s SPL reader: the lines of the file (``chomp``: without their ``\\n``; a ``\\r`` stays),
    empty lines skipped, each lowercased by ``tr/A-Z/a-z/``."""
    data = as_bytes_text(text).encode("latin-1").translate(_LOWER).decode("latin-1")
    return [line for line in data.split("\n") if line]


def perl_split(text: str) -> list[str]:
    """``split(/\\s+/, $text)``: a leading empty field when the text starts with whitespace, trailing
    empty fields removed."""
    fields = _WS_RUN.split(text)
    while fields and fields[-1] == "":
        fields.pop()
    return fields


def limit_words(sentences: Sequence[str], limit: int) -> list[str]:
    """``-l``: whole sentences while the running word count stays below ``limit``, then the first
    words of the next sentence up to ``limit`` words (words = ``perl_split`` fields)."""
    kept: list[str] = []
    total = 0
    for sentence in sentences:
        words = perl_split(sentence)
        if total + len(words) < limit:
            kept.append(sentence)
            total += len(words)
        else:
            kept.append(" ".join(words[: limit - total]))
            break
    return kept


def limit_bytes(sentences: Sequence[str], limit: int) -> list[str]:
    """``-b`` in ``readText`` (the text for n-grams and for ROUGE-L's unigram clipping): whole sentences
    while the running byte count stays below ``limit``, then the first bytes of the next one."""
    kept: list[str] = []
    total = 0
    for sentence in sentences:
        if total + len(sentence) < limit:
            kept.append(sentence)
            total += len(sentence)
        else:
            kept.append(sentence[: limit - total])
            break
    return kept


def limit_bytes_lcs(sentences: Sequence[str], limit: int) -> list[str]:
    """``-b`` in ``readText_LCS`` (the sentences ROUGE-L/W align): as ``limit_bytes`` except that the
    script never adds up the bytes kept, so every sentence shorter than ``limit`` bytes is kept whole
    and the first one of at least ``limit`` bytes is cut to ``limit`` bytes and ends the text."""
    kept: list[str] = []
    for sentence in sentences:
        if len(sentence) < limit:
            kept.append(sentence)
        else:
            kept.append(sentence[:limit])
            break
    return kept


def clean(text: str) -> str:
    """The script's tokenization: a space around every ``-``, every byte other than ``[A-Za-z0-9-]``
    becomes a space, whitespace trimmed and collapsed."""
    words = _NON_WORD.sub(" ", text.replace("-", " - ")).split(" ")
    return " ".join(word for word in words if word)


def peer_text(text: str, options: Perl155Options) -> str:
    """``readText``: the summary as one cleaned string (sentences joined by a space), length limits
    applied first."""
    sentences = spl_sentences(text)
    if options.word_limit:
        sentences = limit_words(sentences, options.word_limit)
    elif options.byte_limit:
        sentences = limit_bytes(sentences, options.byte_limit)
    return clean(" ".join(sentences))


def lcs_sentences(text: str, options: Perl155Options) -> list[str]:
    """``readText_LCS``: the summary's sentences, each cleaned, length limits applied first."""
    sentences = spl_sentences(text)
    if options.word_limit:
        sentences = limit_words(sentences, options.word_limit)
    elif options.byte_limit:
        sentences = limit_bytes_lcs(sentences, options.byte_limit)
    return [clean(sentence) for sentence in sentences]


def tokens(text: str, options: Perl155Options) -> list[str]:
    """The tokens ``createNGram``/``tokenizeText_LCS`` keep from a cleaned text: stop words dropped
    (``-s``), only tokens starting with ``[a-z0-9$]`` (so no ``-``), MorphStem on tokens longer than 3
    characters (``-m``)."""
    stop = smart_stop_words() if options.remove_stopwords else frozenset()
    kept = []
    for token in text.split(" ") if text else []:
        if token in stop or not _STARTS_WORD.match(token):
            continue
        kept.append(morph_stem(token) if options.stem and len(token) > 3 else token)
    return kept
