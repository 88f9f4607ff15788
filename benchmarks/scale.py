"""Scale: whole-process time, segments per second and peak memory of ``mtscore score`` from 2k to 10M
segments, against sacreBLEU in the same run.

The corpora repeat WMT22 de-en Online-A and reference A (``../shared/data/wmt22``, else the package
sample) up to each size, written to a temporary folder. Every run is a separate process timed here;
peak resident memory is ``/usr/bin/time -v``'s "Maximum resident set size" (the largest process of
the run: with ``--jobs`` the main process or a worker; with ``--scheduler`` only this side — the
Dask workers live in the cluster this script starts). ``ratio`` is sacreBLEU's seconds over the row's
at the same size (BLEU rows; "–" where sacreBLEU did not run).

    python benchmarks/scale.py                         # 2k, 100k, 1M, 10M
    python benchmarks/scale.py --sizes 2000 100000     # a quick run
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from mtscore.data import sample_path
from mtscore.streaming import default_jobs

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "wmt22" / "de-en"
SOURCE = SHARED if SHARED.is_dir() else sample_path()
SIZES = (2_000, 100_000, 1_000_000, 10_000_000)
#: the largest sizes each tool runs at (sacreBLEU holds the corpus in memory: 1M takes ~9 GB)
LIMITS = {"chrf": 1_000_000, "meteor": 1_000_000, "sacrebleu": 1_000_000, "dask": 1_000_000}
DASK_FROM = 100_000


@dataclass(frozen=True)
class Run:
    """One measured process."""

    size: int
    tool: str
    seconds: float
    rss_mb: float
    output: str


def repeat_to(src: Path, dest: Path, size: int) -> None:
    """``dest``: the lines of ``src`` repeated up to ``size`` lines (written block by block)."""
    lines = src.read_text(encoding="utf-8").splitlines(keepends=True)
    block = "".join(lines)
    with dest.open("w", encoding="utf-8") as out:
        full, rest = divmod(size, len(lines))
        for _ in range(full):
            out.write(block)
        out.write("".join(lines[:rest]))


def timed(size: int, tool: str, argv: list[str]) -> Run:
    """Run ``argv`` under ``/usr/bin/time -v``: wall seconds, peak RSS in MB, stdout."""
    start = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-v", *argv], capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{tool} at {size:,} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    rss = int(found.group(1)) / 1024 if found else float("nan")
    return Run(size, tool, seconds, rss, proc.stdout.strip())


def mtscore(ref: Path, hyp: Path, metric: str, *extra: str) -> list[str]:
    return [sys.executable, "-m", "mtscore", "score", "-r", str(ref), "-i", str(hyp), "-m", metric,
            "-b", "-q", *extra]


def plan(size: int, ref: Path, hyp: Path, jobs: int, scheduler: str | None) -> list[tuple[str, list[str]]]:
    """The tools run at ``size``: (label, command)."""
    runs = [("mtscore BLEU 1 job", mtscore(ref, hyp, "bleu", "--jobs", "1")),
            (f"mtscore BLEU {jobs} jobs", mtscore(ref, hyp, "bleu", "--jobs", str(jobs)))]
    if size <= LIMITS["chrf"]:
        runs.append(("mtscore chrF 1 job", mtscore(ref, hyp, "chrf", "--jobs", "1")))
    if size <= LIMITS["meteor"]:
        runs.append(("mtscore METEOR 1 job", mtscore(ref, hyp, "meteor", "--jobs", "1")))
    if scheduler and DASK_FROM <= size <= LIMITS["dask"]:
        runs.append(("mtscore BLEU Dask 2 workers", mtscore(ref, hyp, "bleu", "--scheduler", scheduler)))
    if size <= LIMITS["sacrebleu"] and shutil.which("sacrebleu"):
        runs.append(("sacreBLEU 2.6 BLEU", ["sacrebleu", str(ref), "-i", str(hyp), "-m", "bleu", "-b"]))
    return runs


def table(runs: list[Run]) -> str:
    """A markdown table: segments, tool, seconds, segments/s, peak RSS MB, ratio to sacreBLEU."""
    peer = {r.size: r.seconds for r in runs if r.tool.startswith("sacreBLEU")}
    lines = ["| segments | tool | seconds | segments/s | peak RSS MB | ratio |",
             "|---:|---|---:|---:|---:|---:|"]
    for r in runs:
        ratio = f"{peer[r.size] / r.seconds:.1f}×" if r.size in peer and "BLEU" in r.tool else "–"
        lines.append(f"| {r.size:,} | {r.tool} | {r.seconds:.1f} | {r.size / r.seconds:,.0f} | "
                     f"{r.rss_mb:,.0f} | {ratio} |")
    return "\n".join(lines)


def checks(runs: list[Run], jobs: int) -> list[str]:
    """The issue's must-show targets, measured."""
    by = {(r.size, r.tool): r for r in runs}
    out = []
    targets = ((10_000_000, "mtscore BLEU 1 job", 1024), (1_000_000, "mtscore METEOR 1 job", 1024))
    for size, tool, limit in targets:
        if (size, tool) in by:
            rss = by[size, tool].rss_mb
            out.append(f"{tool} at {size:,}: peak RSS {rss:,.0f} MB (target <= {limit}): "
                       f"{'met' if rss <= limit else 'NOT met'}")
    small, big = by.get((100_000, "mtscore BLEU 1 job")), by.get((10_000_000, "mtscore BLEU 1 job"))
    if small and big:
        a, b = small.size / small.seconds, big.size / big.seconds
        out.append(f"BLEU 1 job segments/s: 100k {a:,.0f}, 10M {b:,.0f} ({b / a - 1:+.0%}; target "
                   f"within 25%): {'met' if b >= 0.75 * a else 'NOT met'}")
    for size in sorted({r.size for r in runs}):
        one, many = by.get((size, "mtscore BLEU 1 job")), by.get((size, f"mtscore BLEU {jobs} jobs"))
        if one and many:
            same = "identical output" if one.output == many.output else "OUTPUT DIFFERS"
            out.append(f"BLEU {size:,}: --jobs {jobs} {one.seconds / many.seconds:.2f}× faster than "
                       f"--jobs 1, {same}")
    return out


def start_cluster() -> tuple[object, str] | tuple[None, None]:
    """A LocalCluster of 2 single-threaded worker processes (None when dask is not installed)."""
    try:
        from distributed import LocalCluster
    except ImportError:
        return None, None
    cluster = LocalCluster(n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1",
                           dashboard_address=None)
    return cluster, str(cluster.scheduler_address)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", nargs="+", type=int, default=list(SIZES), help="corpus sizes")
    parser.add_argument("--jobs", type=int, default=default_jobs(), help="the 'all jobs' run")
    parser.add_argument("--sacrebleu-max", type=int, default=LIMITS["sacrebleu"],
                        help="the largest size sacreBLEU runs at (1M takes ~9 GB and minutes)")
    parser.add_argument("--no-dask", action="store_true", help="skip the Dask runs")
    args = parser.parse_args()
    LIMITS["sacrebleu"] = args.sacrebleu_max
    print(f"source {SOURCE}; {os.cpu_count()} cores; load average {os.getloadavg()}", flush=True)
    cluster, address = (None, None) if args.no_dask else start_cluster()
    runs: list[Run] = []
    try:
        with tempfile.TemporaryDirectory(prefix="mtscore-scale-") as tmp:
            for size in sorted(args.sizes):
                ref, hyp = Path(tmp) / "ref.txt", Path(tmp) / "hyp.txt"
                repeat_to(SOURCE / "references" / "A.txt", ref, size)
                repeat_to(SOURCE / "systems" / "Online-A.txt", hyp, size)
                for label, argv in plan(size, ref, hyp, args.jobs, address):
                    runs.append(timed(size, label, argv))
                    r = runs[-1]
                    print(f"{size:>10,}  {label:<28} {r.seconds:8.1f} s  {r.rss_mb:8,.0f} MB  "
                          f"load {os.getloadavg()[0]:.2f}  -> {r.output}", flush=True)
    finally:
        if cluster is not None:
            cluster.close()  # type: ignore[attr-defined]
    print(f"\nload average at the end {os.getloadavg()}\n")
    print(table(runs))
    print("\n" + "\n".join(checks(runs, args.jobs)))


if __name__ == "__main__":
    main()
