"""Shared test helpers: where the read-only WMT22 data lives (tests skip when it is absent)."""

from __future__ import annotations

import json
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
