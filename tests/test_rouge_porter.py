"""rouge-score's stemmer, re-implemented (:mod:`mtscore.metrics.rouge.porter`), equals NLTK's
``PorterStemmer().stem`` (mode NLTK_EXTENSIONS, the one rouge-score 0.1.2 uses) word for word: on
words built to reach every rule, on hypothesis-generated words, on the shared WMT22 texts' tokens,
and (slow) on every token of the shipped WordNet 3.0 lemma list with common suffixes added."""

from __future__ import annotations

import gzip
import re
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.metrics.rouge import porter, porter_batch

from .conftest import WMT22, needs_wmt22

nltk_porter = pytest.importorskip("nltk.stem.porter")
NLTK = nltk_porter.PorterStemmer().stem

_TOKEN = re.compile(r"[a-z0-9]+")
#: suffixes of every rule of every step, and endings that meet the conditions (y, doubles, cvc)
SUFFIXES = ("s", "es", "sses", "ies", "ss", "ied", "eed", "ed", "ing", "at", "bl", "iz", "y", "ly",
            "ational", "tional", "enci", "anci", "izer", "bli", "alli", "entli", "eli", "ousli",
            "ization", "ation", "ator", "alism", "iveness", "fulness", "ousness", "aliti", "iviti",
            "biliti", "fulli", "logi", "icate", "ative", "alize", "iciti", "ical", "ful", "ness",
            "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "sion",
            "tion", "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize", "e", "ll", "yy", "yed")
STEMS = ("", "a", "y", "ya", "ay", "yy", "by", "toy", "sky", "tr", "tree", "hop", "fil", "fail",
         "conflat", "troubl", "siz", "hopp", "tann", "fall", "hiss", "fizz", "spi", "di", "relat",
         "condit", "valen", "digit", "radic", "differ", "vil", "analog", "vietnam", "predic",
         "oper", "feud", "decis", "hope", "callous", "form", "sensit", "sensib", "electr", "good",
         "reviv", "allow", "infer", "airlin", "gyroscop", "adjust", "defens", "irrit", "replac",
         "depend", "adopt", "homolog", "commun", "activ", "angular", "effect", "bowdler", "prob",
         "ceas", "contr", "ro", "geo", "theo", "archaeo", "x2", "4", "syzyg", "yyy", "queu")


def _check(words: list[str]) -> None:
    """porter.stem and porter_batch.stems (all words in one call) equal NLTK on every word."""
    want = [NLTK(w) for w in words]
    bad = [(w, porter.stem(w), s) for w, s in zip(words, want) if porter.stem(w) != s]
    assert not bad, f"{len(bad)} of {len(words)} words differ, e.g. {bad[:10]}"
    batch = porter_batch.stems(words)
    bad = [(w, b, s) for w, b, s in zip(words, batch, want) if b != s]
    assert not bad, f"batch: {len(bad)} of {len(words)} words differ, e.g. {bad[:10]}"


def test_rules_and_conditions() -> None:
    """Every stem with every suffix, once and twice (so every step sees every suffix), and the
    irregular forms."""
    words = {s + a for s in STEMS for a in SUFFIXES}
    words |= {w + a for w in list(words)[::7] for a in SUFFIXES}
    words |= set(porter.IRREGULAR)
    _check(sorted(words))


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(["a", "e", "i", "o", "u", "y", "b", "l", "s", "t", "z", "c", "n",
                                 "1", "at", "bl", "iz", "ed", "ing", "ies", "li", "ti", "ll",
                                 "al", "ic", "ent", "ion", "iv", "ous", "og", "ful", "ness"]),
                max_size=8).map("".join))
def test_generated_words(word: str) -> None:
    assert porter.stem(word) == NLTK(word) == porter_batch.stems([word, word])[1]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from("abcdeiloqstuvxyzCÉé1\n "), max_size=12),
                max_size=20))
def test_batch_of_any_words(words: list[str]) -> None:
    """Duplicates, empty words, capitals, accents, digits, newlines and spaces in words."""
    assert porter_batch.stems(words) == [porter.stem(w) for w in words]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["a", "e", "o", "u", "y", "f", "g", "l", "b", "c", "h", "j",
                                          "k", "q", "v", "w", "x", "ll", "cc", "alli", "fulli",
                                          "logi", "bli", "ally", "fully", "logy", "bly", "ied",
                                          "ies", "yed", "ying", "ys", "1", "7", "s", "es",
                                          "ed", "eds", "ing", "ings", "d", "n", "i"]),
                         max_size=7).map("".join), max_size=20))
def test_batch_of_words_near_the_pieces(words: list[str]) -> None:
    """outside_snowball's pieces (alli, fulli, logi, bli and their y forms, a final ied), its
    doubles and its y rules, at the start of a word, its end, and of the first word of the batch
    (read with the 4 bytes before: porter_batch.LEAD newlines), before the endings that steps 1a
    and 1b take away or others."""
    assert porter_batch.stems(words) == [porter.stem(w) for w in words]


def test_pieces_and_y_before_the_endings_of_step1() -> None:
    """Every short prefix, then a piece, a y or a double (or none), then an ending steps 1a and 1b
    take away (or another): outside_snowball leaves those to Snowball only where no such ending
    follows them (run once over prefixes of up to 3 and 4 letters of larger alphabets, digits in
    one, and more pieces and endings, 22M words, and over every word of up to 7 letters of 11
    alphabets and of up to 8 letters of 3: no difference)."""
    letters = "aeiyolbcfugsnt"
    prefixes = ["", *letters, *(a + b for a in letters for b in letters)]
    pieces = ("alli", "bli", "fulli", "logi", "ally", "bly", "fully", "logy", "y", "yy", "i", "",
              "ay", "oy", "ey", "ly", "tionalli", "tionally", "ationally", "abli", "ably", "ibly",
              "cc", "hh", "xx", "vv", "ll", "tt", "11", "1", "0y", "y9")
    endings = ("", "s", "es", "ed", "eds", "ing", "ings", "ies", "ied", "ys", "yed", "ying", "er",
               "ness", "e", "ss", "sses", "eed", "yes", "ly", "al", "ation", "ical")
    _check([p + q + e for p in prefixes for q in pieces for e in endings])


@needs_wmt22
def test_tokens_of_the_shared_texts() -> None:
    words: set[str] = set()
    for path in sorted(WMT22.glob("*/references/*.txt")) + sorted(WMT22.glob("*-en/systems/*.txt"))[:20]:
        words.update(_TOKEN.findall(path.read_text(encoding="utf-8", errors="replace").lower()))
    _check(sorted(words))


@pytest.mark.parity
@pytest.mark.slow
def test_wordnet_tokens_with_suffixes() -> None:
    """Every token of the shipped WordNet 3.0 lemma list, alone and with common suffixes."""
    data = resources.files("mtscore.lexicon") / "data" / "wordnet-3.0.txt.gz"
    with data.open("rb") as raw, gzip.open(raw, "rt", encoding="utf-8") as f:
        base = {t for line in f for t in _TOKEN.findall(line.lower())}
    endings = ("", "s", "es", "ed", "ing", "ly", "er", "ness", "ment", "ies", "ied", "y", "e",
               "ation", "alli", "al", "ize", "ful", "ll", "iti", "ous", "ive", "able", "logi")
    _check(sorted({w + e for w in base for e in endings}))
