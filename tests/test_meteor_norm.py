"""Tokenizer ``meteor-norm``: the METEOR 1.5 jar's ``-norm`` normalizer (``text/meteor_norm.py``).

Oracles: the jar's own ``Normalizer`` class on generated tricky lines
(``scripts/make_meteor_norm_oracle.py``, committed), and the shared jar oracle's ``tok/`` text, which
is the jar's ``-norm`` output (lowercased) of every WMT22 de-en and zh-en line it scored.
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.metrics.meteor import METEOR
from mtscore.text.meteor_norm import meteor_norm, normalize_line, normalized_words
from mtscore.text.meteor_norm_corpus import normalized_corpus
from mtscore.text.tokenizers import get_tokenizer

GENERATED = Path(__file__).parent / "data" / "meteor_norm" / "generated.jsonl.gz"
SHARED = Path(__file__).resolve().parents[2] / "shared"
TOK, WMT22 = SHARED / "oracles" / "meteor-jar" / "tok", SHARED / "data" / "wmt22"


def test_generated_lines_equal_the_jars_normalizer() -> None:
    with gzip.open(GENERATED, "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    assert len(rows) == 3000
    assert [normalize_line(a) for a, _ in rows] == [b for _, b in rows]
    assert normalized_corpus([a for a, _ in rows]) == [normalized_words(a) for a, _ in rows]


# pieces for every rule at a line's edges: dots, commas between digits or not, quotes, dashes,
# contractions, nonbreaking prefixes, the rules' own DOTMULTI, every kind of white space
_PIECES = st.sampled_from([*list("aZ09.,'`-–‘’“” \t\r\f\x0b\x1c\u00a0\u2002\u3000\n$"),
                           "...", "..", "--", "''", "Mr.", "U.S.", "no.", "5,000", "don't", "'s",
                           "DOTMULTI", "DOTMULTI.", "DOTDOTMULTI", "e.g.", "é", "Ж"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_PIECES, max_size=12).map("".join), max_size=8))
def test_corpus_path_equals_the_lines_one_by_one(lines: list[str]) -> None:
    assert normalized_corpus(lines) == [normalized_words(line) for line in lines]
    clean = [line.replace("\n", " ") for line in lines]  # (the joined path proper)
    assert normalized_corpus(clean) == [normalized_words(line) for line in clean]


def test_examples() -> None:
    assert meteor_norm("Mr. Smith's U.S.-based co. didn't pay 5,000.00 -- or 'so' he said...") == \
        "mr. smith 's us based co. didn 't pay 5,000.00 - or ' so ' he said ..."
    assert get_tokenizer("meteor-norm")("“Hello,” she said.") == '" Hello , " she said .'
    assert METEOR(variant="1.5", task="hter").tokenizer.name == "meteor-norm"  # a task: the jar's -norm


def test_meteor_lowercases_after_the_rules() -> None:
    # the jar's Normalizer: "The Sept. Smith" -> "The Sept . Smith", "the sept. smith" unchanged (a
    # final dot stays when the next word starts lowercase): so lowercasing must come after it
    metric = METEOR(variant="1.5", tokenize="meteor-norm")
    assert metric.tokenize(["The Sept. Smith", "the sept. smith"]) == \
        [["the", "sept", ".", "smith"], ["the", "sept.", "smith"]]


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8").split("\n")
    return text[:-1] if text and text[-1] == "" else text


@pytest.mark.parity
def test_wmt22_lines_equal_the_jars_tok_text() -> None:
    if not TOK.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"missing under CI: {TOK}")
        pytest.skip(f"missing: {TOK}")
    checked = 0
    for pair in ("de-en", "zh-en"):
        for tok in sorted((TOK / pair).glob("*.txt")):
            kind, name = tok.name.split(".", 1)
            raw = WMT22 / pair / ("references" if kind == "ref" else "systems") / name
            ours = [meteor_norm(line) for line in _lines(raw)]
            assert ours == _lines(tok), tok
            checked += len(ours)
    assert checked > 40_000
