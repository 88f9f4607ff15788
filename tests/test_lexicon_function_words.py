"""The METEOR 1.5 English function-word list shipped in the package."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtscore.lexicon import function_words

DATA = Path(__file__).resolve().parents[1] / "src" / "mtscore" / "lexicon" / "data" / "function-words-en.txt"


def test_english_list() -> None:
    words = function_words("en")
    assert function_words() == words
    assert len(words) == 93
    assert {"the", "of", "and", "a", "'s", ",", ".", "-lrb-", "-rrb-", "--"} <= words
    assert all(w == w.lower() and w.strip() == w and w for w in words)
    assert not {"car", "house", "run"} & words


def test_file_states_provenance_and_licence() -> None:
    header = [line for line in DATA.read_text(encoding="utf-8").splitlines() if line.startswith("# ")]
    text = " ".join(header)
    assert "meteor-1.5.jar" in text and "function/english.words" in text
    assert "Lesser General Public" in text
    body = [line for line in DATA.read_text(encoding="utf-8").splitlines() if not line.startswith("# ")]
    assert len(body) == len(set(body)) == len(function_words())  # one word a line, no duplicates


def test_unknown_language() -> None:
    with pytest.raises(ValueError, match="no function-word list for language 'xx'"):
        function_words("xx")
