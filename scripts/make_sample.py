"""Build the sample data set embedded in the package from ../shared/data/wmt22/de-en.

Whole documents are taken in file order, per domain, until each domain has at least
``--per-domain`` segments; every system, both references, the source and the human scores of the
chosen segments are kept, with segment ids renumbered to line numbers of the sample.

    python scripts/make_sample.py ../shared/data/wmt22/de-en src/mtscore/data/sample/wmt22-de-en
"""

from __future__ import annotations

import argparse
import csv
import json
import os
from collections import defaultdict


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source")
    ap.add_argument("target")
    ap.add_argument("--per-domain", type=int, default=100)
    args = ap.parse_args()
    src, dst = args.source, args.target

    with open(os.path.join(src, "segments.tsv"), encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    docs: dict[str, list[dict[str, str]]] = defaultdict(list)
    order: list[str] = []
    for row in rows:
        if row["doc_id"] not in docs:
            order.append(row["doc_id"])
        docs[row["doc_id"]].append(row)
    taken: dict[str, int] = defaultdict(int)
    chosen: list[int] = []
    for doc in order:
        domain = docs[doc][0]["domain"]
        if taken[domain] >= args.per_domain:
            continue
        taken[domain] += len(docs[doc])
        chosen.extend(int(r["seg_id"]) for r in docs[doc])
    chosen.sort()
    new_id = {old: i + 1 for i, old in enumerate(chosen)}

    def copy_lines(rel: str) -> None:
        with open(os.path.join(src, rel), encoding="utf-8", newline="") as f:
            lines = f.read().split("\n")
        os.makedirs(os.path.dirname(os.path.join(dst, rel)) or dst, exist_ok=True)
        with open(os.path.join(dst, rel), "w", encoding="utf-8", newline="") as f:
            f.write("".join(lines[i - 1] + "\n" for i in chosen))

    os.makedirs(dst, exist_ok=True)
    copy_lines("source.txt")
    for sub in ("references", "systems"):
        for name in sorted(os.listdir(os.path.join(src, sub))):
            copy_lines(os.path.join(sub, name))

    with open(os.path.join(dst, "segments.tsv"), "w", encoding="utf-8") as f:
        f.write("seg_id\tdoc_id\tdomain\n")
        for row in rows:
            if int(row["seg_id"]) in new_id:
                f.write(f"{new_id[int(row['seg_id'])]}\t{row['doc_id']}\t{row['domain']}\n")

    os.makedirs(os.path.join(dst, "human"), exist_ok=True)
    for name in ("segments.tsv", "judgments.tsv"):
        with open(os.path.join(src, "human", name), encoding="utf-8") as f:
            header, *body = f.read().splitlines()
        with open(os.path.join(dst, "human", name), "w", encoding="utf-8") as f:
            f.write(header + "\n")
            for line in body:
                cells = line.split("\t")
                seg = int(cells[1])
                if seg in new_id:
                    cells[1] = str(new_id[seg])
                    f.write("\t".join(cells) + "\n")

    with open(os.path.join(src, "meta.json"), encoding="utf-8") as f:
        meta = json.load(f)
    meta["segments"] = len(chosen)
    meta["sample"] = (f"{len(chosen)} segments of whole documents ({args.per_domain}+ per domain) of "
                      f"WMT22 generaltest2022 {meta['pair']}, made by scripts/make_sample.py")
    meta["credit"] = ("WMT22 general MT task test set, system outputs and human judgments "
                      "(wmt-conference/wmt22-news-systems); Kocmi et al., 2022, Findings of the 2022 "
                      "Conference on Machine Translation (WMT22). Released for research use.")
    with open(os.path.join(dst, "meta.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
