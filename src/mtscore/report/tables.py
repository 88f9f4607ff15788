"""A small table model rendered as aligned text, JSON, TSV, Markdown or LaTeX (booktabs).

Numbers are rounded to ``width`` decimals everywhere except JSON, which keeps full precision.

Two layouts (``render(..., layout=...)``, the CLI's ``--layout``):

* ``long`` (default): the table as built — for scores, one row per system and metric
  (``system, metric, score, signature``), the format every command reads back;
* ``wide``: a table with ``system`` and ``metric`` columns pivoted to systems × metrics
  (:func:`wide_table`), one column per metric, the signatures in the notes (LaTeX: under the
  table) — the layout of a paper's results table. Tables without those two columns are unchanged.

LaTeX output needs ``\\usepackage{booktabs}`` and ``\\usepackage{graphicx}`` (said in a comment line
of the output: a table wider than the text is scaled down to it, long text wraps) and compiles
under the default OT1 font encoding: ``|``, ``<``, ``>`` and the few non-ASCII symbols the tables
use (–, −, ×, τ, ρ, …) are written as LaTeX commands.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import OptionError

# the formats, layouts and decimals' rule, re-exported (defined apart for the command line's start-up)
from .formats import FORMATS as FORMATS
from .formats import LAYOUTS as LAYOUTS
from .formats import MAX_DECIMALS as MAX_DECIMALS
from .formats import check_decimals as check_decimals
from .formats import check_layout as check_layout


@dataclass(frozen=True, repr=False)
class Table:
    """Rows of values under named columns, with an optional title and notes (signatures, methods)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    title: str = ""
    notes: tuple[str, ...] = field(default_factory=tuple)

    def records(self) -> list[dict[str, Any]]:
        return [dict(zip(self.columns, row)) for row in self.rows]

    def __repr__(self) -> str:
        cols = ", ".join(self.columns[:8]) + (", …" if len(self.columns) > 8 else "")
        title = f"{self.title[:60]!r}, " if self.title else ""
        return f"Table({title}{len(self.rows)} rows × {len(self.columns)} columns: {cols})"

    def __str__(self) -> str:
        return render(self, "text")

    def _repr_html_(self) -> str:
        from .table_html import table_html

        return table_html(self, width=4)

    def to_pandas(self) -> Any:
        """A ``pandas.DataFrame`` of the rows (title and notes in ``DataFrame.attrs``); pandas is
        optional and imported here."""
        from ..errors import require_extra

        pd = require_extra("pandas", "pandas", "to_pandas()")
        frame = pd.DataFrame([list(r) for r in self.rows], columns=list(self.columns))
        frame.attrs.update(title=self.title, notes=list(self.notes))
        return frame

    def wide(self, row: str = "system", column: str = "metric") -> Table:
        """This table pivoted to ``row`` × ``column`` values (see :func:`wide_table`)."""
        return wide_table(self, row=row, column=column)


def wide_table(table: Table, *, row: str = "system", column: str = "metric",
               signature: str = "signature") -> Table:
    """Pivot a long table (one row per ``row`` and ``column`` value, e.g. system and metric) to
    one row per ``row`` value and one column per ``column`` value and value column.

    With one value column (``score``) the new columns are named by the metric (``BLEU``); with
    several (``score, low, high``) ``BLEU``, ``BLEU low``, ``BLEU high``. The ``signature`` column
    leaves the table: each metric's signature becomes a note (``BLEU: …``; a system scored with
    another signature, e.g. fewer references, is named beside it). A table without ``row`` and
    ``column`` is returned unchanged. Rows keep the order of their first appearance.
    """
    if row not in table.columns or column not in table.columns:
        return table
    ri, ci = table.columns.index(row), table.columns.index(column)
    si = table.columns.index(signature) if signature in table.columns else None
    values = [j for j in range(len(table.columns)) if j not in (ri, ci, si)]
    keys: dict[Any, None] = {}
    metrics: dict[Any, None] = {}
    cells: dict[tuple[Any, Any], tuple[Any, ...]] = {}
    sigs: dict[Any, dict[str, list[str]]] = {}
    for r in table.rows:
        k, m = r[ri], r[ci]
        keys.setdefault(k)
        metrics.setdefault(m)
        cells[(k, m)] = tuple(r[j] for j in values)
        if si is not None and r[si] not in (None, ""):
            sigs.setdefault(m, {}).setdefault(str(r[si]), []).append(str(k))
    names = [table.columns[j] for j in values]
    columns = [row]
    for m in metrics:
        columns += [str(m)] if len(names) == 1 else \
            [f"{m}" if n == "score" else f"{m} {n}" for n in names]
    blank = (None,) * len(values)
    rows = tuple((k, *(v for m in metrics for v in cells.get((k, m), blank))) for k in keys)
    return Table(tuple(columns), rows, title=table.title,
                 notes=(*_signature_notes(sigs), *table.notes))


def _signature_notes(sigs: dict[Any, dict[str, list[str]]]) -> list[str]:
    """``metric: signature`` per metric; when systems differ, the most common signature first and
    the others with the systems they apply to."""
    notes = []
    for m, by_sig in sigs.items():
        ordered = sorted(by_sig.items(), key=lambda kv: -len(kv[1]))
        notes.append(f"{m}: {ordered[0][0]}")
        notes.extend(f"{m} ({', '.join(who)}): {sig}" for sig, who in ordered[1:])
    return notes


class Fixed(float):
    """A number shown with its own number of decimals, whatever the table's width (a 0–1 score
    next to BLEU's 0–100 in one column); otherwise the float itself (JSON keeps every digit)."""

    decimals: int

    def __new__(cls, value: float, decimals: int) -> Fixed:
        number = super().__new__(cls, value)
        number.decimals = decimals
        return number


def _cell(value: Any, width: int) -> str:
    if isinstance(value, Fixed) and not math.isnan(value):
        return f"{value:.{value.decimals}f}"
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


def render(tables: Table | Sequence[Table], fmt: str = "text", width: int = 2,
           layout: str = "long") -> str:
    """Render one table or several (separated by a blank line; JSON: a list of objects per table).

    ``layout="wide"`` pivots every table with ``system`` and ``metric`` columns to systems ×
    metrics first (:func:`wide_table`)."""
    if fmt not in FORMATS:
        raise OptionError("format", fmt, FORMATS)
    check_layout(layout)
    check_decimals(width)
    if isinstance(tables, Table):
        tables = [tables]
    if layout == "wide":
        tables = [wide_table(t) for t in tables]
    if fmt == "json":
        import json  # only this format needs it (not loaded at the command line's start-up)

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


def numeric_columns(t: Table) -> list[bool]:
    """Per column: every value a number (or missing), in a table with rows."""
    return [all(_is_numeric(row[j]) or row[j] is None for row in t.rows) and t.rows != ()
            for j in range(len(t.columns))]


def _text(t: Table, width: int) -> str:
    cells = [[_cell(v, width) for v in row] for row in t.rows]
    widths = [max([len(c)] + [len(r[j]) for r in cells]) for j, c in enumerate(t.columns)]
    numeric = numeric_columns(t)

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


def _one_line(s: str) -> str:
    return s.replace("\t", " ").replace("\r", " ").replace("\n", " ")


def _tsv(t: Table, width: int) -> str:
    out = ["\t".join(_one_line(c) for c in t.columns)]
    out.extend("\t".join(_one_line(_cell(v, width)) for v in row) for row in t.rows)
    return "\n".join(out)


def _markdown(t: Table, width: int) -> str:
    def esc(s: str) -> str:
        return _one_line(s.replace("|", "\\|"))
    out = []
    if t.title:
        out += [f"**{esc(t.title)}**", ""]
    numeric = numeric_columns(t)
    out.append("| " + " | ".join(esc(c) for c in t.columns) + " |")
    out.append("|" + "|".join("---:" if n else ":---" for n in numeric) + "|")
    out.extend("| " + " | ".join(esc(_cell(v, width)) for v in row) + " |" for row in t.rows)
    if t.notes:
        out.append("")
        out.extend(f"{esc(n)}  " for n in t.notes)
    return "\n".join(out)


#: characters LaTeX reads as commands, and those the default OT1 encoding prints wrongly (``|`` as
#: an em dash, ``<`` as ¡) or pdflatex cannot set without extra packages (Greek, maths symbols)
_LATEX_SPECIAL = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
                  "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
                  "\\": r"\textbackslash{}", "|": r"\textbar\allowbreak{}", "<": r"\textless{}",
                  ">": r"\textgreater{}", "\"": r"\textquotedbl{}", "–": "--", "—": "---",
                  "−": r"\ensuremath{-}", "×": r"\ensuremath{\times}", "·": r"\ensuremath{\cdot}",
                  "±": r"\ensuremath{\pm}", "≥": r"\ensuremath{\geq}", "≤": r"\ensuremath{\leq}",
                  "…": r"\ldots{}", "α": r"\ensuremath{\alpha}", "β": r"\ensuremath{\beta}",
                  "ρ": r"\ensuremath{\rho}", "τ": r"\ensuremath{\tau}", "σ": r"\ensuremath{\sigma}",
                  "χ": r"\ensuremath{\chi}", "→": r"\ensuremath{\rightarrow}", "\n": " ", "\r": " ",
                  "\t": " "}


def latex_escape(s: str) -> str:
    """``s`` as LaTeX text that pdflatex sets literally under the default OT1 encoding; ``--``
    (an option such as ``--no-meteor``) stays two hyphens (``-{}-``), not an en dash."""
    return "".join("-{}" if ch == "-" and s[k + 1:k + 2] == "-" else _LATEX_SPECIAL.get(ch, ch)
                   for k, ch in enumerate(s))


def _looks_like_signature(value: Any) -> bool:
    return isinstance(value, str) and "|" in value and ":" in value and " " not in value.strip()


def _footnote_signatures(t: Table) -> tuple[Table, list[str]]:
    """A signature column leaves the tabular (611 pt is too wide for a page): its distinct values
    become marks (a, b, …) in a narrow column, the signatures notes under the table."""
    cols = [j for j, c in enumerate(t.columns)
            if t.rows and all(_looks_like_signature(r[j]) or r[j] in (None, "") for r in t.rows)
            and any(_looks_like_signature(r[j]) for r in t.rows)]
    if not cols:
        return t, []
    marks: dict[str, str] = {}
    for r in t.rows:
        for j in cols:
            if r[j]:
                marks.setdefault(r[j], _mark(len(marks)))
    rows = tuple(tuple(f"({marks[v]})" if j in cols and v else v for j, v in enumerate(r))
                 for r in t.rows)
    notes = [f"({m}) {sig}" for sig, m in marks.items()]
    return Table(t.columns, rows, t.title, t.notes), notes


def _mark(i: int) -> str:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return letters[i] if i < 26 else _mark(i // 26 - 1) + letters[i % 26]


#: what the LaTeX output needs (its first line, a comment)
LATEX_NEEDS = (r"% needs \usepackage{booktabs} (Debian/Ubuntu: texlive-latex-recommended) and "
               r"\usepackage{graphicx} (\resizebox)")
#: a text column whose longest cell has more characters than this wraps (a p{} column)
_WRAP_AT = 40
#: characters of the 10 pt body text on an article's text width (345 pt)
_LINE_CHARS = 64


def _latex_spec(t: Table, width: int) -> str:
    """Column types: numbers right-aligned, text left-aligned, long text wrapped in a ``p{}``
    column sharing what the other columns leave of the text width."""
    numeric = numeric_columns(t)
    longest = [max([len(c)] + [len(_cell(r[j], width)) for r in t.rows])
               for j, c in enumerate(t.columns)]
    wrap = [not n and k > _WRAP_AT for n, k in zip(numeric, longest)]
    if not any(wrap):
        return "".join("r" if n else "l" for n in numeric)
    rest = sum(k + 2 for k, w in zip(longest, wrap) if not w)
    share = max(0.25, 0.95 - rest / _LINE_CHARS) / sum(wrap)
    return "".join(rf"p{{{share:.2f}\linewidth}}" if w else "r" if n else "l"
                   for n, w in zip(numeric, wrap))


def _latex(t: Table, width: int) -> str:
    """A booktabs table; scaled down to the text width when wider (never up), long text
    wrapped."""
    t, sig_notes = _footnote_signatures(t)
    spec = _latex_spec(t, width)
    out = [LATEX_NEEDS, r"\begin{table}[t]", r"\centering"]
    if t.title:
        out.append(rf"\caption{{{latex_escape(t.title)}}}")
    out += [r"\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}{%",
            rf"\begin{{tabular}}{{{spec}}}", r"\toprule",
            " & ".join(latex_escape(c) for c in t.columns) + r" \\", r"\midrule"]
    out.extend(" & ".join(latex_escape(_cell(v, width)) for v in row) + r" \\" for row in t.rows)
    out += [r"\bottomrule", r"\end{tabular}}"]
    notes = [*sig_notes, *t.notes]
    if notes:
        out.append(r"\par\smallskip{\footnotesize\raggedright " +
                   r"\par ".join(latex_escape(n) for n in notes) + r"\par}")
    out.append(r"\end{table}")
    return "\n".join(out)


def text_width(t: Table, width: int) -> int:
    """Characters of the widest line of ``t``'s columns in the text format (title and notes,
    which a terminal wraps as prose, not counted)."""
    cells = [[_cell(v, width) for v in row] for row in t.rows]
    return sum(max([len(c)] + [len(r[j]) for r in cells]) for j, c in enumerate(t.columns)) + \
        2 * (len(t.columns) - 1)


def split_columns(t: Table, keep: int, groups: Sequence[Sequence[int]], width: int,
                  limit: int = 100) -> list[Table]:
    """``t`` cut into tables no wider than ``limit`` characters in the text format (a terminal of
    100 columns): each repeats the first ``keep`` columns (system names …) and takes whole
    ``groups`` of the other column indices, in order, as many as fit (at least one); the title is
    numbered and the notes go under the last. ``[t]`` when it fits already."""
    if text_width(t, width) <= limit or len(groups) < 2:
        return [t]
    pieces: list[list[int]] = []
    for group in groups:
        trial = (pieces[-1] if pieces else []) + list(group)
        if pieces and text_width(_columns(t, [*range(keep), *trial]), width) <= limit:
            pieces[-1] = trial
        else:
            pieces.append(list(group))
    out = []
    for k, piece in enumerate(pieces):
        sub = _columns(t, [*range(keep), *piece])
        title = f"{t.title} ({k + 1}/{len(pieces)})" if t.title else ""
        out.append(Table(sub.columns, sub.rows, title, t.notes if k == len(pieces) - 1 else ()))
    return out


def _columns(t: Table, index: Sequence[int]) -> Table:
    return Table(tuple(t.columns[j] for j in index), tuple(tuple(r[j] for j in index) for r in t.rows),
                 t.title, t.notes)
