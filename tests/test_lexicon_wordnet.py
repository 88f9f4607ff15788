"""WordNet 3.0 shipped in the package: hand-checked lookups, WordNet's and the METEOR jar's morphology,
the build script's reproducibility and a loader that stays offline."""

from __future__ import annotations

import gzip
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.lexicon import WordNet, load_wordnet
from mtscore.lexicon.wordnet import DETACHMENT_RULES

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "src" / "mtscore" / "lexicon" / "data"
WORDNET_DIR = Path("/usr/share/wordnet")


@pytest.fixture(scope="module")
def wn() -> WordNet:
    return load_wordnet()


def test_loaded_once(wn: WordNet) -> None:
    assert load_wordnet() is wn
    assert len(wn) == len(wn.lemmas()) == 147306  # distinct lemmas of WordNet 3.0
    # WordNet 3.0's documented counts of unique strings per POS (wnstats(7WN))
    assert [len(wn.lemmas(p)) for p in "nvar"] == [117798, 11529, 21479, 4481]


def test_car_and_automobile(wn: WordNet) -> None:
    # WordNet 3.0: car has 5 noun senses; sense 1 {car, auto, automobile, machine, motorcar} is 02958343.
    assert wn.senses("car") == (("n", 2958343), ("n", 2959942), ("n", 2960501), ("n", 2960352),
                                ("n", 2934451))
    assert 2958343 in wn.synsets("automobile")
    assert wn.synonymous("car", "automobile")
    assert wn.synonymous("cars", "automobiles")  # through the base forms
    assert wn.synonymous("Car", "AUTOMOBILE")  # lookups are case-insensitive, like WordNet's
    assert not wn.synonymous("car", "banana")


def test_exception_lists(wn: WordNet) -> None:
    assert wn.base_forms("geese") == ("goose",)  # noun.exc
    assert wn.base_forms("ran") == ("run",)  # verb.exc
    assert wn.base_forms("better") == ("better", "good", "well")  # itself, then adj.exc: good well
    assert "good" in wn.exceptions("better", "a") and wn.exceptions("better", "r") == ("well",)
    assert wn.exceptions("offer", "a") == ("off", "offer")  # adj.exc has two lines for "offer"
    assert wn.morph("offer", "a") == ("off",)  # morph.c skips an exception base equal to the word
    assert wn.base_forms("mice") == ("mouse",) and wn.base_forms("went") == ("go",)
    assert wn.share_base_form("geese", "goose")


def test_detachment_rules(wn: WordNet) -> None:
    assert wn.base_forms("running") == ("running", "run")  # a noun/adj lemma itself, verb: ing -> ''
    assert wn.base_forms("runs") == ("run",)
    assert wn.share_base_form("running", "ran") and wn.share_base_form("runs", "ran")
    assert wn.base_forms("churches") == ("church",)  # noun: ches -> ch
    assert wn.base_forms("hoping") == ("hope",)  # verb: ing -> e comes before ing -> ''
    assert wn.base_forms("biggest") == ("big",)  # adj.exc (biggest big)
    assert wn.base_forms("coldest") == ("cold",)  # adj: est -> ''
    assert wn.base_forms("largest") == ("large",)  # adj: est -> e ("larg" is no lemma)
    assert wn.base_forms("women") == ("woman",)  # noun: men -> man
    assert wn.morph("boxesful", "n") == ("boxful",)  # morph.c: reduce before "ful", then put it back
    assert wn.morph("glass", "n") == ()  # nouns in -ss are not reduced


def test_unknown_words(wn: WordNet) -> None:
    for word in ("xyzzyq", "", "123456789"):
        assert wn.synsets(word) == frozenset() and wn.synset_ids(word) == frozenset()
        assert wn.base_forms(word) == ()
        assert not wn.synonymous(word, word) and not wn.share_base_form(word, word)


def test_multiword_lemmas(wn: WordNet) -> None:
    assert wn.is_lemma("new_york") and wn.is_lemma("New York")
    assert wn.synsets("new york") == wn.synsets("new_york") != frozenset()


def test_meteor_morphology_quirks(wn: WordNet) -> None:
    # The jar's morph(): the first of all 20 rules whose result is a lemma of ANY part of speech.
    assert wn.base_forms("being", "meteor") == ("being", "bee")  # verb ing -> e gives "bee" (a noun)
    assert wn.base_forms("being", "wordnet") == ("being", "be")  # morph.c wants a verb: ing -> ''
    # An exception-list entry stops the rules: "lives" -> life only (noun.exc), not the verb "live".
    assert wn.base_forms("lives", "meteor") == ("life",)
    assert wn.base_forms("lives", "wordnet") == ("life", "live")
    # Words of at most two letters or ending in "ss" are not reduced at all.
    assert wn.base_forms("as", "meteor") == ("as",)
    with pytest.raises(ValueError, match="unknown morphology"):
        wn.base_forms("cats", "porter")  # type: ignore[arg-type]


def _jar_synsets(wn: WordNet, word: str) -> frozenset[int]:
    """SynonymMatcher's set, written from the jar's Java source: getSynSets(w) + getStemSynSets(w)."""
    word = word.lower()
    out = set(wn.synsets(word))
    bases = [b for pos in "nvar" for b in wn._exceptions[pos].get(word, ())]
    if bases:
        for base in bases:
            out |= wn.synsets(base)
        return frozenset(out)
    if word.endswith("ss") or len(word) <= 2:
        return frozenset(out | wn.synsets(word))
    suffixes = ["s", "ses", "xes", "zes", "ches", "shes", "men", "ies",
                "s", "ies", "es", "es", "ed", "ed", "ing", "ing", "er", "est", "er", "est"]
    endings = ["", "s", "x", "z", "ch", "sh", "man", "y",
               "", "y", "e", "", "e", "", "e", "", "", "", "e", "e"]
    for suffix, ending in zip(suffixes, endings):
        if word.endswith(suffix) and wn.is_lemma(word[: len(word) - len(suffix)] + ending):
            return frozenset(out | wn.synsets(word[: len(word) - len(suffix)] + ending))
    return frozenset(out)


def test_rules_table_is_morph_c() -> None:
    flat = [rule for pos in "nva" for rule in DETACHMENT_RULES[pos]]
    assert len(flat) == 20 and DETACHMENT_RULES["r"] == ()


_LEMMAS = sorted(load_wordnet().lemmas())


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_LEMMAS),
       st.sampled_from(["", "s", "es", "ed", "ing", "er", "est", "ies", "men", "ss"]))
def test_synset_ids_follow_the_jar(lemma: str, suffix: str) -> None:
    wn = load_wordnet()
    word = lemma + suffix
    assert wn.synset_ids(word) == _jar_synsets(wn, word)
    assert wn.synonymous(word, lemma) == wn.synonymous(lemma, word)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_LEMMAS))
def test_lemma_properties(lemma: str) -> None:
    wn = load_wordnet()
    assert wn.base_forms(lemma)[0] == lemma and wn.base_forms(lemma, "meteor")[0] == lemma
    assert wn.synsets(lemma) <= wn.synset_ids(lemma)
    assert wn.synonymous(lemma, lemma) and wn.share_base_form(lemma, lemma)
    noun = wn.is_lemma(lemma, "n") and lemma.isalpha() and len(lemma) > 1 and not lemma.endswith("s")
    if noun and not wn.exceptions(lemma + "s", "n"):
        assert lemma in wn.base_forms(lemma + "s")  # morph.c's first noun rule: s -> ''


def _build_script():
    spec = importlib.util.spec_from_file_location("build_lexicon", ROOT / "scripts" / "build_lexicon.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not (WORDNET_DIR / "index.noun").is_file(), reason="WordNet (wordnet-base) not installed")
def test_shipped_data_is_what_the_build_script_makes() -> None:
    build = _build_script()
    assert build.build_wordnet(WORDNET_DIR) == (DATA / "wordnet-3.0.txt.gz").read_bytes()
    license_file = Path("/usr/share/doc/wordnet-base/copyright")
    if license_file.is_file():
        assert build.wordnet_license(license_file) == (DATA / "WORDNET-LICENSE").read_text(encoding="utf-8")


@pytest.mark.skipif(not (WORDNET_DIR / "index.noun").is_file(), reason="WordNet (wordnet-base) not installed")
def test_every_index_entry_is_shipped(wn: WordNet) -> None:
    """Independent of the build script: each lemma's senses, read straight from index.* (Debian offsets
    shifted back where scripts/build_lexicon.py documents Debian's patches)."""
    for name, pos in (("noun", "n"), ("verb", "v"), ("adj", "a"), ("adv", "r")):
        with open(WORDNET_DIR / f"index.{name}", encoding="ascii") as f:
            for line in f:
                if line.startswith("  "):
                    continue
                fields = line.split()
                offsets = [int(o) for o in fields[4 + int(fields[3]) + 2:]]
                if name == "verb":
                    offsets = [o - 18 if 613036 <= o < 2422967 else o for o in offsets]
                elif name == "adj":
                    offsets = [o - 1 if o >= 1681478 else o for o in offsets]
                assert [o for p, o in wn.senses(fields[0]) if p == pos] == offsets, fields[0]


def test_data_files_are_small_and_deterministic() -> None:
    data = (DATA / "wordnet-3.0.txt.gz").read_bytes()
    assert len(data) < 3_000_000
    assert data[4:8] == b"\x00\x00\x00\x00"  # gzip header without a timestamp
    text = gzip.decompress(data).decode("ascii")
    assert text.startswith("# WordNet 3.0, Copyright 2006 by Princeton University")
    assert "Princeton University" in (DATA / "WORDNET-LICENSE").read_text(encoding="utf-8")


def test_loading_stays_offline() -> None:
    """Load everything in a fresh interpreter that records every file opened and every socket made."""
    code = r"""
import json, sys
events = []
def hook(event, args):
    if event == "open" and isinstance(args[0], (str, bytes)):
        events.append(("open", str(args[0])))
    elif event.startswith("socket."):
        events.append((event, ""))
sys.addaudithook(hook)
from mtscore.lexicon import load_wordnet, function_words, stem_words
wn = load_wordnet()
assert wn.synonymous("car", "automobile")
assert "the" in function_words()
stem_words(["running"], "porter"); stem_words(["running"], "snowball")
print(json.dumps({"events": events, "nltk": any(m.split(".")[0] == "nltk" for m in sys.modules)}))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert not report["nltk"]
    assert not [e for e, _ in report["events"] if e.startswith("socket.")]
    opened = [path for e, path in report["events"] if e == "open"]
    assert not [p for p in opened if "nltk_data" in p or ("wordnet" in p.lower() and "mtscore" not in p)]
    assert any(p.endswith("wordnet-3.0.txt.gz") for p in opened)
