"""Metrics by command-line name: how each adds its options to ``mtscore score`` and is built from them.

To add a metric: write ``add_options(parser)`` and ``from_args(args) -> Metric`` in its module and list
it in ``_ENTRIES``. Modules are imported only when used.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..errors import OptionError

if TYPE_CHECKING:
    from .base import Metric

#: command-line name -> module that defines ``add_options`` and ``from_args``
_ENTRIES: dict[str, str] = {
    "bleu": "mtscore.metrics.bleu_cli",
    "meteor": "mtscore.metrics.meteor_cli",
    "nist": "mtscore.metrics.nist_cli",
    "unigram": "mtscore.metrics.unigram_cli",
}


#: metrics whose ``from_args`` reads only their own options (and ``--language-pair``): ``mtscore score``
#: may parse their command lines without adding, or importing, the other metrics' options
SELF_CONTAINED: frozenset[str] = frozenset({"meteor"})


def names() -> tuple[str, ...]:
    return tuple(_ENTRIES)


def _module(name: str) -> Any:
    if name not in _ENTRIES:
        raise OptionError("metric", name, names())
    return importlib.import_module(_ENTRIES[name])


#: while :func:`options_of` is active: the only metrics whose options :func:`add_all_options` adds
_ONLY: frozenset[str] | None = None


@contextmanager
def options_of(metrics: Iterable[str]) -> Iterator[None]:
    """Within this block, :func:`add_all_options` adds only the options of ``metrics`` (the command
    line's fast path: the other metrics' modules are not even imported)."""
    global _ONLY
    previous, _ONLY = _ONLY, frozenset(metrics)
    try:
        yield
    finally:
        _ONLY = previous


def add_all_options(parser: argparse.ArgumentParser) -> None:
    """``--language-pair``, then every metric's option group."""
    from ..languages import add_language_option

    add_language_option(parser)
    for name in _ENTRIES:
        if _ONLY is None or name in _ONLY:
            _module(name).add_options(parser)


def from_args(name: str, args: argparse.Namespace) -> Metric[Any]:
    """Build metric ``name`` from parsed command-line options."""
    return _module(name).from_args(args)
