"""Tokenizers against sacreBLEU's, on scripts and cases the WMT data lacks, line by line and corpus-wide."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.errors import OptionError
from mtscore.text.tokenizers import TOKENIZERS, get_tokenizer, preprocess

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics.bleu import _get_tokenizer  # noqa: E402

SACRE = {name: _get_tokenizer(name)() for name in ("13a", "intl", "zh", "char", "none")}

CASES = [
    "The cat sat on the mat.",
    "Prices rose 3.5% to $1,234.56 on 2021-03-04 -- a record.",
    "He said &quot;no&quot; &amp; left &lt;quickly&gt;. <skipped> done",
    "U.S. officials, e.g. Mr. Smith, met at 10.30am.",
    "我们在北京见面，然后去了上海。",
    "今天是2022年12月1日，气温-3.5度。",
    "東京で会いましょう。カタカナとひらがな、漢字。",
    "Mixed 中文 and English, 日本語 too — “quoted” ‘text’ … ok?",
    "Ｆｕｌｌｗｉｄｔｈ　ＡＳＣＩＩ！",
    "Emoji ☀ ☺ and dingbats ✂ ✈ and ⓐ",
    "Привет, мир! Как дела? Ёлка-палка.",
    "مرحبا بالعالم، كيف حالك؟",
    "Ελληνικά: ΣΟΦΟΣ σοφός.",
    "tabs\tand  multiple   spaces\x0bvertical",
    "line\x85next\u2028sep\u3000ideographic space",
    ".5 and 5. and 5.5 and ,5 and 5,5 and -5 and 5-",
    "a-\nb",
    "𠀀 supplementary ideograph 𪛖 and 丽",
    "",
    "   ",
    "!!!???...,,,",
]

ALPHABET = st.sampled_from(list(
    "aZ09 .,;:-–—'\"“”‘’!?()[]{}<>/\\|@#$%^&*_+=~`\t\u3000\u2028\x85"
    "中文字北京日本語カタナひらがな한국어абвΣσςÅé١٢٣₀½€£¥©®™☀✂ⓐ𠀀丽\uff01\uff21"))


@pytest.mark.parametrize("name", ["13a", "intl", "zh", "char", "none"])
def test_fixed_cases_match_sacrebleu(name: str) -> None:
    ours = get_tokenizer(name)
    theirs = SACRE[name]
    for line in CASES:
        assert ours(line) == theirs(line), line
    assert ours.tokenize_corpus(CASES) == [theirs(line) for line in CASES]


@pytest.mark.parity
@pytest.mark.parametrize("name", ["13a", "intl", "zh", "char", "none"])
@settings(max_examples=300, deadline=None)
@given(lines=st.lists(st.text(ALPHABET, max_size=30), min_size=1, max_size=6))
def test_random_text_matches_sacrebleu(name: str, lines: list[str]) -> None:
    ours = get_tokenizer(name)
    theirs = SACRE[name]
    assert ours.tokenize_corpus(lines) == [theirs(line) for line in lines]


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.text(ALPHABET, max_size=30), min_size=1, max_size=6), lower=st.booleans())
def test_preprocess_matches_sacrebleu_preprocessing(lines: list[str], lower: bool) -> None:
    """sacreBLEU lowercases, strips trailing white space, then tokenizes."""
    expected = [SACRE["13a"]((line.lower() if lower else line).rstrip()) for line in lines]
    assert preprocess(lines, get_tokenizer("13a"), lower) == expected


def test_zh_reproduces_sacrebleu_range_bug_and_fixed_variant_does_not() -> None:
    line = "“引号”和𠀀字"
    assert get_tokenizer("zh")(line) == SACRE["zh"](line)
    assert get_tokenizer("zh")(line).split()[0] == "“"  # curly quote split as a Chinese character
    fixed = get_tokenizer("zh-fixed")
    assert fixed.signature() == "zh-fixed"
    assert "𠀀" in fixed(line).split()  # the supplementary ideograph is its own token
    assert fixed("a“b”c") == "a“b”c"


@pytest.mark.parity
def test_zh_character_classes_equal_sacrebleu_on_every_code_point() -> None:
    from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

    cjk = get_tokenizer("zh")._cjk
    for cp in range(0x110000):
        char = chr(cp)
        assert (cjk.fullmatch(char) is not None) == TokenizerZh._is_chinese_char(char), hex(cp)


def test_ja_mecab_matches_sacrebleu() -> None:
    pytest.importorskip("MeCab")
    pytest.importorskip("ipadic")
    ours = get_tokenizer("ja-mecab")
    theirs = _get_tokenizer("ja-mecab")()
    lines = ["東京で会いましょう。", "今日は良い天気ですね！", "  前後に空白  ", "English mixed 日本語 123"]
    assert ours.tokenize_corpus(lines) == [theirs(line) for line in lines]
    assert ours.signature() == theirs.signature()


def test_unknown_tokenizer_lists_valid_names() -> None:
    with pytest.raises(OptionError) as err:
        get_tokenizer("moses")
    message = str(err.value)
    assert "moses" in message
    for name in TOKENIZERS:
        assert name in message


def test_line_encoder_gives_the_tokenizers_tokens() -> None:
    """ja-mecab (no span kernel) is encoded line by line: ids in order of first occurrence,
    -1 for hypothesis tokens no reference has."""
    from mtscore.text.span_encoder import LineEncoder, make_encoder

    tokenizer = get_tokenizer("ja-mecab")
    encoder = make_encoder(tokenizer, False)
    assert isinstance(encoder, LineEncoder)
    ids, lengths = encoder.encode(["今日は良い天気です", "", "今日は"], grow=True)
    assert lengths.tolist() == [len(tokenizer("今日は良い天気です").split()), 0, 2]
    assert ids.tolist() == [*list(range(lengths[0])), 0, 1]
    hyp_ids, _ = encoder.encode(["今日は雨"], grow=False)
    assert hyp_ids.tolist()[:2] == [0, 1] and hyp_ids.tolist()[2:] == [-1] * (len(hyp_ids) - 2)
