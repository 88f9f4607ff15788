"""Command-line options of CIDEr-D (``mtscore score -m cider-d``; uses ``--coco-tokenize``)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...metrics.coco import CIDErD


#: the metrics whose options this one uses too (``--help-metric`` shows them)
OPTIONS_OF = ("coco-bleu",)


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("cider-d (uses --coco-tokenize)")
    group.add_argument("--cider-df", metavar="FILE", default=None,
                       help="document frequencies saved by 'mtscore caption --build-cider-df' "
                            "(e.g. from training references; default: the scored references, as "
                            "coco-caption, which gives a single image 0)")
    group.add_argument("--cider-sigma", type=float, default=6.0, metavar="SIGMA",
                       help="σ of CIDEr-D's Gaussian length penalty (default 6)")


def from_args(args: argparse.Namespace) -> CIDErD:
    from ...metrics.coco import CIDErD

    return CIDErD(df_file=getattr(args, "cider_df", None), sigma=getattr(args, "cider_sigma", 6.0),
                  tokenize=getattr(args, "coco_tokenize", "coco"))
