"""Command-line options of NIST (``mtscore score -m nist``).

NIST shares ``--tokenize`` and ``--lowercase`` with BLEU (mteval-v13a tokenizes both the same way).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...metrics.nist import NIST


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("NIST (uses --tokenize and --lowercase too)")
    group.add_argument("--nist-max-order", type=int, default=5, metavar="N",
                       help="largest n-gram order of NIST (default 5, as Doddington 2002 and mteval)")
    group.add_argument("--nist-no-mteval-quirk", action="store_true",
                       help="weigh bigrams that start with the token 0 by the paper's rule (default: "
                            "as mteval-v13a.pl, which gives them the unigram rule)")


def from_args(args: argparse.Namespace) -> NIST:
    from ...metrics.nist import NIST
    from . import tokenizer_of

    return NIST(tokenize=tokenizer_of(args), lowercase=getattr(args, "lowercase", False),
                max_order=args.nist_max_order,
                mteval_zero_quirk=not getattr(args, "nist_no_mteval_quirk", False))
