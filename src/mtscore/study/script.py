"""Which writing system a data set's references use, when no language pair is given.

Without a target language, the study scores with sacreBLEU's defaults for space-separated text
(the 13a tokenizer, English METEOR). On Chinese, Japanese, Korean, Thai and other scripts written
without spaces between words those numbers are wrong (BLEU sees whole sentences as a few "words"),
so :func:`spaceless_script` detects such references and the study refuses them without a pair
instead of silently scoring with 13a (sacreBLEU's ``-l`` picks the tokenizer; so does ``-l`` here).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

#: (script, language code sacreBLEU's -l would take, code point ranges)
SCRIPTS: tuple[tuple[str, str, tuple[tuple[int, int], ...]], ...] = (
    ("Japanese kana", "ja", ((0x3040, 0x30FF), (0x31F0, 0x31FF), (0xFF66, 0xFF9F))),
    ("Hangul", "ko", ((0xAC00, 0xD7AF), (0x1100, 0x11FF), (0x3130, 0x318F))),
    ("Han (CJK)", "zh", ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0xF900, 0xFAFF),
                         (0x20000, 0x2FA1F))),
    ("Thai", "th", ((0x0E00, 0x0E7F),)),
    ("Lao", "lo", ((0x0E80, 0x0EFF),)),
    ("Khmer", "km", ((0x1780, 0x17FF),)),
    ("Myanmar", "my", ((0x1000, 0x109F),)),
)

#: the share of letters in such scripts above which the references are taken to be in one
SHARE = 0.3
#: characters looked at (the first ones of each reference)
SAMPLE = 200_000


def _script_of(ch: str) -> str | None:
    cp = ord(ch)
    for name, _code, ranges in SCRIPTS:
        if any(lo <= cp <= hi for lo, hi in ranges):
            return name
    return None


def script_counts(lines: Iterable[str], limit: int = SAMPLE) -> tuple[Counter[str], int]:
    """Letters per spaceless script, and all letters, in the first ``limit`` characters."""
    counts: Counter[str] = Counter()
    letters = seen = 0
    for line in lines:
        for ch in line:
            if ch.isalpha():
                letters += 1
                name = _script_of(ch)
                if name is not None:
                    counts[name] += 1
        seen += len(line)
        if seen >= limit:
            break
    return counts, letters


def spaceless_script(references: Sequence[Sequence[str]]) -> tuple[str, str] | None:
    """``(script, language code)`` when the references are mostly written in a script without
    spaces between words; None otherwise. Japanese is kana (with or without Han); Han alone is
    taken as Chinese."""
    counts: Counter[str] = Counter()
    letters = 0
    for lines in references:
        c, n = script_counts(lines, SAMPLE // max(1, len(references)))
        counts += c
        letters += n
    total = sum(counts.values())
    if letters == 0 or total / letters < SHARE:
        return None
    if counts["Japanese kana"] >= 0.05 * total:
        return "Japanese kana", "ja"
    name = counts.most_common(1)[0][0]
    return name, next(code for n, code, _ in SCRIPTS if n == name)
