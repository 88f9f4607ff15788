"""``-m chrf++``: chrF++ (word order 2 unless ``--chrf-word-order`` says otherwise); its options
are chrF's (:mod:`.chrf` adds them)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from .chrf import build

if TYPE_CHECKING:
    from ...metrics.chrf import CHRF


#: the metrics whose options this one uses too (``--help-metric`` shows them)
OPTIONS_OF = ("chrf",)


def add_options(parser: argparse.ArgumentParser) -> None:
    """Nothing: chrF's options, added by :mod:`.chrf`, are chrF++'s too."""


def from_args(args: argparse.Namespace) -> CHRF:
    return build(args, word_order=2)
