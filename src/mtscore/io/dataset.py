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
(:func:`mtscore.stats.human.rater_z`, WMT's protocol); without ``human/segments.tsv`` the segment
scores are the means of the judgments; a kind no file gives is absent (:attr:`Dataset.human_kinds`). Every problem is reported with the file and
the line (:class:`mtscore.errors.InputError`): missing folders or files, text files whose line counts
differ, systems in human files without an output file, seg ids that are not integers or are out of
range, scores that are not numbers, duplicate rows (in ``segments.tsv`` and ``human/segments.tsv``;
``human/judgments.tsv`` may repeat a (system, segment, rater) triple: a rater can judge a segment twice).

Defaults of the seed papers' protocol (WMT findings): a human system ``HUMAN-X`` *is* reference X,
so it is scored against the other references only (:meth:`Dataset.reference_ids_for`); a system's
human score is the mean of its judged segments' scores (:meth:`Dataset.human_system_score`), which
reproduces WMT22's published DA means (``da_*_mean_clean``).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InputError, OptionError
from .text import read_lines

#: kinds of human score a data set may carry
HUMAN_KINDS = ("z", "raw")


@dataclass(frozen=True, eq=False)
class Judgments:
    """Every individual human judgment: parallel arrays, one entry per judgment (row of the file)."""

    systems: tuple[str, ...]
    seg_ids: np.ndarray  # int64, 1-based
    raters: tuple[str, ...]
    z: np.ndarray  # float64, standardized by the rater's mean and standard deviation
    raw: np.ndarray | None = None  # float64 raw scores, when the file has them

    def __len__(self) -> int:
        return len(self.seg_ids)


@dataclass(frozen=True, eq=False)
class HumanSegmentScores:
    """Human scores of one system: arrays of length ``segments``, NaN (n = 0) where unjudged."""

    raw: np.ndarray
    z: np.ndarray
    n: np.ndarray  # int64: how many judgments each segment score averages

    def get(self, kind: str) -> np.ndarray:
        if kind not in HUMAN_KINDS:
            raise OptionError("human score kind", kind, HUMAN_KINDS)
        return self.raw if kind == "raw" else self.z


@dataclass(frozen=True, eq=False)
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

    def reference_streams(self, ids: tuple[str, ...] | list[str]) -> list[list[str]]:
        """Reference streams (``refs[k][i]``) for the given reference ids."""
        for rid in ids:
            if rid not in self.references:
                raise OptionError("reference", rid, tuple(self.references))
        return [self.references[rid] for rid in ids]

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

    def _check_system(self, system: str) -> None:
        if system not in self.systems:
            raise OptionError("system", system, tuple(self.systems))


# ---- loading ------------------------------------------------------------------------------------


def load_dataset(path: str | os.PathLike[str]) -> Dataset:
    """Load a data-set folder (layout in the module doc); raises :class:`InputError` on bad input."""
    root = Path(path)
    if not root.exists():
        raise InputError("no such data-set folder", source=str(root))
    if not root.is_dir():
        raise InputError("is not a folder; a data set is a folder with references/ and systems/",
                         source=str(root))
    meta = _read_meta(root / "meta.json")
    references = _read_folder(root / "references", "reference")
    if "references" in meta:
        listed = meta["references"]
        if not isinstance(listed, list) or not all(isinstance(r, str) for r in listed):
            raise InputError('"references" must be a list of reference ids', source=str(root / "meta.json"))
        missing = [r for r in listed if r not in references]
        if missing:
            raise InputError(f"reference {missing[0]!r} is listed in meta.json but "
                             f"references/{missing[0]}.txt does not exist",
                             source=str(root / "references"))
        references = {r: references[r] for r in listed} | \
            {r: v for r, v in references.items() if r not in listed}
    systems = _read_folder(root / "systems", "system")
    systems = dict(sorted(systems.items()))
    human_systems = _human_systems(meta, references, systems, root)

    first_name, first = next(iter(references.items()))
    segments = len(first)
    expected = meta.get("segments")
    if isinstance(expected, int) and not isinstance(expected, bool) and expected != segments:
        raise InputError(f"has {segments} lines but meta.json says the data set has {expected} segments",
                         source=str(root / "references" / f"{first_name}.txt"))
    source = None
    if (root / "source.txt").exists():
        source = read_lines(root / "source.txt", allow_empty=True)
    named = [(root / "references" / f"{r}.txt", v) for r, v in references.items()] + \
        [(root / "systems" / f"{s}.txt", v) for s, v in systems.items()]
    if source is not None:
        named.append((root / "source.txt", source))
    for file, lines in named:
        if len(lines) != segments:
            raise InputError(f"has {len(lines)} lines but references/{first_name}.txt has {segments}",
                             source=str(file))

    doc_ids = domains = None
    if (root / "segments.tsv").exists():
        doc_ids, domains = _read_segment_info(root / "segments.tsv", segments)
    human: dict[str, HumanSegmentScores] = {}
    if (root / "human" / "segments.tsv").exists():
        human = _read_human_segments(root / "human" / "segments.tsv", segments, systems)
    judgments = None
    if (root / "human" / "judgments.tsv").exists():
        judgments = _read_judgments(root / "human" / "judgments.tsv", segments, systems)
        if not human and len(judgments):
            human = _judgment_means(judgments, segments, systems)
    name = str(meta.get("name") or root.name)
    return Dataset(name=name, path=root, meta=meta, segments=segments, source=source,
                   references=references, systems=systems, human_systems=human_systems,
                   doc_ids=doc_ids, domains=domains, human=human, judgments=judgments)


def _read_meta(file: Path) -> dict[str, Any]:
    if not file.exists():
        return {}
    try:
        meta = json.loads(file.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise InputError("invalid UTF-8", source=str(file)) from None
    except json.JSONDecodeError as err:
        raise InputError(f"invalid JSON: {err.msg}", source=str(file), line=err.lineno) from None
    if not isinstance(meta, dict):
        raise InputError("must hold a JSON object", source=str(file))
    return meta


def _read_folder(folder: Path, what: str) -> dict[str, list[str]]:
    if not folder.is_dir():
        raise InputError(f"missing folder: a data set needs {folder.name}/ with one .txt file per {what}",
                         source=str(folder))
    files = sorted(p for p in folder.iterdir() if p.suffix == ".txt" and p.is_file())
    if not files:
        raise InputError(f"no .txt files: a data set needs one file per {what}", source=str(folder))
    return {p.stem: read_lines(p, allow_empty=True) for p in files}


def _human_systems(meta: Mapping[str, Any], references: Mapping[str, list[str]],
                   systems: Mapping[str, list[str]], root: Path) -> dict[str, str]:
    """``HUMAN-X`` -> ``X`` from meta.json, else from system names ``HUMAN-<reference id>``."""
    source = str(root / "meta.json")
    if "human_systems" in meta:
        listed = meta["human_systems"]
        if not isinstance(listed, dict):
            raise InputError('"human_systems" must map system names to reference ids', source=source)
        for system, ref in listed.items():
            if ref not in references:
                raise InputError(f"human system {system!r} is reference {ref!r}, which is not in "
                                 f"references/ ({', '.join(references)})", source=source)
        return {s: r for s, r in listed.items() if s in systems}
    return {s: s[len("HUMAN-"):] for s in systems
            if s.startswith("HUMAN-") and s[len("HUMAN-"):] in references}


class _Tsv:
    """A TSV file with a header; yields (line number, row dict) and builds located errors."""

    def __init__(self, file: Path, required: tuple[str, ...], one_of: tuple[str, ...] = ()):
        self.file = file
        self.lines = read_lines(file, allow_empty=True)
        expected = ", ".join(required) + (f" and {' and/or '.join(one_of)}" if one_of else "")
        if not self.lines:
            raise InputError(f"empty file: expected a header line ({expected})", source=str(file))
        self.header = self.lines[0].split("\t")
        missing = [c for c in required if c not in self.header]
        if one_of and not any(c in self.header for c in one_of):
            missing.append(" or ".join(repr(c) for c in one_of))
        if missing:
            name = missing[0] if missing[0].startswith("'") else repr(missing[0])
            raise InputError(f"header lacks column {name} (expected {expected}; "
                             f"found {', '.join(self.header)})", source=str(file), line=1)

    def error(self, problem: str, line: int) -> InputError:
        return InputError(problem, source=str(self.file), line=line)

    def rows(self):
        width = len(self.header)
        for number, text in enumerate(self.lines[1:], start=2):
            if text == "":
                continue
            cells = text.split("\t")
            if len(cells) != width:
                raise self.error(f"has {len(cells)} tab-separated fields, the header has {width}", number)
            yield number, dict(zip(self.header, cells))

    def seg_id(self, value: str, line: int, segments: int) -> int:
        try:
            seg = int(value)
        except ValueError:
            raise self.error(f"seg_id {value!r} is not an integer", line) from None
        if not 1 <= seg <= segments:
            raise self.error(f"seg_id {seg} is out of range (the data set has segments 1..{segments})",
                             line)
        return seg

    def number(self, value: str, column: str, line: int) -> float:
        try:
            x = float(value)
        except ValueError:
            raise self.error(f"{column} {value!r} is not a number", line) from None
        if not math.isfinite(x):
            raise self.error(f"{column} {value!r} is not a finite number", line)
        return x

    def system(self, value: str, line: int, systems: Mapping[str, list[str]]) -> str:
        if value not in systems:
            raise self.error(f"system {value!r} has no output file systems/{value}.txt", line)
        return value


def _read_segment_info(file: Path, segments: int
                       ) -> tuple[tuple[str | None, ...], tuple[str | None, ...] | None]:
    tsv = _Tsv(file, ("seg_id", "doc_id"))
    doc: list[str | None] = [None] * segments
    dom: list[str | None] = [None] * segments
    seen: dict[int, int] = {}
    for line, row in tsv.rows():
        seg = tsv.seg_id(row["seg_id"], line, segments)
        if seg in seen:
            raise tsv.error(f"duplicate row for seg_id {seg} (first on line {seen[seg]})", line)
        seen[seg] = line
        doc[seg - 1] = row["doc_id"]
        dom[seg - 1] = row.get("domain")
    return tuple(doc), (tuple(dom) if "domain" in tsv.header else None)


def _read_human_segments(file: Path, segments: int, systems: Mapping[str, list[str]]
                         ) -> dict[str, HumanSegmentScores]:
    tsv = _Tsv(file, ("system", "seg_id"), one_of=HUMAN_KINDS)
    has = {k: k in tsv.header for k in HUMAN_KINDS}
    arrays: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
    seen: dict[tuple[str, int], int] = {}
    for line, row in tsv.rows():
        system = tsv.system(row["system"], line, systems)
        seg = tsv.seg_id(row["seg_id"], line, segments)
        if (system, seg) in seen:
            raise tsv.error(f"duplicate row for system {system!r}, seg_id {seg} "
                            f"(first on line {seen[system, seg]})", line)
        seen[system, seg] = line
        raw = tsv.number(row["raw"], "raw", line) if has["raw"] else math.nan
        z = tsv.number(row["z"], "z", line) if has["z"] else math.nan
        n = 1
        if "n" in row:
            try:
                n = int(row["n"])
            except ValueError:
                raise tsv.error(f"n {row['n']!r} is not an integer", line) from None
            if n < 1:
                raise tsv.error(f"n {n} must be at least 1 (a row is a judged segment)", line)
        if system not in arrays:
            arrays[system] = (np.full(segments, np.nan), np.full(segments, np.nan),
                              np.zeros(segments, dtype=np.int64))
        a_raw, a_z, a_n = arrays[system]
        a_raw[seg - 1], a_z[seg - 1], a_n[seg - 1] = raw, z, n
    out = {}
    for system in systems:  # in the order of the systems
        if system in arrays:
            for a in arrays[system]:
                a.setflags(write=False)
            out[system] = HumanSegmentScores(*arrays[system])
    return out


def _read_judgments(file: Path, segments: int, systems: Mapping[str, list[str]]) -> Judgments:
    tsv = _Tsv(file, ("system", "seg_id", "rater"), one_of=("z", "raw"))
    has_z, has_raw = "z" in tsv.header, "raw" in tsv.header
    names, segs, raters, zs, raws = [], [], [], [], []
    for line, row in tsv.rows():
        names.append(tsv.system(row["system"], line, systems))
        segs.append(tsv.seg_id(row["seg_id"], line, segments))
        if row["rater"] == "":
            raise tsv.error("empty rater id", line)
        raters.append(row["rater"])
        if has_z:
            zs.append(tsv.number(row["z"], "z", line))
        if has_raw:
            raws.append(tsv.number(row["raw"], "raw", line))
    seg_arr = np.asarray(segs, dtype=np.int64)
    raw_arr = np.asarray(raws, dtype=np.float64) if has_raw else None
    if has_z:
        z_arr = np.asarray(zs, dtype=np.float64)
    elif raters:  # WMT's protocol: standardize each rater's raw scores (sample sd)
        from ..stats.human import rater_z

        z_arr = rater_z(raters, raw_arr)
    else:
        z_arr = np.zeros(0)
    for a in (seg_arr, z_arr, raw_arr):
        if a is not None:
            a.setflags(write=False)
    return Judgments(tuple(names), seg_arr, tuple(raters), z_arr, raw_arr)


def _judgment_means(judgments: Judgments, segments: int, systems: Mapping[str, list[str]]
                    ) -> dict[str, HumanSegmentScores]:
    """Segment scores as the means of their judgments (when human/segments.tsv is absent)."""
    from ..stats.human import segment_means

    judged = [s for s in systems if s in set(judgments.systems)]
    z = segment_means(judgments.systems, judgments.seg_ids, judgments.z, segments, judged)
    raw = (segment_means(judgments.systems, judgments.seg_ids, judgments.raw, segments, judged).scores
           if judgments.raw is not None else np.full_like(z.scores, np.nan))
    out = {}
    for k, system in enumerate(judged):
        arrays = (raw[k].copy(), z.scores[k].copy(), z.counts[k].astype(np.int64))
        for a in arrays:
            a.setflags(write=False)
        out[system] = HumanSegmentScores(*arrays)
    return out
