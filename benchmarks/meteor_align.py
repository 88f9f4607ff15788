"""Benchmark and check of METEOR's aligners: this tree's against another revision's, whole.

    python benchmarks/meteor_align.py [--data DIR ...] [--all] [--against REV] [--ref ID ...]
                                      [--mode corpus|study|both|jar|beam|all]

For each data set folder (default: WMT22 de-en from ../shared when present, else the embedded
427-segment sample; ``--all``: every pair under ../shared/data/wmt22), every system is aligned against
each reference (``--ref``; default every reference of the folder; a ``HUMAN-X`` system is never aligned
with reference X), in these ways (``--mode``; ``both``: corpus and study, ``all``: every one):

* ``corpus``: ``METEOR(modules=...).align_corpus(hyps, [refs])`` with each of the study's METEOR 2005
  module sets (exact porter synonym; exact; exact porter; exact wn_stem) on its own — the corpus-wide
  stages (:mod:`mtscore.metrics.meteor.align.corpus`) and whatever they hand on, as
  ``mtscore score -m meteor`` runs them;
* ``study``: the same module sets sharing one stage cache, as the study does — the per-segment aligner
  (:mod:`mtscore.metrics.meteor.align.stage`);
* ``cli``: the corpus module sets as the command line runs them, statistics only:
  ``metric.extract(hyps, metric.prepare_chunk([refs], None, 0))`` (where the corpus is split over
  processes, each range is encoded in its own: :mod:`mtscore.metrics.meteor.text_ranges`);
* ``jar``: variant 1.5 (exact stem synonym), the jar's objective searched exactly;
* ``beam``: variant 1.5 with the jar's own beam of 40.

With ``--against REV`` (a git revision of this repository) the same is computed by that revision's
whole ``src/`` tree (``git archive``, imported in a child process), and the script reports, per
folder and mode, the time each tree took, the segments whose statistics or alignments (kept
reference, matches and their modules) differ, and the largest corpus-score difference. Exit status 1
when anything differs.

No timing here is asserted anywhere; numbers depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import os
import pickle
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
WMT22 = REPO.parent / "shared" / "data" / "wmt22"
SHARED = WMT22 / "de-en"
MODULE_SETS = (("exact", "porter", "synonym"), ("exact",), ("exact", "porter"), ("exact", "wn_stem"))
JAR_MODULES = ("exact", "stem", "synonym")
MODES = ("corpus", "study", "cli", "jar", "beam")

Key = tuple[str, str, str, str]  # (mode, reference, system, module set)


def _references(folder: Path, wanted: list[str] | None) -> list[str]:
    refs = sorted(p.stem for p in (folder / "references").glob("*.txt"))
    return [r for r in refs if wanted is None or r in wanted]


def _runs(mode: str) -> list[tuple[tuple[str, ...], dict[str, Any]]]:
    """(modules, METEOR keyword arguments) of one mode's runs."""
    if mode == "jar":
        return [(JAR_MODULES, {"variant": "1.5"})]
    if mode == "beam":
        return [(JAR_MODULES, {"variant": "1.5", "jar_beam": 40})]
    return [(modules, {}) for modules in MODULE_SETS]


def _align_all(folder: Path, refs: list[str], modes: list[str]
               ) -> tuple[dict[Key, tuple[np.ndarray, Any]], dict[str, float]]:
    """Per-segment statistics and kept alignments of every (mode, reference, system, module set)
    with the ``mtscore`` this process imports, and the seconds each mode took."""
    from mtscore.io.text import read_lines
    from mtscore.metrics.meteor import METEOR

    out: dict[Key, tuple[np.ndarray, Any]] = {}
    times: dict[str, float] = {}
    systems = sorted((folder / "systems").glob("*.txt"))
    for mode in modes:
        start = time.perf_counter()
        for ref in refs:
            ref_lines = read_lines(folder / "references" / f"{ref}.txt")
            stages: dict[Any, Any] = {}
            for path in systems:
                if path.stem == f"HUMAN-{ref}":
                    continue
                hyps = read_lines(path)
                for modules, kwargs in _runs(mode):
                    if mode == "study":
                        kwargs = {"stage_cache": stages}
                    metric = METEOR(modules=modules, **kwargs)
                    if mode == "cli":
                        stats = metric.extract(hyps, metric.prepare_chunk([ref_lines], None, 0))
                        kept: Any = []
                    else:
                        stats, kept, _, _ = metric.align_corpus(hyps, [ref_lines], keep_alignments=True)
                    out[(mode, ref, path.stem, "+".join(modules))] = (stats.values, kept)
        times[mode] = time.perf_counter() - start
    return out, times


def _revision_results(rev: str, folder: Path, refs: list[str], modes: list[str]
                      ) -> tuple[dict[Key, tuple[np.ndarray, Any]], dict[str, float]]:
    """:func:`_align_all` computed by git revision ``rev``'s ``src/`` tree in a child process."""
    work = Path(tempfile.mkdtemp(prefix="meteor-align-rev-"))
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev, "src"], capture_output=True,
                             check=True).stdout
    tar = work / "src.tar"
    tar.write_bytes(archive)
    with tarfile.open(tar) as t:
        t.extractall(work, filter="data")
    dump = work / "results.pickle"
    env = {**os.environ, "PYTHONPATH": str(work / "src")}
    subprocess.run([sys.executable, __file__, "--child", str(dump), "--data", str(folder),
                    "--ref", *refs, "--mode", *modes], env=env, check=True)
    with dump.open("rb") as f:
        return pickle.load(f)


def _report(folder: Path, refs: list[str], mode: str, new: dict, t_new: dict, old: dict | None,
            t_old: dict, rev: str | None) -> bool:
    """Print one folder's and mode's line; True when something differs."""
    from mtscore.metrics.meteor import METEOR

    keys = [k for k in new if k[0] == mode]
    line = f"{folder} [{mode}, refs {' '.join(refs)}]: {t_new[mode]:.2f} s (this tree)"
    if old is None:
        print(line)
        return False
    segments = sum(len(new[k][0]) for k in keys)
    stats_differ = sum(int((new[k][0] != old[k][0]).any(axis=1).sum()) for k in keys)
    align_differ = sum(sum(a != b for a, b in zip(new[k][1], old[k][1])) for k in keys)
    worst = 0.0
    for k in keys:
        metric = METEOR(modules=k[3].split("+"), **({"variant": "1.5"} if mode in ("jar", "beam") else {}))
        a = metric.compute(new[k][0].sum(axis=0)).score
        b = metric.compute(old[k][0].sum(axis=0)).score
        worst = max(worst, abs(a - b))
    print(f"{line}, {t_old[mode]:.2f} s ({rev}); of {segments} aligned segments "
          f"({len(keys)} system x reference x module set runs) statistics differ in "
          f"{stats_differ}, alignments in {align_differ}; largest corpus METEOR difference "
          f"{worst:.2e}", flush=True)
    return bool(stats_differ or align_differ or worst)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", nargs="+", type=Path, help="data set folders (default: WMT22 de-en)")
    parser.add_argument("--all", action="store_true", help="every WMT22 pair under ../shared")
    parser.add_argument("--against", metavar="REV", help="git revision whose METEOR to compare with")
    parser.add_argument("--ref", nargs="+", help="reference ids (default: every reference of a folder)")
    parser.add_argument("--mode", nargs="+", choices=(*MODES, "both", "all"), default=["both"],
                        help="which aligners (see above; default: both = corpus study)")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)  # internal: dump results here
    args = parser.parse_args()
    modes = [m for mode in args.mode for m in
             (("corpus", "study") if mode == "both" else MODES if mode == "all" else (mode,))]
    modes = list(dict.fromkeys(modes))
    if args.child is not None:
        result = _align_all(args.data[0], args.ref, modes)
        with args.child.open("wb") as f:
            pickle.dump(result, f)
        return 0
    from mtscore.data import sample_path

    if args.all:
        folders = sorted(p for p in WMT22.glob("*-*") if (p / "systems").is_dir())
    else:
        folders = args.data or [SHARED if SHARED.is_dir() else sample_path()]
    failed = False
    for folder in folders:
        refs = _references(folder, args.ref)
        new, t_new = _align_all(folder, refs, modes)
        old, t_old = _revision_results(args.against, folder, refs, modes) if args.against else (None, {})
        for mode in modes:
            failed = _report(folder, refs, mode, new, t_new, old, t_old, args.against) or failed
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
