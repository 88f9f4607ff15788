"""The paraphrase module's matches of many pairs at once (metrics/meteor/paraphrase_batch.py) equal
the rule pair by pair (:func:`.paraphrase.paraphrase_matches`), on random tables and texts."""

from __future__ import annotations

import gzip
import random
from pathlib import Path

import pytest

from mtscore.lexicon import paraphrase as lexicon
from mtscore.metrics.meteor.paraphrase import paraphrase_matches
from mtscore.metrics.meteor.paraphrase_batch import paraphrase_matches_many

WORDS = ["a", "b", "c", "d", "e", "f", "g", "h"]


def _random_table(rng: random.Random, path: Path) -> None:
    """Entries of 1-4 word phrases and 1-5 word paraphrases over a small vocabulary: phrases listed
    apart in the file, repeated entries, a paraphrase equal to its phrase."""
    lines = []
    for _ in range(rng.randint(5, 60)):
        phrase = [rng.choice(WORDS) for _ in range(rng.randint(1, 4))]
        para = phrase if rng.random() < 0.05 else [rng.choice(WORDS) for _ in range(rng.randint(1, 5))]
        for _ in range(2 if rng.random() < 0.1 else 1):
            lines += ["0.5", " ".join(phrase), " ".join(para)]
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def test_batch_equals_the_rule_on_random_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MTSCORE_CACHE_DIR", str(tmp_path / "cache"))
    rng = random.Random(7)
    found = 0
    for t in range(25):
        path = tmp_path / f"table{t}.gz"
        _random_table(rng, path)
        table = lexicon.load_paraphrase_table(path)
        vocabulary = [*WORDS, "unknown"]  # (a word in no entry: id -1)
        texts = [table.word_ids([rng.choice(vocabulary) for _ in range(rng.randint(0, 12))])
                 for _ in range(2 * rng.randint(1, 40))]
        pairs = list(zip(texts[::2], texts[1::2]))
        pairs.append(pairs[0][::-1])  # (a sequence on both sides, in several pairs)
        expected = [paraphrase_matches(table, h, r, 3) for h, r in pairs]
        assert paraphrase_matches_many(table, pairs, 3) == expected
        found += sum(len(ms) for cands in expected for ms in cands)
    assert found > 1000
    assert paraphrase_matches_many(table, [], 3) == []
    unknown = [([-1, -1], [-1]), ([], [-1])]  # no phrase anywhere
    expected = [paraphrase_matches(table, h, r, 3) for h, r in unknown]
    assert paraphrase_matches_many(table, unknown, 3) == expected
