"""Benchmark and check of the METEOR 2005 aligner: this tree's stage matching against another revision's.

    python benchmarks/meteor_align.py [--data ../shared/data/wmt22/de-en ...] [--against REV] [--ref B]

For each data set folder (default: WMT22 de-en from ../shared when present, else the embedded
427-segment sample), every system is scored against one reference (``--ref``; default the first
in name order, A on WMT22 except cs-en) with the study's METEOR 2005
module sets (exact porter synonym; exact; exact porter; exact wn_stem), sharing one stage cache as
the study does. With ``--against REV`` (a git revision of this repository) the same is done with
``src/mtscore/metrics/meteor/align.py`` of that revision in place of ``best_stage_matching``, and the
script reports the time spent in each aligner, the segments whose statistics differ and the largest
corpus-score difference. The matchers, scoring and everything else are this tree's in both runs.

No timing here is asserted anywhere; numbers depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data" / "wmt22" / "de-en"
MODULE_SETS = (("exact", "porter", "synonym"), ("exact",), ("exact", "porter"), ("exact", "wn_stem"))
ALIGN = "src/mtscore/metrics/meteor/align.py"


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


def _score_all(folder: Path, ref: str | None, matcher: Any) -> tuple[dict[tuple[str, str], np.ndarray], float]:
    """Per-segment statistics of every (system, module set) with ``matcher`` as the stage matching,
    and the seconds spent inside it."""
    import mtscore.metrics.meteor.metric as metric_module
    from mtscore.io.text import read_lines
    from mtscore.metrics.meteor import METEOR

    spent = [0.0]

    def timed(*args: Any, **kwargs: Any) -> Any:
        t = time.perf_counter()
        out = matcher(*args, **kwargs)
        spent[0] += time.perf_counter() - t
        return out

    saved = metric_module.best_stage_matching
    metric_module.best_stage_matching = timed
    try:
        if ref is None:
            ref = min(p.stem for p in (folder / "references").glob("*.txt"))
        refs = read_lines(folder / "references" / f"{ref}.txt")
        out: dict[tuple[str, str], np.ndarray] = {}
        stages: dict[Any, Any] = {}
        for path in sorted((folder / "systems").glob("*.txt")):
            if path.stem == f"HUMAN-{ref}":
                continue
            hyps = read_lines(path)
            for modules in MODULE_SETS:
                stats = METEOR(modules=modules, stage_cache=stages).extract(hyps, [refs])
                out[(path.stem, "+".join(modules))] = stats.values
    finally:
        metric_module.best_stage_matching = saved
    return out, spent[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", nargs="+", type=Path, help="data set folders (default: WMT22 de-en)")
    parser.add_argument("--against", metavar="REV", help="git revision whose aligner to compare with")
    parser.add_argument("--ref", help="reference id (default: the first in name order)")
    args = parser.parse_args()
    from mtscore.data import sample_path
    from mtscore.metrics.meteor import METEOR
    from mtscore.metrics.meteor.align import best_stage_matching

    folders = args.data or [SHARED if SHARED.is_dir() else sample_path()]
    other = _revision_module(args.against) if args.against else None
    for folder in folders:
        new, t_new = _score_all(folder, args.ref, best_stage_matching)
        line = f"{folder}: aligner {t_new:.2f} s (this tree)"
        if other is None:
            print(line)
            continue
        old, t_old = _score_all(folder, args.ref, other.best_stage_matching)
        differ = sum(int((new[k] != old[k]).any(axis=1).sum()) for k in new)
        segments = sum(len(v) for v in new.values())
        worst = 0.0
        for key in new:
            metric = METEOR(modules=key[1].split("+"))
            a = metric.compute(new[key].sum(axis=0)).score
            b = metric.compute(old[key].sum(axis=0)).score
            worst = max(worst, abs(a - b))
        print(f"{line}, {t_old:.2f} s ({args.against}); segment statistics differing: {differ} of "
              f"{segments}; largest corpus METEOR difference {worst:.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
