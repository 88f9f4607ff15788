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
from mtscore.stats.rank_clusters import assign_ranks
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


def check_against_oracle(perm: dict, name: str, got: dict, statistic: dict[str, float]) -> None:
    """Our tests ``got`` (pairs as :func:`oracle_pairs`) against the oracle section ``name``:
    statistics to 1e-9, p-values within Monte-Carlo error, the same rank clusters."""
    draws = perm["draws"]
    for key, want in perm[name]["tests"].items():
        b, a = key.split(">")
        mine = got[(a, b)]
        assert mine.statistic == pytest.approx(want["delta"], abs=1e-9), key
        # the null distributions are discrete: draws whose difference equals the observed one
        # (in exact arithmetic) count as >= here; mt-metrics-eval's float path drops some of them
        # (de-en BLEU vs chrF acc23: exactly, P(>=) = 0.967 and P(>) = 0.959; it gives 0.956).
        # Its p-value must lie between our P(>) and P(>=), up to Monte-Carlo error.
        p_gt = float(np.mean(mine.null > mine.statistic + 1e-12))
        p_ge = float(np.mean(mine.null >= mine.statistic - 1e-12))
        assert monte_carlo_close(mine.pvalue, p_ge, draws)
        low, high = min(p_gt, want["pvalue"]), max(p_ge, want["pvalue"])
        assert (monte_carlo_close(p_gt, want["pvalue"], draws) or
                monte_carlo_close(p_ge, want["pvalue"], draws) or
                (p_gt <= want["pvalue"] <= p_ge)), (key, p_gt, p_ge, want, low, high)
    # rank clusters: p-value matrices in decreasing order of the statistic, both tools
    order = sorted(statistic, key=lambda m: (-statistic[m], m))
    n = len(order)
    mine_p, mme_p = np.zeros((n, n)), np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            mine_p[i, j] = got[(order[j], order[i])].pvalue if (order[j], order[i]) in got else \
                1 - got[(order[i], order[j])].pvalue
            key = f"{order[i]}>{order[j]}"
            mme_p[i, j] = perm[name]["tests"][key]["pvalue"] if key in perm[name]["tests"] else \
                1 - perm[name]["tests"][f"{order[j]}>{order[i]}"]["pvalue"]
    assert assign_ranks(mine_p) == assign_ranks(mme_p)


def oracle_pairs(labels: list[str]) -> list[tuple[str, str]]:
    """The oracle's tests: for a before b (sorted), "a is better than b" = the pair (b, a)."""
    return [(b, a) for i, a in enumerate(labels) for b in labels[i + 1:]]
