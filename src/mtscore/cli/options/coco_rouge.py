"""Command-line options of coco-caption's ROUGE-L (``mtscore score -m coco-rouge-l``; uses
``--coco-tokenize``)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...metrics.coco import CocoRougeL


#: the metrics whose options this one uses too (``--help-metric`` shows them)
OPTIONS_OF = ("coco-bleu",)


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("coco-rouge-l (uses --coco-tokenize)")
    group.add_argument("--coco-rouge-beta", type=float, default=1.2, metavar="BETA",
                       help="β of ROUGE-L's F-measure (default 1.2, as coco-caption)")


def from_args(args: argparse.Namespace) -> CocoRougeL:
    from ...metrics.coco import CocoRougeL

    return CocoRougeL(beta=getattr(args, "coco_rouge_beta", 1.2),
                      tokenize=getattr(args, "coco_tokenize", "coco"))
