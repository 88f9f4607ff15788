"""coco-caption's tokenization: the PTB tokenizer, lowercased, then its punctuation removed.

pycocoevalcap 1.2's ``PTBTokenizer.tokenize`` (Chen et al., 2015, the MS COCO caption evaluation
server) replaces newlines in each caption by spaces, runs Stanford CoreNLP 3.4.1's
``PTBTokenizer -preserveLines -lowerCase`` over the captions joined by newlines, and drops the
tokens in :data:`PUNCTUATIONS` from each output line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .lines import tokenize_lines

#: the tokens coco-caption removes (compared after lowercasing, so ``-lrb-`` and ``-rrb-`` stay)
PUNCTUATIONS = frozenset(("''", "'", "``", "`", "-LRB-", "-RRB-", "-LCB-", "-RCB-", ".", "?", "!",
                          ",", ":", "-", "--", "...", ";"))

#: line breaks other than "\n" that the Java tokenizer also breaks lines at
_OTHER_BREAKS = re.compile("[\r\u2028\u2029\u000b\u000c\u0085]")


def java_lowercase(text: str) -> str:
    """``String.toLowerCase(Locale.ENGLISH)`` (Python's ``str.lower``: the same Unicode rules,
    final sigma included)."""
    return text.lower()


def ptb_lowercase_lines(lines: Sequence[str], fast: bool = True) -> list[str]:
    """What ``PTBTokenizer -preserveLines -lowerCase`` prints for ``lines`` joined by newlines."""
    return [java_lowercase(line) for line in tokenize_lines(lines, fast)]


def remove_punctuation(line: str) -> str:
    """coco-caption's last step: the line's space-separated tokens without :data:`PUNCTUATIONS`."""
    return " ".join(w for w in line.rstrip().split(" ") if w not in PUNCTUATIONS)


def caption_lines(captions: Sequence[str]) -> list[str]:
    """The captions as the tokenizer's input lines: newlines replaced by spaces, as coco-caption
    does, and the other line-break characters too (coco-caption leaves them, and then pairs every
    later caption with the wrong image; mtscore keeps one line per caption)."""
    return [_OTHER_BREAKS.sub(" ", c.replace("\n", " ")) for c in captions]


def coco_tokenize(captions: Sequence[str], fast: bool = True) -> list[str]:
    """Each caption as coco-caption's ``PTBTokenizer`` gives it: tokens lowercased, separated by
    single spaces, punctuation removed (one string per caption, in order)."""
    if not captions:
        return []
    lines = ptb_lowercase_lines(caption_lines(captions), fast)
    return [remove_punctuation(line) for line in lines]
