"""One :class:`~mtscore.report.tables.Table` as HTML (its ``_repr_html_`` and the report's tables):
numeric columns right-aligned, signatures in monospace, notes under it, long tables folded.
"""

from __future__ import annotations

import html
import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Table._repr_html_ imports this module
    from .tables import Table


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _is_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    return hasattr(value, "dtype") and getattr(value, "ndim", 1) == 0


def _cell(value: Any, width: int) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if hasattr(value, "item") and getattr(value, "ndim", 1) == 0:
        value = value.item()
    if isinstance(value, float):
        if math.isnan(value):
            return "–"
        return f"{value:.{width}f}"
    return str(value)


def _looks_like_signature(text: str) -> bool:
    return "|" in text and ":" in text and " " not in text.strip()


def _sig(text: str) -> str:
    """A signature, escaped, that a narrow screen wraps after a ``|`` (never inside a field)."""
    return "|<wbr>".join(_esc(part) for part in text.split("|"))


def _note_html(note: str) -> str:
    """A table note: a signature (optionally ``label: signature``) in monospace, else prose."""
    if _looks_like_signature(note):
        return f'<div class="sigline">{_sig(note)}</div>'
    label, sep, rest = note.partition(": ")
    if sep and " " not in label and _looks_like_signature(rest):
        return f'<div class="sigline"><b>{_esc(label)}</b> {_sig(rest)}</div>'
    return f"<p>{_esc(note)}</p>"


#: tables with more rows than this are folded (``<details>``) under their title
FOLD_ROWS = 40


def table_html(table: Table, width: int = 2) -> str:
    """One table as HTML: numeric columns right-aligned, numbers rounded to ``width`` decimals,
    signature columns in small monospace, notes under it; long tables folded under their title."""
    numeric = [bool(table.rows) and all(_is_number(r[j]) or r[j] is None for r in table.rows)
               for j in range(len(table.columns))]
    sig_col = [all(isinstance(r[j], str) and _looks_like_signature(r[j]) for r in table.rows)
               and bool(table.rows) for j in range(len(table.columns))]
    out = ['<div class="tablewrap"><table>']
    if table.title:
        out.append(f"<caption>{_esc(table.title)}</caption>")
    out.append("<thead><tr>" + "".join(
        f'<th{" class=num" if n else ""} scope="col">{_esc(c)}</th>'
        for c, n in zip(table.columns, numeric)) + "</tr></thead><tbody>")
    for row in table.rows:
        cells = []
        for j, value in enumerate(row):
            cls = "num" if numeric[j] else ("sig" if sig_col[j] else "")
            attr = f' class="{cls}"' if cls else ""
            text = _cell(value, width)
            cells.append(f"<td{attr}>{_sig(text) if sig_col[j] else _esc(text)}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    if table.notes:
        out.append('<div class="tnotes">' + "".join(_note_html(n) for n in table.notes) + "</div>")
    out.append("</div>")
    if len(table.rows) > FOLD_ROWS:
        label = f"{table.title or 'Table'} ({len(table.rows)} rows)"
        out = [f'<details class="fold"><summary>{_esc(label)}</summary>', *out, "</details>"]
    return "\n".join(out)
