"""Every metric's options on a command, with a short ``--help``.

``--help`` shows the command's own options, then the option groups of sacreBLEU's metrics
(:data:`SHOWN`: BLEU, chrF, TER), then one paragraph naming the other metrics' groups;
``--help-metric METRIC …`` shows the groups of those metrics as well, and ``--help-all`` every group.
All options are parsed whichever help is shown: the help only hides their lines.

The groups come from the registry as before: each metric's option module adds its group to the
parser (:func:`add_metric_options` records what it added). A module whose metric uses another
metric's options too (chrF++ uses chrF's; CIDEr-D uses coco-bleu's ``--coco-tokenize``) names that
metric in ``OPTIONS_OF``, so that ``--help-metric chrf++`` shows chrF's group.
"""

from __future__ import annotations

import argparse
import typing
from collections.abc import Sequence
from typing import Any

from . import options

#: metrics whose options ``--help`` always shows: sacreBLEU's (a sacreBLEU user's daily options)
SHOWN = ("bleu", "chrf", "ter")


class _Group:
    """An argument group that records the actions added to it."""

    def __init__(self, group: Any, into: list[argparse.Action]) -> None:
        self._group, self._into = group, into

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        action = self._group.add_argument(*args, **kwargs)
        self._into.append(action)
        return action

    def add_mutually_exclusive_group(self, **kwargs: Any) -> _Group:
        return _Group(self._group.add_mutually_exclusive_group(**kwargs), self._into)


class _Recorder:
    """The parser as a metric's option module sees it: the groups it adds are the parser's, and
    their options are recorded under the metric being added (one recorder per parser, so that a
    module shared by several names, as ROUGE's, still adds its group once)."""

    def __init__(self, parser: argparse.ArgumentParser) -> None:
        self._parser = parser
        self.actions: dict[str, list[argparse.Action]] = {}
        self._name = ""
        self._first: dict[Any, str] = {}  # option module -> the first name added with it

    def add(self, name: str) -> None:
        """Add the options of metric ``name`` (the list of an earlier name of the same module)."""
        module = options.module(name)
        same = self._first.setdefault(module, name)
        self._name = name
        if same != name:
            self.actions[name] = self.actions[same]
            return
        self.actions[name] = []
        module.add_options(self)

    def add_argument_group(self, *args: Any, **kwargs: Any) -> _Group:
        return _Group(self._parser.add_argument_group(*args, **kwargs), self.actions[self._name])

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        action = self._parser.add_argument(*args, **kwargs)
        self.actions[self._name].append(action)
        return action


class MetricOptions:
    """The option lines of each metric on one parser, and which of them ``--help`` shows."""

    def __init__(self, actions: dict[str, list[argparse.Action]]) -> None:
        self.actions = actions
        self.helps = {id(a): a.help for group in actions.values() for a in group}

    def names_of(self, name: str) -> tuple[str, ...]:
        """``name`` and the metrics whose options it uses too (its module's ``OPTIONS_OF``)."""
        return (*getattr(options.module(name), "OPTIONS_OF", ()), name)

    def show(self, names: Sequence[str]) -> None:
        """Show the option lines of these metrics, hide the others'."""
        shown = {id(a) for name in names for other in self.names_of(name)
                 for a in self.actions.get(other, ())}
        for group in self.actions.values():
            for action in group:
                action.help = self.helps[id(action)] if id(action) in shown else argparse.SUPPRESS

    def hidden(self) -> list[str]:
        """The metrics with option lines of their own that ``--help`` hides; names that share
        their options (ROUGE's) as one entry ``first … last``."""
        shared: dict[int, list[str]] = {}
        for name, group in self.actions.items():
            if group and name not in SHOWN:
                shared.setdefault(id(group), []).append(name)
        return [n[0] if len(n) == 1 else f"{n[0]} … {n[-1]}" for n in shared.values()]

    def hidden_count(self) -> int:
        """The number of options ``--help`` hides."""
        return len({id(a) for name, group in self.actions.items() if name not in SHOWN
                    for a in group})


class _HelpMetric(argparse.Action):
    """``--help-metric METRIC …``: the help with these metrics' options too."""

    def __init__(self, *args: Any, metric_options: MetricOptions, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.metric_options = metric_options

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> typing.NoReturn:
        names = list(values) if values else list(self.metric_options.actions)
        self.metric_options.show([*SHOWN, *names])
        parser.print_help()
        parser.exit()


def add_all_options(parser: argparse.ArgumentParser) -> MetricOptions:
    """``--language-pair``, then every metric's option group, grouped for ``--help`` (as
    :func:`add_metric_options`): what ``score`` and ``compare`` offer."""
    options.add_language_option(parser)
    return add_metric_options(parser)


def add_metric_options(parser: argparse.ArgumentParser) -> MetricOptions:
    """Every registry metric's option group on ``parser``, sacreBLEU's shown by ``--help`` and the
    others behind ``--help-metric METRIC`` and ``--help-all``."""
    recorder = _Recorder(parser)
    for name in options.names():
        recorder.add(name)
    metric_options = MetricOptions(recorder.actions)
    metric_options.show(SHOWN)
    prog = parser.prog
    more = parser.add_argument_group(
        "other metrics' options",
        description=f"{metric_options.hidden_count()} more options, of "
                    f"{', '.join(metric_options.hidden())}: see '{prog} --help-metric METRIC' (or "
                    "--help-all)")
    more.add_argument("--help-metric", nargs="+", metavar="METRIC", choices=options.names(),
                      action=_HelpMetric, metric_options=metric_options,
                      help="show this help with these metrics' options too")
    more.add_argument("--help-all", nargs=0, action=_HelpMetric, metric_options=metric_options,
                      help="show this help with every metric's options")
    return metric_options
