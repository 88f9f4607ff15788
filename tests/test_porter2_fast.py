"""The batched Snowball English stemmer (lexicon/porter2_fast.py) equals the rule
(:func:`mtscore.lexicon.porter2.porter2_stem`) word by word: on every token of English text and on
random words built from the rule's own prefixes, suffixes and exception words."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.data import sample_path
from mtscore.lexicon import porter2
from mtscore.lexicon.porter2 import porter2_stem
from mtscore.lexicon.porter2_fast import porter2_stems

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "wmt22"

#: every suffix and exception of the rule, the R1 prefixes and endings that reach other branches
PIECES = sorted({*(s for s, _ in porter2._STEP2), *(s for s, _ in porter2._STEP3), *porter2._STEP4,
                 *porter2._EXCEPTION1, *porter2._EXCEPTION2, *porter2._R1_PREFIXES, *porter2._DOUBLES,
                 "eedly", "ingly", "edly", "eed", "ing", "ed", "sses", "ied", "ies", "us", "ss", "s",
                 "'s'", "'s", "'", "y", "ly", "at", "bl", "iz", "e", "l", "ll", "ogi", "li"})
LETTERS = "abcdeghiklmnorstuvwxyz'Y1é"


def _tokens() -> list[str]:
    files = sorted(SHARED.glob("*-en/references/*.txt")) + sorted(SHARED.glob("*-en/systems/*.txt")) \
        if SHARED.is_dir() else []
    files = files or sorted((sample_path() / "references").glob("*.txt"))
    words: set[str] = set()
    for path in files:
        words.update(re.findall(r"[\w']+|[^\w\s]", path.read_text(encoding="utf-8").lower()))
    return sorted(words)


def test_equals_the_rule_on_english_text() -> None:
    words = _tokens()
    assert len(words) > 2000
    assert porter2_stems(words) == [porter2_stem(w) for w in words]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(PIECES), st.text(LETTERS, max_size=3)), max_size=5))
def test_equals_the_rule_on_built_words(parts: list[str]) -> None:
    word = "".join(parts)
    assert porter2_stems([word]) == [porter2_stem(word)]


@settings(max_examples=1000, deadline=None)
@given(st.text(LETTERS, max_size=12))
def test_equals_the_rule_on_random_words(word: str) -> None:
    assert porter2_stems([word]) == [porter2_stem(word)]


def test_the_rules_suffix_lists_are_longest_first() -> None:
    # what porter2_fast relies on: the first suffix of a list that ends a word is its longest one
    for suffixes in ([s for s, _ in porter2._STEP2], [s for s, _ in porter2._STEP3], list(porter2._STEP4)):
        lengths = [len(s) for s in suffixes]
        assert lengths == sorted(lengths, reverse=True)
    assert porter2_stems([]) == []
