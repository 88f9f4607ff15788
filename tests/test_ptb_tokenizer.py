"""The PTB tokenizer port against CoreNLP 3.4.1's Java tokenizer (committed outputs).

The outputs under ``tests/data/coco/ptb_*.txt.gz`` were made by ``scripts/make_coco_oracle.py``
with the Java tokenizer shipped in pycocoevalcap 1.2, run as coco-caption runs it
(``-preserveLines -lowerCase``). A missing output file fails the test (no skip).
"""

from __future__ import annotations

import gzip
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.text.ptb import coco_tokenize, lexer, ptb_lowercase_lines, tokenize_lines
from mtscore.text.ptb.lexer import scan_rule, utf16_units
from mtscore.text.ptb.words import scan

from .conftest import REPO, WMT22, needs_wmt22, wmt22_pairs

sys.path.insert(0, str(REPO / "scripts"))
from make_coco_oracle import caption_like_lines, source_lines, wmt_lines

DATA = REPO / "tests" / "data" / "coco"


def java_output(name: str) -> list[str]:
    path = DATA / f"ptb_{name}.txt.gz"
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return f.read().split("\n")[:-1]


def first_difference(lines: list[str], got: list[str], expected: list[str]) -> str:
    for k, (line, g, e) in enumerate(zip(lines, got, expected)):
        if g != e:
            return f"line {k + 1}: {line!r}\n got      {g!r}\n expected {e!r}"
    return f"{len(got)} lines for {len(expected)}"


@pytest.mark.parity
def test_generated_lines_equal_java() -> None:
    lines = caption_like_lines()
    expected = java_output("generated")
    assert len(lines) == len(expected) == 10_000
    got = ptb_lowercase_lines(lines)
    assert got == expected, first_difference(lines, got, expected)


@pytest.mark.parity
@pytest.mark.slow
@needs_wmt22
@pytest.mark.parametrize("pair", wmt22_pairs() or ["cs-en", "de-en", "ja-en", "zh-en"])
def test_wmt22_lines_equal_java(pair: str) -> None:
    assert (WMT22 / pair).is_dir()
    lines = wmt_lines(pair)
    expected = java_output(f"wmt22_{pair}")
    got = ptb_lowercase_lines(lines)
    assert got == expected, first_difference(lines, got, expected)


@pytest.mark.parity
@needs_wmt22
@pytest.mark.parametrize("pair", wmt22_pairs() or ["cs-en", "de-en", "ja-en", "zh-en"])
def test_wmt22_sources_equal_java(pair: str) -> None:
    """The source sides (German, Czech, Chinese, Japanese): non-English text, every line."""
    lines = source_lines(pair)
    expected = java_output(f"wmt22_{pair}_source")
    got = ptb_lowercase_lines(lines)
    assert got == expected, first_difference(lines, got, expected)


def test_cached_words_equal_the_rule() -> None:
    """The word cache (lexer.scan's fast path) gives what the rule gives, position by position."""
    text = utf16_units("\n".join(caption_like_lines(1500, seed=5)))
    assert list(scan(text)) == list(scan_rule(text))


# pieces for the rules of lexer.WITHIN_RUN: e-mail addresses, slashes, hyphens, abbreviations,
# every run-ending character and other white space
_PIECES = st.sampled_from([*list("aZ09@./\\-_,;:\u3001\u00ad<>&|(){}\"' \t\n\f\r\u00a0\u000b\u0085\u2028"),
                           "a.b@c.com", "&lt;", "&gt;", "x-y", "U.S.", "Mr", "Dr.", "a.k.a", "cf",
                           "Sino-U.S", "U.S.-", "w/o", "1/2", "a\\/b", "co-op", "e-mail"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=30), st.integers(min_value=0, max_value=200))
def test_rules_within_a_run_match_the_same_up_to_the_run_end(pieces: list[str], at: int) -> None:
    """lexer.WITHIN_RUN: matched up to the next run-ending character, the same match as on the
    whole text."""
    text = "".join(pieces)
    pos = min(at, max(len(text) - 1, 0))
    found = lexer.RUN_END.search(text, pos)
    end = len(text) if found is None else found.start()
    rules = [c for c in lexer._COMPILED if c.within_run]
    assert {c.rule.name for c in rules} == lexer.WITHIN_RUN
    for c in rules:
        whole, bounded = c.pattern.match(text, pos), c.pattern.match(text, pos, end)
        assert (whole is None) == (bounded is None), c.rule.name
        if whole is not None and bounded is not None:
            assert whole.span() == bounded.span() and whole.group(1) == bounded.group(1), c.rule.name


def test_only_spaces_begins_with_a_space_and_only_newline_with_a_newline() -> None:
    """What words.scan assumes between words."""
    assert [c.rule.name for c in lexer.candidates(" ")] == ["SPACES"]
    assert [c.rule.name for c in lexer.candidates("\n")] == ["NEWLINE"]


# pieces whose tokens depend on the next word or line: acronyms and abbreviations before
# capitalized words, fractions, phone numbers, spaced dots, tags, and runs of spaces and newlines
_WORDS = st.sampled_from(["U.S.", "Mr.", "etc.", "No.", "Co.", "Ltd", "The", "the", "1", "1/2",
                          "555", "(555)", "123-4567", ".", ". .", "<a b='c'>", "'", "\"", "can't",
                          "cannot", "gonna", "a.", "I.", "x", "2019", "5,000.", "(", ")", ":-)",
                          "&amp;", "--", "😀", "é.", "Ph.D."])
_GAPS = st.sampled_from([" ", "  ", "\n", " \n", "\n\n", "\u00a0", "\t"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_WORDS, _GAPS), max_size=20))
def test_word_walk_equals_the_rule(pieces: list[tuple[str, str]]) -> None:
    """words.scan (cached words, the rule between them) gives what the rule gives."""
    text = utf16_units("".join(w + g for w, g in pieces))
    for end in (len(text), max(len(text) - 1, 0)):  # (ending with a gap, or with a word)
        assert list(scan(text[:end])) == list(scan_rule(text[:end]))


@pytest.mark.parametrize(("line", "tokens"), [
    ("A man can't ride a horse (on the beach), \"he said\".",
     "a man ca n't ride a horse -lrb- on the beach -rrb- , `` he said '' ."),
    ("I cannot do it... gonna try", "i can not do it ... gon na try"),
    ("Mr. Smith isn't here etc. Then", "mr. smith is n't here etc. . then"),
    ("U.S. The end", "u.s. . the end"),
    ("1 1/2 cups, ½ cup and €5", "1\u00a01/2 cups , 1/2 cup and $ 5"),
    ("call (555) 123-4567 now", "call -lrb-555-rrb-\u00a0123-4567 now"),
    ("emoji 😀 gone, ☺ kept", "emoji gone , ☺ kept"),
    ("visit http://example.com/a?b=c or www.coco.org", "visit http://example.com/a?b=c or www.coco.org"),
    ("‘quoted’ “double” «angle»", "` quoted ' `` double '' `` angle ''"),
    ("--- or -- or ---- or -----", "-- or -- or -- or -----"),
])
def test_known_lines(line: str, tokens: str) -> None:
    assert ptb_lowercase_lines([line]) == [tokens]


def test_coco_punctuation_removal() -> None:
    """coco-caption drops its punctuation tokens after lowercasing: -LRB- became -lrb- and stays."""
    assert coco_tokenize(["A dog (brown), running... fast!", "Two cats?"]) == [
        "a dog -lrb- brown -rrb- running fast", "two cats"]


def test_line_breaks_inside_a_caption_keep_one_line_per_caption() -> None:
    """Java breaks lines at \\r, U+2028, ...; mtscore replaces them as coco-caption replaces \\n."""
    assert tokenize_lines(["a\rb"]) == ["a", "b"]
    assert coco_tokenize(["a\rb", "c\u2028d", "e\nf"]) == ["a b", "c d", "e f"]


def test_oracle_files_are_present() -> None:
    names = {p.name for p in DATA.glob("ptb_*.txt.gz")}
    pairs = ("cs-en", "de-en", "ja-en", "zh-en")
    assert {"ptb_generated.txt.gz", *(f"ptb_wmt22_{p}.txt.gz" for p in pairs),
            *(f"ptb_wmt22_{p}_source.txt.gz" for p in pairs)} <= names




def test_compiled_rules_are_the_rules_sources() -> None:
    """The lexer's patterns (from the cache or compiled) are its rules' sources, in order."""
    from mtscore.text.ptb.rules import RULES

    assert [(c.pattern.pattern, c.pattern.flags & lexer._FLAGS) for c in lexer._COMPILED] == \
        [lexer.rule_source(rule) for rule in RULES[:-1]]


def test_compiled_patterns_cache(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The patterns kept in the cache match as freshly compiled ones (partial matches too); a
    corrupt cache file, or one holding anything but compiled patterns, is compiled again."""
    import pickle

    import regex

    from mtscore.text.ptb import compiled
    from mtscore.text.ptb.rules import RULES

    monkeypatch.setenv("MTSCORE_CACHE_DIR", str(tmp_path))
    sources = [lexer.rule_source(rule) for rule in RULES[:-1]]
    path = compiled.cache_file(sources)
    assert path.parent == tmp_path / "ptb"
    fresh = compiled.compile_patterns(sources, use_cache=False)
    assert not path.exists()
    first = compiled.compile_patterns(sources)
    assert path.is_file()
    kept = compiled.load_patterns(path, sources)
    assert kept is not None
    texts = ["cannot", "U.S. ", "Mr. Smith", "http://x.org/a?b ", "3/4 ", "--", ":-) ", "ab-cd.",
             "e-mail@x.com ", "'twas", "\u00e9t\u00e9 ", "(555) 123-4567 "]
    for a, b, c in zip(fresh, first, kept):
        assert (a.pattern, a.flags) == (b.pattern, b.flags) == (c.pattern, c.flags)
        for text in texts:
            for k in (1, 2, len(text)):
                got = [p.match(text[:k], partial=k < len(text)) for p in (a, b, c)]
                assert len({None if m is None else (m.span(), m.groups(), m.partial) for m in got}) == 1
    assert compiled.load_patterns(path, sources[:-1]) is None  # other sources: not these
    path.write_bytes(b"not a pickle")
    assert compiled.load_patterns(path, sources) is None
    path.write_bytes(pickle.dumps([regex.compile("x"), print]))  # a global other than regex's
    assert compiled.load_patterns(path, sources) is None
    again = compiled.compile_patterns(sources)  # compiled again and kept again
    assert [p.pattern for p in again] == [s for s, _ in sources]
    assert compiled.load_patterns(path, sources) is not None


def test_prefix_table_equals_partial_matching(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The kept table of the rules each ASCII prefix can begin (:mod:`mtscore.text.ptb.prefixes`)
    gives, for every prefix, the rules partial matching finds; a damaged file is found again."""
    from mtscore.text.ptb import prefixes

    monkeypatch.setenv("MTSCORE_CACHE_DIR", str(tmp_path))
    calls: list[str] = []

    def find(prefix: str) -> int:
        calls.append(prefix)
        return lexer._mask(prefix)

    built = prefixes.prefix_table(lexer._SOURCES, find)
    assert len(calls) == len(prefixes.alphabet_prefixes())
    kept = prefixes.prefix_table(lexer._SOURCES, find)  # read back: nothing found again
    assert len(calls) == len(prefixes.alphabet_prefixes())
    for prefix in prefixes.alphabet_prefixes():
        expected = [c.rule.name for c in lexer._COMPILED
                    if c.pattern.match(prefix, partial=True) is not None]
        for table in (built, kept):
            mask = table.mask(prefix)
            assert mask is not None
            assert [c.rule.name for i, c in enumerate(lexer._COMPILED) if mask >> i & 1] == \
                expected, prefix
    assert kept.mask("\u00e9") is None and kept.mask("a\u00e9") is None
    path = next((tmp_path / "ptb").glob("prefixes-*.bin"))
    path.write_bytes(path.read_bytes()[:-1])  # cut short: read as no table, found again
    assert prefixes.PrefixTable.read(path.read_bytes(), len(lexer._SOURCES)) is None
    prefixes.prefix_table(lexer._SOURCES, find)
    assert len(calls) == 2 * len(prefixes.alphabet_prefixes())
    assert prefixes.PrefixTable.read(path.read_bytes(), len(lexer._SOURCES)) is not None
