"""Command-line options of chrF and chrF++ (``mtscore score -m chrf chrf++``), named as in sacreBLEU.

``-m chrf++`` is chrF with word order 2 unless ``--chrf-word-order`` says otherwise
(:mod:`.chrf_plus`); ``-m chrF2`` is sacreBLEU's name for chrF (:mod:`.chrf2`). The three share
these options, added once, here.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...metrics.chrf import CHRF


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("chrF and chrF++")
    group.add_argument("--chrf-char-order", "-cc", type=int, default=6, metavar="N",
                       help="character n-gram order (default 6)")
    group.add_argument("--chrf-word-order", "-cw", type=int, default=None, metavar="N",
                       help="word n-gram order (default 0 for chrf, 2 for chrf++)")
    group.add_argument("--chrf-beta", type=int, default=2, metavar="BETA",
                       help="recall weight β of the F-score (default 2)")
    group.add_argument("--chrf-whitespace", action="store_true",
                       help="keep white space in character n-grams")
    group.add_argument("--chrf-lowercase", action="store_true", help="lowercase before counting")
    group.add_argument("--chrf-eps-smoothing", action="store_true",
                       help="average the per-order F-scores with ε smoothing (chrF++.py, NLTK, "
                            "Moses) instead of sacreBLEU's effective order")


def build(args: argparse.Namespace, word_order: int) -> CHRF:
    """The CHRF of the parsed options; ``word_order`` unless ``--chrf-word-order`` is given."""
    from ...metrics.chrf import CHRF

    if args.chrf_word_order is not None:
        word_order = args.chrf_word_order
    return CHRF(char_order=args.chrf_char_order, word_order=word_order, beta=args.chrf_beta,
                lowercase=args.chrf_lowercase, whitespace=args.chrf_whitespace,
                eps_smoothing=args.chrf_eps_smoothing)


def from_args(args: argparse.Namespace) -> CHRF:
    return build(args, word_order=0)
