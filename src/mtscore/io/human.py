"""The human-score files of a data set: ``segments.tsv``, ``human/segments.tsv``, ``human/judgments.tsv``.

Tab-separated, with a header line naming the columns (each at most once). ``seg_id`` is a plain ASCII
integer (digits only: not ``1.7``, ``0_1``, ``+1`` or ``١``) from 1 to the number of segments; scores
are plain finite decimal numbers. Every problem is an :class:`InputError` with the file and the line.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import InputError, OptionError
from .judgment_math import rater_z, segment_matrix
from .text import read_lines

#: kinds of human score a data set may carry
HUMAN_KINDS = ("z", "raw")

#: a plain decimal number: optional sign, ASCII digits, optional fraction and exponent
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


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


class _Tsv:
    """A TSV file with a header; yields (line number, row dict) and builds located errors."""

    def __init__(self, file: Path, required: tuple[str, ...], one_of: tuple[str, ...] = ()):
        self.file = file
        self.lines = read_lines(file, allow_empty=True)
        expected = ", ".join(required) + (f" and {' and/or '.join(one_of)}" if one_of else "")
        if not self.lines:
            raise InputError(f"empty file: expected a header line ({expected})", source=str(file))
        self.header = self.lines[0].split("\t")
        twice = [c for k, c in enumerate(self.header) if c in self.header[:k]]
        if twice:
            raise self.error(f"column {twice[0]!r} appears twice in the header "
                             f"({', '.join(self.header)}); each column once", 1)
        missing = [c for c in required if c not in self.header]
        if one_of and not any(c in self.header for c in one_of):
            missing.append(" or ".join(repr(c) for c in one_of))
        if missing:
            name = missing[0] if missing[0].startswith("'") else repr(missing[0])
            raise self.error(f"header lacks column {name} (expected {expected}; "
                             f"found {', '.join(self.header)})", 1)

    def error(self, problem: str, line: int) -> InputError:
        return InputError(problem, source=str(self.file), line=line)

    def rows(self) -> Iterator[tuple[int, dict[str, str]]]:
        width = len(self.header)
        for number, text in enumerate(self.lines[1:], start=2):
            if text == "":
                continue
            cells = text.split("\t")
            if len(cells) != width:
                raise self.error(f"has {len(cells)} tab-separated fields, the header has {width}", number)
            yield number, dict(zip(self.header, cells))

    def integer(self, value: str, column: str, line: int) -> int:
        """A plain ASCII integer (digits only); anything Python's int() would also take is refused."""
        if not (value.isascii() and value.isdigit()):
            raise self.error(f"{column} {value!r} is not an integer (digits 0-9 only)", line)
        if len(value) > 18:
            raise self.error(f"{column} {value[:20]}... is out of range ({len(value)} digits)", line)
        return int(value)

    def seg_id(self, value: str, line: int, segments: int) -> int:
        seg = self.integer(value, "seg_id", line)
        if not 1 <= seg <= segments:
            raise self.error(f"seg_id {seg} is out of range (the data set has segments 1..{segments})",
                             line)
        return seg

    def number(self, value: str, column: str, line: int) -> float:
        if not _NUMBER.fullmatch(value):
            raise self.error(f"{column} {value!r} is not a number (a plain decimal number, e.g. -0.25)",
                             line)
        x = float(value)
        if not math.isfinite(x):
            raise self.error(f"{column} {value!r} is not a finite number", line)
        return x

    def system(self, value: str, line: int, systems: Mapping[str, list[str]]) -> str:
        if value not in systems:
            raise self.error(f"system {value!r} has no output file systems/{value}.txt", line)
        return value


def read_segment_info(file: Path, segments: int
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


def read_human_segments(file: Path, segments: int, systems: Mapping[str, list[str]]
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
            n = tsv.integer(row["n"], "n", line)
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


def read_judgments(file: Path, segments: int, systems: Mapping[str, list[str]]) -> Judgments:
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
    elif raters and raw_arr is not None:  # WMT's protocol: standardize each rater's raw scores
        z_arr = rater_z(raters, raw_arr)
    else:
        z_arr = np.zeros(0)
    for a in (seg_arr, z_arr, raw_arr):
        if a is not None:
            a.setflags(write=False)
    return Judgments(tuple(names), seg_arr, tuple(raters), z_arr, raw_arr)


def judgment_means(judgments: Judgments, segments: int, systems: Mapping[str, list[str]]
                    ) -> dict[str, HumanSegmentScores]:
    """Segment scores as the means of their judgments (when human/segments.tsv is absent)."""
    judged = [s for s in systems if s in set(judgments.systems)]
    _, z, counts = segment_matrix(judgments.systems, judgments.seg_ids, judgments.z, segments, judged)
    raw = (segment_matrix(judgments.systems, judgments.seg_ids, judgments.raw, segments, judged)[1]
           if judgments.raw is not None else np.full_like(z, np.nan))
    out = {}
    for k, system in enumerate(judged):
        arrays = (raw[k].copy(), z[k].copy(), counts[k].astype(np.int64))
        for a in arrays:
            a.setflags(write=False)
        out[system] = HumanSegmentScores(*arrays)
    return out
