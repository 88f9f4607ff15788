"""ROUGE-1.5.5 variant against the Perl script's committed output: every printed line (averages,
intervals and, with -d, every per-document score) on WMT22 segments and multi-sentence documents, for
-n 2 with -l/-b, -m, -s, -f A/B, -t 1, -2 4 -U, -w, ROUGE-W pooled (-w with -t 1, under -f A and B) and
mixtures (scripts/make_rouge155_oracle.py). A missing oracle file or case fails under CI."""

from __future__ import annotations

import pytest

from mtscore.metrics.rouge.perl155 import parse_command_line, perl155_report

from .rouge155_support import committed

CASES = ["n2", "n2-l100", "n2-l12", "n2-b75", "n2-m", "n2-s", "n2-fA", "n2-fB", "n2-t1", "s4-U", "w1.2",
         "mixed", "w1.5-m-fB", "t1-fB-m", "w1.2-t1", "w1.5-t1-m-l30"]


@pytest.mark.parity
@pytest.mark.parametrize("set_name", ["segments", "documents"])
@pytest.mark.parametrize("case", CASES)
def test_printed_output_equals_perl(case: str, set_name: str) -> None:
    documents = committed("documents.json.gz")[set_name]
    outputs = committed("outputs.json.gz")
    (expected,) = [o for o in outputs if o["case"] == case and o["set"] == set_name]
    call = parse_command_line(expected["args"])
    ours = perl155_report(documents["peers"], documents["models"], call.types, call.options,
                          per_document=call.per_document)
    assert ours.splitlines() == expected["stdout"].splitlines()


def test_every_committed_case_is_tested() -> None:
    outputs = committed("outputs.json.gz")
    assert sorted({o["case"] for o in outputs}) == sorted(CASES)
    assert {o["set"] for o in outputs} == {"segments", "documents"}
