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


#: target languages written without spaces between words: TER's Asian support is on for them
ASIAN_TARGETS = frozenset({"zh", "ja", "ko"})


def from_args(args: argparse.Namespace) -> TER:
    """TER from the options; a Chinese, Japanese or Korean target (``-l en-zh``) turns on Asian
    support (CJK characters split or removed with ``--ter-normalized`` / ``--ter-no-punct``; the
    signature says ``asian:yes``), with a note on standard error when neither is given, since
    plain TER then counts space-separated words only."""
    import sys

    from ...metrics.ter import TER
    from . import target_of

    target = target_of(args)
    asian = bool(args.ter_asian_support) or target in ASIAN_TARGETS
    if target in ASIAN_TARGETS and not (args.ter_normalized or args.ter_no_punct):
        print(f"mtscore: note: TER of a {target} target without --ter-normalized counts "
              "space-separated words only; add --ter-normalized to split CJK characters",
              file=sys.stderr)
    return TER(normalized=args.ter_normalized, no_punct=args.ter_no_punct,
               asian_support=asian, case_sensitive=args.ter_case_sensitive)
