"""Variant ``1.5.5`` of the ROUGE metric, wired to :mod:`mtscore.metrics.rouge.perl155`: the metric's
per-segment statistics, its corpus scores and the printed bootstrap average equal the Perl script's
committed output (every case of tests/data/rouge155, segments and documents), and the settings map to
the script's options."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mtscore import OptionError
from mtscore.metrics.rouge import ROUGE
from mtscore.metrics.rouge.perl155 import (
    RougeType,
    document_rows,
    parse_command_line,
    plain_average,
)
from mtscore.metrics.rouge.variant155 import perl_options, perl_type

from .rouge155_support import committed
from .test_rouge155_oracle import CASES


def type_name(t: RougeType) -> str:
    if t.kind == "N":
        return f"rouge{t.n}"
    if t.kind in ("L", "W"):
        return f"rouge{t.kind}"
    return f"rouge{t.kind}{t.skip if t.skip >= 0 else '*'}"


def metric_of(t: RougeType, options) -> ROUGE:
    beta = math.sqrt((1 - options.alpha) / options.alpha)
    return ROUGE(type_name(t), variant="1.5.5", stemmer=options.stem,
                 stopwords=options.remove_stopwords, word_limit=options.word_limit,
                 byte_limit=options.byte_limit, beta=beta, weight=t.weight,
                 multiref="average" if options.formula == "A" else "best-recall",
                 aggregation="pooled" if options.counting else "mean")


def streams_of(models: list[list[str]]) -> list[list[str | None]]:
    k = max(len(m) for m in models)
    return [[m[j] if j < len(m) else None for m in models] for j in range(k)]


@pytest.mark.parity
@pytest.mark.parametrize("set_name", ["segments", "documents"])
@pytest.mark.parametrize("case", CASES)
def test_metric_equals_perl_output(case: str, set_name: str) -> None:
    documents = committed("documents.json.gz")[set_name]
    (expected,) = [o for o in committed("outputs.json.gz")
                   if o["case"] == case and o["set"] == set_name]
    printed = set(expected["stdout"].splitlines())
    call = parse_command_line(expected["args"])
    hyps, refs = documents["peers"], streams_of(documents["models"])
    for t in call.types:
        m = metric_of(t, call.options)
        assert perl_type(m.settings) == t and perl_options(m.settings).formula == call.options.formula
        stats = m.extract(hyps, refs)
        for i, (h, n, m_, p, r, f, _) in enumerate(stats.values.tolist()):
            if call.options.counting:  # -t 1 prints each document's counts
                line = f"A {t.tag} Eval {i + 1}.A R:{m_:.15g} P:{n:.15g} F:{h:.15g}"
            else:
                line = f"A {t.tag} Eval {i + 1}.A R:{r:.5f} P:{p:.5f} F:{f:.5f}"
            assert line in printed, line
        average = m.printed_average(stats, call.options.resamples, call.options.confidence)
        c = f"{call.options.confidence:.15g}"
        for name, part in (("R", average.recall), ("P", average.precision), ("F", average.f)):
            line = f"A {t.tag} Average_{name}: {part.average} ({c}%-conf.int. {part.low} - {part.high})"
            assert line in printed, line
        # the corpus score: the plain (unprinted) average of the script's rows
        rows = document_rows(hyps, documents["models"], t, call.options)
        r_, p_, f_ = plain_average(rows, call.options.counting, call.options.alpha)
        result = m.compute(stats.total())
        np.testing.assert_allclose([result.recall, result.precision, result.fmeasure],
                                   [r_, p_, f_], rtol=0, atol=1e-12)


def test_options_of_the_variant() -> None:
    assert ROUGE("rouge2", variant="1.5.5").settings.multiref == "average"
    assert ROUGE("rouge2").settings.multiref == "best-f"
    with pytest.raises(OptionError, match="-f A"):
        ROUGE("rouge2", variant="1.5.5", multiref="best-f")
    with pytest.raises(OptionError, match=r"ROUGE type of variant 1\.5\.5"):
        ROUGE("rougeLsum", variant="1.5.5")
    with pytest.raises(OptionError, match="ROUGE type"):
        ROUGE("rougeW")  # the script's types belong to variant 1.5.5
    with pytest.raises(OptionError, match="tokenizer"):
        ROUGE("rouge1", variant="1.5.5", tokenize="13a")
    with pytest.raises(OptionError, match=r"variant 1\.5\.5"):
        ROUGE("rouge1", word_limit=10)
    with pytest.raises(OptionError, match="word_limit"):
        ROUGE("rouge1", variant="1.5.5", word_limit=-1)
    with pytest.raises(OptionError, match="not both"):
        ROUGE("rouge1", variant="1.5.5", word_limit=10, byte_limit=10)
    with pytest.raises(OptionError, match="printed bootstrap"):
        ROUGE("rouge1").printed_average(ROUGE("rouge1").extract(["a"], [["a"]]))
    # a limit of 0 is no limit, as in the script
    a = ROUGE("rouge1", variant="1.5.5", word_limit=0).extract(["a b c"], [["a b d"]])
    b = ROUGE("rouge1", variant="1.5.5").extract(["a b c"], [["a b d"]])
    assert np.array_equal(a.values, b.values)
    sig = ROUGE("rougeSU4", variant="1.5.5", stemmer=True, stopwords=True, byte_limit=75).signature()
    assert (sig.get("variant"), sig.get("stem"), sig.get("stop"), sig.get("limit"), sig.get("tok")) == (
        "1.5.5", "morphstem", "smart", "75b", "rouge-1.5.5")


def test_several_types_at_once() -> None:
    from mtscore.metrics.rouge import rouge_scores

    hyps, refs = ["the cats sat on the mat", "a b"], [["the cat sat on a mat", "a b c"]]
    out = rouge_scores(hyps, refs, ("rouge1", "rougeL", "rougeSU4"), variant="1.5.5")
    for name, result in out.items():
        alone = ROUGE(name, variant="1.5.5")
        assert result == alone.compute(alone.extract(hyps, refs).total(), {"nrefs": "1"}), name


def test_cli_variant(tmp_path) -> None:
    import json
    import subprocess
    import sys

    (tmp_path / "ref.txt").write_text("the cat is on the mat\nhello there world\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("the cats sat on the mat\nhello world\n", encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "mtscore", "score", "-r", "ref.txt", "-i", "hyp.txt",
                          "-m", "rouge2", "rougeN", "--rouge-type", "rougeSU4", "--rouge-variant",
                          "1.5.5", "--rouge-stem", "-f", "json"], capture_output=True, text=True,
                         cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    records = json.loads(out.stdout)
    assert [r["metric"] for r in records] == ["ROUGE-2", "ROUGE-SU4"]
    assert all("variant:1.5.5" in r["signature"] for r in records)
