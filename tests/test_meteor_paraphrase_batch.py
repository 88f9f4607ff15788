"""The paraphrase module's matches of many pairs at once (metrics/meteor/paraphrase_batch.py) equal
the rule pair by pair (:func:`.paraphrase.paraphrase_matches`), on random tables and texts."""

from __future__ import annotations

import gzip
import random
from pathlib import Path

import numpy as np
import pytest

from mtscore.lexicon import paraphrase as lexicon
from mtscore.metrics.meteor.paraphrase import paraphrase_matches
from mtscore.metrics.meteor.paraphrase_batch import paraphrase_match_arrays

WORDS = ["a", "b", "c", "d", "e", "f", "g", "h"]


def paraphrase_matches_many(table: lexicon.ParaphraseTable, pairs: list[tuple[list[int], list[int]]],
                            k: int) -> list[list[list[tuple[int, int, int, int, int]]]]:
    """:func:`paraphrase_match_arrays` in the rule's shape: per pair, per reference position,
    phrase matches ``(j, reference length, i, hypothesis length, k)``."""
    out: list[list[list[tuple[int, int, int, int, int]]]] = [[[] for _ in r] for _, r in pairs]
    for qq, jj, rr, ii, hh in zip(*(a.tolist() for a in paraphrase_match_arrays(table, pairs))):
        out[qq][jj].append((jj, rr, ii, hh, k))
    return out


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


def test_beam_from_arrays_equals_the_phrase_lists() -> None:
    # align/phrases_batch_words.py: the beam cut from candidate arrays is the batched beam of the
    # same candidates as phrase lists (so the rule: tests/test_meteor_paraphrase.py)
    from mtscore.metrics.meteor.align.phrases_batch import align_phrases_beam_many
    from mtscore.metrics.meteor.align.phrases_batch_words import align_beam_arrays

    from .test_meteor_paraphrase import _random_phrases

    rng = random.Random(31)
    segments = [(n, m, _random_phrases(rng, n, m)) for n, m in
                ((rng.randint(1, 14), rng.randint(1, 14)) for _ in range(200))]
    segments += [(70, 66, _random_phrases(rng, 70, 66)), (150, 131, _random_phrases(rng, 150, 131))]
    rows = [(p, c) for p, (_, _, cands) in enumerate(segments) for cs in cands for c in cs]
    pair = np.array([p for p, _ in rows], dtype=np.int64)
    arr = np.array([c for _, c in rows], dtype=np.int64).reshape(len(rows), 5)
    n_hyp = np.array([n for n, _, _ in segments], dtype=np.int64)
    n_ref = np.array([m for _, m, _ in segments], dtype=np.int64)
    for beam, batch, work in ((40, 512, 16_384), (3, 37, 60), (1, 512, 16_384)):
        assert align_beam_arrays(n_hyp, n_ref, pair, arr, [1.0, 0.5, 0.5], beam, batch, work) == \
            align_phrases_beam_many(segments, [1.0, 0.5, 0.5], beam, batch, work)


def test_segments_from_arrays_equal_the_rule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # paraphrase_segments.py: the candidate arrays are the rule's candidates (one-word candidates,
    # then paraphrase matches, per reference position), and the pairs' alignments the rule's pair by
    # pair, also where a pair is too long to search (monkeypatched JAR_WORDS: definite matches)
    from mtscore.metrics.meteor import METEOR
    from mtscore.metrics.meteor.align import jar
    from mtscore.metrics.meteor.paraphrase import align_phrase_segment, phrase_candidates
    from mtscore.metrics.meteor.paraphrase_segments import align_phrase_segments_batch as batch
    from mtscore.metrics.meteor.paraphrase_segments import phrase_candidate_arrays

    monkeypatch.setenv("MTSCORE_CACHE_DIR", str(tmp_path / "cache"))
    lexicon._load.cache_clear()
    tiny = Path(__file__).parent / "data" / "meteor_paraphrase" / "tiny-paraphrase.gz"
    metric = METEOR(variant="1.5", task="rank", paraphrase=str(tiny), tokenize="none", lowercase=False)
    words = ["the", "goods", "merchandise", "was", "cheaper", "than", "cost", "less", "20", "euros",
             "good", "costs", "cheap", "a", "of", "zyx"]
    rng = random.Random(5)
    texts = [[rng.choice(words) for _ in range(rng.randint(0, 14))] for _ in range(300)]
    ids = metric.vocabulary().encode(texts)
    pairs = [(ids[k], ids[k + 1]) for k in range(0, len(ids), 2)] + [(ids[1], ids[1])]
    kept = [(h, r) for h, r in pairs if h and r]
    cands = [phrase_candidates(metric, metric.vocabulary(), h, r) for h, r in kept]
    pair, rows = phrase_candidate_arrays(metric, kept)
    as_lists: list[list[list]] = [[[] for _ in r] for _, r in kept]
    for p, row in zip(pair.tolist(), rows.tolist()):
        as_lists[p][row[0]].append(tuple(row))
    assert as_lists == cands
    assert {c[4] for cs in cands for ms in cs for c in ms} == {0, 1, 2, 3}  # every module exercised
    for most in (1000, 9):
        monkeypatch.setattr(jar, "JAR_WORDS", most)
        expected = [align_phrase_segment(metric, h, r) if h and r else ([], False) for h, r in pairs]
        assert batch(metric, pairs) == expected
    assert batch(metric, [([], [1])]) == [([], False)]
