"""rouge-score's tokens of a whole corpus found on code units (:mod:`mtscore.metrics.rouge.code_units`)
equal :func:`~mtscore.metrics.rouge.tokenize.rouge_score_tokens` text by text and sentence by
sentence (hypothesis): uppercase, the two characters that lower into ASCII (U+0130, U+212A), lone
surrogates, characters outside the BMP, NUL inside a text, texts that are only breaks, ``None``;
corpora of ASCII and of other text (UTF-8 bytes). The token ids of
:func:`~mtscore.metrics.rouge.corpus.encode_streams` and
:func:`~mtscore.metrics.rouge.corpus.encode_rouge_score` equal the tokens' (one to one)."""

from __future__ import annotations

import re
import sys

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.metrics.rouge import code_units, corpus
from mtscore.metrics.rouge.tokenize import Stems, rouge_score_tokens

_PIECES = ["a", "Z", "9", "ab", "CD", "running", "Flies", " ", "\n", "\x00", "-", "é", "É", "ß",
           "\u0130", "\u212a", "K", "k", "i", "\u0307", "\ud800", "\udfff", "\U0001f600",
           "\U00010000", "中文", "\u0100", "\u010a", "\u0161", "\u0141", "abcdefghijklmnopqrstu"]
_TEXT = st.lists(st.sampled_from(_PIECES) | st.characters(), max_size=12).map("".join)
_ASCII = st.text(alphabet="aZz09 \n\x00.-@[`{", max_size=20)


def _sentences(spans: code_units.CorpusSpans) -> list[list[list[str]]]:
    """Every text's tokens, sentence by sentence (the pieces between newlines), read back from
    the spans."""
    data = spans.data.tobytes()
    tokens = [data[s:e].decode("ascii") for s, e in zip(spans.starts.tolist(), spans.ends.tolist())]
    out: list[list[list[str]]] = [[[]]]
    breaks = [(p, "text" if nul else "line") for p, nul in zip(spans.breaks.tolist(),
                                                                  spans.nul.tolist())]
    assert breaks == sorted(breaks)
    b = 0
    for start, token in zip(spans.starts.tolist(), tokens):
        while b < len(breaks) and breaks[b][0] < start:
            out.append([[]]) if breaks[b][1] == "text" else out[-1].append([])
            b += 1
        out[-1][-1].append(token)
    for _, kind in breaks[b:]:
        out.append([[]]) if kind == "text" else out[-1].append([])
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.none() | _TEXT, max_size=6) | st.lists(st.none() | _ASCII, max_size=6))
def test_corpus_spans_equal_the_tokenizer(texts: list[str | None]) -> None:
    spans = code_units.corpus_spans(texts)
    assert spans.present.tolist() == [t is not None for t in texts]
    assert len(spans.data) - code_units.PAD >= (spans.ends.max() if len(spans.ends) else 0)
    want = [[rouge_score_tokens(s) for s in ("" if t is None else t).replace("\x00", " ")
             .split("\n")] for t in texts] or [[[]]]
    assert _sentences(spans) == want


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 255), max_size=40))
def test_token_edges_are_runs_of_ascii_letters_and_digits(units: list[int]) -> None:
    """Any bytes (those of characters outside ASCII are 0x80 or more): the runs of bytes that are
    ASCII letters or digits."""
    array = np.array(units, dtype=np.uint8)
    text = "".join(map(chr, units))
    starts, ends = code_units.token_edges(code_units.token_units(code_units.padded_bytes(array)))
    want = [m.span() for m in re.finditer("[A-Za-z0-9]+", text)]
    assert list(zip(starts.tolist(), ends.tolist())) == want


def test_only_two_characters_outside_ascii_lower_into_ascii() -> None:
    """code_units lowers ASCII letters only (then ``str.lower`` if a text holds one of
    LOWER_TO_ASCII): exact for rouge-score's tokens because no other character's ``str.lower()``
    holds an ASCII character."""
    found = {c for c in range(0x80, sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF
             and any(ord(x) < 128 for x in chr(c).lower())}
    assert {chr(c) for c in found} == set(code_units.LOWER_TO_ASCII)


@settings(max_examples=150, deadline=None)
@given(streams=st.lists(st.lists(st.none() | _TEXT, min_size=2, max_size=2), min_size=1,
                        max_size=3), stem=st.booleans(), sentences=st.booleans())
def test_encoded_ids_equal_the_tokens(streams, stem, sentences) -> None:
    """encode_streams (all streams at once) and encode_rouge_score (stream by stream): the ids of
    every text are its tokens' (or stems'), equal ids exactly for equal tokens, and the lengths
    of texts and sentences the tokenizer's."""
    stems = Stems() if stem else None
    vocabulary = corpus.ByteVocabulary()
    for encoded in (corpus.encode_streams(streams, stems, sentences),
                    [corpus.encode_rouge_score(vocabulary, s, stems, sentences) for s in streams]):
        pairs = set()
        for stream, enc in zip(streams, encoded):
            texts = ["" if t is None else t for t in stream]
            tokens = [rouge_score_tokens(t.replace("\x00", " "), stems) for t in texts]
            assert enc.lengths.tolist() == list(map(len, tokens))
            assert enc.present.tolist() == [t is not None for t in stream]
            pairs |= set(zip(enc.ids.tolist(), (t for text in tokens for t in text)))
            if sentences:
                want = [len(rouge_score_tokens(s, stems)) for t, p in zip(texts, stream)
                        if p is not None for s in t.replace("\x00", " ").split("\n")]
                assert enc.sentence_lengths is not None
                assert enc.sentence_lengths.tolist() == want
        assert len(pairs) == len({i for i, _ in pairs}) == len({t for _, t in pairs})
