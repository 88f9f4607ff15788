"""Command-line options of TER (``mtscore score -m ter``), named as in sacreBLEU."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...metrics.ter import TER


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("TER")
    group.add_argument("--ter-case-sensitive", action="store_true",
                       help="keep case (default: lowercase, as tercom)")
    group.add_argument("--ter-asian-support", action="store_true",
                       help="with --ter-normalized: split CJK characters; with --ter-no-punct: "
                            "remove CJK and full-width punctuation too")
    group.add_argument("--ter-no-punct", action="store_true", help="remove punctuation")
    group.add_argument("--ter-normalized", action="store_true",
                       help="tercom's normalization (punctuation split off, XML entities, ...)")


def from_args(args: argparse.Namespace) -> TER:
    from ...metrics.ter import TER

    return TER(normalized=args.ter_normalized, no_punct=args.ter_no_punct,
               asian_support=args.ter_asian_support, case_sensitive=args.ter_case_sensitive)
