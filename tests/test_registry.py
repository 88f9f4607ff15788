"""The metric registry: every list of metrics in the package is read from it, and each entry's
facts hold for the metric it names."""

from __future__ import annotations

import subprocess
import sys

import pytest

import mtscore
from mtscore.cli import options
from mtscore.cli.score import SACREBLEU_SCALE
from mtscore.metrics import pairwise, registry
from mtscore.metrics.base import Metric
from mtscore.report.study_report import MINOR_METRICS
from mtscore.study.metrics import default_metrics

from .conftest import REPO

ENTRIES = registry.entries()


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.name for e in ENTRIES])
def test_each_entry_builds_its_metric(entry) -> None:
    metric = entry.create()
    assert isinstance(metric, Metric) and isinstance(metric, entry.load())
    assert registry.find(metric.name) is not None
    assert metric.higher_is_better == entry.higher_is_better
    for name in entry.exports:
        assert getattr(mtscore, name) is getattr(__import__(entry.module, fromlist=[name]), name)
    module = options.module(entry.name)
    assert callable(module.add_options) and callable(module.from_args)


def test_the_cli_lists_the_registry() -> None:
    assert options.names() == registry.names()
    assert {"bleu", "chrf", "chrf++", "chrF2", "ter"} == SACREBLEU_SCALE
    assert [registry.decimals(n) for n in ("bleu", "chrf", "chrf++", "ter", "nist", "meteor",
                                           "fmean", "chrf+")] == [1, 1, 1, 1, 4, 4, 4, 4]


def test_utilities_are_the_sentence_functions_settings() -> None:
    assert pairwise.UTILITIES == ("bleu", "chrf", "chrf++", "meteor", "rouge1", "rouge2", "rougeL",
                                  "rougeLsum", "rougeN")
    assert pairwise.utility_metric("bleu").effective_order is True
    assert pairwise.utility_metric("chrf++").word_order == 2
    with pytest.raises(mtscore.OptionError, match="utility metric"):
        pairwise.utility_metric("ter")


def test_study_defaults_and_minor_metrics() -> None:
    specs = default_metrics(target="zh")
    assert [s.label for s in specs] == ["BLEU", "NIST", "P", "R", "F1", "Fmean", "chrF", "chrF++",
                                        "TER", "METEOR"]
    assert specs[0].metric.tokenizer.signature() == "zh" and specs[8].metric.asian_support
    assert [s.label for s in default_metrics(meteor=False)][-1] == "TER"
    assert MINOR_METRICS == ("NIST", "P", "R", "F1", "Fmean")
    labels = [label for e in ENTRIES for label in e.study_labels]
    assert labels == [s.label for s in specs]


def test_every_metric_has_its_pair_kernel_by_hook() -> None:
    """The kernel is the metric's ``pair_kernel()``, not a type test: a subclass that does not
    keep its parent's counting says so by overriding the hook."""
    from mtscore.metrics.bleu import BLEU
    from mtscore.metrics.bleu import pairwise as pairwise_bleu

    class Custom(BLEU):
        def pair_kernel(self):
            return None

    assert pairwise.kernels(BLEU())[0] is pairwise_bleu.pair_scores
    assert pairwise.kernels(Custom())[0] is pairwise.pair_scores_by_extract


def test_importing_the_registry_and_mtscore_loads_no_metric() -> None:
    code = ("import sys, mtscore; from mtscore.metrics import registry; registry.names(); "
            "print(sorted(m for m in sys.modules if m.startswith(('numpy', 'mtscore.metrics.'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(REPO / "src")}).stdout
    assert out.strip() == "['mtscore.metrics.registry']"
