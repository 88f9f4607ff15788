"""The metrics' command-line option modules (``mtscore.cli.options``): one parser, lazy imports, and
the literal choices they offer equal to the metrics' own lists."""

from __future__ import annotations

import argparse
import subprocess
import sys

from mtscore.cli import options


def test_literal_choices_equal_the_metrics_lists() -> None:
    from mtscore.cli.options import bleu, meteor, unigram
    from mtscore.metrics.bleu import SMOOTH_DEFAULTS
    from mtscore.metrics.meteor import DEFAULT_MODULES, MODULES, VARIANTS
    from mtscore.metrics.unigram import MEASURES

    assert tuple(SMOOTH_DEFAULTS) == bleu.SMOOTH_METHODS
    assert (meteor.MODULES, meteor.DEFAULT_MODULES, meteor.VARIANTS) == (MODULES, DEFAULT_MODULES,
                                                                           VARIANTS)
    assert unigram.MEASURES == MEASURES


def test_parsing_imports_no_metric() -> None:
    """Adding every metric's options and parsing a command line loads no metric (only the registry,
    which imports nothing): only ``from_args`` imports the metric it builds."""
    code = ("import argparse, sys\nfrom mtscore.cli import options\n"
            "p = argparse.ArgumentParser()\noptions.add_all_options(p)\n"
            "p.parse_args(['--meteor-variant', '1.5', '-l', 'de-en'])\n"
            "print(sorted(m for m in sys.modules if m.startswith('mtscore.metrics') or m == 'numpy'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['mtscore.metrics', 'mtscore.metrics.registry']"


def test_from_args_builds_each_metric() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lowercase", action="store_true")
    options.add_all_options(parser)
    args = parser.parse_args([])
    for name in options.names():
        metric = options.from_args(name, args)
        assert type(metric).__module__.startswith("mtscore.metrics") and metric.signature()
