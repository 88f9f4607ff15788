"""The compact synonym index (``data/wordnet-3.0-synonyms.txt``) against the full WordNet 3.0 tables:
the same lemmas, synsets, base forms and synonym keys, and a file the build script reproduces."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.lexicon import SynonymIndex, WordNet, load_synonyms, load_wordnet

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "src" / "mtscore" / "lexicon" / "data"


@pytest.fixture(scope="module")
def wn() -> WordNet:
    return load_wordnet()


@pytest.fixture(scope="module")
def syn() -> SynonymIndex:
    return load_synonyms()


def _build_script():
    spec = importlib.util.spec_from_file_location("build_lexicon", ROOT / "scripts" / "build_lexicon.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_shipped_index_is_what_the_build_script_derives() -> None:
    build = _build_script()
    derived = build.build_synonyms((DATA / "wordnet-3.0.txt.gz").read_bytes())
    assert derived == (DATA / "wordnet-3.0-synonyms.txt").read_bytes()
    assert build.build_synonym_index(derived) == (DATA / "wordnet-3.0-synonyms.idx").read_bytes()
    text = derived.decode("ascii")
    assert text.startswith("# WordNet 3.0, Copyright 2006 by Princeton University")
    lines = text.split("\n[lemmas]\n")[1].split("\n[exceptions]\n")[0].split("\n")
    assert [line.split(" ")[0] for line in lines] == sorted(line.split(" ")[0] for line in lines)


def test_loaded_once(syn: SynonymIndex) -> None:
    assert load_synonyms() is syn
    assert len(syn) == 147306


def test_every_lemma_and_its_synsets(wn: WordNet, syn: SynonymIndex) -> None:
    for lemma in wn.lemmas():
        assert syn.is_lemma(lemma), lemma
        assert syn.synsets(lemma) == wn.synsets(lemma), lemma


def test_every_exception_form(wn: WordNet, syn: SynonymIndex) -> None:
    forms = set().union(*(wn._exceptions[p] for p in "nvar"))
    assert len(forms) > 5000
    for form in forms:
        assert syn.base_forms(form) == wn.base_forms(form, "meteor"), form
        assert syn.synset_ids(form) == wn.synset_ids(form), form


def test_hand_checked_words(syn: SynonymIndex, wn: WordNet) -> None:
    assert 2958343 in syn.synset_ids("cars") and 2958343 in syn.synset_ids("Automobile")
    assert syn.base_forms("being") == ("being", "bee")  # the jar's quirk (see test_lexicon_wordnet)
    assert syn.base_forms("lives") == ("life",)
    assert syn.base_forms("as") == ("as",)
    for word in ("", " ", "xyzzyq", "a\nb", "~~~", "\x00", "zzzzzzzzzz", "'hood", "new york", "NEW_YORK"):
        assert syn.synset_ids(word) == wn.synset_ids(word), repr(word)
        assert syn.base_forms(word) == wn.base_forms(word, "meteor"), repr(word)
    assert syn.is_lemma("new_york") and not syn.is_lemma("new york") and not syn.is_lemma("xyzzyq")


_LEMMAS = sorted(load_wordnet().lemmas())


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(_LEMMAS),
       st.sampled_from(["", "s", "es", "ed", "ing", "er", "est", "ies", "men", "ses", "ss", "x"]),
       st.booleans())
def test_synset_ids_equal_wordnet(lemma: str, suffix: str, upper: bool) -> None:
    word = (lemma + suffix).upper() if upper else lemma + suffix
    wn, syn = load_wordnet(), load_synonyms()
    assert syn.synset_ids(word) == wn.synset_ids(word)
    assert syn.base_forms(word) == wn.base_forms(word, "meteor")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz_-'.", min_size=0, max_size=12))
def test_arbitrary_strings(word: str) -> None:
    assert load_synonyms().synset_ids(word) == load_wordnet().synset_ids(word)


def test_loading_reads_only_the_index() -> None:
    """The synonym module's start-up reads the compact index, not the full WordNet tables."""
    code = r"""
import json, sys
opened = []
sys.addaudithook(lambda e, a: opened.append(str(a[0]))
                 if e == "open" and isinstance(a[0], (str, bytes)) else None)
from mtscore.lexicon import load_synonyms
assert load_synonyms().synset_ids("car") & load_synonyms().synset_ids("automobile")
print(json.dumps([p for p in opened if "wordnet" in p.lower() and not p.endswith((".py", ".pyc"))]))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    opened = json.loads(out.stdout.strip().splitlines()[-1])
    assert [Path(p).name for p in opened] == ["wordnet-3.0-synonyms.txt", "wordnet-3.0-synonyms.idx"]
    modules = subprocess.run([sys.executable, "-c", "import sys; from mtscore.lexicon import load_synonyms; "
                              "load_synonyms(); print('mtscore.lexicon.wordnet' in sys.modules)"],
                             capture_output=True, text=True, check=True).stdout.split()
    assert modules == ["False"]  # the full WordNet tables' module is not even imported


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_LEMMAS), st.sampled_from(["", "s", "ed", "ing", "es"]), st.sampled_from(_LEMMAS),
       st.sampled_from(["", "s", "ed", "ing", "er"]))
def test_synonymy_keys_meet_exactly_when_synsets_meet(a: str, x: str, b: str, y: str) -> None:
    syn, wn = load_synonyms(), load_wordnet()
    for one, two in ((a + x, b + y), (a + x, a), (a, b)):
        assert (not syn.synset_keys(one).isdisjoint(syn.synset_keys(two))) == wn.synonymous(one, two)
    assert all(type(k) is int for k in syn.synset_keys(a + x))


@pytest.mark.slow
def test_synonymy_keys_cover_wordnet(wn: WordNet, syn: SynonymIndex) -> None:
    """Every synset's members share a key, and every key's lemmas share a synset: so any two sets of
    lemmas (the base forms of two words) share a key exactly when they share a synset."""
    keys: dict[str, set[int]] = {}
    holders: dict[int, list[str]] = {}
    for lemma in wn.lemmas():
        e = syn._entry(syn._lemmas, lemma)
        start, count = int(syn._key_start[e]), int(syn._key_count[e])
        keys[lemma] = set(syn._keys[start:start + count].tolist())
        assert keys[lemma], lemma
        for k in keys[lemma]:
            holders.setdefault(k, []).append(lemma)
    members: dict[int, list[str]] = {}
    for lemma in wn.lemmas():
        for s in wn.synsets(lemma):
            members.setdefault(s, []).append(lemma)
    for s, lemmas in members.items():
        assert set.intersection(*(keys[lemma] for lemma in lemmas)), s
    for k, lemmas in holders.items():
        assert frozenset.intersection(*(wn.synsets(lemma) for lemma in lemmas)), k
    assert len(holders) < len(members) and sum(map(len, keys.values())) < sum(map(len, members.values()))
