"""Data shipped with the package: the embedded WMT22 sample (see its meta.json for credit)."""

from __future__ import annotations

from pathlib import Path

SAMPLE_NAME = "wmt22-de-en"


def sample_path() -> Path:
    """Folder of the embedded sample data set (WMT22 de-en, 427 segments, all systems, human scores)."""
    return Path(__file__).resolve().parent / "sample" / SAMPLE_NAME
