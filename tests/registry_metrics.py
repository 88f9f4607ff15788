"""The registry's metrics for parametrized tests (a helper module, not a test module).

Every suite that must hold for every metric (streaming, Dask, parallel runs, fuzzed files, the
metric contract) takes its list from here, so a metric added to :mod:`mtscore.metrics.registry`
is tested by all of them without editing one.
"""

from __future__ import annotations

from typing import Any

from mtscore.metrics import registry


def distinct_names() -> tuple[str, ...]:
    """Every command-line name whose metric differs from an earlier name's (``chrF2`` is
    ``chrf``'s metric, so it is left out)."""
    seen: set[str] = set()
    out = []
    for entry in registry.entries():
        signature = str(entry.create().signature())
        if signature not in seen:
            seen.add(signature)
            out.append(entry.name)
    return tuple(out)


NAMES = distinct_names()


def metrics() -> list[Any]:
    """One metric object per distinct name, with the settings the name stands for."""
    return [registry.get(name).create() for name in NAMES]
