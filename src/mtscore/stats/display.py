"""How statistics results show themselves: a short ``repr``, an HTML table in notebooks
(``_repr_html_``) and ``to_pandas()`` (pandas is optional: imported only there); and their one
base, :class:`StatisticResult`, with scipy.stats' names (``statistic``, ``pvalue``,
``confidence_interval()``)."""

from __future__ import annotations

import dataclasses
import html
import math
import warnings
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar

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
        from ..errors import require_extra

        pd = require_extra("pandas", "pandas", "to_pandas()")
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


class StatisticResult(ResultDisplay):
    """The base of the statistics results, in scipy.stats' names (as ``scipy.stats.pearsonr``'s
    result): ``statistic`` (the test statistic, correlation or score difference), ``pvalue`` (NaN
    where the result has none) and ``confidence_interval()`` -> ``(low, high)`` (NaN, NaN where it
    has none). Renamed fields keep their old names for one release (:func:`renamed`); the written
    formats (``to_dict``: JSON output) keep their keys (:attr:`OUTPUT_KEYS`: sacreBLEU's
    ``p_value``)."""

    #: field -> its key in ``to_dict`` (the JSON output), where that differs from the field's name
    OUTPUT_KEYS: ClassVar[Mapping[str, str]] = MappingProxyType({})

    def to_dict(self) -> dict[str, Any]:
        """Every field, under its key in the written formats (:attr:`OUTPUT_KEYS`; an interval's
        ends as ``low`` and ``high``)."""
        return {self.OUTPUT_KEYS.get(k, _INTERVAL_KEYS.get(k, k)): v for k, v in self.__dict__.items()}

    def records(self) -> list[dict[str, Any]]:
        """As :meth:`ResultDisplay.records`, an interval's ends as ``low`` and ``high``."""
        return [{_INTERVAL_KEYS.get(k, k): v for k, v in row.items()} for row in super().records()]

    def confidence_interval(self) -> tuple[float, float]:
        """The interval ``(low, high)`` (NaN, NaN when none was computed)."""
        low, high = getattr(self, "ci_low", None), getattr(self, "ci_high", None)
        return (math.nan if low is None else float(low), math.nan if high is None else float(high))


#: the fields that hold an interval's ends (read with ``confidence_interval()``) -> their names in
#: the written formats and tables (the fields' names before ``confidence_interval()``)
_INTERVAL_KEYS = MappingProxyType({"ci_low": "low", "ci_high": "high"})


class _Renamed:
    """A field's old name: reads it, with a :class:`DeprecationWarning`."""

    def __init__(self, new: str, use: str | None = None):
        self.new = new
        self.use = use or new
        self.old = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.old = name

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        if obj is None:
            return self
        warnings.warn(f"{type(obj).__name__}.{self.old} is deprecated (removed in the next "
                      f"release): use .{self.use}", DeprecationWarning, stacklevel=2)
        return getattr(obj, self.new)


def renamed(new: str, use: str | None = None) -> Any:
    """The old name of field ``new`` (a class attribute: ``p_value = renamed("pvalue")``); ``use``:
    what the warning tells to use instead, if not ``new`` itself."""
    return _Renamed(new, use)
