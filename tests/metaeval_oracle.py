"""The committed mt-metrics-eval oracle (scripts/make_metaeval_oracle.py) and the data it was made
on, for the meta-evaluation tests: missing oracle -> skip locally, fail under CI."""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mtscore.io.dataset import load_dataset
from mtscore.study.meta_data import PairData, pair_data

from .conftest import WMT22

ORACLE = Path(__file__).parent / "data" / "metaeval" / "oracle.json"


def oracle() -> dict[str, Any]:
    """The oracle JSON; fails under CI when it (or the shared data) is missing, else skips."""
    if not ORACLE.is_file() or not WMT22.is_dir():
        what = ORACLE if not ORACLE.is_file() else WMT22
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {what} is missing (make it with "
                        "scripts/make_metaeval_oracle.py)")
        pytest.skip(f"{what} not present")
    return json.loads(ORACLE.read_text(encoding="utf-8"))


def oracle_part(name: str) -> Any:
    """One section of the oracle; a missing section is handled as a missing oracle."""
    data = oracle()
    if name not in data:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {ORACLE} has no {name!r} section (make it with "
                        "scripts/make_metaeval_oracle.py)")
        pytest.skip(f"{ORACLE} has no {name!r} section")
    return data[name]


@cache
def wmt22(pair: str) -> PairData:
    """The oracle's matrices: BLEU, chrF, METEOR against DA z, WMT24 systems."""
    return pair_data(load_dataset(WMT22 / pair), ("bleu", "chrf", "meteor"), human=True)


def oracle_columns(human: np.ndarray, count: int) -> np.ndarray:
    return np.flatnonzero((~np.isnan(human)).all(axis=0))[:count]


def monte_carlo_close(p1: float, p2: float, draws: int) -> bool:
    """Two independent permutation estimates of one p-value agree within 4 standard errors of
    their difference (plus one draw's resolution)."""
    p = (p1 + p2) / 2
    return abs(p1 - p2) <= 4 * np.sqrt(2 * p * (1 - p) / draws) + 1.0 / draws
