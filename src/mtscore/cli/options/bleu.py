"""Command-line options of BLEU (``mtscore score -m bleu``), named as in sacreBLEU."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ...text.tokenizers import TOKENIZERS

if TYPE_CHECKING:
    from ...metrics.bleu import BLEU

#: ``metrics.bleu.SMOOTH_DEFAULTS``'s keys (a literal: this module does not import BLEU)
SMOOTH_METHODS = ("none", "floor", "add-k", "exp")


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("BLEU")
    group.add_argument("--tokenize", "-tok", default=None, choices=TOKENIZERS, metavar="NAME",
                       help=f"tokenizer for BLEU ({', '.join(TOKENIZERS)}; default 13a, or the "
                            "target language's with -l, as sacreBLEU)")
    group.add_argument("--smooth", "--smooth-method", "-s", dest="smooth", default="exp",
                       choices=SMOOTH_METHODS, metavar="METHOD",
                       help=f"BLEU smoothing: {', '.join(SMOOTH_METHODS)} (default exp)")
    group.add_argument("--smooth-value", "-sv", type=float, default=None, metavar="V",
                       help="value for floor (0.1) or add-k (1) smoothing")
    group.add_argument("--max-order", type=int, default=4, metavar="N",
                       help="largest n-gram order (default 4)")
    group.add_argument("--effective-order", action="store_true",
                       help="leave out n-gram orders with no n-grams (default for --segments)")


def from_args(args: argparse.Namespace) -> BLEU:
    from ...metrics.bleu import BLEU
    from . import tokenizer_of

    return BLEU(tokenize=tokenizer_of(args), lowercase=args.lowercase, smooth=args.smooth,
                smooth_value=args.smooth_value, max_order=args.max_order,
                # sentence BLEU uses the effective order, as sacreBLEU's --sentence-level does
                effective_order=args.effective_order or getattr(args, "segments", False))
