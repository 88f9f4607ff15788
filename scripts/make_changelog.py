"""Write docs/changelog.md from the git history: one entry per commit, by day and by area.

    python scripts/make_changelog.py [--out docs/changelog.md] [--rev HEAD]

Each entry is the commit's subject up to its first "; " (the what; the why follows in the commit
itself, named by its short hash). Areas are read from the subject's words (the first area whose
keywords appear wins), so the page is the same for the same history.
"""

from __future__ import annotations

import argparse
import re
import subprocess
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: (area heading, keywords looked for in the lowercased subject), first match wins
AREAS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("METEOR", ("meteor", "wordnet", "aligner", "synonym", "stemmer", "lexicon")),
    ("BLEU", ("bleu", "tokeniz", "13a", "clipping")),
    ("chrF and TER", ("chrf", "ter ", "ter:", "ter's", "tercom")),
    ("NIST and unigram", ("nist", "unigram")),
    ("ROUGE and captioning", ("rouge", "cider", "spice", "caption")),
    ("Statistics", ("stats", "bootstrap", "significance", "correlat", "williams", "permutation", "holm",
                    "resampl", "kendall")),
    ("Studies and reports", ("study", "report", "figure", "demo", "table", "screenshot")),
    ("Scale and utilities", ("stream", "dask", "--jobs", "parallel", "chunk", "pairwise", "mbr")),
    ("Command line and input", ("cli", "command", "--", "input", "dataset", "error", "fuzz")),
)
#: areas read from how the subject starts, before the keywords
PREFIXES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Documentation", ("readme", "docs", "documentation", "mkdocs")),
    ("Tests", ("tests", "test ", "test:", "golden test")),
)
OTHER = "Other"
LIMIT = 220


def area_of(subject: str) -> str:
    low = subject.lower()
    for name, starts in PREFIXES:
        if low.startswith(starts):
            return name
    for name, words in AREAS:
        if any(word in low for word in words):
            return name
    return OTHER


def entry_text(subject: str) -> str:
    """The subject up to its first '; ', shortened to LIMIT characters, escaped for Markdown."""
    text = subject.split("; ")[0].strip()
    if len(text) > LIMIT:
        text = text[:LIMIT].rsplit(" ", 1)[0] + " …"
    text = text.replace("\\", "\\\\")
    text = re.sub(r"([<>*_\[\]|#])", r"\\\1", text)
    return re.sub(r"`([^`]*)$", r"\\`\1", text) if text.count("`") % 2 else text


def history(rev: str) -> list[tuple[str, str, str]]:
    """(short hash, date, subject) of every commit reachable from rev, newest first."""
    out = subprocess.run(["git", "log", "--format=%h%x09%ad%x09%s", "--date=short", rev], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    return [tuple(line.split("\t", 2)) for line in out.splitlines() if line]  # type: ignore[misc]


def render(commits: list[tuple[str, str, str]]) -> str:
    by_day: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for short, day, subject in commits:
        by_day[day][area_of(subject)].append(f"- {entry_text(subject)} (`{short}`)")
    order = [name for name, _ in (*PREFIXES[:1], *AREAS, *PREFIXES[1:])] + [OTHER]
    lines = ["# Changelog", "",
             "mtscore 0.1.0 is not released yet. Every change so far, newest day first, grouped by area;",
             "each entry is the first clause of a commit's subject, and its hash names the commit that",
             "explains the why (`git show HASH`). Written by `python scripts/make_changelog.py`.", ""]
    for day in sorted(by_day, reverse=True):
        lines += [f"## {day}", ""]
        for name in order:
            if by_day[day].get(name):
                lines += [f"### {name}", "", *by_day[day][name], ""]
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "changelog.md"))
    parser.add_argument("--rev", default="HEAD")
    args = parser.parse_args(argv)
    Path(args.out).write_text(render(history(args.rev)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
