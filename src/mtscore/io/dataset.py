"""Data sets on disk: a test set, its references, system outputs and human judgments, in one folder.

The layout (that of the WMT22 folders and of the embedded sample, :func:`mtscore.data.sample_path`)::

    meta.json                 optional: {"references": [...], "human_systems": {"HUMAN-B": "B"}, ...}
    source.txt                optional: one source segment per line
    references/<id>.txt       required: one file per reference translation
    systems/<name>.txt        required: one file per system output (HUMAN-X = reference X as a system)
    segments.tsv              optional: seg_id, doc_id, domain
    human/segments.tsv        optional: system, seg_id, raw and/or z[, n]  (one row per judged segment)
    human/judgments.tsv       optional: system, seg_id, rater, z and/or raw (every judgment)

``seg_id`` is the 1-based line number in the text files. Either human kind may be missing: without
a ``z`` column in ``human/judgments.tsv`` the judgments are standardized per rater here
(:func:`mtscore.io.judgment_math.rater_z`, WMT's protocol); without ``human/segments.tsv`` the segment
scores are the means of the judgments; a kind no file gives is absent (:attr:`Dataset.human_kinds`).

Every problem is an :class:`mtscore.errors.InputError` naming the file (and the line): a path that
cannot be read (and why), missing folders or files, an empty data set (every file empty), text files
whose line counts differ, file names with control characters, ``meta.json`` that is not a JSON object
or has a key of the wrong type (:mod:`mtscore.io.meta`), human systems that name no output file or no
reference or are the only reference, and in the TSV files (:mod:`mtscore.io.human`) repeated or
missing columns, systems without an output file, seg ids that are not plain integers or are out of
range, scores that are not plain finite numbers, duplicate rows (in ``segments.tsv`` and
``human/segments.tsv``; ``human/judgments.tsv`` may repeat a (system, segment, rater) triple: a rater
can judge a segment twice).

Defaults of the seed papers' protocol (WMT findings): a human system ``HUMAN-X`` *is* reference X,
so it is scored against the other references only (:meth:`Dataset.reference_ids_for`); a system's
human score is the mean of its judged segments' scores (:meth:`Dataset.human_system_score`), which
reproduces WMT22's published DA means (``da_*_mean_clean``).
"""

from __future__ import annotations

import html
import math
import os
import stat
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InputError, OptionError
from .human import (
    HUMAN_KINDS,
    HumanSegmentScores,
    Judgments,
    judgment_means,
    read_human_segments,
    read_judgments,
    read_segment_info,
)
from .meta import human_systems as _human_systems
from .meta import read_meta
from .text import read_lines

__all__ = ["HUMAN_KINDS", "Dataset", "HumanSegmentScores", "Judgments", "load_dataset"]

#: at most this many names in a repr (the rest counted)
_REPR_NAMES = 8
#: at most this many systems in the HTML view
_HTML_ROWS = 60


@dataclass(frozen=True, eq=False, repr=False)
class Dataset:
    """A data set loaded by :func:`load_dataset` (immutable; arrays are not to be modified)."""

    name: str
    path: Path
    meta: Mapping[str, Any]
    segments: int
    source: list[str] | None
    #: reference id -> segments, in the order of meta.json (else sorted by id)
    references: dict[str, list[str]]
    #: system name -> output segments (human systems included), sorted by name
    systems: dict[str, list[str]]
    #: human system -> the reference it is (``HUMAN-B`` -> ``B``)
    human_systems: dict[str, str]
    doc_ids: tuple[str | None, ...] | None = None
    domains: tuple[str | None, ...] | None = None
    #: system -> its human segment scores (systems with no judged segment are absent)
    human: dict[str, HumanSegmentScores] = field(default_factory=dict)
    judgments: Judgments | None = None

    @property
    def has_human_scores(self) -> bool:
        return bool(self.human)

    @property
    def human_kinds(self) -> tuple[str, ...]:
        """The human score kinds (of :data:`HUMAN_KINDS`) the data set gives for some segment."""
        return tuple(k for k in HUMAN_KINDS
                     if any(not np.isnan(h.get(k)).all() for h in self.human.values()))

    def reference_ids_for(self, system: str) -> tuple[str, ...]:
        """The references ``system`` is scored against: all of them except a human system's own."""
        self._check_system(system)
        own = self.human_systems.get(system)
        return tuple(rid for rid in self.references if rid != own)

    def human_segment_scores(self, system: str, kind: str = "z") -> np.ndarray:
        """Per-segment human score of ``system`` (length ``segments``; NaN where unjudged)."""
        self._check_system(system)
        if kind not in HUMAN_KINDS:
            raise OptionError("human score kind", kind, HUMAN_KINDS)
        scores = self.human.get(system)
        if scores is None:
            return np.full(self.segments, np.nan)
        return scores.get(kind)

    def human_system_score(self, system: str, kind: str = "z") -> float:
        """Mean of the system's judged segment scores (as WMT); NaN if it has none."""
        seg = self.human_segment_scores(system, kind)
        judged = ~np.isnan(seg)
        return float(seg[judged].mean()) if judged.any() else math.nan

    def judged_systems(self) -> tuple[str, ...]:
        """Systems with at least one human segment score, in the order of :attr:`systems`."""
        return tuple(s for s in self.systems if s in self.human)

    def __repr__(self) -> str:
        """One short line (the texts and scores are not shown: see :meth:`to_pandas`)."""
        human = (f"human={'+'.join(self.human_kinds)} for {len(self.human)} systems"
                 if self.human else "human=none")
        judgments = f", judgments={len(self.judgments)}" if self.judgments is not None else ""
        return (f"Dataset({_short(self.name)!r}, path={_short(str(self.path))!r}, segments={self.segments}, "
                f"references={_names(self.references)}, systems={_names(self.systems)}, "
                f"{human}{judgments})")

    def _repr_html_(self) -> str:
        """A summary table for notebooks: one row per system (reference, human scores)."""
        e = html.escape
        head = (f"<p><b>{e(self.name)}</b>: {self.segments} segments, references "
                f"{e(', '.join(self.references))}; {len(self.systems)} systems"
                f"{f', {len(self.judgments)} judgments' if self.judgments is not None else ''}</p>")
        kinds = self.human_kinds
        cells = ["system", "is reference", "judged segments"] + [f"human {k} (mean)" for k in kinds]
        rows = ["<tr>" + "".join(f"<th>{c}</th>" for c in cells) + "</tr>"]
        for system in list(self.systems)[:_HTML_ROWS]:
            judged = int(np.count_nonzero(~np.isnan(self.human_segment_scores(system, kinds[0])))) \
                if kinds else 0
            values = [e(system), e(self.human_systems.get(system, "")), str(judged)] + \
                [f"{self.human_system_score(system, k):.4f}" for k in kinds]
            rows.append("<tr>" + "".join(f"<td>{v}</td>" for v in values) + "</tr>")
        more = len(self.systems) - _HTML_ROWS
        tail = f"<p>… and {more} more systems</p>" if more > 0 else ""
        return f"<div>{head}<table>{''.join(rows)}</table>{tail}</div>"

    def to_pandas(self) -> Any:
        """The long format, one row per (system, segment): ``system, seg_id`` (1-based), ``doc_id``,
        ``domain``, ``hypothesis``, ``human_z``, ``human_raw``, ``human_n`` (NaN/0 where unjudged).
        Needs pandas (the ``pandas`` extra: ``pip install 'mtscore[pandas]'``)."""
        from ..errors import require_extra

        pd = require_extra("pandas", "pandas", "Dataset.to_pandas()")
        n, names = self.segments, list(self.systems)
        seg_ids = np.tile(np.arange(1, n + 1, dtype=np.int64), len(names))

        def per_system(get: Any, empty: Any) -> np.ndarray:
            parts = [get(self.human[s]) if s in self.human else empty for s in names]
            return np.concatenate(parts) if parts else np.zeros(0)

        nan, zero = np.full(n, np.nan), np.zeros(n, dtype=np.int64)
        return pd.DataFrame({
            "system": np.repeat(np.array(names, dtype=object), n),
            "seg_id": seg_ids,
            "doc_id": list(self.doc_ids) * len(names) if self.doc_ids else [None] * len(seg_ids),
            "domain": list(self.domains) * len(names) if self.domains else [None] * len(seg_ids),
            "hypothesis": [line for s in names for line in self.systems[s]],
            "human_z": per_system(lambda h: h.z, nan),
            "human_raw": per_system(lambda h: h.raw, nan),
            "human_n": per_system(lambda h: h.n, zero).astype(np.int64),
        })

    def _check_system(self, system: str) -> None:
        if system not in self.systems:
            raise OptionError("system", system, tuple(self.systems))




def _short(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _names(names: Mapping[str, Any]) -> str:
    shown = [repr(_short(n, 40)) for n in list(names)[:_REPR_NAMES]]
    more = len(names) - len(shown)
    return "[" + ", ".join(shown) + (f", ... +{more}" if more > 0 else "") + "]"


# ---- loading ------------------------------------------------------------------------------------


def load_dataset(path: str | os.PathLike[str]) -> Dataset:
    """Load a data-set folder (layout in the module doc); raises :class:`InputError` on bad input."""
    root = Path(path)
    _check_root(root)
    meta = read_meta(root / "meta.json")
    references = _read_folder(root / "references", "reference")
    if "references" in meta:
        listed = meta["references"]
        missing = [r for r in listed if r not in references]
        if missing:
            raise InputError(f"reference {missing[0]!r} is listed in meta.json but "
                             f"references/{missing[0]}.txt does not exist",
                             source=str(root / "references"))
        references = {r: references[r] for r in listed} | \
            {r: v for r, v in references.items() if r not in listed}
    systems = dict(sorted(_read_folder(root / "systems", "system").items()))
    human_systems = _human_systems(meta, references, systems, root)
    segments = _segment_count(root, meta, references, systems)
    source = None
    if os.path.lexists(root / "source.txt"):
        source = read_lines(root / "source.txt", allow_empty=True)
        if len(source) != segments:
            first = next(iter(references))
            raise InputError(f"has {len(source)} lines but references/{first}.txt has {segments}",
                             source=str(root / "source.txt"))
    doc_ids = domains = None
    if os.path.lexists(root / "segments.tsv"):
        doc_ids, domains = read_segment_info(root / "segments.tsv", segments)
    human: dict[str, HumanSegmentScores] = {}
    if os.path.lexists(root / "human" / "segments.tsv"):
        human = read_human_segments(root / "human" / "segments.tsv", segments, systems)
    judgments = None
    if os.path.lexists(root / "human" / "judgments.tsv"):
        judgments = read_judgments(root / "human" / "judgments.tsv", segments, systems)
        if not human and len(judgments):
            human = judgment_means(judgments, segments, systems)
    name = str(meta.get("name") or root.name)
    return Dataset(name=name, path=root, meta=meta, segments=segments, source=source,
                   references=references, systems=systems, human_systems=human_systems,
                   doc_ids=doc_ids, domains=domains, human=human, judgments=judgments)


def _check_root(root: Path) -> None:
    try:
        mode = root.stat().st_mode
    except FileNotFoundError:
        problem = "broken symbolic link" if os.path.islink(root) else "no such data-set folder"
        raise InputError(problem, source=str(root)) from None
    except OSError as err:
        raise InputError(f"cannot be read: {err.strerror or err}", source=str(root)) from None
    except ValueError as err:  # a NUL in the path
        raise InputError(f"cannot be opened: {err}", source=str(root)) from None
    if not stat.S_ISDIR(mode):
        raise InputError("is not a folder; a data set is a folder with references/ and systems/",
                         source=str(root))


def _segment_count(root: Path, meta: Mapping[str, Any], references: Mapping[str, list[str]],
                   systems: Mapping[str, list[str]]) -> int:
    """The number of lines every reference and system file has (checked); an empty data set (every
    file empty) is refused."""
    first_name, first = next(iter(references.items()))
    segments = len(first)
    if not any(references.values()) and not any(systems.values()):
        raise InputError("empty data set: every file in references/ and systems/ is empty (no "
                         "segments to score)", source=str(root))
    expected = meta.get("segments")
    if expected is not None and expected != segments:
        raise InputError(f"has {segments} lines but meta.json says the data set has {expected} segments",
                         source=str(root / "references" / f"{first_name}.txt"))
    named = [(root / "references" / f"{r}.txt", v) for r, v in references.items()] + \
        [(root / "systems" / f"{s}.txt", v) for s, v in systems.items()]
    for file, lines in named:
        if len(lines) != segments:
            raise InputError(f"has {len(lines)} lines but references/{first_name}.txt has {segments}",
                             source=str(file))
    return segments


def _read_folder(folder: Path, what: str) -> dict[str, list[str]]:
    """``name -> lines`` of every ``*.txt`` entry of ``folder`` (an entry that is not a readable
    text file is an error, not skipped); names must be printable UTF-8."""
    try:
        entries = sorted(folder.iterdir())
    except FileNotFoundError:
        raise InputError(f"missing folder: a data set needs {folder.name}/ with one .txt file per "
                         f"{what}", source=str(folder)) from None
    except OSError as err:
        problem = "is not a folder" if isinstance(err, NotADirectoryError) else \
            f"cannot be read: {err.strerror or err}"
        raise InputError(f"{problem} (a data set needs {folder.name}/ with one .txt file per {what})",
                         source=str(folder)) from None
    files = [p for p in entries if p.suffix == ".txt"]
    if not files:
        raise InputError(f"no .txt files: a data set needs one file per {what}", source=str(folder))
    for p in files:
        _check_name(p, what)
    return {p.stem: read_lines(p, allow_empty=True) for p in files}


def _check_name(file: Path, what: str) -> None:
    """A system or reference name is shown in tables, TSV files and figures: no control characters
    (a newline, a tab), no bytes that are not UTF-8."""
    name = file.stem
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(f"{what} file name is not valid UTF-8; rename the file",
                         source=str(file)) from None
    bad = next((c for c in name if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")
                and c not in "\u200c\u200d"), None)
    if bad is not None:
        raise InputError(f"{what} name contains the control character U+{ord(bad):04X}; rename the file",
                         source=str(file))
