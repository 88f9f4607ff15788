"""Where one run of the PTB tokenizer over lines can be cut into two runs with the same output.

coco-caption tokenizes all reference captions in one run of the tokenizer (the lines joined by
newlines), and the lexer's matches may read past a newline: a run over the first lines alone is
not always the start of the run over all of them. :func:`independent_cuts` finds the cuts where
it is: line ``k`` such that ``tokenize_lines(lines)`` equals ``tokenize_lines(lines[:k] + [""])``
(the first lines followed by a newline, its last, empty, output line dropped) followed by
``tokenize_lines(lines[k:])`` (:func:`tokenize_part`), for lines without line-break characters.

Why (the rules of :mod:`.rules`; ``P`` is the position of the newline before line ``k``): a run
over ``lines[:k]`` plus a newline sees the same text up to ``P`` included, and a run over
``lines[k:]`` starts at ``P + 1`` where the whole run starts a step too (no rule looks behind). So
the two runs give the whole run's tokens unless some match (a winner or not: the longest decides)
of a rule tried before ``P`` covers a character after ``P``. The only patterns that can match a
newline inside a match are:

* trailing contexts: ``SPACENL`` (``ACRO/``, ``TBSPEC2/``, ``FILENAME/``), ``[^A-Za-z]``
  (``REDAUX/``, ``SREDAUX/``) and ``[^A-Za-z0-9]`` (``SMILEY/``), one character after their token:
  the newline at most; and those of tokens that end with ``.`` (``ACRONYM/``: white space and a
  following word or SGML tag; ``ABBREV1/SENTEND``: ``SENTEND``; ``ABBREV1/``: any two characters;
  ``ABBREV3/``: an optional ``SPACENL`` and a digit), which reach past ``P`` only if nothing but
  white space lies between the token and ``P`` (or through an SGML tag, below). Such a token has
  no white space in it: its ``.`` follows a character that is not white space. So no match reads
  past ``P`` this way if the first lines, without their trailing white space, do not end with a
  ``.`` that follows another character than white space (:func:`ends_like_abbreviation`);
* ``NEWLINE`` (``\\r?\\n``: starts at ``P`` or one before, ends at ``P + 1``);
* ``SGML`` (a token, or a trailing context after white space): only inside a quoted attribute
  value (``'[^']*'`` or ``"[^"]*"``; its other parts exclude newlines), which opens with a quote
  after ``=`` and optional spaces. A tag covers ``P`` only if such an opening quote before ``P``
  is not followed by the same quote character before ``P``, so only if the last ``"`` or the last
  ``'`` before ``P`` is such a quote (:func:`value_open`).

``tests/test_ptb_cut.py`` checks every cut these allow on generated text (both paths of the
tokenizer) and on the shared data.
"""

from __future__ import annotations

from collections.abc import Sequence

from .coco import caption_lines, ptb_lowercase_lines, remove_punctuation

#: the characters of ``SPACENL`` (``SPACE`` and ``NEWLINE``'s)
_SPACENL = frozenset(" \t\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
                     "\u200a\u3000\r\n\u2028\u2029\u000b\u000c\u0085")


def ends_like_abbreviation(text: str, at: int) -> bool:
    """Whether ``text[:at]`` without its trailing white space ends with a ``.`` after a character
    other than white space (where a token whose trailing context reads past ``at`` can end)."""
    end = at
    while end > 0 and text[end - 1] in _SPACENL:
        end -= 1
    return end > 1 and text[end - 1] == "." and text[end - 2] not in _SPACENL


def value_open(text: str, at: int) -> bool:
    """Whether ``text[:at]`` leaves an SGML attribute value open: the last ``"`` or the last ``'``
    in it follows ``=`` and optional spaces (a quote that opens a value and is not closed)."""
    for quote in "\"'":
        found = text.rfind(quote, 0, at)
        before = found - 1
        while before >= 0 and text[before] == " ":
            before -= 1
        if found >= 0 and before >= 0 and text[before] == "=":
            return True
    return False


def can_cut(text: str, at: int) -> bool:
    """Whether the run of the tokenizer over ``text`` (lines joined by newlines, without other
    line-break characters) can be cut at the newline at position ``at``: no match before it reads
    past it (see the module's docstring)."""
    return not (value_open(text, at) or ends_like_abbreviation(text, at))


def independent_cuts(lines: Sequence[str]) -> list[bool]:
    """For k = 0 .. len(lines): whether the run over ``lines`` can be cut before line k
    (:func:`can_cut`; cuts 0 and len(lines) always can)."""
    text = "\n".join(lines)
    out, at = [True], -1
    for line in lines[:-1]:
        at += len(line) + 1
        out.append(can_cut(text, at))
    if lines:
        out.append(True)
    return out


def tokenize_part(captions: Sequence[str], lo: int, hi: int) -> list[str]:
    """``coco_tokenize(captions)[lo:hi]`` from captions ``lo`` to ``hi`` alone, for cuts ``lo``
    and ``hi`` that :func:`independent_cuts` allows on ``caption_lines(captions)``."""
    lines = caption_lines(captions[lo:hi])
    if hi < len(captions):  # (followed by a newline, as in the whole run)
        lines.append("")
        tokenized = ptb_lowercase_lines(lines)[:-1]
    else:
        tokenized = ptb_lowercase_lines(lines)
    return [remove_punctuation(line) for line in tokenized]
