"""A faster path to the PTB lexer's tokens: words tokenized once, then taken from a cache.

:func:`scan` gives what :func:`.lexer.scan_rule` gives (``tests/test_ptb_tokenizer.py`` checks it on
generated text, and every oracle line runs through it): a word (a run of characters between spaces
or newlines) whose tokens do not depend on what follows it (:func:`cacheable`) is tokenized once by
the rule (:func:`word_tokens`) and its tokens reused; spaces are skipped at once (only the rule
``SPACES`` begins with one); everything else goes through the rule, step by step.
"""

from __future__ import annotations

from collections.abc import Iterator

import regex

from .lexer import NOTHING, scan_rule, step

_CHUNK = regex.compile(r"[^ \n]+")
_LETTERS = regex.compile("[A-Za-z]+")
_SPLIT_WORDS = frozenset(("cannot", "gonna", "gotta", "lemme", "gimme", "wanna"))
CACHE: dict[str, tuple[str, ...]] = {}
_CACHE_SIZE = 200_000
_CONTEXT_FREE = regex.compile(r"[^\s<]*[^\s<.)\p{Nd}\u07c0-\u07c9]", regex.VERSION0)


def cacheable(chunk: str) -> bool:
    """Whether a word (a run of characters between spaces or newlines, not the text's last) is
    tokenized the same whatever follows it, so its tokens can be cached: no white space or ``<``
    in it (SGML tags and the tokens that hold spaces start with ``<``, a digit, ``(`` or ``.``
    and end before their word's last character only if that is a digit, ``)`` or ``.``), and no
    ``.``, ``)`` or digit at its end (abbreviations and acronyms look past the space after their
    period; fractions and phone numbers continue after a space). The trailing contexts of every
    other rule read one character after the word, a space or a newline, which they treat alike.
    """
    return _CONTEXT_FREE.fullmatch(chunk) is not None


def word_tokens(chunk: str) -> tuple[str, ...]:
    """The tokens of a cacheable word followed by a space: a run of ASCII letters is one token
    (no rule matches past it but with the same token: an abbreviation or acronym followed by a
    space), unless it is one of the lexer's split words; any other word by the rule."""
    if _LETTERS.fullmatch(chunk) is not None and chunk.lower() not in _SPLIT_WORDS:
        return (chunk,)
    return tuple(t for t in scan_rule(chunk + " ") if t is not None)



#: what :data:`CACHE` holds for a word that is not :func:`cacheable` (the rule scans it in place)
BY_RULE: tuple[str, ...] = ("(scanned by the rule)",)


def scan(text: str) -> Iterator[str | None]:
    """The tokens of ``text`` (UTF-16 code units) in order, ``None`` for each line break, as
    :func:`.lexer.scan_rule` gives them; context-free words from the cache (which also remembers
    the words that are not, :data:`BY_RULE`).

    The text is walked word by word (runs of characters other than spaces and newlines): between
    words, only the rule ``SPACES`` begins with a space (no token) and only ``NEWLINE`` with a
    newline (a line break); a word that starts where the scan stands and is not the text's last is
    looked up; the rule steps through the rest, also into the words a step of it reaches.
    """
    pos, n = 0, len(text)
    cache = CACHE
    for chunk in _CHUNK.finditer(text):
        start, end = chunk.span()
        if end <= pos:  # (consumed by a step of the rule)
            continue
        if start > pos:  # spaces and newlines
            for _ in range(text.count("\n", pos, start)):
                yield None
            pos = start
        if pos == start and end < n:
            word = chunk.group()
            tokens = cache.get(word)
            if tokens is None:
                tokens = word_tokens(word) if cacheable(word) else BY_RULE
                if len(cache) >= _CACHE_SIZE:
                    cache.clear()
                cache[word] = tokens
            if tokens is not BY_RULE:
                yield from tokens
                pos = end
                continue
        while pos < end:
            token, pos = step(text, pos)
            if token is not NOTHING:
                yield token
    for _ in range(text.count("\n", pos, n)):
        yield None
