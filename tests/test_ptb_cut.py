"""Cutting one run of the PTB tokenizer into two (text.ptb.cut) gives the whole run's lines."""

from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.text.ptb import coco_tokenize, tokenize_lines
from mtscore.text.ptb.coco import caption_lines
from mtscore.text.ptb.cut import ends_like_abbreviation, independent_cuts, tokenize_part, value_open

from .conftest import REPO, needs_wmt22, wmt22_pairs

sys.path.insert(0, str(REPO / "scripts"))
from make_coco_oracle import caption_like_lines, generated_caption_set, wmt_lines


def check_every_cut(captions: list[str], fast: bool = True, every: int = 1) -> int:
    """Every allowed cut (every ``every``-th of them) gives the whole run's lines; how many were
    checked."""
    whole = coco_tokenize(captions, fast)
    lines = caption_lines(captions)
    allowed = independent_cuts(lines)
    assert allowed[0] and allowed[-1] and len(allowed) == len(lines) + 1
    cuts = [k for k in range(1, len(lines)) if allowed[k]][::every]
    whole_lines = tokenize_lines(lines, fast)
    for k in cuts:
        first = tokenize_lines([*lines[:k], ""], fast)
        second = tokenize_lines(lines[k:], fast)
        assert first[-1] == ""  # (the empty line after the last newline)
        assert [*first[:-1], *second] == whole_lines, k
        assert tokenize_part(captions, 0, k) + tokenize_part(captions, k, len(captions)) == whole, k
    return len(cuts)


# pieces whose tokens depend on the next line: acronyms and abbreviations before capitalized
# words and digits, SGML tags with quoted values (which may hold newlines), spaced dots, phone
# numbers and fractions, white space of every kind
_PIECES = st.sampled_from([
    "U.S.", "U.S. ", "Mr.", "etc.", "etc. ", "ca.", "No.", "Co.", "Inc.", "a.", "I.", "Ph.D.", "The",
    "A", "the", "1", "1/2", "555", "(555)", "123-4567", ".", " .", ". .", "...", "<a b='c", "'>",
    "<a b=\"c", "\">", "<b>", "x=\"y", "=", "= '", "'", "\"", "can't", "cannot", " ", "  ", "\t",
    "\u00a0", "\u3000", "\r", "\u2028", "&amp;", "--", "😀", "é.", "5,000.", ":-)", "dog", "dog."])
_LINES = st.lists(st.lists(_PIECES, max_size=6).map("".join), max_size=12)


@settings(max_examples=400, deadline=None)
@given(_LINES)
def test_allowed_cuts_give_the_whole_run(captions: list[str]) -> None:
    check_every_cut(captions, fast=True)


@settings(max_examples=150, deadline=None)
@given(_LINES)
def test_allowed_cuts_give_the_whole_run_by_the_rule(captions: list[str]) -> None:
    check_every_cut(captions, fast=False)


def test_cuts_on_caption_like_lines() -> None:
    lines = caption_like_lines(1500, seed=5)
    assert check_every_cut(lines[:600], every=10) > 10


def test_cuts_on_the_generated_caption_set() -> None:
    refs, results = generated_caption_set()
    flat = [c for image_refs in refs.values() for c in image_refs]
    assert check_every_cut(flat, every=40) > 10
    assert check_every_cut(list(results[0].values()), every=15) > 10


@needs_wmt22
@pytest.mark.parametrize("pair", wmt22_pairs() or ["cs-en", "de-en", "ja-en", "zh-en"])
def test_cuts_on_wmt22(pair: str) -> None:
    assert check_every_cut(wmt_lines(pair)[:500], every=4) > 5


def test_what_a_cut_must_not_split() -> None:
    """The cases the rules make: each is a real difference for an unchecked cut."""
    for first, second in (("the U.S.", "The dog"), ("etc.", "a dog"), ("ca.", "5 dogs"),
                          ("a <a b=\"x", "y\"> dog")):
        lines = [first, second]
        assert not independent_cuts(lines)[1]
        cut = tokenize_lines([first, ""])[:-1] + tokenize_lines([second])
        assert cut != tokenize_lines(lines), lines


def test_abbreviation_like_ends_and_open_quotes() -> None:
    for text in ("the U.S. \t", "a\nb etc.\n \n"):
        assert ends_like_abbreviation(text, len(text))
    for text in ("a dog .", ".", "a dog", "", "\n."):
        assert not ends_like_abbreviation(text, len(text))
    assert value_open("<a b = 'c", 9) and value_open("x=\"y'", 5)
    assert not value_open("<a b = 'c\nd' e", 14) and not value_open("a 'b'", 5)
    assert value_open("<a b='c'", 7) and not value_open("<a b='c'", 8)  # (closed at 7)


def test_white_space_set_is_the_lexer_s_spacenl() -> None:
    """cut's characters of ``SPACENL`` (the white space and line breaks its abbreviation check
    skips) are exactly the characters the lexer's own macro matches, over all of Unicode."""
    import regex

    from mtscore.text.ptb import cut, macros

    spacenl = regex.compile(macros.SPACENL)
    matched = {chr(c) for c in range(sys.maxunicode + 1) if spacenl.fullmatch(chr(c)) is not None}
    assert matched == cut._SPACENL
