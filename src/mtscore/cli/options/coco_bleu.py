"""Command-line options of coco-caption's BLEU (``mtscore score -m coco-bleu``).

``--coco-tokenize`` is shared by every coco-caption metric (coco-bleu, coco-rouge-l, cider-d).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...metrics.coco import CocoBLEU

#: ``metrics.coco.common.COCO_TOKENIZERS`` (a literal: this module does not import the metric)
COCO_TOKENIZERS = ("coco", "none")


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("coco-caption metrics (coco-bleu, coco-rouge-l, cider-d)")
    group.add_argument("--coco-tokenize", default="coco", choices=COCO_TOKENIZERS,
                       help="coco: coco-caption's tokenization (the PTB tokenizer of CoreNLP 3.4.1, "
                            "lowercased, punctuation removed; default); none: text already "
                            "tokenized")
    group.add_argument("--coco-bleu-order", type=int, default=4, choices=(1, 2, 3, 4),
                       help="the score of -m coco-bleu: BLEU-N (cumulative, default 4)")


def from_args(args: argparse.Namespace) -> CocoBLEU:
    from ...metrics.coco import CocoBLEU

    return CocoBLEU(getattr(args, "coco_bleu_order", 4),
                    tokenize=getattr(args, "coco_tokenize", "coco"))
