"""Command-line options of the unigram METEOR components (``mtscore score -m unigram``).

One metric name, ``unigram``; ``--unigram-measure`` picks which of precision, recall, F1 and Fmean
is the score (and so which one chooses the best reference per segment). JSON output carries all four.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...metrics.unigram import Unigram

#: ``metrics.unigram.MEASURES`` (a literal: this module does not import the metric)
MEASURES = ("precision", "recall", "f1", "fmean")


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("unigram P/R/F1/Fmean (uses --tokenize too)")
    group.add_argument("--unigram-measure", default="fmean", choices=MEASURES,
                       help="the score of -m unigram (default fmean = 10PR/(R+9P)); it also picks "
                            "the best reference per segment")
    group.add_argument("--unigram-case", default="lc", choices=("lc", "mixed"),
                       help="lowercase words before matching (default lc, as METEOR)")


def from_args(args: argparse.Namespace) -> Unigram:
    from ...metrics.unigram import Unigram
    from . import tokenizer_of

    return Unigram(args.unigram_measure, tokenize=tokenizer_of(args),
                   lowercase=args.unigram_case == "lc")
