"""``mtscore caption``: coco-caption's evaluation (``COCOEvalCap``) of caption results, no Java.

Inputs: a COCO annotation file and one or two COCO results files (``--annotations``,
``--results``), or the plain layout of the other commands (``--refs`` files, one caption per line,
and ``--input`` files). Prints the dict ``COCOEvalCap.eval`` holds; with ``--per-image`` the
per-image scores; with ``--ci`` bootstrap confidence intervals; with two results files the paired
bootstrap test of each metric. ``--build-cider-df OUT`` saves the references' CIDEr document
frequencies (e.g. of the training captions) for ``--cider-df``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..errors import InputError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "caption", help="coco-caption's caption evaluation (BLEU-1..4, METEOR, ROUGE-L, CIDEr-D)",
        description="Scores caption results as pycocoevalcap's COCOEvalCap does (its PTB "
                    "tokenizer, Bleu_1..4, METEOR, ROUGE_L, CIDEr; no SPICE), in Python.",
        epilog="examples: mtscore caption --annotations captions_val.json --results res.json; "
               "mtscore caption --annotations a.json --results A.json B.json --per-image; "
               "mtscore caption --annotations captions_train.json --build-cider-df train.df.gz")
    p.add_argument("--annotations", "-a", metavar="JSON", help="COCO annotation file (references)")
    p.add_argument("--results", "-R", nargs="+", metavar="JSON",
                   help="COCO results file(s): one caption per image (two files: a paired test)")
    p.add_argument("--refs", "-r", nargs="+", metavar="REF",
                   help="plain layout: reference files, one caption per line (instead of -a)")
    p.add_argument("--input", "-i", nargs="+", metavar="HYP",
                   help="plain layout: result files, one caption per line (instead of -R)")
    p.add_argument("--per-image", action="store_true",
                   help="also print every image's scores (coco's imgToEval)")
    p.add_argument("--ci", action="store_true",
                   help="bootstrap confidence intervals of the corpus scores (images resampled)")
    p.add_argument("--resamples", type=int, default=1000, metavar="N",
                   help="bootstrap resamples for --ci and the paired test (default 1000)")
    p.add_argument("--seed", type=int, default=12345, help="random seed (default 12345)")
    p.add_argument("--no-meteor", action="store_true", help="leave METEOR out")
    p.add_argument("--tokenized", action="store_true",
                   help="the captions are tokenized already (skip coco-caption's PTB tokenizer)")
    p.add_argument("--cider-df", metavar="FILE",
                   help="CIDEr document frequencies saved by --build-cider-df (default: the "
                        "scored references, as coco-caption; a single image then scores 0)")
    p.add_argument("--build-cider-df", metavar="OUT",
                   help="save the CIDEr document frequencies of the references to OUT (.gz) "
                        "and exit")
    p.add_argument("--format", "-f", default="text", choices=("text", "json"),
                   help="output format (default text: the eval dict as COCOEvalCap holds it)")
    p.add_argument("--decimals", "-w", type=int, default=None, metavar="N",
                   help="round the printed scores to N decimals (default: full precision)")
    p.set_defaults(func=run)


def _plain(args: argparse.Namespace) -> tuple[list[Any], list[list[str]], list[tuple[str, list[str]]]]:
    from .common import read_systems_and_refs

    systems, refs = read_systems_and_refs(args.input, args.refs)
    per_image = [list(r) for r in zip(*refs)]
    return list(range(1, len(per_image) + 1)), per_image, systems


def _coco(args: argparse.Namespace) -> tuple[list[Any], list[list[str]], list[tuple[str, list[str]]]]:
    from ..io.coco import check_images, read_annotations, read_results
    from .common import system_name

    annotations = read_annotations(args.annotations)
    if not args.results:
        return list(annotations), list(annotations.values()), []
    results = [read_results(path) for path in args.results]
    for path, res in zip(args.results, results):
        check_images(res, annotations, path)
    images = list(results[0])
    for path, res in zip(args.results[1:], results[1:]):
        if set(res) != set(images):
            raise InputError(f"captions other images than {args.results[0]} (a paired test needs "
                             "the same images)", source=path)
    systems = [(system_name(path).removesuffix(".json"), [res[i] for i in images])
               for path, res in zip(args.results, results)]
    return images, [annotations[i] for i in images], systems


def inputs(args: argparse.Namespace) -> tuple[list[Any], list[list[str]], list[tuple[str, list[str]]]]:
    """(image ids, references per image, [(system name, captions)]) from the options."""
    if (args.annotations is None) == (args.refs is None):
        raise InputError("give the references either as --annotations JSON or as --refs FILES")
    if args.annotations is not None and args.input:
        raise InputError("--input goes with --refs; with --annotations give --results")
    if args.refs is not None and args.results:
        raise InputError("--results goes with --annotations; with --refs give --input")
    images, refs, systems = _coco(args) if args.annotations is not None else _plain(args)
    if not args.build_cider_df:
        if not systems:
            raise InputError("no results to score: give --results (or --input)")
        if len(systems) > 2:
            raise InputError("give one results file, or two for a paired test")
    return images, refs, systems


def run(args: argparse.Namespace) -> int:
    from ..caption import cider_document_frequency, evaluate_captions, paired_significance

    images, refs, systems = inputs(args)
    if args.build_cider_df:
        df = cider_document_frequency(refs, tokenized=args.tokenized)
        df.save(args.build_cider_df)
        print(f"saved the document frequencies of {df.images} images "
              f"({len(df.counts)} n-grams) to {args.build_cider_df}")
        return 0
    evaluations = [evaluate_captions(hyps, refs, images, meteor=not args.no_meteor,
                                     cider_df=args.cider_df, tokenized=args.tokenized)
                   for _, hyps in systems]
    tests = (paired_significance(evaluations[0], evaluations[1], (systems[0][0], systems[1][0]),
                                 args.resamples, args.seed) if len(evaluations) == 2 else None)
    cis = ([e.confidence_intervals(args.resamples, args.seed) for e in evaluations]
           if args.ci else None)
    if args.format == "json":
        _print_json(systems, evaluations, cis, tests, args.per_image)
    else:
        _print_text(systems, evaluations, cis, tests, args.per_image, args.decimals)
    return 0


def _rounded(value: float, decimals: int | None) -> float:
    return float(value) if decimals is None else round(float(value), decimals)


def _print_json(systems: list[tuple[str, list[str]]], evaluations: list[Any], cis: Any,
                tests: Any, per_image: bool) -> None:
    out = []
    for k, ((name, _), ev) in enumerate(zip(systems, evaluations)):
        entry: dict[str, Any] = {"system": name, "eval": ev.eval, "signatures": ev.signatures}
        if cis is not None:
            entry["ci"] = {m: ci.to_dict() for m, ci in cis[k].items()}
        if per_image:
            entry["imgToEval"] = {str(i): v for i, v in ev.per_image().items()}
        out.append(entry)
    doc: dict[str, Any] = {"systems": out}
    if tests is not None:
        doc["paired_bootstrap"] = {m: [c.to_dict() for c in t.comparisons] for m, t in tests.items()}
    json.dump(doc, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


def _print_text(systems: list[tuple[str, list[str]]], evaluations: list[Any], cis: Any,
                tests: Any, per_image: bool, decimals: int | None) -> None:
    for k, ((name, _), ev) in enumerate(zip(systems, evaluations)):
        if len(systems) > 1:
            print(f"{name}:")
        print({m: _rounded(v, decimals) for m, v in ev.eval.items()})
        if cis is not None:
            for metric, ci in cis[k].items():
                print(f"{metric}: {ci.score:.4f} [{ci.ci_low:.4f}, {ci.ci_high:.4f}] "
                      f"({ci.confidence:.0%} bootstrap, {ci.resamples} resamples, seed {ci.seed})")
        if per_image:
            names = list(ev.eval)
            print("\t".join(["image_id", *names]))
            for image, scores in ev.per_image().items():
                print("\t".join([str(image), *(repr(_rounded(scores[m], decimals)) for m in names)]))
    if tests is not None:
        print("paired bootstrap (Koehn, 2004):")
        for metric, test in tests.items():
            for c in test.comparisons:
                print(f"{metric}: {c.system} {c.score:.4f} vs {c.other} {c.other_score:.4f}, "
                      f"difference {c.difference:+.4f}, p = {c.p_value:.4f}")
