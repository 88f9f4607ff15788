"""Benchmark and check of the METEOR 2005 aligner: this tree's against another revision's.

    python benchmarks/meteor_align.py [--data DIR ...] [--all] [--against REV] [--ref ID ...]
                                      [--mode corpus|study|both]

For each data set folder (default: WMT22 de-en from ../shared when present, else the embedded
427-segment sample; ``--all``: every pair under ../shared/data/wmt22), every system is aligned against
each reference (``--ref``; default every reference of the folder; a ``HUMAN-X`` system is never aligned
with reference X) with the study's METEOR 2005 module sets (exact porter synonym; exact; exact porter;
exact wn_stem), in two ways (``--mode``):

* ``corpus``: ``METEOR(modules=...).align_corpus(hyps, [refs])`` of each module set on its own — the
  corpus-wide stages (:func:`.align.even_class_stages`) and whatever they hand on, as
  ``mtscore score -m meteor`` runs them;
* ``study``: the module sets sharing one stage cache, as the study does — the per-segment aligner
  (``small_classes_choice`` and ``best_stage_matching`` per stage).

With ``--against REV`` (a git revision of this repository) everything is done again with
``src/mtscore/metrics/meteor/align.py`` of that revision in place of this tree's (every function the
metric module takes from it is swapped), and the script reports, per folder and mode, the time spent
in the aligner's functions, the segments whose statistics or alignments (kept reference, matches and
their modules) differ, and the largest corpus-score difference. The matchers, scoring and everything
else are this tree's in both runs. Exit status 1 when anything differs.

No timing here is asserted anywhere; numbers depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
WMT22 = REPO.parent / "shared" / "data" / "wmt22"
SHARED = WMT22 / "de-en"
MODULE_SETS = (("exact", "porter", "synonym"), ("exact",), ("exact", "porter"), ("exact", "wn_stem"))
ALIGN = "src/mtscore/metrics/meteor/align.py"

Key = tuple[str, str, str, str]  # (mode, reference, system, module set)


def _revision_module(rev: str) -> ModuleType:
    """``align.py`` of git revision ``rev``, imported as a stand-alone module."""
    text = subprocess.run(["git", "-C", str(REPO), "show", f"{rev}:{ALIGN}"], capture_output=True,
                          text=True, check=True).stdout
    path = Path(tempfile.mkdtemp()) / "align_rev.py"
    path.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("align_rev", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@contextlib.contextmanager
def _aligner(module: ModuleType, spent: list[float]) -> Iterator[None]:
    """The metric module's functions from this tree's ``align`` replaced by ``module``'s, each timed
    (seconds added to ``spent[0]``)."""
    import mtscore.metrics.meteor.align as ours
    import mtscore.metrics.meteor.metric as metric_module

    def timed(fn: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            t = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[0] += time.perf_counter() - t
        return call

    names = [n for n, v in vars(metric_module).items()
             if callable(v) and getattr(ours, n, None) is v and not isinstance(v, type)]
    saved = {n: getattr(metric_module, n) for n in names}
    for n in names:
        setattr(metric_module, n, timed(getattr(module, n)))
    try:
        yield
    finally:
        for n, v in saved.items():
            setattr(metric_module, n, v)


def _references(folder: Path, wanted: list[str] | None) -> list[str]:
    refs = sorted(p.stem for p in (folder / "references").glob("*.txt"))
    return [r for r in refs if wanted is None or r in wanted]


def _align_all(folder: Path, refs: list[str], modes: list[str], module: ModuleType
               ) -> tuple[dict[Key, tuple[np.ndarray, Any]], dict[str, float]]:
    """Per-segment statistics and kept alignments of every (mode, reference, system, module set)
    with ``module`` as the aligner, and the seconds spent inside it per mode."""
    from mtscore.io.text import read_lines
    from mtscore.metrics.meteor import METEOR

    out: dict[Key, tuple[np.ndarray, Any]] = {}
    times: dict[str, float] = {}
    systems = sorted((folder / "systems").glob("*.txt"))
    for mode in modes:
        spent = [0.0]
        with _aligner(module, spent):
            for ref in refs:
                ref_lines = read_lines(folder / "references" / f"{ref}.txt")
                stages: dict[Any, Any] = {}
                for path in systems:
                    if path.stem == f"HUMAN-{ref}":
                        continue
                    hyps = read_lines(path)
                    for modules in MODULE_SETS:
                        cache = {"stage_cache": stages} if mode == "study" else {}
                        metric = METEOR(modules=modules, **cache)
                        stats, kept, _, _ = metric.align_corpus(hyps, [ref_lines], keep_alignments=True)
                        out[(mode, ref, path.stem, "+".join(modules))] = (stats.values, kept)
        times[mode] = spent[0]
    return out, times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", nargs="+", type=Path, help="data set folders (default: WMT22 de-en)")
    parser.add_argument("--all", action="store_true", help="every WMT22 pair under ../shared")
    parser.add_argument("--against", metavar="REV", help="git revision whose aligner to compare with")
    parser.add_argument("--ref", nargs="+", help="reference ids (default: every reference of a folder)")
    parser.add_argument("--mode", choices=("corpus", "study", "both"), default="both",
                        help="corpus-wide stages per module set, the study's shared stage cache, or both")
    args = parser.parse_args()
    import mtscore.metrics.meteor.align as ours
    from mtscore.data import sample_path
    from mtscore.metrics.meteor import METEOR

    if args.all:
        folders = sorted(p for p in WMT22.glob("*-*") if (p / "systems").is_dir())
    else:
        folders = args.data or [SHARED if SHARED.is_dir() else sample_path()]
    modes = ["corpus", "study"] if args.mode == "both" else [args.mode]
    other = _revision_module(args.against) if args.against else None
    failed = False
    for folder in folders:
        refs = _references(folder, args.ref)
        new, t_new = _align_all(folder, refs, modes, ours)
        old, t_old = _align_all(folder, refs, modes, other) if other is not None else ({}, {})
        for mode in modes:
            keys = [k for k in new if k[0] == mode]
            line = (f"{folder} [{mode}, refs {' '.join(refs)}]: aligner {t_new[mode]:.2f} s (this tree)")
            if other is None:
                print(line)
                continue
            segments = sum(len(new[k][0]) for k in keys)
            stats_differ = sum(int((new[k][0] != old[k][0]).any(axis=1).sum()) for k in keys)
            align_differ = sum(sum(a != b for a, b in zip(new[k][1], old[k][1])) for k in keys)
            worst = 0.0
            for k in keys:
                metric = METEOR(modules=k[3].split("+"))
                a = metric.compute(new[k][0].sum(axis=0)).score
                b = metric.compute(old[k][0].sum(axis=0)).score
                worst = max(worst, abs(a - b))
            failed = failed or bool(stats_differ or align_differ or worst)
            print(f"{line}, {t_old[mode]:.2f} s ({args.against}); of {segments} aligned segments "
                  f"({len(keys)} system x reference x module set runs) statistics differ in "
                  f"{stats_differ}, alignments in {align_differ}; largest corpus METEOR difference "
                  f"{worst:.2e}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
