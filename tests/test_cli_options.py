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


def test_a_cjk_target_turns_on_ter_asian_support(tmp_path, capsys) -> None:
    """-l en-zh: TER's Asian support is on (asian:yes) and, with --ter-normalized, CJK characters
    are split as sacreBLEU's TER(normalized=True, asian_support=True) splits them; without it a
    note says plain TER counts space-separated words only (issue 24)."""
    from sacrebleu.metrics import TER as SacreTER

    from mtscore.cli import main

    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("我们今天去公园散步。\n天气很好。\n", encoding="utf-8")
    hyp.write_text("我们今天去公园走路。\n天气非常好。\n", encoding="utf-8")
    assert main(["score", "-r", str(ref), "-i", str(hyp), "-m", "ter", "-l", "en-zh", "-f", "json"]) == 0
    out = capsys.readouterr()
    assert '"asian:yes' in out.out or "asian:yes" in out.out
    assert "--ter-normalized" in out.err and len(out.err.strip().splitlines()) == 1
    assert main(["score", "-r", str(ref), "-i", str(hyp), "-m", "ter", "-l", "en-zh",
                 "--ter-normalized", "-f", "json"]) == 0
    import json

    score = json.loads(capsys.readouterr().out)[0]["score"]
    theirs = SacreTER(normalized=True, asian_support=True).corpus_score(
        hyp.read_text(encoding="utf-8").splitlines(), [ref.read_text(encoding="utf-8").splitlines()])
    assert score == theirs.score
