"""The official task sets of the WMT metrics shared tasks (mt-metrics-eval ``tasks.py``: ``WMT23()``,
``WMT24()``, ``WMT25()``), as task descriptions over the language pairs given.

* WMT23 (Freitag et al., 2023, §4): system-level pairwise accuracy over all pairs at once (weight:
  the number of pairs), and per pair system-level Pearson, segment-level Pearson (no grouping) and
  segment-level tie-calibrated pairwise accuracy acc23 grouped by item (weight 1 each); the
  significance test is PERM-BOTH, and for acc23 the pairwise permutation test.
* WMT24 (Freitag et al., 2024) and WMT25: per pair soft pairwise accuracy (SPA, system level,
  PERM-BOTH) and acc23 grouped by item (pairwise permutation test), all weights equal.

Human systems (``HUMAN-X``, other than the reference the metrics use) are scored as systems in
WMT23 and WMT24 when the pair has more than one reference (mt-metrics-eval lists the official
pairs with several references), never in WMT25.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import OptionError

TASK_SETS = ("wmt23", "wmt24", "wmt25")
#: statistic -> (level, significance test, range of values for averaging)
STATISTICS = {
    "accuracy": ("system", "PERM-BOTH", (0.0, 1.0)),
    "pearson-system": ("system", "PERM-BOTH", (-1.0, 1.0)),
    "pearson-segment": ("segment", "PERM-BOTH", (-1.0, 1.0)),
    "acc23": ("segment", "pairs", (0.0, 1.0)),
    "spa": ("system", "PERM-BOTH", (0.0, 1.0)),
}


@dataclass(frozen=True)
class MetaTask:
    """One task: a statistic over one language pair (or over all, for WMT23's accuracy)."""

    #: the data sets' names (one, or all for WMT23's global accuracy)
    pairs: tuple[str, ...]
    statistic: str
    weight: float

    @property
    def level(self) -> str:
        return STATISTICS[self.statistic][0]

    @property
    def test(self) -> str:
        return STATISTICS[self.statistic][1]

    @property
    def value_range(self) -> tuple[float, float]:
        return STATISTICS[self.statistic][2]

    @property
    def name(self) -> str:
        pairs = ",".join(self.pairs)
        shown = {"spa": "SPA", "acc23": "acc23 (by item)", "accuracy": "pairwise accuracy"}
        return f"{pairs} {self.level} {shown.get(self.statistic, 'Pearson')}"


def task_set(year: str, pairs: Sequence[str]) -> tuple[MetaTask, ...]:
    """The tasks of ``year``'s set over ``pairs`` (sorted, as tasks.py sorts them), with weights
    summing to 1."""
    if year not in TASK_SETS:
        raise OptionError("task set", year, TASK_SETS)
    lps = tuple(sorted(pairs))
    if not lps:
        raise OptionError("language pairs", "", detail="give at least one data set")
    raw: list[tuple[tuple[str, ...], str, float]] = []
    if year == "wmt23":
        raw.append((lps, "accuracy", float(len(lps))))
        for lp in lps:
            raw += [((lp,), "pearson-system", 1.0), ((lp,), "pearson-segment", 1.0),
                    ((lp,), "acc23", 1.0)]
    else:
        for lp in lps:
            raw += [((lp,), "spa", 1.0), ((lp,), "acc23", 1.0)]
    total = sum(w for _, _, w in raw)
    return tuple(MetaTask(p, s, w / total) for p, s, w in raw)


def includes_human_systems(year: str, references: int) -> bool:
    """Whether the year's tasks score human systems of a pair with ``references`` references."""
    return year != "wmt25" and references > 1


__all__ = ["STATISTICS", "TASK_SETS", "MetaTask", "includes_human_systems", "task_set"]
