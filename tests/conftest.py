"""Shared test helpers: where the read-only WMT22 data lives.

Tests that read ``../shared`` skip when it is absent on a developer's machine; under CI (``CI`` set)
a missing folder fails the whole run at start, with the reason (a skip there would hide the parity
and jar checks).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
WMT22 = SHARED / "data" / "wmt22"
ORACLES = SHARED / "oracles"


def wmt22_pairs() -> list[str]:
    if not WMT22.is_dir():
        return []
    return sorted(p.name for p in WMT22.iterdir() if (p / "meta.json").is_file())


def pair_meta(pair: str) -> dict:
    return json.loads((WMT22 / pair / "meta.json").read_text(encoding="utf-8"))


needs_wmt22 = pytest.mark.skipif(not WMT22.is_dir(), reason="../shared/data/wmt22 not present")


def pytest_sessionstart(session: pytest.Session) -> None:
    """Under CI the comparisons against ../shared must run: fail at once when it is missing."""
    if os.environ.get("CI") and not (WMT22.is_dir() and ORACLES.is_dir()):
        raise pytest.UsageError(
            f"CI is set but the shared data is missing: expected {WMT22} and {ORACLES} "
            "(the WMT22 parity and METEOR jar tests cannot run without them)")
