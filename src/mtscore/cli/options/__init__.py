"""Metrics by command-line name: how each adds its options to a command and is built from them.

To add a metric: write a module here with ``add_options(parser)`` and ``from_args(args) -> Metric``
and name it in the metric's entry of :mod:`mtscore.metrics.registry` (``options``). An option
module imports nothing heavy when it is imported (no numpy, no metric): the choices it offers are
literals (tests check them against the metric's own lists) and only ``from_args`` imports the
metric, so that ``mtscore score -m meteor`` never loads BLEU's code.
"""

from __future__ import annotations

import argparse
import importlib
from typing import TYPE_CHECKING, Any

from ...errors import OptionError
from ...metrics import registry

if TYPE_CHECKING:
    from ...metrics.base import Metric

#: command-line name -> module that defines ``add_options`` and ``from_args`` (from the registry)
_ENTRIES: dict[str, str] = {e.name: e.option_module() for e in registry.entries()}


def names() -> tuple[str, ...]:
    return tuple(_ENTRIES)


def module(name: str) -> Any:
    """The option module of metric ``name`` (an :class:`OptionError` for an unknown name)."""
    if name not in _ENTRIES:
        raise OptionError("metric", name, names())
    return importlib.import_module(_ENTRIES[name])


def add_language_option(parser: argparse.ArgumentParser) -> None:
    """``--language-pair/-l SRC-TGT``, as sacreBLEU's: picks the defaults of the target language."""
    parser.add_argument(
        "--language-pair", "-l", metavar="SRC-TGT", default=None,
        help="language pair, e.g. en-zh: the target language picks BLEU's tokenizer as sacreBLEU "
             "does (zh: zh, ja: ja-mecab; others 13a) and METEOR's resources (see README)")


def target_of(args: argparse.Namespace) -> str | None:
    """The target language of parsed command-line options (``--language-pair``), if given."""
    pair = getattr(args, "language_pair", None)
    if pair is None:
        return None
    from ...languages import parse_pair

    return parse_pair(pair).target


def tokenizer_of(args: argparse.Namespace) -> str:
    """BLEU's tokenizer from parsed options: ``--tokenize`` if given, else the target language's."""
    from ...languages import bleu_tokenizer

    name = getattr(args, "tokenize", None)
    return name if name is not None else bleu_tokenizer(target_of(args))


def add_all_options(parser: argparse.ArgumentParser) -> None:
    """``--language-pair``, then every metric's option group."""
    add_language_option(parser)
    for name in _ENTRIES:
        module(name).add_options(parser)


def from_args(name: str, args: argparse.Namespace) -> Metric[Any]:
    """Build metric ``name`` from parsed command-line options (an option module shared by several
    names, as ROUGE's, defines ``from_name(name, args)``)."""
    by_name = getattr(module(name), "from_name", None)
    return by_name(name, args) if by_name is not None else module(name).from_args(args)
