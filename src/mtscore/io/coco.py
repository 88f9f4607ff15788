"""COCO caption files: the annotation file (references) and a results file (one caption per image).

* annotations: ``{"annotations": [{"image_id": 42, "caption": "..."}, ...], "images": [...]}``
  (any number of captions per image; ``images`` optional);
* results: ``[{"image_id": 42, "caption": "..."}, ...]`` (one caption per image; a dict with an
  ``annotations`` list is accepted too).

Errors name the file and the entry (0-based position in its list) and say what is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import InputError

ImageId = int | str


def _load_json(path: str | Path) -> Any:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(exc.strerror or str(exc), source=str(path)) from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 ({exc.reason} at byte {exc.start})", source=str(path)) from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON: {exc.msg}", source=str(path), line=exc.lineno) from exc


def _entries(data: Any, path: str | Path, what: str) -> list[Any]:
    if isinstance(data, Mapping):
        data = data.get("annotations")
    if not isinstance(data, list):
        raise InputError(f"expected {what}: a list of {{\"image_id\", \"caption\"}} entries "
                         "(or a dict with an \"annotations\" list)", source=str(path))
    return data


def _entry(item: Any, k: int, path: str | Path) -> tuple[ImageId, str]:
    if not isinstance(item, Mapping):
        raise InputError(f"entry {k} is not an object", source=str(path))
    if "image_id" not in item or "caption" not in item:
        missing = "image_id" if "image_id" not in item else "caption"
        raise InputError(f"entry {k} has no \"{missing}\"", source=str(path))
    image, caption = item["image_id"], item["caption"]
    if isinstance(image, bool) or not isinstance(image, (int, str)):
        raise InputError(f"entry {k}: image_id must be a number or a string, got {image!r}",
                         source=str(path))
    if not isinstance(caption, str):
        raise InputError(f"entry {k}: caption must be a string, got {type(caption).__name__}",
                         source=str(path))
    return image, caption


def read_annotations(path: str | Path) -> dict[ImageId, list[str]]:
    """Image id -> its reference captions, in file order (images in order of first appearance)."""
    refs: dict[ImageId, list[str]] = {}
    for k, item in enumerate(_entries(_load_json(path), path, "a COCO annotation file")):
        image, caption = _entry(item, k, path)
        refs.setdefault(image, []).append(caption)
    if not refs:
        raise InputError("no annotations", source=str(path))
    return refs


def read_results(path: str | Path) -> dict[ImageId, str]:
    """Image id -> its result caption; two captions for one image is an error (coco-caption's
    scorers assert one)."""
    hyps: dict[ImageId, str] = {}
    for k, item in enumerate(_entries(_load_json(path), path, "a COCO results file")):
        image, caption = _entry(item, k, path)
        if image in hyps:
            raise InputError(f"entry {k}: a second caption for image {image!r} (one per image)",
                             source=str(path))
        hyps[image] = caption
    if not hyps:
        raise InputError("no results", source=str(path))
    return hyps


def check_images(results: Mapping[ImageId, str], annotations: Mapping[ImageId, list[str]],
                 results_path: str | Path) -> None:
    """Every result's image must have annotations."""
    for image in results:
        if image not in annotations:
            raise InputError(f"image {image!r} has a result but no annotation",
                             source=str(results_path))
