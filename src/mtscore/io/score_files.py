"""Reading score files for ``mtscore correlate``: metric scores in the long format (or the older headerless
``system score`` / ``system seg_id score`` files), human scores with any score column (a data set's
``human/segments.tsv``: ``system seg_id raw z n``), aligned by (system, seg_id).

Segment ids index by mapping — only the ids present take space, whatever their size.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError, OptionError
from .scores import LongScores, parse_seg_id, read_table, records_from_dicts

#: a headerless file's columns by their number (the format before the long one)
_HEADERLESS = {2: ("system", "score"), 3: ("system", "seg_id", "score")}


def file_label(path: str) -> str:
    """A metric's name from its file: the file name without its ending."""
    return os.path.splitext(os.path.basename(path))[0] or path


def _is_number(text: Any) -> bool:
    try:
        float(text)
    except (TypeError, ValueError):
        return False
    return True


def _rows(path: str) -> tuple[tuple[str, ...], list[dict[str, Any]]]:
    """A file's header and rows; a TSV whose first line ends in a number has no header (the
    headerless ``system score`` or ``system seg_id score``)."""
    header, rows = read_table(path)
    if header and _is_number(header[-1]) and len(header) in _HEADERLESS:
        names = _HEADERLESS[len(header)]
        first = {"_line": 1, **dict(zip(names, header))}
        rows = [first] + [{"_line": r["_line"], **dict(zip(names, (r[c] for c in header)))}
                          for r in rows]
        header = names
    return header, rows


def read_metric_file(path: str, signature: str | None = None) -> LongScores:
    """Metric scores: the long format (several metrics in one file), or a file without a ``metric``
    column whose metric is named after the file (``bleu.tsv`` -> ``bleu``)."""
    header, rows = _rows(path)
    if "score" not in header:
        numeric = [c for c in header if c not in ("system", "seg_id", "metric", "signature")]
        if len(numeric) != 1:
            raise InputError(f"no 'score' column (columns: {', '.join(header)})", source=path)
        rows = [{**r, "score": r[numeric[0]]} for r in rows]
    scores = records_from_dicts(rows, path, metric=file_label(path))
    return scores.with_signature(signature) if signature else scores


@dataclass(frozen=True)
class HumanScores:
    """Human scores by system: one per system, or per segment (several judgments averaged)."""

    source: str
    column: str
    #: system -> score (files without seg_id)
    systems: dict[str, float]
    #: system -> seg_id -> mean score of its judgments (files with seg_id)
    segments: dict[str, dict[int, float]]

    @property
    def per_segment(self) -> bool:
        return bool(self.segments)

    def names(self) -> list[str]:
        return list(self.segments or self.systems)

    def system_score(self, system: str) -> float:
        """WMT's system score from segments: the mean over the judged segments."""
        if self.segments:
            return float(np.mean(list(self.segments[system].values())))
        return self.systems[system]


def _human_column(header: tuple[str, ...], column: str | None, path: str) -> str:
    if column is not None:
        if column not in header:
            raise OptionError("--human-column", column, header)
        return column
    for name in ("z", "score"):
        if name in header:
            return name
    numeric = [c for c in header if c not in ("system", "seg_id", "metric", "signature")]
    if len(numeric) == 1:
        return numeric[0]
    raise InputError(f"which column holds the human scores? give --human-column (columns: "
                     f"{', '.join(header)})", source=path)


def read_human_file(path: str, column: str | None = None) -> HumanScores:
    """Human scores; the column is ``--human-column``, else ``z``, else ``score``, else the only
    numeric one. NaN or empty cells are unjudged; several rows of one (system, seg_id) are averaged."""
    header, rows = _rows(path)
    if "system" not in header:
        raise InputError(f"no 'system' column (columns: {', '.join(header)})", source=path)
    name = _human_column(header, column, path)
    sums: dict[str, dict[int | None, list[float]]] = {}
    for row in rows:
        line = row["_line"]
        system = str(row["system"]).strip()
        if not system:
            raise InputError("empty system name", source=path, line=line)
        seg = parse_seg_id(row.get("seg_id"), path, line) if "seg_id" in header else None
        value = row[name]
        if value is None or (isinstance(value, str) and value.strip().lower() in ("", "nan")):
            continue
        try:
            score = float(value)
        except (TypeError, ValueError):
            raise InputError(f"{name} {value!r} is not a number", source=path, line=line) from None
        if math.isnan(score):
            continue
        if math.isinf(score):
            raise InputError(f"{name} {value!r} is not a finite number", source=path, line=line)
        if seg is None and system in sums and "seg_id" not in header:
            raise InputError(f"system {system!r} appears twice", source=path, line=line)
        sums.setdefault(system, {}).setdefault(seg, []).append(score)
    if not sums:
        raise InputError(f"no human scores in column {name!r}", source=path)
    if "seg_id" in header:
        segments = {s: {int(k): float(np.mean(v)) for k, v in d.items() if k is not None}
                    for s, d in sums.items()}
        return HumanScores(path, name, {}, segments)
    return HumanScores(path, name, {s: d[None][0] for s, d in sums.items()}, {})


def choose_systems(metric: Iterable[str], human: Iterable[str], mode: str, metric_source: str
                   ) -> tuple[list[str], list[str]]:
    """The systems correlated and the notes on those left out. ``common``: those with both scores;
    ``all``: every system of either file, so one missing a score is an error."""
    metric_names, human_names = list(metric), list(human)
    no_metric = [s for s in human_names if s not in metric_names]
    no_human = [s for s in metric_names if s not in human_names]
    if mode == "all" and (no_metric or no_human):
        parts = ([f"no metric score for system(s) {', '.join(no_metric)}"] if no_metric else []) + \
                ([f"no human score for system(s) {', '.join(no_human)}"] if no_human else [])
        raise InputError("; ".join(parts) + " (--systems all; --systems common uses the systems "
                         "with both)", source=metric_source)
    notes = []
    if no_human:
        notes.append(f"left out (no human scores): {', '.join(no_human)}")
    if no_metric:
        notes.append(f"left out (no metric scores): {', '.join(no_metric)}")
    return [s for s in metric_names if s in human_names], notes


def segment_matrices(metric: dict[str, dict[int, float]], human: HumanScores, systems: list[str],
                     source: str, every_segment: bool) -> tuple[np.ndarray, np.ndarray]:
    """(systems × segments) metric and human matrices over the segment ids present (a mapping,
    not the largest id); human NaN = unjudged. A judged cell without a metric score is an error;
    so is, with ``every_segment`` (a system score as the mean of segment scores), any gap."""
    ids = sorted({i for s in systems for i in metric.get(s, {})} |
                 {i for s in systems for i in human.segments.get(s, {})})
    column = {seg: k for k, seg in enumerate(ids)}
    m = np.full((len(systems), len(ids)), np.nan)
    h = np.full((len(systems), len(ids)), np.nan)
    for k, s in enumerate(systems):
        for seg, v in metric.get(s, {}).items():
            m[k, column[seg]] = v
        for seg, v in human.segments.get(s, {}).items():
            h[k, column[seg]] = v
    gap = np.isnan(m) & (~np.isnan(h) if not every_segment else True)
    if gap.any():
        k, i = map(int, np.argwhere(gap)[0])
        why = "which has a human score" if not every_segment else \
            "a system score is the mean over every segment"
        raise InputError(f"no metric score for system {systems[k]!r}, seg_id {ids[i]} ({why})",
                         source=source)
    return m, h


def check_same_data(metric: LongScores, human: HumanScores, systems: str = "common") -> None:
    """Refuse a human file that is not about the metric file's data: as the study refuses a human
    row of a system or segment its data set does not have (:mod:`.human`), here the metric file
    stands for the data set. Refused, naming the file and what did not match:

    * systems that only partly overlap: each file has systems the other lacks (``systems``
      ``common``, the default; ``overlap`` correlates the common ones anyway). One file's systems
      all in the other (human scores of a subset of the systems, or metric scores of a subset) is
      fine;
    * a human segment id beyond the metric file's segments (both with segment scores);
    * metric scores of more segments than the data set the human file belongs to (its folder's
      ``meta.json`` ``"segments"``: ``<data set>/human/segments.tsv``).

    A zh-en human file against de-en metric scores fails all three."""
    names = {s for m in metric.metrics() for s in metric.systems(m)}
    only_metric = sorted(names - set(human.names()))
    only_human = sorted(set(human.names()) - names)
    if systems == "common" and only_metric and only_human:
        raise InputError(
            f"its systems only partly match the metric scores' ({metric.source}): "
            f"{len(names) - len(only_metric)} in common; only in the human file: "
            f"{_listed(only_human)}; only in the metric file: {_listed(only_metric)} (a human file "
            "of another language pair or test set? --systems overlap correlates the common ones)",
            source=human.source)
    last = max((seg for m in metric.metrics() for by_seg in metric.segment_scores(m).values()
                for seg in by_seg), default=None)
    if last is None:
        return
    beyond = [(seg, s) for s, by_seg in human.segments.items() for seg in by_seg if seg > last]
    if beyond:
        seg, system = max(beyond)
        raise InputError(f"seg_id {seg} (system {system!r}) is beyond the metric scores' segments "
                         f"(1..{last} in {metric.source}): a human file of another test set?",
                         source=human.source)
    size, name = _dataset_size(human.source)
    if size is not None and last > size:
        raise InputError(f"scores segments 1..{last}, but the human file {human.source} belongs to "
                         f"the data set {name} of {size} segments (its meta.json): a human file of "
                         "another language pair or test set?", source=metric.source)


def _listed(names: list[str], most: int = 6) -> str:
    return ", ".join(names[:most]) + (f" and {len(names) - most} more" if len(names) > most else "")


def _dataset_size(path: str) -> tuple[int | None, str]:
    """The segment count (``meta.json`` ``"segments"``) and name (its ``"pair"``, else the folder)
    of the data set a human file ``<data set>/human/<file>`` belongs to; (None, "") elsewhere."""
    from pathlib import Path

    from .meta import read_meta

    folder = Path(path).resolve().parent
    if folder.name != "human":
        return None, ""
    root = folder.parent
    meta = read_meta(root / "meta.json")
    size = meta.get("segments")
    return (size if isinstance(size, int) else None), str(meta.get("pair") or root.name)
