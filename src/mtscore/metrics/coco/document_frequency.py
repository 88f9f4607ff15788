"""CIDEr's document frequencies: in how many images' references each n-gram occurs.

CIDEr (Vedantam et al., 2015, §3.1) weights each n-gram by its inverse document frequency over
the images, ``log(|I| / df)``; coco-caption counts ``df`` over the references of the *scored set*
(so a set of one image gives every n-gram the weight log(1/1) = 0, and a score of 0). A
:class:`DocumentFrequency` computed from a larger set (the training references) and saved with
:meth:`DocumentFrequency.save` gives any set, one image included, the weights of that set.

File format (gzip-compressed JSON): ``{"format": "mtscore-cider-df", "version": 1, "images": N,
"max_order": 4, "tokenizer": "...", "df": {"a man": 123, ...}}`` (n-grams as their tokens joined
by single spaces).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ...errors import InputError
from .bleu import ngram_counts

FORMAT = "mtscore-cider-df"


@dataclass(frozen=True)
class DocumentFrequency:
    """``counts[ngram]``: the number of images whose references contain ``ngram``; ``images``:
    how many images were counted; ``source``: ``corpus`` (the scored set) or the file's name and
    digest, for the signature."""

    counts: Mapping[tuple[str, ...], int] = field(repr=False)
    images: int
    max_order: int = 4
    tokenizer: str = "coco-ptb-3.4.1"
    source: str = "corpus"

    @classmethod
    def of_references(cls, refs: Sequence[Sequence[str]], max_order: int = 4,
                      tokenizer: str = "coco-ptb-3.4.1",
                      source: str = "corpus") -> DocumentFrequency:
        """Document frequencies over ``refs[i]``, the tokenized references of image i
        (coco-caption's ``compute_doc_freq``: each n-gram counted once per image)."""
        counts: Counter[tuple[str, ...]] = Counter()
        for image_refs in refs:
            seen: set[tuple[str, ...]] = set()
            for ref in image_refs:
                seen.update(ngram_counts(ref.split(), max_order))
            counts.update(seen)
        return cls(dict(counts), len(refs), max_order, tokenizer, source)

    #: idf of the n-grams looked up so far (a cache: :meth:`idf` computes each once)
    _idf: dict[tuple[str, ...], float] = field(default_factory=dict, repr=False, compare=False)

    def log_images(self) -> float:
        """``log(|I|)``, coco-caption's ``ref_len``."""
        return math.log(float(self.images))

    def idf(self, ngram: tuple[str, ...]) -> float:
        """CIDEr's weight of an n-gram: ``log(|I|) - log(max(1, df))`` (coco-caption's
        ``ref_len - df``; an n-gram no reference has gets ``log(|I|)``)."""
        value = self._idf.get(ngram)
        if value is None:
            value = self.log_images() - math.log(max(1.0, float(self.counts.get(ngram, 0))))
            self._idf[ngram] = value
        return value

    def idf_cache(self) -> dict[tuple[str, ...], float]:
        """The n-grams weighed so far and their :meth:`idf` (a caller may add an n-gram's)."""
        return self._idf

    def signature(self) -> str:
        return self.signature_of(self.images, self.source)

    @staticmethod
    def signature_of(images: int, source: str = "corpus") -> str:
        """The signature of frequencies counted over ``images`` images from ``source``."""
        return f"{source}({images})"

    def save(self, path: str | Path) -> None:
        """Write the frequencies (gzip-compressed JSON, see the module docstring)."""
        data = {"format": FORMAT, "version": 1, "images": self.images,
                "max_order": self.max_order, "tokenizer": self.tokenizer,
                "df": {" ".join(k): v for k, v in sorted(self.counts.items())}}
        with gzip.open(path, "wt", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def load(cls, path: str | Path) -> DocumentFrequency:
        """Read a file written by :meth:`save` (a clear error for anything else)."""
        path = Path(path)
        try:
            raw = path.read_bytes()
            digest = hashlib.sha256(raw).hexdigest()[:12]
            data = json.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)
        except OSError as exc:
            raise InputError(f"{path}: cannot read the CIDEr document frequencies ({exc})") from exc
        except (ValueError, EOFError) as exc:
            raise InputError(f"{path}: not a CIDEr document-frequency file ({exc})") from exc
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise InputError(f"{path}: not a CIDEr document-frequency file (made by "
                             "'mtscore caption --build-cider-df')")
        if not isinstance(data.get("images"), int) or data["images"] < 1:
            raise InputError(f"{path}: the document-frequency file has no image count")
        counts = {tuple(k.split(" ")): int(v) for k, v in data["df"].items()}
        return cls(counts, data["images"], int(data.get("max_order", 4)),
                   str(data.get("tokenizer", "coco-ptb-3.4.1")), f"{path.name}@{digest}")
