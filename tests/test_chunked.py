"""The chunk-wise encoder gives exactly the tokens of line-by-line tokenization (sacreBLEU's)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.text.chunked import ChunkEncoder
from mtscore.text.tokenizers import get_tokenizer, preprocess

ALPHABET = st.sampled_from(list(
    "aZ09 .,;:-–'\"“”!?()&<>/\t\u3000\x85\x01\x02中文日本カナ한Σσ€½☀𠀀丽\uff01") + [
        "&amp;", "&quot;", "&lt;", "&gt;", "&amp;quot;", "<skipped>", "3.5", "1,000", "a.", ".5",
        "U.S.", "--", "-3", "e.g.,"])
TEXT = st.lists(ALPHABET, max_size=14).map("".join)


def decode(encoder: ChunkEncoder, ids, lengths) -> list[list[str]]:
    inverse = {i: t for t, i in encoder.vocab.items()}
    out, start = [], 0
    for n in lengths:
        out.append([inverse.get(int(i), "<unk>") for i in ids[start:start + n]])
        start += n
    return out


@pytest.mark.parametrize("name", ["13a", "intl", "zh", "zh-fixed", "char", "none"])
@settings(max_examples=250, deadline=None)
@given(refs=st.lists(TEXT, min_size=1, max_size=6), hyps=st.lists(TEXT, min_size=1, max_size=6),
       lowercase=st.booleans())
def test_chunked_encoding_equals_line_by_line(name: str, refs, hyps, lowercase: bool) -> None:
    tokenizer = get_tokenizer(name)
    encoder = ChunkEncoder(tokenizer, lowercase)
    ref_tokens = decode(encoder, *encoder.encode(refs, grow=True))
    assert ref_tokens == [line.split() for line in preprocess(refs, tokenizer, lowercase)]
    hyp_tokens = decode(encoder, *encoder.encode(hyps, grow=False))
    expected = [[t if t in encoder.vocab else "<unk>" for t in line.split()]
                for line in preprocess(hyps, tokenizer, lowercase)]
    assert hyp_tokens == expected


def test_lines_with_inner_newlines_take_the_line_path() -> None:
    encoder = ChunkEncoder(get_tokenizer("13a"), False)
    ids, lengths = encoder.encode(["a-\nb c", "d"], grow=True)
    assert decode(encoder, ids, lengths) == [["ab", "c"], ["d"]]
