"""Record every metric's signature strings and a few scores over a grid of settings.

The output, ``tests/data/signatures_golden.json``, is what ``tests/test_signatures_golden.py``
compares against, byte for byte: refactorings of the metrics (the registry, frozen settings) must
not change one signature or one score.

    PYTHONPATH=src python scripts/make_signatures_golden.py tests/data/signatures_golden.json

:func:`golden` is also what the test calls (it imports this file), so the grid is written once.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

#: a small corpus with the cases the settings act on: case, punctuation, numbers (NIST's "0"
#: quirk), CJK characters (zh tokenizers, TER's Asian support), white space, repeats
HYPS = [
    "The cat sat on the mat.",
    "A dog, 0 cats and 12,000 mice ran away!",
    "Stock markets fell sharply today in Tokyo",
    "我们今天去了北京。",
    "the the the cat",
    "  Leading  and trailing spaces  ",
    "Die Katze saß auf der Matte.",
    "He said: \"it's fine\" (really).",
]
REF_A = [
    "The cat sat on a mat.",
    "A dog, 0 cats and 12.000 mice ran off!",
    "stock markets fell sharply in Tokyo today",
    "我们今天去北京了。",
    "the cat",
    "Leading and trailing spaces",
    "Die Katze sass auf der Matte.",
    "He said \"it is fine\" (really)",
]
REF_B = [
    "There is a cat on the mat.",
    None,
    "Tokyo stock markets fell sharply today",
    "今天我们去了北京。",
    "a cat, the cat",
    "leading and trailing spaces.",
    None,
    "\"It's fine,\" he said, really.",
]
#: the corpus repeated this many times takes every metric's whole-corpus path
LARGE_REPEATS = 60

REF_B_FULL = [r if r is not None else h for r, h in zip(REF_B, REF_A)]

#: reference sets: one stream, two full streams, two streams with missing references
REFERENCE_SETS: dict[str, list[list[str | None]]] = {
    "1ref": [list(REF_A)],
    "2ref": [list(REF_A), list(REF_B_FULL)],
    "2ref-missing": [list(REF_A), list(REF_B)],
}


def _bleu_grid() -> list[tuple[str, Callable[[], Any]]]:
    from mtscore.metrics.bleu import BLEU

    grid: list[tuple[str, Callable[[], Any]]] = []
    for tok in ("13a", "intl", "zh", "zh-fixed", "char", "none"):
        grid.append((f"bleu tok={tok}", lambda tok=tok: BLEU(tokenize=tok)))
    for smooth, value in (("none", None), ("floor", None), ("floor", 0.5), ("add-k", None),
                          ("add-k", 2.0), ("exp", None)):
        for eff in (False, True):
            grid.append((f"bleu smooth={smooth} value={value} eff={eff}",
                         lambda s=smooth, v=value, e=eff: BLEU(smooth=s, smooth_value=v,
                                                               effective_order=e)))
    grid.append(("bleu lowercase", lambda: BLEU(lowercase=True)))
    for order in (1, 2, 3, 5, 6):
        grid.append((f"bleu order={order}", lambda o=order: BLEU(max_order=o)))
    grid.append(("bleu order=2 eff lc floor", lambda: BLEU(max_order=2, effective_order=True,
                                                           lowercase=True, smooth="floor")))
    return grid


def _chrf_grid() -> list[tuple[str, Callable[[], Any]]]:
    from mtscore.metrics.chrf import CHRF

    grid: list[tuple[str, Callable[[], Any]]] = []
    for cc, cw in ((6, 0), (6, 2), (6, 1), (4, 0), (1, 0), (0, 2), (3, 3)):
        grid.append((f"chrf nc={cc} nw={cw}", lambda cc=cc, cw=cw: CHRF(char_order=cc, word_order=cw)))
    for beta in (1, 3, 0.5):
        grid.append((f"chrf beta={beta}", lambda b=beta: CHRF(beta=b)))
    grid.append(("chrf lowercase", lambda: CHRF(lowercase=True)))
    grid.append(("chrf whitespace", lambda: CHRF(whitespace=True)))
    grid.append(("chrf eps", lambda: CHRF(eps_smoothing=True)))
    grid.append(("chrf++ eps lc ws", lambda: CHRF(word_order=2, eps_smoothing=True, lowercase=True,
                                                  whitespace=True)))
    return grid


def _ter_grid() -> list[tuple[str, Callable[[], Any]]]:
    from mtscore.metrics.ter import TER

    grid: list[tuple[str, Callable[[], Any]]] = []
    for norm in (False, True):
        for punct in (False, True):
            for asian in (False, True):
                for case in (False, True):
                    grid.append((f"ter norm={norm} nopunct={punct} asian={asian} case={case}",
                                 lambda n=norm, p=punct, a=asian, c=case: TER(
                                     normalized=n, no_punct=p, asian_support=a, case_sensitive=c)))
    return grid


def _nist_grid() -> list[tuple[str, Callable[[], Any]]]:
    from mtscore.metrics.nist import NIST

    grid: list[tuple[str, Callable[[], Any]]] = [("nist", NIST)]
    for tok in ("intl", "zh", "char", "none"):
        grid.append((f"nist tok={tok}", lambda tok=tok: NIST(tokenize=tok)))
    grid.append(("nist lowercase", lambda: NIST(lowercase=True)))
    for order in (1, 3, 4, 6):
        grid.append((f"nist order={order}", lambda o=order: NIST(max_order=o)))
    grid.append(("nist no zero quirk", lambda: NIST(mteval_zero_quirk=False)))
    return grid


def _unigram_grid() -> list[tuple[str, Callable[[], Any]]]:
    from mtscore.metrics.unigram import MEASURES, Unigram

    grid: list[tuple[str, Callable[[], Any]]] = []
    for measure in MEASURES:
        grid.append((f"unigram {measure}", lambda m=measure: Unigram(m)))
        grid.append((f"unigram {measure} mixed", lambda m=measure: Unigram(m, lowercase=False)))
        grid.append((f"unigram {measure} tok=intl", lambda m=measure: Unigram(m, tokenize="intl")))
    return grid


def _meteor_grid() -> list[tuple[str, Callable[[], Any]]]:
    from mtscore.metrics.meteor import METEOR

    grid: list[tuple[str, Callable[[], Any]]] = [("meteor", METEOR)]
    for modules in ("exact", "exact+porter", "exact+stem", "exact+porter+synonym",
                    "exact+wn_stem+synonym"):
        grid.append((f"meteor modules={modules}", lambda m=modules: METEOR(modules=m)))
    grid.append(("meteor params", lambda: METEOR(alpha=0.8, beta=2.0, gamma=0.4)))
    grid.append(("meteor delta", lambda: METEOR(delta=0.75)))
    grid.append(("meteor weights", lambda: METEOR(weights=(1.0, 0.6, 0.8))))
    grid.append(("meteor stop", lambda: METEOR(exclude_stopwords=True)))
    grid.append(("meteor mixed", lambda: METEOR(lowercase=False)))
    grid.append(("meteor tok=intl", lambda: METEOR(tokenize="intl")))
    grid.append(("meteor 1.5", lambda: METEOR(variant="1.5")))
    grid.append(("meteor 1.5 beam", lambda: METEOR(variant="1.5", jar_beam=40)))
    grid.append(("meteor 1.5 params", lambda: METEOR(variant="1.5", alpha=0.85, beta=0.2,
                                                     gamma=0.6, delta=0.75,
                                                     weights=(1.0, 0.6, 0.8))))
    grid.append(("meteor 2005 no accelerate", lambda: METEOR(fast=False)))
    for lang in ("de", "fr", "cs", "zh", "ru", "xx"):
        grid.append((f"meteor lang={lang}", lambda lang=lang: METEOR(language=lang)))
    grid.append(("meteor 1.5 lang=de", lambda: METEOR(variant="1.5", language="de")))
    return grid


def grid() -> list[tuple[str, Callable[[], Any]]]:
    """(label, factory) of every metric configuration recorded."""
    return [*_bleu_grid(), *_chrf_grid(), *_ter_grid(), *_nist_grid(), *_unigram_grid(),
            *_meteor_grid()]


def record(metric: Any) -> dict[str, Any]:
    """One configuration's signatures and scores on every reference set (floats by ``repr``)."""
    out: dict[str, Any] = {"signature": str(metric.signature()), "sets": {}}
    for name, refs in REFERENCE_SETS.items():
        stats = metric.extract(HYPS, refs)
        result = metric.compute(stats.total(), stats.meta)
        corpus = metric.corpus_score(HYPS, refs)
        out["sets"][name] = {
            "signature": str(result.signature),
            "score": repr(float(result.score)),
            "corpus_score": repr(float(corpus.score)),
            "corpus_signature": str(corpus.signature),
            "segments": [repr(float(x)) for x in metric.compute_many(stats.values)],
        }
    # a corpus large enough for every metric's whole-corpus (numpy) path
    large = metric.corpus_score(HYPS * LARGE_REPEATS, [s * LARGE_REPEATS for s in REFERENCE_SETS["2ref"]])
    out["large"] = [str(large.signature), repr(float(large.score))]
    return out


def sentence_functions() -> dict[str, Any]:
    """The signatures and scores of the sentence functions with their defaults."""
    from mtscore.metrics.bleu import sentence_bleu
    from mtscore.metrics.chrf import sentence_chrf
    from mtscore.metrics.meteor import sentence_meteor
    from mtscore.metrics.ter import sentence_ter

    out: dict[str, Any] = {}
    for label, fn in (("sentence_bleu", sentence_bleu), ("sentence_chrf", sentence_chrf),
                      ("sentence_ter", sentence_ter), ("sentence_meteor", sentence_meteor)):
        for refs_label, refs in (("1ref", [REF_A[0]]), ("2ref", [REF_A[0], REF_B_FULL[0]])):
            result = fn(HYPS[0], refs)
            out[f"{label} {refs_label}"] = [str(result.signature), repr(float(result.score))]
    return out


def golden() -> dict[str, Any]:
    """Everything recorded: ``metrics`` (label -> :func:`record`) and ``sentence`` functions."""
    return {"metrics": {label: record(factory()) for label, factory in grid()},
            "sentence": sentence_functions()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("output")
    args = ap.parse_args()
    with open(args.output, "w", encoding="utf-8") as f:
        json.dump(golden(), f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
