"""The fast BLEU kernels against independent references: sacreBLEU's tokenizers for the byte-span
tokenizer, dicts for the token ids, Counters for the clipped counts."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.metrics import clipping
from mtscore.metrics.clipping import clipped_counts, clipped_counts_by_rank
from mtscore.text import span_encoder
from mtscore.text.interning import KeyTable, TokenInterner
from mtscore.text.span_encoder import SpanEncoder, make_encoder
from mtscore.text.spans import (
    SPAN_TOKENIZERS,
    UNICODE_SPACES,
    corpus_bytes,
    token_spans,
)
from mtscore.text.tokenizers import get_tokenizer, preprocess

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics.bleu import _get_tokenizer  # noqa: E402

SACRE = {name: _get_tokenizer(name)() for name in ("13a", "intl", "zh", "char", "none")}

# pieces that exercise every rule: runs of . and , next to digits and letters, hyphens after digits,
# rule-1 symbols, entities (also nested and split by <skipped>), white space of every kind, CJK and
# other scripts, 4-byte characters, NUL, and words of 7, 8, 15, 16 and more bytes
PIECES = st.sampled_from([
    *list("aZ09 .,-;:'\"!?()[]{}<>/\\|@#$%^&*_+=~`\t\x0b\x0c\r\x1c\x1f\x00\x85\xa0\u1680\u2000\u2009"
         "\u2028\u202f\u205f\u3000–—“”‘’…中文字日本語カタナ한국абвΣσςÅé١½€☀✂ⓐ𠀀𪛖丽\uff01\uff0c\u3002"),
    "&amp;", "&quot;", "&lt;", "&gt;", "&amp;quot;", "&am<skipped>p;", "<skipped>", "3.5", "1,000",
       "a.", ".5", "5.", "..", "...", ".,.,", "5..5", "a..5", "U.S.", "--", "-3", "3-", "3--", "e.g.,",
       "seven77", "eight888", "fifteen15bytes!", "sixteen16bytes!!", "a-very-long-token-of-many-bytes",
       "naïveté", "日本語の文章です", "😀", "x\u0301"])
TEXT = st.lists(PIECES, max_size=16).map("".join)
LINES = st.lists(TEXT, min_size=1, max_size=6)


def span_tokens(lines: list[str], name: str, lowercase: bool) -> list[list[str]]:
    data = corpus_bytes(lines, name, lowercase)
    cjk = getattr(get_tokenizer(name), "cjk_ranges", ())
    starts, ends, lengths = token_spans(data, len(lines), name, cjk)
    tokens = [data[s:e].decode("utf-8", "surrogatepass") for s, e in zip(starts.tolist(), ends.tolist())]
    out, at = [], 0
    for n in lengths.tolist():
        out.append(tokens[at:at + n])
        at += n
    return out


def sacre_tokens(lines: list[str], name: str, lowercase: bool) -> list[list[str]]:
    """sacreBLEU's preprocessing: lowercase, strip trailing white space, tokenize, split."""
    tok = SACRE[name] if name in SACRE else get_tokenizer(name)
    return [tok((line.lower() if lowercase else line).rstrip()).split() for line in lines]


@pytest.mark.parity
@pytest.mark.parametrize("name", ["13a", "intl", "zh", "char", "none"])
@settings(max_examples=400, deadline=None)
@given(lines=LINES, lowercase=st.booleans())
def test_byte_spans_equal_sacrebleu_tokenizers(name: str, lines: list[str], lowercase: bool) -> None:
    lines = [line.replace("\n", " ") for line in lines]
    assert span_tokens(lines, name, lowercase) == sacre_tokens(lines, name, lowercase)


@settings(max_examples=200, deadline=None)
@given(lines=LINES, lowercase=st.booleans())
def test_byte_spans_zh_fixed_equal_its_line_tokenizer(lines: list[str], lowercase: bool) -> None:
    assert span_tokens(lines, "zh-fixed", lowercase) == sacre_tokens(lines, "zh-fixed", lowercase)


DENSE = st.lists(st.sampled_from(list(".,5a -(中")), max_size=25).map("".join)
# intl: ASCII and other punctuation (incl. multi-byte), numbers of other scripts, symbols
DENSE_INTL = st.lists(st.sampled_from(list(".,5a -($、٫…¿١½¥€«中\u3000")), max_size=25).map("".join)


@pytest.mark.parametrize("name", ["13a", "zh"])
@settings(max_examples=300, deadline=None)
@given(lines=st.lists(DENSE, min_size=1, max_size=4))
def test_byte_spans_on_dense_runs_of_dots_digits_and_hyphens(name: str, lines: list[str]) -> None:
    """Rules 2-4 interact only through runs of . and , next to digits: a dense alphabet finds them."""
    assert span_tokens(lines, name, False) == sacre_tokens(lines, name, False)


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(lines=st.lists(DENSE_INTL, min_size=1, max_size=4))
def test_byte_spans_intl_on_dense_runs_of_punctuation_and_numbers(lines: list[str]) -> None:
    assert span_tokens(lines, "intl", False) == sacre_tokens(lines, "intl", False)


@pytest.mark.parametrize("line", [
    ".", ",", "..", "...", "....", "5.", ".5", "5..", "..5", "5...5", "a.b", "a..b", "a,5", "5,a",
    "a.,5", "5.,a", ".a.", "5-5", "5--", "-5-", "a-5", "(5.)", "$5,000.00.", "&amp;5.", "1.5-2.5",
    " . 5 ", "中.5", "5.中", "中,中", "\u3000.5\u3000", ".中."])
@pytest.mark.parametrize("name", ["13a", "intl", "zh"])
def test_byte_spans_on_edge_cases(name: str, line: str) -> None:
    assert span_tokens([line, "x " + line, line + " x"], name, False) == \
        sacre_tokens([line, "x " + line, line + " x"], name, False)


def test_unicode_spaces_are_every_non_ascii_space() -> None:
    every = [c for c in range(0x80, 0x110000) if chr(c).isspace()]
    assert UNICODE_SPACES.tolist() == every


def test_span_tokenizers_are_registered() -> None:
    for name in SPAN_TOKENIZERS:
        assert isinstance(make_encoder(get_tokenizer(name), False), SpanEncoder)
    pytest.importorskip("MeCab")
    pytest.importorskip("ipadic")
    assert not isinstance(make_encoder(get_tokenizer("ja-mecab"), False), SpanEncoder)


def test_token_spans_rejects_inner_newlines() -> None:
    with pytest.raises(ValueError):
        token_spans(b"a\nb\nc", 2, "13a")


# ---- token ids ------------------------------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(batches=st.lists(st.lists(st.integers(0, 2**64 - 1) | st.integers(0, 40), max_size=300),
                        min_size=1, max_size=4),
       queries=st.lists(st.integers(0, 2**64 - 1) | st.integers(0, 40), max_size=200))
def test_key_table_equals_a_dict(batches: list[list[int]], queries: list[int]) -> None:
    table, expected, next_id = KeyTable(), {}, 0
    for batch in batches:
        keys = np.array(batch, dtype=np.uint64)
        ids, next_id = table.add(keys, next_id)
        for key, i in zip(batch, ids.tolist()):
            expected.setdefault(key, i)
            assert expected[key] == i
        assert sorted(expected.values()) == list(range(next_id))
    assert table.find(np.array(queries, dtype=np.uint64)).tolist() == [expected.get(q, -1) for q in queries]
    assert len(table) == len(expected) == table.key_of().__len__()


def test_key_table_probes_past_collisions() -> None:
    """Keys that all share one home slot (key·φ mod 2^64 is small) are all kept apart."""
    inverse = pow(int(KeyTable._MULTIPLIER), -1, 1 << 64)
    keys = np.array([(j * inverse) % (1 << 64) for j in range(1500)], dtype=np.uint64)
    table = KeyTable()
    assert (table._home(keys) == 0).all()
    ids, next_id = table.add(keys[:1000], 0)
    more, next_id = table.add(keys, next_id)
    assert next_id == 1500 and more[:1000].tolist() == ids.tolist()
    assert sorted(more.tolist()) == list(range(1500))
    assert table.find(keys).tolist() == more.tolist()
    assert table.find(keys + np.uint64(1)).tolist() == [-1] * 1500


WORD = st.text(st.characters(codec="utf-8", exclude_characters="\n"), min_size=1, max_size=24)


@settings(max_examples=200, deadline=None)
@given(refs=st.lists(WORD, max_size=60), hyps=st.lists(WORD, max_size=60))
def test_interner_ids_equal_dict_ids(refs: list[str], hyps: list[str]) -> None:
    """Tokens of 1-24 bytes and more (short, mid and long paths), NUL included: equal ids iff equal."""
    interner = TokenInterner()

    def ids(words: list[str], grow: bool) -> list[int]:
        data = b"".join(w.encode() for w in words)
        bounds = np.cumsum([0] + [len(w.encode()) for w in words])
        return interner.ids(data, bounds[:-1], bounds[1:], grow).tolist()

    ref_ids = ids(refs, True)
    first: dict[str, int] = {}
    for w, i in zip(refs, ref_ids):
        assert first.setdefault(w, i) == i
    assert len(set(ref_ids)) == len(first) == interner.size
    assert ids(hyps, False) == [first.get(w, -1) for w in hyps]
    assert interner.tokens() == first


# ---- encoders -------------------------------------------------------------------------------

def decode(encoder, ids: np.ndarray, lengths: np.ndarray) -> list[list[str]]:
    inverse = {i: t for t, i in encoder.vocab.items()}
    out, at = [], 0
    for n in lengths.tolist():
        out.append([inverse.get(i, "<unk>") for i in ids[at:at + n].tolist()])
        at += n
    return out


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SPAN_TOKENIZERS))
@settings(max_examples=150, deadline=None)
@given(refs=LINES, more_refs=LINES, hyps=LINES, lowercase=st.booleans())
@pytest.mark.parametrize("small", [0, 10**9])  # the byte kernel; line by line for tiny corpora
def test_span_encoder_equals_line_by_line(name: str, small: int, refs, more_refs, hyps,
                                          lowercase: bool) -> None:
    tokenizer = get_tokenizer(name)
    encoder = SpanEncoder(tokenizer, lowercase)
    kept = span_encoder.SMALL_CORPUS_CHARACTERS
    span_encoder.SMALL_CORPUS_CHARACTERS = small
    try:
        expected_refs = [line.split() for line in preprocess(refs + more_refs, tokenizer, lowercase)]
        got = decode(encoder, *encoder.encode(refs, grow=True)) + \
            decode(encoder, *encoder.encode(more_refs, grow=True))
        assert got == expected_refs
        vocab = encoder.vocab
        assert encoder.size == len(vocab)
        expected = [[t if t in vocab else "<unk>" for t in line.split()]
                    for line in preprocess(hyps, tokenizer, lowercase)]
        assert decode(encoder, *encoder.encode(hyps, grow=False)) == expected
    finally:
        span_encoder.SMALL_CORPUS_CHARACTERS = kept


@pytest.mark.parametrize("name", sorted(SPAN_TOKENIZERS))
def test_span_encoder_segments_with_line_breaks(name: str) -> None:
    tokenizer = get_tokenizer(name)
    encoder = SpanEncoder(tokenizer, False)
    lines = ["a-\nb c.", "d\ne", "", "f"]
    assert decode(encoder, *encoder.encode(lines, grow=True)) == \
        [line.split() for line in preprocess(lines, tokenizer)]
    ids, lengths = encoder.encode([], grow=False)
    assert len(ids) == len(lengths) == 0


# ---- clipped counts -------------------------------------------------------------------------

def counter_clipped(hyps: list[list[int]], refs: list[list[list[int] | None]], N: int) -> np.ndarray:
    out = np.zeros((len(hyps), N), dtype=np.int64)
    for i, h in enumerate(hyps):
        for n in range(1, N + 1):
            hc = Counter(tuple(h[j:j + n]) for j in range(len(h) - n + 1))
            best: Counter = Counter()
            for stream in refs:
                r = stream[i]
                if r is None:
                    continue
                for g, c in Counter(tuple(r[j:j + n]) for j in range(len(r) - n + 1)).items():
                    best[g] = max(best[g], c)
            out[i, n - 1] = sum(min(c, best[g]) for g, c in hc.items() if -1 not in g)
    return out


@st.composite
def id_corpora(draw):
    S = draw(st.integers(1, 6))
    V = draw(st.integers(1, 6))
    seq = st.lists(st.integers(0, V - 1), max_size=12)
    hyps = [draw(st.lists(st.integers(-1, V - 1), max_size=12)) for _ in range(S)]
    K = draw(st.integers(1, 4))
    refs = [[draw(st.none() | seq) for _ in range(S)] for _ in range(K)]
    return hyps, refs, V, draw(st.integers(1, 6))


def as_streams(hyps, refs):
    hyp_ids = np.array([t for h in hyps for t in h], dtype=np.int64)
    hyp_lengths = np.array([len(h) for h in hyps], dtype=np.int64)
    streams = []
    for stream in refs:
        present = [i for i, r in enumerate(stream) if r is not None]
        streams.append((np.array([t for i in present for t in stream[i]], dtype=np.int64),
                        np.array([len(stream[i]) for i in present], dtype=np.int64),
                        np.array(present, dtype=np.int64)))
    return hyp_ids, hyp_lengths, streams


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(id_corpora())
def test_clipped_counts_equal_counters(data) -> None:
    hyps, refs, V, N = data
    expected = counter_clipped(hyps, refs, N)
    args = (*as_streams(hyps, refs), V, N)
    np.testing.assert_array_equal(clipped_counts_by_rank(*args), expected)
    small = clipping.SMALL_CORPUS_TOKENS
    try:
        for threshold in (0, 10**9):  # the numpy path, then the Counter path for tiny corpora
            clipping.SMALL_CORPUS_TOKENS = threshold
            np.testing.assert_array_equal(clipped_counts(*args), expected)
            # a vocabulary too large for (segment, token, position) in 63 bits: the by-rank path
            wide = (*as_streams(hyps, refs), V + 2**50, N)
            np.testing.assert_array_equal(clipped_counts(*wide), expected)
    finally:
        clipping.SMALL_CORPUS_TOKENS = small


def test_clipped_counts_with_wide_keys_falls_back_exactly() -> None:
    """Order 40 over 70 shared tokens does not fit one 63-bit key: the by-rank path answers."""
    rng = np.random.default_rng(3)
    hyps = [rng.integers(0, 70, 200).tolist() for _ in range(3)]
    refs = [[h[:] for h in hyps], [rng.integers(0, 70, 150).tolist() for _ in range(3)]]
    refs[0][1] = None
    np.testing.assert_array_equal(clipped_counts(*as_streams(hyps, refs), 70, 40),
                                  counter_clipped(hyps, refs, 40))


@pytest.mark.parity
def test_lone_surrogates_tokenize_as_sacrebleu() -> None:
    """Possible only through the API: they are kept as characters (UTF-8 with surrogatepass)."""
    lines = ["a\ud800b. c &amp; d", "x \udfff, 5", "\ud83d"]
    kept = span_encoder.SMALL_CORPUS_CHARACTERS
    try:
        for small in (0, 10**9):
            span_encoder.SMALL_CORPUS_CHARACTERS = small
            for name in ("13a", "zh", "char", "none"):
                encoder = SpanEncoder(get_tokenizer(name), False)
                assert decode(encoder, *encoder.encode(lines, grow=True)) == \
                    sacre_tokens(lines, name, False)
    finally:
        span_encoder.SMALL_CORPUS_CHARACTERS = kept


@pytest.mark.parity
@pytest.mark.parametrize("name", ["13a", "zh", "char", "none"])
@settings(max_examples=100, deadline=None)
@given(hyps=st.lists(TEXT, min_size=3, max_size=3), refs=st.lists(st.lists(TEXT, min_size=3, max_size=3),
                                                                   min_size=1, max_size=3))
def test_corpus_statistics_equal_sacrebleu_on_random_text(name: str, hyps, refs) -> None:
    """The whole pipeline (span tokenizer, ids, clipping) against sacreBLEU's statistics."""
    from sacrebleu.metrics import BLEU as SacreBLEU

    from mtscore import BLEU

    hyps = [h.replace("\n", " ") for h in hyps]
    refs = [[r.replace("\n", " ") for r in stream] for stream in refs]
    theirs = SacreBLEU(tokenize=name).corpus_score(hyps, refs)
    kept = span_encoder.SMALL_CORPUS_CHARACTERS, clipping.SMALL_CORPUS_TOKENS
    try:
        for small in (0, 10**9):  # the numpy kernels, then the paths for tiny corpora
            span_encoder.SMALL_CORPUS_CHARACTERS = clipping.SMALL_CORPUS_TOKENS = small
            ours = BLEU(tokenize=name).corpus_score(hyps, refs)
            assert list(ours.counts) == theirs.counts and list(ours.totals) == theirs.totals
            assert (ours.hyp_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)
            assert ours.score == pytest.approx(theirs.score, abs=1e-9)
    finally:
        span_encoder.SMALL_CORPUS_CHARACTERS, clipping.SMALL_CORPUS_TOKENS = kept


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["&", "amp;", "quot;", "lt;", "gt;", "a", ";", "amp", "&amp;", "t;", "q"]),
                max_size=14).map("".join))
def test_unescape_13a_equals_the_four_replacements_in_order(text: str) -> None:
    from mtscore.text.spans import unescape_13a

    data = text.encode()
    expected = (data.replace(b"&quot;", b'"').replace(b"&amp;", b"&").replace(b"&lt;", b"<")
                .replace(b"&gt;", b">"))
    assert unescape_13a(data) == expected


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 300), st.floats(0, 1), st.integers(0, 2**32 - 1))
def test_sparse_flatnonzero_equals_flatnonzero(size: int, density: float, seed: int) -> None:
    from mtscore.text.spans import sparse_flatnonzero

    mask = np.random.default_rng(seed).random(size) < density
    assert np.array_equal(sparse_flatnonzero(mask), np.flatnonzero(mask))
    assert sparse_flatnonzero(mask).dtype == np.flatnonzero(mask).dtype


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(min_size=1, max_size=24).filter(lambda t: b" " not in t), min_size=1,
                max_size=40))
def test_token_words_are_equal_exactly_for_equal_tokens(tokens: list[bytes]) -> None:
    """Two words per token (short, 9-15 bytes with the second word, longer ones numbered): equal
    keys for equal tokens and only for them, whatever bytes follow a token."""
    from mtscore.text.interning import token_words

    data = b" ".join(tokens) + b" " * 16
    starts = np.cumsum([0] + [len(t) + 1 for t in tokens[:-1]])
    ends = starts + np.array([len(t) for t in tokens])
    first, second = token_words(data, starts, ends, {})
    keys = list(zip(first.tolist(), second.tolist()))
    for i, a in enumerate(tokens):
        for j, b in enumerate(tokens):
            assert (keys[i] == keys[j]) == (a == b)
    # the same tokens followed by other bytes give the same keys
    tight = b"".join(tokens) + b"\xff" * 16
    at = np.cumsum([0] + [len(t) for t in tokens[:-1]])
    first2, second2 = token_words(tight, at, at + ends - starts, {})
    short = (ends - starts) <= 15
    assert np.array_equal(first2[short], first[short]) and np.array_equal(second2[short], second[short])


@given(st.lists(st.integers(0, 0x10FFFF), max_size=200))
def test_in_sorted_equals_isin(values: list[int]) -> None:
    from mtscore.text.spans import UNICODE_SPACES, _in_sorted

    cp = np.array(values + [int(c) for c in UNICODE_SPACES], dtype=np.int64)
    assert np.array_equal(_in_sorted(cp, UNICODE_SPACES), np.isin(cp, UNICODE_SPACES))


def test_symbols_13a_equal_the_ranges_of_rule_1_on_every_byte() -> None:
    from mtscore.text.spans import _SYMBOLS, _in_ranges, _is_digit, _symbols_13a

    b = np.arange(256, dtype=np.uint8)
    assert np.array_equal(_symbols_13a(b, _is_digit(b)), _in_ranges(b, _SYMBOLS))
