"""Variant 1.5's one-word candidates of many pairs at once (metrics/meteor/candidates_batch.py)
equal the rule pair by pair (:func:`.segments.jar_candidates`) on random texts."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from mtscore.lexicon import paraphrase as lexicon
from mtscore.metrics.meteor import METEOR
from mtscore.metrics.meteor.candidates_batch import sorted_candidates
from mtscore.metrics.meteor.matchers import Vocabulary
from mtscore.metrics.meteor.segments import jar_candidates

TINY = Path(__file__).parent / "data" / "meteor_paraphrase" / "tiny-paraphrase.gz"
#: words with shared stems, synonyms (several synsets each), repeats and unrelated ones
WORDS = ["big", "large", "great", "huge", "run", "running", "runs", "ran", "car", "cars",
         "automobile", "auto", "the", "a", "of", "house", "home", "houses", "dog", "dogs", "good",
         "well", "quickly", "fast", "speedy", "zyx"]


def word_candidates_many(vocab: Vocabulary, pairs: list[tuple[list[int], list[int]]]
                         ) -> list[list[list[tuple[int, int, int, int, int]]]]:
    """:func:`sorted_candidates` in the rule's shape: per pair, per reference position, phrase
    candidates ``(j, 1, i, 1, module)``."""
    out: list[list[list[tuple[int, int, int, int, int]]]] = [[[] for _ in r] for _, r in pairs]
    for p, jj, ii, k in zip(*(a.tolist() for a in sorted_candidates(vocab, pairs))):
        out[p][jj].append((jj, 1, ii, 1, k))
    return out


def test_batch_equals_the_rule_on_random_texts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MTSCORE_CACHE_DIR", str(tmp_path / "cache"))
    lexicon._load.cache_clear()
    metric = METEOR(variant="1.5", task="rank", paraphrase=str(TINY), tokenize="none", lowercase=False)
    vocab = metric.vocabulary()
    rng = random.Random(11)
    texts = [[rng.choice(WORDS) for _ in range(rng.randint(0, 15))] for _ in range(400)]
    ids = vocab.encode(texts)
    pairs = [(ids[k], ids[k + 1]) for k in range(0, len(ids), 2)]
    pairs += [(ids[0], ids[0]), (ids[3], ids[3])]  # identical sides: the first module only
    expected = [[[(j, 1, i, 1, k) for i, k in cs] for j, cs in enumerate(jar_candidates(vocab, h, r))]
                for h, r in pairs]
    assert word_candidates_many(vocab, pairs) == expected
    modules = {c[4] for cands in expected for cs in cands for c in cs}
    assert modules == {0, 1, 2}  # (exact, stem and synonym candidates were exercised)
    assert word_candidates_many(vocab, []) == []
