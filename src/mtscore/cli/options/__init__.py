"""Metrics by command-line name: how each adds its options to a command and is built from them.

To add a metric: write a module here with ``add_options(parser)`` and ``from_args(args) -> Metric``
and list it in ``_ENTRIES``. An option module imports nothing heavy when it is imported (no numpy,
no metric): the choices it offers are literals (tests check them against the metric's own lists) and
only ``from_args`` imports the metric, so that ``mtscore score -m meteor`` never loads BLEU's code.
"""

from __future__ import annotations

import argparse
import importlib
from typing import TYPE_CHECKING, Any

from ...errors import OptionError

if TYPE_CHECKING:
    from ...metrics.base import Metric

#: command-line name -> module that defines ``add_options`` and ``from_args``
_ENTRIES: dict[str, str] = {
    "bleu": f"{__name__}.bleu",
    "meteor": f"{__name__}.meteor",
    "nist": f"{__name__}.nist",
    "unigram": f"{__name__}.unigram",
    "chrf": f"{__name__}.chrf", "chrf++": f"{__name__}.chrf_plus", "chrF2": f"{__name__}.chrf2",
    "ter": f"{__name__}.ter",
}


def names() -> tuple[str, ...]:
    return tuple(_ENTRIES)


def module(name: str) -> Any:
    """The option module of metric ``name`` (an :class:`OptionError` for an unknown name)."""
    if name not in _ENTRIES:
        raise OptionError("metric", name, names())
    return importlib.import_module(_ENTRIES[name])


def add_all_options(parser: argparse.ArgumentParser) -> None:
    """``--language-pair``, then every metric's option group."""
    from ...languages import add_language_option

    add_language_option(parser)
    for name in _ENTRIES:
        module(name).add_options(parser)


def from_args(name: str, args: argparse.Namespace) -> Metric[Any]:
    """Build metric ``name`` from parsed command-line options."""
    return module(name).from_args(args)
