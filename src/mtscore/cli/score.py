"""``mtscore score``: corpus (and per-segment) scores of one or more systems, as sacreBLEU's CLI.

The files are read and scored chunk by chunk (:mod:`mtscore.streaming`): memory is bounded by the
chunk, chunks are extracted on every core (``--jobs``) or on a Dask cluster (``--scheduler``), and
per-segment scores are written as each chunk is done. An error in any chunk (invalid UTF-8, files of
different lengths) names the file and line and exits 1; per-segment lines already written stay,
and no corpus score is printed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import OptionError
from ..io.long_format import COLUMNS as LONG_COLUMNS
from ..io.long_format import FORMATS as LONG_FORMATS
from ..metrics import registry as metric_registry
from ..metrics.base import Metric, SegmentStats
from ..report.formats import FORMATS as TABLE_FORMATS
from ..report.formats import LAYOUTS
from ..streaming import (
    DEFAULT_CHUNK,
    Chunk,
    Gathered,
    check_chunking,
    extracted,
    make_plan,
    open_inputs,
    read_chunks,
)
from ..streaming import reread_references as reread
from . import metric_help
from . import options as registry
from .common import emit, system_name

if TYPE_CHECKING:
    from ..io.scores import ScoreRecord

# json, the long format's writer (:mod:`mtscore.io.scores`) and the tables' renderer
# (:mod:`mtscore.report.tables`) are imported by the outputs that use them: ``-b`` loads none of them

#: metrics sacreBLEU also computes, on its 0–100 scale: ``-b`` prints them with sacreBLEU's default of
#: 1 decimal; the others (0–1 scales, NIST) with 4 (each entry's ``decimals`` in the registry)
SACREBLEU_SCALE = frozenset(e.name for e in metric_registry.entries() if e.decimals == 1)
#: output formats: the tables', and the long format's encodings (system, seg_id, metric, score,
#: signature; corpus scores with an empty seg_id)
FORMATS = (*TABLE_FORMATS, *(f for f in LONG_FORMATS if f not in TABLE_FORMATS))
#: formats for people: ``-w`` sets their decimals; the others (json and the long format's tsv, csv,
#: jsonl) are for programs and always keep every digit
HUMAN_FORMATS = ("text", "markdown", "latex")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "score", help="score systems against references",
        usage="%(prog)s [-h] [REF ...] [-r REF ...] [-i HYP ...] [-m METRIC ...] [options]",
        description="Corpus scores of one or more systems (several -i files print as one table). "
                    "Hypotheses are read from standard input when -i is not given (tab-separated "
                    "fields: one system each, as sacreBLEU). Files of any size are read in chunks, "
                    "in bounded memory, on every core.",
        epilog="examples: mtscore score -r ref.A.txt ref.B.txt -i sysA.txt sysB.txt -m bleu; "
               "mtscore score ref.A.txt < sysA.txt -b (sacreBLEU's positional references); "
               "mtscore score -r ref.txt -i sys.txt --segments -f tsv > scores.tsv")
    p.add_argument("ref_files", nargs="*", metavar="REF",
                   help="reference files, as sacreBLEU takes them (or give them with -r)")
    p.add_argument("--refs", "-r", nargs="+", metavar="REF",
                   help="reference files, one segment per line (several files: several references)")
    p.add_argument("--input", "-i", nargs="+", metavar="HYP",
                   help="system outputs, one file per system (default: standard input)")
    p.add_argument("--metrics", "-m", nargs="+", default=["bleu"], choices=registry.names(),
                   metavar="METRIC",
                   help=f"metrics to compute (default bleu): {', '.join(registry.names())}")
    p.add_argument("--lowercase", "-lc", action="store_true", help="lowercase before scoring (BLEU)")
    p.add_argument("--segments", "--sentence-level", "-sl", action="store_true",
                   help="one score per segment, written as the segments are scored (the long "
                        "format with -f tsv, csv, jsonl)")
    p.add_argument("--score-only", "-b", action="store_true",
                   help="only the scores, one per line, as sacreBLEU -b (1 decimal for BLEU, "
                        "chrF, TER, 4 for the others, unless -w); several systems or metrics: each "
                        "line starts with them")
    p.add_argument("--layout", choices=LAYOUTS, default="long",
                   help="corpus scores one row per system and metric (long, default) or systems × "
                        "metrics (wide)")
    output = p.add_argument_group("output")
    output.add_argument("--format", "-f", default="text", choices=FORMATS, metavar="FORMAT",
                        help="text (default), markdown, latex; for programs, at full precision: "
                             "json, and tsv, csv, jsonl in the long format (system, seg_id, "
                             "metric, score, signature)")
    output.add_argument("--width", "-w", type=int, default=None,
                        help="decimals of text, markdown and latex (default: 2 on 0–100 scales, 4 "
                             "on 0–1 scales and NIST; -b: 1 and 4)")
    output.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    _add_scale_options(p)
    metric_help.add_all_options(p)
    p.set_defaults(func=run)


def _add_scale_options(p: argparse.ArgumentParser) -> None:
    scale = p.add_argument_group("scale")
    scale.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                       help="worker processes that extract chunks (default: the cores available; "
                            "a file of one chunk is scored in this process)")
    scale.add_argument("--chunk-size", type=int, default=DEFAULT_CHUNK, metavar="SEGMENTS",
                       help=f"segments read and extracted at a time (default {DEFAULT_CHUNK:,})")
    scale.add_argument("--scheduler", metavar="ADDRESS",
                       help="extract the chunks on a running Dask cluster, e.g. tcp://host:8786 "
                            "(needs mtscore[dask]; the files are read here)")


def _system_names(paths: Sequence[str] | None) -> list[str] | None:
    """A system's name is its file name without ``.txt``; the paths when two names collide."""
    if not paths:
        return None
    names = [system_name(p) for p in paths]
    return names if len(set(names)) == len(names) else list(paths)


def run(args: argparse.Namespace) -> int:
    if args.ref_files and args.refs:
        raise OptionError("references", " ".join(args.ref_files),
                          detail="give the reference files either before the options or with -r, "
                                 "not both")
    ref_paths = args.refs or args.ref_files
    if not ref_paths:
        raise OptionError("references", "", detail="no reference file: give REF … or -r REF …")
    if args.layout == "wide" and (args.segments or args.score_only):
        raise OptionError("--layout", "wide", detail="a systems × metrics table of corpus scores: "
                          "not with --segments or -b")
    args.refs = ref_paths
    jobs = check_chunking(args.chunk_size, args.jobs)
    metrics = [registry.from_args(name, args) for name in args.metrics]
    metrics = _sharing_caption_tokens(metrics)
    plan = make_plan(metrics, reread(ref_paths))
    inputs = open_inputs(args.input, ref_paths, names=_system_names(args.input))
    gathered = Gathered(plan, inputs.names, keep_rows=False)
    writer = SegmentWriter(args, inputs.names, metrics) if args.segments else None
    executor, payload, client = None, None, None
    if args.scheduler:
        from ..dask import executor as dask_executor

        executor, payload, client = dask_executor(args.scheduler, plan)
    try:
        for chunk, stats in extracted(plan, read_chunks(inputs, args.chunk_size), not args.segments,
                                      jobs, executor, payload):
            gathered.add(chunk, stats)
            if writer is not None:
                writer.write(chunk, stats)
    finally:
        inputs.close()
        if client is not None:
            client.close()
    if writer is not None:
        writer.close()
    else:
        _corpus_output(args, gathered)
    return 0


#: the package of the coco-caption metrics (each metric's class is defined in one of its modules)
_COCO_PACKAGE = f"{__package__.rpartition('.')[0]}.metrics.coco."


def _sharing_caption_tokens(metrics: list[Metric[Any]]) -> list[Metric[Any]]:
    """The coco metrics among ``metrics`` tokenize each chunk's captions once, together
    (:func:`mtscore.metrics.coco.common.share_tokenization`); other metrics are left as they are,
    and without a coco metric the coco package is not imported."""
    if not any(type(m).__module__.startswith(_COCO_PACKAGE) for m in metrics):
        return metrics
    from ..metrics.coco.common import share_tokenization

    return share_tokenization(metrics)


def _corpus_output(args: argparse.Namespace, gathered: Gathered) -> None:
    """The corpus scores: per system, per metric."""
    rows, records, details = [], [], []
    for s, name in enumerate(gathered.systems):
        for m, metric in enumerate(gathered.plan.metrics):
            result = gathered.result(m, s)
            rows.append((name, result.metric, float(result.score), str(result.signature), metric))
            records.append({"system": name, **result.to_dict()})
            if "(" in str(result):  # BLEU's precisions, BP, ratio and lengths, as sacreBLEU prints
                details.append(f"{name}: {result}")
    if args.score_only:
        print(_score_lines(args, rows, len(gathered.systems) > 1, len(gathered.plan.metrics) > 1))
    elif args.format == "json" and args.layout == "long":
        import json

        print(json.dumps(records, indent=2, ensure_ascii=False))  # always a list, one object per score
    elif args.format in LONG_FORMATS and args.layout == "long":
        from ..io.scores import ScoreRecord, format_scores

        print(format_scores([ScoreRecord(name, None, label, score, signature)
                             for name, label, score, signature, _ in rows], args.format))
    else:
        from ..report.tables import Fixed, Table, render

        human = args.format in HUMAN_FORMATS
        table = Table(("system", "metric", "score", "signature"), tuple(
            (name, label, Fixed(score, _table_decimals(args, metric)) if human else score, signature)
            for name, label, score, signature, metric in rows))
        sys.stdout.write(render(table, args.format if args.format in TABLE_FORMATS else "tsv",
                                2 if args.width is None else args.width, layout=args.layout) + "\n")
        if args.format == "text" and details:
            sys.stdout.write("\n" + "\n".join(details) + "\n")


def _score_lines(args: argparse.Namespace, rows: list[tuple[Any, ...]], systems: bool,
                 metrics: bool) -> str:
    """``-b``: a score per line, as sacreBLEU; labelled by system (and metric) when there are several
    systems, so that lines cannot be mistaken for one another."""
    lines = []
    for name, label, score, _, metric in rows:
        text = f"{score:.{_decimals(args, metric)}f}"
        lines.append("\t".join([name, label, text] if systems and metrics else [name, text]
                                if systems else [text]))
    return "\n".join(lines)


def _table_decimals(args: argparse.Namespace, metric: Metric[Any]) -> int:
    """``-w``, else 2 on sacreBLEU's 0–100 scales and 4 for the others (0–1 scores, NIST)."""
    if args.width is not None:
        return int(args.width)
    return 2 if metric_registry.decimals(metric.name) == 1 else 4


def _decimals(args: argparse.Namespace, metric: Metric[Any]) -> int:
    """``-w``, else sacreBLEU's default of 1 decimal for its metrics, 4 for the others."""
    if args.width is not None:
        return int(args.width)
    return metric_registry.decimals(metric.name)


class SegmentWriter:
    """Per-segment scores written chunk by chunk (flushed, so a reader sees them as they come).

    ``-f tsv|csv|jsonl``: the long format (:mod:`mtscore.io.scores`, full precision); ``-b``: one score
    per line; ``-f text``: aligned columns, the signatures at the end; ``-f json``: one list; other
    formats are written at the end (a table cannot be laid out before its last row is known).
    """

    def __init__(self, args: argparse.Namespace, systems: Sequence[str],
                 metrics: Sequence[Metric[Any]]):
        self.args, self.systems, self.metrics = args, list(systems), list(metrics)
        self.labels: list[str] = []
        self.signatures: list[str] = []
        self.rows: list[tuple[Any, ...]] = []  # only for the formats written at the end
        self.first = True
        self.name_width = max(len("system"), *(len(s) for s in self.systems))

    def write(self, chunk: Chunk, stats: list[list[SegmentStats]]) -> None:
        if self.first:
            for metric, row in zip(self.metrics, stats):
                result = metric.compute(row[0].total(), row[0].meta)
                self.labels.append(result.metric)
                self.signatures.append(str(result.signature))
        from ..io.scores import ScoreRecord

        records = [ScoreRecord(system, chunk.start + i + 1, label, float(score), signature)
                   for label, signature, metric, row in zip(self.labels, self.signatures,
                                                            self.metrics, stats)
                   for system, st in zip(self.systems, row)
                   for i, score in enumerate(metric.segment_scores(st).tolist())]
        text = self._format(records)
        self.first = False
        if text is not None:
            sys.stdout.write(text)
            sys.stdout.flush()

    def _format(self, records: list[ScoreRecord]) -> str | None:
        args, fmt = self.args, self.args.format
        if args.score_only:
            widths = {label: _decimals(args, m) for label, m in zip(self.labels, self.metrics)}
            return "".join(f"{r.score:.{widths[r.metric]}f}\n" for r in records)
        if fmt in LONG_FORMATS:
            from ..io.scores import format_scores

            text = format_scores(records, fmt)
            if not self.first and fmt != "jsonl":
                text = text.partition("\n")[2]  # the header only once
            return text + "\n" if text else ""
        if fmt == "json":
            import json

            lead = "[\n" if self.first else ",\n"
            return lead + ",\n".join("  " + json.dumps(dict(zip(
                LONG_COLUMNS, r.as_row())),
                ensure_ascii=False) for r in records)
        if fmt == "text":
            return self._text(records)
        self.rows.extend(r.as_row()[:4] for r in records)
        return None

    def _text(self, records: list[ScoreRecord]) -> str:
        width = 2 if self.args.width is None else self.args.width
        label_width = max(len("metric"), *(len(label) for label in self.labels))
        head = ""
        if self.first:
            head = (f"{'system'.ljust(self.name_width)}  {'seg_id':>9}  {'metric'.ljust(label_width)}"
                    f"  {'score':>{width + 5}}\n")
            head += f"{'-' * self.name_width}  {'-' * 9}  {'-' * label_width}  {'-' * (width + 5)}\n"
        return head + "".join(f"{r.system.ljust(self.name_width)}  {r.seg_id:>9}  "
                              f"{r.metric.ljust(label_width)}  {r.score:>{width + 5}.{width}f}\n"
                              for r in records)

    def close(self) -> None:
        """End the output: the signatures (text), the closing bracket (json), or the whole table."""
        args = self.args
        if args.score_only or args.format in LONG_FORMATS:
            return
        if args.format == "json":
            sys.stdout.write("\n]\n")
        elif args.format == "text":
            sys.stdout.write("".join(f"{s}\n" for s in self.signatures))
        else:
            from ..report.tables import Table

            args.width = 2 if args.width is None else args.width
            emit(Table(("system", "seg_id", "metric", "score"), tuple(self.rows),
                       notes=tuple(self.signatures)), args)
