"""The METEOR jar's ``-norm`` on a whole corpus at once: the faster path of
:func:`.meteor_norm.normalized_words` line by line (equal to it, tested in
``tests/test_meteor_norm.py``).

:func:`.meteor_norm.character_rules` (the regular expressions) run once over every padded line
joined by newlines instead of once per line: none of them matches a newline next to a padding
space, so each line comes out as it would alone. The word-level rest
(:func:`.meteor_norm.finish_line`) runs line by line; its line is already the words joined by
single spaces (it joins them so, then makes runs of white space single and trims the line), so
:func:`.meteor_norm.normalized_words`' last split and join are left out.
"""

from __future__ import annotations

from collections.abc import Sequence

from .meteor_norm import character_rules, finish_line, normalized_words


def normalized_corpus(lines: Sequence[str]) -> list[str]:
    """:func:`.meteor_norm.normalized_words` of every line (a line holding a newline itself is
    normalized alone)."""
    if not lines:
        return []
    if any("\n" in line for line in lines):
        return [normalized_words(line) for line in lines]
    text = character_rules("\n".join(f" {line} " for line in lines))
    return [finish_line(padded) for padded in text.split("\n")]
