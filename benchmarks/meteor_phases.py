"""Where a forked ``mtscore score -m meteor`` process spends its instructions and page faults, phase by
phase: before the fork, each process's range of segments, and the parent's tail (receiving the
other range, the output, and Python's own finalization).

    python benchmarks/meteor_phases.py [--data ../shared/data/wmt22/zh-en] [--system Online-A]
        [--ref A] [--callgrind]

The command runs in a child Python whose METEOR worker call (:func:`mtscore.pool.here_and_in_forks`
as :mod:`mtscore.metrics.meteor.workers` uses it) is wrapped to mark three moments: just before the
fork, and the end of each process's range. Without ``--callgrind`` the minor page faults
(``getrusage``) before the fork and in each process's range are printed (a forked process counts
from 0; the tail's are not seen). With ``--callgrind`` the
child runs under ``valgrind --tool=callgrind --trace-children=yes``, and each mark calls
``os.times`` (which nothing else in the command calls) so that ``--dump-before=os_times*`` cuts the
instruction count (``Ir``) there: callgrind's counts repeat to within 0.1%, whatever the machine's
load, so they compare trees where wall times cannot. The longest path (what wall time follows on an
idle machine with two cores) is the part before the fork, the slower range, and the tail.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "wmt22" / "zh-en"

#: the child: the command line with the worker call wrapped to mark the phases
_MARKED = """
import os, resource, sys
from mtscore import pool
from mtscore.metrics.meteor import workers
def mark(what):
    os.times()  # (callgrind dumps its counts before this call)
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    print(f"MARK {what} pid {os.getpid()} faults {faults}", file=sys.stderr)
def marked(task, calls):
    mark("fork")
    def ranged(*call):
        out = task(*call)
        mark("range")
        return out
    return pool.here_and_in_forks(ranged, calls)
workers.here_and_in_forks = marked
from mtscore.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _instructions(folder: Path) -> dict[int, list[int]]:
    """Per process id, the ``Ir`` of each dump of its callgrind files, in order (the last: to its end)."""
    parts: dict[int, list[tuple[int, int]]] = {}
    for f in folder.glob("cg.*"):
        pid, _, part = f.name[3:].partition(".")
        total = next(int(line.split()[1]) for line in f.read_text().splitlines()
                     if line.startswith("totals:"))
        parts.setdefault(int(pid), []).append((int(part or 1 << 30), total))
    return {pid: [n for _, n in sorted(p)] for pid, p in parts.items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--system", default="Online-A")
    ap.add_argument("--ref", default="A")
    ap.add_argument("--callgrind", action="store_true", help="instructions under callgrind (slow)")
    args = ap.parse_args()
    cmd = [sys.executable, "-c", _MARKED, "score", "-m", "meteor", "-q", "-b",
           "-r", str(args.data / "references" / f"{args.ref}.txt"),
           "-i", str(args.data / "systems" / f"{args.system}.txt")]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    with tempfile.TemporaryDirectory(prefix="mtscore-phases-") as tmp:
        if args.callgrind:
            cmd = ["valgrind", "--tool=callgrind", "--trace-children=yes", "--dump-before=os_times*",
                   f"--callgrind-out-file={tmp}/cg.%p", *cmd]
        run = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
        marks = [line.split() for line in run.stderr.splitlines() if line.startswith("MARK ")]
        print(f"score {run.stdout.strip()}")
        if not args.callgrind:  # (valgrind's own faults would be counted too)
            at_fork = int(marks[0][5])
            for _, what, _, pid, _, faults in marks:
                since = int(faults) - (at_fork if pid == marks[0][3] and what == "range" else 0)
                print(f"process {pid}: {'before the fork' if what == 'fork' else 'its range'}: "
                      f"{since:,} minor faults")
        else:
            counts = _instructions(Path(tmp))
            parent = int(marks[0][3])
            before, own, tail = counts[parent][:3]
            others = [c[0] for pid, c in counts.items() if pid != parent and len(c) > 1]
            longest = before + max([own, *others]) + tail
            print(f"instructions: before the fork {before / 1e6:,.1f} M; ranges: this process "
                  f"{own / 1e6:,.1f} M, forked {', '.join(f'{n / 1e6:,.1f} M' for n in others)}; "
                  f"tail {tail / 1e6:,.1f} M; longest path {longest / 1e6:,.1f} M")
    return 0


if __name__ == "__main__":
    sys.exit(main())
