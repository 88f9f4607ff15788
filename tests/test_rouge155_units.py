"""ROUGE-1.5.5 variant: the rules one at a time, with values worked out by hand or printed by Perl."""

from __future__ import annotations

import numpy as np
import pytest

from mtscore.metrics.rouge.perl155 import (
    Perl155Options,
    RougeType,
    bootstrap_average,
    document_row,
    document_rows,
    drand48_draws,
    instance_order,
    parse_command_line,
    per_document_order,
)
from mtscore.metrics.rouge.perl155.bootstrap import interval
from mtscore.metrics.rouge.perl155.text import limit_bytes_lcs, limit_words, peer_text, perl_split, tokens

DEFAULT = Perl155Options()


def test_drand48_draws_equal_perl() -> None:
    # perl -e 'srand($s); print int(rand(271)) for 1..3' for s = 0, 1, 2, 999 (Perl 5.36)
    draws = np.stack(list(drand48_draws(1000, 271))[:3], axis=1)
    assert draws[0].tolist() == [46, 203, 26]
    assert draws[1].tolist() == [11, 123, 226]
    assert draws[2].tolist() == [247, 43, 155]
    assert draws[999].tolist() == [27, 172, 217]


def test_tokenization() -> None:
    assert peer_text("Hello, World-wide $5 café\nU.S.", DEFAULT) == "hello world - wide 5 caf u s"
    assert tokens("hello world - wide 5 caf u s", DEFAULT) == ["hello", "world", "wide", "5", "caf", "u", "s"]
    stemmed = Perl155Options(stem=True, remove_stopwords=True)
    assert tokens("the geese were running to its own house", stemmed) == ["goose", "run", "hous"]


def test_perl_split_keeps_a_leading_empty_field() -> None:
    assert perl_split("  a b ") == ["", "a", "b"]
    assert perl_split("   ") == []
    assert limit_words([" a b", "c d"], 2) == [" a"]  # the empty field counts as a word


def test_byte_limit_of_lcs_reading_never_adds_up() -> None:
    # readText_LCS forgets to add the kept bytes: every sentence shorter than the limit is kept
    assert limit_bytes_lcs(["abcd", "efgh", "ijklmnop"], 6) == ["abcd", "efgh", "ijklmn"]


def test_a_limit_of_zero_is_no_limit() -> None:
    peer, models = "a b c d e f\ng h", ["a b c x\ny h"]
    for rtype in (RougeType("N", n=1), RougeType("L")):
        unlimited = document_row(peer, models, rtype, DEFAULT)
        assert document_row(peer, models, rtype, Perl155Options(word_limit=0)) == unlimited
        assert document_row(peer, models, rtype, Perl155Options(byte_limit=0)) == unlimited
        assert document_row(peer, models, rtype, Perl155Options(word_limit=3)) != unlimited


def test_rows_and_rounding() -> None:
    row = document_row("the cat sat", ["the cat sat on the mat"], RougeType("N", n=1), DEFAULT)
    assert row == (6, 3, 3, 0.5, 1.0, 0.66667)
    best = document_row("a b", ["a x", "a b c"], RougeType("N", n=1), Perl155Options(formula="B"))
    assert best[:3] == (3, 2, 2)  # recall 0.66667 beats 0.5
    average = document_row("a b", ["a x", "a b c"], RougeType("N", n=1), DEFAULT)
    assert average[:3] == (5, 4, 3)  # the peer is counted once per model


def test_errors() -> None:
    with pytest.raises(ValueError, match="not both"):
        Perl155Options(word_limit=5, byte_limit=5)
    with pytest.raises(ValueError, match=">= 0"):
        Perl155Options(word_limit=-1)
    with pytest.raises(ValueError, match="-t 2"):
        parse_command_line(["-t", "2"])
    with pytest.raises(ValueError, match="empty model"):
        document_row("a b", ["-- ."], RougeType("W", weight=1.2), DEFAULT)
    with pytest.raises(ValueError, match="at least one model"):
        document_row("a b", [], RougeType("L"), DEFAULT)
    with pytest.raises(ValueError, match="lists of models"):
        document_rows(["a"], [], RougeType("L"), DEFAULT)


def test_orders() -> None:
    ids = [str(i) for i in range(1, 12)]
    assert [ids[i] for i in instance_order(ids, "A")][:4] == ["1", "10", "11", "2"]
    assert [ids[i] for i in per_document_order(ids, "A")] == ids


def test_interval_indexes() -> None:
    ranked = np.arange(1000, dtype=float)
    assert interval(ranked, 1000, 95) == pytest.approx((25.0, 974.0))
    assert interval(ranked, 1000, 100) == (0.0, 999.0)
    # one resample: the next index is past the end (undef = 0) and the fraction is -0.025
    assert interval(np.array([3.0]), 1, 95) == pytest.approx((3.0 + 3.0 * 0.025, 3.0 + 3.0 * 0.025))


def test_bootstrap_average_is_not_the_plain_mean() -> None:
    rows = np.zeros((5, 6))
    rows[:, 3:6] = np.array([0.1, 0.2, 0.3, 0.4, 0.95])[:, None]
    average = bootstrap_average(rows)
    assert average.recall.average != f"{rows[:, 3].mean():.5f}"
    assert average.f == average.recall


def test_empty_summaries_score_zero() -> None:
    """An empty peer or model is read as no tokens, as the script reads an empty file: no error, 0
    (only ROUGE-W of an empty model is an error, where the script dies)."""
    for rtype in (RougeType("N", n=2), RougeType("L"), RougeType("SU", skip=4)):
        assert document_row("", ["a b c"], rtype, DEFAULT)[2:] == (0, 0.0, 0.0, 0.0)
        assert document_row("a b c", ["\n\n"], rtype, DEFAULT)[0] == 0
        assert document_row("a b c", ["\n\n"], rtype, DEFAULT)[3:] == (0.0, 0.0, 0.0)
    assert document_row("", ["a b"], RougeType("W", weight=1.2), DEFAULT)[3:] == (0.0, 0.0, 0.0)


def test_plain_average() -> None:
    from mtscore.metrics.rouge.perl155 import plain_average

    rows = np.array([[4.0, 2.0, 2.0, 0.5, 1.0, 0.66667], [2.0, 4.0, 1.0, 0.5, 0.25, 0.33333]])
    assert plain_average(rows) == pytest.approx((0.5, 0.625, 0.5))
    assert plain_average(rows, counting=1) == pytest.approx((0.5, 0.5, 0.5))
    assert plain_average(rows[:0]) == (0.0, 0.0, 0.0)
