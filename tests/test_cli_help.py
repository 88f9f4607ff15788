"""``--help`` of every command: exits 0, the common options first, bounded length; the other
metrics' options behind ``--help-metric METRIC`` and ``--help-all``, and parsed whatever is shown."""

from __future__ import annotations

import argparse

import pytest

from mtscore.cli import COMMANDS, build_parser, main
from mtscore.cli import options as metric_options
from mtscore.cli.metric_help import SHOWN

#: the most lines any command's ``--help`` may print at 80 columns (score had 253, compare 266)
MAX_LINES = 125
#: commands that carry every registry metric's options
WITH_METRICS = ("score", "compare")


def _help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 0
    return capsys.readouterr().out


@pytest.fixture(autouse=True)
def _eighty_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")


def _metric_option_strings() -> dict[str, set[str]]:
    """Each metric's own long option strings (from its option module)."""
    out: dict[str, set[str]] = {}
    for name in metric_options.names():
        parser = argparse.ArgumentParser()
        before = {o for a in parser._actions for o in a.option_strings}
        metric_options.module(name).add_options(parser)
        out[name] = {o for a in parser._actions for o in a.option_strings
                     if o.startswith("--")} - before
    return out


def test_top_level_help(capsys: pytest.CaptureFixture[str]) -> None:
    text = _help(["--help"], capsys)
    assert all(command in text for command in COMMANDS)
    assert len(text.splitlines()) <= MAX_LINES


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_help_is_short(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    lines = _help([command, "--help"], capsys).splitlines()
    assert lines[0].startswith(f"usage: mtscore {command}")
    assert len(lines) <= MAX_LINES, len(lines)
    assert max(len(line) for line in lines) <= 100


@pytest.mark.parametrize("command", WITH_METRICS)
def test_common_options_come_first(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    text = _help([command, "--help"], capsys)
    common = max(text.index(o) for o in ("--refs", "--input", "--metric", "--lowercase",
                                         "--language-pair", "--format", "--width"))
    groups = [text.index(f"\n{title}:\n") for title in ("BLEU", "chrF and chrF++", "TER",
                                                         "other metrics' options")]
    assert common < groups[0] and groups == sorted(groups)


@pytest.mark.parametrize("command", WITH_METRICS)
def test_default_help_shows_sacrebleus_metrics_only(command: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    text = _help([command, "--help"], capsys)
    for name, strings in _metric_option_strings().items():
        for option in strings:
            assert (option in text) == (name in SHOWN), (name, option)
    for hidden in ("nist", "unigram", "meteor", "coco-bleu", "cider-d"):
        assert hidden in text.split("other metrics' options:")[1]  # named, to ask for


@pytest.mark.parametrize(("metric", "expected"), [
    ("meteor", {"--meteor-modules", "--meteor-variant", "--meteor-delta"}),
    ("rouge2", {"--rouge-variant", "--rouge-n", "--rouge-stem"}),
    ("chrf++", {"--chrf-char-order", "--chrf-word-order"}),
    ("cider-d", {"--cider-df", "--coco-tokenize"}),
])
def test_help_metric_adds_that_metrics_group(metric: str, expected: set[str],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    text = _help(["score", "--help-metric", metric], capsys)
    assert all(option in text for option in expected)
    assert "--tokenize NAME" in text  # sacreBLEU's metrics stay
    if metric != "meteor":
        assert "--meteor-modules" not in text


@pytest.mark.parametrize("command", WITH_METRICS)
def test_help_all_shows_every_option(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    text = _help([command, "--help-all"], capsys)
    assert all(o in text for strings in _metric_option_strings().values() for o in strings)
    assert len(text.splitlines()) > 1.5 * len(_help([command, "--help"], capsys).splitlines())


def test_hidden_options_are_parsed() -> None:
    args = build_parser(only="score").parse_args(
        ["score", "-r", "ref.txt", "-m", "meteor", "--meteor-variant", "1.5", "--rouge-n", "4",
         "--cider-sigma", "3"])
    assert (args.meteor_variant, args.rouge_n, args.cider_sigma) == ("1.5", 4, 3.0)
