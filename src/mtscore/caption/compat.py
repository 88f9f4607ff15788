"""``COCOEvalCap`` for scripts being ported from pycocoevalcap (and a small ``COCO`` loader).

Replace::

    from pycocotools.coco import COCO
    from pycocoevalcap.eval import COCOEvalCap

by::

    from mtscore.caption import COCO, COCOEvalCap

and the rest of the script runs unchanged: ``coco = COCO(annotation_file)``,
``coco_result = coco.loadRes(results_file)``, ``coco_eval = COCOEvalCap(coco, coco_result)``,
``coco_eval.params['image_id'] = coco_result.getImgIds()``, ``coco_eval.evaluate()``, then
``coco_eval.eval``, ``coco_eval.imgToEval`` and ``coco_eval.evalImgs``. pycocotools' own ``COCO``
objects work too (anything with ``getImgIds()`` and ``imgToAnns``). No SPICE.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..io.coco import check_images, read_annotations, read_results
from .evaluation import CaptionEvaluation, evaluate_captions


class COCO:
    """The caption part of pycocotools' ``COCO``: ``imgToAnns``, ``getImgIds()``, ``loadRes()``."""

    def __init__(self, annotation_file: str | Path | None = None,
                 captions: dict[Any, list[str]] | None = None):
        if annotation_file is not None:
            captions = read_annotations(annotation_file)
        self.imgToAnns: dict[Any, list[dict[str, Any]]] = defaultdict(list)
        for image, caps in (captions or {}).items():
            for caption in caps:
                self.imgToAnns[image].append({"image_id": image, "caption": caption})
        self._images = list(captions or {})

    def getImgIds(self) -> list[Any]:
        return list(self._images)

    def loadRes(self, results_file: str | Path) -> COCO:
        """The results file as a ``COCO`` object (every image must have annotations here)."""
        results = read_results(results_file)
        check_images(results, {i: [] for i in self._images}, results_file)
        return COCO(captions={image: [caption] for image, caption in results.items()})


class COCOEvalCap:
    """pycocoevalcap's ``COCOEvalCap``: ``evaluate()`` fills ``eval``, ``imgToEval``,
    ``evalImgs`` (scores equal to pycocoevalcap's; no SPICE)."""

    def __init__(self, coco: Any, cocoRes: Any, *, meteor: bool = True,
                 cider_df: str | Path | None = None):
        self.evalImgs: list[dict[str, Any]] = []
        self.eval: dict[str, float] = {}
        self.imgToEval: dict[Any, dict[str, Any]] = {}
        self.coco = coco
        self.cocoRes = cocoRes
        self.params: dict[str, Any] = {"image_id": coco.getImgIds()}
        self.meteor = meteor
        self.cider_df = cider_df
        #: the full result (statistics, signatures), after ``evaluate()``
        self.result: CaptionEvaluation | None = None

    def evaluate(self) -> None:
        images = list(self.params["image_id"])
        refs, hyps = [], []
        for image in images:
            gts = [a["caption"] for a in self.coco.imgToAnns[image]]
            res = [a["caption"] for a in self.cocoRes.imgToAnns[image]]
            if len(res) != 1:
                raise InputError(f"image {image!r} has {len(res)} result captions (one needed)")
            refs.append(gts)
            hyps.append(res[0])
        self.result = evaluate_captions(hyps, refs, images, meteor=self.meteor,
                                        cider_df=self.cider_df)
        for name, score in self.result.eval.items():
            self.eval[name] = score
            print(f"{name}: {score:0.3f}")
        self.imgToEval = self.result.per_image()
        self.evalImgs = list(self.imgToEval.values())
