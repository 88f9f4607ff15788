"""The long score format: one score per row under named columns, read and written by every command.

Columns (in this order when written)::

    system  seg_id  metric  score  signature

* ``seg_id`` is the 1-based segment number (line number in the data set's files) for a segment
  score, and empty (TSV, CSV) or ``null``/absent (JSON Lines) for a system score;
* ``signature`` says how the score was computed (a metric's signature, or what an external tool
  reports); it may be empty, or the column left out;
* other columns are allowed and ignored (e.g. a human score file's ``raw z n``; read those with
  :func:`read_table`).

Three encodings: TSV (``.tsv``, the default), CSV (``.csv``) and JSON Lines (``.jsonl``, one object
per line; a ``.json`` file holding one list of such objects is read too). On reading, the file name's
ending decides, else the content (``{`` or ``[`` first: JSON; a tab in the header: TSV; else CSV).
Scores are written with full precision (``repr`` of the float, which reads back to the same number).

Every problem is an :class:`~mtscore.errors.InputError` naming the file and the line: a missing
``system``/``score`` column, a repeated column name, a ``seg_id`` that is not a plain positive integer
(``1.7``, ``0_1``, ``١`` are refused), a score that is not a finite number, a (system, seg_id, metric)
given twice.
"""

from __future__ import annotations

import io
import json
import math
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any, NamedTuple

from ..errors import InputError, OptionError
from .long_format import COLUMNS, FORMATS

_SUFFIXES = {".tsv": "tsv", ".txt": "tsv", ".csv": "csv", ".jsonl": "jsonl", ".json": "json"}


class ScoreRecord(NamedTuple):
    """One row: a system's score (``seg_id`` None) or one segment's score (``seg_id`` >= 1)."""

    system: str
    seg_id: int | None
    metric: str
    score: float
    signature: str = ""

    def as_row(self) -> tuple[str, int | None, str, float, str]:
        return (self.system, self.seg_id, self.metric, self.score, self.signature)


@dataclass(frozen=True, repr=False)
class LongScores:
    """Rows of the long format, with look-ups by metric (a file may hold several metrics)."""

    records: tuple[ScoreRecord, ...]
    source: str = ""
    _index: dict[tuple[str, str, int | None], float] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if not self._index:
            for r in self.records:
                self._index[(r.metric, r.system, r.seg_id)] = r.score

    def __repr__(self) -> str:
        return (f"LongScores({len(self.records)} rows, metrics={list(self.metrics())!r:.200}, "
                f"systems={len(self.systems())}, source={self.source!r:.200})")

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self) -> Iterator[ScoreRecord]:
        return iter(self.records)

    def metrics(self) -> tuple[str, ...]:
        """Metric names in the order they first appear."""
        return tuple(dict.fromkeys(r.metric for r in self.records))

    def systems(self, metric: str | None = None) -> tuple[str, ...]:
        """System names (of ``metric``, or of every metric) in the order they first appear."""
        return tuple(dict.fromkeys(r.system for r in self.records
                                   if metric is None or r.metric == metric))

    def signature(self, metric: str) -> str:
        """The signature given with ``metric``'s rows ("" if none; the first one if they differ)."""
        return next((r.signature for r in self.records if r.metric == metric and r.signature), "")

    def segment_scores(self, metric: str) -> dict[str, dict[int, float]]:
        """system -> {seg_id: score} of ``metric``'s segment rows."""
        out: dict[str, dict[int, float]] = {}
        for r in self.records:
            if r.metric == metric and r.seg_id is not None:
                out.setdefault(r.system, {})[r.seg_id] = r.score
        return out

    def system_scores(self, metric: str) -> dict[str, float]:
        """system -> score of ``metric``'s system rows (those without a seg_id)."""
        return {r.system: r.score for r in self.records if r.metric == metric and r.seg_id is None}

    def with_signature(self, signature: str) -> LongScores:
        """The same rows, every one with ``signature`` (``--scores-signature``)."""
        return LongScores(tuple(ScoreRecord(r.system, r.seg_id, r.metric, r.score, signature)
                                for r in self.records), self.source)

    def to_pandas(self) -> Any:
        """A :class:`pandas.DataFrame` with the long format's columns (``seg_id`` nullable Int64);
        :func:`from_pandas` gives the rows back."""
        from ..errors import require_extra

        pd = require_extra("pandas", "pandas", "LongScores.to_pandas()")

        frame = pd.DataFrame([r.as_row() for r in self.records], columns=list(COLUMNS))
        frame["seg_id"] = frame["seg_id"].astype("Int64")
        frame["score"] = frame["score"].astype("float64")
        return frame

    def _repr_html_(self) -> str:
        import html

        return (f"<p><b>LongScores</b>: {len(self.records)} rows; metrics "
                f"{html.escape(', '.join(self.metrics()))}; {len(self.systems())} systems</p>")


def from_pandas(frame: Any, source: str = "<DataFrame>") -> LongScores:
    """Rows of a DataFrame with the long format's columns (the inverse of ``to_pandas``)."""
    rows = [{k: (None if _missing(v) else v) for k, v in rec.items()}
            for rec in frame.to_dict("records")]
    return records_from_dicts(rows, source, first_line=2)


def _missing(value: Any) -> bool:
    try:
        return value is None or (isinstance(value, float) and math.isnan(value)) or \
            bool(value != value)  # pandas.NA compares as NA, not True
    except TypeError:  # pandas.NA in a boolean context
        return True


# ---- reading -------------------------------------------------------------------------------------

def parse_seg_id(text: str | int | None, source: str, line: int) -> int | None:
    """A seg_id cell: empty/None for a system score, else a plain positive integer in ASCII digits."""
    if text is None:
        return None
    if isinstance(text, bool) or not isinstance(text, (int, str)):
        raise InputError(f"seg_id {text!r} is not a positive integer", source=source, line=line)
    if isinstance(text, int):
        value = text
    else:
        cell = text.strip()
        if not cell:
            return None
        if not (cell.isascii() and cell.isdigit()):
            raise InputError(f"seg_id {cell!r} is not a positive integer (plain digits 0-9)",
                             source=source, line=line)
        value = int(cell)
    if value < 1:
        raise InputError(f"seg_id {value} is out of range (seg ids start at 1)", source=source,
                         line=line)
    return value


def parse_score(value: str | float | int | None, source: str, line: int, column: str = "score"
                ) -> float:
    """A score cell: a finite number."""
    try:
        if value is None or isinstance(value, bool):
            raise ValueError
        number = float(value.strip() if isinstance(value, str) else value)
    except (TypeError, ValueError):
        raise InputError(f"{column} {value!r} is not a number", source=source, line=line) from None
    if not math.isfinite(number):
        raise InputError(f"{column} {value!r} is not a finite number", source=source, line=line)
    return number


def sniff_format(path: str, text: str) -> str:
    """``tsv``, ``csv``, ``jsonl`` or ``json`` for a file: by its name's ending, else its content."""
    suffix = os.path.splitext(path)[1].lower()
    if suffix in _SUFFIXES:
        return _SUFFIXES[suffix]
    head = text.lstrip("\ufeff \t\r\n")[:1]
    if head == "[":
        return "json"
    if head == "{":
        return "jsonl"
    first = text.split("\n", 1)[0]
    return "tsv" if "\t" in first or "," not in first else "csv"


def read_table(path: str, fmt: str | None = None) -> tuple[tuple[str, ...], list[dict[str, Any]]]:
    """The column names and the rows (dicts; 2 = the first data line's number) of a TSV, CSV, JSON
    Lines or JSON file with a header; a repeated column name is an error."""
    import csv
    import sys

    from .text import read_lines, read_stream

    lines = read_stream(sys.stdin.buffer, "<stdin>") if path == "-" else read_lines(path)
    text = "\n".join(lines)
    fmt = fmt or sniff_format(path, text)
    if fmt in ("json", "jsonl"):
        return _json_rows(path, lines, fmt)
    if fmt not in ("tsv", "csv"):
        raise OptionError("score file format", fmt, ("tsv", "csv", "jsonl", "json"))
    body = [(n, line) for n, line in enumerate(lines, start=1) if line.strip()]
    if not body:
        raise InputError("no rows (an empty file)", source=path)
    reader = csv.reader([line for _, line in body], delimiter="\t" if fmt == "tsv" else ",",
                        quoting=csv.QUOTE_NONE if fmt == "tsv" else csv.QUOTE_MINIMAL)
    cells = list(reader)
    header = tuple(c.strip() for c in cells[0])
    _check_header(header, path, body[0][0])
    rows = []
    for (number, _), row in zip(body[1:], cells[1:]):
        if len(row) != len(header):
            raise InputError(f"{len(row)} columns, the header has {len(header)} "
                             f"({', '.join(header)})", source=path, line=number)
        rows.append({"_line": number, **dict(zip(header, row))})
    return header, rows


def _check_header(header: tuple[str, ...], path: str, line: int) -> None:
    seen: set[str] = set()
    for name in header:
        if name in seen:
            raise InputError(f"column {name!r} appears twice in the header", source=path, line=line)
        seen.add(name)


def _json_rows(path: str, lines: list[str], fmt: str
               ) -> tuple[tuple[str, ...], list[dict[str, Any]]]:
    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [k for k, _ in pairs]
        if len(set(keys)) != len(keys):
            raise ValueError(f"a key appears twice ({', '.join(keys)})")
        return dict(pairs)

    items: list[tuple[int, Any]] = []
    try:
        if fmt == "json":
            items = [(0, obj) for obj in json.loads("\n".join(lines), object_pairs_hook=pairs_hook)]
        else:
            items = [(n, json.loads(line, object_pairs_hook=pairs_hook))
                     for n, line in enumerate(lines, start=1) if line.strip()]
    except (ValueError, TypeError, RecursionError) as err:
        raise InputError(f"not valid JSON{' Lines' if fmt == 'jsonl' else ''}: {err}",
                         source=path) from None
    rows = []
    header: dict[str, None] = {}
    for number, obj in items:
        if not isinstance(obj, dict):
            raise InputError("expected one JSON object per row", source=path, line=number or None)
        header.update(dict.fromkeys(obj))
        rows.append({"_line": number, **obj})
    if not rows:
        raise InputError("no rows (an empty file)", source=path)
    return tuple(header), rows


def records_from_dicts(rows: Iterable[Mapping[str, Any]], source: str, first_line: int = 1,
                       metric: str | None = None) -> LongScores:
    """Long-format rows from dicts (``metric``: the name for rows without a ``metric`` column)."""
    records = []
    seen: dict[tuple[str, str, int | None], int] = {}
    for k, row in enumerate(rows):
        line = row.get("_line") or (first_line + k)
        for column in ("system", "score"):
            if column not in row:
                raise InputError(f"no {column!r} column (the long format's columns: "
                                 f"{', '.join(COLUMNS)})", source=source, line=line)
        name = row.get("metric", metric)
        if name is None:
            raise InputError("no 'metric' column: give the metric's name (e.g. --scores-metric)",
                             source=source, line=line)
        system = str(row["system"]).strip()
        if not system:
            raise InputError("empty system name", source=source, line=line)
        seg = parse_seg_id(row.get("seg_id"), source, line)
        record = ScoreRecord(system, seg, str(name).strip(), parse_score(row["score"], source, line),
                             str(row.get("signature") or "").strip())
        key = (record.metric, record.system, seg)
        if key in seen:
            where = f"system {system!r}" + (f", seg_id {seg}" if seg is not None else "")
            raise InputError(f"{where}, metric {record.metric!r} given twice (first on line "
                             f"{seen[key]})", source=source, line=line)
        seen[key] = line
        records.append(record)
    if not records:
        raise InputError("no scores", source=source)
    return LongScores(tuple(records), source)


def read_scores(path: str, fmt: str | None = None, metric: str | None = None) -> LongScores:
    """The long format from ``path`` (``-``: standard input). ``metric`` names the metric of a file
    without a ``metric`` column (e.g. ``system seg_id score`` written by another tool)."""
    _, rows = read_table(path, fmt)
    return records_from_dicts(rows, path, metric=metric)


# ---- writing -------------------------------------------------------------------------------------

def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):  # numpy's float64 too: its repr would name the type
        return repr(float(value))
    if hasattr(value, "item"):  # other numpy scalars
        return str(value.item())
    return str(value)


def format_table(columns: Sequence[str], rows: Iterable[Sequence[Any]], fmt: str = "tsv") -> str:
    """Rows under named columns as TSV or CSV (a header line first) or JSON Lines (one object per
    row; None is ``null``); floats with full precision; no trailing newline."""
    if fmt not in FORMATS:
        raise OptionError("format", fmt, FORMATS)
    if fmt == "jsonl":
        return "\n".join(json.dumps(dict(zip(columns, row)), ensure_ascii=False) for row in rows)
    out = io.StringIO()
    if fmt == "csv":
        import csv

        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows([_cell(v) for v in row] for row in rows)
        return out.getvalue().removesuffix("\n")
    lines = ["\t".join(columns)]
    for row in rows:
        cells = [_cell(v) for v in row]
        if any(ch in c for c in cells for ch in "\t\n\r"):
            raise InputError(f"a tab or line end in {cells[0]!r} cannot be written as TSV "
                             "(use -f csv or jsonl)")
        lines.append("\t".join(cells))
    return "\n".join(lines)


def format_scores(records: Iterable[ScoreRecord], fmt: str = "tsv") -> str:
    """The long format as text (a header line first for TSV and CSV; no trailing newline)."""
    return format_table(COLUMNS, (r.as_row() for r in records), fmt)


def write_scores(records: Iterable[ScoreRecord], stream: IO[str], fmt: str = "tsv") -> None:
    """Write the long format to ``stream`` (ends with a newline)."""
    stream.write(format_scores(records, fmt) + "\n")
