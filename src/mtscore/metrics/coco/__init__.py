"""coco-caption's metrics (pycocoevalcap 1.2; Chen et al., 2015), on the metric contract.

* :mod:`.common`             — coco-caption's tokenization and references per image;
* :mod:`.bleu`               — BLEU-1..4 its way (``coco-bleu``);
* :mod:`.rouge`              — ROUGE-L with β = 1.2 (``coco-rouge-l``);
* :mod:`.cider`              — CIDEr-D (``cider-d``), with
* :mod:`.document_frequency` — its document frequencies, from the scored set or a saved file.
"""

from .bleu import CocoBLEU, CocoBLEUResult, corpus_coco_bleu
from .cider import CIDErD, CIDErResult, corpus_cider_d
from .document_frequency import DocumentFrequency
from .rouge import CocoRougeL, CocoRougeResult, corpus_coco_rouge_l

__all__ = ["CIDErD", "CIDErResult", "CocoBLEU", "CocoBLEUResult", "CocoRougeL", "CocoRougeResult",
           "DocumentFrequency", "corpus_cider_d", "corpus_coco_bleu", "corpus_coco_rouge_l"]
