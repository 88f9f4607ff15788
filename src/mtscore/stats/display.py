"""How statistics results show themselves: a short ``repr``, an HTML table in notebooks
(``_repr_html_``) and ``to_pandas()`` (pandas is optional: imported only there)."""

from __future__ import annotations

import dataclasses
import html
import math
from typing import Any

#: longest text of one field in a ``repr``
_FIELD = 60
#: rows shown by ``_repr_html_``
_HTML_ROWS = 50


def _short(value: Any) -> str:
    if isinstance(value, float):
        return "nan" if math.isnan(value) else f"{value:.6g}"
    if isinstance(value, (str, int, bool)) or value is None:
        text = repr(value)
        return text if len(text) <= _FIELD else text[:_FIELD - 4] + "…'"
    if hasattr(value, "__len__"):
        return f"<{len(value)} items>"
    return f"<{type(value).__name__}>"


class ResultDisplay:
    """Mixin for frozen result dataclasses (declared with ``repr=False``): ``records()`` gives the
    rows that ``_repr_html_`` and ``to_pandas`` show (default: one row of the scalar fields)."""

    def records(self) -> list[dict[str, Any]]:
        return [{f.name: getattr(self, f.name) for f in dataclasses.fields(self)  # type: ignore[arg-type]
                 if isinstance(getattr(self, f.name), (str, int, float, bool, type(None)))}]

    def __repr__(self) -> str:
        fields = dataclasses.fields(self)  # type: ignore[arg-type]
        parts = [f"{f.name}={_short(getattr(self, f.name))}" for f in fields]
        text = f"{type(self).__name__}({', '.join(parts)})"
        return text if len(text) < 990 else text[:985] + "…)"

    def to_pandas(self) -> Any:
        """The rows of :meth:`records` as a :class:`pandas.DataFrame`."""
        import pandas as pd

        return pd.DataFrame(self.records())

    def _repr_html_(self) -> str:
        rows = self.records()
        columns = list(dict.fromkeys(k for row in rows for k in row))
        head = "".join(f"<th>{html.escape(str(c))}</th>" for c in columns)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(_short(row.get(c)).strip(chr(39)))}</td>"
                                        for c in columns) + "</tr>" for row in rows[:_HTML_ROWS])
        more = f"<p>… {len(rows) - _HTML_ROWS} more rows</p>" if len(rows) > _HTML_ROWS else ""
        return (f"<p><b>{type(self).__name__}</b></p><table><thead><tr>{head}</tr></thead>"
                f"<tbody>{body}</tbody></table>{more}")
