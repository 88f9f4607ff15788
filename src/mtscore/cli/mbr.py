"""``mtscore mbr``: minimum-Bayes-risk selection among the candidates of each source.

Candidates come grouped by source, one per line: ``--num-candidates N`` lines per source, or
(without it) tab-separated ``source id<TAB>candidate`` lines, a source's lines together. The
pseudo-references are the candidates themselves, or ``--references FILE`` in the same layout. The
file is read and scored source by source in bounded chunks (:func:`mtscore.metrics.mbr.mbr_stream`),
and each selection is written as soon as its chunk is scored.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import deque
from collections.abc import Iterator

from ..errors import InputError, OptionError
from ..metrics.pairwise import UTILITIES
from ..streaming.reading import LineReader
from .meteor_task import add_meteor_task_options, task_meteor

#: lines read at a time from a TSV input
TSV_BLOCK = 4096
#: fewest sources that get a progress bar (when their number is known)
MIN_PROGRESS = 200


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "mbr", help="minimum-Bayes-risk selection: the candidate of highest expected utility per source",
        description="Selects, for every source, the candidate with the highest expected utility "
                    "(mean sentence score against each pseudo-reference; with --aggregate, the score "
                    "against the aggregated pseudo-references). Reads and scores source by source "
                    "in bounded memory.",
        epilog="examples: mtscore mbr samples.txt -n 32 -m chrf > best.txt; "
               "mtscore mbr samples.tsv -m bleu --scores > utilities.tsv")
    p.add_argument("candidates", metavar="CANDIDATES",
                   help="candidates, one per line ('-': standard input): N consecutive lines per "
                        "source with --num-candidates N, else 'source id<TAB>candidate' lines")
    p.add_argument("--num-candidates", "-n", type=int, metavar="N",
                   help="candidates per source (plain text input)")
    p.add_argument("--references", "-r", metavar="FILE",
                   help="pseudo-references in the same layout (default: the candidates themselves)")
    p.add_argument("--num-references", type=int, metavar="M",
                   help="pseudo-references per source with --num-candidates (default N)")
    p.add_argument("--metric", "-m", default="chrf", choices=UTILITIES, metavar="METRIC",
                   help=f"the utility: {', '.join(UTILITIES)} (default chrf; bleu: sentence BLEU "
                        "with effective order)")
    p.add_argument("--aggregate", action="store_true",
                   help="reference aggregation (bleu, chrf, chrf++): linear time, not the mean of "
                        "pairwise scores")
    p.add_argument("--scores", action="store_true",
                   help="write every candidate's expected utility: source, candidate number "
                        "(1-based), utility, 1 if selected else 0, candidate (tab-separated)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_meteor_task_options(p, utility=True)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from .. import progress
    from ..metrics.mbr import mbr_stream

    n, m = args.num_candidates, args.num_references
    if n is not None and n < 1:
        raise OptionError("--num-candidates", n, detail="must be at least 1")
    if m is not None and (n is None or m < 1):
        raise OptionError("--num-references", m,
                          detail="needs --num-candidates, and must be at least 1")
    ids: deque[str] = deque()
    sources = _sources(args, ids)
    utility = task_meteor(args)
    if utility is not None and args.metric != "meteor":
        raise OptionError("--meteor-task", args.meteor_task, detail="it sets the utility of -m meteor")
    results = mbr_stream(args.metric if utility is None else utility, sources, aggregate=args.aggregate)
    out = sys.stdout
    total = _source_count(args.candidates, n) if progress.enabled() else None
    shown = progress.track(results, total=total, desc="MBR sources", min_total=MIN_PROGRESS)
    for number, result in enumerate(shown, start=1):
        source = ids.popleft() if n is None else str(number)
        if not args.scores:
            out.write(result.candidate + "\n" if n is not None else f"{source}\t{result.candidate}\n")
            continue
        for k, utility in enumerate(result.utilities.tolist()):
            out.write(f"{source}\t{k + 1}\t{utility!r}\t{int(k == result.index)}\t"
                      f"{result.candidates[k]}\n")
    return 0


def _source_count(path: str, n: int | None) -> int | None:
    """How many sources a plain file of ``n`` candidates each holds (None: TSV or standard input,
    unknown until read)."""
    if n is None or path == "-" or not os.path.isfile(path):
        return None
    lines = last = 0
    with open(path, "rb") as handle:
        while block := handle.read(1 << 22):
            lines += block.count(b"\n")
            last = block[-1]
    return (lines + (last != 10)) // n


def _sources(args: argparse.Namespace, ids: deque[str]) -> Iterator[tuple[list[str], list[str] | None]]:
    """(candidates, pseudo-references or None) per source, read lazily; the source ids (TSV) are
    appended to ``ids`` as the sources are read."""
    cands = LineReader(args.candidates)
    refs = LineReader(args.references) if args.references else None
    try:
        if args.num_candidates is not None:
            yield from _fixed(cands, refs, args.num_candidates, args.num_references or args.num_candidates)
        else:
            yield from _tsv(cands, refs, ids)
    finally:
        cands.close()
        if refs is not None:
            refs.close()


def _fixed(cands: LineReader, refs: LineReader | None, n: int, m: int
           ) -> Iterator[tuple[list[str], list[str] | None]]:
    """Sources of ``n`` candidate lines (and ``m`` reference lines) each."""
    source = 0
    while True:
        group = cands.take(n)
        if not group:
            break
        source += 1
        if len(group) < n:
            raise InputError(f"has {cands.lines_read} lines, not a multiple of --num-candidates {n}: "
                             f"source {source} has {len(group)} candidates", source=cands.name)
        pseudo = None
        if refs is not None:
            pseudo = refs.take(m)
            if len(pseudo) < m:
                raise InputError(f"has {refs.lines_read} lines, but {source} sources of {m} "
                                 f"pseudo-references are needed", source=refs.name)
        yield group, pseudo
    if refs is not None and refs.count_rest():
        raise InputError(f"has more lines than the {source} sources of the candidates need",
                         source=refs.name)


def _tsv(cands: LineReader, refs: LineReader | None, ids: deque[str]
         ) -> Iterator[tuple[list[str], list[str] | None]]:
    """Sources of the TSV candidates, with the pseudo-references of the same source ids."""
    ref_groups = _tsv_groups(refs) if refs is not None else None
    count = 0
    for source, group, _ in _tsv_groups(cands):
        pseudo = None
        if ref_groups is not None:
            assert refs is not None
            ref = next(ref_groups, None)
            if ref is None:
                raise InputError(f"ends after {count} sources; the candidates go on with source "
                                 f"{source!r}", source=refs.name)
            if ref[0] != source:
                raise InputError(f"source id {ref[0]!r} where the candidates have {source!r} "
                                 "(the sources must come in the same order)", source=refs.name,
                                 line=ref[2])
            pseudo = ref[1]
        count += 1
        ids.append(source)
        yield group, pseudo
    if ref_groups is not None and (extra := next(ref_groups, None)) is not None:
        raise InputError(f"source {extra[0]!r} is not among the candidates' {count} sources",
                         source=refs.name if refs else None, line=extra[2])


def _tsv_groups(reader: LineReader) -> Iterator[tuple[str, list[str], int]]:
    """(source id, its lines' texts, its first line number) of a ``id<TAB>text`` file, in order; a
    line without a tab or an id that comes back after another one is an error naming the line."""
    seen: set[str] = set()
    source: str | None = None
    group: list[str] = []
    first = 0
    while block := reader.take(TSV_BLOCK):
        start = reader.lines_read - len(block)
        for number, line in enumerate(block, start=start + 1):
            sid, tab, text = line.partition("\t")
            if not tab:
                raise InputError("no tab: give 'source id<TAB>candidate' lines, or plain lines with "
                                 "--num-candidates N", source=reader.name, line=number)
            if sid != source:
                if source is not None:
                    yield source, group, first
                if sid in seen:
                    raise InputError(f"source id {sid!r} again after other sources (a source's "
                                     "lines must be together)", source=reader.name, line=number)
                seen.add(sid)
                source, group, first = sid, [], number
            group.append(text)
    if source is not None:
        yield source, group, first
