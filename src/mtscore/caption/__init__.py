"""coco-caption's evaluation of image (video, audio) captions, in Python: no Java.

* :mod:`.evaluation` — :func:`evaluate_captions` (the whole ``COCOEvalCap.evaluate``: PTB
  tokenizer, BLEU-1..4, METEOR, ROUGE-L, CIDEr-D) and its :class:`CaptionEvaluation` (scores,
  per-image scores, confidence intervals; :func:`paired_significance` of two results sets);
* :mod:`.compat`     — :class:`COCOEvalCap` and :class:`COCO` for ported pycocoevalcap scripts;
* :func:`coco_eval`  — the annotation and results files in, the evaluation out.
"""

from __future__ import annotations

from pathlib import Path

from ..io.coco import check_images, read_annotations, read_results
from .compat import COCO, COCOEvalCap
from .evaluation import (
    COCO_METRICS,
    CaptionEvaluation,
    caption_metrics,
    cider_document_frequency,
    evaluate_captions,
    paired_significance,
)


def coco_eval(annotations: str | Path, results: str | Path, *, meteor: bool = True,
              cider_df: str | Path | None = None) -> CaptionEvaluation:
    """coco-caption's evaluation of a COCO results file against a COCO annotation file: every
    image of the results file (each must have annotations), in the results file's order."""
    refs = read_annotations(annotations)
    hyps = read_results(results)
    check_images(hyps, refs, results)
    images = list(hyps)
    return evaluate_captions([hyps[i] for i in images], [refs[i] for i in images], images,
                             meteor=meteor, cider_df=cider_df)


__all__ = [
    "COCO",
    "COCO_METRICS",
    "COCOEvalCap",
    "CaptionEvaluation",
    "caption_metrics",
    "cider_document_frequency",
    "coco_eval",
    "evaluate_captions",
    "paired_significance",
]


