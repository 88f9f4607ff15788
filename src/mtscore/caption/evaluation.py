"""coco-caption's evaluation (``COCOEvalCap.evaluate``), without Java.

:func:`evaluate_captions` tokenizes every caption once as coco-caption does (the references, then
the results, each as one run of the PTB tokenizer: :func:`mtscore.text.ptb.coco_tokenize`), then
extracts the statistics of every metric (:func:`caption_metrics`): BLEU-1..4 (one set of
statistics, four scores), METEOR, ROUGE-L and CIDEr-D. The result (:class:`CaptionEvaluation`)
holds the dict ``COCOEvalCap.eval`` holds, the per-image scores (``imgToEval``), and the
statistics, from which confidence intervals and paired tests are computed without re-scoring.

METEOR is mtscore's METEOR 1.5 run as coco-caption runs the jar (``-l en -norm``: the default task
``rank`` with the paraphrase module; :func:`coco_meteor`). SPICE is not computed (it needs Java and
a CoreNLP download).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import numpy as np

from ..errors import InputError
from ..metrics.base import Metric, SegmentStats
from ..metrics.coco import CIDErD, CocoBLEU, CocoRougeL, DocumentFrequency
from ..metrics.coco.common import TOKENIZER_SIGNATURES
from ..metrics.coco.ngram_table import ImageNgrams
from ..text.ptb import coco_tokenize
from .forked import (
    OTHERS_SHARE_WITH_TOKENIZER,
    add_bounded,
    can_fork,
    meteor_cut,
    statistics_beside_meteor,
    tokenizer_cut_near,
    with_bounded,
)

#: the names ``COCOEvalCap.eval`` uses, in its order (without SPICE)
COCO_METRICS = ("Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "METEOR", "ROUGE_L", "CIDEr")


def coco_meteor() -> Metric[Any]:
    """METEOR as coco-caption runs the jar (``-l en -norm``): variant 1.5, the jar's default task
    ``rank`` (its α β γ δ, weights and ``-norm`` tokenizer), modules exact, stem, synonym and
    paraphrase (the table of an installed ``pycocoevalcap``), searched with the jar's own beam of
    40, so that every image's score is the jar's."""
    from ..metrics.meteor import METEOR

    return METEOR(variant="1.5", task="rank", modules=("exact", "stem", "synonym", "paraphrase"),
                  jar_beam=40)


def caption_metrics(*, meteor: bool = True, cider_df: str | Path | DocumentFrequency | None = None,
                    tokenize: str = "coco") -> dict[str, Metric[Any]]:
    """coco-caption's metrics by their ``COCOEvalCap`` names; ``tokenize``: how the captions they
    are given were tokenized (``coco``: by :func:`tokenize_captions`; ``none``: by the caller),
    for their signatures (:func:`evaluate_captions` gives them tokenized text either way)."""
    metrics: dict[str, Metric[Any]] = {
        f"Bleu_{k}": CocoBLEU(k, tokenize=tokenize) for k in range(1, 5)}
    if meteor:
        metrics["METEOR"] = coco_meteor()
    metrics["ROUGE_L"] = CocoRougeL(tokenize=tokenize)
    metrics["CIDEr"] = CIDErD(df_file=cider_df, tokenize=tokenize)
    return metrics


@dataclass(frozen=True)
class CaptionEvaluation:
    """coco-caption's scores of one results set, with the statistics they come from.

    ``eval``: metric name -> corpus score (``COCOEvalCap.eval``); ``images``: the image ids in
    order; ``stats``: metric name -> per-image statistics; ``signatures``: metric name -> signature.
    """

    images: tuple[Any, ...]
    eval: Mapping[str, float]
    signatures: Mapping[str, str]
    stats: Mapping[str, SegmentStats] = field(repr=False)
    metrics: Mapping[str, Metric[Any]] = field(repr=False)

    def per_image(self) -> dict[Any, dict[str, Any]]:
        """``COCOEvalCap.imgToEval``: image id -> {"image_id": id, metric name: score, ...}."""
        columns = {name: self.metrics[name].segment_scores(self.stats[name]) for name in self.eval}
        return {image: {"image_id": image, **{name: float(columns[name][i]) for name in self.eval}}
                for i, image in enumerate(self.images)}

    def confidence_intervals(self, resamples: int = 1000, seed: int = 12345,
                             confidence: float = 0.95) -> dict[str, Any]:
        """Metric name -> bootstrap confidence interval of its corpus score (images resampled;
        CIDEr's document frequencies stay those of the full set)."""
        from ..stats.resampling import bootstrap_ci

        return {name: bootstrap_ci(self.metrics[name], self.stats[name], resamples, seed, confidence)
                for name in self.eval}


def _streams(refs: Sequence[Sequence[str]]) -> list[list[str | None]]:
    width = max(len(r) for r in refs)
    return [[r[k] if k < len(r) else None for r in refs] for k in range(width)]


def _nrefs(refs: Sequence[Sequence[str]]) -> str:
    counts = {len(r) for r in refs}
    return str(counts.pop()) if len(counts) == 1 else "var"


def tokenize_captions(refs: Sequence[Sequence[str]], hyps: Sequence[str]
                      ) -> tuple[list[list[str]], list[str]]:
    """References and results tokenized as coco-caption does: references in one run (image by
    image, in order), results in another."""
    return by_image(coco_tokenize([c for image_refs in refs for c in image_refs]), refs), \
        coco_tokenize(hyps)


def by_image(flat: Sequence[str], refs: Sequence[Sequence[str]]) -> list[list[str]]:
    """The tokenized references ``flat`` (all images', in order) grouped as ``refs`` is."""
    out, at = [], 0
    for image_refs in refs:
        out.append(list(flat[at:at + len(image_refs)]))
        at += len(image_refs)
    return out


def shared_ngrams(hyps: Sequence[str], refs: Sequence[Sequence[str]],
                  metrics: Iterable[Metric[Any]]) -> ImageNgrams | None:
    """The n-grams of the tokenized captions, counted once for every fast BLEU and CIDEr-D among
    ``metrics`` (to their highest order), or None if none is."""
    orders = [m.max_order for m in metrics if isinstance(m, CocoBLEU | CIDErD) and m.fast]
    return ImageNgrams.of(hyps, refs, max(orders)) if orders else None


def _without_meteor(metrics: Mapping[str, Metric[Any]], hyps: Sequence[str],
                     refs: Sequence[Sequence[str]]) -> dict[str, SegmentStats]:
    """The statistics of every metric but METEOR (those with ``extract_tokenized``)."""
    stats: dict[str, SegmentStats] = {}
    nrefs = _nrefs(refs)
    bleu: SegmentStats | None = None
    ngrams = shared_ngrams(hyps, refs, metrics.values())
    for name, metric in metrics.items():
        if isinstance(metric, CocoBLEU):  # one set of BLEU statistics, four scores
            bleu = bleu if bleu is not None else metric.extract_tokenized(hyps, refs, nrefs,
                                                                          ngrams=ngrams)
            stats[name] = bleu
        elif isinstance(metric, CIDErD):
            stats[name] = metric.extract_tokenized(hyps, refs, nrefs, ngrams=ngrams)
        elif hasattr(metric, "extract_tokenized"):
            stats[name] = metric.extract_tokenized(hyps, refs, nrefs)
    return stats


def caption_statistics(metrics: Mapping[str, Metric[Any]], hyps: Sequence[str],
                       refs: Sequence[Sequence[str]], workers: int | None = None
                       ) -> dict[str, SegmentStats]:
    """Every metric's statistics of the tokenized captions, in the order of ``metrics``; METEOR
    (a metric without ``extract_tokenized``) against reference streams of the tokenized captions,
    split with a forked process where :func:`.forked.can_fork` allows."""
    meteor = _meteor_names(metrics)
    others = {name: m for name, m in metrics.items() if name not in meteor}
    found: dict[str, SegmentStats]
    if len(meteor) == 1 and can_fork(len(hyps), workers):
        original = metrics[meteor[0]]
        metric = _beside_a_fork(original)

        def meteor_part(m: Metric[Any], lo: int, hi: int) -> SegmentStats:
            return _meteor_statistics(m, hyps[lo:hi], refs[lo:hi])

        found = {}
        found[meteor[0]], rest = statistics_beside_meteor(
            metric, meteor_part, lambda: _without_meteor(others, hyps, refs),
            meteor_cut(hyps, refs), len(hyps))
        found.update(rest)
        _searches_back(original, metric)
    else:
        found = _without_meteor(others, hyps, refs)
        for name in meteor:
            found[name] = _meteor_statistics(metrics[name], hyps, refs)
    return {name: found[name] for name in metrics}


def _meteor_names(metrics: Mapping[str, Metric[Any]]) -> list[str]:
    """The names of METEOR among ``metrics`` (the metrics without ``extract_tokenized``)."""
    return [name for name, metric in metrics.items() if not hasattr(metric, "extract_tokenized")]


def _beside_a_fork(metric: Metric[Any]) -> Metric[Any]:
    """METEOR as it runs beside a forked process: two processes already, so no workers of its own
    where it would decide (``workers`` None)."""
    return metric.replace(workers=1) if getattr(metric, "workers", 1) is None else metric


def _searches_back(original: Metric[Any], metric: Metric[Any], bounded: int = 0) -> None:
    """METEOR's counter of searches cut short: ``bounded`` (the forked process's) added to
    ``metric``'s, and those counted by ``metric`` (:func:`_beside_a_fork`'s copy) to ``original``."""
    add_bounded(metric, bounded)
    if metric is not original:
        cast(Any, original).bounded_searches += cast(Any, metric).bounded_searches


def _meteor_statistics(metric: Metric[Any], hyps: Sequence[str],
                       refs: Sequence[Sequence[str]]) -> SegmentStats:
    """METEOR's statistics: reference streams of the tokenized captions (without ``|||``, which
    the jar reads as a separator)."""
    return metric.extract([h.replace("|||", "") for h in hyps], _streams(refs))


def tokenizer_cut(metrics: Mapping[str, Metric[Any]], hyps: Sequence[str],
                  refs: Sequence[Sequence[str]], workers: int | None) -> int | None:
    """The image from which a forked process tokenizes the captions and extracts METEOR's
    statistics (:func:`statistics_from_two_halves`), or None: METEOR among ``metrics``,
    :func:`.forked.can_fork`, and both runs of the tokenizer can be cut there
    (:func:`.forked.tokenizer_cut_near` METEOR's estimated cut from the untokenized captions,
    with :data:`.forked.OTHERS_SHARE_WITH_TOKENIZER`)."""
    meteor = _meteor_names(metrics)
    if len(meteor) != 1 or not can_fork(len(hyps), workers):
        return None
    return tokenizer_cut_near(meteor_cut(hyps, refs, OTHERS_SHARE_WITH_TOKENIZER), hyps, refs)


def statistics_from_two_halves(metrics: Mapping[str, Metric[Any]], hyps: Sequence[str],
                               refs: Sequence[Sequence[str]], cut: int) -> dict[str, SegmentStats]:
    """:func:`caption_statistics` of the captions as :func:`tokenize_captions` tokenizes them, with
    a forked process that tokenizes the captions of images ``cut`` onwards (both runs of the
    tokenizer cut there: :func:`mtscore.text.ptb.cut.tokenize_part`), sends them here and
    extracts their METEOR statistics, while this process tokenizes the others, extracts METEOR's
    statistics of the first images (while the forked process's tokens arrive: no waiting for
    them) and then every other metric's of all images. Should a part give another number
    of lines than captions (an SGML tag over several lines), this process computes everything
    from the joined tokens, as without the fork."""
    from ..pool import beside_a_fork
    from ..progress import set_quiet
    from ..text.ptb.cut import tokenize_part

    name = _meteor_names(metrics)[0]
    original = metrics[name]
    metric = _beside_a_fork(original)
    flat = [c for image_refs in refs for c in image_refs]
    at = sum(len(image_refs) for image_refs in refs[:cut])

    def there(post: Callable[[Any], None]) -> tuple[SegmentStats | None, int]:
        set_quiet(True)  # (one progress bar: this process's)
        later = tokenize_part(flat, at, len(flat)), tokenize_part(hyps, cut, len(hyps))
        post(later)
        if len(later[0]) != len(flat) - at or len(later[1]) != len(hyps) - cut:
            return None, 0
        return with_bounded(metric, lambda: _meteor_statistics(metric, later[1],
                                                              by_image(later[0], refs[cut:])))

    def here(receive: Callable[[], Any]) -> tuple[list[str], list[list[str]], Any]:
        first = tokenize_part(flat, 0, at), tokenize_part(hyps, 0, cut)
        mine = None  # (METEOR's statistics of the first images, before the others' tokens arrive)
        if len(first[0]) == at and len(first[1]) == cut:
            mine = _meteor_statistics(metric, first[1], by_image(first[0], refs[:cut]))
        later = receive()
        all_hyps, all_refs = first[1] + later[1], by_image(first[0] + later[0], refs)
        if mine is None:
            return all_hyps, all_refs, None
        others = {n: m for n, m in metrics.items() if n != name}
        return all_hyps, all_refs, (_without_meteor(others, all_hyps, all_refs), mine)

    (all_hyps, all_refs, done), (rest, bounded) = beside_a_fork(here, there)
    if done is None or rest is None:
        return caption_statistics(metrics, all_hyps, all_refs, workers=1)
    found, first_meteor = done
    found[name] = SegmentStats.concat([first_meteor, rest])
    _searches_back(original, metric, bounded)
    return {n: found[n] for n in metrics}


def evaluate_captions(hyps: Sequence[str], refs: Sequence[Sequence[str]],
                      images: Sequence[Any] | None = None, *, meteor: bool = True,
                      cider_df: str | Path | DocumentFrequency | None = None,
                      tokenized: bool = False,
                      metrics: Mapping[str, Metric[Any]] | None = None,
                      workers: int | None = None) -> CaptionEvaluation:
    """coco-caption's evaluation of ``hyps[i]`` (one result caption per image) against
    ``refs[i]`` (that image's reference captions, any number >= 1).

    Parameters:
        images: the image ids (default 0, 1, ...).
        meteor: compute METEOR (default True).
        cider_df: saved CIDEr document frequencies (default: from ``refs``, as coco-caption).
        tokenized: the captions are tokenized already (skip the PTB tokenizer).
        metrics: the metrics to use (default :func:`caption_metrics`).
        workers: 1: one process; None (default): METEOR's statistics of a large set split with a
            forked process on Linux when a second CPU is there (:mod:`.forked`); 2: split
            whenever possible. The statistics are the same either way.
    """
    if len(hyps) != len(refs):
        raise InputError(f"{len(hyps)} result captions for {len(refs)} images")
    if not hyps:
        raise InputError("no images to evaluate")
    for i, image_refs in enumerate(refs):
        if not image_refs:
            raise InputError(f"image {i if images is None else images[i]!r} has no reference")
    images = tuple(range(len(hyps)) if images is None else images)
    metrics = dict(metrics or caption_metrics(meteor=meteor, cider_df=cider_df,
                                              tokenize="none" if tokenized else "coco"))
    cut = None if tokenized else tokenizer_cut(metrics, hyps, refs, workers)
    if cut is not None:  # (the tokenizer too runs in two processes)
        stats = statistics_from_two_halves(metrics, hyps, refs, cut)
    else:
        if not tokenized:
            refs, hyps = tokenize_captions(refs, hyps)
        stats = caption_statistics(metrics, hyps, refs, workers)
    scores = {name: float(metrics[name].compute_many(stats[name].total()[None, :])[0])
              for name in metrics}
    signatures = {name: str(metrics[name].signature(stats[name].meta)) for name in metrics}
    return CaptionEvaluation(images, scores, signatures, stats, metrics)


def paired_significance(a: CaptionEvaluation, b: CaptionEvaluation, names: tuple[str, str],
                        resamples: int = 1000, seed: int = 12345) -> dict[str, Any]:
    """Metric name -> paired bootstrap (Koehn, 2004) of two results sets on the same images."""
    from ..stats.significance import paired_bootstrap

    if a.images != b.images:
        raise InputError("the two results files must caption the same images, in the same order")
    out = {}
    for name in a.eval:
        out[name] = paired_bootstrap(a.metrics[name], {names[0]: a.stats[name],
                                                       names[1]: b.stats[name]},
                                     baseline=names[0], resamples=resamples, seed=seed)
    return out


def cider_document_frequency(refs: Sequence[Sequence[str]], *, tokenized: bool = False,
                             source: str = "corpus") -> DocumentFrequency:
    """CIDEr document frequencies of reference captions ``refs[i]`` (image i's), tokenized as
    coco-caption does unless ``tokenized``; save them with ``.save(path)``."""
    if not tokenized:
        refs, _ = tokenize_captions(refs, [])
    return DocumentFrequency.of_references(refs, 4, TOKENIZER_SIGNATURES["none" if tokenized else "coco"],
                                           source)


def corpus_rows(evaluation: CaptionEvaluation) -> np.ndarray:
    """Per image, the scores of every metric (rows: images; columns: ``evaluation.eval``)."""
    return np.column_stack([evaluation.metrics[n].segment_scores(evaluation.stats[n])
                            for n in evaluation.eval])
