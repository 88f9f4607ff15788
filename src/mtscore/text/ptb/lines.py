"""The PTB tokenizer's output lines (``PTBTokenizer -preserveLines``), by the rule or the faster path."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .lexer import from_utf16_units, scan_rule, utf16_units
from .words import scan

_SURROGATE = re.compile("[\ud800-\udfff]")


def tokenize_lines(lines: Sequence[str], fast: bool = True) -> list[str]:
    """What ``PTBTokenizer -preserveLines`` prints for ``lines`` joined by newlines, one string per
    output line (tokens joined by single spaces), before any lowercasing (``fast``: through
    :mod:`.words`, else the rule alone).

    A line with another line-break character (``\\r``, U+2028, ...) gives more output lines than
    input lines, as the Java tokenizer does; callers that need one line per input line replace
    those characters first (:func:`mtscore.text.ptb.coco.caption_lines`).
    """
    text = utf16_units("\n".join(lines))
    out: list[str] = []
    current: list[str] = []
    for token in (scan(text) if fast else scan_rule(text)):
        if token is None:
            out.append(" ".join(current))
            current = []
        else:
            current.append(token)
    out.append(" ".join(current))
    if _SURROGATE.search(text) is None:  # (no token has a surrogate: nothing to join)
        return out
    # (tokens are joined by spaces: a pair in a line is a pair within one token)
    return [from_utf16_units(line) for line in out]
