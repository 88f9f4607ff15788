"""A small table model rendered as aligned text, JSON, TSV, Markdown or LaTeX (booktabs).

Numbers are rounded to ``width`` decimals everywhere except JSON, which keeps full precision.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import OptionError

FORMATS = ("text", "json", "tsv", "markdown", "latex")


@dataclass(frozen=True)
class Table:
    """Rows of values under named columns, with an optional title and notes (signatures, methods)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    title: str = ""
    notes: tuple[str, ...] = field(default_factory=tuple)

    def records(self) -> list[dict[str, Any]]:
        return [dict(zip(self.columns, row)) for row in self.rows]


def _cell(value: Any, width: int) -> str:
    if isinstance(value, np.generic):  # numpy scalars print like Python numbers
        value = value.item()
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        return f"{value:.{width}f}"
    return str(value)


def _json_value(value: Any) -> Any:
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return None
    if hasattr(value, "item"):  # numpy scalars
        return _json_value(value.item())
    return value


def render(tables: Table | Sequence[Table], fmt: str = "text", width: int = 2) -> str:
    """Render one table or several (separated by a blank line; JSON: a list of objects per table)."""
    if fmt not in FORMATS:
        raise OptionError("format", fmt, FORMATS)
    if isinstance(width, bool) or not isinstance(width, (int, np.integer)) or width < 0:
        raise OptionError("width", width, detail="decimals must be a non-negative integer")
    if isinstance(tables, Table):
        tables = [tables]
    if fmt == "json":
        payload: Any = [[{k: _json_value(v) for k, v in r.items()} for r in t.records()]
                        for t in tables]
        if len(tables) == 1:
            payload = payload[0]
        return json.dumps(payload, indent=2, ensure_ascii=False)
    render_one = {"text": _text, "tsv": _tsv, "markdown": _markdown, "latex": _latex}[fmt]
    return "\n\n".join(render_one(t, width) for t in tables)


def _is_numeric(value: Any) -> bool:
    if isinstance(value, np.generic):
        value = value.item()
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _text(t: Table, width: int) -> str:
    cells = [[_cell(v, width) for v in row] for row in t.rows]
    widths = [max([len(c)] + [len(r[j]) for r in cells]) for j, c in enumerate(t.columns)]
    numeric = [all(_is_numeric(row[j]) or row[j] is None for row in t.rows) and t.rows != ()
               for j in range(len(t.columns))]

    def line(values: Sequence[str]) -> str:
        return "  ".join(v.rjust(w) if num else v.ljust(w)
                         for v, w, num in zip(values, widths, numeric)).rstrip()

    out = []
    if t.title:
        out.append(t.title)
    out.append(line(t.columns))
    out.append("  ".join("-" * w for w in widths))
    out.extend(line(r) for r in cells)
    out.extend(t.notes)
    return "\n".join(out)


def _tsv(t: Table, width: int) -> str:
    def clean(s: str) -> str:
        return s.replace("\t", " ").replace("\n", " ")
    out = ["\t".join(t.columns)]
    out.extend("\t".join(clean(_cell(v, width)) for v in row) for row in t.rows)
    return "\n".join(out)


def _markdown(t: Table, width: int) -> str:
    def esc(s: str) -> str:
        return s.replace("|", "\\|").replace("\r", " ").replace("\n", " ")
    out = []
    if t.title:
        out += [f"**{esc(t.title)}**", ""]
    numeric = [all(_is_numeric(row[j]) or row[j] is None for row in t.rows) and t.rows != ()
               for j in range(len(t.columns))]
    out.append("| " + " | ".join(esc(c) for c in t.columns) + " |")
    out.append("|" + "|".join("---:" if n else ":---" for n in numeric) + "|")
    out.extend("| " + " | ".join(esc(_cell(v, width)) for v in row) + " |" for row in t.rows)
    if t.notes:
        out.append("")
        out.extend(f"{esc(n)}  " for n in t.notes)
    return "\n".join(out)


_LATEX_SPECIAL = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
                  "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
                  "\\": r"\textbackslash{}"}


def _latex_escape(s: str) -> str:
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in s)


def _latex(t: Table, width: int) -> str:
    numeric = [all(_is_numeric(row[j]) or row[j] is None for row in t.rows) and t.rows != ()
               for j in range(len(t.columns))]
    spec = "".join("r" if n else "l" for n in numeric)
    out = [r"\begin{table}[t]", r"\centering", rf"\begin{{tabular}}{{{spec}}}", r"\toprule",
           " & ".join(_latex_escape(c) for c in t.columns) + r" \\", r"\midrule"]
    out.extend(" & ".join(_latex_escape(_cell(v, width)) for v in row) + r" \\" for row in t.rows)
    out += [r"\bottomrule", r"\end{tabular}"]
    if t.title or t.notes:
        caption = " ".join([t.title, *t.notes]).strip()
        out.append(rf"\caption{{{_latex_escape(caption)}}}")
    out.append(r"\end{table}")
    return "\n".join(out)
